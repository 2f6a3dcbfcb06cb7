/**
 * Prints the GOLDEN runs' records (test/golden/runs.ts) as JSON, or with --update rewrites
 * test/golden/search.json. Re-baseline only in a commit that changes search behaviour on purpose.
 */
import { writeFileSync } from "node:fs";
import { useBackend } from "../src/lib/engine/backend.js";
import { goldenRuns } from "../test/golden/runs.js";

await useBackend("cpu");
const text = `${JSON.stringify(await goldenRuns(), null, 1)}\n`;
if (process.argv.includes("--update")) {
  writeFileSync("test/golden/search.json", text);
  process.stderr.write("wrote test/golden/search.json\n");
} else process.stdout.write(text);
