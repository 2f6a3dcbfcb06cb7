/**
 * The dictionary of a product pursuit (pursuit.ts): every product of neurons on distinct inputs up
 * to a depth whose count stays under a cap, with at most one weighted neuron (sin(w·x) …) per
 * product. Its columns are never stored: a scan (scan.ts) walks them depth-first.
 */
import type { NeuronColumn } from "./columns.js";
import type { Products } from "./sums.js";

/** Dictionary columns at most (the factors per product are cut where the count would pass it). */
export const DICTIONARY_CAP = 40000;
/** Weighted dictionary columns at most (the factors beside the weighted neuron are cut to stay under it). */
export const WEIGHTED_CAP = 12000;

/** The dictionary of a pursuit: neurons (plain first, then `weighted` ones with an inner weight) and product depths. */
export interface Dictionary {
  /** Plain neurons, then the weighted ones from `firstWeighted` to `weightedEnd`; refined ones are appended. */
  neurons: NeuronColumn[];
  firstWeighted: number;
  weightedEnd: number;
  /** Factors per product without a weighted neuron, and with one (a product holds at most one). */
  plainDepth: number;
  weightedDepth: number;
  /** Terms a plain completion has grown from (complete.ts: each once per dictionary). */
  completed: Set<string>;
}

/** The factors per product at most whose dictionary stays under the cap. */
export function dictionaryFactors(inputs: number, perInput: readonly number[], maxFactors: number): number {
  // count[k]: products of exactly k factors on distinct inputs (elementary symmetric sums).
  const count = new Array<number>(maxFactors + 1).fill(0);
  count[0] = 1;
  for (let i = 0; i < inputs; i++)
    for (let k = Math.min(maxFactors, i + 1); k >= 1; k--) count[k]! += count[k - 1]! * perInput[i]!;
  let total = 0;
  for (let k = 1; k <= maxFactors; k++) {
    total += count[k]!;
    if (total > DICTIONARY_CAP) return k - 1;
  }
  return maxFactors;
}

/**
 * The factors per product at most (0: none) whose products with exactly one weighted neuron stay
 * under WEIGHTED_CAP, given each input's plain and weighted neuron counts.
 */
export function weightedFactors(
  plainCounts: readonly number[],
  weightedCounts: readonly number[],
  factors: number,
): number {
  // Products with exactly one weighted neuron, by factors (a two-state elementary symmetric sum).
  const none = new Array<number>(factors + 1).fill(0);
  const one = new Array<number>(factors + 1).fill(0);
  none[0] = 1;
  for (const [i] of plainCounts.entries())
    for (let k = factors; k >= 1; k--) {
      one[k]! += one[k - 1]! * plainCounts[i]! + none[k - 1]! * weightedCounts[i]!;
      none[k]! += none[k - 1]! * plainCounts[i]!;
    }
  let weightedDepth = 0;
  let total = 0;
  for (let k = 1; k <= factors; k++) {
    total += one[k]!;
    if (total > WEIGHTED_CAP) break;
    weightedDepth = k;
  }
  return weightedDepth;
}

/**
 * Whether weighted neuron k's symbol and input are in the products at another weight (a LoCaL
 * neuron has one).
 */
export function clashesIn(neurons: readonly NeuronColumn[], firstWeighted: number, products: Products) {
  const held = new Map<number, Set<number>>();
  for (const p of products)
    for (const k of p)
      if (k >= firstWeighted) held.set(neurons[k]!.neuron, (held.get(neurons[k]!.neuron) ?? new Set()).add(k));
  return (k: number) => [...(held.get(neurons[k]!.neuron) ?? [])].some((j) => j !== k);
}

/** Each input's neurons (indices), inputs ascending. */
export function neuronsByInput(neurons: readonly NeuronColumn[]): { inputs: number[]; byInput: number[][] } {
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  return { inputs, byInput: inputs.map((i) => neurons.flatMap((n, k) => (n.input === i ? [k] : []))) };
}
