/**
 * `npm run bench:paper-csv`: the paper's two physical systems as a user meets them, a CSV file
 * and `consolesr fit` with default flags, rather than `consolesr run mas|pow` with the
 * experiments' own settings (the pool {x}, Pow's wide proposals and sizes).
 *
 * For each case the library's own pipeline makes the data `run <experiment> --seed 0 [--snr]`
 * would (resolvePipelineConfig, pipelineData: the same rows, the same noise), written as CSV
 * (datasetToCsv: a header row, the inputs then every output, numbers that read back to the same
 * bits) into a scratch folder, training rows and test rows in two files. Then the CLI, in a
 * process of its own, fits the training file:
 *
 *   consolesr fit <train.csv> --target <every output> --seed 0 --out <json> --quiet --timings
 *             [--time-limit <s>]
 *
 * (no --symbols, no sizes: every registered symbol and a size that grows by itself; --quiet and
 * --timings change what is printed and written, not the search). Its CPU (user + system, read by a
 * preloaded module from process.resourceUsage() at exit) and wall time are measured, and the
 * search's own seconds read from the result. Each output is judged against the truth by the code
 * `run` uses (evaluateExperiment: exact recovery, the same terms with every coefficient within
 * 1 %, on the simplified truth); under noise by its structure instead (the same terms, any
 * coefficients: exactRecovery with no coefficient tolerance).
 *
 * Cases: mas (clean), pow (clean), mas-40db (40 dB Gaussian noise on the training outputs, the
 * noise std 1 % of each output's, data/noise.ts, seeded as `run mas --snr 40 --seed 0`).
 *
 *   --cases mas,pow,mas-40db  --targets <outputs> (a subset, for trials: the other outputs stay
 *   columns of the file, and the inputs are then named with --inputs)  --time-limit 300 (seconds
 *   per fit; 0: none)  --out site/data/paper-csv-benchmark.json  --keep (keep the scratch folder)
 *
 * Prints a table (case, outputs right / total, CPU s, search s, wall s); asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gitSha } from "../src/cli/git.js";
import {
  columnOf,
  createRegistries,
  datasetToCsv,
  type Equation,
  evaluateExperiment,
  exactRecovery,
  experiments,
  parseResult,
  pipelineData,
  resolvePipelineConfig,
  resultEquation,
  simplifyEquation,
  VERSION,
} from "../src/lib/index.js";
import { BIN } from "./processes.js";

interface Case {
  name: string;
  experiment: "mas" | "pow";
  /** Noise on the training outputs in dB; absent: clean. */
  snrDb?: number;
}

const CASES: readonly Case[] = [
  { name: "mas", experiment: "mas" },
  { name: "pow", experiment: "pow" },
  { name: "mas-40db", experiment: "mas", snrDb: 40 },
];

/** The data's seed and the search's, as `run <experiment> --seed 0`. */
const SEED = 0;

interface OutputVerdict {
  target: string;
  truth: string;
  learned: string;
  /** Exact recovery (the same terms, every coefficient within 1 %). */
  exact: boolean;
  /** The same terms as the truth, coefficients aside. */
  structure: boolean;
  /** Counted as right: `exact` when clean, `structure` under noise. */
  right: boolean;
  coefficientError: number;
  testNrmse: number;
  trainNrmse: number | null;
  reason: string;
  stopReason?: string;
}

interface CaseRun {
  case: string;
  experiment: string;
  snrDb: number | null;
  trainRows: number;
  testRows: number;
  targets: string[];
  right: number;
  total: number;
  /** The CLI process's CPU, user + system (null: it did not report, e.g. killed). */
  cpuSeconds: number | null;
  userSeconds: number | null;
  systemSeconds: number | null;
  maxRssMb: number | null;
  wallSeconds: number;
  /** The search's wall seconds as the result reports them (--timings). */
  searchSeconds: number | null;
  stopReason: string | null;
  command: string;
  outputs: OutputVerdict[];
  error?: string;
}

function options(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [key, inline] = argv[i]!.replace(/^--/, "").split("=");
    out[key!] = key === "keep" ? "true" : (inline ?? argv[++i]!);
  }
  const known = ["cases", "targets", "time-limit", "out", "keep"];
  for (const key of Object.keys(out))
    if (!known.includes(key))
      throw new Error(`unknown flag --${key} (known: ${known.map((k) => `--${k}`).join(", ")})`);
  const names = (out.cases ?? CASES.map((c) => c.name).join(",")).split(",");
  for (const name of names)
    if (!CASES.some((c) => c.name === name))
      throw new Error(`unknown case ${name} (known: ${CASES.map((c) => c.name).join(", ")})`);
  const timeLimit = Number(out["time-limit"] ?? 300);
  if (!(timeLimit >= 0)) throw new Error(`--time-limit must be 0 or more seconds (got ${out["time-limit"]})`);
  return {
    cases: CASES.filter((c) => names.includes(c.name)),
    targets: out.targets?.split(","),
    timeLimit,
    out: out.out ?? "site/data/paper-csv-benchmark.json",
    keep: out.keep === "true",
  };
}

/** A module preloaded into the CLI's process that reports its resource use at exit. */
function writeProbe(dir: string): string {
  const probe = join(dir, "usage.mjs");
  writeFileSync(
    probe,
    'process.on("exit", () => { const u = process.resourceUsage(); ' +
      'process.stderr.write(["\\nUSAGE", u.userCPUTime, u.systemCPUTime, u.maxRSS].join(" ") + "\\n"); });\n',
  );
  return probe;
}

/** One case: its data as CSV, the CLI's fit of it, and the verdict of each output. */
function runCase(c: Case, o: ReturnType<typeof options>, dir: string, probe: string): CaseRun {
  const registries = createRegistries();
  const lookup = (name: string) => registries.symbols.get(name);
  const experiment = experiments[c.experiment]!;
  const config = resolvePipelineConfig(
    { experiment: c.experiment, seed: SEED, ...(c.snrDb === undefined ? {} : { snrDb: c.snrDb }) },
    registries,
  );
  const data = pipelineData(config, { registries });
  const { train, test } = data;
  if (!test) throw new Error(`${c.name}: the experiment's data has no test set`);
  const targets = o.targets ? train.targets.filter((t) => o.targets!.includes(t)) : train.targets;
  if (targets.length === 0)
    throw new Error(`${c.name}: none of --targets ${o.targets!.join(",")} is an output (${train.targets.join(", ")})`);
  const trainCsv = join(dir, `${c.name}-train.csv`);
  writeFileSync(trainCsv, datasetToCsv(train));
  writeFileSync(join(dir, `${c.name}-test.csv`), datasetToCsv(test));
  const json = join(dir, `${c.name}.json`);
  const args = [
    "fit",
    trainCsv,
    "--target",
    targets.join(","),
    // A subset of the outputs: the others would be read as inputs unless the inputs are named.
    ...(targets.length < train.targets.length ? ["--inputs", train.inputs.join(",")] : []),
    "--seed",
    String(SEED),
    "--out",
    json,
    "--quiet",
    "--timings",
    ...(o.timeLimit > 0 ? ["--time-limit", String(o.timeLimit)] : []),
  ];
  const command = `consolesr ${args.map((a) => a.replace(dir, "$SCRATCH")).join(" ")}`;
  process.stderr.write(`${c.name}: ${command}\n`);
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--import", probe, BIN, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    // A hang is a failure, not a figure: the limit, plus time to write the best so far.
    ...(o.timeLimit > 0 ? { timeout: (o.timeLimit + 600) * 1000 } : {}),
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const usage = /USAGE (\d+) (\d+) (\d+)/.exec(child.stderr ?? "");
  const seconds = (micro: string | undefined) => (micro === undefined ? null : Number(micro) / 1e6);
  const base = {
    case: c.name,
    experiment: c.experiment,
    snrDb: c.snrDb ?? null,
    trainRows: train.rows,
    testRows: test.rows,
    targets,
    total: targets.length,
    userSeconds: seconds(usage?.[1]),
    systemSeconds: seconds(usage?.[2]),
    cpuSeconds: usage ? (Number(usage[1]) + Number(usage[2])) / 1e6 : null,
    maxRssMb: usage ? Number(usage[3]) / 1024 : null,
    wallSeconds,
    command,
  };
  if (child.status !== 0) {
    const why = child.error?.message ?? `exit ${child.status ?? child.signal}`;
    const tail = (child.stderr ?? "")
      .replace(/\nUSAGE .*\n/, "")
      .trim()
      .split("\n")
      .slice(-3)
      .join(" | ");
    return { ...base, right: 0, searchSeconds: null, stopReason: null, outputs: [], error: `${why}: ${tail}` };
  }
  const result = parseResult(readFileSync(json, "utf8"), json);
  const learned = result.equations.map(resultEquation);
  const evaluation = evaluateExperiment(experiment, learned, { train, test }, registries.symbols);
  // The truth simplified as evaluateExperiment simplifies it, for the structure verdict.
  const simplify = (e: Equation) =>
    simplifyEquation(e, {
      symbols: lookup,
      inputOrder: train.inputs,
      symbolOrder: registries.symbols.names(),
      columns: (name: string) => columnOf(train, name),
      rows: train.rows,
    });
  const outputs = targets.map((target): OutputVerdict => {
    const scored = evaluation.find((e) => e.target === target)!;
    const found = learned.find((e) => e.target === target) ?? { target, terms: [] };
    const truth = simplify(experiment.truth.find((e) => e.target === target)!);
    const structure = exactRecovery(truth, found, lookup, Number.POSITIVE_INFINITY).exact;
    const equation = result.equations.find((e) => e.target === target);
    return {
      target,
      truth: scored.truth,
      learned: equation?.text ?? "",
      exact: scored.exact,
      structure,
      right: c.snrDb === undefined ? scored.exact : structure,
      coefficientError: scored.coefficientError,
      testNrmse: scored.testNrmse,
      trainNrmse: equation?.trainNrmse ?? null,
      reason: scored.reason,
      ...(result.search.targets
        ? { stopReason: result.search.targets.find((t) => t.target === target)?.stopReason }
        : {}),
    };
  });
  return {
    ...base,
    right: outputs.filter((v) => v.right).length,
    searchSeconds: result.search.seconds ?? null,
    stopReason: result.search.stopReason,
    outputs,
  };
}

function main(): void {
  const o = options(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), "consolesr-paper-csv-"));
  const probe = writeProbe(dir);
  const started = performance.now();
  const loads: number[] = [loadavg()[0]!];
  const runs: CaseRun[] = [];
  try {
    for (const c of o.cases) {
      const run = runCase(c, o, dir, probe);
      loads.push(loadavg()[0]!);
      runs.push(run);
      for (const v of run.outputs)
        process.stderr.write(
          `  ${v.target}: ${v.exact ? "exact" : v.structure ? "its terms" : "not exact"}` +
            ` (${v.stopReason ?? "?"}): ${v.target} = ${v.learned}\n`,
        );
      process.stderr.write(
        `${run.case}: ${run.right} / ${run.total} right, ${run.cpuSeconds?.toFixed(1) ?? "?"} s CPU, ` +
          `${run.wallSeconds.toFixed(1)} s wall${run.error ? ` (${run.error})` : ""}\n`,
      );
    }
  } finally {
    if (o.keep) process.stderr.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
  const report = {
    manifest: {
      version: VERSION,
      git: gitSha().slice(0, 7),
      seed: SEED,
      timeLimit: o.timeLimit,
      ...(o.targets ? { targets: o.targets } : {}),
      wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? "unknown", node: process.version },
      loadAverage: { max: Number(Math.max(...loads).toFixed(2)) },
      flags: "consolesr fit <train.csv> --target <outputs> --seed 0 --out <json> --quiet --timings [--time-limit]",
      rule:
        "clean: exact (evaluateExperiment: the truth's terms, every coefficient within 1 %); " +
        "noisy: structure (the truth's terms, coefficients aside)",
      cpu: "the CLI process's user + system CPU (process.resourceUsage at exit), start-up included",
    },
    runs,
  };
  writeFileSync(o.out, `${JSON.stringify(report, null, 1)}\n`);
  console.log("| case | outputs right / total | CPU s | search s | wall s |");
  console.log("|---|---|---|---|---|");
  const fixed = (v: number | null) => (v === null ? "—" : v.toFixed(1));
  for (const r of runs)
    console.log(
      `| ${r.case}${r.snrDb === null ? "" : " (structure)"} | ${r.right} / ${r.total}${r.error ? " (failed)" : ""} | ` +
        `${fixed(r.cpuSeconds)} | ${fixed(r.searchSeconds)} | ${fixed(r.wallSeconds)} |`,
    );
  process.stderr.write(`wrote ${o.out}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
