/**
 * The screens that propose forms beyond one sum of products (docs/design.md#ratio, #monomial),
 * on their own: the ratio screen proposes the denominator of a ratio law and refuses a short
 * rational approximant of a law of another form; the monomial screen finds the product of inputs a
 * law is a function of, and finds none where y needs every input apart.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runSteps } from "../../src/lib/core/index.js";
import { benchmarkData } from "../../src/lib/data/benchmark.js";
import { beyondData, beyondEntries } from "../../src/lib/data/beyond.js";
import { stressEntries } from "../../src/lib/data/stress.js";
import type { Dataset } from "../../src/lib/data/index.js";
import { createRegistries } from "../../src/lib/plugins/index.js";
import { ratioScreenSteps } from "../../src/lib/search/linear/proposer.js";
import { neighbourDelta, screenMonomial } from "../../src/lib/search/monomialScreen.js";
import { createRng } from "../../src/lib/index.js";

const symbols = createRegistries().symbols;
const pool = symbols.names();

function ratioScreen(data: Dataset) {
  return runSteps(
    ratioScreenSteps({
      x: data.x,
      y: data.y[0]!,
      pool,
      allowed: data.inputs.flatMap(() => pool.map(() => true)),
      lookup: (name) => symbols.get(name),
      maxFactors: 3,
      maxTerms: 4,
    }),
  );
}

const beyond = (id: string, seed = 0) => beyondData(beyondEntries.find((e) => e.id === id)!, { seed }).train;

test("the ratio screen proposes a + c² for (a·b + 2·c)/(a + c²), its coefficient to 1e-12", () => {
  const proposal = ratioScreen(beyond("ratio-3"));
  assert.ok(proposal, "no ratio proposed");
  const named = proposal.denominator.map((t) => ({
    factors: t.neurons.map((n) => `${pool[n % pool.length]}(${"abc"[Math.floor(n / pool.length)]})`).join("·"),
    coefficient: t.coefficient,
  }));
  assert.deepEqual(
    named.map((t) => t.factors),
    ["x(a)", "x^2(c)"],
  );
  for (const t of named) assert.ok(Math.abs(t.coefficient - 1) < 1e-12, `${t.factors}: ${t.coefficient}`);
});

test("the ratio screen refuses short rational approximants: −1.13·cos(0.78·x1)/x2 and a sin·cos product", () => {
  const offgrid = stressEntries.find((e) => e.id === "offgrid-10")!;
  for (const seed of [0, 1]) {
    const { train } = benchmarkData(offgrid, { seed, rows: 500, symbols });
    assert.equal(ratioScreen(train), undefined, `offgrid-10 seed ${seed}`);
  }
  const rng = createRng(2);
  const x1 = Float64Array.from({ length: 400 }, () => rng.uniform(1, 2));
  const x2 = Float64Array.from({ length: 400 }, () => rng.uniform(1, 2));
  const y = Float64Array.from(x1, (v, r) => Math.sin(1.5 * v) * Math.cos(0.5 * x2[r]!));
  assert.equal(ratioScreen({ inputs: ["x1", "x2"], targets: ["y"], x: [x1, x2], y: [y], rows: 400 }), undefined);
});

test("the monomial screen finds a/b beside c in c·cos(2·a/b), and a·b·c beside d in 1.2·sin(a·b·c) + d", () => {
  const wave = beyond("monomial-5");
  const first = screenMonomial(wave.inputs, wave.x, wave.y[0]!);
  assert.ok(first);
  assert.deepEqual(first.monomials[0], [
    { input: "a", power: 1 },
    { input: "b", power: -1 },
  ]);
  assert.deepEqual(first.keep, ["c"]);
  const sine = beyond("monomial-6");
  const second = screenMonomial(sine.inputs, sine.x, sine.y[0]!);
  assert.ok(second);
  assert.deepEqual(
    second.monomials[0]!.map((q) => `${q.input}^${q.power}`),
    ["a^1", "b^1", "c^1"],
  );
  assert.deepEqual(second.keep, ["d"]);
});

test("the monomial screen finds nothing where y needs every input apart (a ratio of sums, a sum of pairs)", () => {
  const ratio = beyond("ratio-3");
  assert.equal(screenMonomial(ratio.inputs, ratio.x, ratio.y[0]!), undefined);
  const rng = createRng(3);
  const x = [0, 1, 2].map(() => Float64Array.from({ length: 300 }, () => rng.uniform(0.5, 2)));
  const y = Float64Array.from({ length: 300 }, (_, r) => x[0]![r]! * x[1]![r]! + x[2]![r]! * x[2]![r]! + x[0]![r]!);
  assert.equal(screenMonomial(["a", "b", "c"], x, y), undefined);
});

test("the nearest-neighbour delta is small where y is a function of the features and near 1 where not", () => {
  const rng = createRng(4);
  const a = Float64Array.from({ length: 300 }, () => rng.uniform(0.5, 2));
  const b = Float64Array.from({ length: 300 }, () => rng.uniform(0.5, 2));
  const u = Float64Array.from(a, (v, r) => v * b[r]!);
  const y = Float64Array.from(u, (v) => Math.sin(v));
  const standard = (v: Float64Array) => {
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    const sd = Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
    return Float64Array.from(v, (x) => (x - mean) / sd);
  };
  const over = neighbourDelta([standard(u)], y);
  const inputs = neighbourDelta([standard(a), standard(b)], y);
  const wrong = neighbourDelta([standard(a)], y);
  assert.ok(over < 0.1 * inputs, `δ over a·b ${over}, over a and b ${inputs}`);
  assert.ok(wrong > 0.3, `δ over a alone ${wrong}`);
});
