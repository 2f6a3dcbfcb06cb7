import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRng } from "../../src/lib/core/rng.js";
import {
  experimentData,
  experiments,
  parseCsv,
  datasetFromTable,
  datasetToCsv,
  addNoise,
  std,
} from "../../src/lib/index.js";
import { VERSION } from "../../src/lib/core/version.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);

test("one seed gives the same stream, another seed a different one", () => {
  const a = Array.from({ length: 5 }, createRng(7).next);
  const b = createRng(7);
  assert.deepEqual(
    Array.from({ length: 5 }, () => b.next()),
    a,
  );
  assert.notDeepEqual(Array.from({ length: 5 }, createRng(8).next), a);
  assert.throws(() => createRng(-1), /seed must be an integer/);
});

test("syn1 train inputs lie in U(1,2) and test inputs in U(3,4), 2000 rows each", () => {
  const { train, test: testSet } = experimentData(experiments.syn1!, { rng: createRng(0), symbols: lookup });
  assert.equal(train.rows, 2000);
  assert.equal(testSet.rows, 2000);
  for (const column of train.x) assert.ok(column.every((v) => v >= 1 && v < 2));
  for (const column of testSet.x) assert.ok(column.every((v) => v >= 3 && v < 4));
  const mean = train.x[0]!.reduce((s, v) => s + v, 0) / 2000;
  assert.ok(Math.abs(mean - 1.5) < 0.02, `mean ${mean}`);
  const i = 17;
  const [x1, x2, x3] = train.x.map((c) => c[i]!);
  assert.ok(Math.abs(train.y[0]![i]! - 3 * x1! ** 2 * Math.cos(2.5 * x2!)) < 1e-12);
  assert.ok(Math.abs(train.y[2]![i]! - 3 * x3! ** 2) < 1e-12);
});

test("noise at an SNR of 20 dB has a tenth of the signal's standard deviation", () => {
  const y = Float64Array.from({ length: 20000 }, (_, i) => Math.sin(i / 100));
  const noisy = Float64Array.from(y);
  addNoise(noisy, 20, createRng(1));
  const noise = noisy.map((v, i) => v - y[i]!);
  const ratio = std(noise) / std(y);
  assert.ok(Math.abs(ratio - 0.1) < 0.003, `noise/signal std ${ratio}`);
});

test("a dataset survives a CSV round trip exactly", () => {
  const { train } = experimentData(experiments.syn2!, { rng: createRng(2), symbols: lookup, rows: 20 });
  const back = datasetFromTable(parseCsv(datasetToCsv(train)), train.targets);
  assert.deepEqual(back.inputs, train.inputs);
  assert.deepEqual(back.y, train.y);
  assert.deepEqual(back.x, train.x);
});

test("columns not named as targets are inputs unless --inputs is given", () => {
  const csv = `a,b,c,y\n${Array.from({ length: 12 }, (_, i) => `${i},${i * 2},${i % 3},${i * i}`).join("\n")}`;
  assert.deepEqual(datasetFromTable(parseCsv(csv), ["y"]).inputs, ["a", "b", "c"]);
  assert.deepEqual(datasetFromTable(parseCsv(csv), ["y"], ["c", "a"]).inputs, ["c", "a"]);
  assert.throws(() => datasetFromTable(parseCsv(csv), ["y"], ["y"]), /both an input and a target/);
});

test("the library version is package.json's", () => {
  assert.equal(VERSION, JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
});
