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
 * at those SNRs in dB on the training target, not told to the search.
 *
 *   --family beyond|polynomial  --seeds 0..4  --kinds ratio,transform,monomial  --equations <ids>
 *   --rows 500  --noise <dB,…>  --time-limit 30 (seconds per search; 0: none)  --jobs N  --out <file>
 *
 * Jobs run on child processes (this file with --worker), one search at a time each.
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { gitSha } from "../src/cli/git.js";
import { beyondData, beyondEntries, type BeyondEntry, type BeyondKind, sameLaw } from "../src/lib/data/beyond.js";
import { monomialKey, monomialsOf, polynomialEntries, type PolynomialEntry } from "../src/lib/data/polynomial.js";
import type { EquationResult } from "../src/lib/index.js";
import { fit, VERSION } from "../src/lib/index.js";
import { nrmse } from "../src/lib/numeric/index.js";
import { median } from "./searchSuite.js";

interface Job {
  id: string;
  seed: number;
  rows: number;
  timeLimit: number;
  /** SNR in dB of the noise on the training target; absent: clean. */
  snrDb?: number;
}

type Kind = BeyondKind | "polynomial";
const FAMILIES = { beyond: beyondEntries, polynomial: polynomialEntries } as const;
const entryOf = (id: string) => [...beyondEntries, ...polynomialEntries].find((e) => e.id === id)!;

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
  /** The largest held-out error in units of the same-law bound (≤ 1: the same law). */
  worst: number;
  learned: string;
  stopReason: string;
  structures: number;
  cpuSeconds: number;
  seconds: number;
  trainNrmse: number | null;
  testNrmse: number | null;
  error?: string;
}

async function runJob(job: Job): Promise<Run> {
  const entry = entryOf(job.id);
  const noise = job.snrDb === undefined ? {} : { snrDb: job.snrDb };
  const { train, test } = beyondData(entry, { seed: job.seed, rows: job.rows, ...noise });
  const rows = (d: typeof train) => Array.from({ length: d.rows }, (_, r) => d.x.map((column) => column[r]!));
  const base = { ...job, kind: entry.kind, truth: entry.truth };
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const result = await fit({
      X: rows(train),
      y: train.y[0]!,
      names: train.inputs,
      seed: job.seed,
      ...(job.timeLimit > 0 ? { timeLimit: job.timeLimit } : {}),
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
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function options(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i]!.replace(/^--/, "").split("=");
    out[key!] = inline ?? argv[++i]!;
  }
  const known = ["family", "seeds", "kinds", "equations", "rows", "noise", "time-limit", "jobs", "out"];
  for (const key of Object.keys(out))
    if (!known.includes(key))
      throw new Error(`unknown flag --${key} (known: ${known.map((k) => `--${k}`).join(", ")})`);
  const [lo, hi] = (out.seeds ?? "0..4").split("..").map(Number);
  const family = (out.family ?? "beyond") as keyof typeof FAMILIES;
  if (!(family in FAMILIES)) throw new Error(`unknown --family ${family} (known: beyond, polynomial)`);
  const polynomial = family === "polynomial";
  return {
    family,
    seeds: Array.from({ length: hi! - lo! + 1 }, (_, i) => lo! + i),
    kinds: (out.kinds ?? (polynomial ? "polynomial" : "ratio,transform,monomial")).split(",") as Kind[],
    noise: out.noise ? out.noise.split(",").map(Number) : [],
    equations: out.equations?.split(","),
    rows: Number(out.rows ?? 500),
    timeLimit: Number(out["time-limit"] ?? 30),
    jobs: Number(out.jobs ?? availableParallelism()),
    out: out.out ?? `site/data/${family}-benchmark.json`,
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const family: readonly (BeyondEntry | PolynomialEntry)[] = FAMILIES[o.family];
  const entries = family.filter((e) => o.kinds.includes(e.kind) && (!o.equations || o.equations.includes(e.id)));
  // Clean first, then each noise level.
  const levels: (number | undefined)[] = [undefined, ...o.noise];
  const jobs: Job[] = levels.flatMap((snrDb) =>
    entries.flatMap((e) =>
      o.seeds.map((seed) => ({
        id: e.id,
        seed,
        rows: o.rows,
        timeLimit: o.timeLimit,
        ...(snrDb === undefined ? {} : { snrDb }),
      })),
    ),
  );
  const parallel = Math.max(1, Math.min(o.jobs, jobs.length));
  process.stderr.write(`${o.family} benchmark: ${jobs.length} runs on ${parallel} processes\n`);
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
            `${run.snrDb === undefined ? "" : ` ${run.snrDb} dB`}: ${run.exact ? "exact" : "not exact"}` +
            `${run.structure === undefined ? "" : run.structure ? ", its monomials" : ", other monomials"} ` +
            `${run.cpuSeconds.toFixed(1)} s CPU, ${run.stopReason}: y = ${run.learned}` +
            `${run.error ? ` (${run.error})` : ""}\n`,
        );
      }
      child.kill();
    }),
  );
  clearInterval(sampler);
  const level = (r: Run) => r.snrDb ?? Number.POSITIVE_INFINITY;
  runs.sort((a, b) => level(b) - level(a) || a.id.localeCompare(b.id, "en", { numeric: true }) || a.seed - b.seed);
  const summary = (subset: Run[]) => ({
    runs: subset.length,
    exact: subset.filter((r) => r.exact).length,
    ...(o.family === "polynomial" ? { structure: subset.filter((r) => r.structure).length } : {}),
    medianCpuSeconds: Number((median(subset.map((r) => r.cpuSeconds)) ?? Number.NaN).toFixed(2)),
  });
  const clean = runs.filter((r) => r.snrDb === undefined);
  const byKind = Object.fromEntries(o.kinds.map((kind) => [kind, summary(clean.filter((r) => r.kind === kind))]));
  const byNoise = Object.fromEntries(o.noise.map((db) => [`${db} dB`, summary(runs.filter((r) => r.snrDb === db))]));
  const git = gitSha().slice(0, 7); // the short form the committed report has always had
  const report = {
    manifest: {
      version: VERSION,
      git,
      seeds: o.seeds,
      rows: o.rows,
      timeLimit: o.timeLimit,
      jobs: parallel,
      wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version },
      loadAverage: { max: Number(Math.max(0, ...loads).toFixed(2)) },
      ...(o.noise.length > 0 ? { noise: o.noise } : {}),
      rule: "exact: the answer agrees with the truth to 1e-9 relative on every held-out point (sameLaw)",
      ...(o.family === "polynomial"
        ? { structure: "structure: the answer is a sum of the truth's monomials, each once, coefficients aside" }
        : {}),
    },
    entries: entries.map((e) => ({ id: e.id, kind: e.kind, truth: e.truth, note: e.note, inputs: e.inputs })),
    summary: { all: summary(clean), ...byKind, ...byNoise },
    runs,
  };
  writeFileSync(o.out, `${JSON.stringify(report, null, 1)}\n`);
  console.log("| runs | exact / runs | monomials right | median CPU s |");
  console.log("|---|---|---|---|");
  const share = (k: number, n: number) => `${k} / ${n} (${((100 * k) / n).toFixed(0)} %)`;
  for (const [name, s] of Object.entries(report.summary))
    console.log(
      `| ${name} | ${share(s.exact, s.runs)} | ${"structure" in s ? share(s.structure!, s.runs) : "—"} | ` +
        `${s.medianCpuSeconds} |`,
    );
  process.stderr.write(`wrote ${o.out}\n`);
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
