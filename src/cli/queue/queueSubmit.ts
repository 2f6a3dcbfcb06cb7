/**
 * `consolesr sweep spec.json --queue redis://HOST:PORT`: the submitting side. The sweep's pending
 * jobs go on a BullMQ queue (a job already there from an earlier run of the same command is not
 * queued twice); `consolesr worker` processes on any machine run them; each result comes back as
 * its job's return value (announced by QueueEvents) and is written here, atomically, once. A job
 * that failed for good comes back as its error, recorded in the summary like a local failure.
 * Imported only when --queue is given (sweep.ts imports it lazily), and so is bullmq.
 */
import type { Queue } from "bullmq";
import type { PipelineConfig } from "../../lib/run/index.js";
import { errorLine } from "../../lib/core/index.js";
import { parseResult } from "../../lib/result/index.js";
import { writeText, type Reporter } from "../io.js";
import {
  ATTEMPTS,
  connectRedis,
  dataKey,
  DEFAULT_QUEUE,
  ERROR_CHARS,
  queueJobId,
  shownUrl,
  sweepId,
  type QueueJobData,
  type QueueJobResult,
} from "./queue.js";
import { failedRow, resultOfJob, summaryRow, type SummaryRow, type SweepJob } from "../sweep/sweep.js";

/** A pending job of the sweep: where its result goes, and what it must be (config, data digest). */
export interface QueuedJob {
  job: SweepJob;
  file: string;
  config: PipelineConfig;
  sha256?: string;
}

export interface SweepQueueOptions {
  url: string;
  name: string;
  /** The sweep's --out folder: with the machine, it names the sweep's jobs on the queue. */
  out: string;
  /** A CSV sweep's bytes: put in Redis once, for workers on machines without the file. */
  csv?: { bytes: Buffer; sha256: string };
}

/** How long a CSV's bytes stay in Redis after the last sweep that put them there (seconds). */
const DATA_TTL_S = 30 * 24 * 3600;
/** With no news from the queue for this long, the submitter asks Redis for its jobs' states itself. */
const RECONCILE_MS = 5000;

type Outcome = { value: QueueJobResult } | { error: string };

/** Connects to Redis (an unreachable one is an InputError within seconds) before anything is written. */
export async function openSweepQueue(options: SweepQueueOptions): Promise<SweepQueue> {
  return new SweepQueue(options, await connectRedis(options.url));
}

export class SweepQueue {
  readonly #options: SweepQueueOptions;
  readonly #redis: Awaited<ReturnType<typeof connectRedis>>;

  constructor(options: SweepQueueOptions, redis: Awaited<ReturnType<typeof connectRedis>>) {
    this.#options = options;
    this.#redis = redis;
  }

  /** "queue NAME at redis://HOST:PORT", for the log. */
  get where(): string {
    return `queue ${this.#options.name} at ${shownUrl(this.#options.url)}`;
  }

  /** The command that serves this queue, for the log. */
  get workerCommand(): string {
    const name = this.#options.name === DEFAULT_QUEUE ? "" : ` --queue-name ${this.#options.name}`;
    return `consolesr worker --queue ${shownUrl(this.#options.url)}${name}`;
  }

  /** Queues `items`, then writes each result as it comes back; resolves when all are in or `signal` aborts. */
  async run(items: QueuedJob[], onRow: (row: SummaryRow) => void, signal: AbortSignal, log: Reporter): Promise<void> {
    const { Queue, QueueEvents } = await import("bullmq");
    const { name, out, csv } = this.#options;
    const queue = new Queue<QueueJobData, QueueJobResult>(name, {
      connection: this.#redis.open(),
      // Each event carries a result's text: a short stream is enough for a submitter that listens.
      streams: { events: { maxLen: 1000 } },
    });
    const events = new QueueEvents(name, { connection: this.#redis.open() });
    const sweep = sweepId(out);
    const outstanding = new Map(items.map((item) => [queueJobId(sweep, item.job, item.config, item.sha256), item]));
    let lastNews = performance.now();
    let allIn!: () => void;
    const done = new Promise<void>((resolve) => {
      allIn = resolve;
    });
    // Each result is written once: the first completion of a job settles it; a later one (or another sweep's job) finds
    // nothing outstanding.
    const settle = (id: string, outcome: Outcome) => {
      lastNews = performance.now();
      const item = outstanding.get(id);
      if (!item) return;
      outstanding.delete(id);
      onRow(collect(item, outcome));
      queue.remove(id).catch(() => {});
      if (outstanding.size === 0) allIn();
    };
    events.on("completed", ({ jobId, returnvalue }) =>
      settle(jobId, { value: returnvalue as unknown as QueueJobResult }),
    );
    events.on("failed", ({ jobId, failedReason }) => settle(jobId, { error: failedReason }));
    events.on("error", () => {});
    queue.on("error", () => {});
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
      if (csv) await this.#redis.open().set(dataKey(csv.sha256), csv.bytes, "EX", DATA_TTL_S);
      const counts = await enqueue(queue, outstanding, settle, csv?.sha256);
      log.info(
        `sweep: queued ${counts.added} jobs on ${this.where}` +
          (counts.queued ? `, ${counts.queued} still queued from before` : "") +
          (counts.collected ? `, collected ${counts.collected} finished meanwhile` : "") +
          (outstanding.size ? `; workers run them: ${this.workerCommand}` : ""),
      );
      if (outstanding.size === 0) allIn();
      // Events can be missed (a dropped connection, a trimmed stream): now and then, ask for the states.
      // Jobs gone from the queue unsettled (Redis restarted without persistence) are queued again:
      // a job may run twice, its result is written once (settle).
      const requeue = async (ids: string[]) => {
        if (csv) await this.#redis.open().set(dataKey(csv.sha256), csv.bytes, "EX", DATA_TTL_S);
        const lost = new Map(ids.flatMap((id) => (outstanding.has(id) ? [[id, outstanding.get(id)!] as const] : [])));
        const { added } = await enqueue(queue, lost, settle, csv?.sha256);
        if (added > 0)
          log.warn(
            `warning: sweep: ${added} job${added === 1 ? " was" : "s were"} no longer on ${this.where} ` +
              `(Redis restarted?); queued again`,
          );
      };
      let reconciling = false;
      timer = setInterval(() => {
        if (performance.now() - lastNews < RECONCILE_MS || reconciling) return;
        lastNews = performance.now();
        reconciling = true;
        reconcile(queue, outstanding, settle, requeue)
          .catch(() => {})
          .finally(() => {
            reconciling = false;
          });
      }, RECONCILE_MS);
      await new Promise<void>((resolve) => {
        done.then(resolve);
        if (signal.aborted) resolve();
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
    } finally {
      clearInterval(timer);
      await Promise.allSettled([events.close(), queue.close()]);
      this.#redis.close();
    }
  }

  /** Lets go of Redis without running anything. */
  close(): void {
    this.#redis.close();
  }
}

/** A job's summary row from its outcome; a result is written to its file here, once. */
function collect(item: QueuedJob, outcome: Outcome): SummaryRow {
  if ("error" in outcome) return failedRow(item.job, outcome.error, null);
  const seconds = outcome.value?.seconds ?? null;
  try {
    const text = outcome.value?.text;
    if (typeof text !== "string") throw new Error("the worker sent no result");
    const result = parseResult(text, `the worker's result`);
    if (!resultOfJob(result, item.config, item.sha256))
      throw new Error("the worker's result is not of this job's config (does the worker run another consolesr?)");
    writeText(item.file, text);
    return summaryRow(item.job, result, seconds, false);
  } catch (error) {
    return failedRow(item.job, errorLine(error, ERROR_CHARS), seconds);
  }
}

/**
 * Puts the outstanding jobs on the queue. A job still there from an earlier run of the same
 * command is left as it is (waiting or running) or collected (finished); one that failed then
 * runs again, as a local re-run would.
 */
async function enqueue(
  queue: Queue<QueueJobData, QueueJobResult>,
  outstanding: Map<string, QueuedJob>,
  settle: (id: string, outcome: Outcome) => void,
  sha256: string | undefined,
): Promise<{ added: number; queued: number; collected: number }> {
  const adds: Parameters<typeof queue.addBulk>[0] = [];
  let queued = 0;
  let collected = 0;
  for (const [id, item] of [...outstanding]) {
    const state = await queue.getJobState(id);
    if (state === "completed") {
      const job = await queue.getJob(id);
      if (job) {
        settle(id, { value: job.returnvalue });
        collected++;
        continue;
      }
    } else if (state === "failed") await queue.remove(id);
    else if (state !== "unknown") {
      queued++;
      continue;
    }
    adds.push({
      name: item.job.name,
      data: { job: item.job, ...(sha256 ? { csv: { sha256 } } : {}) },
      opts: {
        jobId: id,
        attempts: ATTEMPTS,
        backoff: { type: "exponential", delay: 1000 },
        removeOnComplete: false,
        removeOnFail: false,
      },
    });
  }
  for (let i = 0; i < adds.length; i += 500) await queue.addBulk(adds.slice(i, i + 500));
  return { added: adds.length, queued, collected };
}

/** Settles the jobs that finished without their event reaching this process; `requeue` gets those gone from Redis. */
async function reconcile(
  queue: Queue<QueueJobData, QueueJobResult>,
  outstanding: Map<string, QueuedJob>,
  settle: (id: string, outcome: Outcome) => void,
  requeue: (ids: string[]) => Promise<void>,
): Promise<void> {
  const lost: string[] = [];
  for (const id of [...outstanding.keys()]) {
    const state = await queue.getJobState(id);
    if (state === "unknown") lost.push(id);
    if (state !== "completed" && state !== "failed") continue;
    const job = await queue.getJob(id);
    if (!job) continue;
    settle(id, state === "completed" ? { value: job.returnvalue } : { error: job.failedReason });
  }
  if (lost.length > 0) await requeue(lost);
}
