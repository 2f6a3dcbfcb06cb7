/**
 * The paper's MLP baseline (§5): a fully connected tanh network per target, fitted to the
 * training set and scored like any result, but with no equation to show. Inputs and the target
 * are standardised on the rows it trains on; weights start Glorot-uniform from the run's Rng
 * (never Math.random, never a tfjs seed); Adam on mini-batches in an order drawn from the same
 * Rng; early stopping on a validation split drawn from it too, keeping the best epoch's weights.
 *
 * Training runs on tfjs (float32); the trained weights are read back and every prediction the
 * result reports is computed from them in float64 here, so one seed on one backend gives the
 * same numbers. Every tensor is disposed: tf.memory().numTensors is the same before and after.
 */
import type { Dataset } from "../data/index.js";
import { nrmse } from "../numeric/index.js";
import { runSteps, type Rng, type Steps } from "../core/index.js";
import type { Rank } from "@tensorflow/tfjs-core";
import { tf } from "../engine/tf.js";
import { UNPACED, type TrainingPace } from "./pace.js";

export interface MlpSettings {
  /** Hidden layer widths, e.g. [64, 64]. */
  hidden: readonly number[];
  /** Most epochs (passes over the training rows). */
  epochs: number;
  batch: number;
  learningRate: number;
  /** Stop after this many epochs without a better validation loss. */
  patience: number;
  /** Fraction of the rows held out for early stopping, in (0, 0.5]. */
  validation: number;
}

/** A trained network: standardisation, layer weights (row-major, fanIn × fanOut) and biases, as float64 numbers. */
export interface MlpModel {
  inputs: string[];
  /** Widths from the input to the output: [inputs, ...hidden, 1]. */
  layers: number[];
  inputMean: number[];
  inputScale: number[];
  targetMean: number;
  targetScale: number;
  weights: Float64Array[];
  biases: Float64Array[];
}

export interface MlpTraining {
  model: MlpModel;
  trainRows: number;
  validationRows: number;
  /** Epochs run, and the one whose weights were kept (1-based). */
  epochs: number;
  bestEpoch: number;
  /** "aborted": stopped from outside (a page's Stop, Ctrl-C), with the best epoch so far kept. */
  stopReason: "patience" | "epochs" | "aborted";
  /** NRMSE on the validation rows with the kept weights. */
  validationNrmse: number;
}

/** Learnable parameters of a network with these widths. */
export const parameterCount = (layers: readonly number[]): number =>
  layers.slice(1).reduce((n, width, i) => n + (layers[i]! + 1) * width, 0);

/** The network's predictions for the rows of `columns` (input columns in the model's input order), in float64. */
export function predictMlp(model: MlpModel, columns: readonly ArrayLike<number>[], rows: number): Float64Array {
  const out = new Float64Array(rows);
  const depth = model.weights.length;
  const input = new Float64Array(model.layers[0]!);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < input.length; i++) input[i] = (columns[i]![r]! - model.inputMean[i]!) / model.inputScale[i]!;
    let activation = input;
    for (let l = 0; l < depth; l++) {
      const fanIn = model.layers[l]!;
      const fanOut = model.layers[l + 1]!;
      const w = model.weights[l]!;
      const next = new Float64Array(model.biases[l]!);
      for (let i = 0; i < fanIn; i++) {
        const a = activation[i]!;
        for (let j = 0; j < fanOut; j++) next[j]! += a * w[i * fanOut + j]!;
      }
      if (l < depth - 1) for (let j = 0; j < fanOut; j++) next[j] = Math.tanh(next[j]!);
      activation = next;
    }
    out[r] = activation[0]! * model.targetScale + model.targetMean;
  }
  return out;
}

function meanScale(values: ArrayLike<number>, rows: readonly number[]): [number, number] {
  let mean = 0;
  for (const r of rows) mean += values[r]!;
  mean /= rows.length;
  let sum = 0;
  for (const r of rows) sum += (values[r]! - mean) ** 2;
  const scale = Math.sqrt(sum / rows.length);
  return [mean, scale > 0 && Number.isFinite(scale) ? scale : 1];
}

/** Fisher–Yates with the run's Rng. */
function shuffle(values: number[], rng: Rng): number[] {
  for (let i = values.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  return values;
}

/**
 * Trains the MLP of one target of `data` (every input column). `rng` draws the validation
 * split, the initial weights and the batch order, in that order.
 */
export function trainMlp(data: Dataset, target: string, settings: MlpSettings, rng: Rng): MlpTraining {
  return runSteps(trainMlpSteps(data, target, settings, rng));
}

/** trainMlp in steps (one per batch), asking `pace` before each epoch whether to stop. */
export function* trainMlpSteps(
  data: Dataset,
  target: string,
  settings: MlpSettings,
  rng: Rng,
  pace: TrainingPace = UNPACED,
): Steps<MlpTraining> {
  const y = data.y[data.targets.indexOf(target)]!;
  const { validation, training } = splitRows(data.rows, settings.validation, rng);
  const stats = data.x.map((column) => meanScale(column, training));
  const [targetMean, targetScale] = meanScale(y, training);
  const layers = [data.inputs.length, ...settings.hidden, 1];
  const set = standardisedRows(data, y, stats, targetMean, targetScale);
  const net = createMlpNet(layers, settings.learningRate, rng);
  let trained: EarlyStopped;
  try {
    trained = yield* trainWithEarlyStopping(net, set, training, validation, settings, rng, pace);
  } finally {
    net.optimizer.dispose();
    for (const v of net.variables) v.dispose();
  }
  const depth = net.weights.length;
  const model: MlpModel = {
    inputs: [...data.inputs],
    layers,
    inputMean: stats.map((s) => s[0]),
    inputScale: stats.map((s) => s[1]),
    targetMean,
    targetScale,
    weights: trained.kept.slice(0, depth).map((w) => Float64Array.from(w)),
    biases: trained.kept.slice(depth).map((b) => Float64Array.from(b)),
  };
  const validationColumns = data.x.map((column) => validation.map((r) => column[r]!));
  const validationNrmse = nrmse(
    validation.map((r) => y[r]!),
    predictMlp(model, validationColumns, validation.length),
  );
  return {
    model,
    trainRows: training.length,
    validationRows: validation.length,
    epochs: trained.epochs,
    bestEpoch: trained.bestEpoch,
    stopReason: trained.stopReason,
    validationNrmse,
  };
}

/** The validation rows (a `fraction` of the n rows, at least one, leaving one) and the training rows, each sorted. */
function splitRows(n: number, fraction: number, rng: Rng): { validation: number[]; training: number[] } {
  const order = shuffle(
    Array.from({ length: n }, (_, i) => i),
    rng,
  );
  const validationRows = Math.min(n - 1, Math.max(1, Math.round(fraction * n)));
  const validation = order.slice(0, validationRows).sort((a, b) => a - b);
  const training = order.slice(validationRows).sort((a, b) => a - b);
  return { validation, training };
}

/** The standardised rows as float32 for tfjs (row-major inputs, `width` a row), and batches of them. */
interface StandardisedRows {
  width: number;
  xs: Float32Array;
  ys: Float32Array;
  /** The given rows' inputs and targets, in that order. */
  gather(rows: readonly number[]): { bx: Float32Array; by: Float32Array };
}

function standardisedRows(
  data: Dataset,
  y: ArrayLike<number>,
  stats: readonly [number, number][],
  targetMean: number,
  targetScale: number,
): StandardisedRows {
  const n = data.rows;
  const width = data.inputs.length;
  const xs = new Float32Array(n * width);
  const ys = new Float32Array(n);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < width; i++) xs[r * width + i] = (data.x[i]![r]! - stats[i]![0]) / stats[i]![1];
    ys[r] = (y[r]! - targetMean) / targetScale;
  }
  const gather = (rows: readonly number[]) => {
    const bx = new Float32Array(rows.length * width);
    const by = new Float32Array(rows.length);
    rows.forEach((r, k) => {
      bx.set(xs.subarray(r * width, (r + 1) * width), k * width);
      by[k] = ys[r]!;
    });
    return { bx, by };
  };
  return { width, xs, ys, gather };
}

/** The network in training: its tfjs variables (weights, then biases), Adam, and the forward pass. */
interface MlpNet {
  weights: tf.Variable[];
  biases: tf.Variable[];
  variables: tf.Variable[];
  optimizer: tf.Optimizer;
  forward(x: tf.Tensor2D): tf.Tensor2D;
}

/** Glorot-uniform weights drawn from the Rng layer by layer, zero biases; the caller disposes. */
function createMlpNet(layers: readonly number[], learningRate: number, rng: Rng): MlpNet {
  const initial = layers.slice(1).map((fanOut, l) => {
    const fanIn = layers[l]!;
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    const w = new Float32Array(fanIn * fanOut);
    for (let k = 0; k < w.length; k++) w[k] = rng.uniform(-limit, limit);
    return { w, fanIn, fanOut };
  });
  // tidy: a variable keeps its own copy, the initial tensor goes.
  const weights = initial.map(({ w, fanIn, fanOut }) => tf.tidy(() => tf.variable(tf.tensor2d(w, [fanIn, fanOut]))));
  const biases = initial.map(({ fanOut }) => tf.tidy(() => tf.variable(tf.zeros<Rank.R2>([1, fanOut]))));
  const variables = [...weights, ...biases];
  const optimizer = tf.train.adam(learningRate);
  const forward = (x: tf.Tensor2D): tf.Tensor2D => {
    let h: tf.Tensor2D = x;
    weights.forEach((w, l) => {
      h = tf.add(tf.matMul(h, w), biases[l]!);
      if (l < weights.length - 1) h = tf.tanh(h);
    });
    return h;
  };
  return { weights, biases, variables, optimizer, forward };
}

interface EarlyStopped {
  /** The variables' values at the best epoch (the initial ones before any). */
  kept: Float32Array[];
  epochs: number;
  bestEpoch: number;
  stopReason: MlpTraining["stopReason"];
}

/** Epochs until `settings.epochs`, `patience` epochs without a better validation loss, or a stop. */
function* trainWithEarlyStopping(
  net: MlpNet,
  set: StandardisedRows,
  training: readonly number[],
  validation: readonly number[],
  settings: MlpSettings,
  rng: Rng,
  pace: TrainingPace,
): Steps<EarlyStopped> {
  const { variables, forward } = net;
  const validationSet = set.gather(validation);
  let best = Infinity;
  let bestEpoch = 0;
  let kept = variables.map((v) => v.dataSync().slice() as Float32Array);
  let epoch = 0;
  let stopReason: MlpTraining["stopReason"] = "epochs";
  const vx = tf.tensor2d(validationSet.bx, [validation.length, set.width]);
  const vy = tf.tensor2d(validationSet.by, [validation.length, 1]);
  try {
    while (epoch < settings.epochs) {
      // A stop keeps the best epoch so far (at least one epoch is trained: a model needs weights).
      if (epoch > 0 && pace.stopped()) {
        stopReason = "aborted";
        break;
      }
      epoch++;
      yield* trainEpoch(net, set, training, settings.batch, rng);
      const loss = tf.tidy(() => tf.mean(tf.square(tf.sub(forward(vx), vy))).dataSync()[0]!);
      if (loss < best) {
        best = loss;
        bestEpoch = epoch;
        kept = variables.map((v) => v.dataSync().slice() as Float32Array);
      } else if (epoch - bestEpoch >= settings.patience) {
        stopReason = "patience";
        break;
      }
      pace.onStep?.({ step: epoch, steps: settings.epochs, unit: "epoch", nrmse: Math.sqrt(best) });
    }
  } finally {
    vx.dispose();
    vy.dispose();
  }
  return { kept, epochs: epoch, bestEpoch, stopReason };
}

/** One pass of Adam over the training rows in batches, in an order drawn from the Rng; yields after each batch. */
function* trainEpoch(
  net: MlpNet,
  set: StandardisedRows,
  training: readonly number[],
  batch: number,
  rng: Rng,
): Steps<void> {
  const batches = shuffle([...training], rng);
  for (let start = 0; start < batches.length; start += batch) {
    const rows = batches.slice(start, start + batch);
    const { bx, by } = set.gather(rows);
    tf.tidy(() => {
      const x = tf.tensor2d(bx, [rows.length, set.width]);
      const t = tf.tensor2d(by, [rows.length, 1]);
      net.optimizer.minimize(() => tf.mean(tf.square(tf.sub(net.forward(x), t))) as tf.Scalar, false, net.variables);
    });
    yield;
  }
}
