/**
 * `consolesr sweep <spec.json> [--out DIR] [--jobs N]`: a grid of pipeline configs
 * (docs/design.md#sweeps), run by a local pool of child processes. Every job goes through the same config →
 * result path as `fit` and `run` (prepareRun → runPrepared, run/prepare.ts), and its
 * version-1 result is written atomically to its own file under --out, with a stable name; a
 * summary (summary.json, summary.csv) lists every job. A re-run skips each job whose file is a
 * version-1 result with the job's own manifest config, so an interrupted sweep continues where
 * it stopped.
 *
 * Exit codes: 0 every job ran; 1 one or more jobs failed (each recorded in the summary with its
 * error, the others ran); 2 a bad spec or flag (one `error: …` line, nothing run); 130 / 143
 * after Ctrl-C / SIGTERM (finished results are kept; run the same command again to continue).
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import cliProgress from "cli-progress";
import type { Command } from "commander";
import type { Table } from "../../lib/data/index.js";
import { errorLine, InputError, isInputError } from "../../lib/core/index.js";
import {
  manifestConfig,
  prepareRun,
  resolvePipelineConfig,
  runPrepared,
  type FitConfig,
  type PipelineConfig,
  type PipelineOptions,
} from "../../lib/run/index.js";
import type { Registries } from "../../lib/plugins/index.js";
import { parseResult } from "../../lib/result/index.js";
import { resultToJson, type ResultJson } from "../../lib/result/index.js";
import type { SearchMethod } from "../../lib/search/index.js";
import { BOUNDS } from "../../lib/search/index.js";
import { numberOption } from "../commands/fitOptions.js";
import { gitSha } from "../git.js";
import { csvTable, readBytes, readCsvFile, reporter, writeText } from "../io.js";
import { JobProcesses, type JobRequest } from "./jobProcesses.js";
import { loadRegistries } from "../sandbox/plugins.js";
import { ERROR_CHARS, queueNameOption, queueUrlOption } from "../queue/queue.js";
import type { QueuedJob } from "../queue/queueSubmit.js";
import { showsBar } from "../commands/progress.js";
import { expandSweepSpec, parseSweepSpec, type SweepJob } from "../../lib/sweep/index.js";

export type { SweepJob };

/**
 * Each job's seconds in the summary.json an earlier run of the sweep wrote (empty when there is
 * none or it does not parse): timings live only there, outside the byte-identical results.
 */
function earlierSeconds(file: string): Map<string, number> {
  const seconds = new Map<string, number>();
  try {
    const summary = JSON.parse(readFileSync(file, "utf8")) as { jobs?: { job?: unknown; seconds?: unknown }[] };
    for (const row of summary.jobs ?? [])
      if (typeof row.job === "string" && typeof row.seconds === "number" && Number.isFinite(row.seconds))
        seconds.set(row.job, row.seconds);
  } catch {
    // No earlier summary (a first run), or an unreadable one: no timings to keep.
  }
  return seconds;
}

/** One row of summary.json and summary.csv. */
export interface SummaryRow {
  job: string;
  source: string;
  targets: string;
  method: string;
  variant: string;
  seed: number;
  snr: number | null;
  rows: number | null;
  /** Every target exact (experiments: the truth is known), else null. */
  exact: boolean | null;
  /** Exact and stopped by the reward threshold on every target (a search), else null or false. */
  recovered: boolean | null;
  /** The worst target's test NRMSE (experiments), train NRMSE. */
  testNrmse: number | null;
  trainNrmse: number | null;
  stopReason: string | null;
  /**
   * Wall-clock seconds of the job when it ran: a skipped job keeps the seconds of the summary.json
   * an earlier run left in --out (null where it has none, or the job failed before it ran).
   */
  seconds: number | null;
  skipped: boolean;
  error: string | null;
}

/** The pipeline options of a job: what `run`/`fit` would build from the same flags. */
function jobOptions(job: SweepJob, table: () => Table): PipelineOptions {
  const { givenForm, form, symbols, constraints, reward, fit, ...search } = job.settings;
  const common: PipelineOptions = {
    seed: job.seed,
    symbols,
    ...(fit ? { fit: fit as Partial<FitConfig> } : {}),
  };
  const searching = givenForm !== true && form === undefined;
  const searchOptions: PipelineOptions = searching
    ? { method: job.method as SearchMethod, constraints, reward, search: search as PipelineOptions["search"] }
    : {};
  if (!job.csv) {
    if (form !== undefined) throw new InputError(`"form" applies to a CSV; give "givenForm": true for an experiment`);
    return {
      ...common,
      ...searchOptions,
      experiment: job.source,
      rows: job.rows ?? undefined,
      snrDb: job.snrDb ?? undefined,
      givenForm: givenForm === true,
    };
  }
  if (givenForm) throw new InputError(`"givenForm" applies to an experiment; give "form" for a CSV`);
  return {
    ...common,
    ...searchOptions,
    csv: { name: job.source, table },
    targets: job.targets,
    inputs: job.inputs,
    form,
  };
}

/** A job's problem with its options, as an InputError naming the job. */
const jobProblem = (job: SweepJob, prefix: string) => (error: Error) =>
  new InputError(`${prefix}job ${job.name} (variant ${job.variant}): ${error.message}`);

/** What `check` returns, its problems (InputErrors) naming the job. */
function namingJob<T>(job: SweepJob, prefix: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (isInputError(error)) throw jobProblem(job, prefix)(error);
    throw error;
  }
}

/** A job's resolved config (every problem an InputError naming the job). */
export function resolveJob(job: SweepJob, registries: Registries, table: () => Table, prefix = ""): PipelineConfig {
  return namingJob(job, prefix, () => resolvePipelineConfig(jobOptions(job, table), registries));
}

const maxOf = (values: number[]): number | null => (values.length ? Math.max(...values) : null);

/** The summary row of a job's result. */
export function summaryRow(job: SweepJob, result: ResultJson, seconds: number | null, skipped: boolean): SummaryRow {
  const evaluation = result.evaluation ?? [];
  const exact = evaluation.length ? evaluation.every((e) => e.exact) : null;
  const stops = result.search.targets?.map((t) => t.stopReason) ?? [];
  const config = result.manifest.config;
  return {
    ...rowHead(job),
    targets: result.equations.map((e) => e.target).join(";") || (result.models ?? []).map((m) => m.target).join(";"),
    rows: typeof config.rows === "number" ? config.rows : job.rows,
    exact,
    recovered: exact === null || stops.length === 0 ? null : exact && stops.every((s) => s === "reward-threshold"),
    testNrmse: maxOf(evaluation.map((e) => e.testNrmse)),
    trainNrmse: maxOf([
      ...result.equations.map((e) => e.trainNrmse),
      ...(result.models ?? []).map((m) => m.trainNrmse),
    ]),
    stopReason: result.search.stopReason,
    seconds: seconds === null ? null : Number(seconds.toFixed(3)),
    skipped,
    error: null,
  };
}

function rowHead(
  job: SweepJob,
): Omit<
  SummaryRow,
  "exact" | "recovered" | "testNrmse" | "trainNrmse" | "stopReason" | "seconds" | "skipped" | "error"
> {
  return {
    job: job.name,
    source: job.source,
    targets: (job.targets ?? []).join(";"),
    method: job.method,
    variant: job.variant,
    seed: job.seed,
    snr: job.snrDb,
    rows: job.rows,
  };
}

export const failedRow = (job: SweepJob, error: string, seconds: number | null): SummaryRow => ({
  ...rowHead(job),
  exact: null,
  recovered: null,
  testNrmse: null,
  trainNrmse: null,
  stopReason: null,
  seconds: seconds === null ? null : Number(seconds.toFixed(3)),
  skipped: false,
  error,
});

const SUMMARY_COLUMNS: (keyof SummaryRow)[] = [
  "job",
  "source",
  "targets",
  "method",
  "variant",
  "seed",
  "snr",
  "rows",
  "exact",
  "recovered",
  "testNrmse",
  "trainNrmse",
  "stopReason",
  "seconds",
  "skipped",
  "error",
];

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return "";
  const text = String(v);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function summaryCsv(rows: SummaryRow[]): string {
  return [SUMMARY_COLUMNS.join(","), ...rows.map((r) => SUMMARY_COLUMNS.map((c) => csvCell(r[c])).join(","))]
    .map((line) => `${line}\n`)
    .join("");
}

/**
 * Runs one job in this process: resolves its config and runs the pipeline; the result's text is
 * the bytes `consolesr run`/`fit --out` writes for the same config. `table` is the job's CSV when
 * the caller has it (a queue worker is sent it); else a CSV job reads its file.
 */
export async function computeJob(
  job: SweepJob,
  registries: Registries,
  table?: Table,
): Promise<{ text: string; row: SummaryRow }> {
  const started = performance.now();
  const read = () => (table ??= readCsvFile(job.source));
  const options = namingJob(job, "", () => jobOptions(job, read));
  const prepared = prepareRun(options, { registries, invalidOptions: jobProblem(job, "") });
  const { useBackend } = await import("../../lib/engine/index.js");
  const backend = await useBackend("cpu");
  const { result, search } = await runPrepared(prepared, { git: gitSha(), backend });
  if (search?.error) throw search.error;
  return { text: resultToJson(result), row: summaryRow(job, result, (performance.now() - started) / 1000, false) };
}

/** Whether `result` is a version-1 result of this very config (and, for a CSV, of the same data). */
export function resultOfJob(result: ResultJson, config: PipelineConfig, sha256: string | undefined): boolean {
  return (
    result.manifest.seed === config.seed &&
    JSON.stringify(result.manifest.config) === JSON.stringify(manifestConfig(config)) &&
    (sha256 === undefined || result.manifest.data?.sha256 === sha256)
  );
}

/** A finished job's result in `file`, if it is a version-1 result of this very config; else undefined. */
function finished(file: string, config: PipelineConfig, sha256: string | undefined): ResultJson | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const result = parseResult(readFileSync(file, "utf8"), file);
    return resultOfJob(result, config, sha256) ? result : undefined;
  } catch {
    return undefined;
  }
}

/** done/total, failures and an ETA: a bar on a terminal, a plain line per job elsewhere. */
function sweepProgress(total: number, quiet: boolean) {
  const log = reporter(quiet);
  const started = performance.now();
  let done = 0;
  let failed = 0;
  const bar = showsBar(process.stderr, quiet)
    ? new cliProgress.SingleBar(
        {
          format: "sweep {bar} {value}/{total} jobs | {failed} failed | ETA {eta_formatted} | {job}",
          stream: process.stderr,
          hideCursor: false,
          linewrap: false,
          etaBuffer: 20,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(total, 0, { failed: 0, job: "" });
  return {
    job(row: SummaryRow) {
      done++;
      if (row.error) failed++;
      if (bar) return bar.update(done, { failed, job: row.job });
      const elapsed = (performance.now() - started) / 1000;
      const eta = done < total ? `, ETA ${Math.ceil((elapsed / done) * (total - done))} s` : "";
      const what = row.error
        ? `failed: ${row.error}`
        : `${row.exact === null ? "done" : row.exact ? "exact" : "not exact"} (${row.seconds} s)`;
      log.info(`[${done}/${total}] ${row.job}: ${what}; ${failed} failed${eta}`);
    },
    stop() {
      bar?.stop();
    },
  };
}

/** Runs `jobs` on `size` child processes; `onRow` after each. Resolves when all are done or `signal` aborts. */
async function runPool(
  jobs: { job: SweepJob; file: string }[],
  size: number,
  onRow: (row: SummaryRow) => void,
  signal: AbortSignal,
): Promise<void> {
  const pool = new JobProcesses(size);
  const stop = () => pool.stop();
  signal.addEventListener("abort", stop);
  try {
    await Promise.all(
      jobs.map(async (item) => {
        const outcome = await pool.run(item);
        if (!outcome || signal.aborted) return;
        const { reply, seconds } = outcome;
        onRow(reply.row ?? failedRow(item.job, reply.error ?? "unknown error", seconds));
      }),
    );
  } finally {
    signal.removeEventListener("abort", stop);
    pool.close();
  }
}

/**
 * The hidden `sweep-worker` command (a child of JobProcesses): runs the jobs its parent sends over
 * IPC, one at a time; writes each result to the request's file, or sends its text back. Ends when
 * its parent goes (the channel closes), even under a job, whose result nobody would receive.
 */
async function workerLoop(): Promise<void> {
  if (!process.send) throw new InputError("sweep-worker is started by `consolesr sweep`, not by hand");
  process.on("disconnect", () => process.exit(0));
  const send = (message: object) => {
    if (process.connected) process.send!(message);
  };
  const { registries } = await loadRegistries();
  process.on("message", (request: JobRequest) => {
    const { job, file, csv } = request;
    const table = csv ? csvTable(Buffer.from(csv.base64, "base64"), job.source, csv.sha256) : undefined;
    computeJob(job, registries, table)
      .then(({ text, row }) => {
        if (file === undefined) return send({ name: job.name, row, text });
        writeText(file, text);
        send({ name: job.name, row });
      })
      .catch((error: unknown) =>
        send({ name: job.name, error: errorLine(error, ERROR_CHARS), input: isInputError(error) }),
      );
  });
  send({ ready: true });
  await new Promise<never>(() => {});
}

interface SweepFlags {
  out: string;
  jobs?: number;
  queue?: string;
  queueName: string;
  quiet?: boolean;
}

async function sweep(specFile: string, flags: SweepFlags): Promise<void> {
  const log = reporter(Boolean(flags.quiet));
  let value: unknown;
  try {
    value = JSON.parse(
      readBytes(specFile, "spec")
        .toString("utf8")
        .replace(/^\uFEFF/, ""),
    );
  } catch (error) {
    if (isInputError(error)) throw error;
    throw new InputError(`${specFile}: not a JSON file (${errorLine(error, ERROR_CHARS)})`);
  }
  const spec = parseSweepSpec(value, specFile);
  const jobs = expandSweepSpec(spec, specFile);
  const out = flags.out;
  if (existsSync(out) && !statSync(out).isDirectory()) throw new InputError(`--out ${out}: is a file; name a folder`);
  if (flags.queue && flags.jobs !== undefined)
    throw new InputError("--jobs sets the local pool; with --queue, give --jobs to each `consolesr worker`");
  // Every job's config first: a bad variant or column stops the sweep before anything runs.
  const { registries } = await loadRegistries();
  let table: Table | undefined;
  let csvBytes: Buffer | undefined;
  const read = (): Table => {
    if (table) return table;
    csvBytes = readBytes(spec.csv!, "CSV");
    table = csvTable(csvBytes, spec.csv!);
    return table;
  };
  const rows = new Map<string, SummaryRow>();
  const pending: QueuedJob[] = [];
  const earlier = earlierSeconds(join(out, "summary.json"));
  for (const job of jobs) {
    const config = resolveJob(job, registries, read, `${specFile}: `);
    const file = join(out, `${job.name}.json`);
    const sha256 = job.csv ? read().sha256 : undefined;
    const result = finished(file, config, sha256);
    if (result) rows.set(job.name, summaryRow(job, result, earlier.get(job.name) ?? null, true));
    else pending.push({ job, file, config, ...(sha256 ? { sha256 } : {}) });
  }
  // With --queue, Redis is reached (or the one error line printed) before anything is written.
  const queue =
    flags.queue && pending.length
      ? await (await import("../queue/queueSubmit.js")).openSweepQueue({
          url: flags.queue,
          name: flags.queueName,
          out,
          ...(csvBytes && table?.sha256 ? { csv: { bytes: csvBytes, sha256: table.sha256 } } : {}),
        })
      : undefined;
  mkdirSync(out, { recursive: true });
  const skipped = rows.size;
  const size = Math.max(1, Math.min(flags.jobs ?? availableParallelism(), pending.length || 1));
  log.info(
    `sweep: ${jobs.length} jobs; skipped ${skipped} already finished in ${out}; running ${pending.length} ` +
      (queue ? `on ${queue.where}` : `on ${size} worker${size === 1 ? "" : "s"}`),
  );
  const progress = sweepProgress(pending.length, Boolean(flags.quiet));
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const onRow = (row: SummaryRow) => {
    rows.set(row.job, row);
    progress.job(row);
  };
  try {
    if (queue) await queue.run(pending, onRow, controller.signal, log);
    else if (pending.length) await runPool(pending, size, onRow, controller.signal);
  } finally {
    progress.stop();
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  const ordered = jobs.flatMap((job) => rows.get(job.name) ?? []);
  writeText(
    join(out, "summary.json"),
    `${JSON.stringify({ summary: "consolesr sweep", version: 1, spec: specFile, jobs: ordered }, null, 2)}\n`,
  );
  writeText(join(out, "summary.csv"), summaryCsv(ordered));
  const failed = ordered.filter((r) => r.error).length;
  const ran = ordered.length - skipped;
  if (stoppedBy) {
    process.stderr.write(
      `${stoppedBy === "SIGINT" ? "interrupted" : `stopped by ${stoppedBy}`}: ${ordered.length} of ${jobs.length} ` +
        `jobs finished; run the same command again to continue` +
        `${queue ? " (the queued jobs stay on the queue; it collects what the workers finish meanwhile)" : ""}\n`,
    );
    process.exitCode = stoppedBy === "SIGINT" ? 130 : 143;
    return;
  }
  const exact = ordered.filter((r) => r.exact).length;
  const known = ordered.filter((r) => r.exact !== null).length;
  process.stdout.write(
    `${jobs.length} jobs: ${ran} ran, skipped ${skipped}, ${failed} failed` +
      `${known ? `; ${exact} of ${known} exact` : ""}; wrote ${join(out, "summary.csv")}\n`,
  );
  for (const r of ordered) if (r.error) process.stderr.write(`error: job ${r.job}: ${r.error}\n`);
  if (failed) process.exitCode = 1;
}

export function registerSweep(program: Command): void {
  program
    .command("sweep")
    .description(
      "run a grid of experiments, CSV fits and settings (a JSON spec) on a local pool of processes or a Redis queue",
    )
    .argument("<spec.json>", "the grid: sources × methods × seeds × snr × rows × variants (see the sweeps guide)")
    .option("--out <dir>", "folder of the results and the summary", "sweep-out")
    .addOption(numberOption("--jobs <n>", "local worker processes (default: the number of cores)", BOUNDS.jobs))
    .addOption(queueUrlOption("run the jobs on `consolesr worker` processes through Redis at redis://HOST:PORT"))
    .addOption(queueNameOption())
    .option("--quiet", "no progress on stderr")
    .action(sweep);
  program.command("sweep-worker", { hidden: true }).action(workerLoop);
}
