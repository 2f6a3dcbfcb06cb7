/**
 * `consolesr/framework`: what an Observable Framework project needs to build a consolesr report
 * offline, in one place. The site of this repository (observablehq.config.ts) and every project
 * `consolesr report` writes use the same code, from the package, so a user's report builds the way
 * ours does (docs/design.md#own-report):
 *
 * - `reportConfig(…)`: the Framework settings (no global stylesheet, which would link a web-font
 *   server; a favicon from the site's own origin; no footer links; no search) after preparing the
 *   cache below.
 * - `prepareFrameworkCache(root, …)`: writes into Framework's cache, before it builds, what it
 *   cannot make offline by itself: the version lookups its client bundle does for its implicit
 *   globals (`seedNpmVersionCache`), browser bundles of tfjs and HiGHS with their .wasm files
 *   (`prepareBrowserVendor`), and, in a project that installs consolesr, the package's browser
 *   bundle (`bundleConsolesr`).
 * - `katexStylesheet()`: KaTeX's stylesheet with its fonts inlined (a data loader prints it).
 *
 * Node only (it runs while Framework loads its config, or in a data loader). esbuild, which
 * Framework itself depends on, makes the bundles; the packages are found in `node_modules` folders
 * at or above the project, where Framework resolves them too.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";

/** This package's own folder (src/framework/ and build/framework/ are both two levels down). */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The folder of an installed package, looked up in `node_modules` at or above `from`. */
export function packageDir(name: string, from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir)
      throw new Error(`consolesr/framework: the package ${name} is not installed above ${from}`);
  }
}

const manifestOf = (dir: string): Record<string, any> => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const versionOf = (name: string, from: string): string => manifestOf(packageDir(name, from)).version;

/**
 * The packages a report project installs beside consolesr, at the versions this release was built
 * and tested with (package.json "reportDependencies"; test/unit/framework.test.ts checks that they
 * are the installed ones).
 */
export function reportDependencies(): Record<string, string> {
  return { ...manifestOf(PACKAGE_ROOT).reportDependencies };
}

/** This package's version. */
export const packageVersion = (): string => manifestOf(PACKAGE_ROOT).version;

// Framework's client bundle (client.js, stdlib.js) names the libraries behind its implicit globals
// (d3, Plot, html, React, …) as `npm:<name>` and resolves each to a version by asking
// registry.npmjs.org, unless a folder `<cache>/_npm/<name>@<version>` already exists. Those URLs are
// only written into client.js (nothing is downloaded: pages import bare specifiers, which Framework
// self-hosts from node_modules), but the lookup alone makes a cold build fail offline. The cache is
// seeded with the installed version where there is one, else the version a networked build of
// Framework 1.13.4 resolved (any version would do; nothing is fetched).
const CLIENT_NPM_VERSIONS: Record<string, string> = {
  "@observablehq/plot": "0.6.17",
  "@observablehq/sample-datasets": "1.0.1",
  "apache-arrow": "21.2.0",
  arquero: "8.0.3",
  d3: "7.9.2",
  "d3-dsv": "3.0.2",
  echarts: "6.1.0",
  htl: "0.3.1",
  leaflet: "1.9.4",
  lodash: "4.18.1",
  "mapbox-gl": "3.32.0",
  "parquet-wasm": "0.8.0",
  react: "19.3.1",
  "react-dom": "19.3.1",
  "topojson-client": "3.1.0",
};

/** Seeds Framework's npm version cache under `root` (see above), so that a cold build asks no registry. */
export function seedNpmVersionCache(root: string, project = dirname(resolve(root))): void {
  const npmCache = join(root, ".observablehq", "cache", "_npm");
  for (const [name, fallback] of Object.entries(CLIENT_NPM_VERSIONS)) {
    const scope = join(npmCache, ...name.split("/").slice(0, -1));
    const base = name.split("/").pop()!;
    if (existsSync(scope) && readdirSync(scope).some((entry) => entry.startsWith(`${base}@`))) continue;
    let version = fallback;
    try {
      version = versionOf(name, project);
    } catch {
      // not installed: the fallback
    }
    mkdirSync(join(npmCache, `${name}@${version}`), { recursive: true });
  }
}

/** Where Framework looks for its bundle of `name` (`entry` for a subpath export) before making one. */
export const nodeCachePath = (name: string, root: string, project = dirname(resolve(root))) =>
  join(root, ".observablehq", "cache", "_node", `${name}@${versionOf(name, project)}`, "index.js");

/** The .wasm files each bundle loads from beside itself (Framework copies them into dist/_node/). */
const WASM_FILES: Record<string, string[]> = {
  "@tensorflow/tfjs-backend-wasm": [
    "dist/tfjs-backend-wasm.wasm",
    "dist/tfjs-backend-wasm-simd.wasm",
    "dist/tfjs-backend-wasm-threaded-simd.wasm",
  ],
  highs: ["build/highs.wasm"],
};

/** Resolves the bare imports `specs` (name → path) to external relative paths. */
function externalPaths(specs: Record<string, string>): Plugin {
  return {
    name: "framework-paths",
    setup(build) {
      build.onResolve({ filter: /^[@\w]/ }, (args) =>
        specs[args.path] === undefined ? undefined : { path: specs[args.path]!, external: true },
      );
    },
  };
}

const nodeModuleStub: Plugin = {
  name: "node-module-stub",
  setup(build) {
    build.onResolve({ filter: /^node:module$/ }, () => ({ path: "node:module", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents:
        "export function createRequire() { " + 'throw new Error("highs: node:module is not available in a browser"); }',
      loader: "js",
    }));
  },
};

/**
 * The browser bundles Framework cannot make cleanly by itself:
 * - `@tensorflow/tfjs-backend-wasm`: Framework's rollup bundle keeps `import "fs"`, "path", "os",
 *   "perf_hooks" (the package maps them to `false` in its "browser" field, which esbuild honours).
 * - `highs` (the LP solver of the search's argmin): its ESM build imports `node:module` under Node,
 *   `await import("node:module")`, which no browser resolves; here a stub that throws (never reached).
 * - `@tensorflow/tfjs-core` and its cpu and webgl backends: Framework's rollup bundles work but print
 *   "Converting require to esm is currently not supported" (tfjs-core's Node platform file).
 * The backends import tfjs-core from the tfjs-core bundle beside them, so a page has one tfjs-core
 * (one engine, one kernel registry). Each entry names its .wasm files with `import.meta.resolve`,
 * which Framework reads as a dependency: it copies the file into dist/ beside the bundle. highs
 * looks for `highs.wasm` beside itself by default; the tfjs wasm backend looks next to the page, so
 * its entry points it at those copies with setWasmPaths.
 */
const VENDOR_ENTRIES: Record<string, { contents?: string; plugins: Plugin[] }> = {
  // No wrapper: the package's own module is the entry, so that an `export * from
  // "@tensorflow/tfjs-core"` stays an ES re-export of the external bundle.
  "@tensorflow/tfjs-core": { plugins: [] },
  "@tensorflow/tfjs-backend-cpu": { plugins: [] },
  "@tensorflow/tfjs-backend-webgl": { plugins: [] },
  "@tensorflow/tfjs-backend-wasm": {
    contents: `export * from "@tensorflow/tfjs-backend-wasm";
import {setWasmPaths} from "@tensorflow/tfjs-backend-wasm";
setWasmPaths({
  "tfjs-backend-wasm.wasm": import.meta.resolve("./tfjs-backend-wasm.wasm"),
  "tfjs-backend-wasm-simd.wasm": import.meta.resolve("./tfjs-backend-wasm-simd.wasm"),
  "tfjs-backend-wasm-threaded-simd.wasm": import.meta.resolve("./tfjs-backend-wasm-threaded-simd.wasm")
});`,
    plugins: [],
  },
  highs: {
    contents: `export {default} from "highs";\nimport.meta.resolve("./highs.wasm");`,
    plugins: [nodeModuleStub],
  },
};

/** The bundles consolesr's browser code imports, by bare name, as paths relative to a sibling folder of _node/. */
function vendorPaths(project: string, depth: number): Record<string, string> {
  const up = "../".repeat(depth);
  return Object.fromEntries(
    Object.keys(VENDOR_ENTRIES).map((name) => [name, `${up}${name}@${versionOf(name, project)}/index.js`]),
  );
}

/** esbuild's settings for every browser bundle here, packages resolved from the project's node_modules. */
const browserBundle = (project: string) => ({
  bundle: true,
  format: "esm" as const,
  platform: "browser" as const,
  // Package "module"/"browser" fields first: highs's ESM build, tfjs's browser maps of fs and co.
  mainFields: ["browser", "module", "main"],
  conditions: ["import", "browser"],
  nodePaths: [join(project, "node_modules")],
  target: ["es2022"],
  minify: true,
  // Legal comments name URLs; the licences are in node_modules and the packages' repositories.
  legalComments: "none" as const,
  write: false as const,
  logLevel: "silent" as const,
});

const stale = (target: string, source: string) =>
  !existsSync(target) || statSync(target).mtimeMs < statSync(source).mtimeMs;

/** A Node module left in a browser bundle (a failed build, not a warning). */
const NODE_IMPORT = /import\(\s*["']node:|from\s*["'](node:)?(fs|path|os|module|perf_hooks|worker_threads)["']/;

export interface PrepareOptions {
  /** The project folder (package.json, node_modules); default: the root's parent. */
  project?: string;
  /** Also bundle the installed consolesr package (a report project; default: when it is installed). */
  consolesr?: boolean;
}

/**
 * Writes the browser bundles of tfjs and HiGHS and their .wasm files into Framework's cache under
 * `root`. Idempotent and cheap: files are rewritten only when missing or older than their source.
 * Returns what it wrote.
 */
export async function prepareBrowserVendor(root: string, options: PrepareOptions = {}): Promise<string[]> {
  const { build } = await import("esbuild");
  const project = options.project ?? dirname(resolve(root));
  const written: string[] = [];
  // The backends' bundles are two folders down (_node/@tensorflow/<name>@<version>/).
  const core = vendorPaths(project, 2)["@tensorflow/tfjs-core"]!;
  for (const [name, { contents, plugins }] of Object.entries(VENDOR_ENTRIES)) {
    const out = nodeCachePath(name, root, project);
    const dir = packageDir(name, project);
    if (stale(out, join(dir, "package.json")) || stale(out, fileURLToPath(import.meta.url))) {
      // Everything but tfjs-core itself imports tfjs-core from Framework's path to the tfjs-core bundle.
      const external = name === "@tensorflow/tfjs-core" ? [] : [externalPaths({ "@tensorflow/tfjs-core": core })];
      const result = await build({
        ...(contents === undefined
          ? { entryPoints: [join(dir, manifestOf(dir).module)] }
          : {
              stdin: { contents, resolveDir: project, loader: "js" as const, sourcefile: `${name}-browser-entry.js` },
            }),
        ...browserBundle(project),
        plugins: [...external, ...plugins],
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, result.outputFiles[0]!.text);
      if (NODE_IMPORT.test(result.outputFiles[0]!.text))
        throw new Error(`consolesr/framework: the ${name} bundle still imports a Node module`);
      written.push(out);
    }
    for (const file of WASM_FILES[name] ?? []) {
      const source = join(dir, file);
      const target = join(dirname(out), basename(file));
      if (stale(target, source)) {
        copyFileSync(source, target);
        written.push(target);
      }
    }
  }
  return written;
}

/**
 * The installed consolesr package as Framework's bundles of its entries (`consolesr`,
 * `consolesr/browser`, `consolesr/sdk`, `consolesr/report`) and of the report's search worker,
 * made by esbuild with shared chunks into one cache folder. Framework's own bundling of the package
 * cannot be used: its rollup splits the library's late loads into chunks it then fails to find.
 * tfjs and HiGHS stay imports of the vendor bundles beside it (one tfjs-core per page); everything
 * else the package uses (zod, d3-dsv, htl, Plot, KaTeX, the Observable runtime) is bundled in.
 */
export async function bundleConsolesr(root: string, options: { project?: string } = {}): Promise<string[]> {
  const { build } = await import("esbuild");
  const project = options.project ?? dirname(resolve(root));
  const dir = packageDir("consolesr", project);
  const out = dirname(nodeCachePath("consolesr", root, project));
  const entries = {
    index: "build/lib/index.js",
    browser: "build/lib/browser.js",
    sdk: "build/lib/sdk.js",
    report: "build/report/index.js",
    searchWorker: "build/report/searchWorker.js",
  };
  const stamp = join(out, "index.js");
  if (existsSync(stamp) && !stale(stamp, join(dir, "package.json")) && !stale(stamp, fileURLToPath(import.meta.url)))
    return [];
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(dir, file)])),
    ...browserBundle(project),
    splitting: true,
    chunkNames: "chunk-[hash]",
    outdir: out,
    plugins: [externalPaths(vendorPaths(project, 1))],
  });
  const written: string[] = [];
  for (const file of result.outputFiles) {
    if (NODE_IMPORT.test(file.text))
      throw new Error(`consolesr/framework: the bundle ${relative(out, file.path)} imports a Node module`);
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.text);
    written.push(file.path);
  }
  return written;
}

/**
 * Everything a cold, offline build of the project under `root` needs in Framework's cache (see the
 * header). Returns the files written.
 */
export async function prepareFrameworkCache(root: string, options: PrepareOptions = {}): Promise<string[]> {
  const project = options.project ?? dirname(resolve(root));
  seedNpmVersionCache(root, project);
  const written = await prepareBrowserVendor(root, { project });
  if (options.consolesr ?? existsSync(join(project, "node_modules", "consolesr", "package.json")))
    written.push(...(await bundleConsolesr(root, { project })));
  return written;
}

/** A favicon served from the page itself: without one the browser asks for /favicon.ico (a 404 in the console). */
export const FAVICON =
  '<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E' +
  '%3Ctext y=%2213%22 font-size=%2213%22%3E%E2%88%91%3C/text%3E%3C/svg%3E">';

/**
 * What a reader with JavaScript off is told, at the top of every page (Framework's `header`): the
 * page's tables, charts and equations are computed in the browser, so only its text shows.
 */
export const NO_SCRIPT_NOTICE =
  '<noscript><p style="font: 14px var(--sans-serif); border: solid 1px; padding: 0.5rem 0.75rem;">' +
  "This page computes its tables, charts and equations in your browser: with JavaScript off, only its " +
  "text shows. Turn JavaScript on to see them.</p></noscript>";

export interface ReportConfigOptions {
  /** The Framework root (default "src"). */
  root?: string;
  title: string;
  /** The project folder (default: the current directory). */
  project?: string;
  /** Extra Framework settings (pages, style, head, …), laid over the defaults. */
  [setting: string]: unknown;
}

/**
 * The Framework configuration of a report project, after `prepareFrameworkCache`: an
 * observablehq.config.js of one line, `export default await reportConfig({title: "…"})`.
 */
export async function reportConfig(options: ReportConfigOptions): Promise<Record<string, unknown>> {
  const { root = "src", project = process.cwd(), ...rest } = options;
  await prepareFrameworkCache(resolve(project, root), { project });
  return {
    root,
    output: "dist",
    // The default theme's global stylesheet links a web-font server: keep it empty.
    globalStylesheets: [],
    head: FAVICON,
    header: NO_SCRIPT_NOTICE,
    footer: `Made with consolesr ${packageVersion()}.`,
    search: false,
    ...rest,
  };
}

/**
 * KaTeX's stylesheet with every font inlined (a data loader prints it; pages link it). katex.min.css
 * names fonts/*.woff2, *.woff and *.ttf by relative URL, which Framework cannot bundle; each
 * @font-face keeps only its woff2 source, as a data: URL.
 */
export function katexStylesheet(project = process.cwd()): string {
  const dir = join(packageDir("katex", project), "dist");
  const css = readFileSync(join(dir, "katex.min.css"), "utf8");
  let fonts = 0;
  const out = css.replace(/src:([^;}]*)/g, (_match, sources: string) => {
    const woff2 = /url\((["']?)(fonts\/[^"')]+\.woff2)\1\)/.exec(sources);
    if (!woff2) throw new Error(`katex stylesheet: no woff2 source in ${sources}`);
    fonts++;
    return `src:url(data:font/woff2;base64,${readFileSync(join(dir, woff2[2]!)).toString("base64")}) format("woff2")`;
  });
  if (fonts === 0 || /url\((?!data:)/.test(out)) throw new Error("katex stylesheet: unexpected katex.min.css layout");
  return out;
}
