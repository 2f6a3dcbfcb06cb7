// Data loader for src/docs/syn1.md (paper §5.1, Table 1): the search on syn1 through the pipeline
// `npx consolesr run syn1 --seed 0 --out syn1.json` runs (src/lib/pipeline.ts: same config, data
// draw, rng streams and result), plus what the page plots: the reward per episode and the Pareto front per output.
// Prints one JSON on stdout (nothing on stderr).
// Reproduce: `npx tsx src/docs/data/syn1.json.ts > syn1.json` (or `npx observable build`, which runs it).
import {execSync} from "node:child_process";
import {columnOf} from "../../lib/data/dataset.js";
import {experiments} from "../../lib/data/index.js";
import {equationLatex, simplifyEquation} from "../../lib/equation/index.js";
import {pipelineData, resolvePipelineConfig, runPipeline} from "../../lib/pipeline.js";
import {createRegistries} from "../../plugins/index.js";

const started = performance.now();
const SEED = 0;
const ROWS = 2000;
const experiment = experiments.syn1!;
const registries = createRegistries();
const symbols = registries.symbols;
const lookup = (name: string) => symbols.get(name);

let sha = "unknown";
try {
  sha = execSync("git rev-parse HEAD", {encoding: "utf8", stdio: ["ignore", "pipe", "ignore"]}).trim();
} catch {
  // not a git checkout: keep "unknown"
}

// The CLI's `run syn1 --seed 0` through the same pipeline: the same config, data draw and search.
// The search fits on the float64 engine, so no tfjs backend is needed here: the manifest says "js".
const config = resolvePipelineConfig({experiment: experiment.name, seed: SEED, rows: ROWS}, registries);
const data = pipelineData(config, {registries});
const t0 = performance.now();
const {result: json, search} = await runPipeline({data, config, registries, git: sha, backend: "js"});
const searchMs = performance.now() - t0;
const result = search!;
const evaluation = json.evaluation!;

// The truth in LaTeX, simplified the way evaluateExperiment simplifies it.
const simplifyOptions = {
  symbols: lookup,
  inputOrder: data.train.inputs,
  symbolOrder: symbols.names(),
  columns: (name: string) => columnOf(data.train, name),
  rows: data.train.rows
};
const truthLatex = Object.fromEntries(experiment.truth.map((t) => [t.target, equationLatex(simplifyEquation(t, simplifyOptions), lookup)]));

const round = (v: number, digits = 6) => (Number.isFinite(v) ? Number(v.toPrecision(digits)) : null);

process.stdout.write(
  JSON.stringify({
    manifest: {
      seed: json.manifest.seed,
      experiment: experiment.name,
      rows: ROWS,
      config: json.manifest.config,
      version: json.manifest.version,
      git: json.manifest.git,
      backend: json.manifest.backend,
      searchMs: Math.round(searchMs),
      totalMs: Math.round(performance.now() - started)
    },
    description: experiment.description,
    trainRange: experiment.trainRange,
    testRange: experiment.testRange,
    equations: json.equations.map((e) => ({target: e.target, text: e.text, latex: e.latex, trainNrmse: e.trainNrmse})),
    evaluation: evaluation.map((e) => ({...e, truthLatex: truthLatex[e.target]})),
    search: {episodes: json.search.episodes, structures: json.search.structures, stopReason: json.search.stopReason},
    outputs: result.outputs.map((o) => ({
      target: o.target,
      episodes: o.episodes,
      structures: o.structures,
      stopReason: o.stopReason,
      actions: o.actions,
      fitSeconds: round(o.fitSeconds, 4),
      rewards: o.rewards.map((r) => round(r, 8))
    })),
    front: json.search.front
  })
);
