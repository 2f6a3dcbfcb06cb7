/**
 * The inner weights of a weighted pursuit's sum fitted continuously (pursuit.ts's pursueWeightedSteps):
 * a weight off every grid (sin(2.52·x)) reached from the nearest fine-grid one.
 */
import type { NeuronColumn, WeightedNeuron } from "./columns.js";
import { dot } from "../../numeric/index.js";
import { dampedStep } from "./levenberg.js";
import { basisOf, everyStep } from "./sums.js";

/** Rows refineWeights fits on (strided), unless told more (a short noise sum's last fit). */
const REFINE_ROWS = 128;
/** Levenberg–Marquardt iterations of refineWeights. */
const WEIGHT_ITERATIONS = 40;

/** One inner weight: a weighted neuron and the places (term, factor) of the sum that hold it. */
interface Slot {
  k: number;
  uses: { term: number; at: number }[];
  neuron: WeightedNeuron;
}

/** A sum's residual as a function of its inner weights, on strided rows. */
interface WeightFit {
  rows: number;
  /** Slot j's neuron at weight w on the values x (the strided rows by default). */
  columnOf: (j: number, w: number, x?: Float64Array) => Float64Array;
  /** The least-squares residual at these weights; undefined where a column is not finite. */
  residualOf: (weights: readonly number[]) => Float64Array | undefined;
}

/**
 * The inner weights of a sum's weighted neurons fitted by Levenberg–Marquardt (variable projection:
 * the coefficients are each step's least squares; a forward-difference Jacobian). The refined
 * neurons are appended to `neurons`; returns the sum with them, or undefined when no weight moved.
 */
export function refineWeights(
  neurons: NeuronColumn[],
  firstWeighted: number,
  model: readonly (readonly number[])[],
  y: Float64Array,
  intercept: boolean,
  /** Rows fitted on at most (strided). */
  rows = REFINE_ROWS,
): number[][] | undefined {
  const slots = weightSlots(neurons, firstWeighted, model);
  if (slots.length === 0) return undefined;
  const fit = weightFit(neurons, firstWeighted, model, slots, y, intercept, rows);
  const weights = fitWeights(
    fit,
    slots.map((s) => s.neuron.weight),
  );
  if (!weights) return undefined;
  const out = model.map((p) => [...p]);
  for (const [j, slot] of slots.entries()) {
    const values = fit.columnOf(j, weights[j]!, slot.neuron.x);
    neurons.push({ ...slot.neuron, weight: weights[j]!, values });
    for (const { term, at } of slot.uses) out[term]![at] = neurons.length - 1;
  }
  return out;
}

/** One weight per weighted neuron, shared by the terms that hold it (a LoCaL neuron has one). */
function weightSlots(
  neurons: readonly NeuronColumn[],
  firstWeighted: number,
  model: readonly (readonly number[])[],
): Slot[] {
  const slots: Slot[] = [];
  model.forEach((product, term) => {
    product.forEach((k, at) => {
      if (k < firstWeighted) return;
      const slot = slots.find((s) => s.k === k);
      if (slot) slot.uses.push({ term, at });
      else slots.push({ k, uses: [{ term, at }], neuron: neurons[k] as WeightedNeuron });
    });
  });
  return slots;
}

/**
 * The sum's residual by its weights, on strided rows (an exact sum is exact on them too; the
 * caller checks every row).
 */
function weightFit(
  neurons: readonly NeuronColumn[],
  firstWeighted: number,
  model: readonly (readonly number[])[],
  slots: readonly Slot[],
  y: Float64Array,
  intercept: boolean,
  most: number,
): WeightFit {
  const step = Math.max(1, Math.floor(y.length / most));
  const target = everyStep(y, step);
  const rows = target.length;
  const ones = new Float64Array(rows).fill(1);
  const plainPart = model.map((product) => {
    const v = new Float64Array(rows).fill(1);
    for (const k of product)
      if (k < firstWeighted) for (let r = 0; r < rows; r++) v[r]! *= neurons[k]!.values[r * step]!;
    return v;
  });
  const xs = slots.map((slot) => everyStep(slot.neuron.x, step));
  const columnOf = (j: number, w: number, x: Float64Array = xs[j]!): Float64Array =>
    Float64Array.from(x, (v) => slots[j]!.neuron.evaluate(w * v));
  const residualOf = (weights: readonly number[]): Float64Array | undefined => {
    const columns = plainPart.map((v) => Float64Array.from(v));
    for (const [j, slot] of slots.entries()) {
      const f = columnOf(j, weights[j]!);
      for (const { term } of slot.uses) {
        const c = columns[term]!;
        for (let r = 0; r < rows; r++) c[r]! *= f[r]!;
      }
    }
    if (!columns.every((c) => c.every(Number.isFinite))) return undefined;
    return basisOf(intercept ? [ones, ...columns] : columns, target).residual;
  };
  return { rows, columnOf, residualOf };
}

/** Levenberg–Marquardt from the `start` weights; undefined where a residual is not finite. */
function fitWeights(fit: WeightFit, start: number[]): number[] | undefined {
  let weights = start;
  let residual = fit.residualOf(weights);
  if (!residual) return undefined;
  let loss = dot(residual, residual);
  let lambda = 1e-3;
  for (let iteration = 0; iteration < WEIGHT_ITERATIONS; iteration++) {
    const normal = normalEquations(fit, weights, residual);
    if (!normal) return undefined;
    const taken = dampedStep(normal.JJ, normal.Jr, lambda, 1e-12, loss, (delta) => {
      const next = weights.map((w, j) => w + delta[j]!);
      const moved = fit.residualOf(next);
      return moved ? { weights: next, residual: moved, loss: dot(moved, moved) } : undefined;
    });
    lambda = taken.lambda;
    if (!taken.step) break;
    const gain = (loss - taken.step.loss) / (loss || 1);
    weights = taken.step.weights;
    residual = taken.step.residual;
    loss = taken.step.loss;
    if (gain < 1e-12 || loss <= 1e-30 * fit.rows) break;
  }
  return weights;
}

/** JᵀJ and −Jᵀr of a forward-difference Jacobian at `weights`; undefined where a moved residual is not finite. */
function normalEquations(
  fit: WeightFit,
  weights: readonly number[],
  residual: Float64Array,
): { JJ: Float64Array; Jr: Float64Array } | undefined {
  const P = weights.length;
  const J: Float64Array[] = [];
  for (let j = 0; j < P; j++) {
    const h = 1e-7 * Math.max(1, Math.abs(weights[j]!));
    const moved = fit.residualOf(weights.map((w, i) => (i === j ? w + h : w)));
    if (!moved) return undefined;
    J.push(Float64Array.from(moved, (v, r) => (v - residual[r]!) / h));
  }
  const JJ = new Float64Array(P * P);
  const Jr = new Float64Array(P);
  for (let a = 0; a < P; a++) {
    Jr[a] = -dot(J[a]!, residual);
    for (let b = 0; b < P; b++) JJ[a * P + b] = dot(J[a]!, J[b]!);
  }
  return { JJ, Jr };
}
