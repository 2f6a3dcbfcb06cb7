/**
 * Exact recovery and E_c under an exact identity of the rows (issue 55, the same-law rule): where
 * u² + v² = 1 on every row, 2 − 2·v² + 3·w is the law 2·u² + 3·w written with other terms, and the
 * metrics compare it in the truth's terms; a law that is not the same on the rows is not exact.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/lib/core/rng.js";
import type { Dataset, Experiment } from "../../src/lib/data/index.js";
import type { Equation } from "../../src/lib/equation/index.js";
import { evaluateExperiment } from "../../src/lib/run/evaluate.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

const registry = createSymbolRegistry();

/** Rows with u² + v² = 1 (`circle`) or v drawn alone; y = 2·u² + 3·w. */
function rows(seed: number, n: number, range: [number, number], circle: boolean): Dataset {
  const rng = createRng(seed);
  const u = Float64Array.from({ length: n }, () => rng.uniform(range[0], range[1]));
  const v = u.map((value) => (circle ? Math.sqrt(1 - value * value) : rng.uniform(0.3, 0.9)));
  const w = Float64Array.from({ length: n }, () => rng.uniform(1, 2));
  const y = u.map((value, r) => 2 * value * value + 3 * w[r]!);
  return { inputs: ["u", "v", "w"], targets: ["y"], x: [u, v, w], y: [y], rows: n };
}

const term = (coefficient: number, ...factors: [string, string][]) => ({
  coefficient,
  factors: factors.map(([symbol, input]) => ({ symbol, input })),
});
const truth: Equation = { target: "y", terms: [term(2, ["x^2", "u"]), term(3, ["x", "w"])] };
const experiment = { truth: [truth] } as unknown as Experiment;
/** c0 + c1·v² + c2·w. */
const written = (c0: number, c1: number, c2: number): Equation => ({
  target: "y",
  terms: [term(c0), term(c1, ["x^2", "v"]), term(c2, ["x", "w"])],
});

const onCircle = { train: rows(1, 400, [0.3, 0.9], true), test: rows(2, 400, [0.2, 0.95], true) };
const offCircle = { train: rows(1, 400, [0.3, 0.9], false), test: rows(2, 400, [0.2, 0.95], false) };
const scored = (answer: Equation, data = onCircle) => evaluateExperiment(experiment, [answer], data, registry)[0]!;

test("same-law metrics: 2 − 2·v² + 3·w is exact where u² + v² = 1 on the rows, E_c near 0", () => {
  const e = scored(written(2, -2, 3));
  assert.equal(e.exact, true, e.reason);
  assert.ok(e.coefficientError < 1e-8, `E_c ${e.coefficientError}`);
  assert.match(e.reason, /identity/);
});

test("same-law metrics: without the identity on the rows the other writing is not the law", () => {
  const e = scored(written(2, -2, 3), offCircle);
  assert.equal(e.exact, false);
  assert.match(e.reason, /missing|extra/);
});

test("same-law metrics: another writing with a wrong coefficient is judged on the truth's coefficients", () => {
  // 2.01·(1 − v²) = 2.01·u²: within 1 % of the truth's 2, so exact; 3.1·w is 3.3 % off, so not.
  const close = scored(written(2.01, -2.01, 3));
  assert.equal(close.exact, true, close.reason);
  assert.ok(Math.abs(close.coefficientError - 0.25) < 1e-6, `E_c ${close.coefficientError} (0.5 % of one of two)`);
  const off = scored(written(2, -2, 3.1));
  assert.equal(off.exact, false);
  assert.match(off.reason, /off by 3\.33/);
  assert.ok(Math.abs(off.coefficientError - 5 / 3) < 1e-6, `E_c ${off.coefficientError}`);
});

test("same-law metrics: a law that is not the same on the rows stays not exact", () => {
  const e = scored(written(2.5, -2, 3));
  assert.equal(e.exact, false);
  assert.ok(e.coefficientError >= 100 / 3, `E_c ${e.coefficientError}: a missing term counts 100 %`);
});
