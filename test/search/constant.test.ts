/**
 * The additive constant: every structure the search fits has one (search/evaluator.ts), the
 * result JSON writes it as `equations[].constant`, the answer rule weighs it like a term, and a
 * result written before it existed still reproduces.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fit, resultEquation, type EquationResult } from "../../src/lib/index.js";
import { createRng } from "../../src/lib/core/rng.js";
import { createEvaluator } from "../../src/lib/search/evaluator.js";
import { HallOfFame } from "../../src/lib/search/hallOfFame.js";
import { equationText, simplifyEquation } from "../../src/lib/equation/index.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("constant");

/** Rows of x1 ~ U(1, 5), x2 ~ U(−2, 2) and y = law(x1, x2), plus Gaussian noise at `snrDb`. */
function rows(law: (a: number, b: number) => number, n = 300, snrDb?: number, seed = 3) {
  const rng = createRng(seed);
  const X = Array.from({ length: n }, () => [rng.uniform(1, 5), rng.uniform(-2, 2)]);
  const clean = X.map(([a, b]) => law(a!, b!));
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / n);
  const sigma = snrDb === undefined ? 0 : rms * 10 ** (-snrDb / 20);
  const y = clean.map((v) => v + sigma * rng.normal());
  return { X, y };
}

const only = (e: EquationResult) => ({ text: e.text, constant: e.constant, products: e.terms.length });

test("default flags: y = 2·x1 + 5 comes back as `2*x1 + 5`, its constant apart from its terms", async () => {
  const { X, y } = rows((a) => 2 * a + 5);
  const result = await fit({ X, y });
  assert.deepEqual(only(result.equations[0]!), { text: "2*x1 + 5", constant: 5, products: 1 });
  assert.deepEqual(result.equations[0]!.terms[0]!.factors, [{ symbol: "x", input: "x1" }]);
  // The constant predicts: resultEquation and predict put it back.
  assert.ok(Math.abs(result.equations[0]!.predict([[2, 0]])[0]! - 9) < 1e-9);
  assert.equal(resultEquation(result.equations[0]!).terms.length, 2);
});

test("the CLI, default flags: y = 3 − 0.5·x1·x2 prints `3 - 0.5*x1*x2`, and the JSON has constant 3", async () => {
  const { X, y } = rows((a, b) => 3 - 0.5 * a * b);
  const csv = join(dir, "bilinear.csv");
  writeFileSync(csv, `x1,x2,y\n${X.map((r, i) => `${r.join(",")},${y[i]}`).join("\n")}\n`);
  const out = join(dir, "bilinear.json");
  const run = await cli(["fit", csv, "--target", "y", "--out", out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^y = 3 - 0\.5\*x1\*x2$/m);
  const json = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(json.equations[0].constant, 3);
  assert.equal(json.equations[0].terms.length, 1);
  assert.equal(json.manifest.config.constant, true);
  // A constant-free law has no `constant` key at all.
  const product = await fit({ X, y: X.map(([a, b]) => 1.5 * a! * b!) });
  assert.equal(product.equations[0]!.text, "1.5*x1*x2");
  assert.ok(!("constant" in product.equations[0]!));
});

test("the answer rule sees the simplified form: {x1, x1·x1⁻¹} is `2*x1 + 5`, no more complex than {x1}", () => {
  const { X, y } = rows((a) => 2 * a + 5, 100);
  const data: Dataset = {
    inputs: ["x1", "x2"],
    targets: ["y"],
    rows: X.length,
    x: [Float64Array.from(X, (r) => r[0]!), Float64Array.from(X, (r) => r[1]!)],
    y: [Float64Array.from(y)],
  };
  const { symbols, rewards } = createRegistries();
  const pool = ["x", "x^-1"];
  const base = { inputs: data.inputs, symbols: pool, outputs: ["y"] };
  // Neurons: input·|pool| + symbol, so x1 is 0 and x1⁻¹ is 1.
  for (const constant of [true, false]) {
    const evaluator = createEvaluator(data, "y", symbols, rewards.get("inv-nrmse"), { engine: "js" }, constant);
    const plain = evaluator.evaluate({ ...base, products: [[0]], sums: [[0]] }).candidate;
    const padded = evaluator.evaluate({ ...base, products: [[0], [0, 1]], sums: [[0, 1]] }).candidate;
    const text = (e: typeof plain) => equationText(e.equation, (n) => symbols.get(n));
    assert.equal(text(padded), "2*x1 + 5", `constant ${constant}`);
    if (constant) assert.equal(text(plain), "2*x1 + 5");
    assert.ok(padded.complexity <= 3, `complexity ${padded.complexity}`);
    const hall = new HallOfFame(data.rows);
    hall.add(padded);
    hall.add(plain);
    assert.equal(text(hall.choose()!), "2*x1 + 5");
  }
});

test("under noise the constant is weighed: kept where the law has one, dropped where it has none", async () => {
  const withConstant = rows((a, b) => 4 + 1.2 * a * b, 500, 30, 11);
  const found = await fit({ X: withConstant.X, y: withConstant.y });
  assert.equal(found.search.stopReason, "noise-floor");
  assert.match(found.equations[0]!.text, /^1\.\d+\*x1\*x2 \+ [34]\.\d+$/);
  const without = rows((a, b) => 1.2 * a * b + 0.8 * a * a, 500, 30, 12);
  const plain = await fit({ X: without.X, y: without.y });
  assert.equal(plain.search.stopReason, "noise-floor");
  assert.ok(!("constant" in plain.equations[0]!), plain.equations[0]!.text);
  // The answer is on the front, marked chosen, and the front's entries with a constant are not.
  const front = plain.search.front ?? [];
  const chosen = front.filter((f) => f.chosen);
  assert.deepEqual(
    chosen.map((f) => f.text),
    [plain.equations[0]!.text],
  );
  const found2 = found.search.front ?? [];
  assert.deepEqual(
    found2.filter((f) => f.chosen).map((f) => f.text),
    [found.equations[0]!.text],
  );
});

test("results written before the constant existed reproduce (its manifest has no `constant`)", async () => {
  const file = (name: string) => join("test", "fixtures", `${name}-before-constant.json`);
  const product = JSON.parse(readFileSync(file("product"), "utf8"));
  assert.ok(!("constant" in product.manifest.config) && !("constant" in product.equations[0]));
  const run = await cli(["reproduce", file("product")]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /reproduced exactly/);
  // One whose law had a constant kept it as a term without factors ("5 + 2*x1", from x1·x1⁻¹):
  // its terms and numbers match the re-run's `constant` exactly; only the printed order changed
  // (in the equation and the front).
  const affine = await cli(["reproduce", file("affine")]);
  assert.match(affine.stdout, /was 5 \+ 2\*x1, now 2\*x1 \+ 5/);
  const differences = affine.stdout.split("\n").filter((line) => /^\s+(y:|DIFFERENT)/.test(line));
  assert.deepEqual(
    differences.map((line) => line.trim().split(" ")[1]),
    ["text", "latex", "search.front[0].text:"],
    affine.stdout,
  );
});

test("beside the constant a log's weight moves out: log(0.5864·x1) + 0.5337 is log(x1) (log's `shift`)", async () => {
  const { symbols } = createRegistries();
  const lookup = (n: string) => symbols.get(n);
  const order = { symbols: lookup, inputOrder: ["x1"], symbolOrder: symbols.names() };
  const learned = simplifyEquation(
    {
      target: "y",
      terms: [
        { coefficient: 1, factors: [{ symbol: "log", input: "x1", weight: 0.5864 }] },
        { coefficient: -Math.log(0.5864), factors: [] },
      ],
    },
    { ...order, columns: () => Float64Array.from({ length: 20 }, (_, i) => 1 + i), rows: 20 },
  );
  assert.equal(equationText(learned, lookup), "log(x1)");
  // Without a constant to take it, the weight stays: log(2·x1) is one term.
  const alone = simplifyEquation(
    { target: "y", terms: [{ coefficient: 1, factors: [{ symbol: "log", input: "x1", weight: 2 }] }] },
    order,
  );
  assert.equal(equationText(alone, lookup), "log(2*x1)");
  const { X } = rows(() => 0, 200);
  const result = await fit({ X, y: X.map(([a]) => 2 * Math.log(3 * a!) + a!) });
  assert.equal(result.equations[0]!.text, "x1 + 2*log(x1) + 2.197");
});
