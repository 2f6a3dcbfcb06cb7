/**
 * consolesr's command line (bin/consolesr.js imports this file). Exit codes (docs/design.md#exit-codes): 0 success,
 * 2 bad input or usage with one `error: …` line on stderr, 1 an internal error (set
 * CONSOLESR_DEBUG=1 for the stack), 130 / 143 after Ctrl-C / SIGTERM stopped a search (the best
 * equations so far are printed first).
 *
 * A command given plugin files runs in a worker thread that the main thread supervises
 * (supervisor.ts: a plugin call that never returns is stopped and named); any other command runs
 * here, in-process. In the worker this file runs the command and reports its exit code.
 */
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import {
  runsPluginCode,
  SIGNAL_BITS,
  SIGNAL_SLOT,
  supervise,
  WORKER_TAG,
  type WorkerData,
  type WorkerMessage,
} from "./sandbox/supervisor.js";

const worker =
  !isMainThread && (workerData as WorkerData | null)?.tag === WORKER_TAG ? (workerData as WorkerData) : undefined;
const args = worker ? worker.args : process.argv.slice(2);

/**
 * stdout failing ends the run with one line, never a stack trace: a reader that went away (`| head
 * -1`: EPIPE) has what it wanted, exit 0; any other failure (a full disk: `> /dev/full`) is one
 * `error:` line, exit 2. The result file (--out) is written before anything is printed.
 */
function guardStdout(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    try {
      process.stderr.write(`error: stdout: cannot write (${error.code ?? error.message})\n`);
    } finally {
      process.exit(2);
    }
  });
}

if (!worker) guardStdout();

if (!worker && runsPluginCode(args)) {
  process.exit(await supervise(args));
} else if (!worker) {
  const { runCli } = await import("./program.js");
  const code = await runCli(args);
  if (code !== undefined) process.exit(code);
} else {
  const port = parentPort!;
  const post = (message: WorkerMessage) => port.postMessage(message);
  const { attachWatch } = await import("./sandbox/watch.js");
  attachWatch(worker.watch, post);
  // Which stop signals have listeners here (the search's, commands.ts), kept in shared memory so
  // the supervisor knows at once whether to forward a signal or give it its default action.
  const signals = new Int32Array(worker.watch, SIGNAL_SLOT * Int32Array.BYTES_PER_ELEMENT, 1);
  const isStopSignal = (event: string | symbol): event is keyof typeof SIGNAL_BITS =>
    event === "SIGINT" || event === "SIGTERM" || event === "SIGHUP";
  process.on("newListener", (event: string | symbol) => {
    if (isStopSignal(event)) signals[0] = signals[0]! | SIGNAL_BITS[event];
  });
  process.on("removeListener", (event: string | symbol) => {
    if (isStopSignal(event) && process.listenerCount(event) === 0) signals[0] = signals[0]! & ~SIGNAL_BITS[event];
  });
  // A forwarded signal: emitted on `process` for the search's handler, or handed back for the
  // default action when its listener has just gone.
  port.on("message", (message: { type?: string; signal?: NodeJS.Signals }) => {
    if (message.type !== "signal" || !message.signal) return;
    if (process.listenerCount(message.signal) === 0) return post({ type: "signal-unhandled", signal: message.signal });
    post({ type: "signal-handled" });
    process.emit(message.signal, message.signal);
  });
  port.unref();
  const { runCli } = await import("./program.js");
  const code = await runCli(args);
  // Everything written has reached the supervisor before the thread ends.
  await Promise.all(
    [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write("", resolve))),
  );
  process.exit(code ?? Number(process.exitCode ?? 0));
}
