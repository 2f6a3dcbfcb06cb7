import assert from "node:assert/strict";
import { test } from "node:test";
import { addNoise } from "../../src/lib/data/noise.js";
import { createRng, fit } from "../../src/lib/index.js";

/** Rows of n inputs on U(lo, hi), and y = law(row). */
function rowsOf(seed: number, rows: number, n: number, lo: number, hi: number, law: (x: number[]) => number) {
  const rng = createRng(seed);
  const X = Array.from({ length: rows }, () => Array.from({ length: n }, () => lo + (hi - lo) * rng.next()));
  return { X, y: X.map(law), rng };
}

test("a collinear quadratic on U(1, 2), default options: exact at the first structure", async () => {
  // The issue's own case: no answer in 100 s before the question.
  const law = ([a, b, c]: number[]) => 1.3 * a! + 0.7 * a! * b! - 0.9 * c! * c! + 0.4 * b! * c!;
  const { X, y } = rowsOf(11, 400, 3, 1, 2, law);
  const result = await fit({ X, y, names: ["a", "b", "c"], seed: 0 });
  const [target] = result.search.targets!;
  assert.equal(target!.stopReason, "reward-threshold");
  assert.equal(target!.structures, 1, "the question's answer is the first structure fitted");
  assert.match((result.search.noise as { method: string }).method, /polynomial question/);
  const fresh = rowsOf(12, 50, 3, 0.5, 3, law);
  const predicted = result.equations[0]!.predict(fresh.X);
  for (const [r, v] of predicted.entries()) assert.ok(Math.abs(v - fresh.y[r]!) <= 1e-9 * Math.abs(fresh.y[r]!));
});

test("with the question off, the same data are not answered by it", async () => {
  const law = ([a, b]: number[]) => 2.1 * a! + 0.7 * a! * b!;
  const { X, y } = rowsOf(13, 300, 2, 1, 2, law);
  const result = await fit({ X, y, names: ["a", "b"], seed: 0, search: { polynomial: false } });
  assert.doesNotMatch((result.search.noise as { method: string }).method, /polynomial question/);
});

test("under noise nobody announces (40 dB): the truth's monomials, ended at the noise floor", async () => {
  const law = ([a, b, c]: number[]) => 0.9 * a! * b! + 1.7 * c! * c! - 1.1 * b! * c!;
  const { X, y } = rowsOf(14, 500, 3, 1, 2, law);
  const noisy = Float64Array.from(y);
  addNoise(noisy, 40, createRng(15));
  const result = await fit({ X, y: Array.from(noisy), names: ["a", "b", "c"], seed: 0 });
  assert.equal(result.search.targets![0]!.stopReason, "noise-floor");
  const monomials = result.equations[0]!.terms.map((t) =>
    t.factors
      .map((f) => `${f.input}${f.symbol === "x" ? "" : f.symbol.replace("x", "")}`)
      .sort()
      .join("*"),
  );
  assert.deepEqual(monomials.sort(), ["a*b", "b*c", "c^2"]);
  assert.equal(result.equations[0]!.constant ?? 0, 0, "no constant earned its parameter");
});

test("an exact relation among the inputs' monomials is stated once, and the answer is exact", async () => {
  // u² + v² = 1 on every row (a voltage-controlled bus): y has several writings.
  const rng = createRng(16);
  const X: number[][] = [];
  for (let r = 0; r < 300; r++) {
    const t = -0.3 + 0.6 * rng.next();
    X.push([Math.cos(t), Math.sin(t), 0.9 + 0.2 * rng.next()]);
  }
  const law = ([u, v, w]: number[]) => 2 * v! * v! + 1.5 * w! * v! - 0.5 + 0.8 * u! * w!;
  const result = await fit({ X, y: X.map(law), names: ["u", "v", "w"], seed: 0 });
  const [target] = result.search.targets!;
  assert.deepEqual(target!.identities, ["v^2 = 1 - u^2"], "the relation, without its consequences (u·v² = u − u³)");
  assert.ok(result.equations[0]!.trainNrmse < 1e-9);
  assert.equal(result.equations[0]!.terms.length, 3, "the sparsest writing: three terms and the constant");
});
