/**
 * DSR and VPG as the pipeline's model path (baselines/index.ts): per target, the search of
 * dsr.ts, its best expression with the negligible addends dropped (dsrPrune.ts), that expression
 * expanded into the project's sum of products where it can be (dsrExpand.ts) and simplified like
 * a search's answer, and the model's record: train and test NRMSE of the expression, the
 * fingerprint of its predictions, and what a comparison needs (samples, iterations, the best
 * reward of each batch).
 */
import type { Dataset } from "../data/index.js";
import { columnOf } from "../data/index.js";
import { evaluateEquation } from "../equation/index.js";
import { simplifyEquation } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import { InputError, runSteps, type Steps } from "../core/index.js";
import { nrmse, std } from "../numeric/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";
import { equationResult, type EquationResult, type ModelResult } from "../result/index.js";
import type { Rng } from "../core/index.js";
import { trainDsrSteps, type DsrSettings, type DsrVariant } from "./dsr.js";
import type { TrainingPace } from "./pace.js";
import { expandExpression } from "./dsrExpand.js";
import { evaluateExpression, expressionLatex, expressionText } from "./dsrExpression.js";
import { tokenLibrary, tokenNames } from "./dsrLibrary.js";
import { observationWidth, policyParameters } from "./dsrPolicy.js";
import { pruneExpression } from "./dsrPrune.js";

export interface DsrTarget {
  model: Omit<ModelResult, "predictions">;
  predicted: Float64Array;
  /** The simplified equation, where the expression expanded. */
  equation?: { result: EquationResult; simplified: Equation };
}

/**
 * DSR or VPG (`variant`) on one target of `train`; the test set, where given, scores the
 * answer. `pool` names the unary symbols of its library (all of the registry's when absent).
 */
export function fitDsrTarget(
  train: Dataset,
  test: Dataset | undefined,
  target: string,
  settings: DsrSettings,
  variant: DsrVariant,
  rng: Rng,
  symbols: Registry<SymbolPlugin>,
  pool?: readonly string[],
): DsrTarget {
  return runSteps(fitDsrTargetSteps(train, test, target, settings, variant, rng, { symbols, pool }));
}

/** fitDsrTarget in steps, its sampling paced by `options.pace` (pace.ts). */
export function* fitDsrTargetSteps(
  train: Dataset,
  test: Dataset | undefined,
  target: string,
  settings: DsrSettings,
  variant: DsrVariant,
  rng: Rng,
  context: { symbols: Registry<SymbolPlugin>; pool?: readonly string[] },
  options: { pace?: TrainingPace } = {},
): Steps<DsrTarget> {
  const { symbols, pool } = context;
  const lookup = (name: string) => symbols.get(name);
  const unary = (pool && pool.length > 0 ? pool : symbols.names()).map(lookup);
  const library = tokenLibrary(train.inputs, unary);
  const y = columnOf(train, target);
  const found = yield* trainDsrSteps(train, target, library, settings, variant, rng, options.pace);
  if (!Number.isFinite(found.best.nrmse))
    throw new InputError(
      `no ${variant} expression with a finite train NRMSE was found for target "${target}" in ${found.samples} ` +
        `samples: scale the columns to magnitudes near 1, or raise \`budget\``,
    );
  const answer = pruneExpression(library, found.best.tokens, found.best.constants, train.x, y, train.rows, std(y));
  const text = expressionText(library, answer.tokens, answer.constants);
  const latex = expressionLatex(library, answer.tokens, answer.constants);
  const expansion = expandExpression(library, answer.tokens, answer.constants, symbols.names().map(lookup));
  let equation: DsrTarget["equation"];
  if (expansion.terms) {
    const simplified = simplifyEquation(
      { target, terms: expansion.terms },
      {
        symbols: lookup,
        inputOrder: train.inputs,
        symbolOrder: symbols.names(),
        columns: (name) => columnOf(train, name),
        rows: train.rows,
      },
    );
    const predicted = evaluateEquation(simplified, lookup, (name) => columnOf(train, name), train.rows);
    equation = {
      simplified,
      result: equationResult(simplified, lookup, nrmse(y, predicted)),
    };
  }
  const on = test ?? train;
  const predicted = evaluateExpression(
    library,
    answer.tokens,
    answer.constants,
    train.inputs.map((name) => columnOf(on, name)),
    on.rows,
  );
  const units = settings.hidden[0]!;
  const tokens = library.tokens.length;
  return {
    predicted,
    ...(equation ? { equation } : {}),
    model: {
      target,
      model: variant,
      inputs: [...train.inputs],
      layers: [observationWidth(tokens), units, tokens],
      activation: "lstm",
      parameters: policyParameters(units, tokens),
      training: {
        rows: train.rows,
        tokens: tokenNames(library),
        iterations: found.iterations,
        samples: found.samples,
        distinct: found.distinct,
        bestAt: found.bestAt,
        batchBest: found.batchBest,
        reward: found.best.reward,
        stopReason: found.stopReason,
      },
      trainNrmse: answer.nrmse,
      ...(test ? { testNrmse: nrmse(columnOf(test, target), predicted) } : {}),
      expression: {
        text,
        latex,
        expanded: expansion.terms !== undefined,
        ...(expansion.reason ? { reason: expansion.reason } : {}),
      },
    },
  };
}
