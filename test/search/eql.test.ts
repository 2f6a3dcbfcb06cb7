/**
 * The EQL baseline: a seeded network of identity, sin, cos and product units trained
 * in three phases (none, L1, L0). It recovers y = sin(1.5·x1) + 2·x1·x2 on U(−2, 2)² (200 rows,
 * 2 units of each kind, 200 epochs per phase), disposes every tensor, expands its expression into
 * the project's factors where it can and says why where it cannot, gives byte-identical JSON for
 * one seed, runs through `fit` and `reproduce`, and refuses bad settings with one error line.
 * No timing assertions.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import { type EqlModel, extractEql, predictEql, trainEql } from "../../src/lib/baselines/index.js";
import { datasetToCsv, parseCsv } from "../../src/lib/data/csv.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { simplifyEquation } from "../../src/lib/equation/simplify.js";
import { nrmse } from "../../src/lib/numeric/nrmse.js";
import {
  configFromManifest,
  manifestConfig,
  pipelineData,
  resolvePipelineConfig,
  runPipeline,
  type PipelineOptions,
} from "../../src/lib/run/index.js";
import { resultToJson } from "../../src/lib/result/result.js";
import { createRng } from "../../src/lib/core/rng.js";
import { METHODS, resolveSettings } from "../../src/lib/search/index.js";
import { tf } from "../../src/lib/engine/tf.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";
import { twoInputs, testDir } from "../helpers/data.js";

const dir = testDir("eql");

/** y = sin(1.5·x1) + 2·x1·x2 on U(−2, 2)², drawn from `seed`. */
const problem = (rows: number, seed: number): Dataset =>
  twoInputs(rows, seed, [-2, 2], (a, b) => Math.sin(1.5 * a) + 2 * a * b);

/** The small budget the recovery is shown with. */
const SMALL = { hidden: [2], epochs: 200, batch: 32, learningRate: 1e-2, l1: 1e-2, threshold: 0.1 };

const registries = createRegistries();
const lookup = (name: string) => registries.symbols.get(name);

before(async () => {
  await useBackend("cpu");
});

describe("EQL", () => {
  test("a model row that records only the settings it uses", () => {
    assert.equal(METHODS.eql.kind, "model");
    assert.deepEqual([...METHODS.eql.uses].sort(), ["batch", "epochs", "hidden", "l1", "learningRate", "threshold"]);
  });

  test("recovers y = sin(1.5·x1) + 2·x1·x2 from 200 rows, and every tensor is disposed", () => {
    const data = problem(200, 1);
    const tensors = tf.memory().numTensors;
    const trained = trainEql(data, "y", SMALL, createRng(0));
    assert.equal(tf.memory().numTensors, tensors, "tensors left behind by EQL");
    assert.deepEqual(
      trained.phases.map((p) => p.phase),
      ["plain", "l1", "l0"],
    );
    assert.ok(trained.active < trained.weights / 4, `${trained.active} of ${trained.weights} weights kept`);
    const extraction = extractEql(trained.model);
    assert.ok(extraction.terms, extraction.reason);
    const equation = simplifyEquation(
      { target: "y", terms: extraction.terms },
      {
        symbols: lookup,
        inputOrder: data.inputs,
        symbolOrder: registries.symbols.names(),
        columns: (name) => data.x[data.inputs.indexOf(name)]!,
        rows: data.rows,
      },
    );
    const shape = equation.terms.map((t) => t.factors.map((f) => `${f.symbol}(${f.input})`).join("·"));
    assert.deepEqual(shape.sort(), ["sin(x1)", "x(x1)·x(x2)"]);
    for (const term of equation.terms) {
      const sine = term.factors[0]!.symbol === "sin";
      assert.ok(Math.abs(term.coefficient - (sine ? 1 : 2)) < 1e-3, `coefficient ${term.coefficient}`);
      if (sine) assert.ok(Math.abs(term.factors[0]!.weight! - 1.5) < 1e-3);
    }
    assert.ok(nrmse(data.y[0]!, predictEql(trained.model, data.x, data.rows)) < 1e-3);
  });

  test("units follow the pool: no sin or cos units without those symbols", () => {
    const data = problem(50, 2);
    const trained = trainEql(data, "y", { ...SMALL, epochs: 2 }, createRng(0), ["x", "x^2"]);
    assert.deepEqual(trained.model.kinds, ["identity"]);
    assert.deepEqual(trainEql(data, "y", { ...SMALL, epochs: 2 }, createRng(0), ["cos"]).model.kinds, [
      "identity",
      "cos",
    ]);
  });

  test("extraction: biases inside sin and products of sums expand; a sin of a sum does not", () => {
    // One unit of each kind on inputs a, b: pre-activations [identity, sin, product left, product right].
    const model: EqlModel = {
      inputs: ["a", "b"],
      kinds: ["identity", "sin"],
      units: 1,
      // Row-major inputs × 4: a's row, then b's.
      w1: Float64Array.from([2, 3, 1, 1, 0, 0, 0, 1]),
      b1: Float64Array.from([0, 0.5, 0, 1]),
      w2: Float64Array.from([1, 2, 4]),
      b2: 0,
    };
    const expanded = extractEql(model);
    assert.equal(expanded.text, "(2*a) + 2*sin(3*a + 0.5) + 4*(a)*(a + b + 1)");
    const eq = simplifyEquation(
      { target: "y", terms: expanded.terms! },
      { symbols: lookup, inputOrder: ["a", "b"], symbolOrder: registries.symbols.names() },
    );
    const rows = 5;
    const a = Float64Array.from({ length: rows }, (_, i) => 0.3 * i - 0.4);
    const b = Float64Array.from({ length: rows }, (_, i) => 1 - 0.2 * i);
    const net = predictEql(model, [a, b], rows);
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (const term of eq.terms) {
        let v = term.coefficient;
        for (const f of term.factors)
          v *= lookup(f.symbol).evaluate((f.weight ?? 1) * (f.input === "a" ? a[r]! : b[r]!));
        sum += v;
      }
      assert.ok(Math.abs(sum - net[r]!) < 1e-12, `row ${r}: ${sum} vs ${net[r]}`);
    }
    // sin(3a + 0.5) → cos(0.5)·sin(3a) + sin(0.5)·cos(3a); a·a → x^2(a).
    assert.ok(eq.terms.some((t) => t.factors.length === 1 && t.factors[0]!.symbol === "cos"));
    assert.ok(eq.terms.some((t) => t.factors.length === 1 && t.factors[0]!.symbol === "x^2"));
    const sumInside: EqlModel = { ...model, w1: Float64Array.from([2, 3, 1, 1, 0, 1, 0, 1]) };
    const kept = extractEql(sumInside);
    assert.equal(kept.terms, undefined);
    assert.match(kept.reason!, /^sin\(3\*a \+ b \+ 0\.5\) is a sin of a sum of inputs/);
    assert.match(kept.latex, /\\sin\\left\(3 a \+ b \+ 0\.5\\right\)/);
  });
});

describe("EQL through the pipeline and the CLI", () => {
  const data = problem(200, 1);
  const table = parseCsv(datasetToCsv(data));
  const options = (seed: number, extra: Partial<PipelineOptions> = {}): PipelineOptions => ({
    seed,
    csv: { name: "problem.csv", table },
    targets: ["y"],
    method: "eql",
    search: { ...SMALL, epochs: 60 },
    ...extra,
  });
  const run = async (seed: number) => {
    const config = resolvePipelineConfig(options(seed), registries);
    const pipeline = pipelineData(config, { registries, table });
    return (await runPipeline({ config, data: pipeline, registries, backend: tf.getBackend() })).result;
  };

  test("one seed gives byte-identical JSON; tensors stay flat; the manifest holds EQL's settings", async () => {
    const tensors = tf.memory().numTensors;
    const result = await run(3);
    const first = resultToJson(result);
    assert.equal(tf.memory().numTensors, tensors, "tensors left behind by a pipeline run");
    assert.equal(resultToJson(await run(3)), first);
    assert.equal(result.search.method, "eql");
    const [model] = result.models!;
    assert.equal(model!.model, "eql");
    assert.match(model!.expression!.text, /x1|x2/, "the expression names an input");
    assert.equal(result.equations.length, model!.expression!.expanded ? 1 : 0);
    assert.deepEqual(Object.keys(result.manifest.config), [
      "data",
      "targets",
      "inputs",
      "method",
      "epochs",
      "batch",
      "hidden",
      "learningRate",
      "l1",
      "threshold",
    ]);
    assert.deepEqual(manifestConfig(configFromManifest(result)), result.manifest.config);
  });

  test("an experiment: targets with an equation get E_c and exact, the others a reason", async () => {
    const config = resolvePipelineConfig(
      { experiment: "syn1", rows: 100, method: "eql", search: { ...SMALL, epochs: 5 } },
      registries,
    );
    const pipeline = pipelineData(config, { registries });
    const { result } = await runPipeline({ config, data: pipeline, registries, backend: tf.getBackend() });
    assert.deepEqual(
      result.models!.map((m) => m.target),
      ["y1", "y2", "y3"],
    );
    assert.equal(result.evaluation!.length, 3);
    for (const model of result.models!) assert.deepEqual(model.activation, "identity, cos, product");
    for (const e of result.evaluation!) {
      const equation = result.equations.find((q) => q.target === e.target);
      if (equation) assert.equal(typeof e.coefficientError, "number");
      else {
        assert.equal(e.coefficientError, null);
        assert.match(e.reason, /E_c not applicable/);
      }
      assert.ok(Number.isFinite(e.testNrmse));
    }
  });

  test("bad settings are one InputError naming the setting", () => {
    assert.throws(() => resolveSettings("eql", { hidden: [2, 2] }), /hidden must be one width for eql/);
    assert.throws(() => resolveSettings("eql", { l1: 2 }), /l1 must be a number from 0 to 1 \(got 2\)/);
    assert.throws(() => resolveSettings("eql", { threshold: -1 }), /threshold must be a number from 0 to 10/);
  });

  test("fit --method eql writes its equation and model; reproduce re-trains it exactly (exit 0)", async () => {
    const csv = join(dir, "problem.csv");
    const out = join(dir, "eql.json");
    writeFileSync(csv, datasetToCsv(problem(100, 4)));
    const flags = ["--method", "eql", "--hidden", "2", "--epochs", "20", "--quiet"];
    const fit = await cli(["fit", csv, "--target", "y", ...flags, "--out", out]);
    assert.equal(fit.code, 0, fit.stderr);
    assert.match(fit.stdout, /^y = eql\(x1, x2\) {2}\[2-8-1 identity, sin, cos, product, 39 parameters; /m);
    const result = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(result.models[0].model, "eql");
    const again = await cli(["reproduce", out, "--quiet"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /reproduced exactly/);
    const bad = (...extra: string[]) => cli(["fit", csv, "--target", "y", ...flags, ...extra]);
    assertInputError(await bad("--l1", "2"), "--l1", "from 0 to 1");
    assertInputError(await bad("--threshold", "-1"), "--threshold");
    assertInputError(await bad("--hidden", "2,2"), "hidden", "one width for eql");
  });
});
