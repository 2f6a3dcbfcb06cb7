/**
 * The paper's baselines, the method table's rows of kind "model": the MLP fits an
 * in-range problem, disposes every tensor, gives byte-identical JSON for one seed, runs through
 * the CLI's `fit` and `run`, re-runs exactly with `reproduce`, and refuses bad settings with one
 * error line. No timing assertions.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import { predictMlp, trainMlp } from "../../src/lib/baselines/index.js";
import { datasetToCsv, parseCsv } from "../../src/lib/data/csv.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
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
import { METHODS, structureSearchRow } from "../../src/lib/search/index.js";
import { tf } from "../../src/lib/engine/tf.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";
import { twoInputs, testDir } from "../helpers/data.js";

const dir = testDir("baselines");

/** y = x1·x2 + sin(2·x1) on U(−1, 1)², drawn from `seed`. */
const problem = (rows: number, seed: number): Dataset =>
  twoInputs(rows, seed, [-1, 1], (a, b) => a * b + Math.sin(2 * a));

/** Small enough to train in a second or two on tfjs cpu. */
const QUICK = { hidden: [16, 16], epochs: 15, batch: 32 };

before(async () => {
  await useBackend("cpu");
});

describe("the method table", () => {
  test("mlp is a model row: it records only the settings it uses, and the episode loop refuses it", () => {
    assert.equal(METHODS.mlp.kind, "model");
    assert.deepEqual([...METHODS.mlp.uses].sort(), [
      "batch",
      "epochs",
      "hidden",
      "learningRate",
      "patience",
      "validation",
    ]);
    assert.throws(() => structureSearchRow("mlp"), /not a structure search/);
  });
});

describe("MLP", () => {
  test("fits an in-range problem: test NRMSE < 0.05, and every tensor is disposed", () => {
    const train = problem(500, 1);
    const test = problem(300, 2);
    const tensors = tf.memory().numTensors;
    const trained = trainMlp(
      train,
      "y",
      { hidden: [32, 32], epochs: 300, batch: 32, learningRate: 1e-2, patience: 30, validation: 0.2 },
      createRng(0),
    );
    assert.equal(tf.memory().numTensors, tensors, "tensors left behind by training");
    const predicted = predictMlp(trained.model, test.x, test.rows);
    const error = nrmse(test.y[0]!, predicted);
    assert.ok(error < 0.05, `in-range test NRMSE ${error}`);
    assert.equal(trained.trainRows + trained.validationRows, 500);
    assert.equal(trained.validationRows, 100);
    assert.ok(trained.bestEpoch >= 1 && trained.bestEpoch <= trained.epochs);
  });

  const registries = createRegistries();
  const table = parseCsv(datasetToCsv(problem(120, 3)), "problem.csv");
  const options = (seed: number, extra: Partial<PipelineOptions> = {}): PipelineOptions => ({
    csv: { name: "problem.csv", table },
    targets: ["y"],
    method: "mlp",
    seed,
    search: QUICK,
    ...extra,
  });
  const run = async (seed: number) => {
    const config = resolvePipelineConfig(options(seed), registries);
    const data = pipelineData(config, { registries, table });
    return (await runPipeline({ config, data, registries, backend: tf.getBackend() })).result;
  };

  test("one seed gives byte-identical JSON, another seed another model; tensors stay flat", async () => {
    const tensors = tf.memory().numTensors;
    const first = resultToJson(await run(7));
    assert.equal(tf.memory().numTensors, tensors, "tensors left behind by a pipeline run");
    assert.equal(resultToJson(await run(7)), first);
    assert.notEqual(resultToJson(await run(8)), first);
    assert.equal(tf.memory().numTensors, tensors);
  });

  test("the result: no equation, a models block, the method's settings only in the manifest", async () => {
    const result = await run(0);
    assert.deepEqual(result.equations, []);
    assert.equal(result.search.method, "mlp");
    const [model] = result.models!;
    assert.equal(model!.target, "y");
    assert.deepEqual(model!.layers, [2, 16, 16, 1]);
    assert.equal(model!.parameters, 3 * 16 + 17 * 16 + 17);
    assert.equal(model!.predictions.set, "train");
    assert.equal(model!.predictions.rows, 120);
    assert.ok(Number.isFinite(model!.trainNrmse));
    assert.equal(model!.testNrmse, undefined);
    const config = result.manifest.config;
    assert.deepEqual(Object.keys(config), [
      "data",
      "targets",
      "inputs",
      "method",
      "epochs",
      "batch",
      "hidden",
      "learningRate",
      "patience",
      "validation",
    ]);
    // The manifest reads back to the same config (what `reproduce` re-runs).
    assert.deepEqual(manifestConfig(configFromManifest(result)), config);
  });

  test("an experiment: test NRMSE on the extrapolation set, E_c and exact not applicable", async () => {
    const config = resolvePipelineConfig(
      { experiment: "syn1", rows: 200, method: "mlp", search: { ...QUICK, epochs: 3 } },
      registries,
    );
    const data = pipelineData(config, { registries });
    const { result } = await runPipeline({ config, data, registries, backend: tf.getBackend() });
    assert.deepEqual(
      result.models!.map((m) => m.target),
      ["y1", "y2", "y3"],
    );
    for (const e of result.evaluation!) {
      assert.equal(e.exact, false);
      assert.equal(e.coefficientError, null);
      assert.equal(e.reason, "no equation (mlp)");
      const model = result.models!.find((m) => m.target === e.target)!;
      assert.equal(e.testNrmse, model.testNrmse);
      assert.equal(model.predictions.set, "test");
    }
    assert.deepEqual(Object.keys(result.manifest.config).slice(0, 4), ["experiment", "rows", "snrDb", "method"]);
    assert.ok(!("symbols" in result.manifest.config) && !("fit" in result.manifest.config));
    assert.ok(resultToJson(result).includes('"coefficientError": null'));
  });

  test("bad settings are one InputError naming the setting", () => {
    assert.throws(
      () => resolvePipelineConfig(options(0, { search: { validation: 0.9 } }), registries),
      /validation must be a number above 0 and at most 0\.5 \(got 0\.9\)/,
    );
    assert.throws(
      () => resolvePipelineConfig(options(0, { search: { hidden: [] } }), registries),
      /hidden must be a list of 1 to 8 layer widths/,
    );
    assert.throws(
      () => resolvePipelineConfig(options(0, { symbols: ["x"] }), registries),
      /`method` mlp fits a network with no symbols/,
    );
  });
});

describe("MLP through the CLI", () => {
  const csv = join(dir, "problem.csv");
  const out = join(dir, "mlp.json");
  const flags = ["--method", "mlp", "--hidden", "16,16", "--epochs", "10", "--quiet"];

  test("fit --method mlp writes a models block; reproduce re-trains it exactly (exit 0), an edit exits 1", async () => {
    writeFileSync(csv, datasetToCsv(problem(100, 4)));
    const fit = await cli(["fit", csv, "--target", "y", ...flags, "--out", out]);
    assert.equal(fit.code, 0, fit.stderr);
    assert.match(fit.stdout, /^y = mlp\(x1, x2\) {2}\[2-16-16-1 tanh, 337 parameters; train NRMSE /);
    const result = JSON.parse(readFileSync(out, "utf8"));
    assert.deepEqual(result.equations, []);
    assert.equal(result.models[0].model, "mlp");
    const again = await cli(["reproduce", out, "--quiet"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /y: same model/);
    assert.match(again.stdout, /reproduced exactly: all 1 model /);
    const edited = join(dir, "edited.json");
    result.models[0].trainNrmse *= 1.5;
    writeFileSync(edited, JSON.stringify(result));
    const differs = await cli(["reproduce", edited, "--data", csv, "--quiet"]);
    assert.equal(differs.code, 1, differs.stderr);
    assert.match(differs.stdout, /y: DIFFERENT model\n {2}models\[y\]\.trainNrmse: /);
  });

  test("an MLP trained on cpu reproduces on wasm within the model tolerance; a 10 % edit does not", async () => {
    writeFileSync(csv, datasetToCsv(problem(100, 4)));
    const trained = join(dir, "mlp-cpu.json");
    const fit = await cli(["fit", csv, "--target", "y", ...flags, "--backend", "cpu", "--out", trained]);
    assert.equal(fit.code, 0, fit.stderr);
    const wasm = await cli(["reproduce", trained, "--backend", "wasm", "--quiet"]);
    assert.equal(wasm.code, 0, wasm.stdout + wasm.stderr);
    assert.match(wasm.stdout, /y: same model within tolerance 0\.05/);
    assert.match(wasm.stdout, /retrained on another backend \(cpu, wasm\)/);
    // The tolerance is a bound, not a pass for anything: predictions 10 % off fail on wasm too.
    const result = JSON.parse(readFileSync(trained, "utf8"));
    result.models[0].predictions.rms *= 1.1;
    const edited = join(dir, "mlp-cpu-edited.json");
    writeFileSync(edited, JSON.stringify(result));
    const differs = await cli(["reproduce", edited, "--backend", "wasm", "--data", csv, "--quiet"]);
    assert.equal(differs.code, 1, differs.stdout + differs.stderr);
    assert.match(differs.stdout, /y: DIFFERENT model\n {2}models\[y\]\.predictions\.rms: /);
  });

  test("bad MLP flags and result files are one error line (exit 2)", async () => {
    writeFileSync(csv, datasetToCsv(problem(100, 4)));
    const fit = (...extra: string[]) => cli(["fit", csv, "--target", "y", ...flags, ...extra]);
    assertInputError(await fit("--validation", "0.9"), "--validation", "at most 0.5");
    assertInputError(await fit("--hidden", "0,64"), "--hidden", "from 1 to 1024");
    assertInputError(await fit("--patience", "0"), "--patience");
    assertInputError(await fit("--symbols", "x"), "--method mlp");
    const bad = join(dir, "bad.json");
    const result = JSON.parse(readFileSync(out, "utf8"));
    result.manifest.config.patience = -1;
    writeFileSync(bad, JSON.stringify(result));
    assertInputError(await cli(["reproduce", bad, "--data", csv]), "manifest.config", "patience");
  });
});
