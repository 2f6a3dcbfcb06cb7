/**
 * The page's side of the search worker (searchWorker.ts): every search, baseline and calibration
 * of the site runs there, so a page answers clicks while it works. `SearchWorker` keeps one worker
 * per page (the library loads once), sends it runs, forwards what it reports, and stops a run:
 * "stop" makes the run end at its next episode, epoch or batch with its best so far; a worker that
 * has not answered within STOP_GRACE_MS is ended (terminate) and the next run starts a fresh one.
 *
 * `calibrateInWorker` measures the fit engines in a worker of its own with a hard budget: at the
 * budget, the engines not yet measured are listed as such and the worker is ended, so a page never
 * waits longer. `CachedCalibration` keeps the outcome per browser (localStorage) under the
 * library's version and the site's build: a second visit does not calibrate again.
 */
import { chooseEngine } from "../lib/index.js";
import type { Calibration, CalibrationEntry, PipelineOptions, Progress, ResultJson } from "../lib/index.js";
import type { PlaygroundConfig } from "./playgroundConfig.js";

/**
 * What a run is: the playground's controls, a report form's pipeline options, or a published
 * result's own config (its manifest, as `consolesr reproduce` reads it) on the CSV it was made from,
 * with some settings changed (a user's report: `csvRerun`).
 */
export type RunRequest = (
  | { kind: "playground"; config: PlaygroundConfig }
  | { kind: "options"; options: PipelineOptions }
  | { kind: "result"; result: ResultJson; csv: { name: string; bytes: ArrayBuffer }; overrides: RunOverrides }
) & {
  /** The tfjs backend to make live first (selectBackend falls back from it). */
  backend: string;
  /** Plugin files loaded in the page, imported again in the worker. */
  plugins: { file: string; source: string }[];
  /** The git sha recorded in the manifest. */
  git: string;
  /** Whether episodes carry every structure fitted (the playground's Pareto chart). */
  fits: boolean;
};

/** The settings a user's report form may change from its published run (the rest is the manifest's). */
export interface RunOverrides {
  seed?: number;
  episodes?: number;
  budget?: number;
  /** Seconds (0: none). */
  timeLimit?: number;
}

export type WorkerRequest =
  | { type: "run"; id: number; run: RunRequest }
  | { type: "columns"; id: number; name: string; text: string }
  | { type: "stop"; id: number }
  | { type: "calibrate"; rounds?: number; backends?: string[] };

export interface EpisodeMessage {
  type: "episode";
  id: number;
  seconds: number;
  target: string;
  episode: number;
  structures: number;
  reward: number;
  bestNrmse: number;
  bestText: string;
  fits: { complexity: number; nrmse: number }[];
}

export interface StartedMessage {
  type: "started";
  id: number;
  /** What the run fits on: the float64 js engine, or tfjs (model methods and tfjs fits). */
  engine: "js" | "tfjs";
  backend: string;
  failures: { backend: string; reason: string }[];
}

export interface ProgressMessage {
  type: "progress";
  id: number;
  progress: Progress;
  seconds: number;
}

export type WorkerMessage =
  | { type: "ready"; loaded: number }
  | StartedMessage
  | ProgressMessage
  | EpisodeMessage
  | { type: "done"; id: number; result: ResultJson; text: string; seconds: number; stopped: boolean }
  | { type: "error"; id: number; input: boolean; message: string }
  | { type: "columns"; id: number; columns: string[]; rows: number }
  | { type: "columns-error"; id: number; message: string }
  | { type: "calibration-entry"; entry: CalibrationEntry }
  | { type: "calibration"; calibration: Calibration }
  | { type: "calibration-error"; message: string };

/** How a run ended. "stopped": by Stop, with the best so far in `result`; "cancelled": with nothing. */
export interface RunOutcome {
  status: "done" | "stopped" | "cancelled" | "error";
  result?: ResultJson;
  /** The result as the download's JSON (with the run's seconds and this browser, as --timings writes). */
  text?: string;
  seconds: number;
  error?: string;
  /** Whether the error is the library's one-line message about a setting (else an internal error). */
  input?: boolean;
}

export interface RunHandlers {
  onStarted?: (message: StartedMessage) => void;
  onProgress?: (message: ProgressMessage) => void;
  onEpisode?: (message: EpisodeMessage) => void;
}

export interface WorkerRun {
  id: number;
  /** Asks the run to stop at its next episode, epoch or batch; it then ends "stopped" with its best so far. */
  stop(): void;
  done: Promise<RunOutcome>;
}

/** How long a stopped run may take to answer before its worker is ended. */
export const STOP_GRACE_MS = 3000;

/** The calibration worker's name (the search worker's own start-up leaves it alone). */
export const CALIBRATION_WORKER = "consolesr calibration";

/** The worker module's address (Framework rewrites this to the built, hashed file). */
const WORKER_URL = import.meta.resolve("./searchWorker.js");

export class SearchWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { handlers: RunHandlers; resolve: (outcome: RunOutcome) => void; started: number }
  >();
  private readonly reading = new Map<
    number,
    { resolve: (table: { columns: string[]; rows: number }) => void; reject: (error: Error) => void }
  >();

  private ensure(): Worker {
    if (this.worker) return this.worker;
    performance.mark("consolesr:worker-start");
    const worker = new Worker(WORKER_URL, { type: "module", name: "consolesr search" });
    worker.addEventListener("message", (event: MessageEvent<WorkerMessage>) => this.receive(event.data));
    worker.addEventListener("error", (event) => {
      // A worker that cannot load (or throws outside a run) fails every run it holds.
      this.end(worker, `internal error: the search worker failed: ${event.message || "it could not be loaded"}`);
    });
    this.worker = worker;
    return worker;
  }

  /** Ends `worker` and every run it holds (as cancelled, or as errors with `error`). */
  private end(worker: Worker, error?: string): void {
    worker.terminate();
    if (this.worker === worker) this.worker = null;
    for (const [id, run] of this.pending) {
      this.pending.delete(id);
      const seconds = (performance.now() - run.started) / 1000;
      run.resolve(error ? { status: "error", error, seconds } : { status: "cancelled", seconds });
    }
    for (const [id, read] of this.reading) {
      this.reading.delete(id);
      read.reject(new Error(error ?? "internal error: the search worker was ended before it read the file"));
    }
  }

  private receive(message: WorkerMessage): void {
    // For bench/browser.ts: when the worker had loaded the library (performance.getEntriesByName).
    if (message.type === "ready") performance.mark("consolesr:worker-ready", { detail: { loadedMs: message.loaded } });
    if (!("id" in message)) return;
    if (message.type === "columns" || message.type === "columns-error") {
      const read = this.reading.get(message.id);
      this.reading.delete(message.id);
      if (message.type === "columns") read?.resolve({ columns: message.columns, rows: message.rows });
      else read?.reject(new Error(message.message));
      return;
    }
    const run = this.pending.get(message.id);
    if (!run) return;
    if (message.type === "started") run.handlers.onStarted?.(message);
    else if (message.type === "progress") run.handlers.onProgress?.(message);
    else if (message.type === "episode") run.handlers.onEpisode?.(message);
    else if (message.type === "done") {
      this.pending.delete(message.id);
      run.resolve({
        status: message.stopped ? "stopped" : "done",
        result: message.result,
        text: message.text,
        seconds: message.seconds,
      });
    } else if (message.type === "error") {
      this.pending.delete(message.id);
      run.resolve({
        status: "error",
        error: message.message,
        input: message.input,
        seconds: (performance.now() - run.started) / 1000,
      });
    }
  }

  /** Starts a run (after the worker's previous one has ended). */
  run(request: RunRequest, handlers: RunHandlers = {}): WorkerRun {
    const worker = this.ensure();
    const id = this.nextId++;
    const done = new Promise<RunOutcome>((resolve) => {
      this.pending.set(id, { handlers, resolve, started: performance.now() });
    });
    worker.postMessage({ type: "run", id, run: request } satisfies WorkerRequest);
    const stop = () => {
      if (!this.pending.has(id)) return;
      worker.postMessage({ type: "stop", id } satisfies WorkerRequest);
      const timer = setTimeout(() => {
        if (this.pending.has(id)) this.end(worker);
      }, STOP_GRACE_MS);
      void done.then(() => clearTimeout(timer));
    };
    return { id, stop, done };
  }

  /**
   * A CSV file's columns and rows, read and checked in the worker (a large file would hold the
   * page's thread for a second): rejects with the library's one-line message for a file that is not
   * a valid table. Answered at once, also while a run goes on (between its steps).
   */
  columns(name: string, text: string): Promise<{ columns: string[]; rows: number }> {
    const worker = this.ensure();
    const id = this.nextId++;
    const answer = new Promise<{ columns: string[]; rows: number }>((resolve, reject) => {
      this.reading.set(id, { resolve, reject });
    });
    worker.postMessage({ type: "columns", id, name, text } satisfies WorkerRequest);
    return answer;
  }

  /** Starts the worker, if it is not running, so that it loads the library before the first run. */
  warm(): void {
    this.ensure();
  }

  /** Ends the worker (the page is going away). */
  dispose(): void {
    if (this.worker) this.end(this.worker);
  }
}

export interface CalibrationOutcome {
  calibration: Calibration;
  /** Seconds the measurement took, from the worker's start (the library's load included). */
  seconds: number;
  /** Engines left unmeasured at the budget. */
  unmeasured: number;
}

/**
 * The engine calibration (the library's `calibrate()`) in a worker of its own, ended at
 * `budgetMs` after it has loaded: engines not measured by then are listed with that reason and
 * never chosen; the choice is the library's rule (`chooseEngine`: js unless a measured tfjs backend is
 * `JS_MARGIN` times faster).
 */
export function calibrateInWorker(
  options: { budgetMs: number; rounds?: number; onEntry?: (entry: CalibrationEntry) => void },
  backends: readonly string[] = ["cpu", "wasm", "webgl"],
): Promise<CalibrationOutcome> {
  const started = performance.now();
  const worker = new Worker(WORKER_URL, { type: "module", name: CALIBRATION_WORKER });
  const entries: CalibrationEntry[] = [];
  return new Promise<CalibrationOutcome>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (calibration: Calibration | null, unmeasured: number) => {
      clearTimeout(timer);
      worker.terminate();
      const seconds = (performance.now() - started) / 1000;
      resolve({ calibration: calibration ?? partialCalibration(entries, backends, options), seconds, unmeasured });
    };
    worker.addEventListener("message", (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.type === "ready") {
        worker.postMessage({
          type: "calibrate",
          rounds: options.rounds,
          backends: [...backends],
        } satisfies WorkerRequest);
        timer = setTimeout(() => finish(null, backends.length + 1 - entries.length), options.budgetMs);
      } else if (message.type === "calibration-entry") {
        entries.push(message.entry);
        options.onEntry?.(message.entry);
      } else if (message.type === "calibration") finish(message.calibration, 0);
      else if (message.type === "calibration-error") finish(null, backends.length + 1 - entries.length);
    });
    worker.addEventListener("error", () => finish(null, backends.length + 1 - entries.length));
  });
}

/** A calibration of the entries measured before the budget, the rest listed as not measured. */
export function partialCalibration(
  measured: readonly CalibrationEntry[],
  backends: readonly string[],
  options: { budgetMs: number; rounds?: number },
): Calibration {
  const entries = [...measured];
  const reason = `not measured within the ${(options.budgetMs / 1000).toFixed(0)} s budget`;
  if (!entries.some((e) => e.engine === "js"))
    entries.unshift({ engine: "js", backend: "js", seconds: null, warmup: null, error: reason });
  for (const backend of backends)
    if (!entries.some((e) => e.engine === "tfjs" && e.backend === backend))
      entries.push({ engine: "tfjs", backend, seconds: null, warmup: null, error: reason });
  const choice = chooseEngine(entries);
  return { entries, choice, rows: 1000, steps: 50, rounds: options.rounds ?? 5 };
}

/** The calibration kept per browser, under a key that names the library's version and the site's build. */
export class CachedCalibration {
  constructor(private readonly key: string) {}

  read(): (CalibrationOutcome & { measuredAt: string }) | null {
    try {
      const text = globalThis.localStorage?.getItem(this.key);
      if (!text) return null;
      const value = JSON.parse(text);
      return value?.calibration?.choice ? value : null;
    } catch {
      return null;
    }
  }

  write(outcome: CalibrationOutcome): void {
    try {
      globalThis.localStorage?.setItem(this.key, JSON.stringify({ ...outcome, measuredAt: new Date().toISOString() }));
    } catch {
      // Storage refused (private mode, quota): the next visit measures again.
    }
  }
}
