/**
 * The one door to a run: prepareRun checks what a user asks for once and builds everything the
 * run needs (config, data, plugins, a given form's equations); runPrepared (pipeline.ts) consumes
 * it. The CLI's `fit` and `run`, sweeps, the runtime module, the site's loaders, the benches and
 * `fit()` go through these two, so no caller strings resolve → data → run together itself.
 */
import type { Table } from "../data/index.js";
import type { Equation } from "../equation/index.js";
import { isInputError } from "../core/index.js";
import type { Registries } from "../plugins/index.js";
import type { PipelineConfig, PipelineOptions } from "./config.js";
import { givenForms, pipelineData, pipelinePlugins, type PipelineData, type PipelinePlugins } from "./pipeline.js";
import { resolveRun, type ResolvedRun } from "./resolve.js";

/** A run, checked and built: what runPrepared needs and nothing it would build again. */
export interface PreparedRun {
  /** The resolved config: what manifest.config records. */
  config: PipelineConfig;
  data: PipelineData;
  registries: Registries;
  /** The plugins the config names, looked up, and a search's complete settings. */
  plugins: PipelinePlugins;
  /** A given form's equations, every weight 1 (an experiment's forms, or a CSV form parsed on its data). */
  forms?: Equation[];
}

/**
 * What prepareRun starts from: what a user asks for (checked, defaults filled in), or an already
 * resolved config (read back from a manifest), with its data when the caller drew them itself.
 */
export type RunRequest = PipelineOptions | { config: PipelineConfig; data?: PipelineData };

/** Where a run's plugins and, for a resolved CSV config, its table come from. */
export interface RunSource {
  registries: Registries;
  /** A resolved CSV config's table (options carry theirs in `csv`). */
  table?: Table;
  /** The name a resolved CSV config's data problems are reported with (default config.data). */
  file?: string;
  /**
   * What a problem found while checking the options becomes (a sweep names its job); a problem
   * of the drawn data is thrown as it is.
   */
  invalidOptions?: (error: Error) => Error;
}

/**
 * Checks a request once and builds its run: the options resolved (resolvePipelineConfig's checks,
 * in its order), the data (an experiment's draw, or the CSV train set the check built), the
 * plugins and a given form's equations. Every problem is one InputError.
 */
export function prepareRun(request: RunRequest, source: RunSource): PreparedRun {
  const { registries } = source;
  const resolved = "config" in request ? { config: request.config } : checkedOptions(request, source);
  const { config } = resolved;
  const data = ("config" in request ? request.data : undefined) ?? dataOf(resolved, source);
  const plugins = resolved.plugins ?? pipelinePlugins(config, registries);
  const forms = resolved.forms ?? givenForms(config, data.train, plugins);
  return { config, data, registries, plugins, ...(forms ? { forms } : {}) };
}

function checkedOptions(options: PipelineOptions, source: RunSource): ResolvedRun {
  try {
    return resolveRun(options, source.registries);
  } catch (error) {
    if (source.invalidOptions && isInputError(error)) throw source.invalidOptions(error);
    throw error;
  }
}

/** The data of a resolved run: for options naming a CSV, the train set their check built; else pipelineData's. */
function dataOf(resolved: ResolvedRun, source: RunSource): PipelineData {
  const { config, train, table } = resolved;
  if (!train || !table) return pipelineData(config, source);
  return { train, searchSeed: config.seed, source: { sha256: table.sha256, rows: table.rows } };
}
