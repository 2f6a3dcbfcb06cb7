/**
 * `npm run build:lib` (also on prepare): compiles src/lib, src/cli, src/report (the report
 * components, `consolesr/report`) and src/framework (`consolesr/framework`) to build/ for
 * the package: JavaScript without comments, one statement per line and indented (esbuild, names
 * kept), so that a stack trace points at a line a user can read, and declarations with their doc
 * comments for the library's users.
 *
 * It builds into a staging folder (.scratch/build-<pid>) and swaps it in with renames, so that a
 * process running the checkout's `bin/consolesr.js` meanwhile (a test beside `npm pack`) finds the
 * old build, the new one, or none (and then runs the sources), never a half-written one.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { build as esbuild, type Plugin, transformSync } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const target = join(root, "build");
const build = join(root, ".scratch", `build-${process.pid}`);
const tsc = join(root, "node_modules", ".bin", "tsc");

rmSync(build, { recursive: true, force: true });
mkdirSync(build, { recursive: true });
// tfjs-core's gradients and chained ops, bundled (src/lib/vendor, gitignored), then copied beside
// the compiled library: tsc emits no .js sources.
execFileSync(process.execPath, ["--import", "tsx", join(root, "scripts/tfjsRegistrations.ts")], {
  cwd: root,
  stdio: "inherit",
});
execFileSync(tsc, ["-p", "tsconfig.build.json", "--outDir", build], { cwd: root, stdio: "inherit" });
execFileSync(tsc, ["-p", "tsconfig.types.json", "--outDir", build], { cwd: root, stdio: "inherit" });
mkdirSync(join(build, "lib/vendor"), { recursive: true });
for (const file of ["tfjsRegistrations.js", "tfjsRegistrations.d.ts"])
  copyFileSync(join(root, "src/lib/vendor", file), join(build, "lib/vendor", file));
// @observablehq/runtime ships no types: the declarations that use it carry ours along.
copyFileSync(join(root, "src/lib/api/observablehq-runtime.d.ts"), join(build, "lib/api/observablehq-runtime.d.ts"));
const runtimeTypes = join(build, "lib/api/runtime.d.ts");
writeFileSync(
  runtimeTypes,
  `/// <reference path="./observablehq-runtime.d.ts" />\n${readFileSync(runtimeTypes, "utf8")}`,
);
// A side-effect import carries no types; in a declaration it only drags the imported module's own
// declarations into a user's program (index.d.ts's `import "./local/fitTfjs.js"` would reach
// tfjs-core's, which do not check under skipLibCheck: false). Declarations keep type imports only.
for (const file of readdirSync(build, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".d.ts") || file.startsWith("lib/vendor/")) continue;
  const path = join(build, file);
  const text = readFileSync(path, "utf8");
  const kept = text.replace(/^import "[^"]+";\n/gm, "");
  if (kept !== text) writeFileSync(path, kept);
}
let before = 0;
let after = 0;
for (const file of readdirSync(build, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js") || file.startsWith("lib/vendor/")) continue;
  const path = join(build, file);
  const code = readFileSync(path, "utf8");
  const out = transformSync(code, {
    loader: "js",
    format: "esm",
    target: "es2022",
    keepNames: true,
    legalComments: "none",
  }).code;
  writeFileSync(path, out);
  before += code.length;
  after += out.length;
}
/** core/zod.js for Node: zod required on the first schema built (Node's require loads it synchronously). */
const NODE_ZOD = `import { createRequire } from "node:module";
let z;
export const zod = () => (z ??= createRequire(import.meta.url)("zod").z);
`;

const bundled = await bundleForNode(build);
swapIn(build, target);
console.log(`build/: JavaScript ${(before / 1024).toFixed(0)} kB → ${(after / 1024).toFixed(0)} kB without comments`);
console.log(`build/lib/node/: the entries for Node, ${bundled} files`);

/**
 * The package's entries as Node imports them (the exports' "node" condition): one esbuild bundle of
 * the library's entries and the report components, whose shared code is in chunks (one instance of
 * each module, whichever entries a program imports), and whose zod loads on first use through Node's
 * `require` (NODE_ZOD). An import of about 540 files cost 0.25 s of CPU and zod 0.1–0.15 s; the bundle
 * 0.09 s (Node 20, 2 cores, quiet). In build/lib/node/, one folder down from build/lib as every
 * compiled module is, so that a path a module resolves beside itself (../vendor/) holds in both.
 * Browsers and bundlers keep the per-file build (the "default" condition), where zod is imported as
 * usual: a browser has no synchronous load, and a lazy import would need a top-level await.
 * The command line runs the per-file build (its own process; its paths are its files'). Returns the
 * number of files written.
 */
async function bundleForNode(from: string): Promise<number> {
  const entries = {
    index: "lib/index.js",
    sdk: "lib/sdk.js",
    inspect: "lib/inspect.js",
    browser: "lib/browser.js",
    report: "report/index.js",
  };
  const zodOnFirstUse: Plugin = {
    name: "zod-on-first-use",
    setup(b) {
      b.onLoad({ filter: /[\\/]lib[\\/]core[\\/]zod\.js$/ }, () => ({ contents: NODE_ZOD, loader: "js" }));
    },
  };
  const result = await esbuild({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(from, file)])),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    keepNames: true,
    legalComments: "none",
    chunkNames: "chunk-[hash]",
    outdir: join(from, "lib/node"),
    plugins: [zodOnFirstUse],
    logLevel: "warning",
  });
  return result.errors.length === 0 ? readdirSync(join(from, "lib/node")).length : 0;
}

/**
 * Puts the staged build in place of build/: the old one is renamed aside first (a rename onto a
 * folder that is not empty fails), then removed. Another build swapping in at the same time only
 * makes one more turn of the loop.
 */
function swapIn(staged: string, into: string): void {
  for (let turn = 0; ; turn++) {
    try {
      renameSync(staged, into);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "ENOTEMPTY" && code !== "EEXIST") || turn > 20) throw error;
      const aside = join(root, ".scratch", `build-old-${process.pid}-${turn}`);
      try {
        renameSync(into, aside);
      } catch (moved) {
        if ((moved as NodeJS.ErrnoException).code !== "ENOENT") throw moved;
      }
      if (existsSync(aside)) rmSync(aside, { recursive: true, force: true });
    }
  }
}
