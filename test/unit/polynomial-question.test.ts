import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, runSteps } from "../../src/lib/core/index.js";
import {
  CUBIC_COLUMNS,
  monomialColumn,
  monomials,
  POLY_EXACT,
  polynomialDegree,
  polynomialQuestionSteps,
  type Powers,
} from "../../src/lib/search/linear/polynomial.js";

const uniform = (rng: ReturnType<typeof createRng>, rows: number, lo: number, hi: number) =>
  Float64Array.from({ length: rows }, () => lo + (hi - lo) * rng.next());

/** The library's index of a monomial given as powers. */
const indexOf = (library: readonly Powers[], powers: number[]) =>
  library.findIndex((p) => p.every((q, i) => q === powers[i]));

/** y = Σ c·monomial over the rows of x. */
function law(x: readonly Float64Array[], terms: [number, number[]][]): Float64Array {
  const y = new Float64Array(x[0]!.length);
  for (const [c, powers] of terms) {
    const column = monomialColumn(x, powers);
    for (let r = 0; r < y.length; r++) y[r] = y[r]! + c * column[r]!;
  }
  return y;
}

test("the library: graded monomials of degree 1 … d, and the degree the inputs allow", () => {
  const library = monomials(2, 3, () => true);
  assert.equal(library.length, 9, "C(5, 3) − 1 monomials of degree 1 … 3 over two inputs");
  assert.deepEqual(library.slice(0, 2), [
    [1, 0],
    [0, 1],
  ]);
  const degrees = library.map((p) => p[0]! + p[1]!);
  assert.deepEqual(
    degrees,
    [...degrees].sort((a, b) => a - b),
    "degree 1 first, then 2, then 3",
  );
  // A pool that writes only x and x² (no x³, no product of three): a³ and a²·b stay, written as two
  // factors; the caller filters by factors, the library by the powers the pool writes.
  assert.equal(monomials(2, 3, (_, p) => p <= 2).length, 7);
  assert.equal(polynomialDegree(6), 3, "six inputs: 83 cubic columns");
  assert.ok(monomials(7, 3, () => true).length <= CUBIC_COLUMNS);
  assert.equal(polynomialDegree(8), 2, "eight inputs: 164 cubic columns are too many, 44 quadratic ones are not");
  assert.equal(polynomialDegree(40), 0, "forty inputs: no question");
  assert.equal(polynomialDegree(6, 100), 2, "a hundred rows: no more columns than half of them");
});

test("noiseless, on U(1, 2): the exact sparse subset, where x and x² correlate at 0.996", () => {
  const rng = createRng(3);
  const x = [0, 1, 2].map(() => uniform(rng, 400, 1, 2));
  const library = monomials(3, 3, () => true);
  // y = 1.3·a + 0.7·a·b − 0.9·c² + 0.4·b·c: no answer in 100 s before the question (issue 55).
  const truth: [number, number[]][] = [
    [1.3, [1, 0, 0]],
    [0.7, [1, 1, 0]],
    [-0.9, [0, 0, 2]],
    [0.4, [0, 1, 1]],
  ];
  const y = law(x, truth);
  const answer = runSteps(polynomialQuestionSteps({ x, y, monomials: library, intercept: true, noisy: false }))!;
  assert.ok(answer.exact && answer.nrmse <= POLY_EXACT);
  assert.deepEqual(
    answer.members,
    truth.map(([, p]) => indexOf(library, p)).sort((a, b) => a - b),
  );
  assert.equal(answer.constant, false);
  const byMember = new Map(answer.members.map((j, k) => [j, answer.coefficients[k]!]));
  for (const [c, p] of truth) assert.ok(Math.abs(byMember.get(indexOf(library, p))! - c) < 1e-9);
  assert.deepEqual(answer.relations, [], "monomials are independent on random rows");
});

test("noiseless, a law outside the library: no answer (the question proposes only an exact subset)", () => {
  const rng = createRng(4);
  const x = [uniform(rng, 300, 1, 2), uniform(rng, 300, 1, 2)];
  const y = x[0]!.map((a, r) => Math.exp(a) * x[1]![r]!);
  const answer = runSteps(
    polynomialQuestionSteps({ x, y, monomials: monomials(2, 3, () => true), intercept: true, noisy: false }),
  );
  assert.equal(answer, undefined);
});

test("an exact relation among the columns is stated once, and the sparsest writing answers", () => {
  // Voltage components at a PV bus: u² + v² = 1 on every row, so u² = 1 − v² exactly.
  const rng = createRng(5);
  const theta = uniform(rng, 300, -0.3, 0.3);
  const u = theta.map(Math.cos);
  const v = theta.map(Math.sin);
  const w = uniform(rng, 300, 0.9, 1.1);
  const x = [u, v, w];
  const library = monomials(3, 2, () => true);
  // y = 2·v² + 1.5·w·v − 0.5 (a law in v² that a writing in u² would imitate with a constant).
  const y = law(x, [
    [2, [0, 2, 0]],
    [1.5, [0, 1, 1]],
  ]).map((value) => value - 0.5);
  const answer = runSteps(polynomialQuestionSteps({ x, y, monomials: library, intercept: true, noisy: false }))!;
  assert.ok(answer.exact);
  assert.equal(answer.relations.length, 1, "one exact relation");
  const [relation] = answer.relations;
  const u2 = indexOf(library, [2, 0, 0]);
  const v2 = indexOf(library, [0, 2, 0]);
  assert.equal(relation!.column, v2, "the later of two equal-degree writings depends on the simpler ones");
  const terms = new Map(relation!.terms.map((t) => [t.column, t.coefficient]));
  assert.ok(Math.abs(terms.get(-1)! - 1) < 1e-8 && Math.abs(terms.get(u2)! + 1) < 1e-8, "v² = 1 − u²");
  assert.equal(answer.members.length, 2, "two monomials and the constant: the sparsest writing");
  assert.ok(answer.constant);
});

test("under noise nobody announces: the truth's monomials by the score, no spare term", () => {
  const rng = createRng(6);
  const x = [0, 1, 2].map(() => uniform(rng, 500, 1, 2));
  const library = monomials(3, 3, () => true);
  const truth: [number, number[]][] = [
    [0.9, [1, 1, 0]],
    [1.7, [0, 0, 2]],
    [-1.1, [0, 1, 1]],
  ];
  const clean = law(x, truth);
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
  // 1 % of the RMS of y (40 dB), Gaussian by Box–Muller on the seeded stream.
  const y = clean.map(
    (v) => v + 0.01 * rms * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next()),
  );
  const noiseless = runSteps(polynomialQuestionSteps({ x, y, monomials: library, intercept: true, noisy: false }));
  assert.equal(noiseless, undefined, "no exact subset in noisy data");
  const answer = runSteps(polynomialQuestionSteps({ x, y, monomials: library, intercept: true, noisy: true }))!;
  assert.equal(answer.exact, false);
  assert.deepEqual(
    answer.members,
    truth.map(([, p]) => indexOf(library, p)).sort((a, b) => a - b),
  );
  assert.equal(answer.constant, false, "the constant earns no parameter here");
  const mean = y.reduce((s, v) => s + v, 0) / y.length;
  const spread = Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0) / y.length);
  const noise = (0.01 * rms) / spread;
  assert.ok(Math.abs(answer.nrmse / noise - 1) < 0.15, `the fit's NRMSE ${answer.nrmse} is the noise's ${noise}`);
});
