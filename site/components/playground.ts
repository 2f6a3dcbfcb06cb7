/**
 * The playground's runs, in the search worker (searchWorker.ts, through searchClient.ts): the
 * page's Run button sends its controls there, where the library's runtime module (the module
 * `consolesr reproduce` runs headless) runs them, and the page follows the worker's reports: the
 * `progress` cell for the bar, each episode for the live charts, and the version-1 result the page
 * downloads. A run still going is stopped at its next episode (Stop, or a Run with other controls)
 * and ends "stopped" with its best so far, shown and downloadable; the next one starts once it has.
 *
 * The fit engine and tfjs backend are picked by measurement: with the engine on auto, the library's
 * `calibrate()` measures in a worker of its own (at most CALIBRATION_BUDGET_MS once loaded), kept per
 * browser under the library's version and the site's build, so a second visit does not measure
 * again; `resolveEngine` turns the controls ("auto" or an explicit choice) and that measurement into
 * what a run uses (js until it has measured: no run waits for it). An engine chosen by hand
 * measures nothing.
 */
import {
  createRegistries,
  experiments,
  InputError,
  SEARCH_METHOD_NAMES,
  type Calibration,
  type CalibrationEntry,
  type Plugin,
  type Progress,
  type ResultJson,
} from "../lib/index.js";
import { HallOfFame, type Candidate } from "../lib/inspect.js";
import type { BackendPreference, EngineChoice } from "./playgroundParams.js";
import type { PlaygroundConfig } from "../report/index.js";
import { pluginFiles } from "./playgroundPlugins.js";
import {
  CachedCalibration,
  calibrateInWorker,
  SearchWorker,
  type CalibrationOutcome,
  type RunOutcome,
  type WorkerRun,
} from "../report/index.js";

export interface TargetProgress {
  target: string;
  /** Episodes of a search; epochs (MLP, EQL) or expressions sampled (DSR, VPG) of a baseline. */
  episode: number;
  unit?: "episode" | "epoch" | "sample";
  /** Maximum episodes for this target, and the structure budget (0: none). */
  episodes: number;
  budget: number;
  structures: number;
  bestNrmse: number;
  bestText: string;
  stopReason?: string;
}

/** One fitted structure of a run: its complexity and train NRMSE (a point of the Pareto chart). */
export interface FitPoint {
  target: string;
  complexity: number;
  nrmse: number;
}

export interface RunRecord {
  id: number;
  /** What was asked for (requestKey): the page compares it with its controls. */
  key: string;
  label: string;
  /** stopped: ended by Stop with its best so far (`result`); cancelled: ended before it had one. */
  status: "waiting" | "running" | "done" | "stopped" | "cancelled" | "error";
  /** The fit engine the run uses (resolved: never "auto"). */
  engine: "js" | "tfjs";
  /** The live tfjs backend (cpu when the js engine fits: tfjs then holds only data). */
  backend: string;
  /** Backends tried before the live one, and why each failed. */
  failures: { backend: string; reason: string }[];
  /** Why this engine (resolveEngine's words), where the page said. */
  why?: string;
  started: number;
  seconds: number;
  targets: TargetProgress[];
  /** The reward of every episode, per target, in order. */
  rewards: { target: string; episode: number; reward: number }[];
  /** Every structure fitted (each once: a repeat is a cache hit), per target. */
  fits: FitPoint[];
  /** The Pareto front of `fits` per target (complexity ↑, NRMSE ↓), by the search's own hall of fame. */
  front: FitPoint[];
  result?: ResultJson;
  /** The result as the download's JSON (its seconds and this browser's runtime in it). */
  text?: string;
  error?: string;
}

/** Registry names, for the page's controls: the built-ins, then the loaded plugins'. */
export const symbolNames = (plugins: readonly Plugin[] = []): string[] => createRegistries(plugins).symbols.names();
/** The method table's structure searches (consolesr first; the MLP baseline has no equation to show). */
export const methodNames = (): string[] => [...SEARCH_METHOD_NAMES];
export const constraintNames = (plugins: readonly Plugin[] = []): string[] =>
  createRegistries(plugins).constraints.names();
export const rewardNames = (plugins: readonly Plugin[] = []): string[] => createRegistries(plugins).rewards.names();

export {
  experimentNames,
  NOISE_FLOOR_STOP,
  pipelineOptions,
  resultWithTimings,
  type PlaygroundConfig,
} from "../report/index.js";
export const experimentOf = (name: string) => experiments[name];

/** One-line summary of a config for the run log. */
export function describeConfig(config: PlaygroundConfig, plugins: readonly Plugin[] = []): string {
  const data = experiments[config.dataset]
    ? `${config.dataset} (${config.rows} rows${config.snrDb === null ? "" : `, SNR ${config.snrDb} dB`})`
    : `${config.csv?.name ?? "CSV"}`;
  const engine = config.fit.engine === "js" ? "float64 js" : "tfjs";
  const loaded = plugins.length ? `, plugins ${plugins.map((p) => p.name).join(", ")}` : "";
  return `${data}, ${config.method}, seed ${config.seed}, ${engine} fits of ${config.fit.steps} steps${loaded}`;
}

/**
 * What a run uses: the fit engine, the tfjs backend to make live first (selectBackend falls back
 * through webgl → wasm → cpu from it), and why, in words.
 */
export interface EngineResolution {
  engine: "js" | "tfjs";
  backend: string;
  why: string;
}

/** The fastest tfjs backend of a calibration (null when none ran). */
export function fastestTfjs(calibration: Pick<Calibration, "entries"> | null): CalibrationEntry | null {
  let best: CalibrationEntry | null = null;
  for (const entry of calibration?.entries ?? [])
    if (entry.engine === "tfjs" && entry.seconds !== null && (best === null || entry.seconds < best.seconds!))
      best = entry;
  return best;
}

/**
 * The controls' fit engine and tfjs backend ("auto" or explicit) made what a run uses, from the
 * page's calibration:
 * - engine auto: the calibration's choice (its engine and backend; an explicit backend is used
 *   when the choice is a tfjs engine);
 * - engine js: float64 js fits, with tfjs on cpu for the little it holds;
 * - engine tfjs: the backend chosen, or with backend auto the calibration's fastest tfjs backend
 *   (webgl first when nothing was measured).
 */
export function resolveEngine(
  engine: EngineChoice,
  backend: BackendPreference,
  calibration: Pick<Calibration, "entries" | "choice"> | null,
): EngineResolution {
  if (engine === "js") return { engine: "js", backend: "cpu", why: "js chosen" };
  if (engine === "auto") {
    if (!calibration)
      return { engine: "js", backend: "cpu", why: "auto, not measured yet: js (float64), measuring for the next runs" };
    const choice = calibration.choice;
    if (choice.engine === "js") return { engine: "js", backend: "cpu", why: "auto: js measured fastest" };
    if (backend !== "auto") return { engine: "tfjs", backend, why: `auto: tfjs measured fastest; ${backend} chosen` };
    return { engine: "tfjs", backend: choice.backend, why: `auto: tfjs ${choice.backend} measured fastest` };
  }
  if (backend !== "auto") return { engine: "tfjs", backend, why: `tfjs on ${backend} chosen` };
  const fastest = fastestTfjs(calibration);
  return fastest
    ? { engine: "tfjs", backend: fastest.backend, why: `tfjs chosen; ${fastest.backend} measured fastest of tfjs` }
    : { engine: "tfjs", backend: "webgl", why: "tfjs chosen; no tfjs backend measured" };
}

/** The page's calibration: its state for the display, as it goes. */
export interface CalibrationState {
  status: "idle" | "running" | "done" | "error";
  /** The engines measured so far (all of them once done). */
  entries: CalibrationEntry[];
  calibration: Calibration | null;
  /** Wall-clock seconds the whole calibration took (once done), the worker's start included. */
  seconds?: number;
  /** Whether it came from this browser's cache (measured on an earlier visit, at `measuredAt`). */
  cached?: boolean;
  measuredAt?: string;
  /** Engines left unmeasured at the budget. */
  unmeasured?: number;
  error?: string;
}

/** At most this long (after its worker has loaded the library) the calibration measures. */
export const CALIBRATION_BUDGET_MS = 2000;
/** Timed fits per engine (the median counts): three keep a fast engine's measurement well inside the budget. */
export const CALIBRATION_ROUNDS = 3;

/**
 * The page's calibration: `get()` measures the first time it is asked, unless this browser
 * has a calibration of this library version and site build in its cache, and hands every later
 * caller the same result; `known()` is what is known without measuring (an engine chosen by
 * hand never waits for a measurement); `subscribe` follows it for the display.
 */
export class Calibrator {
  state: CalibrationState = { status: "idle", entries: [], calibration: null };
  private promise: Promise<Calibration | null> | null = null;
  private listeners = new Set<(state: CalibrationState) => void>();

  /**
   * @param cacheKey the cache's key (the library's version and the site's build), or null for none
   * @param measure the measurement (default: calibrateInWorker with the page's budget)
   */
  constructor(
    cacheKey: string | null,
    private readonly measure: (onEntry: (entry: CalibrationEntry) => void) => Promise<CalibrationOutcome> = (onEntry) =>
      calibrateInWorker({ budgetMs: CALIBRATION_BUDGET_MS, rounds: CALIBRATION_ROUNDS, onEntry }),
  ) {
    this.cache = cacheKey === null ? null : new CachedCalibration(cacheKey);
    const cached = this.cache?.read();
    if (cached)
      this.state = {
        status: "done",
        entries: cached.calibration.entries,
        calibration: cached.calibration,
        seconds: cached.seconds,
        unmeasured: cached.unmeasured,
        cached: true,
        measuredAt: cached.measuredAt,
      };
  }

  private readonly cache: CachedCalibration | null;

  subscribe(listener: (state: CalibrationState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  private set(state: CalibrationState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  /** The calibration known now (cached or measured in this visit), without measuring. */
  known(): Calibration | null {
    return this.state.calibration;
  }

  /** The calibration (null if it failed: the page then fits on js), measured once unless cached. */
  get(): Promise<Calibration | null> {
    if (this.state.status === "done" && this.state.calibration) return Promise.resolve(this.state.calibration);
    this.promise ??= (async () => {
      this.set({ status: "running", entries: [], calibration: null });
      try {
        const outcome = await this.measure((entry) =>
          this.set({ ...this.state, entries: [...this.state.entries, entry] }),
        );
        this.set({
          status: "done",
          entries: outcome.calibration.entries,
          calibration: outcome.calibration,
          seconds: outcome.seconds,
          unmeasured: outcome.unmeasured,
        });
        this.cache?.write(outcome);
        return outcome.calibration;
      } catch (error) {
        this.set({ ...this.state, status: "error", error: error instanceof Error ? error.message : String(error) });
        return null;
      }
    })();
    return this.promise;
  }
}

/**
 * The download's file name: the dataset (a paper experiment, or the CSV's file name without its
 * extension), the method and the seed, e.g. `consolesr-toy-consolesr-seed0.json`,
 * `consolesr-pendulum-consolesr-seed3.json`: two CSVs' results no longer share one name.
 */
export function resultFilename(result: ResultJson): string {
  const config = result.manifest.config as { experiment?: string; data?: string; method?: string };
  const data = config.experiment ?? (config.data ?? "csv").replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "");
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, "-");
  const method = config.method ? `-${safe(config.method)}` : "";
  return `consolesr-${safe(data) || "csv"}${method}-seed${result.manifest.seed}.json`;
}

/** Options of Runner.request. */
export interface RequestOptions {
  /** The git sha recorded in the manifest. */
  git: string;
  /** The tfjs backend to make live first (the worker falls back through webgl → wasm → cpu from it). */
  backend: string;
  /** Part of what makes two requests the same run (e.g. the preferred backend). */
  key?: string;
  /**
   * The key of the controls this request came from (the record's `key`, which the page compares
   * with its controls' to say whether they changed since); default: the request's own key.
   */
  controls?: string;
  /** Plugins registered on top of the built-ins for this run (loaded from files in the page). */
  plugins?: readonly Plugin[];
  /** Why this engine and backend (shown with the run). */
  why?: string;
}

/** What makes two requests the same run: the config, the extra key, the plugins' names. */
export const requestKey = (config: PlaygroundConfig, key = "", plugins: readonly Plugin[] = []): string =>
  JSON.stringify([config, key, plugins.map((p) => `${p.kind}:${p.name}`)]);

const ACTIVE = new Set<RunRecord["status"]>(["waiting", "running"]);

const message = (error: unknown) =>
  error instanceof InputError
    ? error.message
    : `internal error: ${error instanceof Error ? error.message : String(error)}`;

/**
 * The page's runs. A request with a new config stops the current run and starts the new one as
 * soon as it has stopped; a request identical to the current one (a control that fired twice, a
 * cell re-evaluated with the same values) joins it. All runs go through one search worker.
 */
export class Runner {
  readonly runs: RunRecord[] = [];
  /** The latest value of the worker's `progress` cell (the run's share done, for one bar). */
  progress: Progress | null = null;
  private last: Promise<unknown> = Promise.resolve();
  private current: { key: string; record: RunRecord; cancelled: boolean; run: WorkerRun | null } | null = null;
  private currentPromise: Promise<RunRecord> | null = null;
  private listeners = new Set<(runs: RunRecord[]) => void>();
  private endListeners = new Set<(run: RunRecord | null) => void>();

  constructor(private readonly worker: SearchWorker = new SearchWorker()) {}

  subscribe(listener: (runs: RunRecord[]) => void): () => void {
    this.listeners.add(listener);
    listener(this.runs);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with the newest run that has ended (null before any), now and whenever another ends. */
  subscribeEnd(listener: (run: RunRecord | null) => void): () => void {
    this.endListeners.add(listener);
    listener(this.lastEnded());
    return () => this.endListeners.delete(listener);
  }

  private lastEnded(): RunRecord | null {
    const ended = this.runs.filter((r) => !ACTIVE.has(r.status));
    return ended[ended.length - 1] ?? null;
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.runs);
  }

  /** Whether a run is waiting or running (the page's Stop button). */
  get active(): boolean {
    return this.current !== null && ACTIVE.has(this.current.record.status);
  }

  /** Stops the current run, if any: it ends "stopped" with its best so far (or "cancelled" before it began). */
  cancel(): void {
    if (!this.current) return;
    this.current.cancelled = true;
    this.current.run?.stop();
    this.current = null;
  }

  /** Starts the worker now (it loads the library), so that the first run does not wait for it. */
  warm(): void {
    this.worker.warm();
  }

  /** Stops the current run and ends the worker (the page is going away). */
  dispose(): void {
    this.cancel();
    this.worker.dispose();
  }

  /**
   * The run of `config`: the current one while it is going and the request is the same (Run
   * pressed twice), else a new one, which first stops the current. Resolves when it ends.
   */
  request(config: PlaygroundConfig, options: RequestOptions): Promise<RunRecord> {
    const key = requestKey(config, options.key, options.plugins);
    if (this.active && this.current!.key === key && !this.current!.cancelled) return this.currentPromise!;
    this.cancel();
    const record: RunRecord = {
      id: this.runs.length + 1,
      key: options.controls ?? key,
      label: describeConfig(config, options.plugins),
      status: "waiting",
      engine: config.fit.engine,
      backend: "",
      failures: [],
      ...(options.why ? { why: options.why } : {}),
      started: 0,
      seconds: 0,
      targets: [],
      rewards: [],
      fits: [],
      front: [],
    };
    const current = { key, record, cancelled: false, run: null as WorkerRun | null };
    this.current = current;
    this.currentPromise = this.start(current, config, options);
    return this.currentPromise;
  }

  private start(
    current: { record: RunRecord; cancelled: boolean; run: WorkerRun | null },
    config: PlaygroundConfig,
    options: RequestOptions,
  ): Promise<RunRecord> {
    const { record } = current;
    this.runs.push(record);
    this.notify();
    const previous = this.last;
    const run = (async () => {
      await previous.catch(() => undefined);
      const ended = (outcome: Pick<RunOutcome, "status" | "result" | "text" | "error" | "seconds">) => {
        record.status = outcome.status;
        record.seconds = outcome.seconds;
        if (outcome.result) {
          record.result = outcome.result;
          record.text = outcome.text;
          for (const t of outcome.result.search.targets ?? []) {
            const p = record.targets.find((q) => q.target === t.target);
            if (p) p.stopReason = t.stopReason;
          }
        }
        if (outcome.error) record.error = outcome.error;
        this.notify();
        for (const listener of this.endListeners) listener(record);
        return record;
      };
      if (current.cancelled) return ended({ status: "cancelled", seconds: 0 });
      let files: { file: string; source: string }[];
      try {
        // (A CSV that does not parse is the worker's one-line error: read there, not on this thread.)
        files = pluginFiles(options.plugins ?? []);
      } catch (error) {
        return ended({ status: "error", seconds: 0, error: message(error) });
      }
      const progress = new Map<string, TargetProgress>();
      const halls = new Map<string, HallOfFame>();
      this.progress = null;
      const handle = this.worker.run(
        { kind: "playground", config, backend: options.backend, plugins: files, git: options.git, fits: true },
        {
          onStarted: (m) => {
            record.engine = m.engine;
            record.backend = m.backend;
            record.failures = m.failures;
            record.status = "running";
            record.started = performance.now();
            this.notify();
          },
          onProgress: (m) => {
            this.progress = m.progress;
            record.seconds = m.seconds;
            const p = m.progress;
            // A baseline reports epochs or samples, not episodes: its line per output comes from here.
            if (p.target !== null && p.unit !== "episode") {
              progress.set(p.target, {
                target: p.target,
                episode: p.episode,
                unit: p.unit,
                episodes: p.episodes,
                budget: 0,
                structures: 0,
                bestNrmse: p.bestNrmse,
                bestText: "—",
              });
              record.targets = [...progress.values()];
            }
            this.notify();
          },
          onEpisode: (e) => {
            const hall = halls.get(e.target) ?? new HallOfFame();
            halls.set(e.target, hall);
            for (const { complexity, nrmse } of e.fits) {
              record.fits.push({ target: e.target, complexity, nrmse });
              // The hall of fame reads complexity and NRMSE only.
              hall.add({ complexity, nrmse } as Candidate);
            }
            record.front = [...halls].flatMap(([target, h]) =>
              h.front().map(({ complexity, nrmse }) => ({ target, complexity, nrmse })),
            );
            record.rewards.push({ target: e.target, episode: e.episode, reward: e.reward });
            progress.set(e.target, {
              target: e.target,
              episode: e.episode,
              unit: "episode",
              episodes: config.episodes,
              budget: config.budget,
              structures: e.structures,
              bestNrmse: e.bestNrmse,
              bestText: e.bestText,
            });
            record.targets = [...progress.values()];
            record.seconds = e.seconds;
            this.notify();
          },
        },
      );
      current.run = handle;
      // Stopped while it waited for the worker's previous run.
      if (current.cancelled) handle.stop();
      const outcome = await handle.done;
      if (outcome.status === "error" && !outcome.input && outcome.error && !outcome.error.startsWith("internal error"))
        outcome.error = `internal error: ${outcome.error}`;
      return ended(outcome);
    })();
    this.last = run;
    return run;
  }
}
