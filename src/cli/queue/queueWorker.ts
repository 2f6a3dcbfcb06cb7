/**
 * `consolesr worker --queue redis://HOST:PORT [--queue-name NAME] [--jobs N]`: runs sweep jobs
 * from a BullMQ queue (put there by `consolesr sweep --queue`), on any machine that reaches Redis.
 * Up to N jobs at a time, each in a `sweep-worker` child process (the local sweep's job runner,
 * jobProcesses.ts), so N jobs use N cores while this process only keeps the jobs' locks alive; a
 * job's result goes back as its return value. A failed job runs again (ATTEMPTS in all) unless its
 * error is bad input; a job whose worker died (killed, out of memory, the machine lost) is found
 * stalled by another worker and runs again. Runs until Ctrl-C / SIGTERM: the first lets the
 * running jobs finish, a second stops them at once (they run again elsewhere).
 */
import { availableParallelism } from "node:os";
import type { Job } from "bullmq";
import { type Command, Option } from "commander";
import { BOUNDS } from "../../lib/search/index.js";
import { InputError } from "../../lib/core/index.js";
import { numberOption } from "../commands/fitOptions.js";
import { reporter } from "../io.js";
import { JobProcesses, type JobRequest } from "../sweep/jobProcesses.js";
import {
  ATTEMPTS,
  connectRedis,
  dataKey,
  queueNameOption,
  queueUrlOption,
  shownUrl,
  type QueueJobData,
  type QueueJobResult,
} from "./queue.js";

interface WorkerFlags {
  queue?: string;
  queueName: string;
  jobs?: number;
  stalledInterval?: number;
  quiet?: boolean;
}

/** BullMQ's defaults: a running job's lock lasts 30 s, renewed halfway; stalled jobs are looked for as often. */
const STALLED_INTERVAL_MS = 30_000;

async function worker(flags: WorkerFlags): Promise<void> {
  const log = reporter(Boolean(flags.quiet));
  if (!flags.queue) throw new Error("unreachable: --queue is a required option");
  const url = flags.queue;
  const redis = await connectRedis(url);
  const { Worker, UnrecoverableError } = await import("bullmq");
  const size = flags.jobs ?? availableParallelism();
  const pool = new JobProcesses(size);
  const store = redis.open();
  /** CSV bytes by SHA-256: a sweep's jobs share one file, fetched once. */
  const data = new Map<string, Promise<Buffer | null>>();

  const runQueued = async (job: Job<QueueJobData, QueueJobResult>): Promise<QueueJobResult> => {
    const { job: sweepJob, csv } = job.data;
    const attempt = `attempt ${job.attemptsMade + 1} of ${job.opts.attempts ?? 1}`;
    log.info(`worker: ${sweepJob.name}: started (${attempt})`);
    const request: JobRequest = { job: sweepJob };
    if (csv) {
      if (!data.has(csv.sha256)) data.set(csv.sha256, store.getBuffer(dataKey(csv.sha256)));
      const bytes = await data.get(csv.sha256)!;
      if (!bytes) {
        data.delete(csv.sha256);
        throw new UnrecoverableError(`the CSV of ${sweepJob.source} is no longer in Redis; run the sweep again`);
      }
      request.csv = { base64: bytes.toString("base64"), sha256: csv.sha256 };
    }
    const outcome = await pool.run(request);
    if (!outcome) throw new Error("the worker was stopped");
    const { reply, seconds } = outcome;
    if (reply.error !== undefined || reply.text === undefined) {
      const error = reply.error ?? "the job process sent no result";
      const final = reply.input || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.info(
        `worker: ${sweepJob.name}: failed (${attempt}): ${error}` +
          (reply.input ? "; bad input, not run again" : final ? "" : "; it will run again"),
      );
      throw reply.input ? new UnrecoverableError(error) : new Error(error);
    }
    log.info(`worker: ${sweepJob.name}: done in ${seconds.toFixed(1)} s`);
    return { text: reply.text, seconds: reply.row?.seconds ?? seconds };
  };

  const stalledInterval = flags.stalledInterval ?? STALLED_INTERVAL_MS;
  const bull = new Worker<QueueJobData, QueueJobResult>(flags.queueName, runQueued, {
    connection: store,
    concurrency: size,
    lockDuration: stalledInterval,
    stalledInterval,
    // A job whose worker died runs again; one that stalled twice (it kills its workers?) fails.
    maxStalledCount: 1,
  });
  // BullMQ repeats a connection error at every retry: say each one once.
  let lastError = "";
  bull.on("error", (error) => {
    const line = error.message.split("\n")[0]!;
    if (line !== lastError) log.warn(`warning: worker: ${line}`);
    lastError = line;
  });
  bull.on("active", () => {
    lastError = "";
  });
  await bull.waitUntilReady();
  log.info(
    `worker: serving queue ${flags.queueName} at ${shownUrl(url)} with ${size} job process${size === 1 ? "" : "es"} ` +
      `(jobs run ${ATTEMPTS} times at most); Ctrl-C to stop`,
  );

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  const now = (second: NodeJS.Signals) => {
    log.info(`worker: stopped by ${second}; the running jobs will run again elsewhere`);
    pool.stop();
    redis.close();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", now);
  process.once("SIGTERM", now);
  log.info(`worker: ${signal}: finishing the running jobs (${signal} again to stop at once)`);
  // BullMQ's close waits on Redis: with the server gone it would never end. Once no job of this
  // worker runs, a moment more for close (a result to report), then stop whatever the queue's state.
  const idle = async () => {
    while (pool.busy > 0) await delay(POLL_MS);
    await delay(CLOSE_GRACE_MS);
  };
  await Promise.race([bull.close(), idle()]);
  pool.close();
  redis.close();
  process.removeListener("SIGINT", now);
  process.removeListener("SIGTERM", now);
  process.exitCode = signal === "SIGINT" ? 130 : 143;
  // A connection still retrying must not keep the process alive.
  setTimeout(() => process.exit(), CLOSE_GRACE_MS).unref();
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** How often a stopping worker looks whether its jobs are done, and how long close then has (ms). */
const POLL_MS = 200;
const CLOSE_GRACE_MS = 2000;

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("run sweep jobs from a Redis queue (consolesr sweep --queue), on this machine")
    .addOption(queueUrlOption("the Redis server of the queue, redis://HOST:PORT").makeOptionMandatory())
    .addOption(queueNameOption())
    .addOption(numberOption("--jobs <n>", "jobs at a time, each in its own process (default: the cores)", BOUNDS.jobs))
    .addOption(
      new Option("--stalled-interval <ms>", "how soon a dead worker's job runs again (ms)")
        .argParser((text: string) => {
          const ms = Number(text);
          if (!Number.isInteger(ms) || ms < 100 || ms > 3_600_000)
            throw new InputError(`--stalled-interval must be an integer from 100 to 3600000 (ms), not ${text}`);
          return ms;
        })
        .hideHelp(),
    )
    .option("--quiet", "no line per job on stderr")
    .action(worker);
}
