/**
 * The paper's EQL baseline (Martius & Lampert 2016; Sahoo, Lampert & Martius 2018): an
 * "equation learner" network whose hidden units are identity, sin, cos and products of two
 * linear combinations, with a linear output, trained in three phases as in the papers: no
 * regularisation, then an L1 penalty on every weight, then the L0 phase (weights with
 * |w| < threshold fixed at zero by a mask, the rest fine-tuned). The surviving weights are read
 * back and the network's expression is expanded into a sum of products of the project's factors
 * where it can be (extractEql).
 *
 * One hidden layer, `units` units of each kind: sin and cos units only where the pool has the
 * symbol (all of them when there is no pool). The inputs are the raw columns (standardising
 * them would put a bias inside every sin). Weights start Glorot-uniform from the run's Rng, the
 * batch order is drawn from it too; training runs on tfjs (float32), and every number the
 * result reports is computed from the read-back weights in float64. Every tensor is disposed.
 */
import type { Dataset } from "../data/index.js";
import type { Rank } from "@tensorflow/tfjs-core";
import { tf } from "../engine/tf.js";
import { runSteps, type Rng, type Steps } from "../core/index.js";
import { cos, sin } from "../core/index.js";
import { UNPACED, type TrainingPace } from "./pace.js";

export interface EqlSettings {
  /** Units of each kind in the one hidden layer: `[units]`. */
  hidden: readonly number[];
  /** Epochs of each of the three phases. */
  epochs: number;
  batch: number;
  learningRate: number;
  /** L1 strength of the second phase. */
  l1: number;
  /** The L0 phase's threshold: weights with |w| below it are fixed at 0. */
  threshold: number;
}

export type UnaryKind = "identity" | "sin" | "cos";

/** A trained EQL network, weights in float64 with the pruned ones at exactly 0. */
export interface EqlModel {
  inputs: string[];
  /** The unary units' kinds, `units` each, in this order; then `units` product units. */
  kinds: UnaryKind[];
  units: number;
  /** Pre-activations: inputs × (kinds.length + 2)·units, row-major, and their biases. */
  w1: Float64Array;
  b1: Float64Array;
  /** Output weights over the hidden outputs ((kinds.length + 1)·units) and the output bias. */
  w2: Float64Array;
  b2: number;
}

export interface EqlTraining {
  model: EqlModel;
  phases: { phase: "plain" | "l1" | "l0"; epochs: number; mse: number }[];
  active: number;
  weights: number;
  /** Present when stopped from outside: the phases run so far are kept, the network as it was read back. */
  stopReason?: "aborted";
}

/** Width of the pre-activation layer and of the hidden outputs. */
export const eqlWidths = (kinds: number, units: number) => ({ pre: (kinds + 2) * units, hidden: (kinds + 1) * units });

/** The unary kinds a pool allows: identity always, sin and cos where the pool has them (or there is no pool). */
export function eqlKinds(pool: readonly string[] | undefined): UnaryKind[] {
  const has = (name: string) => !pool || pool.length === 0 || pool.includes(name);
  return ["identity", ...(["sin", "cos"] as const).filter(has)];
}

const unary = (kind: UnaryKind, z: number) => (kind === "sin" ? sin(z) : kind === "cos" ? cos(z) : z);

/** The network's predictions for the rows of `columns` (the model's inputs, in order), in float64. */
export function predictEql(model: EqlModel, columns: readonly ArrayLike<number>[], rows: number): Float64Array {
  const { pre, hidden } = eqlWidths(model.kinds.length, model.units);
  const n = model.inputs.length;
  const out = new Float64Array(rows);
  const z = new Float64Array(pre);
  for (let r = 0; r < rows; r++) {
    z.set(model.b1);
    for (let i = 0; i < n; i++) {
      const x = columns[i]![r]!;
      for (let j = 0; j < pre; j++) z[j]! += x * model.w1[i * pre + j]!;
    }
    let y = model.b2;
    for (let k = 0; k < hidden; k++) {
      const v = model.w2[k]!;
      if (v === 0) continue;
      const kind = Math.floor(k / model.units);
      const h = kind < model.kinds.length ? unary(model.kinds[kind]!, z[k]!) : z[k]! * z[k + model.units]!;
      y += v * h;
    }
    out[r] = y;
  }
  return out;
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
 * Trains EQL on one target of `data` (every input column). `rng` draws the initial weights,
 * then each epoch's batch order.
 */
export function trainEql(
  data: Dataset,
  target: string,
  settings: EqlSettings,
  rng: Rng,
  pool?: readonly string[],
): EqlTraining {
  return runSteps(trainEqlSteps(data, target, settings, rng, pool));
}

/**
 * trainEql in steps (one per batch), asking `pace` before each epoch whether to stop: a stop ends
 * the phase there, skips the phases after it, and reads the network back as it is.
 */
export function* trainEqlSteps(
  data: Dataset,
  target: string,
  settings: EqlSettings,
  rng: Rng,
  pool?: readonly string[],
  pace: TrainingPace = UNPACED,
): Steps<EqlTraining> {
  const y = data.y[data.targets.indexOf(target)]!;
  const rows = data.rows;
  const n = data.inputs.length;
  const units = settings.hidden[0]!;
  const kinds = eqlKinds(pool);
  const { pre, hidden } = eqlWidths(kinds.length, units);
  const xs = new Float32Array(rows * n);
  const ys = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n; i++) xs[r * n + i] = data.x[i]![r]!;
    ys[r] = y[r]!;
  }
  const init1 = glorot(n, pre, rng);
  const init2 = glorot(hidden, 1, rng);
  const net = new EqlNet(kinds, units, n, init1, init2, settings, rng, pace);
  let active = 0;
  const total = n * pre + pre + hidden + 1;
  let read: Float32Array[];
  try {
    const allX = tf.tensor2d(xs, [rows, n]);
    const allY = tf.tensor2d(ys, [rows, 1]);
    try {
      yield* net.runPhase("plain", allX, allY);
      if (!net.aborted) yield* net.runPhase("l1", allX, allY);
      if (!net.aborted) {
        active = net.maskSmallWeights();
        yield* net.runPhase("l0", allX, allY);
      } else active = total;
      read = net.readBack();
    } finally {
      allX.dispose();
      allY.dispose();
      net.disposeMasks();
    }
  } finally {
    net.dispose();
  }
  const model: EqlModel = {
    inputs: [...data.inputs],
    kinds,
    units,
    w1: Float64Array.from(read[0]!),
    b1: Float64Array.from(read[1]!),
    w2: Float64Array.from(read[2]!),
    b2: read[3]![0]!,
  };
  const { phases, aborted } = net;
  return { model, phases, active, weights: total, ...(aborted ? { stopReason: "aborted" as const } : {}) };
}

/** Glorot-uniform weights of a fanIn × fanOut layer, drawn from the Rng. */
function glorot(fanIn: number, fanOut: number, rng: Rng): Float32Array {
  const limit = Math.sqrt(6 / (fanIn + fanOut));
  return Float32Array.from({ length: fanIn * fanOut }, () => rng.uniform(-limit, limit));
}

/**
 * The EQL network in training: its tfjs variables (w1, b1, w2, b2), Adam, the L0 phase's masks,
 * and what the phases run so far recorded. The caller disposes (dispose, disposeMasks).
 */
class EqlNet {
  readonly variables: tf.Variable[];
  private readonly optimizer: tf.Optimizer;
  /** The L0 phase's masks (1 for a kept weight), one per variable; null before it. */
  private masks: tf.Tensor[] | null = null;
  readonly phases: EqlTraining["phases"] = [];
  /** Epochs done over the phases before this one, and whether a stop from outside ended training. */
  private done = 0;
  aborted = false;

  constructor(
    private readonly kinds: readonly UnaryKind[],
    private readonly units: number,
    n: number,
    init1: Float32Array,
    init2: Float32Array,
    private readonly settings: EqlSettings,
    private readonly rng: Rng,
    private readonly pace: TrainingPace,
  ) {
    const { pre, hidden } = eqlWidths(kinds.length, units);
    const w1 = tf.tidy(() => tf.variable(tf.tensor2d(init1, [n, pre])));
    const b1 = tf.tidy(() => tf.variable(tf.zeros<Rank.R2>([1, pre])));
    const w2 = tf.tidy(() => tf.variable(tf.tensor2d(init2, [hidden, 1])));
    const b2 = tf.tidy(() => tf.variable(tf.zeros<Rank.R2>([1, 1])));
    this.variables = [w1, b1, w2, b2];
    this.optimizer = tf.train.adam(settings.learningRate);
  }

  /** The variables as the network uses them: masked in the L0 phase. */
  private effective(): tf.Tensor[] {
    const masks = this.masks;
    return masks ? this.variables.map((v, k) => tf.mul(v, masks[k]!)) : this.variables;
  }

  private forward(x: tf.Tensor2D): tf.Tensor2D {
    const { kinds, units } = this;
    const unaryWidth = kinds.length * units;
    const [ew1, eb1, ew2, eb2] = this.effective() as [tf.Tensor2D, tf.Tensor2D, tf.Tensor2D, tf.Tensor2D];
    const z: tf.Tensor2D = tf.add(tf.matMul(x, ew1), eb1);
    const parts: tf.Tensor2D[] = kinds.map((kind, k) => {
      const slice: tf.Tensor2D = tf.slice(z, [0, k * units], [-1, units]);
      return kind === "sin" ? tf.sin(slice) : kind === "cos" ? tf.cos(slice) : slice;
    });
    const left = tf.slice(z, [0, unaryWidth], [-1, units]);
    const right = tf.slice(z, [0, unaryWidth + units], [-1, units]);
    parts.push(tf.mul(left, right));
    return tf.add(tf.matMul(tf.concat(parts, 1), ew2), eb2);
  }

  /** One phase's epochs over all rows (a stop ends it there), then its MSE on them, recorded. */
  *runPhase(phase: "plain" | "l1" | "l0", allX: tf.Tensor2D, allY: tf.Tensor2D): Steps<void> {
    const { settings, pace } = this;
    const rows = allX.shape[0];
    const penalty = phase === "l1" ? settings.l1 : 0;
    let epoch = 0;
    for (; epoch < settings.epochs; epoch++) {
      // A stop ends the phase (the first epoch of the run is always trained).
      if ((epoch > 0 || this.phases.length > 0) && pace.stopped()) {
        this.aborted = true;
        break;
      }
      const order = shuffle(
        Array.from({ length: rows }, (_, i) => i),
        this.rng,
      );
      for (let start = 0; start < rows; start += settings.batch) {
        this.trainBatch(order.slice(start, start + settings.batch), allX, allY, penalty);
        yield;
      }
      pace.onStep?.({ step: this.done + epoch + 1, steps: 3 * settings.epochs, unit: "epoch", phase });
    }
    this.done += epoch;
    const mse = tf.tidy(() => tf.mean(tf.square(tf.sub(this.forward(allX), allY))).dataSync()[0]!);
    this.phases.push({ phase, epochs: epoch, mse });
  }

  /** One Adam step on the batch's rows, on the MSE plus the L1 penalty (when not 0). */
  private trainBatch(batch: number[], allX: tf.Tensor2D, allY: tf.Tensor2D, penalty: number): void {
    const { variables } = this;
    tf.tidy(() => {
      const index = tf.tensor1d(Int32Array.from(batch), "int32");
      const x = tf.gather(allX, index) as tf.Tensor2D;
      const t = tf.gather(allY, index);
      this.optimizer.minimize(
        () => {
          const mse = tf.mean(tf.square(tf.sub(this.forward(x), t)));
          if (penalty === 0) return mse as tf.Scalar;
          const l1 = tf.addN(variables.map((v) => tf.sum(tf.abs(v))));
          return tf.add(mse, tf.mul(penalty, l1)) as tf.Scalar;
        },
        false,
        variables,
      );
    });
  }

  /** Fixes the weights with |w| below the threshold at 0 from now on; returns how many are kept. */
  maskSmallWeights(): number {
    const threshold = this.settings.threshold;
    const masks = this.variables.map((v) => tf.tidy(() => tf.cast(tf.greaterEqual(tf.abs(v), threshold), "float32")));
    this.masks = masks;
    return masks.reduce((sum, m) => sum + tf.tidy(() => tf.sum(m).dataSync()[0]!), 0);
  }

  /** The weights as the network uses them (masked), as numbers. */
  readBack(): Float32Array[] {
    return tf.tidy(() => this.effective().map((t) => t.dataSync() as Float32Array));
  }

  disposeMasks(): void {
    for (const m of this.masks ?? []) m.dispose();
  }

  dispose(): void {
    this.optimizer.dispose();
    for (const v of this.variables) v.dispose();
  }
}
