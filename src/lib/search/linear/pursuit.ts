/**
 * Product pursuit (Speed II): sums of multi-factor products found without building and screening
 * a library of every product. The dictionary is every product of neurons without a weight grid
 * (x, powers, sqrt, log …) on distinct inputs, up to the factors whose count stays under
 * `DICTIONARY_CAP`; its columns are generated on the fly (depth-first, one multiplication per
 * product) at every scan, never stored.
 *
 * The sum grows one term at a time (orthogonal matching pursuit: the column that lowers the
 * residual most joins), and after every growth each term in turn is replaced by the best column
 * of the whole dictionary given the others, until no replacement helps (a swap sweep: what frees
 * greedy growth from an early wrong pick among correlated products). A scan scores every column
 * by the residual drop (a·r)² / ‖a⊥‖², a⊥ its part outside the fixed terms' span, on
 * `SCAN_ROWS` strided rows; the best few are checked on all the screening rows.
 *
 * Sums of many bilinear products of nearly collinear columns (power flow) are better served by
 * backward elimination over the products of up to two factors (backward.ts), which runs first
 * where that library is small.
 *
 * The weighted pursuit (pursueWeightedSteps) adds products with one neuron at an inner weight
 * (sin, cos, exp) from a fine grid, fits each sum's weights continuously (refineWeights), and
 * moves such a neuron into a plain sum's terms (multiply moves).
 *
 * Under noise no sum is exact: a pursuit given `isNoise` stops where its sum's residual is noise
 * and returns that sum ("noise"), without the terms it stays noise without. A term with a weighted
 * neuron is also completed alone over plain products to the noise ("completion"): the rest of a
 * sum grown beside it keeps imitating what plain products give exactly.
 *
 * One move per file: the dictionary and its size (dictionary.ts), sums' least squares (sums.ts),
 * the pursuit's state (pursuitState.ts), its growth as named moves (grow.ts), the dictionary scan
 * (scan.ts), multiply moves (multiply.ts), completions (complete.ts), and the continuous
 * refinements of inner weights (refineWeights.ts) and exponents (refinePowers.ts), which share
 * one damped Levenberg–Marquardt step (levenberg.ts).
 */
import type { NeuronColumn, WeightedNeuron } from "./columns.js";
import { backwardElimination } from "./backward.js";
import type { Steps } from "../../core/index.js";
import { clashesIn, dictionaryFactors, neuronsByInput, weightedFactors, type Dictionary } from "./dictionary.js";
import { WEIGHTED_TERMS } from "./complete.js";
import { grow } from "./grow.js";
import { refinePowers } from "./refinePowers.js";
import { refineWeights } from "./refineWeights.js";
import { sumsOf, withoutSpares, type Sums } from "./sums.js";

export { DICTIONARY_CAP, WEIGHTED_CAP } from "./dictionary.js";

/** Backward elimination's library at most (it costs O(K³)). */
const BACKWARD_COLUMNS = 120;

export interface PursuitOptions {
  maxTerms: number;
  maxFactors: number;
  /** A constant column beside the terms (the search's additive constant). */
  intercept: boolean;
  /** Stop growing at this NRMSE (an exact sum). */
  exact: number;
  /** Each neuron's power (x^p; undefined for log and other non-powers): enables refinePowers. */
  powers?: readonly (number | undefined)[];
  /** Sums (products of neuron indices) whose exponents refinePowers fits before the pursuit. */
  starts?: readonly (readonly (readonly number[])[])[];
  /**
   * Whether a sum's residual (on every row of y) is noise: the pursuit stops growing there (no
   * exact sum is coming) and says so in `PursuitEnds.noise`.
   */
  isNoise?: (residual: Float64Array) => boolean;
  /** The weighted pursuit only multiplies and refines the starts, growing no sum (default true). */
  grow?: boolean;
}

export interface PursuitResult {
  /** Products as indices into the neuron list given. */
  products: number[][];
  /** The least-squares NRMSE (residual norm over the target's centred norm), on the rows given. */
  nrmse: number;
  /**
   * "noise": the sum at which the pursuit stopped because its residual was noise
   * (PursuitOptions.isNoise), without the terms it stays noise without; not exact.
   * "completion": likewise, a weighted term completed over plain products to the noise.
   */
  source: "pursuit" | "backward" | "noise" | "completion";
}

/**
 * Sums found by backward elimination (products of up to two factors, where that library is small)
 * and by pursuit over the dictionary, best first. `neurons` hold columns without a weight grid on
 * the screening rows of `y`.
 */
export function* pursueSteps(
  neurons: readonly NeuronColumn[],
  y: Float64Array,
  options: PursuitOptions,
): Steps<PursuitResult[]> {
  const sums = sumsOf(neurons, y, options.intercept);
  const { byInput } = neuronsByInput(neurons);
  const factors = Math.min(options.maxFactors, byInput.length);
  const results = yield* backwardSums(neurons, y, options, sums, byInput, factors);
  if (results.some((r) => r.nrmse <= options.exact)) return results.sort((p, q) => p.nrmse - q.nrmse);
  const start = yield* exactStart(neurons, y, options, sums);
  if (start) {
    results.push(start);
    return results.sort((p, q) => p.nrmse - q.nrmse);
  }
  // Pursuit over the dictionary.
  const depth = dictionaryFactors(
    byInput.length,
    byInput.map((own) => own.length),
    factors,
  );
  const refine = options.powers
    ? function* (model: number[][]): Steps<number[][] | undefined> {
        const [refined] = yield* refinePowers(neurons, options.powers!, y, [model], options.intercept);
        return refined;
      }
    : undefined;
  const dictionary: Dictionary = {
    neurons: [...neurons],
    firstWeighted: neurons.length,
    weightedEnd: neurons.length,
    plainDepth: depth,
    weightedDepth: 0,
    completed: new Set<string>(),
  };
  results.push(...(yield* grow(dictionary, y, options, refine)));
  return results.sort((p, q) => p.nrmse - q.nrmse);
}

/** Backward elimination over the products of up to two factors, where that library is small. */
function* backwardSums(
  neurons: readonly NeuronColumn[],
  y: Float64Array,
  options: PursuitOptions,
  { ones, scale, valuesOf }: Sums,
  byInput: readonly number[][],
  factors: number,
): Steps<PursuitResult[]> {
  const pairs: number[][] = [];
  byInput.forEach((own, a) => {
    for (const n of own) pairs.push([n]);
    if (factors >= 2)
      for (let b = a + 1; b < byInput.length; b++) for (const n of own) for (const m of byInput[b]!) pairs.push([n, m]);
  });
  const results: PursuitResult[] = [];
  if (options.maxTerms > 1 && pairs.length <= BACKWARD_COLUMNS) {
    const library = [...(options.intercept ? [[] as number[]] : []), ...pairs];
    const { path } = backwardElimination(
      library.map((p) => (p.length === 0 ? ones : valuesOf(p))),
      library.map((p) => p.reduce((s, n) => s + neurons[n]!.complexity, 0)),
      y,
      options.maxTerms,
    );
    for (const model of path) {
      const products = model.members.map((m) => library[m]!).filter((p) => p.length > 0);
      if (products.length > 0) results.push({ products, nrmse: Math.sqrt(model.rss) / scale, source: "backward" });
    }
    yield;
  }
  return results;
}

/**
 * The first of the caller's sums (the first screen's best of each length), their exponents
 * refined, that is exact: without the terms it is exact without (a term taken before the right
 * ones were found, its coefficient now 0).
 */
function* exactStart(
  neurons: readonly NeuronColumn[],
  y: Float64Array,
  options: PursuitOptions,
  { nrmseOf }: Sums,
): Steps<PursuitResult | undefined> {
  if (!options.powers || !options.starts?.length) return undefined;
  for (const products of yield* refinePowers(neurons, options.powers, y, options.starts, options.intercept)) {
    if (nrmseOf(products) <= options.exact)
      return { ...withoutSpares(products, nrmseOf, (_, e) => e <= options.exact), source: "pursuit" };
  }
  return undefined;
}

export interface WeightedResult {
  /** Products as neuron columns (plain ones, and weighted ones at their refined weights). */
  products: NeuronColumn[][];
  nrmse: number;
}

/**
 * Products with at most one neuron at an inner weight (sin(w·x), exp(w·x) …) among the plain ones:
 * the weighted neurons come from a fine grid of weights (columns.ts fineWeightColumns), the pursuit
 * grows sums over the dictionary, and each length's sum has its inner weights refined by
 * Levenberg–Marquardt (refineWeights): a weight off every grid (sin(2.52·x)) is reached from the
 * nearest fine-grid one. Returns exact sums, and under noise (`isNoise`) a start whose terms a
 * weighted neuron let shed parameters at the noise, or whose multiplied term plain products
 * complete to the noise; a sum grown to the noise over the weighted dictionary is not returned
 * (sin and cos of small weights imitate powers there), one weighted term completed over plain
 * products to the noise is. `grow: false` only works on the starts.
 */
export function* pursueWeightedSteps(
  plain: readonly NeuronColumn[],
  weighted: readonly WeightedNeuron[],
  y: Float64Array,
  options: PursuitOptions,
): Steps<WeightedResult[]> {
  if (weighted.length === 0 || options.maxTerms < 1) return [];
  const dictionary = weightedDictionary(plain, weighted, options);
  if (!dictionary) return [];
  const { neurons } = dictionary;
  const refine = function* (model: number[][], rows?: number): Steps<number[][] | undefined> {
    yield;
    return refineWeights(neurons, plain.length, model, y, options.intercept, rows);
  };
  // An answer holds each neuron at one weight (a LoCaL neuron has one); the pursuit on its way
  // may hold it at several (exp(−1.25·x1)·x3 beside exp(−3·x1)·x2), which refining and pruning resolve.
  const valid = (end: PursuitResult) =>
    (end.nrmse <= options.exact || end.source === "noise" || end.source === "completion") &&
    end.products.some((p) => p.some((k) => k >= plain.length)) &&
    end.products.every((p) => p.every((k) => !clashesIn(neurons, plain.length, end.products)(k)));
  const ends: PursuitResult[] = [];
  const found = () => ends.some(valid);
  const starts = options.starts ?? [];
  // From nothing, then from the caller's plain sums (the terms the plain pursuit was sure of).
  // Each plain sum with weighted neurons multiplied into its terms (no growth), then sums grown
  // from nothing and from the shortest plain sum.
  for (const start of starts) {
    if (found()) break;
    ends.push(...(yield* grow(dictionary, y, { ...options, maxTerms: start.length }, refine, start)));
  }
  // A grown sum is proposed only where exact: grown over the weighted dictionary to the noise,
  // sin and cos of small weights imitate powers (cos(1.46·x) for x⁴) as well as the truth fits.
  const grown = { ...options, maxTerms: Math.min(options.maxTerms, WEIGHTED_TERMS) };
  for (const start of options.grow === false ? [] : [[], ...starts.slice(0, 1)]) {
    if (found()) break;
    ends.push(...(yield* grow(dictionary, y, grown, refine, start)).filter((end) => end.source !== "noise"));
  }
  return ends
    .filter(valid)
    .map((end) => ({ products: end.products.map((p) => p.map((k) => neurons[k]!)), nrmse: end.nrmse }));
}

/**
 * The weighted pursuit's dictionary: the plain neurons, then the weighted ones, at depths whose
 * counts stay under the caps; undefined where no product with a weighted neuron fits under its cap.
 */
function weightedDictionary(
  plain: readonly NeuronColumn[],
  weighted: readonly WeightedNeuron[],
  options: PursuitOptions,
): Dictionary | undefined {
  const neurons: NeuronColumn[] = [...plain, ...weighted];
  const { inputs } = neuronsByInput(neurons);
  const plainCounts = inputs.map((i) => plain.filter((n) => n.input === i).length);
  const weightedCounts = inputs.map((i) => weighted.filter((n) => n.input === i).length);
  const factors = Math.min(options.maxFactors, inputs.length);
  const plainDepth = dictionaryFactors(inputs.length, plainCounts, factors);
  const weightedDepth = weightedFactors(plainCounts, weightedCounts, factors);
  if (weightedDepth === 0) return undefined;
  return {
    neurons,
    firstWeighted: plain.length,
    weightedEnd: neurons.length,
    plainDepth: Math.min(plainDepth, Math.max(weightedDepth, 2)),
    weightedDepth,
    completed: new Set<string>(),
  };
}
