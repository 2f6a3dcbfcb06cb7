/**
 * Forms under noise nobody announces (issue 56): an outer function g is proposed where a short sum
 * fits g⁻¹(y) so that g of it reaches y's estimated noise floor on y's own scale, shorter than any sum
 * of y that does; the search of g⁻¹(y) starts from that sum and ends at once; the answer's
 * coefficients are refitted on y's scale. Noise that takes a few y out of g's domain (y ≤ 0 for 1/y)
 * clips them. A plain product stays a product.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, fit, type FitArraysResult } from "../../src/lib/index.js";

type Law = (x: readonly number[]) => number;

/** `rows` draws of the law on its ranges, with Gaussian noise of `share` times y's RMS (not told). */
function noisy(law: Law, ranges: [number, number][], share: number, seed: number, rows = 800) {
  const rng = createRng(seed);
  const X = Array.from({ length: rows }, () => ranges.map(([lo, hi]) => rng.uniform(lo, hi)));
  const clean = X.map(law);
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / rows);
  return { X, y: clean.map((v) => v + share * rms * rng.normal()) };
}

/**
 * The result's noise estimate over the drawn noise's NRMSE (σ / std(y)): a noisy form states y's own
 * noise, not the noise of the target its search fitted (y·Q, g⁻¹(y)).
 */
function noiseRatio(result: FitArraysResult, X: number[][], y: number[], law: Law, share: number): number {
  const rows = y.length;
  const rms = Math.sqrt(X.reduce((s, x) => s + law(x) ** 2, 0) / rows);
  const mean = y.reduce((s, v) => s + v, 0) / rows;
  const sd = Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0) / rows);
  const noise = result.search.noise;
  const estimate = Array.isArray(noise) ? noise[0]!.nrmse : noise!.nrmse;
  return estimate / ((share * rms) / sd);
}

/** The answer's relative RMS error against the noiseless law on fresh rows. */
function freshError(result: FitArraysResult, law: Law, ranges: [number, number][]): number {
  const rng = createRng(99);
  const X = Array.from({ length: 500 }, () => ranges.map(([lo, hi]) => rng.uniform(lo, hi)));
  const predicted = result.equations[0]!.predict(X);
  let squares = 0;
  let power = 0;
  X.forEach((x, r) => {
    squares += (predicted[r]! - law(x)) ** 2;
    power += law(x) ** 2;
  });
  return Math.sqrt(squares / power);
}

test("a root of a sum at 1 % noise: y = sqrt(L), L's two terms, at the floor, within 1 % on fresh rows", async () => {
  const law: Law = ([a, b, c]) => Math.sqrt(a! * a! + 3 * b! * c!);
  const ranges: [number, number][] = [
    [0.5, 5],
    [0.2, 3],
    [0.2, 3],
  ];
  const { X, y } = noisy(law, ranges, 0.01, 3);
  const result = await fit({ X, y, names: ["a", "b", "c"], seed: 0 });
  const answer = result.equations[0]!;
  assert.equal(answer.outer, "sqrt", answer.text);
  assert.match(answer.text, /^sqrt\([\d.]+\*a\^2 \+ [\d.]+\*b\*c\)$/);
  assert.equal(result.search.targets?.[0]?.stopReason, "noise-floor");
  assert.ok(freshError(result, law, ranges) < 0.01, answer.text);
  const ratio = noiseRatio(result, X, y, law, 0.01);
  assert.ok(Math.abs(ratio - 1) < 0.2, `noise estimate ${ratio.toFixed(2)} × the drawn noise`);
});

test("a root at 20 dB whose noise takes y below 0: those rows are clipped, y = sqrt(L) is found", async () => {
  const law: Law = ([a, b, c]) => Math.sqrt(a! * b! + c! * c!);
  const ranges: [number, number][] = [
    [0, 2],
    [0, 2],
    [0, 2],
  ];
  const { X, y } = noisy(law, ranges, 0.1, 5);
  assert.ok(
    y.some((v) => v <= 0),
    "the case needs a y that noise took out of sqrt's domain",
  );
  const result = await fit({ X, y, names: ["a", "b", "c"], seed: 0 });
  const answer = result.equations[0]!;
  assert.equal(answer.outer, "sqrt", answer.text);
  assert.match(answer.text, /^sqrt\([\d.]+\*a\*b \+ [\d.]+\*c\^2\)$/);
  assert.ok(freshError(result, law, ranges) < 0.02, answer.text);
});

test("a product at 1 % noise stays a product: no outer function's sum is shorter", async () => {
  const law: Law = ([a, b, c]) => (3 * a! * b!) / c!;
  const ranges: [number, number][] = [
    [0.5, 4],
    [0.5, 4],
    [1, 3],
  ];
  const { X, y } = noisy(law, ranges, 0.01, 7);
  const result = await fit({ X, y, names: ["a", "b", "c"], seed: 0 });
  const answer = result.equations[0]!;
  assert.equal(answer.outer, undefined, answer.text);
  assert.match(answer.text, /^[\d.]+\*a\*b\*c\^\(-1\)$/);
});

test("a ratio with sums above and below at 1 % noise: the law's terms, within 1 % on fresh rows", async () => {
  const law: Law = ([a, b, c, d]) => (a! + 2 * b! * c!) / (1 + 0.5 * d!);
  const ranges: [number, number][] = [
    [0.5, 3],
    [0.5, 2],
    [0.5, 2],
    [0, 4],
  ];
  const { X, y } = noisy(law, ranges, 0.01, 9);
  const result = await fit({ X, y, names: ["a", "b", "c", "d"], seed: 0 });
  const answer = result.equations[0]!;
  assert.ok(answer.denominator, answer.text);
  assert.match(answer.text, /^\([\d.]+\*a \+ [\d.]+\*b\*c\)\/\([\d.]+\*d \+ 1\)$/);
  assert.equal(result.search.targets?.[0]?.stopReason, "noise-floor");
  assert.ok(freshError(result, law, ranges) < 0.01, answer.text);
  const ratio = noiseRatio(result, X, y, law, 0.01);
  assert.ok(Math.abs(ratio - 1) < 0.2, `noise estimate ${ratio.toFixed(2)} × the drawn noise`);
});
