import assert from "node:assert/strict";
import { test } from "node:test";
import { predictStlsq, stlsq } from "../../src/lib/baselines/stlsq.js";
import { createRng } from "../../src/lib/core/index.js";
import { leastSquares } from "../../src/lib/numeric/index.js";
import { monomialColumn, monomials } from "../../src/lib/search/linear/polynomial.js";

type Rng = ReturnType<typeof createRng>;

const uniform = (rng: Rng, rows: number, lo: number, hi: number) =>
  Float64Array.from({ length: rows }, () => lo + (hi - lo) * rng.next());

/** A standard normal draw (Box–Muller). */
const gaussian = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

test("stlsq recovers a clean sparse law over the degree-3 library of two inputs exactly", () => {
  const rng = createRng(1);
  const x = [uniform(rng, 300, -2, 2), uniform(rng, 300, 0.5, 3)];
  const library = monomials(2, 3, () => true);
  const columns = library.map((powers) => monomialColumn(x, powers));
  const ab = library.findIndex((p) => p[0] === 1 && p[1] === 1);
  const a2 = library.findIndex((p) => p[0] === 2 && p[1] === 0);
  // y = 1.8·a·b − 0.6·a² + 0.4
  const y = Float64Array.from(x[0]!, (a, r) => 1.8 * a * x[1]![r]! - 0.6 * a * a + 0.4);
  const fit = stlsq(columns, y);
  assert.deepEqual(
    fit.support,
    [a2, ab].sort((p, q) => p - q),
  );
  const coefficient = (j: number) => fit.coefficients[fit.support.indexOf(j)]!;
  assert.ok(Math.abs(coefficient(ab) - 1.8) < 1e-9, `a·b: ${coefficient(ab)}`);
  assert.ok(Math.abs(coefficient(a2) + 0.6) < 1e-9, `a²: ${coefficient(a2)}`);
  assert.equal(fit.constantInSupport, true);
  assert.ok(Math.abs(fit.constant - 0.4) < 1e-9, `constant: ${fit.constant}`);
  assert.ok(fit.nrmse < 1e-9, `NRMSE ${fit.nrmse}`);
  // Its predictions on other rows are the law's.
  const other = [uniform(rng, 50, -3, 3), uniform(rng, 50, 0, 4)];
  const predicted = predictStlsq(
    fit,
    library.map((powers) => monomialColumn(other, powers)),
  );
  for (let r = 0; r < 50; r++) {
    const truth = 1.8 * other[0]![r]! * other[1]![r]! - 0.6 * other[0]![r]! ** 2 + 0.4;
    assert.ok(Math.abs(predicted[r]! - truth) < 1e-8, `row ${r}: ${predicted[r]} vs ${truth}`);
  }
});

test("stlsq's threshold drops a spurious column that plain least squares keeps under noise", () => {
  const rng = createRng(7);
  const rows = 400;
  const x = [uniform(rng, rows, 0, 2), uniform(rng, rows, -1, 1), uniform(rng, rows, 0, 2)];
  // y = 3·x1 − 2·x2 + noise; x3 has no part in it.
  const y = Float64Array.from(x[0]!, (a, r) => 3 * a - 2 * x[1]![r]! + 0.05 * gaussian(rng));
  const full = leastSquares(x, y)!;
  assert.notEqual(full[2], 0, "least squares gives the spurious column a coefficient");
  const fit = stlsq(x, y, { intercept: false });
  assert.deepEqual(fit.support, [0, 1]);
  assert.equal(fit.constantInSupport, false);
  assert.equal(fit.constant, 0);
  assert.ok(Math.abs(fit.coefficients[0]! - 3) < 0.02, `x1: ${fit.coefficients[0]}`);
  assert.ok(Math.abs(fit.coefficients[1]! + 2) < 0.02, `x2: ${fit.coefficients[1]}`);
  // At the smallest λ of a grid nothing is dropped: the spurious column stays.
  const loose = stlsq(x, y, { intercept: false, lambdas: [1e-9] });
  assert.deepEqual(loose.support, [0, 1, 2]);
  assert.ok(fit.score < loose.score, "the chosen λ scores better than keeping every column");
});

test("stlsq is deterministic and leaves its inputs untouched", () => {
  const make = () => {
    const rng = createRng(3);
    const x = [uniform(rng, 200, 1, 2), uniform(rng, 200, 1, 2), uniform(rng, 200, 1, 2)];
    const library = monomials(3, 2, () => true);
    const columns = library.map((powers) => monomialColumn(x, powers));
    const y = Float64Array.from(x[0]!, (a, r) => 0.9 * a * x[1]![r]! + 1.7 * x[2]![r]! ** 2 + 0.02 * gaussian(rng));
    return { columns, y };
  };
  const first = make();
  const copies = first.columns.map((c) => Float64Array.from(c));
  const yCopy = Float64Array.from(first.y);
  const a = stlsq(first.columns, first.y);
  const second = make();
  const b = stlsq(second.columns, second.y);
  assert.deepEqual(a, b);
  assert.deepEqual(first.columns, copies);
  assert.deepEqual(first.y, yCopy);
  assert.throws(() => stlsq(first.columns, first.y, { lambdas: [0] }), /lambdas must be positive/);
});
