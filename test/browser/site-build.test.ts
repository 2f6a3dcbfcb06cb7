// The Framework site builds offline: a cold `observable build` with every network request from
// Node blocked exits 0 and says nothing alarming, and nothing under dist/ points at a remote host,
// imports a module the browser cannot find, or fails to parse; the KaTeX wiring is in place.
// The build itself is test/helpers/site.ts's, made once per `npm test` and shared with the
// browser test (test/browser/playground.test.ts), which also checks that no page requests another origin.
import test from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, extname, join, posix, relative, resolve } from "node:path";
import { build as esbuild, transform } from "esbuild";
import katex from "katex";
import { execFileSync } from "node:child_process";
import { buildSite, dist, repo } from "../helpers/site.js";
import {
  BENCHMARK_FILES,
  committedResults,
  FRESHNESS_FILE,
  readFreshness,
  type FreshnessEntry,
} from "../../site/data/helpers/freshnessCode.js";

// The only http(s) URLs allowed in the output: XML namespace names. They are identifiers passed to
// createElementNS / written as xmlns attributes (KaTeX's SVG and MathML output, the theme's inline
// data:image/svg+xml icons, d3/Plot's namespaces); a browser never requests them.
const xmlNamespaces = new Set([
  "http://www.w3.org/2000/svg",
  "http://www.w3.org/1998/Math/MathML",
  "http://www.w3.org/1999/xhtml",
  "http://www.w3.org/1999/xlink",
  "http://www.w3.org/XML/1998/namespace",
  "http://www.w3.org/2000/xmlns/",
]);

// Third-party bundles (dist/_node/) also carry URLs inside string literals that no code fetches:
// documentation links in error messages and shader comments, JSON-schema identifiers, and zod's
// check that an IPv6 host parses as a URL. Each is allowed by its exact start, with the reason;
// anything else, and any URL in the site's own files, fails the test. (The browser test checks the
// running pages: no request leaves the origin.)
const inertUrls: [prefix: string, reason: string][] = [
  ["https://developer.mozilla.org/en-US/docs/Web/API/Fetch_API", "tfjs-core error message"],
  ["https://github.com/tensorflow/tfjs/issues", "tfjs error messages and WebGL shader comments"],
  ["https://github.com/tensorflow/tfjs-node", "tfjs-core console hint"],
  ["https://github.com/tensorflow/tfjs/blob/master/tfjs-backend-wasm/README.md", "tfjs-backend-wasm error message"],
  ["https://www.shadertoy.com/view/", "comment inside a tfjs WebGL shader source string"],
  ["https://arxiv.org/abs/", "comment inside a tfjs WebGL shader source string"],
  ["https://emscripten.org/docs/", "Emscripten runtime warning (tfjs-backend-wasm)"],
  ["http://web.mit.edu/lpsolve/doc/", "highs error message"],
  ["https://json-schema.org/draft/", "zod: JSON-schema $schema identifiers"],
  ["http://json-schema.org/draft-", "zod: JSON-schema $schema identifiers"],
  ["http://[${", "zod: an IPv6 host checked with new URL(), never fetched"],
];

// Files read as text. Binary assets (fonts, wasm, images) cannot issue a request by themselves;
// whatever loads them is one of these files.
const textExtensions = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".json",
  ".svg",
  ".txt",
  ".csv",
  ".md",
  ".map",
  ".xml",
]);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Module specifiers of static imports, re-exports, side-effect imports and dynamic imports with a
 * literal specifier, as a JavaScript parser (esbuild's) reads them: a pattern over the text also
 * matches words inside strings of minified bundles (highs has `"…from",0)…`).
 */
async function importSpecifiers(code: string): Promise<string[]> {
  const result = await esbuild({
    stdin: { contents: code, loader: "js" },
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    external: ["*"],
    logLevel: "silent",
  });
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
}

function moduleScripts(html: string): string[] {
  return Array.from(html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g), (m) => m[1]!);
}

test("the site builds offline and dist/ references no remote host", { timeout: 600_000 }, async (t) => {
  const build = await buildSite();
  t.diagnostic(
    build.reused
      ? `cold build reused (made earlier in this test run, ` +
          `or kept with CONSOLESR_REUSE_DIST=1; it took ${build.seconds.toFixed(1)} s)`
      : `cold build: ${build.seconds.toFixed(1)} s`,
  );
  const output = build.output;
  assert.equal(build.error, undefined, `build did not run: ${build.error}`);
  assert.equal(build.status, 0, `observable build exited ${build.status}:\n${output}`);
  assert.doesNotMatch(output, /BLOCKED-NETWORK/, "the build made a network request");
  // Framework reports some failures as a line and still exits 0 (a non-local import, a missing
  // npm package): any such line fails the test. File names are left out of the match (a page
  // importing src/lib/core/errors.ts prints "copy src/lib/core/errors.ts → …").
  const alarming = output
    .split("\n")
    .filter((line) =>
      /non-local|error|warn|unable|not found|unresolved|fail/i.test(
        line.replace(/[\w./@-]+\.(?:ts|js|md|json|css|wasm)\b/g, ""),
      ),
    );
  assert.deepEqual(alarming, [], "alarming lines in the build output");

  const files = walk(dist);
  const pages = files.filter((file) => file.endsWith(".html"));
  assert.ok(pages.includes(join(dist, "index.html")), "dist/index.html was not built");
  // Every page tells a reader with JavaScript off what is missing (issue 59, row 8).
  for (const page of pages)
    assert.match(readFileSync(page, "utf8"), /<noscript><p[^>]*>This page computes its tables/, relative(dist, page));

  // 1. No http(s) URL anywhere in a text file of the output, XML namespace names and the inert
  // strings of third-party bundles aside.
  const remote: string[] = [];
  for (const file of files.filter((f) => textExtensions.has(extname(f)))) {
    // (src/lib/vendor holds tfjs-core's gradients and chained ops, bundled: third-party code too.)
    const thirdParty = /^(_node|_import\/lib\/vendor)\//.test(relative(dist, file));
    for (const [url] of readFileSync(file, "utf8").matchAll(/https?:\/\/[^\s"'`()<>\\]*/g)) {
      if (xmlNamespaces.has(url)) continue;
      if (thirdParty && inertUrls.some(([prefix]) => url.startsWith(prefix))) continue;
      remote.push(`${relative(dist, file)}: ${url}`);
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
    for (const specifier of await importSpecifiers(file.endsWith(".html") ? moduleScripts(code).join("\n") : code)) {
      assert.match(specifier, /^\.{0,2}\//, `${relative(dist, file)} imports ${specifier}`);
      if (!internal)
        assert.ok(
          existsSync(resolve(dirname(file), specifier)),
          `${relative(dist, file)} imports missing ${specifier}`,
        );
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
      await transform(script, { loader: "js", format: "esm" }).catch((error: Error) => {
        assert.fail(`${name}: a module script does not parse: ${error.message}`);
      });
    }
  }

  // 4. KaTeX: the home page imports the tex helper, which imports the self-hosted katex module;
  // the page links the KaTeX stylesheet whose fonts are all inlined woff2 data URLs; the TeX on
  // the page is valid.
  const index = readFileSync(join(dist, "index.html"), "utf8");
  // The page imports the report components' entry (site/report/index.js), which imports the helper.
  const entry = /import\("\.\/(_import\/report\/index\.[0-9a-f]+\.js)"\)/.exec(index)?.[1];
  assert.ok(entry, "index.html does not import the report components (site/report/index.js)");
  const helper = (await importSpecifiers(readFileSync(join(dist, entry), "utf8")))
    .map((specifier) => posix.join(posix.dirname(entry), specifier))
    .find((path) => /^_import\/report\/katex\.[0-9a-f]+\.js$/.test(path));
  assert.ok(helper, "the report components do not import the tex helper (src/report/katex.ts)");
  const katexModule = (await importSpecifiers(readFileSync(join(dist, helper), "utf8")))
    .map((specifier) => posix.join(posix.dirname(helper), specifier))
    .find((path) => /^_node\/katex@[^/]+\/index\.[0-9a-f]+\.js$/.test(path));
  assert.ok(katexModule && existsSync(join(dist, katexModule)), "the tex helper does not import the self-hosted katex");
  const stylesheet = /<link rel="stylesheet" href="\.\/(_file\/components\/katex\.[0-9a-f]+\.css)">/.exec(index)?.[1];
  assert.ok(stylesheet, "index.html does not link the KaTeX stylesheet");
  const css = readFileSync(join(dist, stylesheet), "utf8");
  const fontFaces = css.match(/@font-face\{[^}]*\}/g) ?? [];
  assert.ok(fontFaces.length >= 20, `expected KaTeX's 20 @font-face rules, found ${fontFaces.length}`);
  for (const face of fontFaces) {
    assert.match(face, /src:url\(data:font\/woff2;base64,[A-Za-z0-9+/=]+\) format\("woff2"\)[;}]/, face.slice(0, 120));
  }
  assert.deepEqual(css.match(/url\((?!data:)[^)]*\)/g), null, "the KaTeX stylesheet refers to files");
  const texSources = Array.from(
    index.matchAll(/\btex\(String\.raw`([^`]*)`|\btex\("([^"\\]*)"/g),
    (m) => m[1] ?? m[2]!,
  );
  assert.ok(
    texSources.some((source) => source.includes(String.raw`y_1 &= 3\,x_1^{2}\cos(2.5\,x_2)`)),
    "the syn1 equations are not on the home page",
  );
  for (const source of texSources) {
    assert.doesNotThrow(() => katex.renderToString(source, { throwOnError: true }), `invalid TeX: ${source}`);
  }
  // The home page links every report page and the playground, and carries a citation block.
  const reports = readdirSync(join(repo, "site")).filter((f) => f.endsWith(".md") && f !== "index.md");
  assert.ok(reports.length >= 11, reports.join(", "));
  for (const report of reports) {
    const path = `./${report.replace(/\.md$/, "")}`;
    assert.ok(index.includes(`href="${path}"`), `the home page does not link ${path}`);
  }
  assert.match(index, /@inproceedings\{li2022console,/);
  assert.match(index, /@software\{consolesr,/);
});

/** The committed results the pages show: the files their loaders read and the benchmark files they attach. */
function resultsShown(): string[] {
  const shown = new Set<string>();
  const loaders = readdirSync(join(repo, "site/data")).filter((f) => f.endsWith(".ts"));
  for (const loader of loaders) {
    const text = readFileSync(join(repo, "site/data", loader), "utf8");
    for (const [file] of text.matchAll(/data\/results\/[\w.-]+\.json/g)) if (file !== FRESHNESS_FILE) shown.add(file);
  }
  const pages = readdirSync(join(repo, "site")).filter((f) => f.endsWith(".md"));
  for (const page of pages) {
    const text = readFileSync(join(repo, "site", page), "utf8");
    for (const [, file] of text.matchAll(/FileAttachment\("(data\/search-benchmark[\w.-]*\.json)"\)/g))
      shown.add(`site/${file}`);
  }
  return [...shown].sort();
}

/** Whether `sha` names a commit of this checkout (undefined where that cannot be told: no git, a shallow clone). */
function commitExists(sha: string): boolean | undefined {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    if (git("rev-parse", "--is-shallow-repository") !== "false") return undefined;
  } catch {
    return undefined;
  }
  try {
    git("cat-file", "-e", `${sha}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

test("freshness.json records a well-formed check of every committed result a page shows", () => {
  const { entries } = readFreshness();
  const files = entries.map((e) => e.file);
  assert.equal(new Set(files).size, files.length, "a file has two entries");
  const shown = resultsShown();
  // The loaders read the run results, the pages attach the benchmark files: both are found.
  assert.ok(
    shown.some((f) => f.startsWith("data/results/")),
    "no loader reads a committed run result",
  );
  assert.ok(
    shown.some((f) => BENCHMARK_FILES.includes(f)),
    "no page attaches a benchmark file",
  );
  for (const file of new Set([...shown, ...committedResults()]))
    assert.ok(files.includes(file), `${file} is shown or committed but has no entry: run npm run freshness`);
  for (const entry of entries as FreshnessEntry[]) {
    const where = `${FRESHNESS_FILE}: ${entry.file}`;
    assert.ok(existsSync(join(repo, entry.file)), `${where}: no such file`);
    assert.match(entry.sha, /^[0-9a-f]{40}$/, `${where}: sha`);
    assert.notEqual(commitExists(entry.sha), false, `${where}: ${entry.sha} is not a commit of this repository`);
    assert.equal(typeof entry.reproduced, "boolean", `${where}: reproduced`);
    const date = Date.parse(entry.date);
    assert.ok(Number.isFinite(date) && date <= Date.now(), `${where}: date ${entry.date}`);
    assert.match(entry.code, /^[0-9a-f]{64}$/, `${where}: code digest`);
    assert.equal(typeof entry.dirty, "boolean", `${where}: dirty`);
    assert.ok(Number.isFinite(entry.seconds) && entry.seconds >= 0, `${where}: seconds`);
    assert.ok(typeof entry.detail === "string" && entry.detail.length > 0, `${where}: detail`);
    if (BENCHMARK_FILES.includes(entry.file)) {
      // A benchmark file is checked on a sample of its runs: the sample is of this file's runs.
      const runs = (JSON.parse(readFileSync(join(repo, entry.file), "utf8")) as { runs: unknown[] }).runs.length;
      assert.ok(entry.sample, `${where}: a benchmark entry says how many runs it re-ran`);
      assert.equal(entry.sample.of, runs, `${where}: sample.of is not the file's number of runs`);
      assert.ok(entry.sample.runs >= 1 && entry.sample.runs <= runs, `${where}: sample.runs`);
      assert.equal(/differ/.test(entry.detail), !entry.reproduced, `${where}: detail contradicts reproduced`);
    } else {
      // A run result's detail is `consolesr reproduce`'s verdict line, which agrees with the flag.
      assert.equal(entry.sample, undefined, `${where}: a run result has no sample`);
      assert.match(entry.detail, entry.reproduced ? /^reproduced/ : /^NOT reproduced/, `${where}: detail`);
      // One that differs lists reproduce's DIFFERENT lines; one that matches lists none.
      if (entry.reproduced) assert.equal(entry.differences, undefined, `${where}: differences of a match`);
      else {
        assert.ok(entry.differences?.length, `${where}: a result that differs says what differs`);
        for (const line of entry.differences) assert.match(line, /DIFFERENT/, `${where}: ${line}`);
      }
    }
  }
});
