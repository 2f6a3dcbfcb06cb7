/**
 * Under noise, the polynomial question's answer ends the search only where it is one law across
 * the range (the split test), and its rivals are scored on their fit in y's own space.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, runSteps } from "../../src/lib/core/index.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { productNrmse } from "../../src/lib/search/firstScreen.js";
import { monomialColumn, monomials, polynomialQuestionSteps } from "../../src/lib/search/linear/polynomial.js";
import { chiSquareQuantile, SPLIT_Z, splitStatistic } from "../../src/lib/search/polynomialQuestion.js";
import { SPLIT_P, splitLevel, upperNormalQuantile } from "../../src/lib/search/noise.js";
import { std } from "../../src/lib/numeric/index.js";

const ROWS = 500;

/** Two inputs on U(0, 1), y = f(x1, x2) plus Gaussian noise of `level`·std(f). */
function sample(seed: number, f: (a: number, b: number) => number, level: number) {
  const rng = createRng(seed);
  const x = [0, 1].map(() => Float64Array.from({ length: ROWS }, () => rng.next()));
  const clean = Float64Array.from({ length: ROWS }, (_, r) => f(x[0]![r]!, x[1]![r]!));
  const sigma = level * std(clean);
  return { x, y: clean.map((v) => v + sigma * rng.normal()) };
}

/** The noisy question's answer over the cubic library of two inputs: its monomials and constant. */
function answerOf(x: Float64Array[], y: Float64Array) {
  const library = monomials(2, 3, () => true);
  const answer = runSteps(polynomialQuestionSteps({ x, y, monomials: library, intercept: true, noisy: true }))!;
  return { terms: answer.members.map((j) => library[j]!), constant: answer.constant };
}

const holds = (x: Float64Array[], y: Float64Array, terms: readonly (readonly number[])[], constant: boolean) => {
  // The search's level: the largest of one test per input, each at SPLIT_P / inputs (Bonferroni's).
  const { statistic, parameters, tests } = splitStatistic(x, y, terms, constant);
  assert.equal(tests, x.length, "each input splits the rows");
  return statistic <= splitLevel(parameters, tests);
};

test("the split test: a Taylor sum of 2·sin(x)·cos(y) at 1 % noise does not hold across the range", () => {
  for (const seed of [0, 1, 2]) {
    const { x, y } = sample(seed, (a, b) => 2 * Math.sin(a) * Math.cos(b), 0.01);
    const answer = answerOf(x, y);
    assert.ok(answer.terms.length >= 3, `seed ${seed}: the question imitates the law with a sum`);
    assert.equal(holds(x, y, answer.terms, answer.constant), false, `seed ${seed}: the halves differ`);
  }
});

test("the split test: a sparse polynomial at 1 % and 10 % noise holds with one set of coefficients", () => {
  // The monomials a Taylor sum of sin·cos uses, as the law itself.
  const f = (a: number, b: number) => 2 * a - a * b * b - 0.3 * a ** 3 + 0.15 * a ** 3 * b * b;
  for (const level of [0.01, 0.1])
    for (const seed of [0, 1, 2, 3, 4]) {
      const { x, y } = sample(seed, f, level);
      const terms = [
        [1, 0],
        [1, 2],
        [3, 0],
        [3, 2],
      ];
      assert.ok(holds(x, y, terms, false), `level ${level}, seed ${seed}`);
    }
});

test("the upper-tail normal quantile is within 5e-4 of the tables", () => {
  const table: [number, number][] = [
    [0.05, 1.6449],
    [0.01, 2.3263],
    [0.005, 2.5758],
    [0.001, 3.0902],
    [0.0001, 3.719],
  ];
  for (const [p, z] of table) assert.ok(Math.abs(upperNormalQuantile(p) - z) < 5e-4, `p = ${p}`);
  assert.ok(Math.abs(upperNormalQuantile(SPLIT_P) - SPLIT_Z) < 1e-3, "SPLIT_Z is SPLIT_P's quantile");
});

test("the χ² quantile (Wilson–Hilferty) is within 1 % of the tables at p = 0.01", () => {
  // χ²_k at 0.99: k = 3, 5, 10, 20.
  const table: [number, number][] = [
    [3, 11.345],
    [5, 15.086],
    [10, 23.209],
    [20, 37.566],
  ];
  for (const [k, q] of table) assert.ok(Math.abs(chiSquareQuantile(k, SPLIT_Z) / q - 1) < 0.01, `k = ${k}`);
});

test("a one-product rival is scored on its fit of y, not of log|y|: ε·c·E² at 10 % noise", () => {
  const rng = createRng(7);
  const x = [0, 1, 2].map(() => Float64Array.from({ length: ROWS }, () => 1 + 4 * rng.next()));
  const clean = monomialColumn(x, [1, 1, 2]);
  const sigma = 0.1 * std(clean);
  const y = clean.map((v) => v + sigma * rng.normal());
  const symbols = createSymbolRegistry();
  const pool = ["x", "x^2"];
  const data = { inputs: ["e", "c", "E"], targets: ["y"], x, y: [y], rows: ROWS };
  // Neurons: input i with pool symbol k is i·|pool| + k (e: x, c: x, E: x²).
  const proposal = { products: [[0, 2, 5]], score: 0.37, expected: 0.52, source: "log-product" as const };
  const fitted = productNrmse({ data, pool, symbols }, proposal, y, true);
  const noise = sigma / std(y);
  assert.ok(fitted > 0.9 * noise && fitted < 1.1 * noise, `${fitted} against the noise's ${noise}`);
  // A wrong product fits worse.
  const wrong = productNrmse({ data, pool, symbols }, { ...proposal, products: [[0, 2, 4]] }, y, true);
  assert.ok(wrong > 2 * noise, `${wrong}`);
});
