/**
 * Browser builds of the packages Framework cannot bundle cleanly by itself (see
 * docs/design.md#stack), made with esbuild before Framework runs:
 *
 * - `@tensorflow/tfjs-backend-wasm`: Framework's rollup bundle keeps `import "fs"`, "path", "os",
 *   "perf_hooks" (the package maps them to `false` in its "browser" field, which esbuild honours).
 * - `highs` (the LP solver of the search's argmin): its ESM build imports `node:module` when it runs
 *   under Node, `await import("node:module")`, which no browser can resolve.
 * - `@tensorflow/tfjs-core` and its cpu and webgl backends: Framework's rollup bundles work but
 *   print "Converting require to esm is currently not supported" warnings (tfjs-core's Node
 *   platform file), which test/browser/site-build.test.ts rightly counts as alarming build output.
 *
 * Framework resolves a bare import in a page or a local module (`import * as tf from
 * "@tensorflow/tfjs-core"` in src/lib/engine/tf.ts, `import("highs")` in src/lib/search/argmin.ts,
 * `import("@tensorflow/tfjs-backend-wasm")` in src/lib/engine/backend.ts) to
 * `<root>/.observablehq/cache/_node/<name>@<version>/index.js` and bundles the package only when
 * that file does not exist. So this script writes esbuild's browser bundles there first. The
 * backends import tfjs-core from the tfjs-core bundle beside them, so a page has one tfjs-core
 * (one engine, one kernel registry; src/lib/vendor/tfjsRegistrations.js, tfjs-core's gradients
 * and chained ops, reaches the same through tfjs's globals); highs gets a stub for `node:module`
 * that throws (never reached in a browser). Legal comments are dropped (they name URLs; the
 * licences are in node_modules and in the packages' own repositories).
 *
 * The .wasm files go beside their bundle in the cache, and each bundle names them with
 * `import.meta.resolve`, so Framework serves and copies them from the site's own origin and the
 * library's defaults (`useBackend("wasm")`, `createArgminSolver()`) work in a page unchanged.
 *
 * Run by `npm run build`/`npm run dev` (prebuild/predev), by observablehq.config.ts when Framework
 * loads it (so a bare `observable build` after deleting the cache works too), and by the tests'
 * site build. Idempotent and cheap: files are rewritten only when missing or older than their source.
 */
import { build, type Plugin } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The Framework root (observablehq.config.ts `root`). */
const ROOT = join(repo, "site");

/** Installed packages (the flat node_modules that Framework resolves from too). */
const packageDir = (name: string) => join(repo, "node_modules", ...name.split("/"));
const versionOf = (name: string): string =>
  JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8")).version;

/** Where Framework looks for its bundle of `name` before making one. */
export const nodeCachePath = (name: string, root = ROOT) =>
  join(root, ".observablehq", "cache", "_node", `${name}@${versionOf(name)}`, "index.js");

/** The .wasm files each bundle loads from beside itself (Framework copies them into dist/_node/). */
const WASM_FILES: Record<string, string[]> = {
  "@tensorflow/tfjs-backend-wasm": [
    "dist/tfjs-backend-wasm.wasm",
    "dist/tfjs-backend-wasm-simd.wasm",
    "dist/tfjs-backend-wasm-threaded-simd.wasm",
  ],
  highs: ["build/highs.wasm"],
};

/** Rewrites `import … from "@tensorflow/tfjs-core"` to Framework's tfjs-core bundle beside it. */
function frameworkImport(spec: string, to: string): Plugin {
  return {
    name: `framework-${spec}`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${spec.replace(/[/.]/g, "\\$&")}$`) }, () => ({
        path: to,
        external: true,
      }));
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
 * Entry modules. Each names its .wasm files with `import.meta.resolve("./…")`, which Framework
 * reads as a dependency of the bundle: it copies the file from the cache into dist/ beside the
 * bundle (and serves it there in preview). highs looks for `highs.wasm` beside itself by default
 * (`new URL("highs.wasm", import.meta.url)`); the tfjs wasm backend looks next to the page, so its
 * entry points it at those copies with setWasmPaths (a page may still call setWasmPaths itself
 * before the backend's first use).
 */
const entries: Record<string, { contents?: string; plugins: Plugin[] }> = {
  // No wrapper: the package's own module is the entry, so that an `export * from
  // "@tensorflow/tfjs-core"` stays an ES re-export of the external bundle (one level down, esbuild
  // would turn it into a copy made at load time).
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

async function bundle(name: string, out: string, core: string): Promise<void> {
  const { contents, plugins } = entries[name]!;
  // Everything but tfjs-core itself imports tfjs-core from Framework's path to the tfjs-core bundle.
  const external = name === "@tensorflow/tfjs-core" ? [] : [frameworkImport("@tensorflow/tfjs-core", core)];
  const result = await build({
    ...(contents === undefined
      ? {
          entryPoints: [
            join(packageDir(name), JSON.parse(readFileSync(join(packageDir(name), "package.json"), "utf8")).module),
          ],
        }
      : { stdin: { contents, resolveDir: repo, loader: "js" as const, sourcefile: `${name}-browser-entry.js` } }),
    bundle: true,
    format: "esm",
    platform: "browser",
    // Package "module"/"browser" fields first: highs's ESM build, tfjs's browser maps of fs and co.
    mainFields: ["browser", "module", "main"],
    conditions: ["import", "browser"],
    target: ["es2022"],
    minify: true,
    legalComments: "none",
    write: false,
    plugins: [...external, ...plugins],
    logLevel: "silent",
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, result.outputFiles[0]!.text);
}

const stale = (target: string, source: string) =>
  !existsSync(target) || statSync(target).mtimeMs < statSync(source).mtimeMs;

/**
 * Writes the browser bundles and their .wasm files into Framework's cache under `root`. Returns
 * what it wrote (empty when everything was up to date).
 */
export async function prepareBrowserVendor(root = ROOT): Promise<string[]> {
  const written: string[] = [];
  // Framework's tfjs-core bundle, relative to the other @tensorflow bundles (all under _node/@tensorflow/).
  const core = `../tfjs-core@${versionOf("@tensorflow/tfjs-core")}/index.js`;
  for (const name of Object.keys(entries)) {
    const out = nodeCachePath(name, root);
    const manifest = join(packageDir(name), "package.json");
    if (stale(out, manifest) || stale(out, fileURLToPath(import.meta.url))) {
      await bundle(name, out, core);
      const code = readFileSync(out, "utf8");
      if (/import\(\s*["']node:|from\s*["'](node:)?(fs|path|os|module|perf_hooks|worker_threads)["']/.test(code))
        throw new Error(`browserVendor: the ${name} bundle still imports a Node module`);
      written.push(out);
    }
    for (const file of WASM_FILES[name] ?? []) {
      const source = join(packageDir(name), file);
      const target = join(dirname(out), basename(file));
      if (stale(target, source)) {
        copyFileSync(source, target);
        written.push(target);
      }
    }
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const written = await prepareBrowserVendor();
  process.stderr.write(
    `browser vendor: ${written.length ? `wrote ${written.length} file(s)` : "up to date"} ` +
      `in ${((performance.now() - started) / 1000).toFixed(2)} s\n`,
  );
}
