// The Framework site builds offline: a cold `observable build` with every network request from
// Node blocked exits 0 and says nothing alarming, and nothing under dist/ points at a remote host,
// imports a module the browser cannot find, or fails to parse; the KaTeX wiring is in place.
import test from "node:test";
import assert from "node:assert/strict";
import {spawnSync} from "node:child_process";
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {delimiter, dirname, extname, join, posix, relative, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {transform} from "esbuild";
import katex from "katex";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(repo, "dist");

// Preloaded into every Node process of the build (Framework and its tsx data loaders) through
// NODE_OPTIONS: fetch() and TCP connections to anything but loopback throw and leave a marker on
// stderr, so a CDN, font-server or registry request fails the build and this test, even on a
// machine that is online.
const networkGuard = `
import net from "node:net";
const block = (what) => { process.stderr.write("BLOCKED-NETWORK " + what + "\\n"); return new Error("offline build: blocked network request to " + what); };
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

// The only http(s) URLs allowed in the output: XML namespace names. They are identifiers passed to
// createElementNS / written as xmlns attributes (KaTeX's SVG and MathML output, the theme's inline
// data:image/svg+xml icons, d3/Plot's namespaces); a browser never requests them.
const xmlNamespaces = new Set([
  "http://www.w3.org/2000/svg",
  "http://www.w3.org/1998/Math/MathML",
  "http://www.w3.org/1999/xhtml",
  "http://www.w3.org/1999/xlink",
  "http://www.w3.org/XML/1998/namespace",
  "http://www.w3.org/2000/xmlns/"
]);

// Files read as text. Binary assets (fonts, wasm, images) cannot issue a request by themselves;
// whatever loads them is one of these files.
const textExtensions = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".csv", ".md", ".map", ".xml"]);

function walk(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]
  );
}

/** Module specifiers of static imports, re-exports, side-effect imports and dynamic imports. */
function importSpecifiers(code: string): string[] {
  const pattern = /\bimport\s*\(\s*(["'`])([^"'`]+)\1|\bfrom\s*(["'])([^"']+)\3|\bimport\s*(["'])([^"']+)\5/g;
  return Array.from(code.matchAll(pattern), (m) => m[2] ?? m[4] ?? m[6] ?? "");
}

function moduleScripts(html: string): string[] {
  return Array.from(html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g), (m) => m[1]!);
}

test("the site builds offline and dist/ references no remote host", {timeout: 300_000}, async (t) => {
  rmSync(join(repo, "src", ".observablehq", "cache"), {recursive: true, force: true});
  rmSync(dist, {recursive: true, force: true});

  // `npx observable build` without npm in between; node_modules/.bin goes on PATH as npx puts it
  // there, because Framework runs .ts data loaders by spawning `tsx`.
  const bin = join(repo, "node_modules", "@observablehq", "framework", "dist", "bin", "observable.js");
  const guardDir = mkdtempSync(join(tmpdir(), "consolesr-site-"));
  t.after(() => rmSync(guardDir, {recursive: true, force: true}));
  const guardFile = join(guardDir, "network-guard.mjs");
  writeFileSync(guardFile, networkGuard);
  const guard = `--import=${pathToFileURL(guardFile).href}`;
  const started = performance.now();
  const build = spawnSync(process.execPath, [bin, "build"], {
    cwd: repo,
    encoding: "utf8",
    timeout: 240_000,
    env: {
      ...process.env,
      OBSERVABLE_TELEMETRY_DISABLE: "true",
      NO_COLOR: "1",
      NODE_OPTIONS: [process.env.NODE_OPTIONS, guard].filter(Boolean).join(" "),
      PATH: [join(repo, "node_modules", ".bin"), process.env.PATH].join(delimiter)
    }
  });
  t.diagnostic(`cold build: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const output = `${build.stdout}\n${build.stderr}`;
  assert.equal(build.error, undefined, `build did not run: ${build.error}`);
  assert.equal(build.status, 0, `observable build exited ${build.status}:\n${output}`);
  assert.doesNotMatch(output, /BLOCKED-NETWORK/, "the build made a network request");
  // Framework reports some failures as a line and still exits 0 (a non-local import, a missing
  // npm package): any such line fails the test.
  const alarming = output.split("\n").filter((line) => /non-local|error|warn|unable|not found|unresolved|fail/i.test(line));
  assert.deepEqual(alarming, [], "alarming lines in the build output");

  const files = walk(dist);
  const pages = files.filter((file) => file.endsWith(".html"));
  assert.ok(pages.includes(join(dist, "index.html")), "dist/index.html was not built");

  // 1. No http(s) URL anywhere in a text file of the output, XML namespace names aside.
  const remote: string[] = [];
  for (const file of files.filter((f) => textExtensions.has(extname(f)))) {
    for (const [url] of readFileSync(file, "utf8").matchAll(/https?:\/\/[^\s"'`()<>\\]*/g)) {
      if (!xmlNamespaces.has(url)) remote.push(`${relative(dist, file)}: ${url}`);
    }
  }
  assert.deepEqual(remote, [], "remote URLs in dist/");

  // 2. Modules: every import is relative (a bare specifier left unresolved, like an npm package
  // Framework could not find, fails in the browser), and those of the pages and their own modules
  // resolve to files that exist. Framework's client (dist/_observablehq/) also names stdlib and
  // npm modules for the implicit globals, which are built only when a page uses them, so only the
  // relative form is checked there.
  for (const file of files.filter((f) => f.endsWith(".js") || f.endsWith(".html"))) {
    const code = readFileSync(file, "utf8");
    const internal = relative(dist, file).startsWith("_observablehq");
    for (const specifier of importSpecifiers(file.endsWith(".html") ? moduleScripts(code).join("\n") : code)) {
      assert.match(specifier, /^\.{0,2}\//, `${relative(dist, file)} imports ${specifier}`);
      if (!internal) assert.ok(existsSync(resolve(dirname(file), specifier)), `${relative(dist, file)} imports missing ${specifier}`);
    }
  }

  // 3. Pages: no cell that failed to compile, stylesheets and preloads exist, and the page scripts
  // parse (a top-level await inside a loop of a cell compiles to a non-async function).
  for (const page of pages) {
    const html = readFileSync(page, "utf8");
    const name = relative(dist, page);
    assert.doesNotMatch(html, /observablehq--error/, `${name} has a cell that failed to compile`);
    for (const [, href] of html.matchAll(/<link [^>]*href="([^"]+)"/g)) {
      assert.ok(existsSync(resolve(dirname(page), href!)), `${name} links missing ${href}`);
    }
    for (const script of moduleScripts(html)) {
      await transform(script, {loader: "js", format: "esm"}).catch((error: Error) => {
        assert.fail(`${name}: a module script does not parse: ${error.message}`);
      });
    }
  }

  // 4. KaTeX: the home page imports the tex helper, which imports the self-hosted katex module;
  // the page links the KaTeX stylesheet whose fonts are all inlined woff2 data URLs; the TeX on
  // the page is valid.
  const index = readFileSync(join(dist, "index.html"), "utf8");
  const helper = /import\("\.\/(_import\/docs\/components\/katex\.[0-9a-f]+\.js)"\)/.exec(index)?.[1];
  assert.ok(helper, "index.html does not import the tex helper (src/docs/components/katex.js)");
  const katexModule = importSpecifiers(readFileSync(join(dist, helper), "utf8"))
    .map((specifier) => posix.join(posix.dirname(helper), specifier))
    .find((path) => /^_node\/katex@[^/]+\/index\.[0-9a-f]+\.js$/.test(path));
  assert.ok(katexModule && existsSync(join(dist, katexModule)), "the tex helper does not import the self-hosted katex");
  const stylesheet = /<link rel="stylesheet" href="\.\/(_file\/docs\/components\/katex\.[0-9a-f]+\.css)">/.exec(index)?.[1];
  assert.ok(stylesheet, "index.html does not link the KaTeX stylesheet");
  const css = readFileSync(join(dist, stylesheet), "utf8");
  const fontFaces = css.match(/@font-face\{[^}]*\}/g) ?? [];
  assert.ok(fontFaces.length >= 20, `expected KaTeX's 20 @font-face rules, found ${fontFaces.length}`);
  for (const face of fontFaces) {
    assert.match(face, /src:url\(data:font\/woff2;base64,[A-Za-z0-9+/=]+\) format\("woff2"\)[;}]/, face.slice(0, 120));
  }
  assert.deepEqual(css.match(/url\((?!data:)[^)]*\)/g), null, "the KaTeX stylesheet refers to files");
  const texSources = Array.from(index.matchAll(/\btex\(String\.raw`([^`]*)`|\btex\("([^"\\]*)"/g), (m) => m[1] ?? m[2]!);
  assert.ok(texSources.some((source) => source.includes(String.raw`y_1 &= 3\,x_1^{2}\cos(2.5\,x_2)`)), "the syn1 equations are not on the home page");
  for (const source of texSources) {
    assert.doesNotThrow(() => katex.renderToString(source, {throwOnError: true}), `invalid TeX: ${source}`);
  }
});
