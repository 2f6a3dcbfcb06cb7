/**
 * `npm run bench:beyond`: the "beyond" family (src/lib/data/beyond.ts: ratios, target transforms,
 * functions of monomials) through `fit` with a new user's defaults (every registered symbol, a
 * size that grows by itself, the noise floor it estimates) on 500 noiseless rows, seeds 0–4.
 * A run is exact when its answer is the same law as the truth: it agrees to 1e-9 relative on
 * every one of the 500 held-out points of the wider test ranges (`sameLaw`). The truth is used
 * for that judgement only.
 *
 *   --seeds 0..4  --kinds ratio,transform,monomial  --equations <ids>  --rows 500
 *   --time-limit 30 (seconds per search; 0: none)  --jobs N  --out site/data/beyond-benchmark.json
 *
 * Jobs run on child processes (this file with --worker), one search at a time each.
 */
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { gitSha } from "../src/cli/git.js";
import { beyondData, beyondEntries, type BeyondKind, sameLaw } from "../src/lib/data/beyond.js";
import { fit, VERSION } from "../src/lib/index.js";
import { nrmse } from "../src/lib/numeric/index.js";
import { median } from "./searchSuite.js";

interface Job {
  id: string;
  seed: number;
  rows: number;
  timeLimit: number;
}

interface Run extends Job {
  kind: BeyondKind;
  truth: string;
  exact: boolean;
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
  const entry = beyondEntries.find((e) => e.id === job.id)!;
  const { train, test } = beyondData(entry, { seed: job.seed, rows: job.rows });
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
  const known = ["seeds", "kinds", "equations", "rows", "time-limit", "jobs", "out"];
  for (const key of Object.keys(out))
    if (!known.includes(key))
      throw new Error(`unknown flag --${key} (known: ${known.map((k) => `--${k}`).join(", ")})`);
  const [lo, hi] = (out.seeds ?? "0..4").split("..").map(Number);
  return {
    seeds: Array.from({ length: hi! - lo! + 1 }, (_, i) => lo! + i),
    kinds: (out.kinds ?? "ratio,transform,monomial").split(",") as BeyondKind[],
    equations: out.equations?.split(","),
    rows: Number(out.rows ?? 500),
    timeLimit: Number(out["time-limit"] ?? 30),
    jobs: Number(out.jobs ?? availableParallelism()),
    out: out.out ?? "site/data/beyond-benchmark.json",
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const entries = beyondEntries.filter((e) => o.kinds.includes(e.kind) && (!o.equations || o.equations.includes(e.id)));
  const jobs: Job[] = entries.flatMap((e) =>
    o.seeds.map((seed) => ({ id: e.id, seed, rows: o.rows, timeLimit: o.timeLimit })),
  );
  const parallel = Math.max(1, Math.min(o.jobs, jobs.length));
  process.stderr.write(`beyond benchmark: ${jobs.length} runs on ${parallel} processes\n`);
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
          `[${runs.length}/${jobs.length}] ${run.id} seed ${run.seed}: ${run.exact ? "exact" : "not exact"} ` +
            `${run.cpuSeconds.toFixed(1)} s CPU, ${run.stopReason}: y = ${run.learned}` +
            `${run.error ? ` (${run.error})` : ""}\n`,
        );
      }
      child.kill();
    }),
  );
  clearInterval(sampler);
  runs.sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }) || a.seed - b.seed);
  const summary = (subset: Run[]) => ({
    runs: subset.length,
    exact: subset.filter((r) => r.exact).length,
    medianCpuSeconds: Number((median(subset.map((r) => r.cpuSeconds)) ?? Number.NaN).toFixed(2)),
  });
  const byKind = Object.fromEntries(o.kinds.map((kind) => [kind, summary(runs.filter((r) => r.kind === kind))]));
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
      rule: "exact: the answer agrees with the truth to 1e-9 relative on every held-out point (sameLaw)",
    },
    entries: entries.map((e) => ({ id: e.id, kind: e.kind, truth: e.truth, note: e.note, inputs: e.inputs })),
    summary: { all: summary(runs), ...byKind },
    runs,
  };
  writeFileSync(o.out, `${JSON.stringify(report, null, 1)}\n`);
  console.log("| kind | exact / runs | median CPU s |");
  console.log("|---|---|---|");
  for (const [kind, s] of Object.entries(report.summary))
    console.log(
      `| ${kind} | ${s.exact} / ${s.runs} (${((100 * s.exact) / s.runs).toFixed(0)} %) | ${s.medianCpuSeconds} |`,
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
