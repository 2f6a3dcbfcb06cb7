/**
 * The leave-one-out NRMSE (metrics/leaveOneOut.ts) and the answer rule under noise that scores it:
 * leverages are the hat matrix's diagonal, the shortcut equals refitting without each row, and a
 * term that only one row needs (x⁻¹ where x is nearly 0) does not win the answer.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fit } from "../../src/lib/index.js";
import { addNoise } from "../../src/lib/data/noise.js";
import { leaveOneOutNrmse, leverages } from "../../src/lib/metrics/leaveOneOut.js";
import { std } from "../../src/lib/numeric/nrmse.js";
import { createRng } from "../../src/lib/core/rng.js";

/** Least squares by normal equations (Gauss–Jordan; a few columns only). */
function leastSquares(columns: number[][], y: number[], rows: number[]): number[] {
  const m = columns.length;
  const a = Array.from({ length: m }, (_, j) => [
    ...Array.from({ length: m }, (_, k) => rows.reduce((s, i) => s + columns[j]![i]! * columns[k]![i]!, 0)),
    rows.reduce((s, i) => s + columns[j]![i]! * y[i]!, 0),
  ]);
  for (let p = 0; p < m; p++) {
    const pivot = a[p]![p]!;
    for (let k = p; k <= m; k++) a[p]![k]! /= pivot;
    for (let r = 0; r < m; r++) {
      if (r === p) continue;
      const f = a[r]![p]!;
      for (let k = p; k <= m; k++) a[r]![k]! -= f * a[p]![k]!;
    }
  }
  return a.map((row) => row[m]!);
}

/** The full fit's prediction, and the leave-one-out NRMSE by refitting without each row in turn. */
function fitted(columns: number[][], y: number[], rows: number[]): number[] {
  const coef = leastSquares(columns, y, rows);
  return y.map((_, i) => columns.reduce((s, c, j) => s + coef[j]! * c[i]!, 0));
}

function refitEachRow(columns: number[][], y: number[]): number {
  const all = y.map((_, i) => i);
  const left = all.map(
    (i) =>
      y[i]! -
      fitted(
        columns,
        y,
        all.filter((k) => k !== i),
      )[i]!,
  );
  return Math.sqrt(left.reduce((s, r) => s + r * r, 0) / y.length) / std(y);
}

function problem(rows: number) {
  const rng = createRng(11);
  const x = Array.from({ length: rows }, () => rng.uniform(0.5, 2));
  const columns = [x.map((v) => v), x.map((v) => v * v), x.map((v) => Math.sin(3 * v))];
  const y = x.map((v) => 1.5 * v - 0.4 * v * v + 0.3 * Math.sin(3 * v) + 0.05 * rng.normal());
  return { columns, y };
}

test("leverages: the hat matrix's diagonal sums to the rank; a repeated column adds nothing", () => {
  const { columns } = problem(40);
  const h = leverages(columns, 40);
  assert.ok(Math.abs(h.reduce((s, v) => s + v, 0) - 3) < 1e-10);
  assert.ok(h.every((v) => v > 0 && v < 1));
  const again = leverages([...columns, columns[1]!.map((v) => 2 * v)], 40);
  for (let i = 0; i < 40; i++) assert.ok(Math.abs(again[i]! - h[i]!) < 1e-10);
});

test("leave-one-out NRMSE: the shortcut r/(1 − h) equals refitting without each row", () => {
  const rows = 30;
  const { columns, y } = problem(rows);
  const all = Array.from({ length: rows }, (_, i) => i);
  const predicted = fitted(columns, y, all);
  const brute = refitEachRow(columns, y);
  const shortcut = leaveOneOutNrmse(columns, y, predicted);
  assert.ok(Math.abs(shortcut / brute - 1) < 1e-9, `${shortcut} against ${brute}`);
  // Left out, every row is predicted worse than fitted.
  const train = Math.sqrt(all.reduce((s, i) => s + (y[i]! - predicted[i]!) ** 2, 0) / rows) / std(y);
  assert.ok(shortcut > train);
});

test("leave-one-out NRMSE: a column one row dominates (leverage 1 − 10⁻¹⁰) is left out as a refit would", () => {
  const rows = 40;
  const rng = createRng(5);
  const x = Array.from({ length: rows }, (_, i) => (i === 7 ? 1e-4 : rng.uniform(0.5, 2)));
  const columns = [x.map((v) => v), x.map((v) => v ** -2)];
  const y = x.map((v) => 2 * v + 0.05 * rng.normal());
  const all = Array.from({ length: rows }, (_, i) => i);
  const h = leverages(columns, rows);
  assert.ok(1 - h[7]! < 1e-6, `leverage ${h[7]}`);
  const predicted = fitted(columns, y, all);
  const brute = refitEachRow(columns, y);
  const shortcut = leaveOneOutNrmse(columns, y, predicted);
  assert.ok(Math.abs(shortcut / brute - 1) < 1e-6, `${shortcut} against ${brute}`);
});

test("under noise, a term fitted to one row (x⁻¹ where x is nearly 0) is not part of the answer", async () => {
  // y = x + x² + x³ at 40 dB on U(−1, 1), one row at x = 0.002 (x⁻¹ is 500 there, under 10 elsewhere).
  const rng = createRng(3);
  const x = Array.from({ length: 500 }, (_, i) => (i === 17 ? 0.002 : rng.uniform(-1, 1)));
  const y = Float64Array.from(x, (v) => v + v * v + v * v * v);
  addNoise(y, 40, rng);
  // The noise at the lone row made large, as the largest of 500 draws can be: 3.5 σ.
  const sigma = 0.01 * std(y);
  y[17] = 0.002 + 0.002 ** 2 + 0.002 ** 3 + 3.5 * sigma;
  const result = await fit({ X: x.map((v) => [v]), y: [...y], names: ["x"], seed: 0 });
  assert.equal(result.search.stopReason, "noise-floor");
  const factors = result.equations[0]!.terms.map((t) => t.factors.map((f) => `${f.symbol}(${f.input})`).join("*"));
  assert.deepEqual(factors.sort(), ["x(x)", "x^2(x)", "x^3(x)"].sort(), JSON.stringify(result.equations[0]));
});
