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
import { exactRecovery, type RecoveryCheck } from "../metrics/index.js";
import { leastSquares, nrmse } from "../numeric/index.js";
import { sameLaw } from "../data/index.js";
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
    const check = recoveryOf(truth, found, lookup, data);
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

/**
 * Exact recovery and E_c, where the answer is written with other terms than the truth's but is the
 * same law on the rows (an exact identity of the data, u² + v² = 1 at a voltage-controlled bus,
 * gives one law several writings; the search states it in `identities`): the answer rewritten in the
 * truth's terms is compared instead (docs/design.md#same-law).
 */
function recoveryOf(
  truth: Equation,
  found: Equation,
  lookup: (name: string) => SymbolPlugin,
  data: { train: Dataset; test: Dataset },
): RecoveryCheck {
  const check = exactRecovery(truth, found, lookup);
  if (check.exact) return check;
  const rewritten = inTruthTerms(truth, found, lookup, data);
  if (!rewritten) return check;
  const again = exactRecovery(truth, rewritten, lookup);
  return {
    ...again,
    reason: again.exact
      ? "the truth's law written with other terms: the same on every row under an exact identity of the data"
      : again.reason,
  };
}

/**
 * The answer in the truth's terms (each truth term's coefficient by least squares on the answer's
 * values on the training rows), where that is the same law as the answer on the training and the
 * test rows (sameLaw); undefined otherwise, and for an outer function, a ratio or a monomial argument.
 */
function inTruthTerms(
  truth: Equation,
  found: Equation,
  lookup: (name: string) => SymbolPlugin,
  data: { train: Dataset; test: Dataset },
): Equation | undefined {
  const plain = (e: Equation) =>
    e.outer === undefined && e.denominator === undefined && e.terms.every((t) => t.factors.every((f) => !f.monomial));
  if (!plain(truth) || !plain(found) || found.terms.length === 0 || truth.terms.length === 0) return undefined;
  const on = (set: Dataset, equation: Equation) =>
    evaluateEquation(equation, lookup, (name) => columnOf(set, name), set.rows);
  const values = on(data.train, found);
  const columns = truth.terms.map((term) =>
    on(data.train, { target: truth.target, terms: [{ ...term, coefficient: 1 }] }),
  );
  if (!values.every(Number.isFinite) || !columns.every((c) => c.every(Number.isFinite))) return undefined;
  const solved = leastSquares(columns, values, { dependent: 1e-12 });
  if (!solved) return undefined;
  const rewritten = { ...truth, terms: truth.terms.map((term, k) => ({ ...term, coefficient: solved[k]! })) };
  const same = [data.train, data.test].every((set) => sameLaw(on(set, rewritten), on(set, found)).same);
  return same ? rewritten : undefined;
}
