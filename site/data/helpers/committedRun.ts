// What the Pow and Mas loaders share (not a data loader itself: no page asks for it): reading a
// committed `run <experiment>` result, regenerating its data from the manifest, and recomputing
// its evaluation with the library's public entry, checked against the file's own block.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  configFromManifest,
  createRegistries,
  equationLatex,
  evaluateExperiment,
  experiments,
  isInputError,
  parseResult,
  resultEquation,
  pipelineData,
} from "../../../src/lib/index.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** A number rounded for the page (null when not finite). */
export const round = (v: number, digits = 6): number | null =>
  Number.isFinite(v) ? Number(v.toPrecision(digits)) : null;

/**
 * The committed result `file` (from the repository root) of the experiment `name`: the result and
 * the file's text, its data regenerated from the manifest, the learned equations, the evaluation recomputed on
 * that data, whether it equals the file's evaluation (it should: the data are the run's), and the
 * truth in LaTeX per target.
 */
export function committedRun(name: string, file: string) {
  const registries = createRegistries();
  const lookup = (symbol: string) => registries.symbols.get(symbol);
  const experiment = experiments[name]!;
  let result: ReturnType<typeof parseResult>;
  const text = readFileSync(resolve(repoRoot, file), "utf8");
  try {
    result = parseResult(text, file);
  } catch (error) {
    throw isInputError(error) ? new Error(error.message) : error;
  }
  const config = configFromManifest(result, file);
  if (!("experiment" in config) || config.experiment !== name) throw new Error(`${file}: not a ${name} run`);
  const data = pipelineData(config, { registries });
  if (!data.test) throw new Error(`${file}: the regenerated data has no test set`);
  const learned = result.equations.map(resultEquation);
  const sets = { train: data.train, test: data.test };
  const evaluation = evaluateExperiment(experiment, learned, sets, registries.symbols);
  const recorded = result.evaluation ?? [];
  const evaluationReproduced = evaluation.every((e) => {
    const r = recorded.find((q) => q.target === e.target);
    return (
      r !== undefined && r.exact === e.exact && r.coefficientError === e.coefficientError && r.testNrmse === e.testNrmse
    );
  });
  const truthLatex = Object.fromEntries(experiment.truth.map((e) => [e.target, equationLatex(e, lookup)]));
  return { result, text, data, learned, evaluation, evaluationReproduced, truthLatex };
}
