// Data loader for the playground (site/playground.md): the library version and the git sha of
// the checkout the site was built from, which the playground writes into a result's manifest
// (`consolesr fit/run --out` record their checkout's sha the same way). Framework re-runs a loader
// only when the loader file changes, so a site built from a kept cache may carry an older sha;
// CI deletes site/.observablehq/cache before building (docs/design.md#stack).
import { gitSha } from "../../src/cli/git.js";
import { VERSION } from "../../src/lib/index.js";

process.stdout.write(`${JSON.stringify({ version: VERSION, git: gitSha() })}\n`);
