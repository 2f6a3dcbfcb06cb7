// Data loader for the report components' page (site/reference/components.md): a small CSV made
// here (y = 2·a·b + 0.5·c², 200 rows of a, b, c ~ U(1, 3) from a seeded generator), fitted through
// the library as `consolesr fit example.csv --target y` fits it, and the result re-run from its
// manifest as a report project's build checks it (and, edited by hand, as it fails). The page
// renders each component on them.
// Reproduce: `npx tsx site/data/report-example.json.ts > report-example.json`.
import { createHash } from "node:crypto";
import {
  createRegistries,
  createRng,
  parseCsv,
  reproduceResult,
  resolvePipelineConfig,
  resultToJson,
  runModule,
} from "../../src/lib/index.js";

const rng = createRng(2026);
const lines = Array.from({ length: 200 }, () => {
  const [a, b, c] = [rng.uniform(1, 3), rng.uniform(1, 3), rng.uniform(1, 3)];
  return [a, b, c, 2 * a * b + 0.5 * c * c].map((v) => v.toPrecision(12)).join(",");
});
const csv = `a,b,c,y\n${lines.join("\n")}\n`;
const name = "example.csv";
const table = parseCsv(csv, name);
table.sha256 = createHash("sha256").update(csv).digest("hex");
const registries = createRegistries();
const config = resolvePipelineConfig({ csv: { name, table }, targets: ["y"], seed: 0 }, registries);
const result = await runModule(config, { registries, table, file: name });
const text = resultToJson(result);
const check = await reproduceResult(text, { table, file: name, name: "result.json" });
// The same check of a result edited by hand (its first coefficient 1 % off): what a page shows then.
const edited = JSON.parse(text);
edited.equations[0].terms[0].coefficient *= 1.01;
const failed = await reproduceResult(edited, { table, file: name, name: "edited.json" });
process.stdout.write(
  JSON.stringify({
    name,
    csv,
    text,
    check: { match: check.comparison.match, lines: check.lines },
    edited: { match: failed.comparison.match, lines: failed.lines },
  }),
);
