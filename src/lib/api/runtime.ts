/**
 * The experiment as a reactive document: an @observablehq/runtime module (the
 * `define(runtime, observer)` convention of Observable notebooks) over the run's door (prepareRun,
 * runPrepared).
 *
 *   config ─┬─ data ─┬─ search ── result ── equations
 *           │        └─ (progress, while search runs)
 *   registries, backend, argmin, git, signal, hooks: inputs with defaults, redefinable
 *
 * `config` is a PipelineConfig (resolvePipelineConfig); a CSV config carries its parsed table as
 * `config.table`. Redefining `config` (or anything `search` reads) aborts the running search at
 * its next episode, through the cell's invalidation promise and an AbortController, and starts
 * the new one once the old has stopped. `progress` yields the latest episode's summary for a
 * progress bar. Browser-safe; in Node, runModule runs the module headless (`consolesr reproduce`).
 */
import { Runtime, RuntimeError, type Module, type ObserverFactory } from "@observablehq/runtime";
import { useBackend } from "../engine/index.js";
import type { Table } from "../data/index.js";
import { equationText } from "../equation/index.js";
import {
  isFormConfig,
  pipelineData,
  prepareRun,
  resolvePipelineConfig,
  runPrepared,
  type PipelineConfig,
  type PipelineData,
  type PipelineOutput,
} from "../run/index.js";
import type { Registries } from "../plugins/index.js";
import type { EquationResult, ResultJson } from "../result/index.js";
import type { ArgminSolver } from "../search/index.js";
import type { EpisodeEvent } from "../search/index.js";
import type { TrainingStep } from "../baselines/index.js";

export type { TrainingStep };
import { createRegistries } from "../plugins/index.js";

/**
 * The value of the `config` cell: a resolved config, and for a CSV its table (and the name to report problems with).
 */
export type RuntimeConfig = PipelineConfig & { table?: Table; file?: string };

/** Callbacks of the `hooks` cell, called with the config of the run they belong to. */
export interface RuntimeHooks {
  onEpisode?: (event: EpisodeEvent, config: RuntimeConfig) => void;
  /** A model method's (the baselines') progress: after each epoch or batch of samples. */
  onTraining?: (step: TrainingStep, config: RuntimeConfig) => void;
  /** After a run ends, aborted runs included (their result holds the best found before the abort). */
  onFinish?: (output: PipelineOutput, config: RuntimeConfig) => void;
}

/** The `progress` cell: the latest episode (or, for a given form, fitted equation) of the run. */
export interface Progress {
  /** The target being searched or fitted; null before the first episode. */
  target: string | null;
  /** Index of that target among the data's targets, and their number. */
  targetIndex: number;
  targets: number;
  episode: number;
  /** The episode limit per target (0 for a given form). */
  episodes: number;
  /**
   * What `episode` and `episodes` count: a search's episodes, or a model method's epochs (MLP,
   * EQL) or expressions sampled (DSR, VPG).
   */
  unit: "episode" | "epoch" | "sample";
  /** Distinct structures fitted for this target. */
  structures: number;
  /** Train NRMSE of the best structure so far for this target (NaN before any). */
  bestNrmse: number;
  /** That structure's equation. */
  best: string;
  /** Share of the run done, in [0, 1], for a progress bar. */
  fraction: number;
  done: boolean;
  /** Why the run stopped, once done. */
  stopReason: string | null;
  /**
   * What the search of `target` is doing before its episodes (the polynomial question, a screen:
   * "screening forms: an outer function, a ratio, a monomial argument"); null once its episodes
   * run, and for a model's training or a given form. A screen can take most of a run (a wide CSV).
   */
  phase: string | null;
}

/** The `equations` cell: text and LaTeX per target. */
export type EquationSummary = Pick<EquationResult, "target" | "text" | "latex">;

/** A one-consumer stream of the latest progress: a pull gets the newest value, never a backlog. */
function progressFeed(initial: Progress) {
  let latest = initial;
  let delivered = false;
  let closed = false;
  let waiting: ((r: IteratorResult<Progress, undefined>) => void) | undefined;
  const finished = { done: true, value: undefined } as const;
  const iterator: AsyncIterableIterator<Progress, undefined> & {
    return(): Promise<IteratorResult<Progress, undefined>>;
  } = {
    next() {
      if (!delivered) {
        delivered = true;
        return Promise.resolve({ done: false, value: latest });
      }
      if (closed) return Promise.resolve(finished);
      return new Promise((resolve) => (waiting = resolve));
    },
    return() {
      closed = true;
      waiting?.(finished);
      waiting = undefined;
      return Promise.resolve(finished);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return {
    get latest() {
      return latest;
    },
    push(progress: Progress) {
      latest = progress;
      delivered = false;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        delivered = true;
        resolve({ done: false, value: progress });
      }
    },
    close() {
      closed = true;
      if (waiting && delivered) {
        waiting(finished);
        waiting = undefined;
      }
    },
    iterator,
  };
}

type Feed = ReturnType<typeof progressFeed>;

function startProgress(config: RuntimeConfig, data: PipelineData): Progress {
  const episodes = isFormConfig(config) ? 0 : config.episodes;
  return {
    target: null,
    targetIndex: 0,
    targets: data.train.targets.length,
    episode: 0,
    episodes,
    unit: "episode",
    structures: 0,
    bestNrmse: Number.NaN,
    best: "",
    fraction: 0,
    done: false,
    stopReason: null,
    phase: null,
  };
}

/**
 * Runs the pipeline for the `search` cell, feeding `progress` and
 * the hooks; aborts when `invalidation` resolves or `signal` aborts.
 */
async function runSearch(
  config: RuntimeConfig,
  data: PipelineData,
  env: {
    registries: Registries;
    backend: string;
    argmin: ArgminSolver | null;
    git: string;
    signal: AbortSignal | null;
    hooks: RuntimeHooks | null;
  },
  feed: Feed,
  invalidation: Promise<void>,
): Promise<PipelineOutput> {
  const controller = new AbortController();
  void invalidation.then(() => controller.abort());
  const stop = () => controller.abort();
  env.signal?.addEventListener("abort", stop);
  if (env.signal?.aborted) controller.abort();
  const targets = data.train.targets;
  const symbol = (name: string) => env.registries.symbols.get(name);
  const base = startProgress(config, data);
  const budget = isFormConfig(config) ? 0 : config.budget;
  try {
    // The data cell drew the data: the run is prepared on them (plugins, a given form) and run.
    const output = await runPrepared(prepareRun({ config, data }, { registries: env.registries }), {
      backend: env.backend,
      argmin: env.argmin ?? undefined,
      git: env.git,
      signal: controller.signal,
      onEpisode: (e) => {
        const targetIndex = Math.max(0, targets.indexOf(e.target));
        const share = Math.min(
          1,
          Math.max(e.episode / Math.max(1, base.episodes), budget > 0 ? e.structures / budget : 0),
        );
        feed.push({
          ...base,
          target: e.target,
          targetIndex,
          episode: e.episode,
          structures: e.structures,
          bestNrmse: e.best.nrmse,
          best:
            e.best.equation.terms.length || e.best.equation.expression !== undefined
              ? equationText(e.best.equation, symbol)
              : "",
          fraction: (targetIndex + share) / Math.max(1, targets.length),
        });
        env.hooks?.onEpisode?.(e, config);
      },
      // The steps before a target's episodes: the bar's line names them (a screen had left it at 0 %).
      onPhase: (event) => {
        // (A new target starts from nothing: no episode, structure or best of the one before.)
        const same = event.target === feed.latest.target;
        feed.push({
          ...(same ? feed.latest : { ...base, fraction: feed.latest.fraction }),
          target: event.target,
          targetIndex: Math.max(0, targets.indexOf(event.target)),
          phase: event.phase,
        });
      },
      onTraining: (step) => {
        feed.push({
          ...base,
          target: step.target,
          targetIndex: step.targetIndex,
          episode: step.step,
          episodes: step.steps,
          unit: step.unit,
          bestNrmse: step.nrmse ?? Number.NaN,
          fraction: (step.targetIndex + Math.min(1, step.step / Math.max(1, step.steps))) / Math.max(1, step.targets),
        });
        env.hooks?.onTraining?.(step, config);
      },
      onFit: ({ target, done, total, fit }) => {
        feed.push({
          ...base,
          target,
          targetIndex: done - 1,
          structures: done,
          bestNrmse: fit.trainNrmse[0] ?? Number.NaN,
          fraction: done / total,
        });
      },
    });
    const { search } = output.result;
    feed.push({
      ...feed.latest,
      fraction: search.stopReason === "aborted" ? feed.latest.fraction : 1,
      done: true,
      stopReason: search.stopReason,
    });
    env.hooks?.onFinish?.(output, config);
    return output;
  } finally {
    env.signal?.removeEventListener("abort", stop);
    feed.close();
  }
}

/**
 * Defines the module's cells on `runtime` (Observable's module convention): the inputs
 * `config`, `registries`, `backend` (the live tfjs backend's name, after useBackend), `argmin`
 * (the search's LP solver; null: HiGHS loaded the default way), `git`, `signal` and `hooks`, and
 * `data`, `search`, `progress`, `result` and `equations` computed from them.
 */
export default function define(runtime: Runtime, observer: ObserverFactory): Module {
  const main = runtime.module();
  // Inputs (redefine them): syn1 with the defaults, the built-in plugins, tfjs cpu.
  main.variable(observer("registries")).define("registries", [], () => createRegistries());
  main
    .variable(observer("config"))
    .define(
      "config",
      ["registries"],
      (registries: Registries): RuntimeConfig => resolvePipelineConfig({ experiment: "syn1" }, registries),
    );
  main.variable(observer("backend")).define("backend", [], () => useBackend("cpu"));
  main.variable(observer("argmin")).define("argmin", [], () => null);
  main.variable(observer("git")).define("git", [], () => "unknown");
  main.variable(observer("signal")).define("signal", [], () => null);
  main.variable(observer("hooks")).define("hooks", [], () => ({}));
  // Computed.
  main
    .variable(observer("data"))
    .define("data", ["config", "registries"], (config: RuntimeConfig, registries: Registries) =>
      pipelineData(config, { registries, table: config.table, file: config.file }),
    );
  // One feed per run: `search` writes it, `progress` reads it; both recompute together.
  main.define(
    "progressFeed",
    ["config", "data", "registries", "backend", "argmin", "git", "signal", "hooks"],
    (config: RuntimeConfig, data: PipelineData) => progressFeed(startProgress(config, data)),
  );
  main
    .variable(observer("search"))
    .define(
      "search",
      ["config", "data", "registries", "backend", "argmin", "git", "signal", "hooks", "progressFeed", "invalidation"],
      (
        config: RuntimeConfig,
        data: PipelineData,
        registries: Registries,
        backend: string,
        argmin: ArgminSolver | null,
        git: string,
        signal: AbortSignal | null,
        hooks: RuntimeHooks | null,
        feed: Feed,
        invalidation: Promise<void>,
      ) => runSearch(config, data, { registries, backend, argmin, git, signal, hooks }, feed, invalidation),
    );
  main.variable(observer("progress")).define("progress", ["progressFeed"], (feed: Feed) => feed.iterator);
  main.variable(observer("result")).define("result", ["search"], (search: PipelineOutput): ResultJson => search.result);
  main
    .variable(observer("equations"))
    .define("equations", ["result"], (result: ResultJson): EquationSummary[] =>
      result.equations.map(({ target, text, latex }) => ({ target, text, latex })),
    );
  return main;
}

export interface RunModuleOptions {
  /** tfjs backend to run on (default cpu); useBackend loads it. */
  backend?: string;
  /** Aborts the search; the result then holds the best found so far (stopReason "aborted"). */
  signal?: AbortSignal;
  /** Plugin registries (default: the built-ins). */
  registries?: Registries;
  /** A CSV config's table, and the name its problems are reported with (default config.data). */
  table?: Table;
  file?: string;
  /** The search's LP solver (default: HiGHS loaded the default way). */
  argmin?: ArgminSolver;
  /** The git commit recorded in the manifest (default "unknown"). */
  git?: string;
  hooks?: RuntimeHooks;
}

/**
 * Runs the module headless: a fresh Runtime, `config` and the other inputs redefined, `result`
 * awaited, the runtime disposed. A failure is the error of the cell that failed (an InputError
 * stays an InputError), not the runtime's wrapper of it.
 */
export async function runModule(config: PipelineConfig, options: RunModuleOptions = {}): Promise<ResultJson> {
  const runtime = new Runtime();
  let cause: unknown;
  const watch: ObserverFactory = () => ({
    rejected(error) {
      // Cells downstream of the failing one get a RuntimeError naming it; keep the original.
      if (cause === undefined && !(error instanceof RuntimeError)) cause = error;
    },
  });
  try {
    const main = runtime.module(define, watch);
    main.redefine("config", [], (): RuntimeConfig => ({ ...config, table: options.table, file: options.file }));
    if (options.registries) main.redefine("registries", [], () => options.registries);
    main.redefine("backend", [], () => useBackend(options.backend ?? "cpu"));
    if (options.argmin) main.redefine("argmin", [], () => options.argmin);
    main.redefine("git", [], () => options.git ?? "unknown");
    main.redefine("signal", [], () => options.signal ?? null);
    if (options.hooks) main.redefine("hooks", [], () => options.hooks);
    return (await main.value("result")) as ResultJson;
  } catch (error) {
    throw cause ?? error;
  } finally {
    runtime.dispose();
  }
}
