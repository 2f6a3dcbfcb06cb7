// Data loader for the report pages' freshness lines (components/freshness.js): the record
// `npm run freshness` wrote (data/results/freshness.json: per committed result, whether the code
// re-made it, at which commit and with which code digest), plus the commit and the code digest of
// the checkout this site is built from. Reads files only: the build never re-runs a committed search.
// Reproduce: `npx tsx site/data/freshness.json.ts > freshness.json`.
import { gitSha } from "../../src/cli/git.js";
import { codeDigest, readFreshness } from "./helpers/freshnessCode.js";

const record = readFreshness();
process.stdout.write(
  JSON.stringify({
    git: gitSha(),
    code: codeDigest(),
    command: record.command,
    entries: record.entries,
  }),
);
