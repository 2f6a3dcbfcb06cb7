/**
 * Outer functions (src/lib/equation/outer.ts): where no short sum of products fits y but one fits
 * g⁻¹(y) exactly, the search answers y = g(L) with default flags: a root of a sum of squares, a
 * reciprocal of a sum of reciprocals and an exponential of a sum are recovered as the same law
 * (1e-9 relative on held-out points); the result says `outer` and requires it; text, LaTeX (KaTeX
 * renders it) and predict include it; a plain sum never gets one; readers refuse a requirement
 * they do not know, an unknown outer function, and an outer function not listed in `requires`;
 * a result made before outer functions existed re-runs without them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import katex from "katex";
import { beyondData, beyondEntries, sameLaw } from "../../src/lib/data/beyond.js";
import {
  createRng,
  fit,
  isInputError,
  parseResult,
  resultSchemaProblems,
  resultToJson,
  type ResultJson,
} from "../../src/lib/index.js";
import { configFromManifest } from "../../src/lib/run/index.js";
import { datasetToCsv } from "../../src/lib/data/csv.js";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const rows = (d: { rows: number; x: Float64Array[] }) =>
  Array.from({ length: d.rows }, (_, r) => d.x.map((column) => column[r]!));

async function recover(id: string) {
  const entry = beyondEntries.find((e) => e.id === id)!;
  const { train, test: held } = beyondData(entry, { seed: 1, rows: 300 });
  const result = await fit({ X: rows(train), y: train.y[0]!, names: train.inputs, seed: 1 });
  const equation = result.equations[0]!;
  return { result, equation, verdict: sameLaw(equation.predict(rows(held)), held.y[0]!) };
}

for (const [id, outer, text] of [
  ["transform-1", "sqrt", /^sqrt\(/],
  ["transform-3", "inverse", /^1\/\(/],
  ["transform-6", "exp", /^exp\(/],
] as const) {
  test(`${id}: recovered with default flags as y = ${outer}(…), the same law on held-out points`, async () => {
    const { result, equation, verdict } = await recover(id);
    assert.equal(equation.outer, outer, equation.text);
    assert.match(equation.text, text);
    assert.ok(verdict.same, `${equation.text}: worst ${verdict.worst}`);
    assert.equal(result.search.stopReason, "reward-threshold");
    const json = JSON.parse(resultToJson(result)) as ResultJson;
    assert.deepEqual(json.requires, ["outer"]);
    assert.equal(json.equations[0]!.outer, outer);
    assert.deepEqual(resultSchemaProblems(json), []);
    assert.doesNotThrow(() => katex.renderToString(equation.latex, { throwOnError: true }), equation.latex);
    // The result reads back (its requirement is known) and its manifest re-runs with outer on.
    assert.equal(parseResult(resultToJson(result), "r.json").equations[0]!.outer, outer);
  });
}

test("a sum of products gets no outer function, and its result requires nothing", async () => {
  const rng = createRng(4);
  const X = Array.from({ length: 200 }, () => [rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2)]);
  const y = X.map(([a, b, c]) => 2 * a! * b! + c! * c!);
  const result = await fit({ X, y, seed: 0 });
  assert.equal(result.equations[0]!.outer, undefined);
  assert.equal(result.equations[0]!.text, "2*x1*x2 + x3^2");
  assert.equal((JSON.parse(resultToJson(result)) as ResultJson).requires, undefined);
});

test("readers refuse an unknown requirement, an unknown outer function, and one not listed in requires", async () => {
  const { result } = await recover("transform-1");
  const base = JSON.parse(resultToJson(result)) as Record<string, unknown> & { equations: Record<string, unknown>[] };
  const refused = (value: unknown) => {
    try {
      parseResult(JSON.stringify(value), "r.json");
    } catch (error) {
      assert.ok(isInputError(error));
      assert.doesNotMatch((error as Error).message, /\n/);
      return (error as Error).message;
    }
    assert.fail("the result was read");
  };
  assert.match(
    refused({ ...base, requires: ["outer", "tensor"] }),
    /^r\.json: requires tensor, which consolesr [\d.]+ does not know; a newer consolesr wrote it/,
  );
  assert.match(
    refused({ ...base, equations: [{ ...base.equations[0], outer: "cube" }] }),
    new RegExp(
      String.raw`^r\.json: equations\[0\]\.outer must be one of sqrt, inverse, square, inverse-sqrt, exp ` +
        String.raw`or a registered outer-function plugin's name \(got cube\)$`,
    ),
  );
  const { requires: _, ...unlisted } = base;
  assert.match(refused(unlisted), /does not list "outer" in requires/);
});

test("a result made before outer functions existed (no outer in its config) re-runs without them", async () => {
  const { result } = await recover("transform-1");
  assert.equal(result.manifest.config.outer, true);
  const old = JSON.parse(resultToJson(result));
  delete old.manifest.config.outer;
  const config = configFromManifest(parseResult(JSON.stringify(old), "old.json"), "old.json") as { outer?: boolean };
  assert.equal(config.outer, false);
});

test("through the CLI: fit prints y = 1/(…) from a CSV, and reproduce re-runs the result exactly", async () => {
  const dir = testDir("outer-functions");
  const entry = beyondEntries.find((e) => e.id === "transform-7")!;
  const { train } = beyondData(entry, { seed: 2, rows: 200 });
  const csv = join(dir, "inverse.csv");
  writeFileSync(csv, datasetToCsv(train));
  const out = join(dir, "inverse.json");
  const run = await cli(["fit", csv, "--target", "y", "--quiet", "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^y = 1\/\(/);
  const again = await cli(["reproduce", out, "--quiet"]);
  assert.equal(again.code, 0, again.stderr + again.stdout);
  assert.match(again.stdout + again.stderr, /reproduced exactly/);
});
