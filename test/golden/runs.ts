/**
 * GOLDEN runs: the committed searches the golden test re-runs (test/search/golden.test.ts). Each run is
 * reduced to what a search decides (equations, the path's counts, the stop reason, the reward
 * of every episode), never to wall-clock times. `npm run golden -- --update` rewrites
 * test/golden/search.json; do that only in a commit that changes search behaviour on purpose.
 */
import { createRng } from "../../src/lib/core/rng.js";
import { benchmarkData, benchmarkEntry } from "../../src/lib/data/benchmark.js";
import { prepareRun, runPrepared } from "../../src/lib/run/index.js";
import { search } from "../../src/lib/search/index.js";
import { createArgminSolver } from "../../src/lib/search/argmin.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { createJobRunner, type Job } from "../../bench/searchSuite.js";
import { beyondData, beyondEntries } from "../../src/lib/data/beyond.js";
import { fit } from "../../src/lib/api/index.js";

/** Suite jobs: each method, each stop reason, recovered and missed, noiseless and 100 dB. */
export const GOLDEN_JOBS: Job[] = [
  { method: "consolesr", equation: "feynman-II.8.31", seed: 2 },
  { method: "consolesr", equation: "livermore-10", seed: 0 },
  { method: "consolesr", equation: "koza-2", seed: 2 },
  { method: "consolesr", equation: "keijzer-1", seed: 4 },
  { method: "consolesr", equation: "feynman-I.12.1", seed: 3 },
  { method: "consolesr", equation: "constant-5", seed: 0, snrDb: 100 },
  { method: "random", equation: "feynman-I.39.22", seed: 0 },
  { method: "random", equation: "keijzer-1", seed: 1 },
  { method: "random", equation: "feynman-II.27.16", seed: 4 },
  { method: "enumerate", equation: "feynman-II.4.23", seed: 2 },
  { method: "enumerate", equation: "feynman-I.13.12", seed: 3 },
].map((j) => ({ snrDb: null, budget: 200, episodes: 4000, rows: 500, ...j }) as Job);

/**
 * A new user's defaults (unsized, the noise not told) at 20 dB: the noise floor, its wider sizes
 * and the pruning of the answer's terms.
 */
export const GOLDEN_NOISE_JOBS: Job[] = [
  { equation: "koza-2", seed: 0 },
  { equation: "livermore-20", seed: 2 },
].map(
  (j) =>
    ({
      method: "consolesr",
      snrDb: 20,
      budget: 0,
      episodes: 600,
      rows: 500,
      mode: "unsized",
      announce: false,
      ...j,
    }) as Job,
);

/** The beyond family through fit() with its defaults: laws of each form (an outer function, a ratio, a monomial). */
export const GOLDEN_FORMS = ["transform-1", "ratio-7", "monomial-4", "monomial-8", "monomial-3"];

export type GoldenRecord = Record<string, unknown>;

/** What a suite job decided: its record without the times (and firstHolds, a bench measure made after it). */
async function suiteRuns(): Promise<Record<string, GoldenRecord>> {
  const run = await createJobRunner();
  const out: Record<string, GoldenRecord> = {};
  for (const job of [...GOLDEN_JOBS, ...GOLDEN_NOISE_JOBS]) {
    const { seconds: _s, cpuSeconds: _c, fitSeconds: _f, firstHolds: _h, ...record } = await run(job);
    out[jobName(job)] = record;
  }
  return out;
}

export const jobName = (job: Job) =>
  `${job.method} ${job.equation} seed ${job.seed}${job.snrDb === null ? "" : ` ${job.snrDb} dB`}` +
  (job.mode === "unsized" ? " unsized" : "");

/** A beyond law through fit(), 500 rows, seed 0: the result JSON without its times and manifest. */
async function formRun(id: string): Promise<GoldenRecord> {
  const entry = beyondEntries.find((e) => e.id === id)!;
  const { train } = beyondData(entry, { seed: 0, rows: 500 });
  const X = Array.from({ length: train.rows }, (_, r) => train.x.map((column) => column[r]!));
  const result = await fit({ X, y: train.y[0]!, names: train.inputs, seed: 0 });
  const { manifest: _m, search, ...rest } = JSON.parse(JSON.stringify(result));
  const { seconds: _s, ...decided } = search;
  return { ...rest, search: decided };
}

/** `consolesr run syn1 --seed 0`: the whole result JSON but the manifest (git sha, version). */
async function syn1Run(): Promise<GoldenRecord> {
  const registries = createRegistries();
  const output = await runPrepared(prepareRun({ experiment: "syn1", seed: 0 }, { registries }), { backend: "cpu" });
  const { manifest, ...rest } = JSON.parse(JSON.stringify(output.result));
  return { ...rest, seed: manifest.seed, rewards: output.search!.outputs.map((o) => o.rewards) };
}

/** `--method paper` (Algorithm 2 as written) on a small suite job: every episode's reward. */
async function paperRun(): Promise<GoldenRecord> {
  const registries = createRegistries();
  const entry = benchmarkEntry("feynman-I.12.1");
  const data = benchmarkData(entry, { symbols: registries.symbols, rows: 300, seed: 1 });
  const result = await search(data.train, {
    symbols: registries.symbols,
    pool: entry.pool,
    constraints: ["static", "dynamic"].map((n) => registries.constraints.get(n)),
    reward: registries.rewards.get("inv-nrmse"),
    rng: createRng(11),
    method: "paper",
    argmin: await createArgminSolver(),
    settings: { terms: entry.terms, maxFactors: entry.maxFactors, episodes: 40 },
  });
  const o = result.outputs[0]!;
  return {
    equations: result.equations,
    episodes: o.episodes,
    structures: o.structures,
    stopReason: o.stopReason,
    actions: o.actions,
    rewards: o.rewards,
  };
}

export async function goldenRuns(): Promise<Record<string, GoldenRecord>> {
  const forms: Record<string, GoldenRecord> = {};
  for (const id of GOLDEN_FORMS) forms[`fit ${id} seed 0`] = await formRun(id);
  return {
    "run syn1 seed 0": await syn1Run(),
    "paper feynman-I.12.1": await paperRun(),
    ...(await suiteRuns()),
    ...forms,
  };
}
