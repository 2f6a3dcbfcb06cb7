/**
 * Functions of monomials (issue 57's "products of two forms"): y = F(u)·G(v)·x with
 * u and v monomials of the inputs. The log-space screen must not lose the product where two factor
 * sets tie alone (src/lib/search/linear/monomial.ts, chooseExtras), the monomials' weighing fits a
 * product's inner weights on y (firstScreen.ts, refinedProduct), and a noise estimate inflated by
 * approximation error must not end the monomials' search early (forms.ts, monomialForm). Laws of
 * this file's own making (not the composite family's).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, fit } from "../../src/lib/index.js";
import { monomialProposals } from "../../src/lib/search/linear/monomial.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { runSteps } from "../../src/lib/core/index.js";
import { monomialText } from "../../src/lib/equation/index.js";
import { monomialChoiceSteps, reduceMonomialSteps } from "../../src/lib/search/monomialScreen.js";
import { estimateNoise } from "../../src/lib/search/noise.js";

const symbols = createSymbolRegistry();

test("the log-space screen keeps tied factor sets: exp(−u)·sin(v)·a, where sin(v) and v·cos(0.5·v) tie alone", () => {
  // u = b/c and v = d·e of uniform inputs: sin(v) and v·cos(v/2) fit log|y| alike beside powers,
  // and only beside exp(−u) does the sine fit exactly. A greedy choice took the cosine on 2 of these
  // 12 draws (residual 7e-3), and the product of the law was never proposed.
  const pool = ["x", "x^2", "sqrt", "x^-1", "exp", "sin", "cos", "log"];
  for (let seed = 0; seed < 12; seed++) {
    const rng = createRng(seed);
    const n = 400;
    const [u, v, a, y] = [0, 1, 2, 3].map(() => new Float64Array(n)) as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
    ];
    for (let r = 0; r < n; r++) {
      u[r] = rng.uniform(0.5, 2) / rng.uniform(0.5, 2);
      v[r] = rng.uniform(0.5, 1.5) * rng.uniform(0.5, 2);
      a[r] = rng.uniform(1, 5);
      y[r] = a[r]! * Math.exp(-u[r]!) * Math.sin(v[r]!);
    }
    const allowed = new Array(3 * pool.length).fill(true);
    const [first] = monomialProposals({ x: [u, v, a], y, pool, allowed, lookup: (s) => symbols.get(s), maxFactors: 4 });
    // exp on u (neuron 4), sin on v (8 + 5), a as it is (16).
    assert.deepEqual(first!.neurons, [4, 13, 16], `draw ${seed}`);
    assert.ok(first!.residual < 1e-9, `draw ${seed}: residual ${first!.residual}`);
  }
});

/** A decay of a product times an oscillation of a ratio: 3·e·exp(−a·b)·sin(c/d) over five inputs. */
const law = ([a, b, c, d, e]: readonly number[]) => 3 * e! * Math.exp(-a! * b!) * Math.sin(c! / d!);
const ranges: [number, number][] = [
  [0.2, 1],
  [0.5, 2],
  [0.5, 2.5],
  [0.8, 2],
  [1, 4],
];

type Law = (x: readonly number[]) => number;

/**
 * fit() on 800 rows of the law over its ranges (seed 0), with Gaussian noise of `share` of y's RMS,
 * and the answer's worst error on 500 fresh noiseless rows, relative to the truth's RMS there.
 */
async function fitted(truth: Law, over: readonly [number, number][], share: number) {
  const rng = createRng(0);
  const X = Array.from({ length: 800 }, () => over.map(([lo, hi]) => rng.uniform(lo, hi)));
  const clean = X.map(truth);
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
  const y = clean.map((v) => v + share * rms * rng.normal());
  const names = ["a", "b", "c", "d", "e"].slice(0, over.length);
  const result = await fit({ X, y, names, seed: 0, timeLimit: 120 });
  const fresh = Array.from({ length: 500 }, () => over.map(([lo, hi]) => rng.uniform(lo, hi)));
  const expected = fresh.map(truth);
  const predicted = result.equations[0]!.predict(fresh);
  const freshRms = Math.sqrt(expected.reduce((s, v) => s + v * v, 0) / expected.length);
  const worst = Math.max(...expected.map((v, i) => Math.abs(v - predicted[i]!))) / freshRms;
  return { result, equation: result.equations[0]!, worst };
}

test("fit() answers a product of functions of two monomials exactly on clean data", async () => {
  // Before: 2.866·exp(−1.021·a·b)·cos(0.5322·c/d)·(c/d)·e + 0.084 at a false noise floor (the
  // inputs' noise estimate, 1e-2, was the estimator's approximation error), 20 % off on fresh rows.
  const { result, equation, worst } = await fitted(law, ranges, 0);
  assert.equal(result.search.stopReason, "reward-threshold");
  assert.ok(worst < 1e-9, `worst error on fresh rows ${worst} (${equation.text})`);
  assert.match(equation.text, /exp\(.*sin\(/);
});

test("fit() answers the same product at 1 % noise it is not told, within 1 % on fresh rows", async () => {
  // Before: 1.947·exp(−1.074·a)·b^(−1/2)·√c·e on the clock (130 % off on fresh rows).
  const { result, equation, worst } = await fitted(law, ranges, 0.01);
  assert.equal(result.search.stopReason, "noise-floor");
  assert.ok(worst < 0.01, `worst error on fresh rows ${worst} (${equation.text})`);
  // One product: the law's, no term the noise paid for.
  assert.equal((equation.text.match(/[+-] /g) ?? []).length, 0, equation.text);
});

test("fit() answers a function of one monomial where the inputs' noise estimate is approximation error", async () => {
  // 2·d/√(1 + (a·b·c)²): y's noise estimate over the four inputs is the estimator's approximation
  // error, far above the one over a·b·c and d; held to it, the weighing found no proposal at that
  // floor and the search ran to the clock on −0.48·√a·√b·d + 0.81·d/(a·b) − … (36 % off on fresh rows).
  const law4 = ([a, b, c, d]: readonly number[]) => (2 * d!) / Math.sqrt(1 + (a! * b! * c!) ** 2);
  const ranges4: [number, number][] = [
    [0.5, 2],
    [0.5, 2],
    [0.5, 1.5],
    [1, 3],
  ];
  const { result, equation, worst } = await fitted(law4, ranges4, 0);
  assert.equal(result.search.stopReason, "reward-threshold");
  assert.ok(worst < 1e-9, `worst error on fresh rows ${worst} (${equation.text})`);
});

/** A diode-like law over decades: 0.05·c·(e^(2·a/b) − 1), y from about 4e-3 to 40. */
const diode = ([a, b, c]: readonly number[]) => 0.05 * c! * (Math.exp((2 * a!) / b!) - 1);
const diodeRanges: [number, number][] = [
  [0.2, 1.5],
  [0.5, 1],
  [0.1, 2],
];

test("the monomial screen asks log|y| where y spans decades: a/b for 0.05·c·(e^(2·a/b) − 1)", () => {
  const rng = createRng(0);
  const X = Array.from({ length: 800 }, () => diodeRanges.map(([lo, hi]) => rng.uniform(lo, hi)));
  const x = [0, 1, 2].map((j) => Float64Array.from(X, (row) => row[j]!));
  const y = Float64Array.from(X, diode);
  const noise = estimateNoise(x, y).nrmse;
  const noisy = noise > 1e-6;
  // On y alone the largest values decide δ: the reduction screen (the one asked first where the
  // estimate reads noise, as here, where it is approximation error) merges nothing that passes.
  assert.equal(runSteps(reduceMonomialSteps(["a", "b", "c"], x, y, noise, noisy)), undefined);
  const choice = runSteps(monomialChoiceSteps("reduction", ["a", "b", "c"], x, y, noise, noisy));
  assert.ok(choice, "a choice on log|y|");
  assert.ok(
    choice.monomials.some((m) => monomialText(m) === "a/b"),
    `a/b among ${choice.monomials.map(monomialText).join(", ")}`,
  );
  assert.ok(choice.keep.includes("c"));
});

test("fit() answers 0.05·c·(e^(2·a/b) − 1) exactly, an exponential minus one over decades", async () => {
  // Before: a sum of exponentials and sines of a²/b² at the clock, 2 % off on fresh rows.
  const { result, equation, worst } = await fitted(diode, diodeRanges, 0);
  assert.equal(result.search.stopReason, "reward-threshold");
  assert.ok(worst < 1e-9, `worst error on fresh rows ${worst} (${equation.text})`);
});
