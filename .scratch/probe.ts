// Probe: fit the linear proposals in order with the search's evaluator; where is the truth?
import { benchmarkData, benchmarkEntries } from "../src/lib/data/benchmark.js";
import { createSymbolRegistry, createRewardRegistry } from "../src/plugins/index.js";
import { createEvaluator } from "../src/lib/search/index.js";
import { allowedNeurons } from "../src/lib/search/constraints.js";
import { linearProposals } from "../src/lib/search/linear/proposer.js";
import { exactRecovery } from "../src/lib/metrics/index.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
import { columnOf } from "../src/lib/data/dataset.js";
const symbols = createSymbolRegistry(); const lookup = (n: string) => symbols.get(n);
const reward = createRewardRegistry().get("inv-nrmse");
const ids = process.argv[2] ? process.argv[2].split(",") : null;
let hit = 0, total = 0; const at: number[] = [];
for (const e of benchmarkEntries) {
  if (ids && !ids.includes(e.id)) continue;
  for (const seed of (process.env.SEEDS ?? "0").split(",").map(Number)) {
  const d = benchmarkData(e, { symbols, seed, rows: 500 });
  const t0 = performance.now();
  const allowed = allowedNeurons(d.train, e.pool, symbols);
  const screen = linearProposals({ x: d.train.x, y: d.train.y[0]!, pool: e.pool, allowed, lookup, maxFactors: e.maxFactors, maxTerms: e.terms });
  const t1 = performance.now();
  const ev = createEvaluator(d.train, d.train.targets[0]!, symbols, reward, { engine: "js", steps: 50, polish: "lm" });
  const order = { symbols: lookup, inputOrder: d.train.inputs, symbolOrder: symbols.names(), columns: (n: string) => columnOf(d.train, n), rows: d.train.rows };
  const truth = simplifyEquation(d.truth, order);
  let found = -1, fits = 0;
  for (const p of screen.proposals.slice(0, 40)) {
    const s = { inputs: d.train.inputs, symbols: e.pool, outputs: [d.train.targets[0]!], products: p.products, sums: [p.products.map((_, j) => j)] };
    if (ev.has(s)) continue;
    fits++;
    const { candidate } = ev.evaluate(s);
    if (candidate.nrmse <= 1e-6 && exactRecovery(truth, candidate.equation, lookup).exact) { found = fits; break; }
  }
  total++; if (found > 0) { hit++; at.push(found); }
  console.log(`${e.id.padEnd(20)} terms ${e.terms} f ${e.maxFactors} cols ${screen.columns}${screen.truncated?"+":""} props ${screen.proposals.length} screen ${(t1-t0).toFixed(0)}ms fit ${(performance.now()-t1).toFixed(0)}ms -> ${found > 0 ? "found at " + found : "MISS"} (${screen.proposals[0]?.source} ${screen.proposals[0]?.score.toExponential(2)})`);
}}
at.sort((a,b)=>a-b);
console.log(`found ${hit}/${total}, median at ${at[Math.floor(at.length/2)]}`);
