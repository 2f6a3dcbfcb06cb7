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
import { checkColumnDomain, checkDomains, fitForm, type FitFormOptions, type FitFormResult } from "./fitForm.js";
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
import { createRng, paceSteps } from "../core/index.js";
import type { TrainingStep } from "../baselines/index.js";
import type { ArgminSolver } from "../search/index.js";
import {
  search,
  type EpisodeEvent,
  type SearchOptions,
  type SearchResult,
  type SearchSettings,
} from "../search/index.js";
import { VERSION } from "../core/index.js";
import { quote } from "../core/index.js";
import { type CsvFormConfig, type PipelineConfig, isExperimentConfig, isFormConfig, isModelConfig } from "./config.js";
import { fitOf, searchSettingsOf, findExperiment } from "./resolve.js";
import { manifestConfig, usesTfjs, recordedBackend } from "./manifest.js";

/** The plugins a config names, looked up (an unknown name is an InputError from the registry). */
export interface PipelinePlugins {
  /** The registry fits and searches draw symbols from: all of them, or for a CSV form only the pool, in pool order. */
  symbols: Registry<SymbolPlugin>;
  pool: string[];
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
        constraints: [],
      };
    }
    return { symbols: all, pool: [], constraints: [] };
  }
  const constraints = config.constraints.map((name) => registries.constraints.get(name));
  const reward = registries.rewards.get(config.reward);
  return { symbols: all, pool: [...config.symbols], constraints, reward, settings: searchSettingsOf(config) };
}

/**
 * The data a pipeline runs on. For an experiment, the train set is drawn first from
 * createRng(seed), then the test set; the search continues that stream (its generator is the
 * one `rng.fork()` would give at that point), so a run is the same whether the data were drawn
 * here or by an earlier version of the CLI.
 */
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

/** The data of a config: the experiment's draw, or the CSV table split into the recorded targets and inputs. */
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
  const symbols = pipelinePlugins(config, registries).symbols;
  const equations = parseForm(config.form, { symbols: symbols.values(), inputs: train.inputs, targets: train.targets });
  checkDomains(equations, train, symbols);
  const missing = train.targets.find((t) => !equations.some((e) => e.target === t));
  if (missing) throw new InputError(`form: no equation for target "${missing}"`, { field: "form" });
  return equations;
}

/** The noise estimate as the JSON records it (NRMSE to 4 significant digits: it is an estimate). */
const noiseRecord = (o: SearchResult["outputs"][number]) => ({
  nrmse: Number(o.noise.nrmse.toPrecision(4)),
  method: o.noise.method,
});

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
    e.terms.length ? refitOnAllRows(e, train, lookup) : { equation: e, nrmse: Number.NaN },
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

export interface PipelineInput {
  data: PipelineData;
  config: PipelineConfig;
  registries: Registries;
  /** Stops a search at the next episode; the result then holds the best found so far (stopReason "aborted"). */
  signal?: AbortSignal;
  onEpisode?: (event: EpisodeEvent) => void;
  /** After each equation of a given form is fitted. */
  onFit?: FitFormOptions["onProgress"];
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

/** Runs a config on its data: the search or the given-form fit, the evaluation of an experiment, the manifest. */
export async function runPipeline(input: PipelineInput): Promise<PipelineOutput> {
  const { config, data, registries } = input;
  const plugins = pipelinePlugins(config, registries);
  let equations: ResultJson["equations"];
  let simplified: Equation[];
  let block: ResultJson["search"];
  let found: SearchResult | undefined;
  let fitted: FitFormResult | undefined;
  let models: ModelResult[] | undefined;
  let evaluation: ResultJson["evaluation"];
  const experiment = isExperimentConfig(config) ? findExperiment(config.experiment) : undefined;
  // tfjs is loaded only where this run uses it: a model method, or fits on a tfjs engine (a
  // search on the float64 engine, the default, never touches it).
  if (usesTfjs(config)) await import("../local/fitTfjs.js");
  if (isModelConfig(config)) {
    const { fitModelsSteps } = await import("../baselines/index.js");
    // A model method: no equation, a model per target; its evaluation scores the predictions.
    const settings = plugins.settings!;
    // EQL's units follow an experiment's symbol pool (a CSV run has none: every unit kind). Paced on
    // the event loop so that an abort gets in: training then ends at its next epoch or batch,
    // keeping its best so far, and later outputs are not trained.
    const output = await paceSteps(
      fitModelsSteps(data.train, data.test, settings, createRng(data.searchSeed), {
        onModel: input.onModel,
        onStep: input.onTraining,
        stopped: () => input.signal?.aborted ?? false,
        context: { symbols: registries.symbols, pool: experiment?.symbols },
      }),
    );
    models = output.models;
    equations = output.equations ?? [];
    simplified = output.simplified ?? [];
    block = {
      method: settings.method,
      episodes: 0,
      structures: 0,
      stopReason: output.stopped ? "aborted" : "model-trained",
    };
    if (experiment && data.test)
      evaluation = evaluateModels(
        experiment,
        settings.method,
        output.testPredictions!,
        { train: data.train, test: data.test },
        registries.symbols,
        output.equations ? simplified : undefined,
      );
  } else if (isFormConfig(config)) {
    // A form fixes the structure only: every weight starts at 1 (paper appendix).
    const forms = experiment
      ? (experiment.forms ?? experiment.truth).map(formOf)
      : formEquations(config as CsvFormConfig, data.train, registries);
    fitted = fitForm(data.train, forms, { symbols: plugins.symbols, ...fitOf(config), onProgress: input.onFit });
    ({ equations, simplified } = fitted);
    block = formBlock(fitted);
  } else {
    // A large table: the search sees a sample of its rows, the answer is refitted on all (sample.ts);
    // many inputs: only those a forward selection keeps (screen.ts).
    const sampled = searchSample(data.train, data.searchSeed);
    const screened = screenInputs(sampled.data, plugins.pool, plugins.symbols);
    found = await search(screened.data, {
      ...searchOptionsOf(plugins, data),
      signal: input.signal,
      onEpisode: input.onEpisode,
      argmin: input.argmin,
    });
    ({ equations, simplified } = found);
    if (sampled.sample) ({ equations, simplified } = onAllRows(found, data.train, plugins));
    block = {
      ...searchBlock(found, plugins.settings!.method),
      ...(sampled.sample ? { sample: sampled.sample } : {}),
      ...(screened.inputs ? { inputs: screened.inputs } : {}),
    };
  }
  checkFinite(equations, found, isExperimentConfig(config) ? config.experiment : config.data);
  if (experiment && !models) {
    if (!data.test) throw new InputError(`${experiment.name}: the pipeline data has no test set to evaluate on`);
    evaluation = evaluateExperiment(experiment, simplified, { train: data.train, test: data.test }, registries.symbols);
  }
  const requires = requirementsOf(equations);
  const result: ResultJson = {
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
      git: input.git ?? "unknown",
      backend: recordedBackend(config, input.backend),
    },
  };
  return { result, search: found, fit: fitted };
}
