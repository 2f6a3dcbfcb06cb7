/**
 * The pieces of the paper's ablation (§5.4) that are new code: the non-convex Q-network
 * (`qNetwork: "mlp"`: the ICNN without its convexity constraint, greedy action by sampling), and
 * BFGS in place of Adam + LM (`fit.polish: "bfgs"`). Also the committed sweep specs parse and
 * expand to the grids the Ablation and Sensitivity pages report. No timing assertions.
 */
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import { columnOf, experimentData, experiments } from "../../src/lib/data/index.js";
import { parseForm } from "../../src/lib/equation/index.js";
import { structureOfEquations } from "../../src/lib/local/extract.js";
import { fitLocalSync } from "../../src/lib/local/fit.js";
// fitLocalSync on the tfjs engine needs it registered (the library's entry does that).
import "../../src/lib/local/fitTfjs.js";
import { createRng } from "../../src/lib/core/rng.js";
import { Icnn } from "../../src/lib/search/icnn.js";
import { resolvePipelineConfig, pipelineData, runPipeline } from "../../src/lib/run/index.js";
import { resultToJson } from "../../src/lib/result/result.js";
import { createSymbolRegistry, createRegistries } from "../../src/lib/plugins/builtin.js";
import { parseSweepSpec } from "../../src/lib/index.js";

await useBackend("cpu");
const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);

/** f at the midpoint of a and b against the chord: positive means a convexity violation. */
function midpointGap(net: Icnn, s: number[], a: number[], b: number[]): number {
  const mid = a.map((v, i) => (v + b[i]!) / 2);
  return net.value(s, mid) - (net.value(s, a) + net.value(s, b)) / 2;
}

test("an ICNN with convex: false trains freely and is no longer convex; the default stays convex", () => {
  const shape = { state: 2, action: 3, hidden: [16, 16] };
  const rng = createRng(4);
  const states: number[][] = [];
  const actions: number[][] = [];
  const targets: number[] = [];
  // A concave target in the action: −|a|² (a convex net cannot fit it).
  for (let i = 0; i < 400; i++) {
    const s = [rng.next(), rng.next()];
    const a = [rng.next() * 2 - 1, rng.next() * 2 - 1, rng.next() * 2 - 1];
    states.push(s);
    actions.push(a);
    targets.push(-(a[0]! ** 2 + a[1]! ** 2 + a[2]! ** 2) + s[0]!);
  }
  const worstGap = (net: Icnn) => {
    let worst = -Infinity;
    const probe = createRng(9);
    for (let i = 0; i < 200; i++) {
      const s = [probe.next(), probe.next()];
      const a = [probe.next() * 2 - 1, probe.next() * 2 - 1, probe.next() * 2 - 1];
      const b = [probe.next() * 2 - 1, probe.next() * 2 - 1, probe.next() * 2 - 1];
      worst = Math.max(worst, midpointGap(net, s, a, b));
    }
    return worst;
  };
  const nets = [new Icnn(shape, createRng(1)), new Icnn({ ...shape, convex: false }, createRng(1))];
  for (const net of nets)
    net.train(states, actions, targets, { epochs: 60, learningRate: 1e-2, batchSize: 32, rng: createRng(2) });
  const [convex, plain] = nets as [Icnn, Icnn];
  assert.ok(convex.minZWeight() >= 0, `the ICNN has a negative z weight ${convex.minZWeight()}`);
  assert.ok(worstGap(convex) <= 1e-9, `the ICNN broke convexity by ${worstGap(convex)}`);
  assert.ok(plain.minZWeight() < 0, "the non-convex net kept every z weight ≥ 0");
  assert.ok(worstGap(plain) > 1e-3, `the non-convex net stayed convex (largest midpoint gap ${worstGap(plain)})`);
  // A clone keeps the flag; nets of different convexity do not copy into each other.
  assert.equal(plain.clone().shape.convex, false);
  assert.throws(() => convex.copyFrom(plain), /different shapes/);
});

test("BFGS alone (polish bfgs: no Adam, no LM) fits a structure with inner weights to the data", () => {
  const { train } = experimentData(experiments.syn1!, { rng: createRng(3), symbols: lookup, rows: 300 });
  const [form] = parseForm("y3 = x3^2", { symbols: registry.values(), inputs: train.inputs, targets: train.targets });
  const structure = structureOfEquations([form!], train.inputs, registry.names());
  const data = { x: train.x, y: [columnOf(train, "y3")] };
  const fit = fitLocalSync(structure, data, { symbols: registry, polish: "bfgs", engine: "js", starts: "single" });
  assert.equal(fit.steps, 0, "Adam ran under polish bfgs");
  assert.ok(fit.polishIterations > 0, "BFGS took no iteration");
  assert.ok(fit.trainNrmse[0]! < 1e-6, `BFGS left NRMSE ${fit.trainNrmse[0]} on y3 = 3·x3²`);
  // The same structure without any optimiser stays at the all-ones start: BFGS did the work.
  const none = fitLocalSync(structure, data, { symbols: registry, steps: 0, polish: "none", starts: "single" });
  assert.ok(none.trainNrmse[0]! > 0.1, `the start already fitted (NRMSE ${none.trainNrmse[0]})`);
});

test("qNetwork mlp and polish bfgs run through the pipeline, deterministic and recorded in the manifest", async () => {
  const run = async (search: Record<string, unknown>, fit: Record<string, unknown> = {}) => {
    const registries = createRegistries();
    const config = resolvePipelineConfig(
      { experiment: "syn1", seed: 1, rows: 300, method: "paper", search: { episodes: 12, ...search }, fit },
      registries,
    );
    const data = pipelineData(config, { registries });
    return resultToJson((await runPipeline({ config, data, registries, backend: "cpu" })).result);
  };
  const a = await run({ qNetwork: "mlp" });
  const b = await run({ qNetwork: "mlp" });
  assert.equal(a, b, "one seed gave two different results with qNetwork mlp");
  const icnn = await run({});
  const parsed = JSON.parse(a);
  assert.equal(parsed.manifest.config.qNetwork, "mlp");
  assert.equal(JSON.parse(icnn).manifest.config.qNetwork, "icnn");
  assert.notEqual(
    JSON.stringify(JSON.parse(icnn).search),
    JSON.stringify(parsed.search),
    "the non-convex search decided exactly like the ICNN one",
  );
  const bfgs = JSON.parse(await run({}, { polish: "bfgs" }));
  assert.equal(bfgs.manifest.config.fit.polish, "bfgs");
});

test("the ablation and sensitivity specs expand to the paper's grids", () => {
  const spec = (name: string) =>
    parseSweepSpec(JSON.parse(readFileSync(new URL(`../../sweeps/${name}.json`, import.meta.url), "utf8")), name);
  const ablation = spec("ablation");
  assert.deepEqual(ablation.experiments, ["syn1", "syn2"]);
  assert.deepEqual(ablation.methods, ["paper", "consolesr"]);
  assert.deepEqual(
    ablation.variants.map((v) => v.name),
    ["as-is", "no-exploration", "non-convex-q", "bfgs-fit", "no-static-constraint", "no-dynamic-constraint"],
  );
  assert.deepEqual(spec("sensitivity-snr").snr, [80, 90, 100, 110, 120]);
  const rows = spec("sensitivity-rows");
  assert.deepEqual(rows.rows, [500, 1000, 1500, 2000, 2500]);
  assert.deepEqual(rows.snr, [100]);
  // A variant naming a setting outside its bounds is refused with the setting named.
  assert.throws(
    () =>
      resolvePipelineConfig(
        { experiment: "syn1", method: "paper", search: { qNetwork: "convex" as never } },
        createRegistries(),
      ),
    (error: Error) => error.name === "InputError" && /qNetwork/.test(error.message),
  );
});
