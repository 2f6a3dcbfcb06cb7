/**
 * `npm run bench`: the cost of one Adam step of fitLocal on syn1 on tfjs cpu and wasm, beside
 * the float64 plain-JS analytic-gradient engine of the same model (the floor), measured in the
 * same run; the full fit (Adam + LM) per form; and how many steps Adam alone needs to bring
 * every coefficient within 1 % (why the LM polish exists). Prints figures; asserts nothing.
 */
import { tf } from "../src/lib/engine/tf.js";
import { useBackend } from "../src/lib/engine/backend.js";
import { createRng } from "../src/lib/core/rng.js";
import { columnOf, experimentData, experiments, type Dataset } from "../src/lib/data/index.js";
import { simplifyEquation } from "../src/lib/equation/index.js";
import { structureOfEquations, equationsOfLocal, formOf } from "../src/lib/local/extract.js";
import { fitLocalSync, type FitOptions } from "../src/lib/local/fit.js";
// fitLocalSync on the tfjs engine needs it registered (the library's entry does that).
import "../src/lib/local/fitTfjs.js";
import { exactRecovery } from "../src/lib/metrics/index.js";
import { createSymbolRegistry } from "../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);

function setup(name: string) {
  const experiment = experiments[name]!;
  const { train } = experimentData(experiment, { rng: createRng(0), symbols: lookup });
  return experiment.truth.map((truth) => ({
    truth,
    structure: structureOfEquations([formOf(truth)], train.inputs, registry.names()),
    data: { x: train.x, y: [columnOf(train, truth.target)] },
    train,
  }));
}

/** Marginal ms per Adam step: (time of long run − time of short run) / extra steps, best of 3. */
function msPerStep(form: ReturnType<typeof setup>[number], engine: FitOptions["engine"]): number {
  const run = (steps: number) => {
    const t0 = performance.now();
    fitLocalSync(form.structure, form.data, { symbols: registry, steps, polish: "none", engine, tolerance: 0 });
    return performance.now() - t0;
  };
  run(20); // warm up kernels
  let best = Infinity;
  for (let r = 0; r < 3; r++) best = Math.min(best, (run(320) - run(20)) / 300);
  return best;
}

const pad = (s: string, n: number) => s.padEnd(n);
const syn1 = setup("syn1");
console.log("# Adam step of fitLocal, syn1 (2000 rows), ms per full-batch step");
console.log(
  `${pad("form", 6)}${pad("js (floor)", 12)}${pad("tfjs cpu", 12)}${pad("tfjs wasm", 12)}${pad("cpu/js", 9)}wasm/js`,
);
const rows: number[][] = [];
const perStep: Record<string, number[]> = { js: [], cpu: [], wasm: [] };
await useBackend("cpu");
for (const form of syn1) {
  perStep.js!.push(msPerStep(form, "js"));
  perStep.cpu!.push(msPerStep(form, "tfjs"));
}
await useBackend("wasm");
for (const form of syn1) perStep.wasm!.push(msPerStep(form, "tfjs"));
syn1.forEach((form, k) => {
  const [js, cpu, wasm] = [perStep.js![k]!, perStep.cpu![k]!, perStep.wasm![k]!];
  rows.push([js, cpu, wasm]);
  console.log(
    `${pad(form.truth.target, 6)}${pad(js.toFixed(3), 12)}${pad(cpu.toFixed(3), 12)}${pad(wasm.toFixed(3), 12)}` +
      `${pad(`${(cpu / js).toFixed(1)}×`, 9)}${(wasm / js).toFixed(1)}×`,
  );
});
const mean = (k: number) => rows.reduce((s, r) => s + r[k]!, 0) / rows.length;
console.log(
  `${pad("mean", 6)}${pad(mean(0).toFixed(3), 12)}${pad(mean(1).toFixed(3), 12)}${pad(mean(2).toFixed(3), 12)}` +
    `${pad(`${(mean(1) / mean(0)).toFixed(1)}×`, 9)}${(mean(2) / mean(0)).toFixed(1)}×`,
);

console.log("\n# Full fit from the all-ones init (200 Adam steps at lr 1e-2 + LM), ms per form, median of 3");
await useBackend("cpu");
for (const name of ["syn1", "syn2"]) {
  for (const form of setup(name)) {
    const cells: string[] = [];
    for (const engine of ["js", "tfjs"] as const) {
      const times: number[] = [];
      let nrmse = NaN;
      let lm = 0;
      for (let r = 0; r < 3; r++) {
        const fit = fitLocalSync(form.structure, form.data, { symbols: registry, engine });
        times.push(fit.ms);
        nrmse = fit.trainNrmse[0]!;
        lm = fit.polishIterations;
      }
      times.sort((a, b) => a - b);
      cells.push(
        `${engine === "js" ? "js" : "tfjs cpu"} ${times[1]!.toFixed(0)} ms ` +
          `(LM ${lm} it, NRMSE ${nrmse.toExponential(1)})`,
      );
    }
    console.log(`${name} ${form.truth.target}: ${cells.join("; ")}`);
  }
}

console.log("\n# Adam alone (no polish, float64 engine): steps until every coefficient is within 1 % (cap 20000)");
function stepsToOnePercent(
  form: ReturnType<typeof setup>[number],
  learningRate: number,
  train: Dataset,
): number | null {
  const order = {
    symbols: lookup,
    inputOrder: train.inputs,
    symbolOrder: registry.names(),
    columns: (c: string) => columnOf(train, c),
    rows: train.rows,
  };
  const truth = simplifyEquation(form.truth, order);
  // Bisection over step counts would assume monotone convergence; scan in blocks instead.
  for (let steps = 25; steps <= 20000; steps = Math.ceil(steps * 1.25)) {
    const fit = fitLocalSync(form.structure, form.data, {
      symbols: registry,
      steps,
      learningRate,
      polish: "none",
      engine: "js",
      tolerance: 0,
    });
    const [raw] = equationsOfLocal(form.structure, fit.weights, lookup);
    if (exactRecovery(truth, simplifyEquation(raw!, order), lookup).exact) return steps;
  }
  return null;
}
for (const name of ["syn1", "syn2"]) {
  for (const form of setup(name)) {
    const cells = [0.01, 0.05].map((lr) => `lr ${lr}: ${stepsToOnePercent(form, lr, form.train) ?? "> 20000"}`);
    console.log(`${name} ${form.truth.target}: ${cells.join(", ")}`);
  }
}
