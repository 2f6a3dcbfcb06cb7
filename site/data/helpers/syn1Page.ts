/**
 * What site/data/syn1.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/syn1.md (paper §5.1, Table 1): the search on syn1 through the pipeline
 * `npx consolesr run syn1 --seed 0 --out syn1.json` runs (src/lib/run/pipeline.ts: same config, data
 * draw, rng streams and result), plus what the page plots: the reward per episode and the Pareto front per output.
 * Prints one JSON on stdout (nothing on stderr); the shape is experimentPage.ts's, shared with syn2.json.ts.
 * Reproduce: `npx tsx site/data/syn1.json.ts > syn1.json` (or `npx observable build`, which runs it).
 */
import { createRegistries, experiments, prepareRun, resultToJson, runPrepared } from "../../../src/lib/index.js";
import { gitSha } from "../../../src/cli/git.js";
import { experimentPageJson, round, truthLatexOf } from "./experimentPage.js";

export async function syn1Page(): Promise<string> {
  const started = performance.now();
  const SEED = 0;
  const ROWS = 2000;
  const experiment = experiments.syn1!;
  const registries = createRegistries();

  // The CLI's `run syn1 --seed 0` through the same pipeline: the same config, data draw and search.
  // The search fits on the float64 engine, so no tfjs backend is needed here: the manifest says "js".
  const prepared = prepareRun({ experiment: experiment.name, seed: SEED, rows: ROWS }, { registries });
  const { data } = prepared;
  const t0 = performance.now();
  const { result: json, search } = await runPrepared(prepared, { git: gitSha(), backend: "js" });
  const searchMs = performance.now() - t0;
  return JSON.stringify({
    ...experimentPageJson({
      experiment,
      result: json,
      evaluation: json.evaluation!,
      truthLatex: truthLatexOf(experiment, data, registries.symbols),
      searchMs,
      totalMs: performance.now() - started,
      outputs: search!.outputs.map((o) => ({
        target: o.target,
        episodes: o.episodes,
        structures: o.structures,
        stopReason: o.stopReason,
        actions: o.actions,
        fitSeconds: round(o.fitSeconds, 4),
        rewards: o.rewards.map((r) => round(r, 8)),
      })),
    }),
    // The run's version-1 JSON, the bytes `run syn1 --seed 0 --out` writes: the page's download
    // and the "published" side of its re-run form.
    resultText: resultToJson(json),
  });
}
