/**
 * `npm run bench:noise`: the search on noisy data whose noise level it is not told. Every equation
 * of the benchmark suite in unsized mode (every registered symbol, a size that grows by itself,
 * no structure budget, no stopNrmse from the SNR: the flags a new user's `fit` has), noise at
 * 40 and 20 dB, seeds 0–4, 500 rows. Jobs run on child processes (bench/searchSuite.ts's pool).
 *
 * Per run: whether it ended by itself (stopReason noise-floor or reward-threshold), whether it was
 * recovered (the truth's terms after simplification, E_c ≤ 1 % at 40 dB and ≤ 5 % at 20 dB, and
 * ended by itself), and the oracle: whether the true structure, fitted with its form, beats its
 * sub-structures (a term dropped) and super-structures (an input added as a term) by the answer
 * rule's score (src/lib/search/hallOfFame.ts). The truth is used for these judgements only.
 *
 * With `--noise clean,40,20` the noiseless runs come too, and each noisy level's time to answer
 * is reported against them (`timeToAnswer`): every noisy run paired with the same equation and seed
 * clean, the median of noisy / clean search CPU, and the noisy runs over 15 s of search CPU whose
 * first episode already held the final answer (RunRecord.firstHolds).
 *
 *   --seeds 0..4  --noise 40,20  --equations <ids or families>  --methods consolesr
 *   --time-limit 0  --rows 500  --jobs N  --out site/data/search-benchmark-noise.json
 *   --merge a.json,b.json   (report runs made separately as one)
 *   --lines runs.jsonl      (also append each run as it ends: a run cut short keeps what it did;
 *                            --merge takes such files too, wall time then from --wall SECONDS)
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { benchmarkEntries } from "../src/lib/data/benchmark.js";
import { VERSION } from "../src/lib/core/version.js";
import { fileURLToPath } from "node:url";
import { runPool, worker, type Job, type RunRecord } from "./searchSuite.js";

const OUT = "site/data/search-benchmark-noise.json";

/** E_c at or below which a run with the truth's structure counts as recovered, by SNR. */
export const ecTolerance = (snrDb: number): number => (snrDb >= 40 ? 1 : snrDb >= 30 ? 2.5 : 5);

export const endsByItself = (r: RunRecord): boolean =>
  r.stopReason === "noise-floor" || r.stopReason === "reward-threshold";

export const recoveredUnderNoise = (r: RunRecord): boolean =>
  endsByItself(r) && r.structureMatch === true && r.coefficientError <= ecTolerance(r.snrDb ?? 1000);

/** What a merged part's manifest contributes. */
interface MergedManifest {
  wallSeconds: number;
  jobs: number;
  machine: { cpus: number; model: string; node: string };
  loadAverage: { start: number; max: number; mean: number };
}

function flags(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i]!.replace(/^--/, "").split("=");
    out[key!] = inline ?? argv[++i]!;
  }
  const known = [
    "seeds",
    "noise",
    "equations",
    "methods",
    "time-limit",
    "rows",
    "jobs",
    "out",
    "merge",
    "lines",
    "wall",
  ];
  for (const key of Object.keys(out)) if (!known.includes(key)) throw new Error(`unknown flag --${key}`);
  const list = (v: string | undefined, d: string) => (v ?? d).split(",").filter(Boolean);
  const seedText = out.seeds ?? "0..4";
  const range = /^(\d+)\.\.(\d+)$/.exec(seedText);
  const seeds = range
    ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i)
    : list(seedText, "").map(Number);
  const wanted = list(out.equations, "");
  const equations = wanted.length
    ? benchmarkEntries.filter((e) => wanted.some((w) => e.id === w || e.family.toLowerCase() === w.toLowerCase()))
    : benchmarkEntries;
  return {
    seeds,
    // "clean": no noise (snrDb null), the time-to-answer reference.
    noise: list(out.noise, "40,20").map((level) => {
      if (level === "clean") return null;
      const db = Number(level);
      if (!Number.isFinite(db)) throw new Error(`--noise: "${level}" is no level (an SNR in dB, or clean)`);
      return db;
    }),
    equations,
    methods: list(out.methods, "consolesr") as Job["method"][],
    timeLimit: Number(out["time-limit"] ?? 0),
    rows: Number(out.rows ?? 500),
    jobs: Number(out.jobs ?? availableParallelism()),
    out: out.out ?? OUT,
    merge: list(out.merge, ""),
    lines: out.lines,
    wall: Number(out.wall ?? 0),
  };
}

/** Search CPU above which a noisy run whose first episode already held its answer counts as slow (issue 56). */
const SLOW_SECONDS = 15;

/** Each noisy level against the clean runs of the same equation and seed (module comment). */
function timeToAnswer(records: RunRecord[]) {
  const cpu = (r: RunRecord) => r.cpuSeconds ?? r.seconds;
  const key = (r: RunRecord) => `${r.method} ${r.equation} ${r.seed}`;
  const clean = new Map(records.filter((r) => r.snrDb === null).map((r) => [key(r), r]));
  if (clean.size === 0) return [];
  return [...new Set(records.map((r) => r.snrDb))]
    .filter((snrDb) => snrDb !== null)
    .map((snrDb) => {
      const noisy = records.filter((r) => r.snrDb === snrDb && clean.has(key(r)));
      const medianNoisy = median(noisy.map(cpu));
      const medianClean = median(noisy.map((r) => cpu(clean.get(key(r))!)));
      return {
        snrDb,
        pairs: noisy.length,
        medianRatio: Number(median(noisy.map((r) => cpu(r) / Math.max(1e-3, cpu(clean.get(key(r))!)))).toFixed(2)),
        medianNoisy: Number(medianNoisy.toFixed(2)),
        medianClean: Number(medianClean.toFixed(2)),
        ratioOfMedians: Number((medianNoisy / medianClean).toFixed(2)),
        slowWhileHeld: noisy
          .filter((r) => r.firstHolds && cpu(r) > SLOW_SECONDS)
          .map((r) => `${r.equation} seed ${r.seed} (${cpu(r).toFixed(1)} s)`),
      };
    });
}

const median = (v: number[]) => {
  if (v.length === 0) return Number.NaN;
  const s = [...v].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const o = flags(process.argv.slice(2));
  const started = performance.now();
  const load = [loadavg()[0]!];
  let records: RunRecord[];
  let wallSeconds: number;
  /** Merged parts: their machine, jobs and load average. */
  let merged: Pick<MergedManifest, "jobs" | "machine" | "loadAverage"> | undefined;
  if (o.merge.length) {
    const files = o.merge.map((f) => {
      const text = readFileSync(f, "utf8");
      if (f.endsWith(".jsonl"))
        return {
          manifest: { wallSeconds: 0 },
          runs: text
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as RunRecord),
        };
      return JSON.parse(text) as { manifest: Partial<MergedManifest> & { wallSeconds: number }; runs: RunRecord[] };
    });
    records = files.flatMap((f) => f.runs);
    wallSeconds = files.reduce((s, f) => s + f.manifest.wallSeconds, 0) + o.wall;
    // The parts' machine, jobs and load (not the merging machine's): a wall-time-weighted mean.
    const parts = files.map((f) => f.manifest).filter((m): m is MergedManifest => m.loadAverage !== undefined);
    if (parts.length > 0) {
      const wall = parts.reduce((s, m) => s + m.wallSeconds, 0) || 1;
      merged = {
        jobs: parts[0]!.jobs,
        machine: parts[0]!.machine,
        loadAverage: {
          start: parts[0]!.loadAverage.start,
          max: Math.max(...parts.map((m) => m.loadAverage.max)),
          mean: parts.reduce((s, m) => s + m.loadAverage.mean * m.wallSeconds, 0) / wall,
        },
      };
    }
  } else {
    const jobs: Job[] = o.methods.flatMap((method) =>
      o.noise.flatMap((snrDb) =>
        o.equations.flatMap((entry) =>
          o.seeds.map(
            (seed): Job => ({
              method,
              seed,
              equation: entry.id,
              snrDb,
              budget: 0,
              episodes: 600,
              rows: o.rows,
              mode: "unsized",
              announce: false,
              ...(o.timeLimit > 0 ? { timeLimit: o.timeLimit } : {}),
            }),
          ),
        ),
      ),
    );
    process.stderr.write(`noise benchmark: ${jobs.length} jobs on ${Math.min(o.jobs, jobs.length)} processes\n`);
    const sampler = setInterval(() => load.push(loadavg()[0]!), 10_000);
    records = await runPool(
      jobs,
      o.jobs,
      (r, done) => {
        if (o.lines) appendFileSync(o.lines, `${JSON.stringify(r)}\n`);
        const ok = recoveredUnderNoise(r) ? "recovered" : r.structureMatch ? "structure" : "missed";
        process.stderr.write(
          `[${done}/${jobs.length}] ${r.method} ${r.equation} seed ${r.seed} ${r.snrDb} dB: ${ok} ` +
            `(${r.stopReason}, ${r.seconds.toFixed(1)} s, oracle ${r.oracle}): ${r.learned}\n`,
        );
      },
      fileURLToPath(import.meta.url),
    );
    clearInterval(sampler);
    wallSeconds = (performance.now() - started) / 1000;
  }
  const summary = [...new Set(records.map((r) => r.method))].flatMap((method) =>
    [...new Set(records.map((r) => r.snrDb))].map((snrDb) => {
      const runs = records.filter((r) => r.method === method && r.snrDb === snrDb);
      const identifiable = runs.filter((r) => r.oracle);
      const seconds = runs.map((r) => r.seconds);
      return {
        method,
        snrDb,
        runs: runs.length,
        endedByItself: runs.filter(endsByItself).length,
        stopReasons: Object.fromEntries(
          [...new Set(runs.map((r) => r.stopReason))].map((s) => [s, runs.filter((r) => r.stopReason === s).length]),
        ),
        recovered: runs.filter(recoveredUnderNoise).length,
        structureMatch: runs.filter((r) => r.structureMatch).length,
        oracleIdentifiable: identifiable.length,
        recoveredOfIdentifiable: identifiable.filter(recoveredUnderNoise).length,
        medianSeconds: Number(median(seconds).toFixed(2)),
        maxSeconds: Number(Math.max(...seconds).toFixed(2)),
      };
    }),
  );
  console.log(`\n# Unannounced noise (unsized, default flags, ${o.rows} rows)`);
  console.log(
    "method      SNR    ended by itself  recovered  oracle-identifiable  recovered of those  median s  max s",
  );
  for (const s of summary) {
    const pct = (a: number, b: number) => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : "—"} %)`;
    console.log(
      `${s.method.padEnd(12)}${(s.snrDb === null ? "clean" : `${s.snrDb} dB`).padEnd(7)}` +
        `${pct(s.endedByItself, s.runs).padEnd(17)}` +
        `${pct(s.recovered, s.runs).padEnd(11)}${String(s.oracleIdentifiable).padEnd(21)}` +
        `${pct(s.recoveredOfIdentifiable, s.oracleIdentifiable).padEnd(20)}` +
        `${String(s.medianSeconds).padEnd(10)}${s.maxSeconds}`,
    );
    console.log(`            stop reasons: ${JSON.stringify(s.stopReasons)}`);
  }
  const times = timeToAnswer(records);
  for (const t of times)
    console.log(
      `${t.snrDb} dB against clean: median noisy / clean search CPU ${t.medianRatio} over ${t.pairs} pairs ` +
        `(medians ${t.medianNoisy} / ${t.medianClean} s = ${t.ratioOfMedians}); ${t.slowWhileHeld.length} runs ` +
        `over ${SLOW_SECONDS} s whose first episode held the answer` +
        `${t.slowWhileHeld.length ? `: ${t.slowWhileHeld.join(", ")}` : ""}`,
    );
  const json = {
    manifest: {
      version: VERSION,
      date: new Date().toISOString(),
      command: `npm run bench:noise -- --seeds ${o.seeds.join(",")} --noise ${o.noise.join(",")} --rows ${o.rows}`,
      rows: o.rows,
      episodes: 600,
      jobs: merged?.jobs ?? o.jobs,
      machine: merged?.machine ?? {
        cpus: availableParallelism(),
        model: cpus()[0]?.model ?? "unknown",
        node: process.version,
      },
      loadAverage: merged?.loadAverage ?? {
        start: load[0]!,
        max: Math.max(...load),
        mean: load.reduce((a, b) => a + b, 0) / load.length,
      },
      wallSeconds: Number(wallSeconds.toFixed(1)),
      recovered: "ended by itself, the truth's terms, E_c ≤ 1 % (40 dB), 2.5 % (30 dB), 5 % (20 dB)",
      oracle:
        "the true structure's form beats its sub-structures (a term dropped) and super-structures " +
        "(an input added as a term) by the score",
    },
    summary,
    ...(times.length > 0 ? { timeToAnswer: times } : {}),
    runs: records,
  };
  writeFileSync(o.out, `${JSON.stringify(json, null, 1)}\n`);
  console.log(`\nwrote ${o.out} (${wallSeconds.toFixed(0)} s wall)`);
}

// A child of the pool runs jobs (--worker); the parent runs the suite.
if (process.argv.includes("--worker")) await worker();
else await main();
