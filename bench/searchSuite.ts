/**
 * `npm run bench:search`: the structure search against its baselines on the benchmark suite
 * (src/lib/data/benchmark.ts). For every method × seed × equation × noise level it runs the search
 * with the same structure budget per output, then — after the search, for metrics only — judges
 * the answer against the truth. Jobs run in parallel child processes (`--jobs`, default the number
 * of CPUs); each job is deterministic given (method, seed, equation, noise).
 *
 *   --methods consolesr,random,enumerate   --seeds 0..4   --equations <ids or families>
 *   --noise 0 (0: noiseless; else SNR in dB, e.g. 0,100)   --budget 200   --rows 500   --jobs N
 *   --out site/data/search-benchmark.json   --time-limit 0 (seconds per search; 0: none)
 *
 * `--budget 0` runs with no structure budget (a new user's flags). `--equations products,offgrid,flow`
 * (or `stress`) runs the stress families of src/lib/data/stress.ts, which the default selection
 * leaves out; in `--mode unsized` an entry's `unsizedPool` is the pool (Flow: `--symbols x`).
 *
 * "recovered" means: the search stopped by its reward threshold and its answer is an exact
 * recovery of the truth; then `structuresToRecovery` is the number of distinct structures it had
 * fitted, which is when the recovered equation was first fitted (the search stops on that fit).
 */
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { fileURLToPath } from "node:url";
import {
  benchmarkData,
  benchmarkEntries,
  benchmarkEntry,
  benchmarkExcluded,
  type BenchmarkEntry,
} from "../src/lib/data/benchmark.js";
import { stressEntries } from "../src/lib/data/stress.js";
import { columnOf } from "../src/lib/data/dataset.js";
import { evaluateEquation } from "../src/lib/equation/evaluate.js";
import { formOf } from "../src/lib/local/extract.js";
import { equationText } from "../src/lib/equation/format.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
import type { Equation } from "../src/lib/equation/types.js";
import { fitForm } from "../src/lib/run/fitForm.js";
import { exactRecovery } from "../src/lib/metrics/recovery.js";
import { nrmse } from "../src/lib/numeric/nrmse.js";
import { equationLeaveOneOut } from "../src/lib/metrics/leaveOneOut.js";
import { createRng } from "../src/lib/core/rng.js";
import { parametersOf, SEARCH_METHOD_NAMES, type SearchMethod, type SearchSettings } from "../src/lib/search/index.js";
import { frontScoreOf } from "../src/lib/search/hallOfFame.js";
import type { Dataset } from "../src/lib/data/dataset.js";
import { VERSION } from "../src/lib/core/version.js";
import { gitSha } from "../src/cli/git.js";

const METHODS: SearchMethod[] = SEARCH_METHOD_NAMES;
const OUT = "site/data/search-benchmark.json";
/** The search's fit (the CLI's search defaults): 50 float64 Adam steps at lr 1e-2, then LM. */
const FIT = { engine: "js", steps: 50, learningRate: 0.01, polish: "lm" } as const;
const CONSTRAINTS = ["static", "dynamic"];
const REWARD = "inv-nrmse";

export interface Job {
  method: SearchMethod;
  seed: number;
  equation: string;
  /** SNR in dB of the training target's noise; null: noiseless. */
  snrDb: number | null;
  budget: number;
  episodes: number;
  rows: number;
  /**
   * "sized": the suite's pool, terms and maxFactors; "unsized": every registered
   * symbol and a size that grows by itself (a new user's default flags).
   */
  mode?: "sized" | "unsized";
  /**
   * false: the noise level is not told to the search (no stopNrmse from the SNR: the default 1e-6
   * and the noise floor it estimates itself, as a new user's `fit`); the record then also holds
   * the oracle (bench/noiseSuite.ts). Default true: stopNrmse from the SNR, noise floor off.
   */
  announce?: boolean;
  /** A wall-clock limit of the search in seconds (0 or absent: none). */
  timeLimit?: number;
}

export interface RunRecord extends Job {
  /** Stopped by the reward threshold with an exact recovery. */
  recovered: boolean;
  /** The final answer is an exact recovery (also when the search stopped by the budget). */
  exact: boolean;
  /** Distinct structures fitted when the recovered equation was fitted; null if not recovered. */
  structuresToRecovery: number | null;
  structures: number;
  /** Library columns screened by linear algebra (evaluated, not fitted; 0 when none). */
  screened: number;
  /** The size the search reached. */
  terms: number;
  maxFactors: number;
  episodes: number;
  seconds: number;
  /** Search CPU (process.cpuUsage() around the search; absent in files made before it was recorded). */
  cpuSeconds?: number;
  fitSeconds: number;
  stopReason: string;
  stopNrmse: number;
  learned: string;
  truth: string;
  trainNrmse: number;
  testNrmse: number;
  coefficientError: number;
  /** Why the answer is not exact ("" when it is). */
  reason: string;
  /** Train NRMSE of the true structure fitted with the search's fitter (for the reasons only). */
  truthFitNrmse: number;
  /** The answer has the truth's terms (after simplification), whatever its coefficients. */
  structureMatch?: boolean;
  /** The search's noise estimate (NRMSE) and the floor it used (null: none). */
  noiseEstimate?: number;
  floor?: number | null;
  /**
   * Unannounced noise only: does the true structure, fitted with its form, beat its sub-structures
   * (a term dropped) and super-structures (an input added as a term) by the answer rule's score?
   */
  oracle?: boolean;
  /** The best structure of the first episode is the final answer's (absent: no episode ran). */
  firstHolds?: boolean;
  /** Under noise, the answer's closest rival and its score gap where the search called the answer ambiguous. */
  ambiguous?: { rival: string; gap: number };
  error?: string;
}

/** The stop rule: 1e-6 noiseless (the consolesr default); 2× the noise's NRMSE floor with noise. */
export const stopNrmseFor = (snrDb: number | null): number => (snrDb === null ? 1e-6 : 2 * 10 ** (-snrDb / 20));

/** A 32-bit seed of the search's RNG from the job (method excluded: every method gets the same stream). */
function searchSeed(seed: number, equation: string): number {
  let h = 2166136261 ^ seed;
  for (const ch of equation) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

// ------------------------------------------------------------------------------------------------
// worker: one job at a time, inside a child process

/**
 * One job run in this process: the search with the job's settings (plus `overrides`, for
 * ablations), then the judgement against the truth. Used by the workers and bench/ablation.ts.
 */
export async function createJobRunner(): Promise<
  (job: Job, overrides?: Partial<SearchSettings>) => Promise<RunRecord>
> {
  const { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } = await import(
    "../src/lib/plugins/builtin.js"
  );
  const { search } = await import("../src/lib/search/index.js");
  const { createArgminSolver } = await import("../src/lib/search/argmin.js");
  const symbols = createSymbolRegistry();
  const lookup = (name: string) => symbols.get(name);
  const constraints = CONSTRAINTS.map((n) => createConstraintRegistry().get(n));
  const reward = createRewardRegistry().get(REWARD);
  const argmin = await createArgminSolver();

  return async (job: Job, overrides: Partial<SearchSettings> = {}): Promise<RunRecord> => {
    const entry = benchmarkEntry(job.equation);
    const data = benchmarkData(entry, { symbols, rows: job.rows, seed: job.seed, snrDb: job.snrDb ?? undefined });
    const announced = job.announce !== false;
    const stopNrmse = announced ? stopNrmseFor(job.snrDb) : 1e-6;
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const unsized = job.mode === "unsized";
    // The first episode's best and its rival without the constant (the answer rule weighs both).
    let first: string[] | undefined;
    const result = await search(data.train, {
      onEpisode: (event) => {
        first ??= [event.best.key, ...(event.best.plain ? [event.best.plain.key] : [])];
      },
      symbols,
      // Unsized: a new user's default (every symbol), or the pool the entry's user passes by --symbols.
      pool: unsized ? (entry.unsizedPool ?? symbols.names()) : entry.pool,
      constraints,
      reward,
      rng: createRng(searchSeed(job.seed, job.equation)),
      method: job.method,
      argmin,
      settings: {
        terms: unsized ? 0 : entry.terms,
        maxFactors: unsized ? 0 : entry.maxFactors,
        budget: job.budget,
        episodes: job.episodes,
        // Announced noise: the stop NRMSE from the SNR and no floor of the search's own (as before it existed).
        ...(announced ? { stopNrmse, ...(job.snrDb === null ? {} : { noiseFloor: false }) } : {}),
        ...(job.timeLimit ? { timeLimit: job.timeLimit } : {}),
        fit: FIT,
        ...overrides,
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    // Everything below is judgement after the search: the truth meets the answer here only.
    const order = {
      symbols: lookup,
      inputOrder: data.train.inputs,
      symbolOrder: symbols.names(),
      columns: (n: string) => columnOf(data.train, n),
      rows: data.train.rows,
    };
    const truth = simplifyEquation(data.truth, order);
    const output = result.outputs[0]!;
    const learned: Equation = result.simplified[0] ?? { target: truth.target, terms: [] };
    const check = exactRecovery(truth, learned, lookup);
    const recovered = check.exact && output.stopReason === "reward-threshold";
    const predicted = evaluateEquation(learned, lookup, (n) => columnOf(data.test, n), data.test.rows);
    const truthFit = fitForm(data.train, [formOf(data.truth)], { symbols, ...FIT });
    const structureMatch = exactRecovery(truth, learned, lookup, Number.POSITIVE_INFINITY).exact;
    const oracle = announced ? undefined : oracleWins(data.train, data.truth, truthFit.simplified[0]!);
    return {
      ...job,
      recovered,
      exact: check.exact,
      structuresToRecovery: recovered ? output.structures : null,
      structures: output.structures,
      episodes: output.episodes,
      seconds: Number(seconds.toFixed(3)),
      cpuSeconds: Number(cpuSeconds.toFixed(3)),
      fitSeconds: Number(output.fitSeconds.toFixed(3)),
      screened: output.screened,
      terms: output.size.terms,
      maxFactors: output.size.maxFactors,
      stopReason: output.stopReason,
      stopNrmse,
      learned: equationText(learned, lookup),
      truth: equationText(truth, lookup),
      trainNrmse: output.best?.nrmse ?? Number.NaN,
      testNrmse: nrmse(columnOf(data.test, truth.target), predicted),
      coefficientError: check.coefficientError,
      reason: check.reason,
      truthFitNrmse: truthFit.equations[0]!.trainNrmse,
      structureMatch,
      noiseEstimate: output.noise.nrmse,
      floor: output.floor ?? null,
      ...(first === undefined ? {} : { firstHolds: output.best !== undefined && first.includes(output.best.key) }),
      ...(oracle === undefined ? {} : { oracle }),
      ...(result.ambiguous[0] ? { ambiguous: { rival: result.ambiguous[0].rival, gap: result.ambiguous[0].gap } } : {}),
    };
  };

  /** The oracle of a job (RunRecord.oracle): the truth's form against its neighbours, by score. */
  function oracleWins(train: Dataset, truth: Equation, truthFitted: Equation): boolean {
    const columns = (n: string) => columnOf(train, n);
    // The answer rule's score (hallOfFame.ts): the left-out NRMSE and the fitted parameters.
    const score = (fitted: Equation, form: Equation) =>
      frontScoreOf(equationLeaveOneOut(fitted, lookup, columns, train.rows), parametersOf(form), train.rows);
    const own = score(truthFitted, truth);
    const neighbours: Equation[] =
      truth.terms.length > 1
        ? truth.terms.map((_, j) => ({ ...truth, terms: truth.terms.filter((_, k) => k !== j) }))
        : [];
    for (const input of train.inputs) {
      const term = { coefficient: 1, factors: [{ symbol: "x", input }] };
      if (
        !truth.terms.some(
          (t) => t.factors.length === 1 && t.factors[0]!.symbol === "x" && t.factors[0]!.input === input,
        )
      )
        neighbours.push({ ...truth, terms: [...truth.terms, term] });
    }
    return neighbours.every((n) => {
      const fitted = fitForm(train, [formOf(n)], { symbols, ...FIT }).simplified[0]!;
      return !(score(fitted, n) <= own);
    });
  }
}

export async function worker(): Promise<void> {
  const run = await createJobRunner();
  process.on("message", (job: Job) => {
    run(job).then(
      (record) => process.send!({ ok: true, record }),
      (error: unknown) =>
        process.send!({ ok: false, job, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.send!({ ready: true });
}

// ------------------------------------------------------------------------------------------------
// parent: flags, the job pool, tables, the JSON

function parseList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseSeeds(text: string): number[] {
  const range = /^(\d+)\.\.(\d+)$/.exec(text.trim());
  if (range) {
    const [lo, hi] = [Number(range[1]), Number(range[2])];
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  }
  return parseList(text).map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--seeds: "${s}" is not a non-negative integer`);
    return n;
  });
}

function parseFlags(argv: string[]) {
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument "${arg}"`);
    const [key, inline] = arg.slice(2).split("=", 2) as [string, string | undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${key} needs a value`);
    flags[key] = value;
  }
  const known = [
    "methods",
    "seeds",
    "equations",
    "noise",
    "budget",
    "episodes",
    "rows",
    "jobs",
    "out",
    "mode",
    "merge",
    "time-limit",
  ];
  for (const key of Object.keys(flags))
    if (!known.includes(key))
      throw new Error(`unknown flag --${key} (known: ${known.map((k) => `--${k}`).join(", ")})`);
  const methods = parseList(flags.methods ?? "consolesr,random,enumerate") as SearchMethod[];
  for (const m of methods)
    if (!METHODS.includes(m)) throw new Error(`--methods: unknown method "${m}" (known: ${METHODS.join(", ")})`);
  const seeds = parseSeeds(flags.seeds ?? "0..4");
  const wanted = flags.equations ? parseList(flags.equations) : [];
  // An id ("feynman-I.12.4") or a family ("feynman", "nguyen") selects; nothing selects all.
  // The stress families (stress.ts) run only when named ("products", "offgrid", "flow", or "stress": all three).
  const all = [...benchmarkEntries, ...stressEntries];
  const selects = (e: BenchmarkEntry, w: string) =>
    e.id === w || e.family.toLowerCase() === w.toLowerCase() || (w === "stress" && stressEntries.includes(e));
  const equations = wanted.length === 0 ? benchmarkEntries : all.filter((e) => wanted.some((w) => selects(e, w)));
  const unknown = wanted.filter((w) => !all.some((e) => selects(e, w)));
  if (unknown.length)
    throw new Error(
      `--equations: unknown "${unknown.join(", ")}" (ids such as ${benchmarkEntries[0]!.id}, or a family)`,
    );
  const noise = parseList(flags.noise ?? "0").map((s) => {
    if (s === "0" || s === "none") return null;
    const db = Number(s);
    if (!Number.isFinite(db) || db <= 0) throw new Error(`--noise: "${s}" is not an SNR in dB (or 0 for noiseless)`);
    return db;
  });
  const int = (name: string, fallback: number, min: number) => {
    const v = flags[name] === undefined ? fallback : Number(flags[name]);
    if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min} (got ${flags[name]})`);
    return v;
  };
  // 0: no structure budget (a new user's default flags; episodes then default to the CLI's 600).
  const budget = int("budget", 200, 0);
  const mode = (flags.mode ?? "sized") as "sized" | "unsized";
  const timeLimit = flags["time-limit"] === undefined ? 0 : Number(flags["time-limit"]);
  if (!(timeLimit >= 0 && Number.isFinite(timeLimit)))
    throw new Error(`--time-limit must be seconds ≥ 0 (got ${flags["time-limit"]})`);
  if (mode !== "sized" && mode !== "unsized") throw new Error(`--mode must be sized or unsized (got "${flags.mode}")`);
  return {
    /** Result files of runs made separately (e.g. one method each) to report as one. */
    merge: parseList(flags.merge ?? ""),
    mode,
    timeLimit,
    methods,
    seeds,
    equations,
    noise,
    budget,
    // Enough episodes that the structure budget binds (random and enumerate repeat cached structures).
    episodes: int("episodes", budget === 0 ? 600 : 20 * budget, 1),
    rows: int("rows", 500, 10),
    jobs: int("jobs", availableParallelism(), 1),
    out: flags.out ?? (mode === "unsized" ? OUT.replace(".json", "-unsized.json") : OUT),
  };
}

export const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function gitInfo(): { sha: string; dirty: boolean } {
  const sha = gitSha();
  try {
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() !== "";
    return { sha, dirty };
  } catch {
    return { sha, dirty: false };
  }
}

/** Runs every job on `jobs` child processes; a crashed child fails its job and is replaced. */
export async function runPool(
  jobs: Job[],
  parallel: number,
  onDone: (record: RunRecord, done: number) => void,
  /** The script its children run with --worker (default this file; a bundle passes its own). */
  script = fileURLToPath(import.meta.url),
): Promise<RunRecord[]> {
  const queue = [...jobs];
  const records: RunRecord[] = [];
  let done = 0;
  const failed = (job: Job, error: string): RunRecord => ({
    ...job,
    recovered: false,
    exact: false,
    structuresToRecovery: null,
    structures: 0,
    episodes: 0,
    seconds: 0,
    fitSeconds: 0,
    screened: 0,
    terms: 0,
    maxFactors: 0,
    stopReason: "error",
    stopNrmse: stopNrmseFor(job.snrDb),
    learned: "",
    truth: "",
    trainNrmse: Number.NaN,
    testNrmse: Number.NaN,
    coefficientError: 100,
    reason: error,
    truthFitNrmse: Number.NaN,
    error,
  });
  const finish = (record: RunRecord) => {
    records.push(record);
    onDone(record, ++done);
  };
  const lane = () =>
    new Promise<void>((resolve) => {
      let child: ChildProcess;
      let current: Job | undefined;
      const next = () => {
        current = queue.shift();
        if (!current) {
          child.removeAllListeners("exit");
          child.kill();
          return resolve();
        }
        child.send(current);
      };
      const start = () => {
        child = fork(script, ["--worker"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
        child.on(
          "message",
          (message: { ready?: boolean; ok?: boolean; record?: RunRecord; job?: Job; error?: string }) => {
            if (message.ready) return next();
            finish(message.ok ? message.record! : failed(message.job!, message.error!));
            next();
          },
        );
        child.on("exit", (code, signal) => {
          if (current) finish(failed(current, `worker exited (${signal ?? code}) during the job`));
          current = undefined;
          if (queue.length > 0) start();
          else resolve();
        });
      };
      start();
    });
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, lane));
  return records;
}

interface MethodSummary {
  method: string;
  snrDb: number | null;
  runs: number;
  recovered: number;
  rate: number;
  exactAtEnd: number;
  medianStructures: number | null;
  medianSeconds: number | null;
  medianSecondsRecovered: number | null;
  /** Recovery on the suite's sums (terms > 1) and single products. */
  sums: { runs: number; recovered: number };
  products: { runs: number; recovered: number };
}

function summarise(records: RunRecord[], methods: string[], noise: (number | null)[]): MethodSummary[] {
  const isSum = (r: RunRecord) => benchmarkEntry(r.equation).terms > 1;
  const shape = (runs: RunRecord[]) => ({ runs: runs.length, recovered: runs.filter((r) => r.recovered).length });
  return noise.flatMap((snrDb) =>
    methods.map((method) => {
      const runs = records.filter((r) => r.method === method && r.snrDb === snrDb);
      const hits = runs.filter((r) => r.recovered);
      return {
        method,
        snrDb,
        runs: runs.length,
        recovered: hits.length,
        rate: runs.length ? hits.length / runs.length : 0,
        exactAtEnd: runs.filter((r) => r.exact).length,
        medianStructures: median(hits.map((r) => r.structuresToRecovery!)),
        medianSeconds: median(runs.map((r) => r.seconds)),
        medianSecondsRecovered: median(hits.map((r) => r.seconds)),
        sums: shape(runs.filter(isSum)),
        products: shape(runs.filter((r) => !isSum(r))),
      };
    }),
  );
}

/** random/consolesr structures to recovery: ratio of the medians, and the median paired ratio where both recovered. */
function ratios(records: RunRecord[], noise: (number | null)[], baseline: string) {
  return noise.map((snrDb) => {
    const of = (method: string) => records.filter((r) => r.method === method && r.snrDb === snrDb && r.recovered);
    const ours = of("consolesr");
    const theirs = of(baseline);
    const mOurs = median(ours.map((r) => r.structuresToRecovery!));
    const mTheirs = median(theirs.map((r) => r.structuresToRecovery!));
    const paired = ours.flatMap((o) => {
      const t = theirs.find((r) => r.seed === o.seed && r.equation === o.equation);
      return t ? [t.structuresToRecovery! / o.structuresToRecovery!] : [];
    });
    return {
      baseline,
      snrDb,
      ratioOfMedians: mOurs && mTheirs ? mTheirs / mOurs : null,
      medianPairedRatio: median(paired),
      pairs: paired.length,
    };
  });
}

/**
 * Where the true structure comes in enumeration order — products of 1…maxFactors allowed
 * neurons in lexicographic order, then sets of 1…terms products — and how many structures the
 * space holds. Without the dynamic constraint's pruning (which only skips structures), so the
 * rank is an upper bound on the structures enumeration fits before the truth.
 */
export function enumerationRank(
  entry: BenchmarkEntry,
  truth: Equation,
  inputs: readonly string[],
  allowedNeurons: number[],
): { rank: number; space: number } {
  const choose = (n: number, k: number) => {
    if (k < 0 || k > n) return 0;
    let r = 1;
    for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
    return Math.round(r);
  };
  /** 0-based lexicographic rank of the sorted combination `c` of {0…n−1}. */
  const lexRank = (c: number[], n: number) => {
    let rank = 0;
    let prev = -1;
    c.forEach((v, i) => {
      for (let x = prev + 1; x < v; x++) rank += choose(n - 1 - x, c.length - 1 - i);
      prev = v;
    });
    return rank;
  };
  const n = allowedNeurons.length;
  const productsBySize = Array.from({ length: entry.maxFactors }, (_, s) => choose(n, s + 1));
  const P = productsBySize.reduce((a, b) => a + b, 0);
  const productIndex = (neurons: number[]) => {
    const positions = neurons.map((i) => allowedNeurons.indexOf(i)).sort((a, b) => a - b);
    return productsBySize.slice(0, positions.length - 1).reduce((a, b) => a + b, 0) + lexRank(positions, n);
  };
  const neuronOf = (f: { symbol: string; input: string }) =>
    inputs.indexOf(f.input) * entry.pool.length + entry.pool.indexOf(f.symbol);
  const chosen = truth.terms.map((t) => productIndex(t.factors.map(neuronOf))).sort((a, b) => a - b);
  let before = 0;
  for (let c = 1; c < chosen.length; c++) before += choose(P, c);
  let space = 0;
  for (let c = 1; c <= entry.terms; c++) space += choose(P, c);
  return { rank: before + lexRank(chosen, P) + 1, space };
}

async function main(): Promise<void> {
  const o = parseFlags(process.argv.slice(2));
  const jobs: Job[] = [];
  // consolesr first: its jobs are the longest, so the pool ends with the short ones.
  for (const method of [...o.methods].sort((a, b) => METHODS.indexOf(a) - METHODS.indexOf(b)))
    for (const snrDb of o.noise)
      for (const entry of o.equations)
        for (const seed of o.seeds)
          jobs.push({
            method,
            seed,
            equation: entry.id,
            snrDb,
            budget: o.budget,
            episodes: o.episodes,
            rows: o.rows,
            mode: o.mode,
            ...(o.timeLimit ? { timeLimit: o.timeLimit } : {}),
          });
  const started = performance.now();
  let records: RunRecord[];
  let wallSeconds: number;
  if (o.merge.length > 0) {
    // Runs made separately, reported as one: every method of every file, wall time summed.
    const files = o.merge.map(
      (f) =>
        JSON.parse(readFileSync(f, "utf8")) as {
          manifest: { methods: string[]; wallSeconds: number };
          runs: RunRecord[];
        },
    );
    records = files.flatMap((f) => f.runs);
    o.methods = METHODS.filter((m) => files.some((f) => f.manifest.methods.includes(m)));
    wallSeconds = files.reduce((sum, f) => sum + f.manifest.wallSeconds, 0);
  } else {
    process.stderr.write(
      `search benchmark: ${o.equations.length} equations × ${o.seeds.length} seeds × ${o.noise.length} noise levels ` +
        `× ${o.methods.join("/")} = ${jobs.length} jobs on ${Math.min(o.jobs, jobs.length)} processes; ` +
        `budget ${o.budget} structures per output, ${o.rows} rows\n`,
    );
    records = await runPool(jobs, o.jobs, (r, done) => {
      const outcome = r.recovered
        ? `recovered at ${r.structuresToRecovery}`
        : `not recovered (${r.stopReason}, ${r.structures} structures)`;
      const what = r.error ? `ERROR ${r.error}` : `${outcome}, ${r.seconds.toFixed(1)} s: ${r.learned}`;
      process.stderr.write(
        `[${done}/${jobs.length}] ${r.method} ${r.equation} ` +
          `seed ${r.seed}${r.snrDb === null ? "" : ` ${r.snrDb} dB`}: ${what}\n`,
      );
    });
    wallSeconds = (performance.now() - started) / 1000;
  }
  const key = (r: Job) => [
    METHODS.indexOf(r.method),
    o.noise.indexOf(r.snrDb),
    o.equations.findIndex((e) => e.id === r.equation),
    r.seed,
  ];
  records.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka.map((v, i) => v - kb[i]!).find((d) => d !== 0) ?? 0;
  });

  // ---- tables
  const summary = summarise(records, o.methods, o.noise);
  const noiseName = (db: number | null) => (db === null ? "noiseless" : `${db} dB`);
  const fmt = (v: number | null, digits = 1) => (v === null ? "—" : v.toFixed(digits));
  console.log(
    `\n# Search benchmark (${o.mode}): ${o.equations.length} equations, seeds ${o.seeds.join(",")}, ` +
      `budget ${o.budget} structures per output, ${o.rows} rows`,
  );
  for (const snrDb of o.noise) {
    console.log(
      `\n## ${noiseName(snrDb)}\n` +
        "method      recovered        rate   exact at end  median structures  " +
        "median s (all)  median s (recovered)  sums        single products",
    );
    for (const s of summary.filter((x) => x.snrDb === snrDb)) {
      console.log(
        `${s.method.padEnd(12)}${`${s.recovered}/${s.runs}`.padEnd(17)}${`${(100 * s.rate).toFixed(0)} %`.padEnd(7)}` +
          `${String(s.exactAtEnd).padEnd(14)}${fmt(s.medianStructures).padEnd(19)}` +
          `${fmt(s.medianSeconds, 2).padEnd(16)}${fmt(s.medianSecondsRecovered, 2).padEnd(21)}` +
          `${`${s.sums.recovered}/${s.sums.runs}`.padEnd(12)}${s.products.recovered}/${s.products.runs}`,
      );
    }
  }
  const ratioRows = o.methods.includes("consolesr")
    ? o.methods.filter((m) => m !== "consolesr").flatMap((m) => ratios(records, o.noise, m))
    : [];
  for (const r of ratioRows) {
    console.log(
      `${r.baseline}/consolesr structures to recovery (${noiseName(r.snrDb)}): ` +
        `ratio of medians ${fmt(r.ratioOfMedians, 2)}, ` +
        `median paired ratio ${fmt(r.medianPairedRatio, 2)} over ${r.pairs} runs both recovered`,
    );
  }
  console.log(`\n## Per equation: recovered/seeds (median structures to recovery)`);
  console.log(`${"equation".padEnd(22)}${"noise".padEnd(11)}${o.methods.map((m) => m.padEnd(18)).join("")}`);
  const perEquation = o.equations.flatMap((entry) =>
    o.noise.map((snrDb) => {
      const cells = o.methods.map((method) => {
        const runs = records.filter((r) => r.method === method && r.equation === entry.id && r.snrDb === snrDb);
        const hits = runs.filter((r) => r.recovered);
        return {
          method,
          recovered: hits.length,
          runs: runs.length,
          medianStructures: median(hits.map((r) => r.structuresToRecovery!)),
          medianSeconds: median(runs.map((r) => r.seconds)),
        };
      });
      return { equation: entry.id, snrDb, cells };
    }),
  );
  for (const row of perEquation) {
    console.log(
      `${row.equation.padEnd(22)}${noiseName(row.snrDb).padEnd(11)}` +
        `${row.cells.map((c) => `${c.recovered}/${c.runs} (${fmt(c.medianStructures, 0)})`.padEnd(18)).join("")}`,
    );
  }

  // ---- equations no method recovered, with a reason from enumeration and the truth's own fit
  const { createSymbolRegistry } = await import("../src/lib/plugins/builtin.js");
  const { allowedNeurons } = await import("../src/lib/search/index.js");
  const symbols = createSymbolRegistry();
  const unrecovered = perEquation
    .filter((row) => row.cells.every((c) => c.recovered === 0))
    .map((row) => {
      const entry = benchmarkEntry(row.equation);
      const runs = records.filter((r) => r.equation === row.equation && r.snrDb === row.snrDb);
      const stop = stopNrmseFor(row.snrDb);
      const fits = [...new Set(runs.map((r) => r.truthFitNrmse))];
      const failedFits = fits.filter((v) => !(v <= stop));
      const data = benchmarkData(entry, { symbols, rows: o.rows, seed: o.seeds[0]!, snrDb: row.snrDb ?? undefined });
      const allowed = allowedNeurons(data.train, entry.pool, symbols).flatMap((ok, i) => (ok ? [i] : []));
      const { rank, space } = enumerationRank(entry, data.truth, data.train.inputs, allowed);
      const enumeration = runs.filter((r) => r.method === "enumerate");
      const stoppedElsewhere = enumeration.find((r) => r.stopReason === "reward-threshold" && !r.exact);
      let reason: string;
      if (failedFits.length > 0) {
        reason =
          `fit failed: the true structure fitted with the search's fitter reaches ` +
          `train NRMSE ${Math.min(...failedFits).toExponential(2)}–${Math.max(...failedFits).toExponential(2)}, ` +
          `above the stop NRMSE ${stop.toExponential(1)}` +
          `${entry.knownFitFailure ? ` (${entry.knownFitFailure})` : ""}`;
      } else if (stoppedElsewhere) {
        reason =
          `enumeration stopped at a non-exact equivalent that meets the stop ` +
          `NRMSE: ${stoppedElsewhere.learned} (${stoppedElsewhere.reason})`;
      } else if (enumeration.length > 0 && rank > o.budget) {
        reason =
          `not recovered by enumeration within budget ${o.budget}: ` +
          `the true structure is #${rank} of ${space} in enumeration order`;
      } else if (enumeration.length > 0) {
        reason =
          `enumeration reaches the true structure at #${rank} of ${space} (within budget ${o.budget}) ` +
          `but did not stop on it: ${enumeration.map((r) => `${r.stopReason} → ${r.learned}`)[0]}`;
      } else {
        reason =
          `not recovered by ${o.methods.join(", ")} within budget ${o.budget} (enumeration not run; ` +
          `the true structure is #${rank} of ${space} in enumeration order)`;
      }
      return { equation: row.equation, snrDb: row.snrDb, reason, enumerationRank: rank, spaceSize: space };
    });
  if (unrecovered.length) {
    console.log(`\n## No method recovered`);
    for (const u of unrecovered) console.log(`${u.equation.padEnd(22)}${noiseName(u.snrDb).padEnd(11)}${u.reason}`);
  }

  const seconds = records.reduce((s, r) => s + r.seconds, 0);
  const git = gitInfo();
  const command =
    `npm run bench:search -- ${o.mode === "unsized" ? "--mode unsized " : ""}` +
    `--methods ${o.methods.join(",")} --seeds ${o.seeds.join(",")} --noise ${o.noise.map((n) => n ?? 0).join(",")} ` +
    `--budget ${o.budget} --rows ${o.rows}${o.timeLimit ? ` --time-limit ${o.timeLimit}` : ""}` +
    `${o.equations.length === benchmarkEntries.length ? "" : ` --equations ${o.equations.map((e) => e.id).join(",")}`}`;
  const json = {
    manifest: {
      version: VERSION,
      git: git.sha,
      dirty: git.dirty,
      date: new Date().toISOString(),
      command,
      methods: o.methods,
      seeds: o.seeds,
      noise: o.noise,
      budget: o.budget,
      episodes: o.episodes,
      rows: o.rows,
      jobs: o.jobs,
      mode: o.mode,
      settings: {
        fit: FIT,
        constraints: CONSTRAINTS,
        reward: REWARD,
        stopNrmse: "1e-6 noiseless; 2·10^(−SNR/20) with noise",
        ...(o.mode === "unsized"
          ? { pool: "every registered symbol", terms: "grows by itself", maxFactors: "grows by itself" }
          : { terms: "per equation", maxFactors: "per equation" }),
      },
      machine: { cpus: availableParallelism(), model: cpus()[0]?.model ?? "unknown", node: process.version },
      wallSeconds: Number(wallSeconds.toFixed(1)),
      cpuSeconds: Number(seconds.toFixed(1)),
    },
    equations: o.equations.map((e) => ({
      id: e.id,
      name: e.name,
      family: e.family,
      source: e.source,
      original: e.original,
      truth: e.truth,
      inputs: e.inputs,
      pool: e.pool,
      terms: e.terms,
      maxFactors: e.maxFactors,
      expressible: e.expressible,
      note: e.note ?? null,
      knownFitFailure: e.knownFitFailure ?? null,
      ...(e.unsizedPool ? { unsizedPool: e.unsizedPool } : {}),
    })),
    summary,
    ratios: ratioRows,
    perEquation,
    unrecovered,
    excluded: benchmarkExcluded,
    runs: records,
  };
  writeFileSync(
    o.out,
    `${JSON.stringify(json, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 1)}\n`,
  );
  process.stderr.write(
    `wrote ${o.out} (${records.length} runs, ${wallSeconds.toFixed(0)} s wall, ${seconds.toFixed(0)} s in jobs)\n`,
  );
}

// Run only as a script (a child with --worker, or the parent), not when imported for its helpers.
if (
  process.argv[1] &&
  /searchSuite\.(ts|js|mjs)$/.test(process.argv[1]) &&
  fileURLToPath(import.meta.url) === process.argv[1]
) {
  if (process.argv.includes("--worker")) await worker();
  else
    await main().catch((error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    });
}
