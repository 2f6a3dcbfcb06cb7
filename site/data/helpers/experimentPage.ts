// What the experiment pages' data loaders (syn1.json.ts, syn2.json.ts) share: the git sha, the
// truth in LaTeX, and the one JSON shape that src/report/experimentCharts.ts and the pages
// read. Not a data loader itself (no page asks for `experimentPage`), only a module the loaders import.
// Note: Framework re-runs a loader only when the loader file is newer than its cache, so a change
// here does not refresh syn1.json or syn2.json until `site/.observablehq/cache` is deleted.
import {
  columnOf,
  equationLatex,
  simplifyEquation,
  type EvaluationResult,
  type Experiment,
  type PipelineData,
  type Registry,
  type ResultJson,
  type SymbolPlugin,
} from "../../../src/lib/index.js";

/** A number rounded to `digits` significant digits for the page (null when not finite). */
export const round = (v: number, digits = 6): number | null =>
  Number.isFinite(v) ? Number(v.toPrecision(digits)) : null;

/** The options simplifyEquation takes on an experiment's training data (as evaluateExperiment builds them). */
export function simplifyOptionsOf(data: Pick<PipelineData, "train">, symbols: Registry<SymbolPlugin>) {
  return {
    symbols: (name: string) => symbols.get(name),
    inputOrder: data.train.inputs,
    symbolOrder: symbols.names(),
    columns: (name: string) => columnOf(data.train, name),
    rows: data.train.rows,
  };
}

/** The truth of each output in LaTeX, simplified the way evaluateExperiment simplifies it. */
export function truthLatexOf(
  experiment: Experiment,
  data: Pick<PipelineData, "train">,
  symbols: Registry<SymbolPlugin>,
): Record<string, string> {
  const options = simplifyOptionsOf(data, symbols);
  return Object.fromEntries(
    experiment.truth.map((t) => [t.target, equationLatex(simplifyEquation(t, options), options.symbols)]),
  );
}

/** Per output, what the pages show beside the equations; `rewards` only where the loader ran the search itself. */
export interface PageOutput {
  target: string;
  episodes: number;
  structures: number;
  stopReason: string;
  actions?: unknown;
  fitSeconds?: number | null;
  rewards?: (number | null)[];
}

export interface ExperimentPageInput {
  experiment: Experiment;
  /** The version-1 result (from runPipeline, or read from a committed file). */
  result: ResultJson;
  /** The evaluation against the truth the page shows (runPipeline's, or recomputed by evaluateExperiment). */
  evaluation: readonly EvaluationResult[];
  truthLatex: Record<string, string>;
  /** Wall-clock milliseconds of the search. */
  searchMs: number;
  /** Wall-clock milliseconds of the whole loader. */
  totalMs: number;
  outputs: PageOutput[];
}

/**
 * The JSON an experiment page reads: manifest (with rows and the times), the experiment's
 * ranges, the equations, the evaluation with the truth's LaTeX, the search totals, the outputs
 * and the Pareto front. Keys in this order (syn1.json's bytes depend on it).
 */
export function experimentPageJson(input: ExperimentPageInput) {
  const { experiment, result } = input;
  return {
    manifest: {
      seed: result.manifest.seed,
      experiment: experiment.name,
      rows: result.manifest.config.rows as number,
      config: result.manifest.config,
      version: result.manifest.version,
      git: result.manifest.git,
      backend: result.manifest.backend,
      searchMs: Math.round(input.searchMs),
      totalMs: Math.round(input.totalMs),
    },
    description: experiment.description,
    trainRange: experiment.trainRange,
    testRange: experiment.testRange,
    equations: result.equations.map((e) => ({
      target: e.target,
      text: e.text,
      latex: e.latex,
      trainNrmse: e.trainNrmse,
    })),
    evaluation: input.evaluation.map((e) => ({ ...e, truthLatex: input.truthLatex[e.target] })),
    search: {
      episodes: result.search.episodes,
      structures: result.search.structures,
      stopReason: result.search.stopReason,
    },
    outputs: input.outputs,
    front: result.search.front,
  };
}
