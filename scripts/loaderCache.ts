/**
 * Framework re-runs a data loader only when the loader file itself is newer than its cached output
 * (`site/.observablehq/cache/<name>`): an edit in a module the loader imports (the library, or a
 * helper in site/data/helpers/) would leave a stale page. This module closes that gap (see
 * docs/design.md#site):
 *
 * - `invalidateStaleLoaders()` hashes every loader's own file and the local modules it imports,
 *   transitively, and deletes the cached output of each loader whose hash differs from the one
 *   recorded at the last call (`site/.observablehq/cache/loader-inputs.json`). observablehq.config.ts
 *   calls it each time Framework loads the configuration, so `npm run build` and `npm run dev` start
 *   from fresh loader outputs.
 * - `watchLoaderInputs()` (the preview only) watches src/ and site/data/ and, when a loader's inputs
 *   change, touches the loader file: Framework's preview watches loader files, so the page reloads
 *   with the loader re-run, as if the loader itself had been edited.
 *
 * Imports are read from the source text (static `import … from "./x.js"`, `export … from`, literal
 * `import("./x.js")`); a `.js` specifier finds the `.ts` file beside it, as tsx and Framework do.
 * Bare specifiers (npm packages) are not followed: their versions change with package-lock.json,
 * which is hashed too.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SITE = join(repo, "site");
const CACHE = join(SITE, ".observablehq", "cache");
const RECORD = join(CACHE, "loader-inputs.json");

/** A data loader: `name.ext.ts` (Framework runs it with tsx and serves its stdout as `name.ext`). */
export const LOADER = /\.[a-z]+\.ts$/;

/** The loaders under site/ (not following the site/lib link into the library). */
export function siteLoaders(dir = SITE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name.startsWith(".") || entry.isSymbolicLink()) return [];
    if (entry.isDirectory()) return siteLoaders(path);
    return LOADER.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

function resolveModule(from: string, specifier: string): string | undefined {
  const path = resolve(dirname(from), specifier);
  for (const candidate of [path, path.replace(/\.js$/, ".ts"), `${path}.ts`, join(path, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The loader and every local module it imports, transitively (absolute paths, sorted). */
export function loaderInputs(loader: string): string[] {
  const seen = new Set<string>();
  const stack = [loader];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolveModule(file, specifier!);
      if (target !== undefined && !seen.has(target)) stack.push(target);
    }
  }
  return [...seen].sort();
}

function inputsHash(loader: string): string {
  const hash = createHash("sha256");
  for (const file of [...loaderInputs(loader), join(repo, "package-lock.json")]) {
    if (!existsSync(file)) continue;
    hash.update(relative(repo, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function readRecord(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(RECORD, "utf8"));
  } catch {
    return {};
  }
}

/**
 * Deletes the cached output of every loader whose inputs changed since the last call (or that has
 * no record), and records the new hashes. Returns the loaders whose recorded hash changed (paths
 * under site/; a loader seen for the first time is not among them).
 */
export function invalidateStaleLoaders(): string[] {
  const record = readRecord();
  const next: Record<string, string> = {};
  const stale: string[] = [];
  for (const loader of siteLoaders()) {
    const name = relative(SITE, loader);
    next[name] = inputsHash(loader);
    if (record[name] === next[name]) continue;
    rmSync(join(CACHE, name.replace(/\.ts$/, "")), { force: true });
    if (record[name] !== undefined) stale.push(name);
  }
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(RECORD, `${JSON.stringify(next, null, 2)}\n`);
  return stale;
}

/**
 * In the preview: when a file under src/ or site/data/ changes, touch each loader whose inputs
 * changed, so Framework re-runs it and reloads the page. Returns a function that stops watching.
 */
export function watchLoaderInputs(log: (line: string) => void = () => {}): () => void {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    for (const name of invalidateStaleLoaders()) {
      const now = new Date();
      utimesSync(join(SITE, name), now, now);
      log(`loader inputs changed: re-running ${name}`);
    }
  };
  const onChange = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 200);
  };
  const watchers = [join(repo, "src"), join(SITE, "data")].map((dir) => watch(dir, { recursive: true }, onChange));
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
