/**
 * The site's searches run here, in a module Web Worker, never on a page's main thread: the
 * playground's runs and every report page's "Re-run with…" form (structure searches and the MLP,
 * EQL, DSR and VPG baselines), and the engine calibration. A page talks to it through
 * searchClient.ts; the messages are the `WorkerRequest` and `WorkerMessage` types there.
 *
 * A run goes through the library's runtime module (src/lib/api/runtime.ts, the module `consolesr
 * reproduce` runs headless): `config` and the other inputs are redefined, `search` is awaited, and
 * the `progress` cell and the episode hook are posted to the page as they come. A "stop" message
 * aborts the run's signal: the search ends at its next episode (inside a fit it yields every
 * 50 ms), a baseline at its next epoch or batch of samples, and the result it ends with holds the
 * best found so far (stopReason "aborted"), which is posted like any other.
 *
 * Plugins loaded in the page are imported again here from their source (a Blob URL), after the
 * page's checks passed: a page's objects cannot cross into a worker, their source can.
 *
 * A run is the playground's controls, a report form's pipeline options, or a published result's
 * manifest on the bytes of its CSV with the form's settings over it (a `consolesr report` page).
 * A "columns" request reads and checks a CSV file here, answered at once (the page's thread never
 * parses a large file).
 */
import { Runtime, RuntimeError, type Module } from "@observablehq/runtime";
import {
  backendOrder,
  calibrate,
  configFromManifest,
  createArgminSolver,
  createRegistries,
  defineExperimentModule as define,
  equationText,
  isInputError,
  loadTf,
  parseCsv,
  Registry,
  resolvePipelineConfig,
  resolveSettings,
  resultToJson,
  selectBackend,
  usesTfjs,
  type PipelineOutput,
  type Plugin,
  type Progress,
  type Registries,
  type RewardFit,
  type RewardPlugin,
  type RuntimeConfig,
  type RuntimeHooks,
} from "../lib/index.js";
import { importPluginSource } from "./pluginSource.js";
import { pipelineOptions, resultWithTimings } from "./playgroundConfig.js";
import { CALIBRATION_WORKER, type RunRequest, type WorkerMessage, type WorkerRequest } from "./searchClient.js";

const post = (message: WorkerMessage) => (self as unknown as Worker).postMessage(message);

/**
 * The registries with every reward wrapped to report each fit it scores (the same score, computed
 * by the plugin itself): the episode events name only the best structure so far, and the page's
 * Pareto chart wants every fitted one.
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

/** Plugins by file, imported once per source. */
const imported = new Map<string, Promise<Plugin[]>>();
function pluginsOf(files: RunRequest["plugins"]): Promise<Plugin[][]> {
  return Promise.all(
    files.map((f) => {
      const key = `${f.file}\n${f.source}`;
      if (!imported.has(key)) imported.set(key, importPluginSource(f.source, f.file) as Promise<Plugin[]>);
      return imported.get(key)!;
    }),
  );
}

/**
 * A published result's config on the bytes of its CSV, with the form's settings over it. The
 * table carries the bytes' SHA-256, so the result records the file as `consolesr fit` does and
 * `consolesr reproduce` can check it. A run with the published settings replays a time-limited
 * search to the point it reached (as reproduce does); changed settings run afresh.
 */
async function resultConfig(request: Extract<RunRequest, { kind: "result" }>): Promise<RuntimeConfig> {
  const { result, csv, overrides } = request;
  const table = parseCsv(new TextDecoder().decode(csv.bytes), csv.name);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", csv.bytes));
  table.sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  const base = configFromManifest(result, csv.name) as RuntimeConfig & Record<string, unknown>;
  const changed = Object.entries(overrides).filter(([key, value]) => value !== undefined && base[key] !== value);
  const config = { ...base, ...Object.fromEntries(changed), table, file: csv.name } as RuntimeConfig &
    Record<string, unknown>;
  if (changed.length) delete config.replay;
  return config;
}

let failure: unknown;
let onProgress: ((progress: Progress) => void) | null = null;
/**
 * The runtime module, made at the first run in the same tick as its inputs are redefined (made
 * earlier, its observed cells would start a search of the default config).
 */
let main: Module | null = null;
const observe = (name: string | undefined) => {
  if (name === "progress") return { fulfilled: (value: unknown) => onProgress?.(value as Progress) };
  if (name === "data" || name === "search")
    return {
      rejected: (error: unknown) => {
        if (failure === undefined && !(error instanceof RuntimeError)) failure = error;
      },
    };
  return undefined;
};

/** The run going on, if any: its id and what stops it. */
let current: { id: number; controller: AbortController } | null = null;

async function run(id: number, request: RunRequest): Promise<void> {
  const controller = new AbortController();
  if (stoppedEarly.delete(id)) controller.abort();
  current = { id, controller };
  const started = performance.now();
  try {
    const scored: RewardFit[] = [];
    const plugins = (await pluginsOf(request.plugins)).flat();
    const registries = tapRewards(createRegistries(plugins), (fit) => scored.push(fit));
    let config: RuntimeConfig;
    if (request.kind === "playground") {
      const { csv } = request.config;
      const table = request.config.dataset === "csv" && csv ? parseCsv(csv.text, csv.name) : undefined;
      config = {
        ...resolvePipelineConfig(pipelineOptions(request.config, table, registries), registries),
        table,
        file: csv?.name,
      };
    } else if (request.kind === "result") config = await resultConfig(request);
    else config = resolvePipelineConfig(request.options, registries);
    const { backend, failures } = await selectBackend(backendOrder(request.backend));
    const engine = usesTfjs(config) ? "tfjs" : "js";
    post({ type: "started", id, engine, backend, failures: failures ?? [] });
    const lookup = (name: string) => registries.symbols.get(name);
    const elapsed = () => (performance.now() - started) / 1000;
    onProgress = (progress) => post({ type: "progress", id, progress, seconds: elapsed() });
    const hooks: RuntimeHooks = {
      onEpisode: (e) => {
        // A fit's rival without the constant is scored by no reward call: it comes with the episode.
        const plain = !e.cached && e.candidate.plain ? [e.candidate.plain] : [];
        const fits = [...scored.splice(0), ...plain].map(({ complexity, nrmse }) => ({ complexity, nrmse }));
        post({
          type: "episode",
          id,
          seconds: elapsed(),
          target: e.target,
          episode: e.episode,
          structures: e.structures,
          reward: e.reward,
          bestNrmse: e.best.nrmse,
          bestText: e.best.equation.terms.length ? equationText(e.best.equation, lookup) : "—",
          fits: request.fits ? fits : [],
        });
      },
    };
    failure = undefined;
    // One computation of the module: these redefinitions land in the same tick.
    main ??= new Runtime().module(define, observe);
    main.redefine("registries", [], () => registries);
    main.redefine("config", [], () => config);
    main.redefine("backend", [], () => backend);
    main.redefine("argmin", [], () => null);
    main.redefine("git", [], () => request.git);
    main.redefine("signal", [], () => controller.signal);
    main.redefine("hooks", [], () => hooks);
    let output: PipelineOutput;
    try {
      output = (await main.value("search")) as PipelineOutput;
    } catch (error) {
      throw failure ?? error;
    }
    if (output.search?.error) throw output.search.error;
    const seconds = elapsed();
    post({
      type: "done",
      id,
      result: output.result,
      text: resultToJson(resultWithTimings(output.result, seconds)),
      seconds,
      stopped: output.result.search.stopReason === "aborted" || controller.signal.aborted,
    });
  } catch (error) {
    const input = isInputError(error);
    post({ type: "error", id, input, message: error instanceof Error ? error.message : String(error) });
  } finally {
    onProgress = null;
    if (current?.id === id) current = null;
  }
}

/** Runs asked to stop before they started. */
const stoppedEarly = new Set<number>();

/** Requests are served one at a time, in order: a run waits for the one before it to end. */
let queue: Promise<void> = Promise.resolve();

self.addEventListener("message", (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === "stop") {
    if (current && current.id === request.id) current.controller.abort();
    // A run stopped while it waits for the one before it starts stopped, and ends at once.
    else stoppedEarly.add(request.id);
    return;
  }
  if (request.type === "columns") {
    // Read at once, not queued behind a run: the run yields between its steps.
    try {
      const table = parseCsv(request.text, request.name);
      post({ type: "columns", id: request.id, columns: table.columns, rows: table.rows });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      post({ type: "columns-error", id: request.id, message: isInputError(error) ? text : `internal error: ${text}` });
    }
    return;
  }
  if (request.type === "run") {
    queue = queue.then(() => run(request.id, request.run));
    return;
  }
  if (request.type === "calibrate") {
    queue = queue.then(async () => {
      try {
        const calibration = await calibrate({
          rounds: request.rounds,
          backends: request.backends,
          onEntry: (entry) => post({ type: "calibration-entry", entry }),
        });
        post({ type: "calibration", calibration });
      } catch (error) {
        post({ type: "calibration-error", message: error instanceof Error ? error.message : String(error) });
      }
    });
  }
});

// How long the worker took to load its modules (the library among them), from its own start. The
// calibration's worker loads tfjs first (it loads on first use): its budget times the fits, not
// tfjs's download and compile (without this, no tfjs backend was measured within 2 s).
// What the library builds on first use (the plugin and settings schemas) is built here too, as it
// was when an import built it.
if (self.name === CALIBRATION_WORKER) {
  const ready = () => post({ type: "ready", loaded: performance.now() });
  void loadTf()
    .then(() => {
      createRegistries();
      resolveSettings();
    })
    .then(ready, ready);
} else post({ type: "ready", loaded: performance.now() });

// What the first run will need is loaded now, beside the page's own start-up: the search's LP
// solver (HiGHS: its WebAssembly compiles off this thread) and tfjs's cpu backend (the one a
// float64 run keeps live). Failures here are left to the run, which reports them.
// (Not in the calibration's worker: it would only disturb the timings.)
if (self.name !== CALIBRATION_WORKER) {
  void createArgminSolver().catch(() => undefined);
  void selectBackend(["cpu"]).catch(() => undefined);
}
