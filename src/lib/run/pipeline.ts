/**
 * One path from a configuration to a version-1 result: data (a paper experiment or a CSV table)
 * → resolved config → structure search or given-form fit → result JSON with its manifest
 * {seed, config, version, git, backend}. The CLI's `fit`, `run` and `reproduce`, the runtime
 * module (runtime.ts) and the site's data loaders all go through here, so they cannot drift
 * apart. Browser-safe: no `node:` imports, no files (the caller reads the CSV), no clock in the
 * result (one seed gives byte-identical JSON).
 */
import { BOUNDS, checkBound, checkWith, fitSchema } from "../search/index.js";
import { datasetFromTable, type Table } from "../data/index.js";
import type { Dataset } from "../data/index.js";
import { experimentData, experiments, type Experiment } from "../data/index.js";
import { benchmarkEntries, benchmarkExperiment } from "../data/index.js";
import { createSymbolRegistry } from "../plugins/index.js";
import { formOf } from "../local/index.js";
import { parseForm } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import { InputError } from "../core/index.js";
import { evaluateExperiment, evaluateModels } from "./evaluate.js";
import { checkColumnDomain, checkDomains, fitForm, type FitFormOptions, type FitFormResult } from "./fitForm.js";
import type { FitOptions } from "../local/index.js";
import {
  Registry,
  type ConstraintPlugin,
  type Registries,
  type RewardPlugin,
  type SymbolPlugin,
} from "../plugins/index.js";
import type { ModelResult, ResultJson } from "../result/index.js";
import { createRng } from "../core/index.js";
import type { ArgminSolver } from "../search/index.js";
import {
  isMethod,
  isModelMethod,
  METHOD_NAMES,
  resolveSettings,
  search,
  settingsRecord,
  type EpisodeEvent,
  type SearchMethod,
  type SearchOptions,
  type SearchResult,
  type SearchSettings,
} from "../search/index.js";
import { VERSION } from "../core/index.js";
import { isObject } from "../result/index.js";
import { quote } from "../core/index.js";

/** The LoCaL fit of a given form (top level of the config) or of every structure in a search (`fit`). */
export interface FitConfig {
  steps: number;
  learningRate: number;
  polish: NonNullable<FitOptions["polish"]>;
  engine: "tfjs" | "js";
}

interface ExperimentSource {
  seed: number;
  experiment: string;
  rows: number;
  snrDb: number | null;
}

interface CsvSource {
  seed: number;
  /** The CSV's name as the user gave it (a path for the CLI). */
  data: string;
  targets: string[];
  inputs: string[];
  /** The symbol pool (registry names). */
  symbols: string[];
}

interface SearchChoice {
  symbols: string[];
  constraints: string[];
  reward: string;
}

/** `run <experiment> --given-form`: the experiment's true forms, every weight from 1. */
export type ExperimentFormConfig = ExperimentSource & { givenForm: true } & FitConfig;
/** `run <experiment>`: a structure search on the experiment's training set. */
export type ExperimentSearchConfig = ExperimentSource & SearchChoice & SearchSettings & { givenForm?: undefined };
/** `fit data.csv --form …`: the form's structure fitted to the table. */
export type CsvFormConfig = CsvSource & { form: string } & FitConfig;
/** `fit data.csv`: a structure search on the table. */
export type CsvSearchConfig = CsvSource & { form?: undefined } & SearchChoice & SearchSettings;

/**
 * A resolved configuration: `seed` plus exactly the keys written to manifest.config (every
 * default filled in). Build one with resolvePipelineConfig, or read one back with
 * configFromManifest.
 */
export type PipelineConfig = ExperimentFormConfig | ExperimentSearchConfig | CsvFormConfig | CsvSearchConfig;

export const isExperimentConfig = (config: PipelineConfig): config is ExperimentFormConfig | ExperimentSearchConfig =>
  "experiment" in config;
/** A given-form fit (experiment or CSV) rather than a search. */
export const isFormConfig = (config: PipelineConfig): config is ExperimentFormConfig | CsvFormConfig =>
  isExperimentConfig(config)
    ? config.givenForm === true
    : typeof (config as CsvSource & { form?: unknown }).form === "string";

/** What a user asks for; resolvePipelineConfig fills in the rest. */
export interface PipelineOptions {
  /** A paper experiment (syn1, syn2, toy, pow) … */
  experiment?: string;
  /**
   * … or a CSV table and the name recorded as config.data; `table` may be a function, called once the name checks pass.
   */
  csv?: { name: string; table: Table | (() => Table) };
  /** Target columns of a CSV (default: the left-hand sides of `form`). */
  targets?: string[];
  /** Input columns of a CSV (default: every column that is not a target). */
  inputs?: string[];
  /**
   * Symbol pool (default: the experiment's, or every registered symbol minus the (input,
   * symbol) pairs whose domain the input violates). Given explicitly for a CSV search, such a
   * pair is an error naming the symbol, the column and the row.
   */
  symbols?: string[];
  /** CSV only: fit this form ("y1 = x1^2*cos(x2); y2 = x1*x3") instead of searching. */
  form?: string;
  /** Experiment only: fit the experiment's true forms instead of searching. */
  givenForm?: boolean;
  /** Seed of the data draw (experiments) and of the search (default 0). */
  seed?: number;
  /** Experiment only: rows of the train and the test set (default the experiment's, 2000). */
  rows?: number;
  /** Experiment only: Gaussian noise on the training targets at this SNR (dB). */
  snrDb?: number;
  /** Search method (default consolesr). */
  method?: SearchMethod;
  /** Constraint plugins (default static, dynamic). */
  constraints?: string[];
  /** Reward plugin (default inv-nrmse). */
  reward?: string;
  /** Overrides of the method's search settings (episodes, budget, terms, maxFactors, stopNrmse, epsilon, gamma, …). */
  search?: Partial<Omit<SearchSettings, "method" | "fit">>;
  /**
   * Overrides of the fit settings (default: 200 steps on tfjs for a
   * form with the LM polish, 50 on the float64 engine in a search with "lsq"; lr 0.01).
   */
  fit?: Partial<FitConfig>;
}

/** Fit defaults: a given form gets 200 Adam steps on tfjs, every structure in a search 50 on the float64 engine. */
export const FORM_FIT: FitConfig = { steps: 200, learningRate: 0.01, polish: "lm", engine: "tfjs" };
export const SEARCH_FIT: FitConfig = { steps: 50, learningRate: 0.01, polish: "lsq", engine: "js" };
export const DEFAULT_CONSTRAINTS = ["static", "dynamic"];
export const DEFAULT_REWARD = "inv-nrmse";

/** Every search setting a config may carry (`replay` only where `reproduce` replays a time-limited run). */
const SEARCH_KEYS = [...Object.keys(resolveSettings()), "replay"] as (keyof SearchSettings)[];

function checkFit(fit: Record<string, unknown>, where: string): FitConfig {
  const { steps, learningRate, polish, engine } = checkWith(fitSchema, fit, where);
  return { steps, learningRate, polish, engine };
}

/** Drops undefined entries, so that `{episodes: undefined}` means "the default", not an override. */
const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The search overrides, with the noise floor off where a stop NRMSE is given explicitly (the
 * caller announced how noisy the data are) and the floor is not asked for.
 */
function announced(search: PipelineOptions["search"]): Partial<SearchSettings> {
  const given = defined(search);
  if (given.stopNrmse !== undefined && given.noiseFloor === undefined) given.noiseFloor = false;
  return given;
}

const fitOf = (config: FitConfig): FitConfig => ({
  steps: config.steps,
  learningRate: config.learningRate,
  polish: config.polish,
  engine: config.engine,
});

/** A search config whose method fits a model per target (the MLP baseline) instead of searching for equations. */
export const isModelConfig = (config: PipelineConfig): boolean =>
  !isFormConfig(config) && isModelMethod((config as { method: string }).method);

/**
 * A model method takes no --symbols: the MLP uses no symbols, and EQL, DSR and VPG draw theirs
 * from the experiment's pool (a CSV: every registered symbol). A pool given for one is an error
 * rather than quietly ignored.
 */
function checkNoPool(options: PipelineOptions): void {
  const method = options.method ?? "consolesr";
  if (options.symbols && isModelMethod(method))
    throw new InputError(
      method === "mlp"
        ? `--symbols chooses a search's pool; --method mlp fits a network with no symbols`
        : `--symbols is not taken by --method ${method}: it uses the experiment's pool ` +
            `(a CSV: every registered symbol, plugin symbols included)`,
    );
}

/** The search settings of a search config, validated and complete (the method's defaults under it). */
export function searchSettingsOf(config: ExperimentSearchConfig | CsvSearchConfig): SearchSettings {
  const overrides = Object.fromEntries(
    SEARCH_KEYS.filter((key) => key in config).map((key) => [key, config[key]]),
  ) as Partial<SearchSettings>;
  return resolveSettings(config.method, overrides);
}

/** Left-hand sides of a form, to default the targets. */
const formTargets = (form: string) =>
  form
    .split(/[;\n]/)
    .map((s) => s.split("=")[0]!.trim())
    .filter(Boolean);

const benchmarkExperiments = new Map<string, Experiment>();

/**
 * A paper experiment by name, or an entry of the search benchmark by id ("nguyen-1", built once with the
 * built-in symbols); undefined when neither.
 */
export function lookupExperiment(name: string): Experiment | undefined {
  if (Object.hasOwn(experiments, name)) return experiments[name];
  let experiment = benchmarkExperiments.get(name);
  if (experiment) return experiment;
  const entry = benchmarkEntries.find((e) => e.id === name);
  if (!entry) return undefined;
  experiment = benchmarkExperiment(entry, createSymbolRegistry());
  benchmarkExperiments.set(name, experiment);
  return experiment;
}

function findExperiment(name: string, prefix = ""): Experiment {
  const experiment = lookupExperiment(name);
  if (!experiment)
    throw new InputError(
      `${prefix}unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")}, ` +
        `or a search-benchmark id such as nguyen-1)`,
    );
  return experiment;
}

/** An experiment's own cap on training rows (pow: one year), after the general bound. */
function checkExperimentRows(experiment: Experiment, rows: number, prefix = ""): number {
  if (experiment.maxRows !== undefined && rows > experiment.maxRows) {
    throw new InputError(
      prefix +
        (experiment.rowsMessage?.(rows) ??
          `${experiment.name}: --rows ${rows} is more than its ${experiment.maxRows}; ` +
            `give --rows ${experiment.maxRows} or fewer`),
    );
  }
  return rows;
}

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
          checkColumnDomain(symbols.get(name), input, train.x[i]!, `drop ${name} from --symbols`);
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

/** Constraint and reward names of a search, defaulted and looked up. */
function searchChoice(options: PipelineOptions, registries: Registries): Omit<SearchChoice, "symbols"> {
  const constraints = [...(options.constraints ?? DEFAULT_CONSTRAINTS)];
  const reward = options.reward ?? DEFAULT_REWARD;
  for (const name of constraints) registries.constraints.get(name);
  registries.rewards.get(reward);
  return { constraints, reward };
}

/**
 * Turns what a user asks for into the resolved config recorded in manifest.config, and checks
 * it: plugin names, the data (for a CSV: columns, rows, domains of an explicit pool or of the
 * form's factors) and the search settings. Every problem is one InputError, reported in the
 * order the CLI always reported them.
 */
export function resolvePipelineConfig(options: PipelineOptions, registries: Registries): PipelineConfig {
  const seed = checkBound(BOUNDS.seed, options.seed ?? 0, "seed");
  if (options.experiment !== undefined) {
    const experiment = findExperiment(options.experiment);
    const rows = checkExperimentRows(experiment, checkBound(BOUNDS.rows, options.rows ?? experiment.rows, "rows"));
    if (options.snrDb !== undefined) checkBound(BOUNDS.snrDb, options.snrDb, "snrDb");
    const head: ExperimentSource = { seed, experiment: experiment.name, rows, snrDb: options.snrDb ?? null };
    if (options.givenForm)
      return {
        ...head,
        givenForm: true,
        ...checkFit({ ...FORM_FIT, ...experiment.fit, ...defined(options.fit) }, "fit."),
      };
    const fit = checkFit({ ...SEARCH_FIT, ...experiment.fit, ...defined(options.fit) }, "fit.");
    checkNoPool(options);
    const choice = searchChoice(options, registries);
    const settings = resolveSettings(options.method ?? "consolesr", {
      ...experiment.search,
      ...announced(options.search),
      fit,
    });
    const config: ExperimentSearchConfig = {
      ...head,
      symbols: isModelMethod(settings.method) ? [] : [...(options.symbols ?? experiment.symbols)],
      ...choice,
      ...settings,
    };
    pipelinePlugins(config, registries);
    return config;
  }
  if (!options.csv) throw new InputError("no data: name an experiment or give a CSV table");
  if (options.form === undefined) checkNoPool(options);
  const symbols = registries.symbols;
  const pool = options.symbols ?? (isModelMethod(options.method ?? "consolesr") ? [] : symbols.names());
  for (const name of pool) symbols.get(name);
  const targets = options.targets ?? (options.form !== undefined ? formTargets(options.form) : []);
  if (targets.length === 0) throw new InputError("targets: required (the column(s) to explain)", { field: "targets" });
  const { name, table } = options.csv;
  const train = datasetFromTable(typeof table === "function" ? table() : table, targets, options.inputs, name);
  const head: CsvSource = { seed, data: name, targets: train.targets, inputs: train.inputs, symbols: [...pool] };
  if (options.form !== undefined) {
    const config: CsvFormConfig = {
      ...head,
      form: options.form,
      ...checkFit({ ...FORM_FIT, ...defined(options.fit) }, "fit."),
    };
    formEquations(config, train, registries);
    return config;
  }
  if (options.symbols) {
    for (const symbol of pool) {
      train.inputs.forEach((input, i) => {
        checkColumnDomain(
          symbols.get(symbol),
          input,
          train.x[i]!,
          `drop ${symbol} from --symbols or the column from --inputs`,
        );
      });
    }
  }
  const fit = checkFit({ ...SEARCH_FIT, ...defined(options.fit) }, "fit.");
  const choice = searchChoice(options, registries);
  return {
    ...head,
    ...choice,
    ...resolveSettings(options.method ?? "consolesr", { ...announced(options.search), fit }),
  };
}

/**
 * The config a result was made with, from its manifest (for `reproduce`): checked for shape,
 * with the settings a search needs filled in from the method's defaults. Problems are
 * InputErrors prefixed with `file`. Plugin names are not looked up here (pipelinePlugins does).
 */
export function configFromManifest(
  result: Pick<ResultJson, "manifest"> & { search?: ResultJson["search"] },
  file = "result",
): PipelineConfig {
  const { manifest } = result;
  const config = manifest.config;
  const bad = (key: string, what: string) =>
    new InputError(`${file}: manifest.config.${key} must be ${what} (got ${JSON.stringify(config[key])})`);
  const string = (key: string): string => {
    if (typeof config[key] !== "string") throw bad(key, "a string");
    return config[key] as string;
  };
  const strings = (key: string): string[] => {
    const v = config[key];
    if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw bad(key, "an array of strings");
    return [...v] as string[];
  };
  const fit = (source: Record<string, unknown>, key: string): FitConfig =>
    checkFit(source, `${file}: manifest.config${key}.`);
  const settings = (): SearchSettings => {
    const method = config.method ?? "consolesr";
    if (!isMethod(method))
      throw new InputError(
        `${file}: manifest.config.method must be one of ${METHOD_NAMES.join(", ")} (got ${JSON.stringify(method)})`,
      );
    const model = isModelMethod(method);
    if (!model && !isObject(config.fit)) throw new InputError(`${file}: manifest.config.fit is missing`);
    const overrides = Object.fromEntries(
      SEARCH_KEYS.filter((key) => key in config).map((key) => [key, config[key]]),
    ) as Partial<SearchSettings>;
    // A model method records no fit, symbols, constraints or reward: it uses none.
    if (model) delete overrides.fit;
    else overrides.fit = fit(config.fit as Record<string, unknown>, ".fit");
    delete overrides.replay;
    // A result made before the noise floor existed ran without it.
    if (!("noiseFloor" in config)) overrides.noiseFloor = false;
    // One made before the additive constant existed fitted none.
    if (!model && !("constant" in config)) overrides.constant = false;
    const replay = replayOf(result.search, file);
    if (replay) overrides.replay = replay;
    try {
      return resolveSettings(method, overrides);
    } catch (error) {
      if (error instanceof InputError) throw new InputError(`${file}: manifest.config: ${error.message}`);
      throw error;
    }
  };
  const seed = checkBound(BOUNDS.seed, manifest.seed, `${file}: manifest.seed`);
  if (typeof config.experiment === "string") {
    const experiment = findExperiment(config.experiment, `${file}: `);
    const rows = checkExperimentRows(
      experiment,
      checkBound(BOUNDS.rows, config.rows, `${file}: manifest.config.rows`),
      `${file}: manifest.config.rows: `,
    );
    const snrDb =
      config.snrDb === null || config.snrDb === undefined
        ? null
        : checkBound(BOUNDS.snrDb, config.snrDb, `${file}: manifest.config.snrDb`);
    const head: ExperimentSource = { seed, experiment: experiment.name, rows, snrDb };
    if (config.givenForm === true) return { ...head, givenForm: true, ...fit(config, "") };
    const resolved = settings();
    if (isModelMethod(resolved.method)) return { ...head, symbols: [], ...modelChoice, ...resolved };
    const symbols = config.symbols === undefined ? [...experiment.symbols] : strings("symbols");
    return { ...head, symbols, constraints: strings("constraints"), reward: string("reward"), ...resolved };
  }
  if (typeof config.data === "string") {
    const model = typeof config.form !== "string" && isModelMethod(String(config.method));
    const head: CsvSource = {
      seed,
      data: config.data,
      targets: strings("targets"),
      inputs: strings("inputs"),
      symbols: model ? [] : strings("symbols"),
    };
    if (model) return { ...head, ...modelChoice, ...settings() };
    if (typeof config.form === "string") return { ...head, form: config.form, ...fit(config, "") };
    const resolved = settings();
    return { ...head, constraints: strings("constraints"), reward: string("reward"), ...resolved };
  }
  throw new InputError(`${file}: manifest.config names neither an experiment nor a data file; cannot re-run it`);
}

/**
 * A time-limited search's completed episodes per target (search.targets), for replaying it to
 * the same point: the limit stopped it by the clock, which a re-run cannot repeat.
 */
function replayOf(search: ResultJson["search"] | undefined, file: string): Record<string, number> | undefined {
  if (search?.stopReason !== "time-limit") return undefined;
  const targets = search.targets;
  const ok = (t: { target?: unknown; episodes?: unknown }) =>
    typeof t?.target === "string" && Number.isInteger(t.episodes) && (t.episodes as number) >= 0;
  if (!Array.isArray(targets) || !targets.every(ok))
    throw new InputError(
      `${file}: search.targets must list every target's episodes to replay a time-limited run ` +
        `(stopReason "time-limit")`,
    );
  return Object.fromEntries(targets.map((t) => [t.target, t.episodes]));
}

/** The constraint and reward names a model config carries (unused, unrecorded: the defaults). */
const modelChoice = { constraints: [...DEFAULT_CONSTRAINTS], reward: DEFAULT_REWARD };

/**
 * manifest.config of a config: its keys in the order the CLI has always written them
 * (`seed` goes to manifest.seed), whatever order the config object has.
 */
export function manifestConfig(config: PipelineConfig): Record<string, unknown> {
  if (isExperimentConfig(config)) {
    const head = { experiment: config.experiment, rows: config.rows, snrDb: config.snrDb };
    if (config.givenForm === true) return { ...head, givenForm: true, ...fitOf(config) };
    if (isModelConfig(config))
      return { ...head, ...settingsRecord(searchSettingsOf(config as ExperimentSearchConfig)) };
    return {
      ...head,
      symbols: config.symbols,
      constraints: config.constraints,
      reward: config.reward,
      ...settingsRecord(searchSettingsOf(config)),
    };
  }
  if (isModelConfig(config))
    return {
      data: config.data,
      targets: config.targets,
      inputs: config.inputs,
      ...settingsRecord(searchSettingsOf(config as CsvSearchConfig)),
    };
  const head = { data: config.data, targets: config.targets, inputs: config.inputs, symbols: config.symbols };
  if (isFormConfig(config)) return { ...head, form: config.form, ...fitOf(config) };
  return {
    ...head,
    constraints: config.constraints,
    reward: config.reward,
    ...settingsRecord(searchSettingsOf(config)),
  };
}

/**
 * The backend a manifest records: the tfjs backend for an experiment; for a CSV, "js" when every
 * fit ran on the float64 engine (the CLI's rule since 0.1.0). A model (the MLP) trains on tfjs: its backend.
 */
/** Whether running a config loads tfjs: a model method, a given form or search fitted on a tfjs engine. */
export function usesTfjs(config: PipelineConfig): boolean {
  if (isModelConfig(config)) return true;
  const engine = isFormConfig(config)
    ? (config as ExperimentFormConfig | CsvFormConfig).engine
    : searchSettingsOf(config as ExperimentSearchConfig | CsvSearchConfig).fit.engine;
  return engine !== "js";
}

export function recordedBackend(config: PipelineConfig, backend: string): string {
  if (isExperimentConfig(config) || isModelConfig(config)) return backend;
  const engine = isFormConfig(config) ? config.engine : searchSettingsOf(config).fit.engine;
  return engine === "js" ? "js" : backend;
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
    const { fitModels } = await import("../baselines/index.js");
    // A model method: no equation, a model per target; its evaluation scores the predictions.
    const settings = plugins.settings!;
    // EQL's units follow an experiment's symbol pool (a CSV run has none: every unit kind).
    const output = fitModels(data.train, data.test, settings, createRng(data.searchSeed), input.onModel, {
      symbols: registries.symbols,
      pool: experiment?.symbols,
    });
    models = output.models;
    equations = output.equations ?? [];
    simplified = output.simplified ?? [];
    block = { method: settings.method, episodes: 0, structures: 0, stopReason: "model-trained" };
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
    found = await search(data.train, {
      ...searchOptionsOf(plugins, data),
      signal: input.signal,
      onEpisode: input.onEpisode,
      argmin: input.argmin,
    });
    ({ equations, simplified } = found);
    block = searchBlock(found, plugins.settings!.method);
  }
  checkFinite(equations, found, isExperimentConfig(config) ? config.experiment : config.data);
  if (experiment && !models) {
    if (!data.test) throw new InputError(`${experiment.name}: the pipeline data has no test set to evaluate on`);
    evaluation = evaluateExperiment(experiment, simplified, { train: data.train, test: data.test }, registries.symbols);
  }
  const result: ResultJson = {
    version: 1,
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
