/**
 * The playground's controls as a run's request (PlaygroundConfig) and as the pipeline's options,
 * and a result as the page downloads it: plain data and pure functions, shared by the page
 * (playground.ts) and the search worker (searchWorker.ts), which receives the config and resolves
 * it there with the run's plugins.
 */
import {
  createRegistries,
  experiments,
  InputError,
  runtimeFacts,
  type PipelineOptions,
  type ResultJson,
  type Registries,
  type SearchMethod,
  type Table,
} from "../lib/index.js";

/** The stop control's default: 1e-6, or the noise floor where the data are noisier (as the CLI's default). */
export const NOISE_FLOOR_STOP = 1e-6;

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

/** The paper experiments the page offers. */
export const experimentNames = Object.keys(experiments);

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
