/**
 * From what a user asks for (PipelineOptions) to a resolved configuration (PipelineConfig): every
 * default filled in and every name, bound and column checked, with one InputError naming the field.
 */
import { BOUNDS, checkBound, checkWith, fitSchema } from "../search/index.js";
import { datasetFromTable, type Dataset, type Table } from "../data/index.js";
import type { Equation } from "../equation/index.js";
import { experiments, type Experiment } from "../data/index.js";
import { benchmarkEntries, benchmarkExperiment } from "../data/index.js";
import { createSymbolRegistry } from "../plugins/index.js";
import { InputError } from "../core/index.js";
import { checkColumnDomain } from "./fitForm.js";
import type { Registries } from "../plugins/index.js";
import { isModelMethod, resolveSettings, settingKeys, type SearchSettings } from "../search/index.js";
import {
  type FitConfig,
  type ExperimentSource,
  type CsvSource,
  type SearchChoice,
  type ExperimentSearchConfig,
  type CsvFormConfig,
  type CsvSearchConfig,
  type PipelineConfig,
  type PipelineOptions,
  FORM_FIT,
  SEARCH_FIT,
  DEFAULT_CONSTRAINTS,
  DEFAULT_REWARD,
} from "./config.js";
import { pipelinePlugins, parseFormEquations, type PipelinePlugins } from "./pipeline.js";

/** Every search setting a config may carry (`replay` only where `reproduce` replays a time-limited run). */
export const SEARCH_KEYS = [...settingKeys(), "replay", "replayStop"] as (keyof SearchSettings)[];

export function checkFit(fit: Record<string, unknown>, where: string): FitConfig {
  const { steps, learningRate, polish, engine } = checkWith(fitSchema(), fit, where);
  return { steps, learningRate, polish, engine };
}

/** Drops undefined entries, so that `{episodes: undefined}` means "the default", not an override. */
export const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The search overrides, with the noise floor off where a stop NRMSE is given explicitly (the
 * caller announced how noisy the data are) and the floor is not asked for.
 */
export function announced(search: PipelineOptions["search"]): Partial<SearchSettings> {
  const given = defined(search);
  if (given.stopNrmse !== undefined && given.noiseFloor === undefined) given.noiseFloor = false;
  return given;
}

export const fitOf = (config: FitConfig): FitConfig => ({
  steps: config.steps,
  learningRate: config.learningRate,
  polish: config.polish,
  engine: config.engine,
});

/**
 * A model method takes no --symbols: the MLP uses no symbols, and EQL, DSR and VPG draw theirs
 * from the experiment's pool (a CSV: every registered symbol). A pool given for one is an error
 * rather than quietly ignored.
 */
export function checkNoPool(options: PipelineOptions): void {
  const method = options.method ?? "consolesr";
  if (options.symbols && isModelMethod(method))
    throw new InputError(
      method === "mlp"
        ? `\`symbols\` chooses a search's pool; \`method\` mlp fits a network with no symbols`
        : `\`symbols\` is not taken by \`method\` ${method}: it uses the experiment's pool ` +
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
export const formTargets = (form: string) =>
  form
    .split(/[;\n]/)
    .map((s) => s.split("=")[0]!.trim())
    .filter(Boolean);

export const benchmarkExperiments = new Map<string, Experiment>();

/** Experiments a caller registered (a grid's power flow, `run powerflow --grid`), by name. */
const registeredExperiments = new Map<string, Experiment>();

/**
 * Makes an experiment of one's own (e.g. powerFlowExperiment(grid)) runnable by name, like the
 * paper's: `prepareRun({ experiment: experiment.name, … })`, and `reproduce` of its results in the
 * same process. A later registration under the same name replaces the earlier one; the paper's
 * experiments and the benchmark's ids cannot be replaced (an InputError). Returns the experiment.
 */
export function registerExperiment(experiment: Experiment): Experiment {
  const { name } = experiment;
  if (Object.hasOwn(experiments, name) || benchmarkEntries.some((e) => e.id === name))
    throw new InputError(`experiment "${name}" is built in; give yours another name`);
  registeredExperiments.set(name, experiment);
  return experiment;
}

/**
 * A paper experiment by name, a registered one (registerExperiment), or an entry of the search
 * benchmark by id ("nguyen-1", built once with the built-in symbols); undefined when none.
 */
export function lookupExperiment(name: string): Experiment | undefined {
  if (Object.hasOwn(experiments, name)) return experiments[name];
  let experiment = registeredExperiments.get(name) ?? benchmarkExperiments.get(name);
  if (experiment) return experiment;
  const entry = benchmarkEntries.find((e) => e.id === name);
  if (!entry) return undefined;
  experiment = benchmarkExperiment(entry, createSymbolRegistry());
  benchmarkExperiments.set(name, experiment);
  return experiment;
}

export function findExperiment(name: string, prefix = ""): Experiment {
  const experiment = lookupExperiment(name);
  if (!experiment && name.startsWith("powerflow:"))
    throw new InputError(
      `${prefix}experiment "${name}" is the power flow of a grid file: give the grid ` +
        `(the CLI: run/reproduce --grid <file>; the library: registerExperiment(powerFlowExperiment(parseGrid(…))))`,
    );
  if (!experiment)
    throw new InputError(
      `${prefix}unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")}, ` +
        `or a search-benchmark id such as nguyen-1)`,
    );
  return experiment;
}

/** An experiment's own cap on training rows (pow: one year), after the general bound. */
export function checkExperimentRows(experiment: Experiment, rows: number, prefix = ""): number {
  if (experiment.maxRows !== undefined && rows > experiment.maxRows) {
    throw new InputError(
      prefix +
        (experiment.rowsMessage?.(rows) ??
          `${experiment.name}: \`rows\` ${rows} is more than its ${experiment.maxRows}; ` +
            `give \`rows\` ${experiment.maxRows} or fewer`),
    );
  }
  return rows;
}

/** Constraint and reward names of a search, defaulted and looked up. */
export function searchChoice(options: PipelineOptions, registries: Registries): Omit<SearchChoice, "symbols"> {
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
 * order the CLI always reported them. A thin wrapper over the check prepareRun makes (prepare.ts),
 * which keeps what the check built; this returns the config alone.
 */
export function resolvePipelineConfig(options: PipelineOptions, registries: Registries): PipelineConfig {
  return resolveRun(options, registries).config;
}

/**
 * A config, checked, with what checking it built: for a CSV its table and train set (with the
 * pool's plugins and, for a form, its parsed equations), for an experiment's search its plugins.
 * prepareRun uses them rather than building them again.
 */
export interface ResolvedRun {
  config: PipelineConfig;
  table?: Table;
  train?: Dataset;
  plugins?: PipelinePlugins;
  forms?: Equation[];
}

/** resolvePipelineConfig's checks, in its order, keeping what they built (ResolvedRun). */
export function resolveRun(options: PipelineOptions, registries: Registries): ResolvedRun {
  const seed = checkBound(BOUNDS.seed, options.seed ?? 0, "seed");
  if (options.experiment !== undefined) {
    const experiment = findExperiment(options.experiment);
    const rows = checkExperimentRows(experiment, checkBound(BOUNDS.rows, options.rows ?? experiment.rows, "rows"));
    if (options.snrDb !== undefined) checkBound(BOUNDS.snrDb, options.snrDb, "snrDb");
    const head: ExperimentSource = { seed, experiment: experiment.name, rows, snrDb: options.snrDb ?? null };
    if (options.givenForm)
      return {
        config: {
          ...head,
          givenForm: true,
          ...checkFit({ ...FORM_FIT, ...experiment.fit, ...defined(options.fit) }, "fit."),
        },
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
    return { config, plugins: pipelinePlugins(config, registries) };
  }
  if (!options.csv) throw new InputError("no data: name an experiment or give a CSV table");
  if (options.form === undefined) checkNoPool(options);
  const symbols = registries.symbols;
  const pool = options.symbols ?? (isModelMethod(options.method ?? "consolesr") ? [] : symbols.names());
  for (const name of pool) symbols.get(name);
  const targets = options.targets ?? (options.form !== undefined ? formTargets(options.form) : []);
  if (targets.length === 0) throw new InputError("targets: required (the column(s) to explain)", { field: "targets" });
  const { name, table } = options.csv;
  const read = typeof table === "function" ? table() : table;
  const train = datasetFromTable(read, targets, options.inputs, name);
  // The config's own column lists: the train set the run uses is this one, and keeps its own.
  const head: CsvSource = {
    seed,
    data: name,
    targets: [...train.targets],
    inputs: [...train.inputs],
    symbols: [...pool],
  };
  if (options.form !== undefined) {
    const config: CsvFormConfig = {
      ...head,
      form: options.form,
      ...checkFit({ ...FORM_FIT, ...defined(options.fit) }, "fit."),
    };
    const plugins = pipelinePlugins(config, registries);
    return {
      config,
      table: read,
      train,
      plugins,
      forms: parseFormEquations(config, train, plugins.symbols, plugins.others),
    };
  }
  if (options.symbols) {
    for (const symbol of pool) {
      train.inputs.forEach((input, i) => {
        checkColumnDomain(
          symbols.get(symbol),
          input,
          train.x[i]!,
          `drop ${symbol} from \`symbols\` or the column from \`inputs\``,
        );
      });
    }
  }
  const fit = checkFit({ ...SEARCH_FIT, ...defined(options.fit) }, "fit.");
  const choice = searchChoice(options, registries);
  const config: CsvSearchConfig = {
    ...head,
    ...choice,
    ...resolveSettings(options.method ?? "consolesr", { ...announced(options.search), fit }),
  };
  return { config, table: read, train };
}
