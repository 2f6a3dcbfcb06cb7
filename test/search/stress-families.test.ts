// The stress families (src/lib/data/stress.ts): each family has the shapes its description
// promises, each truth parses and is finite on its ranges, and its own form fitted from the
// all-ones init reaches the truth, so every entry is recoverable by the fitter.
import { test } from "node:test";
import assert from "node:assert/strict";
import { benchmarkData, benchmarkEntries, benchmarkEntry, benchmarkTruth } from "../../src/lib/data/benchmark.js";
import { stressEntries } from "../../src/lib/data/stress.js";
import { formOf } from "../../src/lib/local/extract.js";
import { fitForm } from "../../src/lib/run/fitForm.js";
import { WEIGHT_GRID } from "../../src/lib/search/linear/columns.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

const symbols = createSymbolRegistry();
const family = (name: string) => stressEntries.filter((e) => e.family === name);

test("the stress families are apart from the literature suite, with unique ids that resolve", () => {
  const ids = stressEntries.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const e of stressEntries) {
    assert.ok(!benchmarkEntries.includes(e), `${e.id} is not in the literature suite`);
    assert.equal(benchmarkEntry(e.id), e);
  }
});

test("Products: ≥ 12 sums of 2–4 products with 3–5 factors, shared factors, inverse powers, two ranges", () => {
  const entries = family("Products");
  assert.ok(entries.length >= 12, `${entries.length}`);
  const truths = entries.map((e) => benchmarkTruth(e, symbols));
  for (const [i, t] of truths.entries()) {
    assert.ok(t.terms.length >= 2 && t.terms.length <= 4, entries[i]!.id);
    assert.ok(Math.max(...t.terms.map((term) => term.factors.length)) >= 3, entries[i]!.id);
  }
  for (const n of [2, 3, 4])
    assert.ok(
      truths.some((t) => t.terms.length === n),
      `a sum of ${n}`,
    );
  for (const n of [3, 4, 5])
    assert.ok(
      truths.some((t) => Math.max(...t.terms.map((term) => term.factors.length)) === n),
      `a product of ${n} factors`,
    );
  const inverse = truths.filter((t) => t.terms.some((term) => term.factors.some((f) => f.symbol.startsWith("x^-"))));
  assert.ok(inverse.length >= 4, `${inverse.length} with inverse powers`);
  const shared = truths.filter((t) => {
    const inputs = t.terms.map((term) => new Set(term.factors.map((f) => f.input)));
    return [...inputs[0]!].some((x) => inputs.every((s) => s.has(x)));
  });
  assert.ok(shared.length >= 3, `${shared.length} with a factor shared by every product`);
  const ranges = new Set(entries.flatMap((e) => e.inputs.map((i) => i.range.join(","))));
  assert.ok(ranges.size >= 2, [...ranges].join(" "));
});

test("OffGrid: ≥ 10 laws, every inner weight at least 0.2 from each weight of the proposal grid", () => {
  const entries = family("OffGrid");
  assert.ok(entries.length >= 10, `${entries.length}`);
  let weights = 0;
  for (const e of entries) {
    const truth = benchmarkTruth(e, symbols);
    for (const f of truth.terms.flatMap((t) => t.factors))
      if (f.weight !== undefined && f.weight !== 1) {
        weights++;
        for (const g of WEIGHT_GRID) assert.ok(Math.abs(Math.abs(f.weight) - g) >= 0.2 - 1e-12, `${e.id}: ${f.weight}`);
      }
  }
  assert.ok(weights >= entries.length, `${weights} weights`);
  assert.ok(
    entries.some((e) => benchmarkTruth(e, symbols).terms.some((t) => t.factors.some((f) => (f.weight ?? 1) < 0))),
    "a decay (negative weight)",
  );
});

test("Flow: ≥ 5 sums of 8–12 bilinear products, u near 1, searched with the pool {x}", () => {
  const entries = family("Flow");
  assert.ok(entries.length >= 5, `${entries.length}`);
  for (const e of entries) {
    assert.deepEqual(e.unsizedPool, ["x"]);
    const truth = benchmarkTruth(e, symbols);
    assert.ok(truth.terms.length >= 8 && truth.terms.length <= 12, `${e.id}: ${truth.terms.length}`);
    for (const t of truth.terms) {
      assert.equal(t.factors.length, 2);
      assert.ok(t.factors.every((f) => f.symbol === "x"));
      assert.notEqual(t.factors[0]!.input, t.factors[1]!.input);
    }
    for (const input of e.inputs.filter((i) => i.name.startsWith("u")))
      assert.ok(input.range[0] > 0.9 && input.range[1] < 1.1, `${input.name} near 1`);
  }
});

for (const entry of stressEntries) {
  test(`${entry.id}: finite on its ranges, and its form fitted from all-ones reaches train NRMSE < 1e-6`, () => {
    const truth = benchmarkTruth(entry, symbols);
    assert.equal(truth.terms.length, entry.terms);
    assert.equal(entry.maxFactors, Math.max(...truth.terms.map((t) => t.factors.length)));
    for (const f of truth.terms.flatMap((t) => t.factors)) assert.ok(entry.pool.includes(f.symbol), f.symbol);
    const data = benchmarkData(entry, { symbols, seed: 0, rows: 300 });
    assert.ok(data.train.y[0]!.every(Number.isFinite) && data.test.y[0]!.every(Number.isFinite));
    const fitted = fitForm(data.train, [formOf(data.truth)], { symbols, engine: "js" });
    const error = fitted.equations[0]!.trainNrmse;
    assert.ok(error < 1e-6, `train NRMSE ${error}: ${fitted.equations[0]!.text}`);
  });
}
