/**
 * The "composite laws" family (issue 57, src/lib/data/composite.ts), committed before the changes it
 * measures: its shape (≥ 30 laws, ≥ 5 of each of the five kinds, 2–6 inputs, every input in the law,
 * some ranges over decades), finite data over the training and the wider test ranges, the same data
 * for a seed, noise of 1 % of y's RMS, and each law's pieces stated.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { beyondData } from "../../src/lib/data/beyond.js";
import { COMPOSITE_ROWS, compositeEntries } from "../../src/lib/data/composite.js";

test("composite family: at least 30 laws, 5 of each kind, 2 to 6 inputs, unique ids, some over decades", () => {
  assert.ok(compositeEntries.length >= 30, `${compositeEntries.length} laws`);
  for (const kind of ["difference", "inner-sum", "nested-ratio", "nested-transform", "product"] as const)
    assert.ok(compositeEntries.filter((e) => e.kind === kind).length >= 5, kind);
  for (const e of compositeEntries) assert.ok(e.inputs.length >= 2 && e.inputs.length <= 6, e.id);
  assert.equal(new Set(compositeEntries.map((e) => e.id)).size, compositeEntries.length);
  assert.ok(
    compositeEntries.filter((e) => e.inputs.some((i) => i.range[1] >= 10 * Math.max(i.range[0], 0.01))).length >= 5,
  );
});

test("composite family: every input is in the law (y moves when it moves)", () => {
  for (const entry of compositeEntries) {
    // (Not at the ranges' middle: there b − c of a·exp(−(b − c)²/d) is 0, and d does not move y.)
    const mid = entry.inputs.map((i) => i.range[0] + 0.3 * (i.range[1] - i.range[0]));
    entry.inputs.forEach((input, j) => {
      const moved = [...mid];
      moved[j] = input.range[0] + 0.9 * (input.range[1] - input.range[0]);
      assert.notEqual(entry.evaluate(moved), entry.evaluate(mid), `${entry.id}: ${input.name} does not enter`);
    });
  }
});

test("composite family: finite data on train and test ranges, the same for a seed, 1 % of y's RMS", () => {
  for (const entry of compositeEntries) {
    assert.ok(Number.isInteger(entry.pieces) && entry.pieces >= 1, `${entry.id}: pieces ${entry.pieces}`);
    const { train, test: held } = beyondData(entry, { seed: 5, rows: COMPOSITE_ROWS });
    assert.equal(train.rows, 1000);
    for (const set of [train, held]) assert.ok(set.y[0]!.every(Number.isFinite), `${entry.id}: a value not finite`);
    assert.deepEqual(beyondData(entry, { seed: 5, rows: COMPOSITE_ROWS }).train.y[0], train.y[0]);
    const clean = train.y[0]!;
    const noisy = beyondData(entry, { seed: 5, rows: COMPOSITE_ROWS, noiseRms: 0.01 }).train.y[0]!;
    const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
    const noise = Math.sqrt(noisy.reduce((s, v, r) => s + (v - clean[r]!) ** 2, 0) / clean.length);
    assert.ok(noise / rms > 0.009 && noise / rms < 0.011, `${entry.id}: noise ${noise / rms} of the RMS`);
  }
});
