/**
 * The numeric core (src/lib/numeric/linalg.ts): each kernel against a slower reference written
 * here (normal equations in exact-ish arithmetic on small integer data, or the definition).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng } from "../../src/lib/core/rng.js";
import {
  dot,
  givens,
  gramSchmidt,
  householderQr,
  leastSquares,
  rotate,
  solveSpd,
  solveSquare,
} from "../../src/lib/numeric/linalg.js";

const rng = createRng(11);
const column = (n: number, f: (r: number) => number) => Float64Array.from({ length: n }, (_, r) => f(r));
const close = (a: number, b: number, tol = 1e-10) =>
  assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

test("dot: the sum of products over a range, any length", () => {
  for (const n of [0, 1, 3, 4, 5, 17]) {
    const a = column(n, (r) => r + 1);
    const b = column(n, (r) => 2 - r);
    let s = 0;
    for (let r = 0; r < n; r++) s += a[r]! * b[r]!;
    assert.equal(dot(a, b), s);
  }
  assert.equal(dot([1, 2, 3, 4, 5], [1, 1, 1, 1, 1], 1, 4), 9);
});

test("Householder least squares: exact coefficients, every prefix, a residual orthogonal to the columns", () => {
  const n = 60;
  const x = [
    column(n, () => rng.uniform(-1, 1)),
    column(n, () => rng.uniform(0, 2)),
    column(n, () => rng.uniform(1, 3)),
  ];
  const y = column(n, (r) => 2 * x[0]![r]! - 3 * x[1]![r]! + 0.5 * x[2]![r]!);
  const qr = householderQr(x)!;
  const beta = qr.solve(y)!;
  for (const [j, b] of [2, -3, 0.5].entries()) close(beta[j]!, b);
  // Prefix 1: y on x0 alone is (x0·y)/(x0·x0).
  close(qr.solve(y, 1)![0]!, dot(x[0]!, y) / dot(x[0]!, x[0]!));
  assert.equal(qr.solve(y, 1)![1], 0);
  const noisy = column(n, (r) => y[r]! + rng.normal() * 0.1);
  const residual = qr.residual(noisy);
  for (const c of x) assert.ok(Math.abs(dot(c, residual)) < 1e-10 * Math.sqrt(dot(noisy, noisy)));
  close(qr.inside(noisy) + dot(residual, residual), dot(noisy, noisy), 1e-12);
  // The explicit basis is orthonormal and spans the columns.
  const q = qr.basis();
  assert.equal(q.length, 3);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) close(dot(q[i]!, q[j]!), i === j ? 1 : 0, 1e-12);
  // R·(scaled β) reproduces Qᵀy's head: entry (0, 0) is ±‖x0‖ / ‖x0‖ = ±1.
  close(Math.abs(qr.r(0, 0)), 1, 1e-14);
  assert.equal(qr.r(2, 0), 0);
  assert.equal(householderQr([column(3, () => Number.NaN)]), null);
});

test("a dependent column gets no reflection and a zero coefficient; the threshold is relative", () => {
  const n = 20;
  const a = column(n, (r) => r + 1);
  const b = column(n, (r) => (r % 3) - 1);
  const c = column(n, (r) => 2 * a[r]! - b[r]! + 1e-9 * (r % 2));
  const y = column(n, (r) => a[r]! + b[r]!);
  const strict = householderQr([a, b, c])!;
  assert.deepEqual(strict.kept, [0, 1, 2]);
  const loose = householderQr([a, b, c], { dependent: 1e-6 })!;
  assert.deepEqual(loose.kept, [0, 1]);
  assert.deepEqual(Array.from(loose.rankAt), [1, 2, 2]);
  const beta = leastSquares([a, b, c], y, { dependent: 1e-6 })!;
  close(beta[0]!, 1);
  close(beta[1]!, 1);
  assert.equal(beta[2], 0);
});

test("givens zeroes an entry, rotate applies it; the SPD and square solves invert their systems", () => {
  const g = givens(3, -4)!;
  const v = Float64Array.of(3, -4);
  rotate(v, v, 0, 1, g.c, g.s);
  close(v[0]!, 5, 1e-15);
  close(v[1]!, 0, 1e-15);
  assert.equal(givens(0, 0), undefined);
  const A = Float64Array.of(4, 2, 0, 2, 5, 1, 0, 1, 3);
  const x = Float64Array.of(1, -2, 3);
  const b = Float64Array.of(4 - 4, 2 - 10 + 3, -2 + 9);
  for (const [i, v] of solveSpd(A, b)!.entries()) close(v, x[i]!, 1e-14);
  assert.equal(solveSpd(Float64Array.of(1, 2, 2, 1), Float64Array.of(1, 1)), null);
  const S = Float64Array.of(0, 2, 1, 1, 1, 0, 3, 0, 1);
  const sol = solveSquare(Float64Array.from(S), Float64Array.of(4, 0, 5), 3)!;
  for (let i = 0; i < 3; i++)
    close(S[i * 3]! * sol[0]! + S[i * 3 + 1]! * sol[1]! + S[i * 3 + 2]! * sol[2]!, [4, 0, 5][i]!, 1e-14);
  assert.equal(solveSquare(Float64Array.of(1, 2, 2, 4), Float64Array.of(1, 1), 2), null);
});

test("Gram–Schmidt: an orthonormal basis, its projection, and the least-squares coefficients it solves for", () => {
  const n = 40;
  const a = column(n, () => rng.uniform(1, 2));
  const b = column(n, () => rng.uniform(-1, 1));
  const dependent = column(n, (r) => 3 * a[r]! - b[r]!);
  const y = column(n, (r) => 0.5 * a[r]! + 2 * b[r]!);
  const basis = gramSchmidt([a, b, dependent, column(n, () => 0)], { dependent: 1e-10 });
  assert.deepEqual(basis.kept, [0, 1]);
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) close(dot(basis.q[i]!, basis.q[j]!), i === j ? 1 : 0, 1e-14);
  const beta = basis.solve(y);
  close(beta[0]!, 0.5);
  close(beta[1]!, 2);
  assert.equal(beta[2], 0);
  const residual = basis.project(Float64Array.from(y));
  assert.ok(Math.sqrt(dot(residual, residual)) < 1e-12 * Math.sqrt(dot(y, y)));
  // With unit, each column is scaled first and R is in those units: r[0][0] = 1.
  close(gramSchmidt([a], { dependent: 1e-10, unit: true }).r[0]![0]!, 1, 1e-14);
});
