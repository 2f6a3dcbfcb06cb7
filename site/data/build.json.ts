// Data loader for the playground (site/playground.md): the library version and the git sha of
// the checkout the site was built from, which the playground writes into a result's manifest
// (`consolesr fit/run --out` record their checkout's sha the same way). Framework re-runs a loader
// only when the loader file changes, so a site built from a kept cache may carry an older sha;
// CI deletes site/.observablehq/cache before building (docs/design.md#stack).
import { execSync } from "node:child_process";
import { VERSION } from "../../src/lib/index.js";

let git = "unknown";
try {
  git = execSync("git rev-parse HEAD", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
} catch {
  // not a git checkout: keep "unknown"
}
process.stdout.write(`${JSON.stringify({ version: VERSION, git })}\n`);
