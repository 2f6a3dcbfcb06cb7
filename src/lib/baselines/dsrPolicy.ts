/**
 * DSR's policy (Petersen et al. 2021): an LSTM cell that emits a distribution over the token
 * library at each step of an expression in prefix order. Its input at each step is the parent
 * and the left sibling of the slot being filled, one-hot (an extra "none" entry each); its
 * logits are masked by the in-situ constraints (dsrPrior.ts) before the softmax, so a token
 * that breaks one has probability 0 both when sampling and in the gradient.
 *
 * Sampling runs the same cell in float64 JavaScript on the weights read once per batch
 * (cellStep) and draws each token from the run's Rng; the batch keeps each step's observation
 * and mask, so that the gradient (the tfjs cell, float32) replays the distributions the tokens
 * were drawn from. Weights start Glorot-uniform from the
 * Rng. Every tensor is made in tf.tidy or disposed (disposePolicy frees the variables).
 */
import type { Rank } from "@tensorflow/tfjs-core";
import { tf } from "../engine/tf.js";
import type { Rng } from "../core/index.js";
import type { TokenLibrary } from "./dsrLibrary.js";
import { NONE, PrefixState, type LengthLimits } from "./dsrPrior.js";
import { exp } from "../core/index.js";

export interface Policy {
  units: number;
  /** Tokens n; the input is 2·(n + 1) wide (parent and sibling, each with "none"). */
  tokens: number;
  kernel: tf.Variable<Rank.R2>;
  bias: tf.Variable<Rank.R1>;
  outWeights: tf.Variable<Rank.R2>;
  outBias: tf.Variable<Rank.R1>;
}

export const observationWidth = (tokens: number): number => 2 * (tokens + 1);

/** Trainable numbers of a policy. */
export function policyParameters(units: number, tokens: number): number {
  const input = observationWidth(tokens);
  return (input + units) * 4 * units + 4 * units + units * tokens + tokens;
}

export function createPolicy(tokens: number, units: number, rng: Rng): Policy {
  const input = observationWidth(tokens);
  const glorot = (fanIn: number, fanOut: number, size = fanIn * fanOut) => {
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    return Float32Array.from({ length: size }, () => rng.uniform(-limit, limit));
  };
  const kernel = glorot(input + units, 4 * units);
  const out = glorot(units, tokens);
  return tf.tidy(() => ({
    units,
    tokens,
    kernel: tf.variable(tf.tensor2d(kernel, [input + units, 4 * units])),
    bias: tf.variable(tf.zeros<Rank.R1>([4 * units])),
    outWeights: tf.variable(tf.tensor2d(out, [units, tokens])),
    outBias: tf.variable(tf.zeros<Rank.R1>([tokens])),
  }));
}

export function disposePolicy(policy: Policy): void {
  for (const v of variablesOf(policy)) v.dispose();
}

export const variablesOf = (policy: Policy): tf.Variable[] => [
  policy.kernel,
  policy.bias,
  policy.outWeights,
  policy.outBias,
];

/** A batch of sampled expressions with what the gradient needs to replay their distributions. */
export interface SampledBatch {
  size: number;
  /** Each expression's tokens in prefix order. */
  expressions: number[][];
  /** Per sequence and step (size × maxLength): the parent and sibling observed (NONE: none). */
  parents: Int32Array;
  siblings: Int32Array;
  /** Per sequence, step and token (size × maxLength × n): 1 where the token was allowed. */
  masks: Uint8Array;
  maxLength: number;
}

/** One step of the cell on the observations: the new state and the logits. */
function step(
  policy: Policy,
  observations: tf.Tensor2D,
  c: tf.Tensor2D,
  h: tf.Tensor2D,
): { c: tf.Tensor2D; h: tf.Tensor2D; logits: tf.Tensor2D } {
  const [c2, h2] = tf.basicLSTMCell(1, policy.kernel, policy.bias, observations, c, h);
  const logits = tf.add(tf.matMul(h2, policy.outWeights), policy.outBias) as tf.Tensor2D;
  return { c: c2, h: h2, logits };
}

/** The one-hot observations of `rows` sequences at one step, from their parent and sibling. */
function observationRows(
  tokens: number,
  rows: number,
  parentOf: (r: number) => number,
  siblingOf: (r: number) => number,
): Float32Array {
  const width = observationWidth(tokens);
  const out = new Float32Array(rows * width);
  for (let r = 0; r < rows; r++) {
    const parent = parentOf(r);
    const sibling = siblingOf(r);
    out[r * width + (parent === NONE ? tokens : parent)] = 1;
    out[r * width + tokens + 1 + (sibling === NONE ? tokens : sibling)] = 1;
  }
  return out;
}

/** The policy's weights read once into float64, for the sampling cell. */
interface CellWeights {
  kernel: Float64Array;
  bias: Float64Array;
  outWeights: Float64Array;
  outBias: Float64Array;
}

const readWeights = (policy: Policy): CellWeights => ({
  kernel: Float64Array.from(policy.kernel.dataSync()),
  bias: Float64Array.from(policy.bias.dataSync()),
  outWeights: Float64Array.from(policy.outWeights.dataSync()),
  outBias: Float64Array.from(policy.outBias.dataSync()),
});

const sigmoid = (v: number) => 1 / (1 + exp(-v));

/**
 * One step of tf.basicLSTMCell (forget bias 1; gates i, j, f, o in that order) and the output
 * layer for one sequence whose one-hot input has ones at `parent` and `sibling` (input rows of
 * the kernel): updates `c` and `h` in place and writes the logits. The same cell as `step`, in
 * float64 JavaScript: the tfjs cpu backend spent ten times as long per step on the small ops of a
 * 32-unit cell, and sampling needs no gradient.
 */
export function cellStep(
  weights: CellWeights,
  units: number,
  tokens: number,
  parent: number,
  sibling: number,
  c: Float64Array,
  h: Float64Array,
  gates: Float64Array,
  logits: Float64Array,
): void {
  const { kernel, bias, outWeights, outBias } = weights;
  const width = 4 * units;
  const input = observationWidth(tokens);
  const rowA = (parent === NONE ? tokens : parent) * width;
  const rowB = (tokens + 1 + (sibling === NONE ? tokens : sibling)) * width;
  for (let g = 0; g < width; g++) gates[g] = bias[g]! + kernel[rowA + g]! + kernel[rowB + g]!;
  for (let u = 0; u < units; u++) {
    const hu = h[u]!;
    if (hu === 0) continue;
    const row = (input + u) * width;
    for (let g = 0; g < width; g++) gates[g] = gates[g]! + hu * kernel[row + g]!;
  }
  for (let u = 0; u < units; u++) {
    const next = sigmoid(gates[u]!) * Math.tanh(gates[units + u]!) + c[u]! * sigmoid(1 + gates[2 * units + u]!);
    c[u] = next;
    h[u] = Math.tanh(next) * sigmoid(gates[3 * units + u]!);
  }
  for (let k = 0; k < tokens; k++) {
    let v = outBias[k]!;
    for (let u = 0; u < units; u++) v += h[u]! * outWeights[u * tokens + k]!;
    logits[k] = v;
  }
}

/** Samples `size` expressions within the constraints. */
export function sampleBatch(
  policy: Policy,
  library: TokenLibrary,
  limits: LengthLimits,
  size: number,
  rng: Rng,
): SampledBatch {
  const n = library.tokens.length;
  const { maxLength } = limits;
  const { units } = policy;
  const weights = readWeights(policy);
  const parents = new Int32Array(size * maxLength).fill(NONE);
  const siblings = new Int32Array(size * maxLength).fill(NONE);
  const masks = new Uint8Array(size * maxLength * n);
  const c = new Float64Array(units);
  const h = new Float64Array(units);
  const gates = new Float64Array(4 * units);
  const logits = new Float64Array(n);
  const probabilities = new Float64Array(n);
  const expressions: number[][] = [];
  for (let r = 0; r < size; r++) {
    const state = new PrefixState(library, limits);
    c.fill(0);
    h.fill(0);
    for (let t = 0; !state.done; t++) {
      const { parent, sibling } = state.observation();
      parents[r * maxLength + t] = parent;
      siblings[r * maxLength + t] = sibling;
      cellStep(weights, units, n, parent, sibling, c, h, gates, logits);
      const mask = masks.subarray((r * maxLength + t) * n, (r * maxLength + t + 1) * n);
      if (state.allowed(mask) === 0) throw new Error(`dsr: no token is allowed after [${state.tokens.join(", ")}]`);
      let top = -Infinity;
      for (let k = 0; k < n; k++) if (mask[k]) top = Math.max(top, logits[k]!);
      let total = 0;
      for (let k = 0; k < n; k++) {
        probabilities[k] = mask[k] ? exp(logits[k]! - top) : 0;
        total += probabilities[k]!;
      }
      let u = rng.next() * total;
      let chosen = -1;
      for (let k = 0; k < n; k++) {
        if (!mask[k]) continue;
        chosen = k;
        u -= probabilities[k]!;
        if (u < 0) break;
      }
      state.push(chosen);
    }
    expressions.push(state.tokens);
  }
  return { size, expressions, parents, siblings, masks, maxLength };
}

/** A large negative logit for a masked token: exp underflows to exactly 0 in float32. */
const MASKED = -1e9;

/**
 * One Adam step on −(1/S)·Σ advantageᵢ·log π(τᵢ) − entropy·(1/S)·Σ H(τᵢ) over the sequences
 * `selected` of the batch (H: the sum over steps of the masked distribution's entropy).
 * Returns the loss.
 */
export function policyGradientStep(
  policy: Policy,
  optimizer: tf.Optimizer,
  batch: SampledBatch,
  selected: readonly number[],
  advantages: readonly number[],
  entropyWeight: number,
): number {
  const n = policy.tokens;
  const rows = selected.length;
  const steps = Math.max(...selected.map((i) => batch.expressions[i]!.length));
  const width = observationWidth(n);
  const { maxLength } = batch;
  // Each step's observations, mask bias, chosen token (one-hot) and whether the sequence is still going.
  const inputs: Float32Array[] = [];
  const biases: Float32Array[] = [];
  const chosen: Float32Array[] = [];
  const alive: Float32Array[] = [];
  for (let t = 0; t < steps; t++) {
    inputs.push(
      observationRows(
        n,
        rows,
        (r) => batch.parents[selected[r]! * maxLength + t]!,
        (r) => batch.siblings[selected[r]! * maxLength + t]!,
      ),
    );
    const bias = new Float32Array(rows * n);
    const pick = new Float32Array(rows * n);
    const live = new Float32Array(rows);
    selected.forEach((i, r) => {
      const tokens = batch.expressions[i]!;
      if (t >= tokens.length) return;
      live[r] = 1;
      pick[r * n + tokens[t]!] = 1;
      for (let k = 0; k < n; k++) if (!batch.masks[(i * maxLength + t) * n + k]) bias[r * n + k] = MASKED;
    });
    biases.push(bias);
    chosen.push(pick);
    alive.push(live);
  }
  return tf.tidy(() => {
    const advantage = tf.tensor1d(Float32Array.from(advantages));
    const cost = optimizer.minimize(
      () => {
        let c = tf.zeros<Rank.R2>([rows, policy.units]);
        let h = tf.zeros<Rank.R2>([rows, policy.units]);
        let logProbability: tf.Tensor1D = tf.zeros([rows]);
        let entropy: tf.Tensor1D = tf.zeros([rows]);
        for (let t = 0; t < steps; t++) {
          const next = step(policy, tf.tensor2d(inputs[t]!, [rows, width]), c, h);
          ({ c, h } = next);
          const logp = tf.logSoftmax(tf.add(next.logits, tf.tensor2d(biases[t]!, [rows, n])));
          const live = tf.tensor1d(alive[t]!);
          const picked = tf.sum(tf.mul(logp, tf.tensor2d(chosen[t]!, [rows, n])), 1);
          logProbability = tf.add(logProbability, tf.mul(picked, live));
          const stepEntropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1));
          entropy = tf.add(entropy, tf.mul(stepEntropy, live));
        }
        const gain = tf.add(tf.mean(tf.mul(advantage, logProbability)), tf.mul(entropyWeight, tf.mean(entropy)));
        return tf.neg(gain) as tf.Scalar;
      },
      true,
      variablesOf(policy),
    );
    return cost!.dataSync()[0]!;
  });
}
