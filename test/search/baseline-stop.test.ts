/**
 * A stop from outside (a page's Stop, Ctrl-C) ends a baseline's training at its next epoch or
 * batch of samples and keeps its best so far: the MLP its best epoch's weights, EQL the phases run
 * so far, DSR and VPG the best expression sampled. Through the pipeline, the outputs after the
 * stopped one get no model, the result says "aborted" and passes the schema. The training yields
 * to the event loop, so an abort from a timer gets in while it runs. No timing assertions.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import {
  fitModelsSteps,
  predictMlp,
  trainDsrSteps,
  trainEqlSteps,
  trainMlp,
  trainMlpSteps,
  type TrainingPace,
} from "../../src/lib/baselines/index.js";
import { tokenLibrary } from "../../src/lib/baselines/dsrLibrary.js";
import { nrmse } from "../../src/lib/numeric/nrmse.js";
import { pipelineData, resolvePipelineConfig, runPipeline, type PipelineOptions } from "../../src/lib/run/index.js";
import { parseResult, resultToJson } from "../../src/lib/result/index.js";
import { createRng, runSteps } from "../../src/lib/core/index.js";
import { tf } from "../../src/lib/engine/tf.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { twoInputs, testDir } from "../helpers/data.js";
import { cliSignalled } from "../helpers/cli.js";
import { datasetToCsv } from "../../src/lib/data/csv.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { METHODS } from "../../src/lib/search/index.js";
import { pipelinePlugins } from "../../src/lib/run/pipeline.js";

const problem = twoInputs(200, 1, [-1, 1], (a, b) => a * b + Math.sin(2 * a));
const MLP = { hidden: [8], epochs: 50, batch: 32, learningRate: 1e-2, patience: 50, validation: 0.2 };

/** A pace that stops after `steps` reported steps, and records what it was told. */
function stopAfter(steps: number): TrainingPace & { seen: { step: number; nrmse?: number; phase?: string }[] } {
  const seen: { step: number; nrmse?: number; phase?: string }[] = [];
  return { seen, stopped: () => seen.length >= steps, onStep: (s) => seen.push(s) };
}

before(async () => {
  await useBackend("cpu");
});

describe("a stopped baseline keeps its best so far", () => {
  test("MLP: ends before epoch 4 after 3, keeps its best epoch's weights, leaves no tensor", () => {
    const tensors = tf.memory().numTensors;
    const pace = stopAfter(3);
    const trained = runSteps(trainMlpSteps(problem, "y", MLP, createRng(0), pace));
    assert.equal(tf.memory().numTensors, tensors);
    assert.equal(trained.stopReason, "aborted");
    assert.equal(trained.epochs, 3);
    assert.deepEqual(
      pace.seen.map((s) => s.step),
      [1, 2, 3],
    );
    assert.ok(trained.bestEpoch >= 1 && trained.bestEpoch <= 3);
    // The same three epochs as an unstopped run of three: stopping changes nothing it computed.
    const three = trainMlp(problem, "y", { ...MLP, epochs: 3 }, createRng(0));
    assert.equal(three.stopReason, "epochs");
    assert.deepEqual(trained.model.weights, three.model.weights);
    assert.equal(trained.validationNrmse, three.validationNrmse);
    const predicted = predictMlp(trained.model, problem.x, problem.rows);
    assert.ok(Number.isFinite(nrmse(problem.y[0]!, predicted)));
    // The progress NRMSE is the best epoch's validation NRMSE on standardised rows: it never rises.
    for (let k = 1; k < pace.seen.length; k++) assert.ok(pace.seen[k]!.nrmse! <= pace.seen[k - 1]!.nrmse!);
  });

  test("EQL: a stop in the first phase keeps that phase's epochs and skips the others", () => {
    const tensors = tf.memory().numTensors;
    const pace = stopAfter(2);
    const settings = { hidden: [2], epochs: 10, batch: 64, learningRate: 1e-2, l1: 1e-2, threshold: 0.1 };
    const trained = runSteps(trainEqlSteps(problem, "y", settings, createRng(0), undefined, pace));
    assert.equal(tf.memory().numTensors, tensors);
    assert.equal(trained.stopReason, "aborted");
    assert.deepEqual(
      trained.phases.map((p) => [p.phase, p.epochs]),
      [["plain", 2]],
    );
    assert.equal(trained.active, trained.weights);
    assert.ok(Number.isFinite(trained.phases[0]!.mse));
    assert.deepEqual(
      pace.seen.map((s) => [s.step, s.phase]),
      [
        [1, "plain"],
        [2, "plain"],
      ],
    );
  });

  test("DSR: a stop mid-batch keeps the best expression sampled so far", () => {
    const tensors = tf.memory().numTensors;
    const library = tokenLibrary(problem.inputs, [createRegistries().symbols.get("sin")]);
    const settings = { ...METHODS.dsr.defaults, hidden: [8], batch: 20, budget: 200, stopNrmse: 0 };
    const pace = stopAfter(1);
    const trained = runSteps(trainDsrSteps(problem, "y", library, settings, "dsr", createRng(0), pace));
    assert.equal(tf.memory().numTensors, tensors);
    // Progress every 10 samples; the stop is asked before each sample: it ends the first batch at 10.
    assert.equal(trained.stopReason, "aborted");
    assert.equal(trained.samples, 10);
    assert.equal(trained.iterations, 1);
    assert.equal(pace.seen[0]!.step, 10);
    assert.equal(pace.seen[0]!.nrmse, trained.best.nrmse);
    assert.equal(1 / (1 + trained.best.nrmse), trained.batchBest[0]);
  });

  test("every model method: outputs after the stopped one are not trained", () => {
    const registries = createRegistries();
    const two = { ...problem, targets: ["y", "z"], y: [problem.y[0]!, problem.y[0]!.map((v) => 2 * v)] };
    for (const method of ["mlp", "eql", "dsr", "vpg"] as const) {
      const config = resolvePipelineConfig(
        { experiment: "syn1", method, search: { epochs: 4, budget: 60, batch: 20 } },
        registries,
      );
      const settings = { ...pipelinePlugins(config, registries).settings!, hidden: method === "eql" ? [2] : [8] };
      let steps = 0;
      const output = runSteps(
        fitModelsSteps(two, undefined, settings, createRng(0), {
          onStep: () => steps++,
          stopped: () => steps >= 1,
          context: { symbols: registries.symbols },
        }),
      );
      assert.equal(output.stopped, true, method);
      assert.deepEqual(
        output.models.map((m) => m.target),
        ["y"],
        method,
      );
      assert.equal((output.models[0]!.training as { stopReason?: string }).stopReason, "aborted", method);
    }
  });
});

describe("through the pipeline", () => {
  const registries = createRegistries();
  const run = async (options: PipelineOptions, abort: (controller: AbortController) => void) => {
    const config = resolvePipelineConfig(options, registries);
    const data = pipelineData(config, { registries });
    const controller = new AbortController();
    abort(controller);
    const trained = new Set<number>();
    const output = await runPipeline({
      config,
      data,
      registries,
      backend: tf.getBackend(),
      signal: controller.signal,
      onTraining: (step) => trained.add(step.targetIndex),
    });
    return { ...output, trained: [...trained], targets: data.train.targets.length };
  };

  test("syn2 with the MLP, aborted by a timer: one model, an aborted result that passes the schema", async () => {
    const tensors = tf.memory().numTensors;
    const { result, trained, targets } = await run(
      { experiment: "syn2", rows: 200, method: "mlp", seed: 0, search: { epochs: 10000, patience: 10000 } },
      (controller) => setTimeout(() => controller.abort(), 300),
    );
    assert.equal(tf.memory().numTensors, tensors);
    assert.equal(result.search.stopReason, "aborted");
    assert.equal(targets, 3);
    assert.deepEqual(trained, [0], "only the first output trained");
    assert.equal(result.models?.length, 1);
    const training = result.models![0]!.training as { stopReason: string; epochs: number };
    assert.equal(training.stopReason, "aborted");
    assert.ok(training.epochs >= 1 && training.epochs < 10000, `${training.epochs} epochs`);
    assert.deepEqual(
      result.evaluation?.map((e) => e.target),
      [result.models![0]!.target],
    );
    assert.ok(Number.isFinite(result.evaluation![0]!.testNrmse));
    parseResult(resultToJson(result), "stopped.json");
  });

  test("an unstopped model run still says model-trained", async () => {
    const { result, targets } = await run(
      { experiment: "syn1", rows: 100, method: "mlp", seed: 0, search: { hidden: [4], epochs: 2 } },
      () => undefined,
    );
    assert.equal(result.search.stopReason, "model-trained");
    assert.equal(result.models?.length, targets);
  });
});

describe("through the CLI", () => {
  test("Ctrl-C during an MLP's training: exit 130, its best epoch printed and written, aborted", async () => {
    const dir = testDir("baseline-stop");
    const csv = join(dir, "problem.csv");
    const out = join(dir, "stopped.json");
    writeFileSync(csv, datasetToCsv(problem));
    const args = ["fit", csv, "--target", "y", "--method", "mlp", "--epochs", "10000", "--patience", "10000"];
    const run = await cliSignalled([...args, "--out", out], /^training mlp: y/m, "SIGINT", {
      delayMs: 1500,
      timeoutMs: 120_000,
    });
    const context = JSON.stringify(run);
    assert.equal(run.code, 130, context);
    assert.match(run.stdout, /^y = mlp\(x1, x2\)/, context);
    assert.match(run.stderr, /interrupted: printed the best equations found so far/, context);
    const result = parseResult(readFileSync(out, "utf8"), out);
    assert.equal(result.search.stopReason, "aborted");
    const training = result.models![0]!.training as { stopReason: string; epochs: number; bestEpoch: number };
    assert.equal(training.stopReason, "aborted");
    assert.ok(training.epochs >= 1 && training.epochs < 10000 && training.bestEpoch <= training.epochs, context);
  });
});
