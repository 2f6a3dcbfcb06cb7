import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../../src/lib/engine/tf.js";
import { useBackend } from "../../src/lib/engine/backend.js";
import { createRng } from "../../src/lib/core/rng.js";
import { experimentData, experiments, columnOf, type Dataset } from "../../src/lib/data/index.js";
import { fitForm } from "../../src/lib/run/fitForm.js";
import { evaluateExperiment } from "../../src/lib/run/evaluate.js";
import { fitLocalSync } from "../../src/lib/local/fit.js";
// fitLocalSync on the tfjs engine needs it registered (the library's entry does that).
import "../../src/lib/local/fitTfjs.js";
import { parseForm } from "../../src/lib/equation/index.js";
import { structureOfEquations, formOf } from "../../src/lib/local/extract.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
await useBackend("cpu");
const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);

/** The experiment's forms with every number removed: what a user would pass as --form. */
const formsOf = (name: string) => experiments[name]!.truth.map(formOf);

for (const name of ["syn1", "syn2"]) {
  test(
    `${name}: fitting the true forms from the all-ones init ` +
      `recovers every coefficient within 1 % and extrapolates`,
    () => {
      const experiment = experiments[name]!;
      const data = experimentData(experiment, { rng: createRng(0), symbols: lookup });
      const fitted = fitForm(data.train, formsOf(name), { symbols: registry });
      const evaluation = evaluateExperiment(experiment, fitted.simplified, data, registry);
      for (const e of evaluation) {
        assert.ok(e.exact, `${name} ${e.target}: ${e.reason}`);
        assert.ok(e.coefficientError < 1, `${name} ${e.target}: E_c ${e.coefficientError} %`);
        assert.ok(e.testNrmse < 1e-3, `${name} ${e.target}: test NRMSE ${e.testNrmse} on U(3,4)`);
      }
    },
  );
}

test("syn1 and syn2 print as the paper's equations (text and LaTeX snapshot)", () => {
  const printed: string[] = [];
  for (const name of ["syn1", "syn2"]) {
    const data = experimentData(experiments[name]!, { rng: createRng(0), symbols: lookup });
    for (const e of fitForm(data.train, formsOf(name), { symbols: registry }).equations)
      printed.push(`${e.target} = ${e.text}`, e.latex);
  }
  assert.deepEqual(printed, [
    "y1 = 3*x1^2*cos(2.5*x2)",
    "3 x_{1}^{2} \\cos\\left(2.5 x_{2}\\right)",
    "y2 = 4*x1*x3",
    "4 x_{1} x_{3}",
    "y3 = 3*x3^2",
    "3 x_{3}^{2}",
    "y1 = x1*x2^2 + 1.483*sqrt(x1)*x2",
    "x_{1} x_{2}^{2} + 1.483 \\sqrt{x_{1}} x_{2}",
    "y2 = sin(1.8*x1)*log(3*x2) + sin(1.8*x1)*sqrt(x3)",
    "\\sin\\left(1.8 x_{1}\\right) \\log\\left(3 x_{2}\\right) + \\sin\\left(1.8 x_{1}\\right) \\sqrt{x_{3}}",
    "y3 = x1^2 + 1.924*log(1.6*x1)*sqrt(x3)",
    "x_{1}^{2} + 1.924 \\log\\left(1.6 x_{1}\\right) \\sqrt{x_{3}}",
  ]);
});

function syn1Structure(data: Dataset) {
  const [form] = parseForm("y1 = x1^2*cos(x2)", {
    symbols: registry.values(),
    inputs: data.inputs,
    targets: data.targets,
  });
  return structureOfEquations([form!], data.inputs, registry.names());
}

test("fitLocal leaves the tfjs tensor count unchanged", () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(1), symbols: lookup, rows: 300 });
  const structure = syn1Structure(train);
  fitLocalSync(structure, { x: train.x, y: [columnOf(train, "y1")] }, { symbols: registry, steps: 5 });
  const before = tf.memory().numTensors;
  const fit = fitLocalSync(structure, { x: train.x, y: [columnOf(train, "y1")] }, { symbols: registry, steps: 30 });
  assert.equal(fit.steps, 30);
  assert.equal(tf.memory().numTensors, before);
});

test("Adam on tfjs and on float64 JS take the same steps from the same init", () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(2), symbols: lookup, rows: 300 });
  const structure = syn1Structure(train);
  const data = { x: train.x, y: [columnOf(train, "y1")] };
  // One start: Adam's steps from the all-ones init, not a second start's from a scan.
  const a = fitLocalSync(structure, data, {
    symbols: registry,
    steps: 100,
    polish: "none",
    engine: "tfjs",
    starts: "single",
  });
  const b = fitLocalSync(structure, data, {
    symbols: registry,
    steps: 100,
    polish: "none",
    engine: "js",
    starts: "single",
  });
  assert.equal(a.loss.length, 100);
  assert.equal(b.loss.length, 100);
  assert.ok(a.loss[99]! < a.loss[0]!, "Adam descends");
  for (const t of [0, 10, 50, 99])
    assert.ok(Math.abs(a.loss[t]! - b.loss[t]!) <= 1e-3 * b.loss[t]!, `step ${t}: ${a.loss[t]} vs ${b.loss[t]}`);
});

test("the wasm backend fits syn1's y1 like cpu, and leaks no tensors", async () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(3), symbols: lookup, rows: 300 });
  const structure = syn1Structure(train);
  const data = { x: train.x, y: [columnOf(train, "y1")] };
  const cpu = fitLocalSync(structure, data, { symbols: registry, steps: 50 });
  await useBackend("wasm");
  try {
    const before = tf.memory().numTensors;
    const wasm = fitLocalSync(structure, data, { symbols: registry, steps: 50 });
    assert.equal(tf.memory().numTensors, before);
    assert.equal(wasm.engine, "wasm");
    assert.ok(wasm.trainNrmse[0]! < 1e-8, `wasm train NRMSE ${wasm.trainNrmse[0]}`);
    assert.ok(
      Math.abs(wasm.weights.w2.flat().find((v) => v !== 0)! - cpu.weights.w2.flat().find((v) => v !== 0)!) < 1e-6,
    );
  } finally {
    await useBackend("cpu");
  }
});

test("Adam alone (no polish) moves every syn1 weight towards the truth from 1", () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(4), symbols: lookup, rows: 500 });
  const structure = syn1Structure(train);
  const fit = fitLocalSync(
    structure,
    { x: train.x, y: [columnOf(train, "y1")] },
    { symbols: registry, steps: 600, polish: "none", engine: "js", learningRate: 0.05, starts: "single" },
  );
  const w2 = fit.weights.w2.flat().find((v) => v !== 0)!;
  const cosWeight = fit.weights.inner.find((v) => v !== 1)!;
  assert.ok(Math.abs(w2 - 3) < 0.05 && Math.abs(Math.abs(cosWeight) - 2.5) < 0.01, `w2 ${w2}, cos weight ${cosWeight}`);
});
