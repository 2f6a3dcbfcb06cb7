/**
 * What the learned ranking and the linear-algebra proposals add: consolesr's default search
 * against the same search with `rank: "none"` (a uniformly drawn unfitted candidate instead of
 * the one the −R network rates best), and against `proposal: "operators"` (no linear-algebra
 * proposals: the search before them), ranked and unranked, on the benchmark jobs of
 * `npm run bench:search` (same data, seeds, search streams, budget and fitter). Prints a table
 * and writes JSON.
 *
 *   node --import tsx bench/ablation.ts [--equations id,…] [--seeds 0,1,2] [--budget 200] [--out file]
 */
import { writeFileSync } from "node:fs";
import type { SearchSettings } from "../src/lib/search/index.js";
import { createJobRunner } from "./searchSuite.js";

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const equations = flag(
  "equations",
  "feynman-I.12.2,feynman-I.34.8,feynman-II.11.20,feynman-I.18.14,feynman-III.13.18,feynman-II.6.11,nguyen-10,jin-4",
).split(",");
const seeds = flag("seeds", "0,1,2").split(",").map(Number);
const budget = Number(flag("budget", "200"));
const out = flag("out", "");
const run = await createJobRunner();
const variants: { name: string; settings: Partial<SearchSettings> }[] = [
  { name: "linear + ranked by −R (default)", settings: {} },
  { name: "linear + unranked", settings: { rank: "none" } },
  { name: "operators + ranked", settings: { proposal: "operators" } },
  { name: "operators + unranked", settings: { proposal: "operators", rank: "none" } },
];
const records: { variant: string; equation: string; seed: number; recovered: boolean; structures: number }[] = [];
for (const equation of equations) {
  for (const seed of seeds) {
    const cells: string[] = [];
    for (const v of variants) {
      // The job bench:search runs for (consolesr, seed, equation), noiseless, 500 rows.
      const record = await run(
        { method: "consolesr", seed, equation, snrDb: null, budget, episodes: 20 * budget, rows: 500 },
        v.settings,
      );
      records.push({ variant: v.name, equation, seed, recovered: record.recovered, structures: record.structures });
      cells.push(record.recovered ? String(record.structures) : `✗(${record.structures})`);
    }
    console.log(`${equation.padEnd(20)} seed ${seed}: ${variants.map((v, k) => `${v.name}: ${cells[k]}`).join("   ")}`);
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : null;
};
for (const v of variants) {
  const runs = records.filter((r) => r.variant === v.name);
  const hits = runs.filter((r) => r.recovered);
  console.log(
    `${v.name}: recovered ${hits.length}/${runs.length}, ` +
      `median structures to recovery ${median(hits.map((r) => r.structures))}`,
  );
}
if (out) writeFileSync(out, JSON.stringify({ budget, seeds, equations, records }, null, 1));
