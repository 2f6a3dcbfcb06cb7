/**
 * Scoring learned equations against an experiment's truth: E_c, exact recovery and test NRMSE
 * on the extrapolation range. This is the only place the truth meets a result.
 */
import type { Dataset } from "./data/dataset.js";
import { columnOf } from "./data/dataset.js";
import type { Experiment } from "./data/experiments.js";
import { evaluateEquation } from "./equation/evaluate.js";
import { equationText } from "./equation/format.js";
import { simplifyEquation } from "./equation/simplify.js";
import type { Equation } from "./equation/types.js";
import { exactRecovery } from "./metrics/recovery.js";
import { nrmse } from "./metrics/nrmse.js";
import type { Registry, SymbolPlugin } from "./plugins.js";
import type { EvaluationResult } from "./result.js";

export function evaluateExperiment(
  experiment: Experiment,
  learned: readonly Equation[],
  data: { train: Dataset; test: Dataset },
  symbols: Registry<SymbolPlugin>,
): EvaluationResult[] {
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
