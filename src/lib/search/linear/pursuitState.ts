/**
 * One pursuit's state (grow.ts): the dictionary it grows sums over, the least-squares view of its
 * sums on every row and on the scan rows, and the sum it holds now. The moves (scan.ts, multiply.ts,
 * complete.ts, grow.ts) read and change this one object.
 */
import type { Steps } from "../../core/index.js";
import type { PursuitOptions, PursuitResult } from "./pursuit.js";
import { clashesIn, neuronsByInput, type Dictionary } from "./dictionary.js";
import { basisOf, everyStep, sumsOf, withoutSpares, type Products, type Sums } from "./sums.js";

/** Rows a scan scores on (strided); the best candidates are checked on every row. */
const SCAN_ROWS = 128;

/** How a pursuit's sum ended: exact, or with a residual of noise. */
export type Settled = "exact" | "noise";

/**
 * A sum refined (its exponents, its inner weights), or undefined where refining gives nothing;
 * `rows`: the rows its fit may use at most (strided; a default of its own where not given).
 */
export type Refine = (model: number[][], rows?: number) => Steps<number[][] | undefined>;

/** grow's signature (complete.ts grows a plain completion through it). */
export type Grow = (
  dictionary: Dictionary,
  y: Float64Array,
  options: PursuitOptions,
  refine?: Refine,
  start?: Products,
  pairAfterStart?: boolean,
) => Steps<PursuitResult[]>;

export interface Pursuit extends Sums {
  dictionary: Dictionary;
  neurons: Dictionary["neurons"];
  firstWeighted: number;
  weightedEnd: number;
  /** Whether the dictionary has weighted neurons. */
  weighted: boolean;
  y: Float64Array;
  options: PursuitOptions;
  refine: Refine | undefined;
  /** The terms the sum started from. */
  start: Products;
  /** Grows another sum (a completion) over a dictionary. */
  grow: Grow;
  /** The inputs (ascending) and each one's neurons, as the pursuit started. */
  inputs: number[];
  byInput: number[][];
  /** The scan rows: every `step`-th row of y and of each neuron as the pursuit started. */
  step: number;
  yScan: Float64Array;
  scanNeurons: Float64Array[];
  /** The sum held now, and its NRMSE. */
  model: number[][];
  error: number;
  /** Set by a multiply move that made the sum exact or its residual noise. */
  settled: Settled | undefined;
  /** Under noise, the terms the last multiply moves tried, with their refined sum's NRMSE. */
  multiplied: { term: number[]; nrmse: number }[];
}

/** A pursuit over `dictionary` from the `start` terms. */
export function startPursuit(
  dictionary: Dictionary,
  y: Float64Array,
  options: PursuitOptions,
  refine: Refine | undefined,
  start: Products,
  grow: Grow,
): Pursuit {
  const { neurons, firstWeighted, weightedEnd } = dictionary;
  const weighted = weightedEnd > firstWeighted;
  const sums = sumsOf(neurons, y, options.intercept);
  const { inputs, byInput } = neuronsByInput(neurons);
  const step = Math.max(1, Math.floor(y.length / SCAN_ROWS));
  const yScan = everyStep(y, step);
  const scanNeurons = neurons.map((n) => everyStep(n.values, step));
  const model: number[][] = start.map((p) => [...p]);
  const error = model.length > 0 ? sums.nrmseOf(model) : 1;
  return {
    ...sums,
    dictionary,
    neurons,
    firstWeighted,
    weightedEnd,
    weighted,
    y,
    options,
    refine,
    start,
    grow,
    inputs,
    byInput,
    step,
    yScan,
    scanNeurons,
    model,
    error,
    settled: undefined,
    multiplied: [],
  };
}

/** Whether a sum is exact, or leaves a residual of noise (options.isNoise), or neither. */
export function settle(pursuit: Pursuit, products: Products, e = pursuit.nrmseOf(products)): Settled | undefined {
  if (e <= pursuit.options.exact) return "exact";
  if (pursuit.options.isNoise?.(basisOf(pursuit.fixedColumns(products), pursuit.y).residual)) return "noise";
  return undefined;
}

/** A sum the pursuit ends on, pruned: "pursuit" where exact, else "noise". */
export function ended(pursuit: Pursuit, products: Products, kind: Settled): PursuitResult {
  return { ...pruned(pursuit, products, kind), source: kind === "exact" ? "pursuit" : "noise" };
}

/**
 * An exact sum without the terms it is exact without, and with each weighted factor that a
 * refined weight made degenerate (cos(10⁻⁶·x) standing in for 1, sin(10⁻⁶·x) for x) replaced
 * by nothing or by a plain neuron of its input where the sum stays exact; a noise sum (kind
 * "noise") likewise where its residual stays noise.
 */
export function pruned(
  pursuit: Pursuit,
  products: Products,
  kind: Settled = "exact",
): { products: number[][]; nrmse: number } {
  const { neurons, firstWeighted, options, nrmseOf } = pursuit;
  // A noise sum keeps what its residual needs to stay noise; an exact sum, what it needs to stay exact.
  const holds = (trial: Products, e: number) =>
    kind === "exact" ? e <= options.exact : settle(pursuit, trial, e) !== undefined;
  let { products: model, nrmse } = withoutSpares(products, nrmseOf, holds);
  for (const [t, product] of model.entries())
    for (const k of product.filter((k) => k >= firstWeighted)) {
      const rest = product.filter((j) => j !== k);
      const plainOfInput = neurons.flatMap((n, j) => (j < firstWeighted && n.input === neurons[k]!.input ? [j] : []));
      for (const replaced of [rest, ...plainOfInput.map((j) => [...rest, j])]) {
        if (replaced.length === 0) continue;
        const trial = model.map((p, u) => (u === t ? replaced : p));
        const e = nrmseOf(trial);
        if (holds(trial, e)) {
          model = trial;
          nrmse = e;
          break;
        }
      }
    }
  return { products: model, nrmse };
}

/** A sum's parameters: a coefficient per term and an inner weight per weighted factor. */
export function parametersOf(pursuit: Pursuit, products: Products): number {
  return products.reduce((n, p) => n + 1 + p.filter((k) => k >= pursuit.firstWeighted).length, 0);
}

/** Whether a weighted neuron clashes with the products (clashesIn). */
export function clashes(pursuit: Pursuit, products: Products) {
  return clashesIn(pursuit.neurons, pursuit.firstWeighted, products);
}
