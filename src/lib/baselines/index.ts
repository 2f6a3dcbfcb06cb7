/**
 * The pipeline's model path: the method table's rows of kind "model" (the MLP, EQL, DSR and
 * VPG baselines) fit a model per target instead of searching for equations. Their answer is the
 * result's `models` block, and for EQL, DSR and VPG the equations their expressions expand into;
 * an experiment's evaluation scores the models' predictions (or those equations) on its test set.
 */
import type { Dataset } from "../data/index.js";
import { columnOf } from "../data/index.js";
import { InputError } from "../core/index.js";
import { nrmse } from "../numeric/index.js";
import { evaluateEquation } from "../equation/index.js";
import { simplifyEquation } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";
import { equationResult, type EquationResult, type ModelResult } from "../result/index.js";
import { runSteps, type Rng, type Steps } from "../core/index.js";
import type { ModelMethod, SearchSettings } from "../search/index.js";
import { eqlWidths, predictEql, trainEqlSteps } from "./eql.js";
import { extractEql } from "./eqlExtract.js";
import { fitDsrTargetSteps } from "./dsrModel.js";
import { parameterCount, predictMlp, trainMlpSteps } from "./mlp.js";
import type { TrainingPace, TrainingStep } from "./pace.js";

export {
  eqlKinds,
  predictEql,
  trainEql,
  trainEqlSteps,
  type EqlModel,
  type EqlSettings,
  type EqlTraining,
} from "./eql.js";
export { extractEql, type EqlExtraction } from "./eqlExtract.js";
export { trainDsr, trainDsrSteps, upperQuantile, type DsrSettings, type DsrTraining, type DsrVariant } from "./dsr.js";
export { expandExpression, type DsrExpansion } from "./dsrExpand.js";
export { evaluateExpression, expressionLatex, expressionText, fitExpression } from "./dsrExpression.js";
export { tokenLibrary, type Token, type TokenLibrary } from "./dsrLibrary.js";
export { PrefixState, type LengthLimits } from "./dsrPrior.js";
export { fitDsrTarget, fitDsrTargetSteps } from "./dsrModel.js";
export { UNPACED, type TrainingPace, type TrainingStep } from "./pace.js";
export {
  GRID_SIZE as STLSQ_GRID_SIZE,
  lambdaGrid,
  predictStlsq,
  stlsq,
  type StlsqFit,
  type StlsqOptions,
} from "./stlsq.js";

export {
  parameterCount,
  predictMlp,
  trainMlp,
  trainMlpSteps,
  type MlpModel,
  type MlpSettings,
  type MlpTraining,
} from "./mlp.js";

/** Predictions kept in a fingerprint's head. */
const HEAD = 5;

function fingerprint(set: "test" | "train", predicted: Float64Array): ModelResult["predictions"] {
  let sum = 0;
  let squares = 0;
  for (const p of predicted) {
    sum += p;
    squares += p * p;
  }
  const rows = predicted.length;
  return { set, rows, mean: sum / rows, rms: Math.sqrt(squares / rows), head: Array.from(predicted.slice(0, HEAD)) };
}

/**
 * A model's predictions where its result reports them: on the test set (recorded in
 * `testPredictions`, with the test NRMSE) when there is one, else on the training set.
 */
function scoreModel(
  predict: (columns: ArrayLike<number>[], rows: number) => Float64Array,
  inputs: readonly string[],
  where: { train: Dataset; test: Dataset | undefined; target: string; testPredictions?: Map<string, Float64Array> },
): { predicted: Float64Array; testNrmse?: number } {
  const { train, test, target } = where;
  if (!test) return { predicted: predict(train.x, train.rows) };
  const predicted = predict(
    inputs.map((name) => columnOf(test, name)),
    test.rows,
  );
  where.testPredictions?.set(target, predicted);
  return { predicted, testNrmse: nrmse(columnOf(test, target), predicted) };
}

export interface ModelsOutput {
  models: ModelResult[];
  /** Each target's predictions on the test set (an experiment's), for its evaluation. */
  testPredictions?: Map<string, Float64Array>;
  /** EQL: the equations of the targets whose expression expanded, as reported and simplified. */
  equations?: EquationResult[];
  simplified?: Equation[];
  /** Whether a stop from outside ended training early (a model kept its best so far; later outputs have none). */
  stopped?: boolean;
}

/**
 * What EQL, DSR and VPG need besides the data: the symbols they write their equations with, and
 * the pool their units (EQL) or unary tokens (DSR, VPG) follow.
 */
export interface ModelContext {
  symbols: Registry<SymbolPlugin>;
  /**
   * An experiment's symbol pool: EQL's sin and cos units only where it has them, DSR's unary
   * tokens its symbols (all when absent).
   */
  pool?: readonly string[];
}

/** What a model method's fit is told besides the data: where to report, when to stop. */
export interface ModelFitOptions {
  /** After each output's model is trained. */
  onModel?: (model: ModelResult) => void;
  /** After each epoch (MLP, EQL) or batch of samples (DSR, VPG). */
  onStep?: (step: TrainingStep) => void;
  /**
   * Asked before each epoch or batch: true ends the training there, keeping its best so far, and
   * trains no later output (the first epoch or batch of the first output is always trained).
   */
  stopped?: () => boolean;
  context?: ModelContext;
}

/** One model method's fit in steps: every target of `train`, scored on it and, where given, on `test`. */
type ModelFit = (
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  options: ModelFitOptions,
) => Steps<ModelsOutput>;

/** The pace of output `index`: the options' stop and step report, with the output named. */
function paceOf(train: Dataset, index: number, options: ModelFitOptions): TrainingPace {
  const target = train.targets[index]!;
  return {
    stopped: () => options.stopped?.() ?? false,
    onStep: (step) => options.onStep?.({ target, targetIndex: index, targets: train.targets.length, ...step }),
  };
}

/**
 * Each output's model in turn: `fitOne` trains and scores one on its pace (its training record's
 * stopReason says whether a stop ended it), `onModel` hears it; a stop asked before an output
 * (never the first) ends the run there, and the outputs left get no model.
 */
function* perTarget(
  train: Dataset,
  options: ModelFitOptions,
  fitOne: (target: string, pace: TrainingPace) => Steps<ModelResult>,
): Steps<{ models: ModelResult[]; stopped?: boolean }> {
  const models: ModelResult[] = [];
  let stopped = false;
  for (const [index, target] of train.targets.entries()) {
    if (index > 0 && options.stopped?.()) {
      stopped = true;
      break;
    }
    const model = yield* fitOne(target, paceOf(train, index, options));
    if ((model.training as { stopReason?: string }).stopReason === "aborted") stopped = true;
    options.onModel?.(model);
    models.push(model);
  }
  return { models, ...(stopped ? { stopped } : {}) };
}

/**
 * Fits `settings.method`'s model to every target of `train`, one generator fork per target, and
 * scores it on the training set and, where given, the test set. A target whose training NRMSE is
 * not finite is an InputError (badly scaled data), as for a search.
 */
export function fitModels(
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  onModel?: (model: ModelResult) => void,
  context?: ModelContext,
): ModelsOutput {
  return runSteps(fitModelsSteps(train, test, settings, rng, { onModel, context }));
}

/** fitModels in steps (core/clock.ts), stopped and reported through `options` (run with paceSteps to let a stop in). */
export function fitModelsSteps(
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  options: ModelFitOptions = {},
): Steps<ModelsOutput> {
  const fit = (MODEL_FITS as Record<string, ModelFit | undefined>)[settings.method];
  if (!fit) throw new InputError(`unknown model method "${settings.method}"`);
  return fit(train, test, settings, rng, options);
}

/** EQL, DSR and VPG write equations: they need the symbol registry. */
function needContext(method: string, context: ModelContext | undefined, what: string): ModelContext {
  if (!context) throw new InputError(`${method} needs the symbol registry ${what}`);
  return context;
}

/** The paper's MLP baseline per target (mlp.ts): no equation. */
function* fitMlp(
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  options: ModelFitOptions,
): Steps<ModelsOutput> {
  const testPredictions = test ? new Map<string, Float64Array>() : undefined;
  const run = yield* perTarget(train, options, function* (target, pace) {
    const trained = yield* trainMlpSteps(train, target, settings, rng.fork(), pace);
    const { model } = trained;
    const trainNrmse = nrmse(columnOf(train, target), predictMlp(model, train.x, train.rows));
    if (!Number.isFinite(trainNrmse))
      throw new InputError(
        `no MLP with a finite train NRMSE was found for target "${target}" (NRMSE ${trainNrmse}): ` +
          `scale the columns to magnitudes near 1`,
      );
    const { predicted, testNrmse } = scoreModel((columns, rows) => predictMlp(model, columns, rows), model.inputs, {
      train,
      test,
      target,
      testPredictions,
    });
    const result: ModelResult = {
      target,
      model: settings.method,
      inputs: [...model.inputs],
      layers: [...model.layers],
      activation: "tanh",
      parameters: parameterCount(model.layers),
      training: {
        rows: trained.trainRows,
        validationRows: trained.validationRows,
        epochs: trained.epochs,
        bestEpoch: trained.bestEpoch,
        stopReason: trained.stopReason,
        validationNrmse: trained.validationNrmse,
      },
      trainNrmse,
      ...(testNrmse === undefined ? {} : { testNrmse }),
      predictions: fingerprint(test ? "test" : "train", predicted),
    };
    return result;
  });
  return { ...run, testPredictions };
}

/**
 * EQL per target (eql.ts): train, read the expression back, expand it where it can
 * (eqlExtract.ts) and simplify that equation like a search's answer (equal terms merged,
 * negligible ones dropped). The model's NRMSEs are the network's; an equation's train NRMSE is
 * its own.
 */
function* fitEql(
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  options: ModelFitOptions,
): Steps<ModelsOutput> {
  const context = needContext("eql", options.context, "to write its equations");
  const lookup = (name: string) => context.symbols.get(name);
  const testPredictions = test ? new Map<string, Float64Array>() : undefined;
  const equations: EquationResult[] = [];
  const simplified: Equation[] = [];
  const run = yield* perTarget(train, options, function* (target, pace) {
    const trained = yield* trainEqlSteps(train, target, settings, rng.fork(), context.pool, pace);
    const { model } = trained;
    const y = columnOf(train, target);
    const trainNrmse = nrmse(y, predictEql(model, train.x, train.rows));
    if (!Number.isFinite(trainNrmse))
      throw new InputError(
        `no EQL network with a finite train NRMSE was found for target "${target}" (NRMSE ${trainNrmse}): ` +
          `scale the columns to magnitudes near 1, or lower \`learningRate\``,
      );
    const extraction = extractEql(model);
    if (extraction.terms) {
      const equation = simplifyEquation(
        { target, terms: extraction.terms },
        {
          symbols: lookup,
          inputOrder: train.inputs,
          symbolOrder: context.symbols.names(),
          columns: (name) => columnOf(train, name),
          rows: train.rows,
        },
      );
      simplified.push(equation);
      const predicted = evaluateEquation(equation, lookup, (name) => columnOf(train, name), train.rows);
      equations.push(equationResult(equation, lookup, nrmse(y, predicted)));
    }
    const { predicted, testNrmse } = scoreModel((columns, rows) => predictEql(model, columns, rows), model.inputs, {
      train,
      test,
      target,
      testPredictions,
    });
    const { hidden } = eqlWidths(model.kinds.length, model.units);
    const result: ModelResult = {
      target,
      model: "eql",
      inputs: [...model.inputs],
      layers: [model.inputs.length, hidden, 1],
      activation: [...model.kinds, "product"].join(", "),
      parameters: trained.weights,
      training: {
        rows: train.rows,
        phases: trained.phases,
        active: trained.active,
        weights: trained.weights,
        ...(trained.stopReason ? { stopReason: trained.stopReason } : {}),
      },
      trainNrmse,
      ...(testNrmse === undefined ? {} : { testNrmse }),
      predictions: fingerprint(test ? "test" : "train", predicted),
      expression: {
        text: extraction.text,
        latex: extraction.latex,
        expanded: extraction.terms !== undefined,
        ...(extraction.reason ? { reason: extraction.reason } : {}),
      },
    };
    return result;
  });
  return { ...run, testPredictions, equations, simplified };
}

/** DSR or VPG per target (dsrModel.ts): the best expression, its equation where it expands. */
function* fitDsr(
  train: Dataset,
  test: Dataset | undefined,
  settings: SearchSettings,
  rng: Rng,
  options: ModelFitOptions,
): Steps<ModelsOutput> {
  const context = needContext(settings.method, options.context, "for its tokens");
  const variant = settings.method === "vpg" ? "vpg" : "dsr";
  const testPredictions = test ? new Map<string, Float64Array>() : undefined;
  const equations: EquationResult[] = [];
  const simplified: Equation[] = [];
  const run = yield* perTarget(train, options, function* (target, pace) {
    const found = yield* fitDsrTargetSteps(train, test, target, settings, variant, rng.fork(), context, {
      pace: pace,
    });
    if (found.equation) {
      equations.push(found.equation.result);
      simplified.push(found.equation.simplified);
    }
    testPredictions?.set(target, found.predicted);
    const { expression, ...model } = found.model;
    const predictions = fingerprint(test ? "test" : "train", found.predicted);
    const result: ModelResult = { ...model, predictions, ...(expression ? { expression } : {}) };
    return result;
  });
  return { ...run, testPredictions, equations, simplified };
}

/**
 * Each model method's fit, by its name in the method table (search/methods.ts): one row per
 * `kind: "model"` row there, checked by the compiler (a model method without a fit, or a fit
 * without a method, does not build). The method table itself cannot hold them: it sits below this
 * folder, and the baselines load tfjs only when one runs (run/pipeline.ts imports them late).
 */
export const MODEL_FITS = { mlp: fitMlp, eql: fitEql, dsr: fitDsr, vpg: fitDsr } as const satisfies Record<
  ModelMethod,
  ModelFit
>;
