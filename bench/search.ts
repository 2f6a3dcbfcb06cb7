/**
 * `npm run bench` (second part): the structure search on syn1 and syn2 — seconds and episodes
 * to recovery, distinct structures fitted, fits per second — and, on syn1, the structures
 * fitted before recovery with and without the static and dynamic constraint plugins.
 * Prints figures; asserts nothing. Exact recovery is judged against the truth after the search.
 */
import { tf } from "../src/lib/engine/tf.js";
import { createRng } from "../src/lib/core/rng.js";
import { experimentData, experiments } from "../src/lib/data/index.js";
import { evaluateExperiment } from "../src/lib/run/evaluate.js";
import { search } from "../src/lib/search/index.js";
import { createArgminSolver } from "../src/lib/search/argmin.js";
import { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } from "../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
await tf.setBackend("cpu");
const symbols = createSymbolRegistry();
const argmin = await createArgminSolver();
const reward = createRewardRegistry().get("inv-nrmse");
const seed = Number(process.env.SEED ?? 0);

async function runExperiment(name: string, constraintNames: string[], runSeed = seed) {
  const experiment = experiments[name]!;
  const rng = createRng(runSeed);
  const data = experimentData(experiment, { rng, symbols: (n) => symbols.get(n) });
  const started = performance.now();
  const result = await search(data.train, {
    symbols,
    pool: experiment.symbols,
    constraints: constraintNames.map((n) => createConstraintRegistry().get(n)),
    reward,
    rng: rng.fork(),
    argmin,
    settings: { ...experiment.search },
  });
  const seconds = (performance.now() - started) / 1000;
  const evaluation = evaluateExperiment(experiment, result.simplified, data, symbols);
  return { result, seconds, evaluation };
}

console.log(`# Structure search (consolesr method, seed ${seed}, 2000 rows, T = 600 per output)`);
console.log("experiment  output  exact  episodes  structures  search s  fit s  fits/s");
for (const name of ["syn1", "syn2"]) {
  const { result, seconds, evaluation } = await runExperiment(name, ["static", "dynamic"]);
  result.outputs.forEach((o, k) => {
    const e = evaluation[k]!;
    console.log(
      `${name.padEnd(12)}${o.target.padEnd(8)}${(e.exact ? "yes" : "no").padEnd(7)}${String(o.episodes).padEnd(10)}` +
        `${String(o.structures).padEnd(12)}` +
        `${"".padEnd(10)}${o.fitSeconds.toFixed(1).padEnd(7)}` +
        `${(o.structures / Math.max(o.fitSeconds, 1e-9)).toFixed(0)}`,
    );
  });
  const exact = evaluation.filter((e) => e.exact).length;
  console.log(
    `${name.padEnd(12)}${"all".padEnd(8)}${`${exact}/3`.padEnd(7)}${String(result.episodes).padEnd(10)}` +
      `${String(result.structures).padEnd(12)}${seconds.toFixed(1).padEnd(10)}`,
  );
}

console.log(
  "\n# Constraints earn their keep? syn1, distinct structures fitted until each output is recovered, seeds 0–4",
);
for (const constraints of [["static", "dynamic"], []]) {
  const totals: string[] = [];
  let missed = 0;
  for (let s = 0; s < 5; s++) {
    const { result, evaluation } = await runExperiment("syn1", constraints, s);
    missed += evaluation.filter((e) => !e.exact).length;
    totals.push(`${result.outputs.map((o) => o.structures).join("/")}`);
  }
  const sums = totals.map((t) => t.split("/").reduce((a, b) => a + Number(b), 0));
  console.log(
    `${(constraints.length ? constraints.join("+") : "none").padEnd(16)}per seed (y1/y2/y3): ${totals.join(", ")}; ` +
      `total ${sums.reduce((a, b) => a + b, 0)}; equations missed ${missed}`,
  );
}
