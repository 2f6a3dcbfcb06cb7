/**
 * The "forms under noise" family (issue 56, src/lib/data/forms.ts), committed before the changes it
 * measures: its shape (≥ 32 laws, ≥ 8 of each kind, half with 5–7 inputs, every input in the law),
 * finite data over the training and the wider test ranges, data the same for a seed, and noise at
 * 40 dB of 1 % of y's std.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { beyondData } from "../../src/lib/data/beyond.js";
import { FORMS_ROWS, formsEntries } from "../../src/lib/data/forms.js";

test("forms family: at least 32 laws, 8 of each kind, half with 5 to 7 inputs, unique ids", () => {
  assert.ok(formsEntries.length >= 32, `${formsEntries.length} laws`);
  for (const kind of ["ratio", "monomial", "transform", "sum"] as const)
    assert.ok(formsEntries.filter((e) => e.kind === kind).length >= 8, kind);
  const wide = formsEntries.filter((e) => e.inputs.length >= 5 && e.inputs.length <= 7).length;
  assert.ok(2 * wide >= formsEntries.length, `${wide} of ${formsEntries.length} with 5–7 inputs`);
  assert.equal(new Set(formsEntries.map((e) => e.id)).size, formsEntries.length);
  // Some ranges span decades: not all on U(1, 2).
  assert.ok(
    formsEntries.filter((e) => e.inputs.some((i) => i.range[1] >= 10 * Math.max(i.range[0], 0.01))).length >= 8,
  );
});

test("forms family: every input is in the law (y moves when it moves)", () => {
  for (const entry of formsEntries) {
    const mid = entry.inputs.map((i) => (i.range[0] + i.range[1]) / 2);
    entry.inputs.forEach((input, j) => {
      const moved = [...mid];
      moved[j] = input.range[0] + 0.9 * (input.range[1] - input.range[0]);
      assert.notEqual(entry.evaluate(moved), entry.evaluate(mid), `${entry.id}: ${input.name} does not enter`);
    });
  }
});

test("forms family: finite data on train and test ranges, the same for a seed, 40 dB noise of 1 % of std", () => {
  for (const entry of formsEntries) {
    const { train, test: held } = beyondData(entry, { seed: 3, rows: FORMS_ROWS });
    assert.equal(train.rows, 800);
    for (const set of [train, held]) assert.ok(set.y[0]!.every(Number.isFinite), `${entry.id}: a value not finite`);
    const again = beyondData(entry, { seed: 3, rows: FORMS_ROWS });
    assert.deepEqual(again.train.y[0], train.y[0]);
    const noisy = beyondData(entry, { seed: 3, rows: FORMS_ROWS, snrDb: 40 });
    const clean = train.y[0]!;
    // 40 dB is σ = 1 % of y's std (data/noise.ts); the "1 % of the RMS" is smaller where y has
    // a large mean, and the benchmark adds it as such.
    const mean = clean.reduce((s, v) => s + v, 0) / clean.length;
    const std = Math.sqrt(clean.reduce((s, v) => s + (v - mean) ** 2, 0) / clean.length);
    const noise = Math.sqrt(noisy.train.y[0]!.reduce((s, v, r) => s + (v - clean[r]!) ** 2, 0) / clean.length);
    assert.ok(noise / std > 0.009 && noise / std < 0.011, `${entry.id}: noise ${noise / std} of the std`);
  }
});

test("forms family: noise of 1 % of y's RMS (SRBench's protocol), and each law's pieces stated", () => {
  for (const entry of formsEntries) {
    assert.ok(Number.isInteger(entry.pieces) && entry.pieces >= 1, `${entry.id}: pieces ${entry.pieces}`);
    const clean = beyondData(entry, { seed: 4, rows: FORMS_ROWS }).train.y[0]!;
    const noisy = beyondData(entry, { seed: 4, rows: FORMS_ROWS, noiseRms: 0.01 }).train.y[0]!;
    const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
    const noise = Math.sqrt(noisy.reduce((s, v, r) => s + (v - clean[r]!) ** 2, 0) / clean.length);
    assert.ok(noise / rms > 0.009 && noise / rms < 0.011, `${entry.id}: noise ${noise / rms} of the RMS`);
  }
});
