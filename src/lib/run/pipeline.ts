/**
 * One path from a configuration to a version-1 result: data (a paper experiment or a CSV table)
 * → resolved config (resolve.ts; its types in config.ts) → structure search or given-form fit →
 * result JSON with its manifest {seed, config, version, git, backend} (manifest.ts). The CLI's
 * `fit`, `run` and `reproduce`, the runtime module (api/runtime.ts) and the site's data loaders all
 * go through here, so they cannot drift apart. Browser-safe: no `node:` imports, no files (the
 * caller reads the CSV), no clock in the result (one seed gives byte-identical JSON).
 */
import { datasetFromTable, type Table } from "../data/index.js";
import type { Dataset } from "../data/index.js";
import { experimentData } from "../data/index.js";
import { formOf } from "../local/index.js";
import { parseForm } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import { InputError } from "../core/index.js";
import { evaluateExperiment, evaluateModels } from "./evaluate.js";
import {
  checkColumnDomain,
  checkDomains,
  fitForm,
  fitFormSteps,
  type FitFormOptions,
  type FitFormResult,
} from "./fitForm.js";
import {
  Registry,
  type ConstraintPlugin,
  type Registries,
  type RewardPlugin,
  type SymbolPlugin,
} from "../plugins/index.js";
import { equationResult, requirementsOf, type ModelResult, type ResultJson } from "../result/index.js";
import { refitOnAllRows, searchSample } from "./sample.js";
import { screenInputs } from "./screen.js";
import { Clock, createRng, driveSteps, paceSteps } from "../core/index.js";
import type { TrainingStep } from "../baselines/index.js";
import type { ArgminSolver } from "../search/index.js";
import {
  search,
  type EpisodeEvent,
  type PhaseEvent,
  type SearchOptions,
  type SearchResult,
  type SearchSettings,
} from "../search/index.js";
import { VERSION } from "../core/index.js";
import { quote } from "../core/index.js";
import {
  type CsvFormConfig,
  type FitConfig,
  type PipelineConfig,
  isExperimentConfig,
  isFormConfig,
  isModelConfig,
} from "./config.js";
import { fitOf, searchSettingsOf, findExperiment } from "./resolve.js";
import { prepareRun, type PreparedRun } from "./prepare.js";
import type { Experiment } from "../data/index.js";
import { manifestConfig, usesTfjs, recordedBackend } from "./manifest.js";

/** The plugins a config names, looked up (an unknown name is an InputError from the registry). */
export interface PipelinePlugins {
  /** The registry fits and searches draw symbols from: all of them, or for a CSV form only the pool, in pool order. */
  symbols: Registry<SymbolPlugin>;
  pool: string[];
  /** For a CSV form: the registered symbols outside the pool (named when a factor needs one). */
  others?: SymbolPlugin[];
  constraints: ConstraintPlugin[];
  reward?: RewardPlugin;
  /** Complete search settings (searches only). */
  settings?: SearchSettings;
}

/** Looks up every plugin a config names and validates its search settings, in the order the CLI reports problems. */
export function pipelinePlugins(config: PipelineConfig, registries: Registries): PipelinePlugins {
  const all = registries.symbols;
  if ("symbols" in config) for (const name of config.symbols) all.get(name);
  if (isFormConfig(config)) {
    if (!isExperimentConfig(config)) {
      return {
        symbols: new Registry<SymbolPlugin>(
          "symbol",
          config.symbols.map((name) => all.get(name)),
        ),
        pool: [...config.symbols],
        others: all.values().filter((s) => !config.symbols.includes(s.name)),
        constraints: [],
      };
    }
    return { symbols: all, pool: [], constraints: [] };
  }
  const constraints = config.constraints.map((name) => registries.constraints.get(name));
  const reward = registries.rewards.get(config.reward);
  return { symbols: all, pool: [...config.symbols], constraints, reward, settings: searchSettingsOf(config) };
}

/** What a search config's run passes to search(): its plugins, settings and seeded generator. */
export function searchOptionsOf(
  plugins: PipelinePlugins,
  data: PipelineData,
): Pick<SearchOptions, "symbols" | "pool" | "constraints" | "reward" | "rng" | "method" | "settings"> {
  return {
    symbols: plugins.symbols,
    pool: plugins.pool,
    constraints: plugins.constraints,
    reward: plugins.reward!,
    rng: createRng(data.searchSeed),
    method: plugins.settings!.method,
    settings: plugins.settings,
  };
}

export interface PipelineData {
  train: Dataset;
  /** An experiment's test set (its extrapolation range, noiseless), for the evaluation block. */
  test?: Dataset;
  /** Seed of the search's generator: createRng(searchSeed). */
  searchSeed: number;
  /** A CSV's rows and, where the table knows it, the SHA-256 of its file: manifest.data. */
  source?: { sha256?: string; rows: number };
}

/**
 * The data of a config: the experiment's draw, or the CSV table split into the recorded targets
 * and inputs. For an experiment, the train set is drawn first from createRng(seed), then the test
 * set; the search continues that stream (its generator is the one `rng.fork()` would give at that
 * point), so a run is the same whether the data were drawn here or by an earlier version of the
 * CLI. The data step of prepareRun (prepare.ts), which builds the whole run; call it alone for
 * the data only.
 */
export function pipelineData(
  config: PipelineConfig,
  source: { registries: Registries; table?: Table; file?: string },
): PipelineData {
  if (isExperimentConfig(config)) {
    const experiment = findExperiment(config.experiment);
    const symbols = source.registries.symbols;
    const rng = createRng(config.seed);
    const { train, test } = experimentData(experiment, {
      rng,
      symbols: (name) => symbols.get(name),
      rows: config.rows,
      snrDb: config.snrDb ?? undefined,
    });
    // A pool symbol whose domain an input leaves is an error naming
    // them, as for `fit --symbols` (the default pools never are).
    if ("symbols" in config) {
      for (const name of config.symbols) {
        train.inputs.forEach((input, i) => {
          checkColumnDomain(symbols.get(name), input, train.x[i]!, `drop ${name} from \`symbols\``);
        });
      }
    }
    // rng.fork() is createRng(⌊next()·2³²⌋): keep the seed, not a generator that one run would use up.
    return { train, test, searchSeed: Math.floor(rng.next() * 4294967296) };
  }
  if (!source.table) throw new InputError(`${config.data}: the CSV table is needed to run this configuration`);
  const train = datasetFromTable(source.table, config.targets, config.inputs, source.file ?? config.data);
  return { train, searchSeed: config.seed, source: { sha256: source.table.sha256, rows: source.table.rows } };
}

/**
 * A CSV form config's equations, parsed against its data with the pool's symbols; every factor's
 * domain checked, and every target given an equation.
 */
export function formEquations(config: CsvFormConfig, train: Dataset, registries: Registries): Equation[] {
  const plugins = pipelinePlugins(config, registries);
  return parseFormEquations(config, train, plugins.symbols, plugins.others);
}

/**
 * formEquations with the pool's registry already built (pipelinePlugins(config).symbols); `others`,
 * the registered symbols outside the pool, are named when a factor needs one.
 */
export function parseFormEquations(
  config: CsvFormConfig,
  train: Dataset,
  symbols: Registry<SymbolPlugin>,
  others?: readonly SymbolPlugin[],
): Equation[] {
  const equations = parseForm(config.form, {
    symbols: symbols.values(),
    inputs: train.inputs,
    targets: train.targets,
    others,
  });
  checkDomains(equations, train, symbols);
  const missing = train.targets.find((t) => !equations.some((e) => e.target === t));
  if (missing) throw new InputError(`form: no equation for target "${missing}"`, { field: "form" });
  return equations;
}

/**
 * A given-form config's equations, every weight 1 (paper appendix: a form fixes the structure
 * only): an experiment's own forms, or a CSV's form parsed on its data. None for a search.
 */
export function givenForms(config: PipelineConfig, train: Dataset, plugins: PipelinePlugins): Equation[] | undefined {
  if (!isFormConfig(config)) return undefined;
  if (!isExperimentConfig(config)) return parseFormEquations(config, train, plugins.symbols, plugins.others);
  const experiment = findExperiment(config.experiment);
  return (experiment.forms ?? experiment.truth).map(formOf);
}

/** The noise estimate as the JSON records it (NRMSE to 4 significant digits: it is an estimate). */
const noiseRecord = (o: SearchResult["outputs"][number]) => ({
  nrmse: Number(o.noise.nrmse.toPrecision(4)),
  method: o.noise.method,
});

/** A target's `ambiguous` record (the rival's text, the gap to 3 digits), where its answer has one. */
function ambiguityOf(found: SearchResult, target: string) {
  const a = found.ambiguous.find((x) => x.target === target);
  return a ? { ambiguous: { rival: a.rival, gap: Number(a.gap.toPrecision(3)) } } : {};
}

function searchBlock(found: SearchResult, method: string): ResultJson["search"] {
  return {
    method,
    episodes: found.episodes,
    structures: found.structures,
    stopReason: found.stopReason,
    targets: found.outputs.map((o) => ({
      target: o.target,
      episodes: o.episodes,
      structures: o.structures,
      ...(o.screened > 0 ? { columnsScreened: o.screened } : {}),
      terms: o.size.terms,
      maxFactors: o.size.maxFactors,
      stopReason: o.stopReason,
      ...(o.identities ? { identities: o.identities } : {}),
      ...(o.unwritable ? { unwritable: o.unwritable } : {}),
      ...ambiguityOf(found, o.target),
    })),
    noise:
      found.outputs.length === 1
        ? noiseRecord(found.outputs[0]!)
        : found.outputs.map((o) => ({ target: o.target, ...noiseRecord(o) })),
    front: found.front,
  };
}

/** A sampled search's chosen equations refitted and scored on all rows (sample.ts), as the result shows them. */
function onAllRows(
  found: SearchResult,
  train: Dataset,
  plugins: PipelinePlugins,
): { equations: ResultJson["equations"]; simplified: Equation[] } {
  const lookup = (name: string) => plugins.symbols.get(name);
  const refits = found.simplified.map((e) =>
    e.terms.length || e.expression !== undefined
      ? refitOnAllRows(e, train, lookup)
      : { equation: e, nrmse: Number.NaN },
  );
  return {
    simplified: refits.map((r) => r.equation),
    equations: refits.map(({ equation, nrmse }) => equationResult(equation, lookup, nrmse)),
  };
}

const formBlock = (fitted: FitFormResult): ResultJson["search"] => ({
  method: "form",
  episodes: 0,
  structures: fitted.equations.length,
  stopReason: "form-given",
});

/** What a run is given besides its prepared data and plugins: its stop signal, progress callbacks, manifest facts. */
export interface RunHooks {
  /** Stops a search at the next episode; the result then holds the best found so far (stopReason "aborted"). */
  signal?: AbortSignal;
  onEpisode?: (event: EpisodeEvent) => void;
  /** When a target's search starts a phase before its episodes (search/strategy.ts PhaseEvent). */
  onPhase?: (event: PhaseEvent) => void;
  /** After each equation of a given form is fitted. */
  onFit?: FitFormOptions["onProgress"];
  /**
   * Stops a given form's fit (a form has no best so far): the fit runs on the event loop, handing
   * control back about every 50 ms, and runPrepared rejects with Interrupted once this aborts.
   * Without it the fit runs to its end synchronously.
   */
  formSignal?: AbortSignal;
  /** After each target's model is trained (a model method). */
  onModel?: (model: ModelResult) => void;
  /** After each epoch or batch of samples of a model method's training (baselines/pace.ts). */
  onTraining?: (step: TrainingStep) => void;
  /** The git commit recorded in the manifest (default "unknown"). */
  git?: string;
  /** The active tfjs backend (tf.getBackend() after useBackend); see recordedBackend. */
  backend: string;
  /**
   * The search's LP solver (default: HiGHS loaded the default way; a page served without the site's vendored highs.wasm
   * passes its own, see browser.ts).
   */
  argmin?: ArgminSolver;
}

/** runPipeline's input: a config, its data (pipelineData) and the registries, with the run's hooks. */
export interface PipelineInput extends RunHooks {
  data: PipelineData;
  config: PipelineConfig;
  registries: Registries;
}

export interface PipelineOutput {
  /** The version-1 result JSON (resultToJson writes it). */
  result: ResultJson;
  /** The search, for a search config: per-output details, and the plugin error that stopped it, if one did. */
  search?: SearchResult;
  /** The fit, for a given form. */
  fit?: FitFormResult;
}

/**
 * The last line of defence against badly scaled data: an equation whose train NRMSE is not
 * finite (every fit overflowed or the target's spread vanished) is never presented as a result.
 * A search output that was stopped (Ctrl-C, a plugin error) is left alone: the CLI reports
 * that stop itself.
 */
function checkFinite(equations: ResultJson["equations"], found: SearchResult | undefined, source: string): void {
  equations.forEach((equation, k) => {
    if (Number.isFinite(equation.trainNrmse)) return;
    const stop = found?.outputs[k]?.stopReason;
    if (stop === "aborted" || stop === "error" || stop === "time-limit") return;
    throw new InputError(
      `${source}: no fit with a finite train NRMSE was found for target ${quote(equation.target)} ` +
        `(NRMSE ${equation.trainNrmse}): the fits overflow or the target's spread vanishes in float64; ` +
        `scale the columns to magnitudes near 1, ` +
        `or drop the symbols that overflow on them (e.g. exp of large values)`,
    );
  });
}

/**
 * Runs a config on its data: a thin wrapper over the door (prepareRun with the config and data
 * given, then runPrepared), for callers that built the data themselves.
 */
export async function runPipeline(input: PipelineInput): Promise<PipelineOutput> {
  const { config, data, registries } = input;
  return runPrepared(prepareRun({ config, data }, { registries }), input);
}

/** What a run's answer phase (a model, a given form or a search) hands to the checks and the result. */
interface Answer {
  equations: ResultJson["equations"];
  simplified: Equation[];
  block: ResultJson["search"];
  found?: SearchResult;
  fitted?: FitFormResult;
  models?: ModelResult[];
  evaluation?: ResultJson["evaluation"];
}

/**
 * Runs a prepared run (prepareRun): the answer (a model method's training, a given form's fit or a
 * structure search), the finite check, the evaluation of an experiment, the result with its manifest.
 */
export async function runPrepared(prepared: PreparedRun, hooks: RunHooks): Promise<PipelineOutput> {
  const { config } = prepared;
  const experiment = isExperimentConfig(config) ? findExperiment(config.experiment) : undefined;
  // tfjs is loaded only where this run uses it: a model method, or fits on a tfjs engine (a
  // search on the float64 engine, the default, never touches it).
  if (usesTfjs(config)) await import("../local/fitTfjs.js");
  const answer = isModelConfig(config)
    ? await trainModels(prepared, hooks, experiment)
    : isFormConfig(config)
      ? await fitGivenForms(prepared, hooks)
      : await searchStructures(prepared, hooks);
  checkFinite(answer.equations, answer.found, isExperimentConfig(config) ? config.experiment : config.data);
  const evaluation = experiment && !answer.models ? evaluated(experiment, answer, prepared) : answer.evaluation;
  return { result: resultOf(prepared, answer, evaluation, hooks), search: answer.found, fit: answer.fitted };
}

/** A model method: no equation, a model per target; its evaluation scores the predictions. */
async function trainModels(prepared: PreparedRun, hooks: RunHooks, experiment?: Experiment): Promise<Answer> {
  const { data, registries } = prepared;
  const { fitModelsSteps } = await import("../baselines/index.js");
  const settings = prepared.plugins.settings!;
  // EQL's units follow an experiment's symbol pool (a CSV run has none: every unit kind). Paced on
  // the event loop so that an abort gets in: training then ends at its next epoch or batch,
  // keeping its best so far, and later outputs are not trained.
  const output = await paceSteps(
    fitModelsSteps(data.train, data.test, settings, createRng(data.searchSeed), {
      onModel: hooks.onModel,
      onStep: hooks.onTraining,
      stopped: () => hooks.signal?.aborted ?? false,
      context: { symbols: registries.symbols, pool: experiment?.symbols },
    }),
  );
  const simplified = output.simplified ?? [];
  return {
    models: output.models,
    equations: output.equations ?? [],
    simplified,
    block: {
      method: settings.method,
      episodes: 0,
      structures: 0,
      stopReason: output.stopped ? "aborted" : "model-trained",
    },
    evaluation:
      experiment && data.test
        ? evaluateModels(
            experiment,
            settings.method,
            output.testPredictions!,
            { train: data.train, test: data.test },
            registries.symbols,
            output.equations ? simplified : undefined,
          )
        : undefined,
  };
}

/** A given form: its weights fitted on the train set, the structure kept. */
async function fitGivenForms(prepared: PreparedRun, hooks: RunHooks): Promise<Answer> {
  const { config, data, plugins } = prepared;
  const options = { symbols: plugins.symbols, ...fitOf(config as FitConfig), onProgress: hooks.onFit };
  let fitted: FitFormResult;
  if (!hooks.formSignal) fitted = fitForm(data.train, prepared.forms!, options);
  else {
    const steps = fitFormSteps(data.train, prepared.forms!, options);
    try {
      fitted = await driveSteps(steps, new Clock(0, hooks.formSignal));
    } finally {
      // An abandoned fit frees its tensors (its generators' finally blocks run).
      steps.return(undefined as never);
    }
  }
  return { equations: fitted.equations, simplified: fitted.simplified, block: formBlock(fitted), fitted };
}

/**
 * A structure search. A large table: the search sees a sample of its rows, the answer is refitted
 * on all (sample.ts); many inputs: only those a forward selection keeps (screen.ts).
 */
async function searchStructures(prepared: PreparedRun, hooks: RunHooks): Promise<Answer> {
  const { data, plugins } = prepared;
  // The time limit counts the input screen too.
  const started = performance.now();
  const sampled = searchSample(data.train, data.searchSeed);
  const settings = plugins.settings!;
  const screened = screenInputs(
    sampled.data,
    plugins.pool,
    plugins.symbols,
    settings.polynomial ? { intercept: settings.constant, stopNrmse: settings.stopNrmse } : undefined,
  );
  const found = await search(screened.data, {
    ...searchOptionsOf(plugins, data),
    signal: hooks.signal,
    started,
    onEpisode: hooks.onEpisode,
    onPhase: hooks.onPhase,
    argmin: hooks.argmin,
  });
  const { equations, simplified } = sampled.sample ? onAllRows(found, data.train, plugins) : found;
  const block = {
    ...searchBlock(found, plugins.settings!.method),
    ...(sampled.sample ? { sample: sampled.sample } : {}),
    ...(screened.inputs ? { inputs: screened.inputs } : {}),
  };
  return { equations, simplified, block, found };
}

/** An experiment's evaluation of the answer's equations on its train and test sets. */
function evaluated(experiment: Experiment, answer: Answer, prepared: PreparedRun): ResultJson["evaluation"] {
  const { data, registries } = prepared;
  if (!data.test) throw new InputError(`${experiment.name}: the pipeline data has no test set to evaluate on`);
  return evaluateExperiment(experiment, answer.simplified, { train: data.train, test: data.test }, registries.symbols);
}

/** The version-1 result: the answer, its evaluation and the manifest that re-runs it. */
function resultOf(
  prepared: PreparedRun,
  answer: Answer,
  evaluation: ResultJson["evaluation"],
  hooks: RunHooks,
): ResultJson {
  const { config, data } = prepared;
  const { equations, block, models } = answer;
  const requires = requirementsOf(equations);
  return {
    version: 1,
    ...(requires.length > 0 ? { requires } : {}),
    equations,
    search: block,
    ...(models ? { models } : {}),
    ...(evaluation ? { evaluation } : {}),
    manifest: {
      seed: config.seed,
      config: manifestConfig(config),
      // The data a CSV run read, so that `reproduce` can tell the same file from another before re-running.
      ...(data.source?.sha256 ? { data: { sha256: data.source.sha256, rows: data.source.rows } } : {}),
      version: VERSION,
      git: hooks.git ?? "unknown",
      backend: recordedBackend(config, hooks.backend),
    },
  };
}
