// Data loader for src/docs/syn1.md (paper §5.1, Table 1): the search on syn1, exactly as
// `npx consolesr run syn1 --seed 0 --out syn1.json` runs it (same data draw, same rng forks,
// same settings), plus what the page plots: the reward per episode and the Pareto front per output.
// Prints one JSON on stdout (nothing on stderr).
// Reproduce: `npx tsx src/docs/data/syn1.json.ts > syn1.json` (or `npx observable build`, which runs it).
import {execSync} from "node:child_process";
import {columnOf} from "../../lib/data/dataset.js";
import {experimentData, experiments} from "../../lib/data/index.js";
import {equationLatex, simplifyEquation} from "../../lib/equation/index.js";
import {evaluateExperiment} from "../../lib/evaluate.js";
import {createRng} from "../../lib/rng.js";
import {search} from "../../lib/search/index.js";
import {VERSION} from "../../lib/version.js";
import {createConstraintRegistry, createRewardRegistry, createSymbolRegistry} from "../../plugins/index.js";

const started = performance.now();
const SEED = 0;
const ROWS = 2000;
const experiment = experiments.syn1!;
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const constraints = createConstraintRegistry();
const rewards = createRewardRegistry();

let sha = "unknown";
try {
  sha = execSync("git rev-parse HEAD", {encoding: "utf8", stdio: ["ignore", "pipe", "ignore"]}).trim();
} catch {
  // not a git checkout: keep "unknown"
}

// The CLI's `run`: one rng for the data, its fork for the search; the CLI's fit defaults in the search.
const rng = createRng(SEED);
const data = experimentData(experiment, {rng, symbols: lookup, rows: ROWS});
const CONSTRAINTS = ["static", "dynamic"];
const REWARD = "inv-nrmse";
const t0 = performance.now();
const result = await search(data.train, {
  symbols,
  pool: [...experiment.symbols],
  constraints: CONSTRAINTS.map((c) => constraints.get(c)),
  reward: rewards.get(REWARD),
  rng: rng.fork(),
  settings: {...experiment.search, fit: {steps: 50, learningRate: 0.01, polish: "lm", engine: "js"}},
  onEpisode: () => {}
});
const searchMs = performance.now() - t0;
const evaluation = evaluateExperiment(experiment, result.simplified, data, symbols);

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
      seed: SEED,
      experiment: experiment.name,
      rows: ROWS,
      config: {experiment: experiment.name, rows: ROWS, snrDb: null, symbols: experiment.symbols, constraints: CONSTRAINTS, reward: REWARD, ...result.settings},
      version: VERSION,
      git: sha,
      backend: "js",
      searchMs: Math.round(searchMs),
      totalMs: Math.round(performance.now() - started)
    },
    description: experiment.description,
    trainRange: experiment.trainRange,
    testRange: experiment.testRange,
    equations: result.equations.map((e) => ({target: e.target, text: e.text, latex: e.latex, trainNrmse: e.trainNrmse})),
    evaluation: evaluation.map((e) => ({...e, truthLatex: truthLatex[e.target]})),
    search: {episodes: result.episodes, structures: result.structures, stopReason: result.stopReason},
    outputs: result.outputs.map((o) => ({
      target: o.target,
      episodes: o.episodes,
      structures: o.structures,
      stopReason: o.stopReason,
      actions: o.actions,
      fitSeconds: round(o.fitSeconds, 4),
      rewards: o.rewards.map((r) => round(r, 8))
    })),
    front: result.front
  })
);
