/**
 * `npm run bench:beyond`: the "beyond" family (src/lib/data/beyond.ts: ratios, target transforms,
 * functions of monomials) through `fit` with a new user's defaults (every registered symbol, a
 * size that grows by itself, the noise floor it estimates) on 500 noiseless rows, seeds 0–4.
 * A run is exact when its answer is the same law as the truth: it agrees to 1e-9 relative on
 * every one of the 500 held-out points of the wider test ranges (`sameLaw`). The truth is used
 * for that judgement only.
 *
 * `--family polynomial` runs the polynomial family instead (src/lib/data/polynomial.ts: sums of
 * monomials of degree ≤ 3, half on U(1, 2)), written into site/data/polynomial-benchmark.json;
 * there a run also records whether its answer has the truth's monomials (`structure`: the verdict
 * under noise, where the same-law rule cannot hold). `--noise 40,20` adds runs with Gaussian noise
 * at those SNRs in dB on the training target, not told to the search. A noisy polynomial run also
 * records whether its truth is identifiable at all from its rows (`identifiable`, from the truth
 * only: the truth's own monomials fitted by least squares on the training rows, and every one of
 * them needed, dropping it raising the score 2·n·log(NRMSE) + k·log(n)); the summaries count the
 * runs with the right monomials against the identifiable ones.
 *
 * `--family long` runs the long sums (longPolynomialEntries: 10–40 products over 8–20 inputs) the same way.
 * `--family forms` runs the forms family (src/lib/data/forms.ts: ratios, functions of monomials,
 * transforms and sums on realistic ranges, 800 rows), written into site/data/forms-benchmark.json.
 * There `--noise 1%,20` adds noise of 1 % of y's RMS (SRBench's protocol; a level ending in %) and
 * at 20 dB, and every run records whether it is right: its answer holds no more additive pieces
 * than the law (FormsEntry.pieces: terms and constants, above and below a ratio, inside an outer
 * function) and is within 1 % of the truth's RMS on 800 fresh noiseless rows of the training
 * ranges (`right`, with `pieces` and `error`), and whether it ended by itself (noise floor or
 * reward threshold, not the time limit).
 * `--family lab` runs the laboratory sums (src/lib/data/labSums.ts: sums of products of 3–6 inputs on
 * realistic ranges, 1,000 rows) with the forms verdicts, written into site/data/lab-benchmark.json: the
 * time-to-answer check. Every run of any family records whether the best structure of the search's
 * first episode is already the final answer's (`firstHolds`); with noise levels, the lab summary pairs
 * each noisy run with the same law and seed clean and reports the median of noisy / clean search
 * CPU, and the runs over 15 s of search CPU whose first episode already held the final law.
 * `--family composite` runs the composite laws (src/lib/data/composite.ts: differences of inputs and sums
 * inside functions, functions inside ratios, nested transforms, products of two forms; 1,000 rows, a
 * 60 s time limit) with the forms verdicts, written into site/data/composite-benchmark.json.
 * `--method stlsq` (polynomial family only) runs a sparse-regression peer instead of the search:
 * sequentially thresholded least squares (src/lib/baselines/stlsq.ts) over the same library the
 * search's polynomial question builds (every monomial of degree 1 … polynomialDegree(inputs), and
 * the constant), fitted on the training rows and judged by the same verdicts; written into
 * site/data/polynomial-benchmark-stlsq.json unless --out says otherwise.
 *
 *   --family beyond|polynomial|long|forms|lab|composite  --method consolesr|stlsq  --seeds 0..4
 *   --kinds ratio,transform,monomial  --equations <ids>  --rows 500  --noise <dB,…>
 *   --time-limit 30 (composite 60; seconds per search, 0: none)  --jobs N  --out <file>
 *
 * Jobs run on child processes (this file with --worker), one search at a time each.
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { gitSha } from "../src/cli/git.js";
import { beyondData, beyondEntries, type BeyondEntry, type BeyondKind, sameLaw } from "../src/lib/data/beyond.js";
import {
  monomialKey,
  monomialsOf,
  longPolynomialEntries,
  polynomialEntries,
  powersOf,
  type PolynomialEntry,
} from "../src/lib/data/polynomial.js";
import type { Dataset, EquationResult, FittedEquation } from "../src/lib/index.js";
import { fit, VERSION } from "../src/lib/index.js";
import { predictStlsq, stlsq } from "../src/lib/baselines/stlsq.js";
import { leastSquares, nrmse } from "../src/lib/numeric/index.js";
import { frontScoreOf } from "../src/lib/search/index.js";
import { monomialColumn, monomials, polynomialDegree, type Powers } from "../src/lib/search/linear/polynomial.js";
import { median } from "./searchSuite.js";
import { FORMS_ROWS, formsEntries, type FormsEntry, type FormsKind } from "../src/lib/data/forms.js";
import { LAB_ROWS, labSumEntries } from "../src/lib/data/labSums.js";
import {
  COMPOSITE_ROWS,
  compositeEntries,
  type CompositeEntry,
  type CompositeKind,
} from "../src/lib/data/composite.js";
import type { Expression, Term } from "../src/lib/equation/index.js";

/** What answers a run: the search through `fit`, or the sparse-regression peer. */
const METHODS = ["consolesr", "stlsq"] as const;
type Method = (typeof METHODS)[number];

interface Job {
  id: string;
  method: Method;
  seed: number;
  rows: number;
  timeLimit: number;
  /** SNR in dB of the noise on the training target; absent: clean. */
  snrDb?: number;
  /** Noise on the training target as a fraction of its RMS (0.01: 1 %); absent: clean or snrDb. */
  noiseRms?: number;
}

type Kind = BeyondKind | "polynomial" | FormsKind | CompositeKind;
const FAMILIES = {
  beyond: beyondEntries,
  polynomial: polynomialEntries,
  long: longPolynomialEntries,
  forms: formsEntries,
  lab: labSumEntries,
  composite: compositeEntries,
} as const;
const entryOf = (id: string) =>
  [
    ...beyondEntries,
    ...polynomialEntries,
    ...longPolynomialEntries,
    ...formsEntries,
    ...labSumEntries,
    ...compositeEntries,
  ].find((e) => e.id === id)!;
/** The families judged by the forms verdicts (right, pieces, ended by itself). */
const FORMS_VERDICTS = new Set(["forms", "lab", "composite"]);

/** A law's structure, coefficients and inner weights aside: its products, constant, outer and denominator. */
function structureKey(terms: readonly Term[], constant?: number, outer?: string, denominator?: readonly Term[]) {
  const sum = (list: readonly Term[], c?: number) =>
    [
      ...list
        .filter((t) => t.factors.length > 0)
        .map((t) =>
          t.factors
            .map((f) => `${f.symbol}(${f.input})`)
            .sort()
            .join("·"),
        )
        .sort(),
      ...(list.some((t) => t.factors.length === 0 && t.coefficient !== 0) || (c ?? 0) !== 0 ? ["1"] : []),
    ].join(" + ");
  return `${outer ?? ""}[${sum(terms, constant)}]${denominator ? `/[${sum(denominator)}]` : ""}`;
}

/** A level's name: "clean", "20 dB", "1 % RMS". */
const levelName = (job: Pick<Job, "snrDb" | "noiseRms">) =>
  job.snrDb !== undefined ? `${job.snrDb} dB` : job.noiseRms !== undefined ? `${100 * job.noiseRms} % RMS` : "clean";

/**
 * The additive pieces of an expression (an answer that is no LoCaL): the top level's terms (one where
 * it is no sum) and every inner sum's, as the composite family counts its laws' (a·(b − c)²: 3).
 */
function expressionPieces(node: Expression, top = true): number {
  if (!Array.isArray(node)) return top ? 1 : 0;
  const summands = (n: Expression): Expression[] =>
    Array.isArray(n) && (n[0] === "+" || n[0] === "-") ? (n.slice(1) as Expression[]).flatMap(summands) : [n];
  if (node[0] === "+" || node[0] === "-") {
    const parts = summands(node);
    return parts.length + parts.reduce<number>((sum, p) => sum + expressionPieces(p, false), 0);
  }
  return (
    (top ? 1 : 0) + (node.slice(1) as Expression[]).reduce<number>((sum, a) => sum + expressionPieces(a, false), 0)
  );
}

/** The additive pieces of an answer: each term and each constant, above and below a ratio. */
const piecesOf = (e: EquationResult) =>
  e.expression !== undefined
    ? expressionPieces(e.expression)
    : e.terms.length +
      (e.constant !== undefined && e.constant !== 0 ? 1 : 0) +
      (e.denominator
        ? e.denominator.terms.length + (e.denominator.constant !== undefined && e.denominator.constant !== 0 ? 1 : 0)
        : 0);

/** Rows of the fresh noiseless set a forms run is judged on, and their seed's offset. */
const FRESH_SEED = 1_000_000;

/** Whether a run ended by itself: at the noise floor or the reward threshold, not on the time limit. */
const endedByItself = (stopReason: string) => stopReason === "noise-floor" || stopReason === "reward-threshold";

/** Powers of the pool's power symbols; a factor with another symbol or an inner weight is no monomial. */
const POWERS: Record<string, number> = { x: 1, "x^2": 2, "x^3": 3, "x^-1": -1, "x^-2": -2, sqrt: 0.5 };

/**
 * Whether an answer is a sum of the truth's monomials, each once (its coefficients aside): the
 * polynomial family's verdict under noise. Undefined for other families.
 */
function sameMonomials(equation: EquationResult, truth: PolynomialEntry): boolean {
  // An outer function or a denominator makes the answer no sum of monomials, whatever its terms.
  if (equation.outer || equation.denominator) return false;
  const keys: string[] = [];
  for (const term of equation.terms) {
    const powers: Record<string, number> = {};
    for (const f of term.factors) {
      const p = POWERS[f.symbol];
      if (p === undefined || (f.weight !== undefined && f.weight !== 1) || f.monomial) return false;
      powers[f.input] = (powers[f.input] ?? 0) + p;
    }
    keys.push(monomialKey(powers));
  }
  if (equation.constant !== undefined && equation.constant !== 0) keys.push("1");
  const truthKeys = monomialsOf(truth);
  return (
    keys.length === truthKeys.length && new Set(keys).size === keys.length && keys.every((k) => truthKeys.includes(k))
  );
}

interface Run extends Job {
  kind: Kind;
  truth: string;
  exact: boolean;
  /** Polynomial family: the answer's monomials are the truth's (coefficients aside). */
  structure?: boolean;
  /**
   * Polynomial family under noise: the truth is identifiable from the training rows (module
   * comment; from the truth only, whatever the method).
   */
  identifiable?: boolean;
  /**
   * Forms family: the answer holds no more pieces than the law and is within 1 % of the truth's RMS
   * on fresh noiseless rows of the training ranges (module comment).
   */
  right?: boolean;
  /** Forms family: the answer's additive pieces (terms and constants, above and below a ratio). */
  pieces?: number;
  /** Forms family: RMS of answer − truth on the fresh noiseless rows over the truth's RMS. */
  error?: number;
  /** Whether the run ended by itself (noise floor or reward threshold). */
  ended?: boolean;
  /** The best structure of the search's first episode is the final answer's (structureKey); absent: no episode. */
  firstHolds?: boolean;
  /** Under noise, the answer's closest rival and its score gap where the search called the answer ambiguous. */
  ambiguous?: { rival: string; gap: number };
  /** `--method stlsq`: the threshold its score chose. */
  lambda?: number;
  /** The largest held-out error in units of the same-law bound (≤ 1: the same law). */
  worst: number;
  learned: string;
  stopReason: string;
  structures: number;
  cpuSeconds: number;
  seconds: number;
  trainNrmse: number | null;
  testNrmse: number | null;
  failure?: string;
}

/** The truth's monomials as columns of a data set (the constant as a column of ones). */
function truthColumns(truth: PolynomialEntry, data: Dataset): Float64Array[] {
  return truth.terms.map(([, monomial]) => {
    const powers = powersOf(monomial);
    return monomialColumn(
      data.x,
      data.inputs.map((name) => powers[name] ?? 0),
    );
  });
}

/**
 * Whether a noisy run's truth can be told from its rows at all (module comment): its own monomials
 * fitted by least squares on the training rows score better, by 2·n·log(NRMSE) + k·log(n), than
 * the same fit with any one of them dropped. Metrics only: it reads the truth.
 */
function identifiable(truth: PolynomialEntry, train: Dataset): boolean {
  const columns = truthColumns(truth, train);
  const y = train.y[0]!;
  const scoreOf = (subset: Float64Array[]) => {
    const predicted = new Float64Array(train.rows);
    const beta = subset.length > 0 ? leastSquares(subset, y)! : new Float64Array(0);
    for (const [p, column] of subset.entries())
      for (let r = 0; r < train.rows; r++) predicted[r] = predicted[r]! + beta[p]! * column[r]!;
    return frontScoreOf(nrmse(y, predicted), subset.length, train.rows);
  };
  const full = scoreOf(columns);
  return columns.every((_, drop) => scoreOf(columns.filter((_, j) => j !== drop)) > full);
}

/** The polynomial question's library of a data set: the search's (no pool to limit it) by columns and keys. */
function polynomialLibrary(data: Dataset): { powers: Powers[]; keys: string[] } {
  const powers = monomials(data.inputs.length, polynomialDegree(data.inputs.length), () => true);
  const keys = powers.map((p) => monomialKey(Object.fromEntries(data.inputs.map((name, i) => [name, p[i]!]))));
  return { powers, keys };
}

/** A polynomial run answered by STLSQ over the search's library, with the search's verdicts. */
function runStlsq(entry: PolynomialEntry, train: Dataset, test: Dataset): Omit<Run, keyof Job | "kind" | "truth"> {
  const { powers, keys } = polynomialLibrary(train);
  const fitted = stlsq(
    powers.map((p) => monomialColumn(train.x, p)),
    train.y[0]!,
  );
  const predicted = predictStlsq(
    fitted,
    powers.map((p) => monomialColumn(test.x, p)),
  );
  const verdict = sameLaw(predicted, test.y[0]!);
  const found = [...fitted.support.map((j) => keys[j]!), ...(fitted.constantInSupport ? ["1"] : [])];
  const truthKeys = monomialsOf(entry);
  const terms = fitted.support.map((j, p) => `${fitted.coefficients[p]}*${keys[j]}`);
  if (fitted.constantInSupport) terms.push(`${fitted.constant}`);
  return {
    exact: verdict.same,
    structure: found.length === truthKeys.length && found.every((k) => truthKeys.includes(k)),
    worst: verdict.worst,
    learned: terms.join(" + ") || "0",
    stopReason: "threshold",
    lambda: fitted.lambda,
    structures: powers.length + 1,
    cpuSeconds: 0,
    seconds: 0,
    trainNrmse: fitted.nrmse,
    testNrmse: nrmse(test.y[0]!, predicted),
  };
}

/** A forms run's verdict (module comment): pieces, the error on fresh noiseless rows, right. */
function formsVerdict(entry: Pick<FormsEntry, "inputs" | "evaluate" | "pieces">, job: Job, equation: FittedEquation) {
  const { train: fresh } = beyondData(entry, { seed: FRESH_SEED + job.seed, rows: job.rows });
  const rows = Array.from({ length: fresh.rows }, (_, r) => fresh.x.map((column) => column[r]!));
  const predicted = equation.predict(rows);
  const truth = fresh.y[0]!;
  let squares = 0;
  let power = 0;
  for (let r = 0; r < fresh.rows; r++) {
    squares += (predicted[r]! - truth[r]!) ** 2;
    power += truth[r]! ** 2;
  }
  const error = Math.sqrt(squares / power);
  const pieces = piecesOf(equation);
  return { pieces, error, right: Number.isFinite(error) && error <= 0.01 && pieces <= entry.pieces };
}

async function runJob(job: Job): Promise<Run> {
  const entry = entryOf(job.id);
  const noise =
    job.snrDb !== undefined ? { snrDb: job.snrDb } : job.noiseRms !== undefined ? { noiseRms: job.noiseRms } : {};
  const { train, test } = beyondData(entry, { seed: job.seed, rows: job.rows, ...noise });
  const rows = (d: typeof train) => Array.from({ length: d.rows }, (_, r) => d.x.map((column) => column[r]!));
  const base = {
    ...job,
    kind: entry.kind,
    truth: entry.truth,
    ...(entry.kind === "polynomial" && job.snrDb !== undefined ? { identifiable: identifiable(entry, train) } : {}),
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    if (job.method === "stlsq") {
      if (entry.kind !== "polynomial") throw new Error("--method stlsq runs the polynomial family only");
      const answered = runStlsq(entry, train, test);
      const used = process.cpuUsage(cpu);
      return {
        ...base,
        ...answered,
        cpuSeconds: (used.user + used.system) / 1e6,
        seconds: (performance.now() - started) / 1000,
      };
    }
    // The first episode's best and its rival without the constant (the answer rule weighs both).
    let first: string[] | undefined;
    const result = await fit({
      X: rows(train),
      y: train.y[0]!,
      names: train.inputs,
      seed: job.seed,
      ...(job.timeLimit > 0 ? { timeLimit: job.timeLimit } : {}),
      onProgress: (event) => {
        first ??= [event.best, ...(event.best.plain ? [event.best.plain] : [])].map(({ equation: e }) =>
          structureKey(e.terms, undefined, e.outer, e.denominator),
        );
      },
    });
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const equation = result.equations[0]!;
    const predicted = equation.predict(rows(test));
    const verdict = sameLaw(predicted, test.y[0]!);
    return {
      ...base,
      exact: verdict.same,
      ...(entry.kind === "polynomial" ? { structure: sameMonomials(equation, entry) } : {}),
      ...("pieces" in entry ? formsVerdict(entry, job, equation) : {}),
      ended: endedByItself(result.search.stopReason),
      ...(first === undefined
        ? {}
        : {
            firstHolds: first.includes(
              structureKey(equation.terms, equation.constant, equation.outer, equation.denominator?.terms),
            ),
          }),
      ...(result.search.targets?.[0]?.ambiguous ? { ambiguous: result.search.targets[0].ambiguous } : {}),
      worst: verdict.worst,
      learned: equation.text,
      stopReason: result.search.stopReason,
      structures: result.search.structures,
      cpuSeconds: (used.user + used.system) / 1e6,
      seconds,
      trainNrmse: equation.trainNrmse,
      testNrmse: nrmse(test.y[0]!, predicted),
    };
  } catch (error) {
    const used = process.cpuUsage(cpu);
    return {
      ...base,
      exact: false,
      worst: Number.POSITIVE_INFINITY,
      learned: "",
      stopReason: "error",
      structures: 0,
      cpuSeconds: (used.user + used.system) / 1e6,
      seconds: (performance.now() - started) / 1000,
      trainNrmse: null,
      testNrmse: null,
      failure: error instanceof Error ? error.message : String(error),
    };
  }
}

function options(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i]!.replace(/^--/, "").split("=");
    out[key!] = inline ?? argv[++i]!;
  }
  const known = ["family", "method", "seeds", "kinds", "equations", "rows", "noise", "time-limit", "jobs", "out"];
  for (const key of Object.keys(out))
    if (!known.includes(key))
      throw new Error(`unknown flag --${key} (known: ${known.map((k) => `--${k}`).join(", ")})`);
  const [lo, hi] = (out.seeds ?? "0..4").split("..").map(Number);
  const family = (out.family ?? "beyond") as keyof typeof FAMILIES;
  if (!(family in FAMILIES)) throw new Error(`unknown --family ${family} (known: ${Object.keys(FAMILIES).join(", ")})`);
  // The long sums are polynomial laws too: the same verdicts and the same peer.
  const polynomial = family === "polynomial" || family === "long";
  const method = (out.method ?? "consolesr") as Method;
  if (!METHODS.includes(method)) throw new Error(`unknown --method ${method} (known: ${METHODS.join(", ")})`);
  if (method === "stlsq" && !polynomial) throw new Error("--method stlsq runs the polynomial family only");
  return {
    family,
    method,
    seeds: Array.from({ length: hi! - lo! + 1 }, (_, i) => lo! + i),
    kinds: (
      out.kinds ??
      (polynomial
        ? "polynomial"
        : family === "forms"
          ? "ratio,monomial,transform,sum"
          : family === "lab"
            ? "sum"
            : family === "composite"
              ? "difference,inner-sum,nested-ratio,nested-transform,product"
              : "ratio,transform,monomial")
    ).split(",") as Kind[],
    noise: (out.noise ? out.noise.split(",") : []).map((level): Pick<Job, "snrDb" | "noiseRms"> => {
      const value = Number(level.replace(/%$/, ""));
      if (!Number.isFinite(value)) throw new Error(`--noise: "${level}" is no level (20 for dB, 1% of the RMS)`);
      return level.endsWith("%") ? { noiseRms: value / 100 } : { snrDb: value };
    }),
    equations: out.equations?.split(","),
    rows: Number(
      out.rows ??
        (family === "forms" ? FORMS_ROWS : family === "lab" ? LAB_ROWS : family === "composite" ? COMPOSITE_ROWS : 500),
    ),
    timeLimit: Number(out["time-limit"] ?? (family === "composite" ? 60 : 30)),
    jobs: Number(out.jobs ?? availableParallelism()),
    out: out.out ?? `site/data/${family}-benchmark${method === "consolesr" ? "" : `-${method}`}.json`,
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const family: readonly (BeyondEntry | PolynomialEntry | FormsEntry | CompositeEntry)[] = FAMILIES[o.family];
  const entries = family.filter((e) => o.kinds.includes(e.kind) && (!o.equations || o.equations.includes(e.id)));
  // The polynomial families' verdicts (the truth's monomials, identifiable) are theirs alone.
  const polynomialFamily = o.family === "polynomial" || o.family === "long";
  // Clean first, then each noise level.
  const levels: Pick<Job, "snrDb" | "noiseRms">[] = [{}, ...o.noise];
  const jobs: Job[] = levels.flatMap((level) =>
    entries.flatMap((e) =>
      o.seeds.map((seed) => ({ id: e.id, method: o.method, seed, rows: o.rows, timeLimit: o.timeLimit, ...level })),
    ),
  );
  const parallel = Math.max(1, Math.min(o.jobs, jobs.length));
  process.stderr.write(`${o.family} benchmark (${o.method}): ${jobs.length} runs on ${parallel} processes\n`);
  const started = performance.now();
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]!), 5000);
  const runs: Run[] = [];
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      const child = fork(fileURLToPath(import.meta.url), ["--worker"], { execArgv: ["--import", "tsx"] });
      for (let job = queue.shift(); job; job = queue.shift()) {
        const run = await new Promise<Run>((resolve) => {
          child.once("message", (message) => resolve(message as Run));
          child.send(job);
        });
        runs.push(run);
        process.stderr.write(
          `[${runs.length}/${jobs.length}] ${run.id} seed ${run.seed}` +
            `${levelName(run) === "clean" ? "" : ` ${levelName(run)}`}: ${run.exact ? "exact" : "not exact"}` +
            `${run.structure === undefined ? "" : run.structure ? ", its monomials" : ", other monomials"}` +
            `${run.identifiable === undefined ? "" : run.identifiable ? " (identifiable)" : " (not identifiable)"} ` +
            `${run.cpuSeconds.toFixed(1)} s CPU, ${run.stopReason}: y = ${run.learned}` +
            `${run.right === undefined ? "" : run.right ? " [right]" : " [not right]"}` +
            `${run.failure ? ` (${run.failure})` : ""}\n`,
        );
      }
      child.kill();
    }),
  );
  clearInterval(sampler);
  // Clean first, then by falling SNR (1 % of the RMS is about 40 dB).
  const level = (r: Run) =>
    r.snrDb ?? (r.noiseRms !== undefined ? -20 * Math.log10(r.noiseRms) : Number.POSITIVE_INFINITY);
  runs.sort((a, b) => level(b) - level(a) || a.id.localeCompare(b.id, "en", { numeric: true }) || a.seed - b.seed);
  const summary = (subset: Run[]) => ({
    runs: subset.length,
    exact: subset.filter((r) => r.exact).length,
    ...(polynomialFamily ? { structure: subset.filter((r) => r.structure).length } : {}),
    ...(subset.some((r) => r.identifiable !== undefined)
      ? {
          identifiable: subset.filter((r) => r.identifiable).length,
          structureOfIdentifiable: subset.filter((r) => r.identifiable && r.structure).length,
        }
      : {}),
    ...(FORMS_VERDICTS.has(o.family)
      ? {
          right: subset.filter((r) => r.right).length,
          ended: subset.filter((r) => r.ended).length,
          maxCpuSeconds: Number(Math.max(0, ...subset.map((r) => r.cpuSeconds)).toFixed(2)),
        }
      : {}),
    medianCpuSeconds: Number((median(subset.map((r) => r.cpuSeconds)) ?? Number.NaN).toFixed(2)),
  });
  const clean = runs.filter((r) => levelName(r) === "clean");
  const byKind = Object.fromEntries(o.kinds.map((kind) => [kind, summary(clean.filter((r) => r.kind === kind))]));
  const byNoise = Object.fromEntries(
    o.noise.flatMap((noise) => {
      const name = levelName(noise);
      const at = runs.filter((r) => levelName(r) === name);
      // The forms family: each noise level by kind too.
      const kinds =
        o.family === "forms"
          ? o.kinds.map((kind) => [`${name} ${kind}`, summary(at.filter((r) => r.kind === kind))])
          : [];
      return [[name, summary(at)], ...kinds];
    }),
  );
  const git = gitSha().slice(0, 7); // the short form the committed report has always had
  const report = {
    manifest: {
      version: VERSION,
      git,
      ...(o.method === "consolesr" ? {} : { method: o.method }),
      seeds: o.seeds,
      rows: o.rows,
      timeLimit: o.timeLimit,
      jobs: parallel,
      wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version },
      loadAverage: { max: Number(Math.max(0, ...loads).toFixed(2)) },
      ...(o.noise.length > 0 ? { noise: o.noise.map(levelName) } : {}),
      ...(FORMS_VERDICTS.has(o.family)
        ? {
            right:
              "right: the answer holds no more additive pieces than the law (terms and constants, above and below a " +
              "ratio, inside an outer function) and is within 1 % of the truth's RMS on 800 fresh noiseless rows " +
              "of the training ranges; ended: the run stopped at the noise floor or the reward threshold",
          }
        : {}),
      rule: "exact: the answer agrees with the truth to 1e-9 relative on every held-out point (sameLaw)",
      ...(polynomialFamily
        ? { structure: "structure: the answer is a sum of the truth's monomials, each once, coefficients aside" }
        : {}),
      ...(polynomialFamily && o.noise.length > 0
        ? {
            identifiable:
              "identifiable (noisy runs, from the truth only): the truth's monomials fitted by least squares on " +
              "the training rows score lower by 2·n·log(NRMSE) + k·log(n) than with any one of them dropped",
          }
        : {}),
    },
    entries: entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      truth: e.truth,
      note: e.note,
      inputs: e.inputs,
      ...("pieces" in e ? { pieces: e.pieces } : {}),
    })),
    summary: { all: summary(clean), ...byKind, ...byNoise },
    ...(o.family === "lab" && o.noise.length > 0 ? { timeToAnswer: timeToAnswer(runs) } : {}),
    runs,
  };
  writeFileSync(o.out, `${JSON.stringify(report, null, 1)}\n`);
  console.log("| method | runs | exact / runs | monomials right | right / identifiable | median CPU s |");
  console.log("|---|---|---|---|---|---|");
  const share = (k: number, n: number) => `${k} / ${n}${n > 0 ? ` (${((100 * k) / n).toFixed(0)} %)` : ""}`;
  // Noisy rows: the runs with the truth's monomials among those whose truth is identifiable.
  for (const [name, s] of Object.entries(report.summary) as [string, ReturnType<typeof summary>][])
    console.log(
      `| ${o.method} | ${name} | ${share(s.exact, s.runs)} | ` +
        `${"structure" in s ? share(s.structure!, s.runs) : "—"} | ` +
        `${"identifiable" in s ? share(s.structureOfIdentifiable!, s.identifiable!) : "—"} | ` +
        `${s.medianCpuSeconds} |`,
    );
  if (report.timeToAnswer)
    for (const t of report.timeToAnswer)
      console.log(
        `\n${t.level}: median noisy / clean search CPU ${t.medianRatio} over ${t.pairs} pairs ` +
          `(medians ${t.medianNoisy} s / ${t.medianClean} s = ${t.ratioOfMedians}); ` +
          `${t.slowWhileHeld.length} runs over 15 s whose first episode held the final law` +
          `${t.slowWhileHeld.length ? `: ${t.slowWhileHeld.join(", ")}` : ""}`,
      );
  if (FORMS_VERDICTS.has(o.family)) {
    console.log("\n| level / kind | right / runs | ended by itself | median CPU s | max CPU s |");
    console.log("|---|---|---|---|---|");
    for (const [name, s] of Object.entries(report.summary) as [string, ReturnType<typeof summary>][])
      console.log(
        `| ${name} | ${share(s.right ?? 0, s.runs)} | ${share(s.ended ?? 0, s.runs)} | ` +
          `${s.medianCpuSeconds} | ${s.maxCpuSeconds} |`,
      );
  }
  process.stderr.write(`wrote ${o.out}\n`);
}

/** Search CPU above which a run whose first episode already held its final law counts as slow (issue 56). */
const SLOW_SECONDS = 15;

/**
 * Each noise level's time to answer: every noisy run paired with the same law and seed clean, the
 * median of noisy / clean search CPU, the two medians, and the slow runs that were right at once.
 */
function timeToAnswer(runs: Run[]) {
  const cleanOf = new Map(runs.filter((r) => levelName(r) === "clean").map((r) => [`${r.id} ${r.seed}`, r]));
  const levels = [...new Set(runs.map(levelName))].filter((name) => name !== "clean");
  return levels.map((level) => {
    const noisy = runs.filter((r) => levelName(r) === level && cleanOf.has(`${r.id} ${r.seed}`));
    const ratios = noisy.map((r) => r.cpuSeconds / Math.max(1e-3, cleanOf.get(`${r.id} ${r.seed}`)!.cpuSeconds));
    const medianNoisy = median(noisy.map((r) => r.cpuSeconds)) ?? Number.NaN;
    const medianClean = median(noisy.map((r) => cleanOf.get(`${r.id} ${r.seed}`)!.cpuSeconds)) ?? Number.NaN;
    return {
      level,
      pairs: noisy.length,
      medianRatio: Number((median(ratios) ?? Number.NaN).toFixed(2)),
      medianNoisy: Number(medianNoisy.toFixed(2)),
      medianClean: Number(medianClean.toFixed(2)),
      ratioOfMedians: Number((medianNoisy / medianClean).toFixed(2)),
      slowWhileHeld: noisy
        .filter((r) => r.firstHolds && r.cpuSeconds > SLOW_SECONDS)
        .map((r) => `${r.id} seed ${r.seed} (${r.cpuSeconds.toFixed(1)} s)`),
    };
  });
}

if (process.argv.includes("--worker")) {
  process.on("message", (job: Job) => {
    runJob(job).then((run) => process.send!(run));
  });
} else {
  main().catch((error) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
}
