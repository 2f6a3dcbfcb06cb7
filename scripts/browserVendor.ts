/**
 * `npm run build`/`npm run dev` (prebuild/predev): writes the browser bundles of tfjs and HiGHS and
 * their .wasm files into the site's Framework cache before Framework runs. The code is the
 * package's own (`consolesr/framework`, src/framework/index.ts), which every report project that
 * `consolesr report` writes runs the same way; observablehq.config.ts runs it too, so a bare
 * `observable build` after deleting the cache works.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareBrowserVendor as prepare } from "../src/framework/index.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The Framework root (observablehq.config.ts `root`). */
export const SITE_ROOT = join(repo, "site");

/** Writes the bundles into the site's cache (or `root`'s); returns what it wrote. */
export const prepareBrowserVendor = (root = SITE_ROOT): Promise<string[]> => prepare(root, { project: repo });

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const written = await prepareBrowserVendor();
  process.stderr.write(
    `browser vendor: ${written.length ? `wrote ${written.length} file(s)` : "up to date"} ` +
      `in ${((performance.now() - started) / 1000).toFixed(2)} s\n`,
  );
}
