/**
 * A table larger than the search's sample (src/lib/run/sample.ts): `fit` searches a sample of its
 * rows, records it (search.sample), refits and scores the answer on every row, and `reproduce`
 * repeats it exactly; a table of many inputs, screened first (src/lib/run/screen.ts). The scale
 * figures (1e6 rows, the growth table) are bench/scale.ts's.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { resultSchemaProblems, SAMPLE_ROWS } from "../../src/lib/index.js";
import { cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("large-table");

test("fit on 3× the sample's rows: the law, the sample recorded, coefficients and NRMSE on all rows, reproduced", {
  timeout: 300_000,
}, async () => {
  let s = 11;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return 1 + (2 * s) / 2147483647;
  };
  const rows = 3 * SAMPLE_ROWS;
  const lines = ["x1,x2,x3,x4,y"];
  for (let i = 0; i < rows; i++) {
    const [a, b, c, d] = [r(), r(), r(), r()];
    lines.push(`${a},${b},${c},${d},${1.7 * a * b + 0.6 * c * c}`);
  }
  writeFileSync(join(dir, "big.csv"), `${lines.join("\n")}\n`);
  const fit = await cli(["fit", "big.csv", "--target", "y", "--out", "big.json", "--quiet"], { cwd: dir });
  assert.equal(fit.code, 0, fit.stderr);
  assert.equal(fit.stdout, "y = 1.7*x1*x2 + 0.6*x3^2\n");
  const result = JSON.parse(readFileSync(join(dir, "big.json"), "utf8"));
  assert.deepEqual(resultSchemaProblems(result), []);
  assert.equal(result.search.sample.rows, SAMPLE_ROWS);
  assert.equal(result.search.sample.of, rows);
  assert.equal(result.search.sample.method, "uniform");
  assert.equal(result.manifest.data.rows, rows);
  // Refitted on every row: the coefficients to the last digits, the NRMSE of all rows.
  const [first, second] = result.equations[0].terms;
  assert.ok(Math.abs(first.coefficient - 1.7) < 1e-9 && Math.abs(second.coefficient - 0.6) < 1e-9);
  assert.ok(result.equations[0].trainNrmse < 1e-12);
  const reproduce = await cli(["reproduce", "big.json"], { cwd: dir });
  assert.equal(reproduce.code, 0, reproduce.stdout + reproduce.stderr);
  assert.match(reproduce.stdout, /reproduced exactly/);
});

test("fit on 100 inputs of which 3 are used: the screen keeps the 3 (JSON), the law is found", {
  timeout: 300_000,
}, async () => {
  let s = 23;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return 1 + (2 * s) / 2147483647;
  };
  const names = Array.from({ length: 100 }, (_, i) => `in${i}`);
  const lines = [`${names.join(",")},y`];
  for (let i = 0; i < 1000; i++) {
    const x = names.map(() => r());
    lines.push(`${x.join(",")},${2.5 * x[7]! * x[42]! - 0.8 * x[91]! ** 2}`);
  }
  writeFileSync(join(dir, "wide.csv"), `${lines.join("\n")}\n`);
  const fit = await cli(["fit", "wide.csv", "--target", "y", "--out", "wide.json", "--quiet"], { cwd: dir });
  assert.equal(fit.code, 0, fit.stderr);
  assert.equal(fit.stdout, "y = 2.5*in7*in42 - 0.8*in91^2\n");
  const result = JSON.parse(readFileSync(join(dir, "wide.json"), "utf8"));
  assert.deepEqual(resultSchemaProblems(result), []);
  assert.deepEqual(result.search.inputs.kept, ["in7", "in42", "in91"]);
  assert.equal(result.search.inputs.dropped.length, 97);
  assert.equal(result.manifest.config.inputs.length, 100, "the manifest keeps every input (reproduce screens again)");
  assert.equal(result.search.stopReason, "reward-threshold");
  const reproduce = await cli(["reproduce", "wide.json"], { cwd: dir });
  assert.equal(reproduce.code, 0, reproduce.stdout + reproduce.stderr);
});
