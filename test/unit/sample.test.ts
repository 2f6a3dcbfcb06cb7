/**
 * Large tables (src/lib/run/sample.ts): the rows a search sees, drawn uniformly and reproducibly,
 * and the chosen equation refitted on all rows; many inputs (src/lib/run/screen.ts): which the
 * search gets.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRegistries } from "../../src/lib/index.js";
import { refitOnAllRows, SAMPLE_ROWS, sampleSeed, sampleSize, searchSample } from "../../src/lib/run/sample.js";
import { SCREEN_INPUTS, screenInputs } from "../../src/lib/run/screen.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { createRng } from "../../src/lib/core/rng.js";

/** y = 1.7·x1·x2 + 0.6·x3² + noise·N(0, 1) on `rows` rows, x ~ U(1, 3). */
function table(rows: number, noise = 0): Dataset {
  const rng = createRng(5);
  const x = [0, 1, 2].map(() => Float64Array.from({ length: rows }, () => rng.uniform(1, 3)));
  const y = Float64Array.from({ length: rows }, (_, i) => {
    const [a, b, c] = [x[0]![i]!, x[1]![i]!, x[2]![i]!];
    return 1.7 * a * b + 0.6 * c * c + noise * rng.normal();
  });
  return { inputs: ["x1", "x2", "x3"], targets: ["y"], x, y: [y], rows };
}

test("the sample: every row up to its size; beyond, that many distinct rows in file order, one seed one sample", () => {
  assert.equal(sampleSize(5_000, 5), 5_000);
  assert.equal(sampleSize(1_000_000, 5), SAMPLE_ROWS);
  assert.equal(sampleSize(1_000_000, 300), 60_000, "200 rows per input where that is more");
  const small = table(SAMPLE_ROWS);
  assert.equal(searchSample(small, 0).data, small, "a table at the threshold is searched whole");
  assert.equal(searchSample(small, 0).sample, undefined);
  const big = table(3 * SAMPLE_ROWS);
  const { data, sample } = searchSample(big, 42);
  assert.deepEqual(sample, { rows: SAMPLE_ROWS, of: 3 * SAMPLE_ROWS, seed: sampleSeed(42), method: "uniform" });
  assert.equal(data.rows, SAMPLE_ROWS);
  assert.ok(data.x.every((c) => c.length === SAMPLE_ROWS) && data.y[0]!.length === SAMPLE_ROWS);
  // The rows are the table's own, each once, in the table's order (x1 identifies a row).
  const index = new Map(Array.from(big.x[0]!, (v, i) => [v, i]));
  const rows = Array.from(data.x[0]!, (v) => index.get(v)!);
  assert.ok(rows.every((r, i) => r !== undefined && (i === 0 || r > rows[i - 1]!)));
  for (const [i, r] of rows.entries()) assert.equal(data.y[0]![i], big.y[0]![r]);
  // Uniform: a third of the table, so about a third of each tenth of it.
  for (let tenth = 0; tenth < 10; tenth++) {
    const count = rows.filter((r) => Math.floor(r / ((3 * SAMPLE_ROWS) / 10)) === tenth).length;
    assert.ok(Math.abs(count - SAMPLE_ROWS / 10) < 150, `tenth ${tenth}: ${count} rows`);
  }
  assert.deepEqual(searchSample(big, 42).data.x[0], data.x[0], "the same seed, the same sample");
  assert.notDeepEqual(searchSample(big, 43).data.x[0], data.x[0]);
});

test("refitOnAllRows: a plain sum's coefficients by least squares on every row, scored there", () => {
  const symbols = createRegistries().symbols;
  const lookup = (name: string) => symbols.get(name);
  const data = table(20_000, 0.05);
  const rough = {
    target: "y",
    terms: [
      {
        coefficient: 1.6,
        factors: [
          { symbol: "x", input: "x1" },
          { symbol: "x", input: "x2" },
        ],
      },
      { coefficient: 0.7, factors: [{ symbol: "x^2", input: "x3" }] },
    ],
  };
  const { equation, nrmse } = refitOnAllRows(rough, data, lookup);
  assert.ok(Math.abs(equation.terms[0]!.coefficient - 1.7) < 2e-3, String(equation.terms[0]!.coefficient));
  assert.ok(Math.abs(equation.terms[1]!.coefficient - 0.6) < 2e-3, String(equation.terms[1]!.coefficient));
  assert.ok(nrmse < 0.02 && nrmse > 0.005, String(nrmse));
  // An outer function keeps its coefficients and is only scored.
  const outer = { ...rough, outer: "sqrt" as const };
  assert.equal(refitOnAllRows(outer, data, lookup).equation, outer);
});

test("screenInputs: with many inputs, forward selection keeps the used ones; few inputs or no signal, all", () => {
  const symbols = createRegistries().symbols;
  const pool = symbols.names();
  const rng = createRng(9);
  const rows = 1500;
  const inputs = Array.from({ length: 40 }, (_, i) => `x${i + 1}`);
  const x = inputs.map(() => Float64Array.from({ length: rows }, () => rng.uniform(1, 3)));
  // y1 uses x5, x17 and x33 (a product and a square); y2 is noise alone.
  const y1 = Float64Array.from({ length: rows }, (_, i) => 1.7 * x[4]![i]! * x[16]![i]! - 0.6 * x[32]![i]! ** 2);
  const y2 = Float64Array.from({ length: rows }, () => rng.normal());
  const one: Dataset = { inputs, targets: ["y1"], x, y: [y1], rows };
  const { data, inputs: record } = screenInputs(one, pool, symbols);
  assert.deepEqual(record?.kept, ["x5", "x17", "x33"]);
  assert.equal(record?.dropped.length, 37);
  assert.match(record!.reason, /forward selection on 1500 rows/);
  assert.deepEqual(data.inputs, ["x5", "x17", "x33"]);
  assert.equal(data.x[1], x[16], "the kept columns are the table's own");
  // An output where nothing stands out keeps every input (nothing is dropped on no evidence).
  const noise: Dataset = { inputs, targets: ["y2"], x, y: [y2], rows };
  const all = screenInputs(noise, pool, symbols);
  assert.equal(all.inputs?.dropped.length, 0);
  assert.match(all.inputs!.reason, /all kept/);
  // At SCREEN_INPUTS inputs or fewer, no screen and no record.
  const few: Dataset = { ...one, inputs: inputs.slice(0, SCREEN_INPUTS), x: x.slice(0, SCREEN_INPUTS) };
  assert.equal(screenInputs(few, pool, symbols).inputs, undefined);
});
