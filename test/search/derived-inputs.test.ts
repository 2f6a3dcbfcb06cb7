/**
 * Derived inputs (issue 57, src/lib/search/derivedScreen.ts, docs/design.md#derived): where y is a
 * function of a difference or sum of inputs (or of their squares), the screen finds it on the data,
 * the search runs with it as an input, and the answer is an expression of the inputs that the JSON,
 * `loadResult` and `predict` carry. Laws of this file's own making (not the composite family's).
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runSteps } from "../../src/lib/core/index.js";
import { sameLaw } from "../../src/lib/data/beyond.js";
import {
  createRng,
  fit,
  loadResult,
  resultSchemaProblems,
  resultToJson,
  type ResultJson,
} from "../../src/lib/index.js";
import { derivedScreenSteps } from "../../src/lib/search/derivedScreen.js";
import { cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

type Law = (x: readonly number[]) => number;
const NAMES = ["a", "b", "c", "d", "e"];

function draw(law: Law, ranges: [number, number][], seed: number, share = 0, rows = 800) {
  const rng = createRng(seed);
  const X = Array.from({ length: rows }, () => ranges.map(([lo, hi]) => rng.uniform(lo, hi)));
  const clean = X.map(law);
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / rows);
  return { X, y: clean.map((v) => v + share * rms * rng.normal()) };
}
const columns = (X: number[][]) => X[0]!.map((_, j) => Float64Array.from(X, (row) => row[j]!));

/** A spring's energy by the offset of its end from its rest point: 1.7·a·(b − c)² over 3 inputs. */
const offset: Law = ([a, b, c]) => 1.7 * a! * (b! - c!) ** 2;
const offsetRanges: [number, number][] = [
  [0.5, 4],
  [2, 5],
  [0, 1.5],
];

test("the screen: 1.7·a·(b − c)² is a function of a and b − c", () => {
  const { X, y } = draw(offset, offsetRanges, 31);
  const choice = runSteps(derivedScreenSteps(NAMES.slice(0, 3), columns(X), Float64Array.from(y)));
  assert.ok(choice, "a derived input was expected");
  assert.equal(choice.features.length, 1);
  const e = JSON.stringify(choice.features[0]!.expression);
  assert.ok(e === '["-","b","c"]' || e === '["-","c","b"]', e);
  assert.deepEqual(choice.keep, ["a"]);
});

test("the screen: a sum of products and a function of a product have no derived input", () => {
  const sum: Law = ([a, b, c, d]) => 2 * a! * b! + c! * d!;
  const ranges: [number, number][] = [
    [1, 3],
    [1, 3],
    [0.5, 2],
    [0.5, 2],
  ];
  const { X, y } = draw(sum, ranges, 32);
  assert.equal(runSteps(derivedScreenSteps(NAMES.slice(0, 4), columns(X), Float64Array.from(y))), undefined);
  const product: Law = ([a, b]) => Math.exp(-a! * b!);
  const { X: X2, y: y2 } = draw(product, ranges.slice(0, 2), 33);
  assert.equal(runSteps(derivedScreenSteps(NAMES.slice(0, 2), columns(X2), Float64Array.from(y2))), undefined);
});

/** A wave seen a delay after it left: 2·a·cos(1.3·(b − c)), no sum of products nor a form of the inputs. */
const delayed: Law = ([a, b, c]) => 2 * a! * Math.cos(1.3 * (b! - c!));
const delayedRanges: [number, number][] = [
  [0.5, 3],
  [0, 3],
  [0, 1],
];

test("fit(): 2·a·cos(1.3·(b − c)), clean, default flags: the law as an expression, its JSON round trip", async () => {
  const { X, y } = draw(delayed, delayedRanges, 34);
  const result = await fit({ X, y, names: NAMES.slice(0, 3), seed: 0 });
  const answer = result.equations[0]!;
  assert.equal(result.search.stopReason, "reward-threshold", answer.text);
  const held = draw(delayed, delayedRanges, 35, 0, 300).X;
  assert.ok(sameLaw(answer.predict(held), held.map(delayed)).same, answer.text);
  assert.match(answer.text, /cos\([\d.-]+\*\((b - c|c - b)\)\)/);
  const json = JSON.parse(resultToJson(result)) as ResultJson;
  assert.ok(json.requires?.includes("expression"), JSON.stringify(json.requires));
  assert.ok(json.equations[0]!.expression !== undefined);
  assert.deepEqual(json.equations[0]!.terms, []);
  assert.deepEqual(resultSchemaProblems(json), []);
  const loaded = loadResult(json);
  assert.deepEqual(loaded.equations[0]!.predict(held), answer.predict(held));
  // A result whose expression is not listed in requires, or reads an input it does not have, is refused.
  const unlisted = { ...json, requires: (json.requires ?? []).filter((r) => r !== "expression") };
  assert.throws(() => loadResult(unlisted), /has an expression, but the result does not list "expression" in requires/);
  const stray = structuredClone(json);
  stray.equations[0]!.expression = ["+", "z", 1];
  assert.throws(() => loadResult(stray), /"z" is not among the result's inputs/);
});

test("fit(): a charge's pull over a squared gap, 2·a/(b − c)², at 1 % noise: the law at the floor", async () => {
  const law: Law = ([a, b, c]) => (2 * a!) / (b! - c!) ** 2;
  const ranges: [number, number][] = [
    [0.5, 3],
    [3, 5],
    [0, 1],
  ];
  const { X, y } = draw(law, ranges, 36, 0.01);
  const result = await fit({ X, y, names: NAMES.slice(0, 3), seed: 0, timeLimit: 120 });
  const answer = result.equations[0]!;
  assert.match(answer.text, /\((b - c|c - b)\)/, answer.text);
  const fresh = draw(law, ranges, 37, 0, 300).X;
  const predicted = answer.predict(fresh);
  let squares = 0;
  let power = 0;
  fresh.forEach((x, r) => {
    squares += (predicted[r]! - law(x)) ** 2;
    power += law(x) ** 2;
  });
  assert.ok(Math.sqrt(squares / power) < 0.01, answer.text);
});

test("through the CLI: a derived-input law's result prints its expression and is reproduced exactly", async () => {
  const { X, y } = draw(delayed, delayedRanges, 38);
  const dir = testDir("derived-inputs");
  const csv = join(dir, "delayed.csv");
  writeFileSync(csv, `a,b,c,y\n${X.map((row, r) => [...row, y[r]].join(",")).join("\n")}\n`);
  const out = join(dir, "delayed.json");
  const run = await cli(["fit", csv, "--target", "y", "--quiet", "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^y = .*cos\(.*\((b - c|c - b)\)/m);
  const again = await cli(["reproduce", out, "--quiet"]);
  assert.equal(again.code, 0, again.stderr + again.stdout);
  assert.match(again.stdout + again.stderr, /reproduced exactly/);
});
