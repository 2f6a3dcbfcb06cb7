/** The stop control's default: 1e-6, or the noise floor where the data are noisier (as the CLI's default). */
export const NOISE_FLOOR_STOP = 1e-6;

/**
 * The playground's runs, on the library's runtime module (src/lib/api/runtime.ts, the module
 * `consolesr reproduce` runs headless): the page's Run button makes its controls a new `config`
 * (and `backend`, `registries`, `signal`, `hooks`) of one @observablehq/runtime module, whose
 * `search` cell runs the pipeline; a run still going is aborted through `signal` and stops at its
 * next episode boundary, and the new one starts once it has stopped. `progress` and
 * `hooks.onEpisode` feed the progress display and the live charts; `search` gives the version-1
 * result the page downloads.
 *
 * The fit engine and tfjs backend are picked by measurement: before the page's first run, the
 * library's `calibrate()` times the search's per-structure fit on the float64 js engine and on
 * each tfjs backend that starts (once per visit, `Calibrator`), and `resolveEngine` turns the
 * controls ("auto" or an explicit choice) and that measurement into what a run uses.
 */
import { Runtime, RuntimeError, type Module } from "@observablehq/runtime";
import {
  calibrate,
  createRegistries,
  defineExperimentModule as define,
  equationText,
  experiments,
  InputError,
  Registry,
  SEARCH_METHOD_NAMES,
  parseCsv,
  resolvePipelineConfig,
  runtimeFacts,
  type ArgminSolver,
  type Calibration,
  type CalibrationEntry,
  type PipelineOptions,
  type PipelineOutput,
  type Plugin,
  type Progress,
  type Registries,
  type ResultJson,
  type RewardFit,
  type RewardPlugin,
  type RuntimeConfig,
  type RuntimeHooks,
  type SearchMethod,
  type Table,
} from "../lib/index.js";
import { HallOfFame, type Candidate } from "../lib/inspect.js";
import type { BackendPreference, EngineChoice } from "./playgroundParams.js";

export interface PlaygroundConfig {
  /** A paper experiment (toy, syn1, syn2) or "csv". */
  dataset: string;
  /** Experiments: rows of train and of test data, and the SNR of the training noise (null: none). */
  rows: number;
  snrDb: number | null;
  /** CSV: the file's name and text, the target columns and (optionally) the input columns. */
  csv?: { name: string; text: string; targets: string[]; inputs?: string[] };
  symbols: string[];
  constraints: string[];
  reward: string;
  method: SearchMethod;
  seed: number;
  episodes: number;
  budget: number;
  /** Wall-clock limit of the search in seconds (0: none): at it, the best so far is the result. */
  timeLimit: number;
  terms: number;
  maxFactors: number;
  gamma: number;
  epsilon: number;
  /** The stop NRMSE; the default 1e-6 also stops at the noise floor the search estimates (NOISE_FLOOR_STOP). */
  stopNrmse: number;
  fit: { steps: number; learningRate: number; polish: "lm" | "lsq" | "none"; engine: "tfjs" | "js" };
}

export interface TargetProgress {
  target: string;
  episode: number;
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
  status: "waiting" | "running" | "done" | "cancelled" | "error";
  /** The fit engine the run uses (resolved: never "auto"). */
  engine: "js" | "tfjs";
  /** The live tfjs backend (cpu when the js engine fits: tfjs then holds only data). */
  backend: string;
  /** Backends tried before the live one, and why each failed. */
  failures: { backend: string; reason: string }[];
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
  error?: string;
}

/** Registry names, for the page's controls: the built-ins, then the loaded plugins'. */
export const symbolNames = (plugins: readonly Plugin[] = []): string[] => createRegistries(plugins).symbols.names();
/** The method table's structure searches (consolesr first; the MLP baseline has no equation to show). */
export const methodNames = (): string[] => [...SEARCH_METHOD_NAMES];
export const constraintNames = (plugins: readonly Plugin[] = []): string[] =>
  createRegistries(plugins).constraints.names();
export const rewardNames = (plugins: readonly Plugin[] = []): string[] => createRegistries(plugins).rewards.names();

/** The paper experiments the page offers. */
export const experimentNames = Object.keys(experiments);
export const experimentOf = (name: string) => experiments[name];

/** Columns of a CSV's header (for the page's target picker), or an InputError naming file, row, column. */
export function csvColumns(text: string, name: string): string[] {
  return parseCsv(text, name).columns;
}

/**
 * What the page's controls ask for, as the pipeline's options (resolvePipelineConfig fills in and
 * checks the rest). For a CSV, a pool of every registered symbol is passed as "the default pool"
 * (pairs outside a symbol's domain are left out, as `consolesr fit` does without --symbols); a
 * narrower one is explicit, and a pair outside a domain is then an error naming the row.
 */
export function pipelineOptions(
  config: PlaygroundConfig,
  table?: Table,
  registries: Registries = createRegistries(),
): PipelineOptions {
  const common = {
    seed: config.seed,
    method: config.method,
    constraints: config.constraints,
    reward: config.reward,
    search: {
      episodes: config.episodes,
      budget: config.budget,
      timeLimit: config.timeLimit,
      terms: config.terms,
      maxFactors: config.maxFactors,
      gamma: config.gamma,
      epsilon: config.epsilon,
      stopNrmse: config.stopNrmse,
      // The default stop is the CLI's: 1e-6, or the noise floor estimated from the data where it is higher.
      noiseFloor: config.stopNrmse === NOISE_FLOOR_STOP,
    },
    fit: { ...config.fit },
  };
  if (experiments[config.dataset])
    return {
      ...common,
      experiment: config.dataset,
      rows: config.rows,
      snrDb: config.snrDb ?? undefined,
      symbols: config.symbols,
    };
  if (config.dataset !== "csv")
    throw new InputError(`unknown dataset "${config.dataset}" (known: ${[...experimentNames, "csv"].join(", ")})`);
  if (!config.csv || !table) throw new InputError("drop a CSV file on the file input, or pick a paper dataset");
  const everySymbol = registries.symbols.names().every((name) => config.symbols.includes(name));
  return {
    ...common,
    csv: { name: config.csv.name, table },
    targets: config.csv.targets,
    inputs: config.csv.inputs?.length ? config.csv.inputs : undefined,
    symbols: everySymbol ? undefined : config.symbols,
  };
}

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
    if (!calibration) return { engine: "js", backend: "cpu", why: "auto, not calibrated: js" };
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
  /** Wall-clock seconds the whole calibration took (once done). */
  seconds?: number;
  error?: string;
}

/**
 * The page's one calibration per visit: `get()` runs `calibrate()` the first time it is asked
 * (before the first run: nothing else may switch tfjs's backend meanwhile) and hands every later
 * caller the same result; `subscribe` follows it for the display.
 */
export class Calibrator {
  state: CalibrationState = { status: "idle", entries: [], calibration: null };
  private promise: Promise<Calibration | null> | null = null;
  private listeners = new Set<(state: CalibrationState) => void>();

  constructor(private readonly measure: typeof calibrate = calibrate) {}

  subscribe(listener: (state: CalibrationState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  private set(state: CalibrationState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  /** The calibration (null if it failed: the page then fits on js), measured once. */
  get(): Promise<Calibration | null> {
    this.promise ??= (async () => {
      this.set({ status: "running", entries: [], calibration: null });
      // Let the page draw the "measuring" line before the measurement takes the main thread.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const started = performance.now();
      try {
        const calibration = await this.measure({
          onEntry: (entry) => this.set({ ...this.state, entries: [...this.state.entries, entry] }),
        });
        const seconds = (performance.now() - started) / 1000;
        this.set({ status: "done", entries: calibration.entries, calibration, seconds });
        return calibration;
      } catch (error) {
        this.set({ ...this.state, status: "error", error: error instanceof Error ? error.message : String(error) });
        return null;
      }
    })();
    return this.promise;
  }
}

/**
 * A finished run's result as the page downloads it: the version-1 result with the run's
 * wall-clock seconds (search.seconds) and what it ran on (manifest.runtime), as the CLI writes
 * them with --timings; `consolesr reproduce` compares neither.
 */
export function resultWithTimings(result: ResultJson, seconds: number): ResultJson {
  return {
    ...result,
    search: { ...result.search, seconds: Number(seconds.toFixed(3)) },
    manifest: { ...result.manifest, runtime: runtimeFacts() },
  };
}

/** Options of Runner.request. */
export interface RequestOptions {
  /** The git sha recorded in the manifest. */
  git: string;
  /** Makes the run's tfjs backend live; runs once the previous run has stopped. */
  prepare: () => Promise<{ backend: string; failures?: RunRecord["failures"] }>;
  /** The search's LP solver (default: HiGHS loaded the default way). */
  argmin?: ArgminSolver;
  /** Part of what makes two requests the same run (e.g. the preferred backend). */
  key?: string;
  /**
   * The key of the controls this request came from (the record's `key`, which the page compares
   * with its controls' to say whether they changed since); default: the request's own key.
   */
  controls?: string;
  /** Plugins registered on top of the built-ins for this run (loaded from files in the page). */
  plugins?: readonly Plugin[];
}

/** What makes two requests the same run: the config, the extra key, the plugins' names. */
export const requestKey = (config: PlaygroundConfig, key = "", plugins: readonly Plugin[] = []): string =>
  JSON.stringify([config, key, plugins.map((p) => `${p.kind}:${p.name}`)]);

/**
 * The registries with every reward wrapped to report each fit it scores (the same score,
 * computed by the plugin itself): the search's episode events name only the best structure so
 * far, and the Pareto chart wants every fitted one. The evaluator scores each structure once,
 * right after its fit, and every fitted structure goes to the search's hall of fame.
 */
function tapRewards(registries: Registries, onScore: (fit: RewardFit) => void): Registries {
  const tapped = registries.rewards.values().map((reward) => {
    const score = (fit: RewardFit) => {
      const value = reward.score.call(reward, fit);
      onScore(fit);
      return value;
    };
    // The plugin's own object stays the prototype: its other fields (and `this` in score) are its own.
    return Object.assign(Object.create(reward) as RewardPlugin, { score });
  });
  return { ...registries, rewards: new Registry<RewardPlugin>("reward", tapped) };
}

const message = (error: unknown) =>
  error instanceof InputError
    ? error.message
    : `internal error: ${error instanceof Error ? error.message : String(error)}`;

/**
 * The page's runs. A request with a new config aborts the current run and starts the new one as
 * soon as it has stopped; a request identical to the current one (a control that fired twice, a
 * cell re-evaluated with the same values) joins it. All runs go through one runtime module.
 */
export class Runner {
  readonly runs: RunRecord[] = [];
  /** The latest value of the module's `progress` cell (the run's share done, for one bar). */
  progress: Progress | null = null;
  private readonly runtime = new Runtime();
  private readonly main: Module;
  /** The first error of the cells `data` and `search` of the current computation (not the runtime's wrapper of it). */
  private failure: unknown;
  private last: Promise<unknown> = Promise.resolve();
  private current: { key: string; record: RunRecord; controller: AbortController; promise: Promise<RunRecord> } | null =
    null;
  private listeners = new Set<(runs: RunRecord[]) => void>();
  private endListeners = new Set<(run: RunRecord | null) => void>();

  constructor() {
    this.main = this.runtime.module(define, (name) => {
      if (name === "progress") {
        return {
          fulfilled: (value: unknown) => {
            this.progress = value as Progress;
            this.notify();
          },
        };
      }
      if (name === "data" || name === "search") {
        return {
          rejected: (error: unknown) => {
            if (this.failure === undefined && !(error instanceof RuntimeError)) this.failure = error;
          },
        };
      }
      return undefined;
    });
  }

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
    const ended = this.runs.filter((r) => r.status !== "waiting" && r.status !== "running");
    return ended[ended.length - 1] ?? null;
  }

  private notify(): void {
    for (const listener of this.listeners) listener(this.runs);
  }

  /** Whether a run is waiting or running (the page's Stop button). */
  get active(): boolean {
    return (
      this.current !== null && (this.current.record.status === "waiting" || this.current.record.status === "running")
    );
  }

  /** Aborts the current run, if any (its record ends "cancelled"). */
  cancel(): void {
    this.current?.controller.abort();
    this.current = null;
  }

  /** Cancels the current run and releases the runtime (the page is going away). */
  dispose(): void {
    this.cancel();
    void this.last.finally(() => this.runtime.dispose());
  }

  /**
   * The run of `config`: the current one while it is going and the request is the same (Run
   * pressed twice), else a new one, which first stops the current. Resolves when it ends.
   */
  request(config: PlaygroundConfig, options: RequestOptions): Promise<RunRecord> {
    const key = requestKey(config, options.key, options.plugins);
    if (this.active && this.current!.key === key && !this.current!.controller.signal.aborted)
      return this.current!.promise;
    this.cancel();
    const controller = new AbortController();
    const record: RunRecord = {
      id: this.runs.length + 1,
      key: options.controls ?? key,
      label: describeConfig(config, options.plugins),
      status: "waiting",
      engine: config.fit.engine,
      backend: "",
      failures: [],
      started: 0,
      seconds: 0,
      targets: [],
      rewards: [],
      fits: [],
      front: [],
    };
    const promise = this.start(record, config, controller.signal, options);
    this.current = { key, record, controller, promise };
    return promise;
  }

  private start(
    record: RunRecord,
    config: PlaygroundConfig,
    signal: AbortSignal,
    options: RequestOptions,
  ): Promise<RunRecord> {
    this.runs.push(record);
    this.notify();
    const previous = this.last;
    const run = (async () => {
      await previous.catch(() => undefined);
      const ended = (status: RunRecord["status"]) => {
        record.status = status;
        record.seconds = record.started ? (performance.now() - record.started) / 1000 : 0;
        this.notify();
        for (const listener of this.endListeners) listener(record);
        return record;
      };
      if (signal.aborted) return ended("cancelled");
      try {
        // Fits scored since the last episode event: they belong to that event's target.
        const scored: RewardFit[] = [];
        const registries = tapRewards(createRegistries(options.plugins ?? []), (fit) => scored.push(fit));
        const table = config.dataset === "csv" && config.csv ? parseCsv(config.csv.text, config.csv.name) : undefined;
        const resolved: RuntimeConfig = {
          ...resolvePipelineConfig(pipelineOptions(config, table, registries), registries),
          table,
          file: config.csv?.name,
        };
        const { backend, failures = [] } = await options.prepare();
        if (signal.aborted) return ended("cancelled");
        record.backend = backend;
        record.failures = failures;
        record.status = "running";
        record.started = performance.now();
        this.progress = null;
        this.notify();
        const lookup = (name: string) => registries.symbols.get(name);
        const progress = new Map<string, TargetProgress>();
        const halls = new Map<string, HallOfFame>();
        const hooks: RuntimeHooks = {
          onEpisode: (e) => {
            const hall = halls.get(e.target) ?? new HallOfFame();
            halls.set(e.target, hall);
            // A fit's rival without the constant is scored by no reward call: it comes with the episode.
            const plain = !e.cached && e.candidate.plain ? [e.candidate.plain] : [];
            for (const { complexity, nrmse } of [...scored.splice(0), ...plain]) {
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
              episodes: config.episodes,
              budget: config.budget,
              structures: e.structures,
              bestNrmse: e.best.nrmse,
              bestText: e.best.equation.terms.length ? equationText(e.best.equation, lookup) : "—",
            });
            record.targets = [...progress.values()];
            record.seconds = (performance.now() - record.started) / 1000;
            this.notify();
          },
        };
        this.failure = undefined;
        // One computation of the module: these redefinitions land in the same tick.
        this.main.redefine("registries", [], () => registries);
        this.main.redefine("config", [], () => resolved);
        this.main.redefine("backend", [], () => backend);
        this.main.redefine("argmin", [], () => options.argmin ?? null);
        this.main.redefine("git", [], () => options.git);
        this.main.redefine("signal", [], () => signal);
        this.main.redefine("hooks", [], () => hooks);
        let output: PipelineOutput;
        try {
          output = (await this.main.value("search")) as PipelineOutput;
        } catch (error) {
          throw this.failure ?? error;
        }
        for (const t of output.result.search.targets ?? []) {
          const p = record.targets.find((q) => q.target === t.target);
          if (p) p.stopReason = t.stopReason;
        }
        if (output.search?.error) throw output.search.error;
        if (output.result.search.stopReason === "aborted" || signal.aborted) return ended("cancelled");
        record.result = output.result;
        return ended("done");
      } catch (error) {
        record.error = message(error);
        return ended("error");
      }
    })();
    this.last = run;
    return run;
  }
}
