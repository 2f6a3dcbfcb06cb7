/**
 * The built site, shared by the tests that need it (test/browser/) and the browser
 * bench: one cold, offline `observable build` per `npm test`, a static server for dist/, and
 * Debian's chromium driven by playwright-core.
 *
 * Once per `npm test`: node's test runner runs each test file in its own process, all children of
 * the runner, so the first file to ask builds (under a lock) and records the runner's pid with the
 * build's output; later files of the same run reuse it. CONSOLESR_REUSE_DIST=1 reuses any finished
 * build (for working on one browser test).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { delimiter, extname, join, normalize, resolve, sep } from "node:path";
import type { TestContext } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepareBrowserVendor } from "../../scripts/browserVendor.js";

export const repo = fileURLToPath(new URL("../..", import.meta.url));
export const dist = join(repo, "dist");
// Outside the working tree (nothing to git-ignore) and outside dist/ (which the site test scans).
const stateDir = join(tmpdir(), `consolesr-site-${createHash("sha1").update(repo).digest("hex").slice(0, 10)}`);
const stampFile = join(stateDir, "build.json");
const lockDir = join(stateDir, "lock");

// Preloaded into every Node process of the build (Framework and its tsx data loaders) through
// NODE_OPTIONS: fetch() and TCP connections to anything but loopback throw and leave a marker on
// stderr, so a CDN, font-server or registry request fails the build and the site test, even on a
// machine that is online.
const networkGuard = `
import net from "node:net";
const block = (what) => {
  process.stderr.write("BLOCKED-NETWORK " + what + "\\n");
  return new Error("offline build: blocked network request to " + what);
};
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = String(input?.url ?? input);
  if (/^(data|blob|file):/.test(url)) return realFetch(input, init);
  throw block(url);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === "object" ? first
    : typeof first === "string" && !/^\\d+$/.test(first) ? {path: first} : {port: first, host: args[1]};
  if (options.path == null) {
    const host = typeof options.host === "string" ? options.host : "localhost";
    if (!["localhost", "127.0.0.1", "::1"].includes(host)) throw block(host + ":" + options.port);
  }
  return connect.apply(this, args);
};
`;

export interface SiteBuild {
  /** Exit status of `observable build` (null if it did not run to the end). */
  status: number | null;
  /** stdout and stderr of the build. */
  output: string;
  seconds: number;
  /** Why it did not run, if it did not. */
  error?: string;
  /** Whether this process reused a build made earlier in the same test run. */
  reused: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Runs `what` holding a lock shared by every test process of this checkout (a folder with the holder's pid). */
async function withLock<T>(what: () => Promise<T> | T): Promise<T> {
  mkdirSync(stateDir, { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      break;
    } catch {
      // A lock whose holder is gone (a killed test run) is taken over.
      const holder = Number(existsSync(join(lockDir, "pid")) ? readFileSync(join(lockDir, "pid"), "utf8") : 0);
      if (holder > 0 && !alive(holder)) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`site build: ${lockDir} held by pid ${holder} for 10 minutes`);
      await sleep(500);
    }
  }
  try {
    return await what();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Writes the network guard (see above) into `dir` and returns the node option that preloads it:
 * a process started with it in NODE_OPTIONS (and every Node process it starts) cannot reach the
 * network, and a try leaves "BLOCKED-NETWORK" on stderr.
 */
export function networkGuardOption(dir: string): string {
  const guardFile = join(dir, "network-guard.mjs");
  writeFileSync(guardFile, networkGuard);
  return `--import=${pathToFileURL(guardFile).href}`;
}

/** A cold (cache deleted), offline build of the site into dist/. */
function coldBuild(): Omit<SiteBuild, "reused"> {
  rmSync(join(repo, "site", ".observablehq", "cache"), { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
  const guardDir = mkdtempSync(join(tmpdir(), "consolesr-site-"));
  try {
    const guard = networkGuardOption(guardDir);
    // `npx observable build` without npm in between; node_modules/.bin goes on PATH as npx puts it
    // there, because Framework runs .ts data loaders by spawning `tsx`.
    const bin = join(repo, "node_modules", "@observablehq", "framework", "dist", "bin", "observable.js");
    const started = performance.now();
    const build = spawnSync(process.execPath, [bin, "build"], {
      cwd: repo,
      encoding: "utf8",
      timeout: 400_000,
      env: {
        ...process.env,
        OBSERVABLE_TELEMETRY_DISABLE: "true",
        NO_COLOR: "1",
        NODE_OPTIONS: [process.env.NODE_OPTIONS, guard].filter(Boolean).join(" "),
        PATH: [join(repo, "node_modules", ".bin"), process.env.PATH].join(delimiter),
      },
    });
    return {
      status: build.status,
      output: `${build.stdout ?? ""}\n${build.stderr ?? ""}`,
      seconds: (performance.now() - started) / 1000,
      ...(build.error ? { error: String(build.error) } : {}),
    };
  } finally {
    rmSync(guardDir, { recursive: true, force: true });
  }
}

/** The site built once per test run (see the module comment). */
export async function buildSite(): Promise<SiteBuild> {
  return withLock(async () => {
    const owner = String(process.ppid);
    if (existsSync(stampFile) && existsSync(join(dist, "index.html"))) {
      const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as Omit<SiteBuild, "reused"> & { owner: string };
      if (stamp.owner === owner || process.env.CONSOLESR_REUSE_DIST === "1") {
        const { owner: _, ...build } = stamp;
        return { ...build, reused: true };
      }
    }
    rmSync(stampFile, { force: true });
    // The vendor bundles go into the cache the cold build starts from (the config makes them too).
    await prepareBrowserVendor();
    const build = coldBuild();
    writeFileSync(stampFile, JSON.stringify({ ...build, owner }));
    return { ...build, reused: false };
  });
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".csv": "text/csv; charset=utf-8",
  ".woff2": "font/woff2",
};

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `root` on 127.0.0.1 (a free port) as a static site: `/toy` finds toy.html,
 * `/` finds index.html (Framework's clean URLs); hashed assets are cacheable, pages are not.
 */
export function serveStatic(root = dist, onMissing?: (path: string) => void): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    else if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
    if (!existsSync(file)) {
      onMissing?.(path);
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    // As a static host serves a Framework site: its assets (/_import/, /_node/, /_observablehq/,
    // /_file/) have content hashes or package versions in their paths and are cached for good, so a
    // worker's imports and a second visit come from the browser's cache; pages are never cached.
    // (Each test launches Chromium with a fresh profile: nothing outlives one build.)
    response.writeHead(200, {
      "content-type": types[extname(file)] ?? "application/octet-stream",
      "cache-control": path.startsWith("/_") ? "public, max-age=31536000, immutable" : "no-store",
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((ready) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      ready({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export const CHROMIUM = "/usr/bin/chromium";

/**
 * Debian's chromium (playwright cannot download browsers here); installed with apt-get when
 * missing, which says so on stderr in one line. Returns an error message when it cannot be had.
 */
export function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  process.stderr.write(
    "browser tests: /usr/bin/chromium is missing; " +
      "installing Debian's chromium (apt-get update && apt-get install -y chromium)\n",
  );
  try {
    execFileSync("apt-get", ["update"], { stdio: "ignore", timeout: 300_000 });
    execFileSync("apt-get", ["install", "-y", "chromium"], {
      stdio: "ignore",
      timeout: 600_000,
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } catch (error) {
    return `could not install chromium: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
  }
  return existsSync(CHROMIUM) ? undefined : "apt-get install chromium did not provide /usr/bin/chromium";
}

/** The flags docs/design.md#stack lists for headless Chromium as root here. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * How long a page may take to show what a test waits for: a bound on a hang, not on speed. The
 * suite must pass on a loaded machine (two busy processes beside it and two test files at a time
 * make a page load of 5 s take over 30 s, Playwright's default), so waits are generous; what a
 * test checks is the rule (what the page shows, in what order), never how soon.
 */
export const WAIT_MS = 180_000;

export interface Browser {
  context: import("playwright-core").BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile (`--user-data-dir` in a new temporary folder). */
export async function launchChromium(options: { downloads?: boolean } = {}): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "consolesr-chromium-"));
  // launchPersistentContext passes --user-data-dir=<profile> itself (Playwright refuses it in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    acceptDownloads: options.downloads ?? true,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A browser test's start: Chromium present (installed if missing), the site built (once per
 * `npm test`), dist/ served and Chromium launched, both closed when the test ends. `onMissing`
 * hears each request for a file dist/ does not have.
 */
export async function openBuiltSite(
  t: TestContext,
  onMissing?: (path: string) => void,
): Promise<{ server: StaticServer; browser: Browser }> {
  const install = ensureChromium();
  assert.equal(install, undefined, install);
  const build = await buildSite();
  assert.equal(build.status, 0, `the site build failed:\n${build.output}`);
  t.diagnostic(
    build.reused ? "site build shared with another test file" : `site built in ${build.seconds.toFixed(1)} s`,
  );
  const server = await serveStatic(dist, onMissing);
  const browser = await launchChromium();
  t.after(async () => {
    await browser.close();
    await server.close();
  });
  return { server, browser };
}
