/**
 * The pipeline's model path: the method table's rows of kind "model" (the MLP baseline) fit a
 * model per target instead of searching for equations. Their answer is the result's `models`
 * block; an experiment's evaluation scores the models' predictions on its test set.
 */
import type { Dataset } from "../data/dataset.js";
import { columnOf } from "../data/dataset.js";
import { InputError } from "../errors.js";
import { nrmse } from "../metrics/nrmse.js";
import type { ModelResult } from "../result.js";
import type { Rng } from "../rng.js";
import type { SearchSettings } from "../search/settings.js";
import { parameterCount, predictMlp, trainMlp } from "./mlp.js";

export { parameterCount, predictMlp, trainMlp, type MlpModel, type MlpSettings, type MlpTraining } from "./mlp.js";

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

export interface ModelsOutput {
  models: ModelResult[];
  /** Each target's predictions on the test set (an experiment's), for its evaluation. */
  testPredictions?: Map<string, Float64Array>;
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
): ModelsOutput {
  if (settings.method !== "mlp") throw new InputError(`unknown model method "${settings.method}"`);
  const testPredictions = test ? new Map<string, Float64Array>() : undefined;
  const models = train.targets.map((target): ModelResult => {
    const trained = trainMlp(train, target, settings, rng.fork());
    const { model } = trained;
    const trainNrmse = nrmse(columnOf(train, target), predictMlp(model, train.x, train.rows));
    if (!Number.isFinite(trainNrmse))
      throw new InputError(
        `no MLP with a finite train NRMSE was found for target "${target}" (NRMSE ${trainNrmse}): ` +
          `scale the columns to magnitudes near 1`,
      );
    let testNrmse: number | undefined;
    let predicted: Float64Array;
    if (test) {
      predicted = predictMlp(
        model,
        model.inputs.map((name) => columnOf(test, name)),
        test.rows,
      );
      testNrmse = nrmse(columnOf(test, target), predicted);
      testPredictions!.set(target, predicted);
    } else predicted = predictMlp(model, train.x, train.rows);
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
    onModel?.(result);
    return result;
  });
  return { models, testPredictions };
}
