/**
 * Is there partial credit for a learned search to learn from? For y = 2.5·x1·x2 + 1.3·x3²
 * (x ~ U(1, 2), the paper's range) with the pool {x, x², sin, log, sqrt}, this fits every
 * one-product structure and every two-product structure that contains one true product, plus
 * random two-product structures, with the search's own fitter, and prints where the true
 * products rank and how the NRMSE of "one right product + one wrong" compares with "two wrong".
 * A reward model can only rank unseen structures well if the second beats the third.
 *
 *   node --import tsx bench/partialCredit.ts [--seed 0] [--rows 500]
 */
import { generateDataset } from "../src/lib/data/experiments.js";
import { consolesrSettings } from "../src/lib/search/index.js";
import { createEvaluator } from "../src/lib/search/index.js";
import { createRng } from "../src/lib/core/rng.js";
import { equationText } from "../src/lib/equation/format.js";
import type { Equation } from "../src/lib/equation/types.js";
import { createRewardRegistry, createSymbolRegistry } from "../src/lib/plugins/builtin.js";

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seed = flag("seed", 0);
const rows = flag("rows", 500);
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const pool = ["x", "x^2", "sin", "log", "sqrt"];
const inputs = ["x1", "x2", "x3"];
const truth: Equation = {
  target: "y",
  terms: [
    {
      coefficient: 2.5,
      factors: [
        { symbol: "x", input: "x1" },
        { symbol: "x", input: "x2" },
      ],
    },
    { coefficient: 1.3, factors: [{ symbol: "x^2", input: "x3" }] },
  ],
};
const data = generateDataset(inputs, [truth], { rng: createRng(1000 + seed), symbols: lookup, rows });
const evaluator = createEvaluator(data, "y", symbols, createRewardRegistry().get("inv-nrmse"), consolesrSettings.fit);
const neuron = (input: string, symbol: string) => inputs.indexOf(input) * pool.length + pool.indexOf(symbol);
const n1 = inputs.length * pool.length;
const products: number[][] = [];
for (let i = 0; i < n1; i++) products.push([i]);
for (let i = 0; i < n1; i++) for (let j = i + 1; j < n1; j++) products.push([i, j]);
const structure = (ps: number[][]) => ({
  inputs,
  symbols: pool,
  outputs: ["y"],
  products: ps,
  sums: [ps.map((_, k) => k)],
});
const nrmseOf = (ps: number[][]) => evaluator.evaluate(structure(ps)).candidate.nrmse;
const same = (a: number[], b: number[]) => a.join() === b.join();
const trueProducts = [[neuron("x1", "x"), neuron("x2", "x")], [neuron("x3", "x^2")]];

const singles = products.map((p) => ({ p, nrmse: nrmseOf([p]) })).sort((a, b) => a.nrmse - b.nrmse);
console.log(
  `y = 2.5·x1·x2 + 1.3·x3², x ~ U(1, 2), ${rows} rows, ` +
    `pool {${pool.join(", ")}}: ${products.length} products of ≤ 2 factors`,
);
console.log("best one-product structures:");
for (const s of singles.slice(0, 5))
  console.log(
    `  NRMSE ${s.nrmse.toFixed(4)}  ${equationText(evaluator.evaluate(structure([s.p])).candidate.equation, lookup)}`,
  );
for (const t of trueProducts) {
  const rank = singles.findIndex((s) => same(s.p, t));
  const factors = t.map((i) => ({ symbol: pool[i % pool.length]!, input: inputs[Math.floor(i / pool.length)]! }));
  const product = equationText({ target: "y", terms: [{ coefficient: 1, factors }] }, lookup).replace(/^1\*/, "");
  console.log(
    `true product ${product} alone: rank ${rank + 1} of ${singles.length}, NRMSE ${singles[rank]!.nrmse.toFixed(4)}`,
  );
}
const quantiles = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => s[Math.floor(p * (s.length - 1))]!.toFixed(3);
  return `q10 ${q(0.1)}  median ${q(0.5)}  q90 ${q(0.9)}  (n = ${s.length})`;
};
const rng = createRng(7 + seed);
const withTrue = trueProducts.map((t) =>
  products.filter((p) => !trueProducts.some((u) => same(u, p))).map((p) => nrmseOf([t, p])),
);
const wrong = products.filter((p) => !trueProducts.some((u) => same(u, p)));
const random: number[] = [];
while (random.length < 200) {
  const a = wrong[rng.int(wrong.length)]!;
  const b = wrong[rng.int(wrong.length)]!;
  if (!same(a, b)) random.push(nrmseOf([a, b]));
}
console.log("NRMSE of two-product structures:");
console.log(`  x1·x2 + a wrong product:  ${quantiles(withTrue[0]!)}`);
console.log(`  x3²  + a wrong product:   ${quantiles(withTrue[1]!)}`);
console.log(`  two wrong products:       ${quantiles(random)}`);
console.log(`  the truth:                ${nrmseOf(trueProducts).toExponential(2)}`);

// The contrast: a single product of several factors (Feynman I.12.2, F = q1·q2/(4π·ε·r²)). A
// product with some of the true factors already tracks y, so edits that swap a factor can climb.
{
  const { benchmarkData, benchmarkEntry } = await import("../src/lib/data/benchmark.js");
  const entry = benchmarkEntry("feynman-I.12.2");
  const sets = benchmarkData(entry, { symbols, rows, seed });
  const ev = createEvaluator(
    sets.train,
    sets.train.targets[0]!,
    symbols,
    createRewardRegistry().get("inv-nrmse"),
    consolesrSettings.fit,
  );
  const ins = sets.train.inputs;
  const index = (input: string, symbol: string) => ins.indexOf(input) * entry.pool.length + entry.pool.indexOf(symbol);
  const truthProduct = sets.truth.terms[0]!.factors.map((f) => index(f.input, f.symbol)).sort((a, b) => a - b);
  const st = (ps: number[][]) => ({
    inputs: ins,
    symbols: entry.pool,
    outputs: sets.train.targets,
    products: ps,
    sums: [ps.map((_, k) => k)],
  });
  const fitOf = (p: number[]) => ev.evaluate(st([p])).candidate.nrmse;
  const neurons = ins.length * entry.pool.length;
  const r = createRng(11 + seed);
  const randomProduct = (size: number) => {
    const s = new Set<number>();
    while (s.size < size) s.add(r.int(neurons));
    return [...s].sort((a, b) => a - b);
  };
  console.log(
    `\nFeynman I.12.2, ${sets.truth.terms[0]!.factors.length} true ` +
      `factors, ${neurons} neurons (pool {${entry.pool.join(", ")}}):`,
  );
  for (const keep of [3, 2]) {
    const subsets: number[] = [];
    const choose = (start: number, chosen: number[]) => {
      if (chosen.length === keep) return void subsets.push(fitOf(chosen));
      for (let i = start; i < truthProduct.length; i++) choose(i + 1, [...chosen, truthProduct[i]!]);
    };
    choose(0, []);
    const randoms = Array.from({ length: 60 }, () => fitOf(randomProduct(keep)));
    console.log(`  ${keep} of the true factors:  ${quantiles(subsets)}`);
    console.log(`  ${keep} random factors:       ${quantiles(randoms)}`);
  }
}
