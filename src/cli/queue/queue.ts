/**
 * What `sweep --queue` (queueSubmit.ts) and `consolesr worker` (queueWorker.ts) share: the Redis
 * URL flag, the connection (reachable within seconds, or one `error:` line), the queue's name, the
 * ids and data of its jobs. bullmq and ioredis are imported lazily, inside the functions that use
 * them, so that a sweep without --queue neither needs Redis nor pays for loading them.
 */
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { Option } from "commander";
import type { Redis } from "ioredis";
import { errorLine, InputError } from "../../lib/core/index.js";
import { manifestConfig, type PipelineConfig } from "../../lib/run/index.js";
import type { SweepJob } from "../sweep/sweep.js";

/** The BullMQ queue sweeps and workers share unless --queue-name names another. */
export const DEFAULT_QUEUE = "consolesr-sweep";

/** How often a job runs before its error is final (an InputError runs once: running it again cannot help). */
export const ATTEMPTS = 3;

/** A job's data on the queue: the job itself and, for a CSV, the key of its bytes in Redis. */
export interface QueueJobData {
  job: SweepJob;
  csv?: { sha256: string };
}

/** A job's return value: the version-1 result's text and the job's wall-clock seconds on the worker. */
export interface QueueJobResult {
  text: string;
  seconds: number | null;
}

/** How much of an error's first line a summary row, a log line or a job's failure keeps. */
export const ERROR_CHARS = 500;

/** The Redis key of a CSV's bytes (by their SHA-256), put there by the submitter, read by the workers. */
export const dataKey = (sha256: string) => `consolesr:data:${sha256}`;

const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** `redis://HOST:PORT` (or `rediss://` for TLS, with an optional user, password and /DB); else an InputError. */
export function parseQueueUrl(text: string, flag = "--queue"): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InputError(`${flag} ${JSON.stringify(text)}: not a URL; give redis://HOST:PORT`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:")
    throw new InputError(`${flag} ${text}: the scheme must be redis:// or rediss:// (redis://HOST:PORT)`);
  if (!url.hostname) throw new InputError(`${flag} ${text}: no host; give redis://HOST:PORT`);
  if (url.pathname && url.pathname !== "/" && !/^\/\d{1,2}$/.test(url.pathname))
    throw new InputError(`${flag} ${text}: the path must be a database number (redis://HOST:PORT/0)`);
  return text;
}

export const queueUrlOption = (description: string): Option =>
  new Option("--queue <url>", description).argParser((text: string) => parseQueueUrl(text));

export const queueNameOption = (): Option =>
  new Option("--queue-name <name>", "the BullMQ queue: the same on the sweep and its workers (letters, digits, _ . -)")
    .argParser((text: string) => {
      if (!QUEUE_NAME.test(text))
        throw new InputError(`--queue-name ${JSON.stringify(text)}: use 1 to 100 letters, digits, _ . -`);
      return text;
    })
    .default(DEFAULT_QUEUE);

/** The URL without its password, for logs. */
export const shownUrl = (url: string): string => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString().replace(/\/$/, "");
};

/**
 * Opens Redis at `url`: one quick try first (a few seconds), so that a wrong host or port is an
 * InputError naming the flag instead of endless reconnects; then `open()` makes the connections
 * BullMQ uses (each reconnects after a network blip; a BullMQ worker needs its own).
 */
export async function connectRedis(url: string, flag = "--queue"): Promise<{ open: () => Redis; close: () => void }> {
  const { Redis } = await import("ioredis");
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, …) comes as an event; connect() then only says "closed".
  let cause: unknown;
  probe.on("error", (error) => {
    cause ??= error;
  });
  const db = Number(new URL(url).pathname.slice(1) || 0);
  try {
    await probe.connect();
    await probe.ping();
  } catch (thrown) {
    const error = cause ?? thrown;
    const code = (error as NodeJS.ErrnoException).code;
    const line = errorLine(error, ERROR_CHARS);
    const reason = code && !line.includes(code) ? `${code}: ${line}` : line;
    probe.disconnect();
    throw new InputError(`${flag} ${shownUrl(url)}: cannot reach Redis (${reason})`);
  }
  try {
    // The database a URL names is selected on every (re)connect: one the server does not have
    // (redis://…/99 on a 16-database server) would have each connection retry it without end.
    if (db > 0) await probe.select(db);
  } catch (thrown) {
    throw new InputError(`${flag} ${shownUrl(url)}: Redis refused database ${db} (${errorLine(thrown, ERROR_CHARS)})`);
  } finally {
    probe.disconnect();
  }
  const clients: Redis[] = [];
  let warned = false;
  return {
    open() {
      const client = new Redis(url, { maxRetriesPerRequest: null });
      client.on("error", (error: Error) => {
        // ioredis reconnects by itself; say so once, not at every retry.
        if (!warned)
          process.stderr.write(`warning: Redis at ${shownUrl(url)}: ${errorLine(error, ERROR_CHARS)}; reconnecting\n`);
        warned = true;
      });
      client.on("ready", () => {
        warned = false;
      });
      clients.push(client);
      return client;
    },
    close() {
      for (const client of clients.splice(0)) client.disconnect();
    },
  };
}

/**
 * The id of a sweep: the machine and the absolute --out folder. Its jobs' ids start with it, so
 * two sweeps on one queue never take each other's results, and running the same command again
 * finds the jobs it queued before (and the results that finished meanwhile).
 */
export function sweepId(out: string): string {
  return createHash("sha256")
    .update(`${hostname()}\n${resolve(out)}`)
    .digest("hex")
    .slice(0, 12);
}

/**
 * A job's id on the queue: the sweep, the job's name and a digest of its resolved config (and
 * data), so that a changed spec queues a new job instead of collecting an old result.
 */
export function queueJobId(sweep: string, job: SweepJob, config: PipelineConfig, sha256: string | undefined): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([config.seed, manifestConfig(config), sha256 ?? null]))
    .digest("hex")
    .slice(0, 12);
  return `${sweep}.${job.name}.${digest}`;
}
