/**
 * A run's configuration, as the source of its data (a paper experiment or a CSV table) × its task
 * (a structure search or a given form's fit), and the defaults every run starts from.
 */
import type { Table } from "../data/index.js";
import type { FitOptions } from "../local/index.js";
import { isModelMethod, type SearchMethod, type SearchSettings } from "../search/index.js";

/** The LoCaL fit of a given form (top level of the config) or of every structure in a search (`fit`). */
export interface FitConfig {
  steps: number;
  learningRate: number;
  polish: NonNullable<FitOptions["polish"]>;
  engine: "tfjs" | "js";
}

export interface ExperimentSource {
  seed: number;
  experiment: string;
  rows: number;
  snrDb: number | null;
}

export interface CsvSource {
  seed: number;
  /** The CSV's name as the user gave it (a path for the CLI). */
  data: string;
  targets: string[];
  inputs: string[];
  /** The symbol pool (registry names). */
  symbols: string[];
}

export interface SearchChoice {
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

/** A search config whose method fits a model per target (the MLP baseline) instead of searching for equations. */
export const isModelConfig = (config: PipelineConfig): boolean =>
  !isFormConfig(config) && isModelMethod((config as { method: string }).method);
