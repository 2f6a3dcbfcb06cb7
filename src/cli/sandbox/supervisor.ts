/**
 * The plugin watchdog's main-thread side. A command given plugin files (`--plugin`, or
 * check-plugin's file argument) runs in a worker thread (worker.js → main.ts → program.ts, the
 * same program on the same arguments), because plugin code is trusted but may not return: a
 * synchronous `while (true) {}` cannot be interrupted in its own thread, and a worker can be
 * terminated. The worker marks the plugin code it runs in shared memory (watch.ts); this side
 * polls the marks, and when one call of plugin code (or one file's import) has run longer than
 * `--plugin-timeout` (default 10 s) it terminates the worker and prints
 * `error: plugin file F: symbol "name": evaluate did not return within 10 s (stopped)` (exit 2).
 *
 * The worker's stdout and stderr are copied here in order and in full before the exit. SIGINT
 * and SIGTERM are forwarded to the worker as messages when it has a listener for them (a search
 * is running: it handles them as in-process, best so far printed and written, exit 130 or 143);
 * otherwise, or for a second signal before the first is handled, the signal gets its default
 * action here, as in-process. A forwarded signal that finds a plugin call stuck for a second
 * stops the worker too, naming the plugin (exit 130 or 143).
 *
 * This module only imports Node built-ins: a command without plugin files does not load it… nor
 * pay for a worker, and one with them starts the worker without loading tfjs here first.
 */
import { constants } from "node:os";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import type { WatchLabel } from "./watch.js";

export const DEFAULT_PLUGIN_TIMEOUT_S = 10;
/** The plugin worker's heap limit in MB (`--plugin-memory`): a plugin that allocates without end is stopped there. */
export const DEFAULT_PLUGIN_MEMORY_MB = 2048;
/**
 * Slot of the shared state (after watch.ts's two) where the worker
 * keeps which stop signals it has listeners for (SIGNAL_BITS).
 */
export const SIGNAL_SLOT = 2;
export const SIGNAL_BITS = { SIGINT: 1, SIGTERM: 2, SIGHUP: 4 } as const;
/** workerData.tag of the plugin worker. */
export const WORKER_TAG = "consolesr-plugin-worker";
/** How long a plugin call may hold up a forwarded SIGINT/SIGTERM before the worker is stopped. */
const SIGNAL_GRACE_MS = 1000;
const POLL_MS = 50;

export interface WorkerData {
  tag: typeof WORKER_TAG;
  args: string[];
  /** The watch's shared Int32 slots (watch.ts). */
  watch: SharedArrayBuffer;
  /**
   * The main thread's stderr as a terminal, or undefined: the worker's stderr is a pipe, and the progress bar
   * (progress.ts) draws through it onto this one.
   */
  stderrTty?: { columns?: number };
}

/** Messages from the worker besides the watch labels. */
export type WorkerMessage =
  | WatchLabel
  | { type: "signal-handled" }
  | { type: "signal-unhandled"; signal: NodeJS.Signals };

/**
 * Whether `args` give plugin files: any `--plugin`, or an argument after `check-plugin` that is
 * not an option (its file). A cheap look at the arguments before commander parses them; it errs
 * on the side of the worker (which only costs its start-up).
 */
export function runsPluginCode(args: readonly string[]): boolean {
  if (args.some((a) => a === "--plugin" || a.startsWith("--plugin="))) return true;
  const at = args.indexOf("check-plugin");
  if (at < 0) return false;
  for (let i = at + 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return i + 1 < args.length;
    if (a === "--seed" || a === "--plugin-timeout" || a === "--plugin-memory") i++;
    else if (!a.startsWith("-")) return true;
  }
  return false;
}

/** The last value of `flag` in `args` (`--flag v` or `--flag=v`), unparsed; undefined when absent. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  args.forEach((a, i) => {
    if (a === flag) value = args[i + 1];
    else if (a.startsWith(`${flag}=`)) value = a.slice(flag.length + 1);
  });
  return value;
}

/**
 * The `--plugin-timeout` in `args`, in seconds; the default when
 * absent or invalid (the worker's commander reports an invalid one).
 */
export function pluginTimeoutSeconds(args: readonly string[]): number {
  const value = flagValue(args, "--plugin-timeout");
  const seconds = Number(value);
  return value !== undefined && seconds > 0 && Number.isFinite(seconds) ? seconds : DEFAULT_PLUGIN_TIMEOUT_S;
}

/** The `--plugin-memory` in `args`, in MB; the default when absent or invalid (the worker's commander reports it). */
export function pluginMemoryMb(args: readonly string[]): number {
  const value = flagValue(args, "--plugin-memory");
  const mb = Number(value);
  return value !== undefined && Number.isInteger(mb) && mb >= 64 ? mb : DEFAULT_PLUGIN_MEMORY_MB;
}

/** Resolves when a stream has ended (or after `ms`, in case it never does). */
function ended(stream: Readable, ms = 2000): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    stream.once("end", done).once("close", done).once("error", done);
  });
}

/** Runs the CLI on `args` in the plugin worker, watching its plugin code; resolves to the exit code. */
export async function supervise(args: string[]): Promise<number> {
  const limitS = pluginTimeoutSeconds(args);
  const memoryMb = pluginMemoryMb(args);
  const watch = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (SIGNAL_SLOT + 1));
  const marks = new Int32Array(watch);
  const labels = new Map<number, WatchLabel>();
  const stderrTty = process.stderr.isTTY ? { columns: process.stderr.columns } : undefined;
  const workerData: WorkerData = { tag: WORKER_TAG, args, watch, stderrTty };
  // From the sources (a checkout, under tsx) the worker registers tsx first (worker.js); the
  // compiled CLI (build/cli) runs its main.js in the worker as it is.
  const entry = import.meta.url.endsWith(".ts") ? "../worker.js" : "../main.js";
  const worker = new Worker(new URL(entry, import.meta.url), {
    workerData,
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
  });
  worker.stdout.on("data", (chunk: Buffer) => process.stdout.write(chunk));
  worker.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));

  /** Set when this side stopped the worker: the line to print and the exit code. */
  let stopped: { line: string; code: number } | undefined;
  const stop = (line: string, code: number) => {
    if (stopped) return;
    stopped = { line, code };
    void worker.terminate();
  };
  const describe = (id: number) => {
    const label = labels.get(id);
    return label ? `plugin file ${label.file}: ${label.what}` : "plugin code";
  };

  /** A signal forwarded to the worker and not yet handled there. */
  let pending: { signal: NodeJS.Signals; at: number } | undefined;
  const listeners = new Map<NodeJS.Signals, () => void>();
  /** The default action of `signal` (the process ends by it), as without a handler. */
  const defaultAction = (signal: NodeJS.Signals) => {
    for (const [name, listener] of listeners) process.removeListener(name, listener);
    process.kill(process.pid, signal);
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const listener = () => {
      // Nothing in the worker listens (no search running), or a second signal: as in-process, the process ends.
      if (pending || stopped || !(marks[SIGNAL_SLOT]! & SIGNAL_BITS[signal])) return defaultAction(signal);
      pending = { signal, at: performance.now() };
      worker.postMessage({ type: "signal", signal });
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
  }

  let failure: Error | undefined;
  worker.on("error", (error) => (failure = error));
  worker.on("message", (message: WorkerMessage) => {
    if (message.type === "watch-label") labels.set(message.id, message);
    else if (message.type === "signal-handled") pending = undefined;
    else if (message.type === "signal-unhandled") {
      void worker.terminate();
      defaultAction(message.signal);
    }
  });

  // The watchdog: a mark (id, calls entered) unchanged for the limit is one call running that long.
  let seen = { id: 0, calls: 0, since: performance.now() };
  const poll = setInterval(() => {
    const id = marks[0]!;
    const calls = marks[1]!;
    const now = performance.now();
    if (id !== seen.id || calls !== seen.calls) seen = { id, calls, since: now };
    if (id === 0) return;
    if (pending && now - pending.at >= SIGNAL_GRACE_MS && now - seen.since >= SIGNAL_GRACE_MS) {
      stop(
        `${describe(id)} was still running ${SIGNAL_GRACE_MS / 1000} s after ${pending.signal} (stopped)`,
        128 + constants.signals[pending.signal],
      );
    } else if (now - seen.since >= limitS * 1000) {
      const label = labels.get(id);
      stop(`${describe(id)} ${label?.verb ?? "did not return"} within ${limitS} s (stopped)`, 2);
    }
  }, POLL_MS);

  const exitCode = await new Promise<number>((resolve) => worker.once("exit", resolve));
  clearInterval(poll);
  await Promise.all([ended(worker.stdout), ended(worker.stderr)]);
  for (const [name, listener] of listeners) process.removeListener(name, listener);

  if (stopped) {
    process.stderr.write(`error: ${stopped.line}\n`);
    return stopped.code;
  }
  // The worker ends by main.ts's process.exit once the command is done, with no plugin code
  // running; a mark still set means plugin code ended the thread.
  const id = marks[0]!;
  const label = labels.get(id);
  if ((failure as NodeJS.ErrnoException | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY") {
    const who = label ? `plugin file ${label.file}: ${label.what}` : "the command";
    process.stderr.write(
      `error: ${who} ran out of the plugin worker's memory limit of ${memoryMb} MB ` +
        `(stopped; --plugin-memory raises it)\n`,
    );
    return 2;
  }
  if (label) {
    const how =
      label.loading && exitCode === 13
        ? "never finished: a top-level await that never settles"
        : `ended the command (exit code ${exitCode}${failure ? `: ${failure.message}` : ""})`;
    process.stderr.write(`error: plugin file ${label.file}: ${label.what} ${how}\n`);
    return 2;
  }
  if (failure) {
    process.stderr.write(`error: internal: ${failure.message}\n`);
    if (process.env.CONSOLESR_DEBUG) process.stderr.write(`${failure.stack}\n`);
    return 1;
  }
  return exitCode;
}
