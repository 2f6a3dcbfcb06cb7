/**
 * What the learned ranking adds: consolesr's default search against the same search with
 * `rank: "none"` (the same proposal operators, but a uniformly drawn unfitted candidate instead of
 * the one the −R network rates best), on the benchmark jobs of `npm run bench:search` (same data,
 * seeds, search streams, budget and fitter). Prints a table and writes JSON.
 *
 *   node --import tsx bench/ablation.ts [--equations id,…] [--seeds 0,1,2] [--budget 200] [--out file]
 */
import { writeFileSync } from "node:fs";
import { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } from "../src/plugins/index.js";
import { benchmarkData, benchmarkEntry } from "../src/lib/data/benchmark.js";
import { columnOf } from "../src/lib/data/dataset.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
import { exactRecovery } from "../src/lib/metrics/recovery.js";
import { createRng } from "../src/lib/rng.js";
import { search } from "../src/lib/search/index.js";
import { createArgminSolver } from "../src/lib/search/argmin.js";
import type { SearchSettings } from "../src/lib/search/qlearning.js";
import { searchSeed, stopNrmseFor } from "./searchSuite.js";

const flag = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const equations = flag("equations", "feynman-I.12.2,feynman-I.34.8,feynman-II.11.20,feynman-I.18.14,feynman-III.13.18,feynman-II.6.11,nguyen-10,jin-4").split(",");
const seeds = flag("seeds", "0,1,2").split(",").map(Number);
const budget = Number(flag("budget", "200"));
const out = flag("out", "");
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const constraints = ["static", "dynamic"].map((n) => createConstraintRegistry().get(n));
const reward = createRewardRegistry().get("inv-nrmse");
const argmin = await createArgminSolver();
const FIT = { engine: "js", steps: 50, learningRate: 0.01, polish: "lm" } as const;
const variants: { name: string; settings: Partial<SearchSettings> }[] = [
  { name: "ranked by −R (default)", settings: {} },
  { name: "unranked (rank none)", settings: { rank: "none" } },
];
const records: { variant: string; equation: string; seed: number; recovered: boolean; structures: number }[] = [];
for (const equation of equations) {
  const entry = benchmarkEntry(equation);
  for (const seed of seeds) {
    const data = benchmarkData(entry, { symbols, rows: 500, seed });
    const order = { symbols: lookup, inputOrder: data.train.inputs, symbolOrder: symbols.names(), columns: (n: string) => columnOf(data.train, n), rows: data.train.rows };
    const truth = simplifyEquation(data.truth, order);
    const cells: string[] = [];
    for (const v of variants) {
      const result = await search(data.train, {
        symbols, pool: entry.pool, constraints, reward, argmin, rng: createRng(searchSeed(seed, equation)), method: "consolesr",
        settings: { terms: entry.terms, maxFactors: entry.maxFactors, budget, episodes: 20 * budget, stopNrmse: stopNrmseFor(null), fit: FIT, ...v.settings },
      });
      const output = result.outputs[0]!;
      const recovered = output.stopReason === "reward-threshold" && exactRecovery(truth, result.simplified[0]!, lookup).exact;
      records.push({ variant: v.name, equation, seed, recovered, structures: output.structures });
      cells.push(recovered ? String(output.structures) : `✗(${output.structures})`);
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
  console.log(`${v.name}: recovered ${hits.length}/${runs.length}, median structures to recovery ${median(hits.map((r) => r.structures))}`);
}
if (out) writeFileSync(out, JSON.stringify({ budget, seeds, equations, records }, null, 1));
