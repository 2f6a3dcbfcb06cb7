/**
 * A configuration as a result file records it (manifest.config) and read back from one, so that
 * `reproduce` re-runs exactly what was run.
 */
import { BOUNDS, checkBound } from "../search/index.js";
import { InputError } from "../core/index.js";
import type { ResultJson } from "../result/index.js";
import {
  isMethod,
  isModelMethod,
  METHOD_NAMES,
  resolveSettings,
  settingsAbsentFrom,
  settingsRecord,
  type SearchSettings,
} from "../search/index.js";
import { isObject } from "../result/index.js";
import {
  type FitConfig,
  type ExperimentSource,
  type CsvSource,
  type ExperimentFormConfig,
  type ExperimentSearchConfig,
  type CsvFormConfig,
  type CsvSearchConfig,
  type PipelineConfig,
  isExperimentConfig,
  isFormConfig,
  DEFAULT_CONSTRAINTS,
  DEFAULT_REWARD,
  isModelConfig,
} from "./config.js";
import { SEARCH_KEYS, checkFit, fitOf, searchSettingsOf, findExperiment, checkExperimentRows } from "./resolve.js";

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
    // A model's training stopped from outside (a page's Stop, Ctrl-C) stopped mid-epoch: no replay
    // reaches that point, and a re-run to its end is another result.
    const stop = result.search?.stopReason;
    if (model && (stop === "aborted" || stop === "time-limit"))
      throw new InputError(
        `${file}: a run of ${method} stopped ${stop === "aborted" ? "from outside" : "by the clock"} mid-training ` +
          `cannot be re-run to the same point: it is not reproducible (re-run it to its end to get one that is)`,
      );
    // A model method records no fit, symbols, constraints or reward: it uses none.
    if (model) delete overrides.fit;
    else overrides.fit = fit(config.fit as Record<string, unknown>, ".fit");
    delete overrides.replay;
    delete overrides.replayStop;
    // A result made before a setting existed ran with the table's `manifest.absent` (no noise
    // floor, outer functions, ratios, monomial arguments or additive constant).
    Object.assign(overrides, settingsAbsentFrom(method, config));
    Object.assign(overrides, replayOf(result.search, file));
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
 * How a re-run replays a search, whatever the speed of the machine. A search stopped by the clock
 * or from outside (stopReason "time-limit" or "aborted": Ctrl-C, SIGTERM, a page's Stop) is
 * replayed to its completed episodes per target (search.targets) and states the same reason; one
 * that ended by itself is re-run without the clock (under the original's limit a slower machine cut
 * it short: "noise-floor" at 3.8 s of a 5 s limit became "time-limit"), and ends where it did.
 * Undefined where the result holds no search block (a given form, a model's training).
 */
export function replayOf(
  search: ResultJson["search"] | undefined,
  file: string,
): Pick<SearchSettings, "replay" | "replayStop"> | undefined {
  if (search === undefined) return undefined;
  const stop = search.stopReason;
  if (stop !== "time-limit" && stop !== "aborted") return { replay: {} };
  const targets = search.targets;
  const ok = (t: { target?: unknown; episodes?: unknown }) =>
    typeof t?.target === "string" && Number.isInteger(t.episodes) && (t.episodes as number) >= 0;
  if (!Array.isArray(targets) || !targets.every(ok))
    throw new InputError(
      `${file}: search.targets must list every target's episodes to replay a stopped run (stopReason "${stop}")`,
    );
  return { replay: Object.fromEntries(targets.map((t) => [t.target, t.episodes])), replayStop: stop };
}

/** The constraint and reward names a model config carries (unused, unrecorded: the defaults). */
export const modelChoice = { constraints: [...DEFAULT_CONSTRAINTS], reward: DEFAULT_REWARD };

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
