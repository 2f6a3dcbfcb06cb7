// The multi-start of periodic symbols (FitOptions.starts): what it fixes (Keijzer-1's sin(2π·x)
// several basins from w = 1, II.15.4's negative coefficient), that the single start still fails
// there, and that a structure which fits from all-ones costs one start only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../../src/lib/engine/tf.js";
import { useBackend } from "../../src/lib/engine/backend.js";
import { benchmarkData, benchmarkEntry } from "../../src/lib/data/benchmark.js";
import { columnOf, experimentData, experiments } from "../../src/lib/data/index.js";
import { parseForm } from "../../src/lib/equation/index.js";
import { formOf, structureOfEquations } from "../../src/lib/local/extract.js";
import { fitForm } from "../../src/lib/run/fitForm.js";
import { fitLocalSync, type FitOptions } from "../../src/lib/local/fit.js";
// fitLocalSync on the tfjs engine needs it registered (the library's entry does that).
import "../../src/lib/local/fitTfjs.js";
import { createRng } from "../../src/lib/core/rng.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
await useBackend("cpu");
const symbols = createSymbolRegistry();

/** An entry's true form fitted from all-ones (300 noiseless rows, seed 0). */
function fitEntry(id: string, options: Omit<FitOptions, "symbols"> = {}) {
  const data = benchmarkData(benchmarkEntry(id), { symbols, seed: 0, rows: 300 });
  const fitted = fitForm(data.train, [formOf(data.truth)], { symbols, ...options });
  return { nrmse: fitted.equations[0]!.trainNrmse, text: fitted.equations[0]!.text, fit: fitted.fits[0]! };
}

for (const engine of ["js", "tfjs"] as const) {
  for (const id of ["keijzer-1", "keijzer-3", "feynman-II.15.4", "feynman-II.15.5"]) {
    test(`${id} (${engine}): the single start fails, the multi-start fits exactly from its second start`, () => {
      const single = fitEntry(id, { engine, starts: "single" });
      assert.ok(
        single.nrmse > 1e-2,
        `the single start now fits ${id} (NRMSE ${single.nrmse}): the multi-start is no longer what fixes it`,
      );
      assert.equal(single.fit.starts, 1);
      const multi = fitEntry(id, { engine });
      assert.ok(multi.nrmse < 1e-6, `train NRMSE ${multi.nrmse}: ${multi.text}`);
      assert.equal(multi.fit.starts, 2);
      assert.equal(multi.fit.bestStart, 1);
    });
  }
}

test("Keijzer-1 prints its truth after the multi-start: 0.3*x1*sin(6.283*x1)", () => {
  const { text } = fitEntry("keijzer-1", { engine: "js" });
  assert.match(text, /^0\.3\*x1\*sin\(6\.283\d*\*x1\)$|^0\.3\*sin\(6\.283\d*\*x1\)\*x1$/);
});

test("syn1's 3·x1²·cos(2.5·x2) fits from all-ones: one start, on both engines", () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(0), symbols: (name) => symbols.get(name) });
  const [form] = parseForm("y1 = x1^2*cos(x2)", {
    symbols: symbols.values(),
    inputs: train.inputs,
    targets: train.targets,
  });
  const structure = structureOfEquations([form!], train.inputs, symbols.names());
  for (const engine of ["js", "tfjs"] as const) {
    const fit = fitLocalSync(structure, { x: train.x, y: [columnOf(train, "y1")] }, { symbols, engine });
    assert.ok(fit.trainNrmse[0]! < 1e-6, `${engine}: NRMSE ${fit.trainNrmse[0]}`);
    assert.equal(fit.starts, 1, engine);
    assert.equal(fit.bestStart, 0, engine);
  }
});

test("a structure without a periodic symbol gets one start, exact or not", () => {
  const data = benchmarkData(benchmarkEntry("keijzer-1"), { symbols, seed: 0, rows: 300 });
  const fitted = fitForm(data.train, "y = x1^2 + x1", { symbols, engine: "js" });
  assert.ok(fitted.equations[0]!.trainNrmse > 0.1, "a wrong structure: not exact");
  assert.equal(fitted.fits[0]!.starts, 1);
});

test("the multi-start is deterministic and leaves the tfjs tensor count unchanged", () => {
  const data = benchmarkData(benchmarkEntry("keijzer-3"), { symbols, seed: 1, rows: 300 });
  const [form] = parseForm("y = x1*sin(x1)", {
    symbols: symbols.values(),
    inputs: data.train.inputs,
    targets: data.train.targets,
  });
  const structure = structureOfEquations([form!], data.train.inputs, symbols.names());
  const fitData = { x: data.train.x, y: data.train.y };
  fitLocalSync(structure, fitData, { symbols, steps: 5 });
  const before = tf.memory().numTensors;
  const a = fitLocalSync(structure, fitData, { symbols, engine: "tfjs", polish: "none", steps: 20 });
  assert.equal(tf.memory().numTensors, before);
  assert.equal(a.starts, 2, "polish none: the second start runs Adam on tfjs");
  const b = fitLocalSync(structure, fitData, { symbols, engine: "js" });
  const c = fitLocalSync(structure, fitData, { symbols, engine: "js" });
  assert.deepEqual(b.weights, c.weights);
  assert.ok(b.trainNrmse[0]! < 1e-6, `NRMSE ${b.trainNrmse[0]}`);
});
