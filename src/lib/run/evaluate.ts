/**
 * Scoring learned equations against an experiment's truth: E_c, exact recovery and test NRMSE
 * on the extrapolation range. This is the only place the truth meets a result.
 */
import type { Dataset } from "../data/index.js";
import { columnOf } from "../data/index.js";
import type { Experiment } from "../data/index.js";
import { evaluateEquation } from "../equation/index.js";
import { equationText } from "../equation/index.js";
import { simplifyEquation } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import { exactRecovery } from "../metrics/index.js";
import { nrmse } from "../numeric/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";
import type { EvaluationResult } from "../result/index.js";

/** The truth of an experiment, simplified against its training data (what E_c and exact compare with). */
function truths(experiment: Experiment, data: { train: Dataset }, symbols: Registry<SymbolPlugin>): Equation[] {
  const options = {
    symbols: (name: string) => symbols.get(name),
    inputOrder: data.train.inputs,
    symbolOrder: symbols.names(),
    columns: (name: string) => columnOf(data.train, name),
    rows: data.train.rows,
  };
  return experiment.truth.map((raw) => simplifyEquation(raw, options));
}

/**
 * The evaluation of a model method: the test NRMSE of its predictions on the extrapolation
 * range; E_c and exact recovery do not apply (coefficientError null, exact false, the reason
 * says why). A method that writes equations (EQL) passes them as `equations`: a target that has
 * one is scored like a search's answer (E_c, exact, the equation's test NRMSE); a target without
 * one (its expression did not expand into products of factors) as a model.
 */
export function evaluateModels(
  experiment: Experiment,
  method: string,
  predictions: ReadonlyMap<string, Float64Array>,
  data: { train: Dataset; test: Dataset },
  symbols: Registry<SymbolPlugin>,
  equations?: readonly Equation[],
): EvaluationResult[] {
  const scored = equations ? evaluateExperiment(experiment, equations, data, symbols) : [];
  // A run stopped from outside has no model for the outputs after the stopped one: nothing to score.
  return truths(experiment, data, symbols)
    .filter((truth) => predictions.has(truth.target))
    .map((truth) => {
      const equation = scored.find((e) => e.target === truth.target);
      if (equation && equations!.some((e) => e.target === truth.target)) return equation;
      return {
        target: truth.target,
        truth: equationText(truth, (name) => symbols.get(name)),
        exact: false,
        coefficientError: null,
        testNrmse: nrmse(columnOf(data.test, truth.target), predictions.get(truth.target)!),
        reason: equations
          ? `E_c not applicable: the ${method} expression does not expand into products of factors`
          : `no equation (${method})`,
      };
    });
}

export function evaluateExperiment(
  experiment: Experiment,
  learned: readonly Equation[],
  data: { train: Dataset; test: Dataset },
  symbols: Registry<SymbolPlugin>,
): (EvaluationResult & { coefficientError: number })[] {
  const lookup = (name: string) => symbols.get(name);
  const options = {
    symbols: lookup,
    inputOrder: data.train.inputs,
    symbolOrder: symbols.names(),
    columns: (name: string) => columnOf(data.train, name),
    rows: data.train.rows,
  };
  return experiment.truth.map((raw) => {
    const truth = simplifyEquation(raw, options);
    const found = learned.find((e) => e.target === raw.target) ?? { target: raw.target, terms: [] };
    const check = exactRecovery(truth, found, lookup);
    const predicted = evaluateEquation(found, lookup, (name) => columnOf(data.test, name), data.test.rows);
    return {
      target: raw.target,
      truth: equationText(truth, lookup),
      exact: check.exact,
      coefficientError: check.coefficientError,
      testNrmse: nrmse(columnOf(data.test, raw.target), predicted),
      reason: check.reason,
    };
  });
}
