/**
 * The polynomial benchmark family (src/lib/data/polynomial.ts), written before the search's
 * polynomial question. Its promises: at least 20 sums, half on U(1, 2) and half on wider ranges,
 * degree at most 3 over 2–6 inputs with 2–8 terms, each monomial once, none from the literature
 * list; the law's value is its terms' sum; the data are seeded and finite on both ranges.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { benchmarkEntries, benchmarkExcluded } from "../../src/lib/data/benchmark.js";
import { beyondData } from "../../src/lib/data/beyond.js";
import { monomialKey, monomialsOf, polynomialEntries, powersOf } from "../../src/lib/data/polynomial.js";

const onUnit = (e: (typeof polynomialEntries)[number]) => e.inputs.every((i) => i.range[0] === 1 && i.range[1] === 2);

test("at least 20 sums: half on U(1, 2), half wider; degree ≤ 3, 2–6 inputs, 2–8 terms, each monomial once", () => {
  assert.ok(polynomialEntries.length >= 20, `${polynomialEntries.length} sums`);
  assert.equal(new Set(polynomialEntries.map((e) => e.id)).size, polynomialEntries.length, "ids are unique");
  const unit = polynomialEntries.filter(onUnit).length;
  assert.equal(2 * unit, polynomialEntries.length, `${unit} of ${polynomialEntries.length} on U(1, 2)`);
  assert.ok(
    polynomialEntries.some((e) => e.inputs.some((i) => i.range[0] < 0)),
    "some inputs take negative values",
  );
  for (const e of polynomialEntries) {
    assert.ok(e.inputs.length >= 2 && e.inputs.length <= 6, `${e.id}: ${e.inputs.length} inputs`);
    assert.ok(e.terms.length >= 2 && e.terms.length <= 8, `${e.id}: ${e.terms.length} terms`);
    const monomials = monomialsOf(e);
    assert.equal(new Set(monomials).size, monomials.length, `${e.id}: a monomial twice`);
    const names = new Set(e.inputs.map((i) => i.name));
    for (const [, m] of e.terms) {
      const powers = powersOf(m);
      const degree = Object.values(powers).reduce((s, p) => s + p, 0);
      assert.ok(degree <= 3, `${e.id}: ${m} has degree ${degree}`);
      for (const name of Object.keys(powers)) assert.ok(names.has(name), `${e.id}: ${m} names ${name}`);
    }
    for (const name of names)
      assert.ok(
        e.terms.some(([, m]) => name in powersOf(m)),
        `${e.id}: input ${name} is in no term`,
      );
  }
});

test("monomials have one canonical key whatever the order of their factors", () => {
  assert.equal(monomialKey(powersOf("b*a^2")), "a^2*b");
  assert.equal(monomialKey(powersOf("a*b*a")), "a^2*b");
  assert.equal(monomialKey(powersOf("1")), "1");
  assert.notEqual(monomialKey(powersOf("a^2*b")), monomialKey(powersOf("a*b^2")));
});

test("no sum is taken from the literature list or its exclusions", () => {
  const squash = (text: string) => text.replace(/^y\s*=\s*/, "").replace(/\s+/g, "");
  const known = new Set([...benchmarkEntries, ...benchmarkExcluded].map((e) => squash(e.original)));
  for (const e of polynomialEntries) assert.ok(!known.has(squash(e.truth)), `${e.id}: ${e.truth}`);
});

test("a law's value is the sum of its terms, and the data are seeded and finite on both ranges", () => {
  for (const e of polynomialEntries) {
    const { train, test: held } = beyondData(e, { seed: 2, rows: 300 });
    for (const set of [train, held]) {
      const y = set.y[0]!;
      assert.ok(y.every(Number.isFinite), `${e.id}: a non-finite value`);
      // The law recomputed from its terms with Math.pow, row by row (a power as a product differs in the last bits).
      for (let r = 0; r < set.rows; r += 37) {
        let sum = 0;
        for (const [c, m] of e.terms) {
          let term = c;
          for (const [name, p] of Object.entries(powersOf(m))) term *= set.x[set.inputs.indexOf(name)]![r]! ** p;
          sum += term;
        }
        assert.ok(Math.abs(sum - y[r]!) <= 1e-12 * (1 + Math.abs(sum)), `${e.id} row ${r}: ${y[r]} vs ${sum}`);
      }
    }
    assert.deepEqual(beyondData(e, { seed: 2, rows: 300 }).train.y[0], train.y[0]);
    assert.notDeepEqual(beyondData(e, { seed: 3, rows: 300 }).train.y[0], train.y[0]);
    const noisy = beyondData(e, { seed: 2, rows: 300, snrDb: 20 }).train.y[0]!;
    assert.notDeepEqual(noisy, train.y[0], `${e.id}: noise at 20 dB changed nothing`);
  }
});
