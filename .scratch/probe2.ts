import { experimentData, experiments, selectTargets } from "../src/lib/data/index.js";
import { createSymbolRegistry, createRewardRegistry } from "../src/plugins/index.js";
import { createEvaluator } from "../src/lib/search/index.js";
import { allowedNeurons } from "../src/lib/search/constraints.js";
import { linearProposals } from "../src/lib/search/linear/proposer.js";
import { createRng } from "../src/lib/rng.js";
import { equationText } from "../src/lib/equation/format.js";
const symbols = createSymbolRegistry(); const lookup = (n: string) => symbols.get(n);
const reward = createRewardRegistry().get("inv-nrmse");
const e = experiments.syn2!;
for (const seed of [0, 1]) for (const t of ["y2", "y3"]) {
  const all = experimentData(e, { rng: createRng(seed), symbols: lookup, rows: 2000 });
  const d = selectTargets(all.train, [t]);
  const allowed = allowedNeurons(d, e.symbols, symbols);
  const t0 = performance.now();
  const screen = linearProposals({ x: d.x, y: d.y[0]!, pool: e.symbols, allowed, lookup, maxFactors: 2, maxTerms: 2 });
  const ev = createEvaluator(d, t, symbols, reward, { engine: "js", steps: 50, polish: "lm" });
  let out = [];
  for (const [i, p] of screen.proposals.slice(0, 12).entries()) {
    const s = { inputs: d.inputs, symbols: e.symbols, outputs: [t], products: p.products, sums: [p.products.map((_, j) => j)] };
    const { candidate } = ev.evaluate(s);
    out.push(`${i} ${p.source} ${p.score.toExponential(1)} [${p.products.map(q=>q.map(n=>e.symbols[n%e.symbols.length]+"("+d.inputs[Math.floor(n/e.symbols.length)]+")").join("*")).join(" + ")}] w=${JSON.stringify([...p.weights])} -> ${equationText(candidate.equation, lookup)} ${candidate.nrmse.toExponential(1)}`);
  }
  console.log(`seed ${seed} ${t} (${(performance.now()-t0).toFixed(0)} ms)\n  ` + out.join("\n  "));
}
