/**
 * The dictionary scan of a product pursuit (grow.ts): every product of the dictionary scored by
 * the residual drop (a·r)² / ‖a⊥‖² it would bring beside the fixed terms, on the scan rows, its
 * values built depth-first (one multiplication per product) and never stored; the best few are
 * checked on every row (bestFor).
 */
import type { Steps } from "../../core/index.js";
import type { Pursuit } from "./pursuitState.js";
import { basisOf, gainOf, keyOf, type Products } from "./sums.js";

/** Candidates of a scan checked on every row. */
export const CHECKED = 6;

/** A scan's best products so far, one per skeleton (the same neurons at other weights). */
interface Best {
  product: number[];
  gain: number;
  skeleton: string;
}

/** The walk of one scan: the product being built, the best so far and what scores them. */
interface Walk {
  pursuit: Pursuit;
  q: Float64Array[];
  residual: Float64Array;
  taken: Set<string>;
  count: number;
  top: Best[];
  /** One buffer per depth: the product's values are built in place, depth-first. */
  buffers: Float64Array[];
  product: number[];
}

/** A product's neurons (sorted) whatever their weights: products of one skeleton differ only in weights. */
const skeletonOf = (pursuit: Pursuit, p: readonly number[]) =>
  p
    .map((k) => pursuit.neurons[k]!.neuron)
    .sort((a, b) => a - b)
    .join(".");

/** Scores the product held in `walk.product` (its scan-row values in `values`) against the top. */
function consider(walk: Walk, values: Float64Array): void {
  const { top, count, product } = walk;
  const gain = gainOf(values, walk.q, walk.residual);
  if (gain !== undefined) {
    if ((top.length < count || gain > top[top.length - 1]!.gain) && !walk.taken.has(keyOf(product))) {
      // One candidate per skeleton (the same neurons at other weights): the best few differ.
      const skeleton = skeletonOf(walk.pursuit, product);
      const same = top.findIndex((t) => t.skeleton === skeleton);
      if (same < 0 || top[same]!.gain < gain) {
        if (same >= 0) top.splice(same, 1);
        top.push({ product: [...product], gain, skeleton });
        top.sort((p, s) => s.gain - p.gain);
        if (top.length > count) top.pop();
      }
    }
  }
}

/** Scores the product at `level` (its values in its buffer) and every deeper one grown from it. */
function visit(walk: Walk, from: number, level: number, hasWeighted: boolean): void {
  const { byInput, firstWeighted, scanNeurons, dictionary } = walk.pursuit;
  const { plainDepth, weightedDepth } = dictionary;
  const { buffers, product } = walk;
  const n = walk.pursuit.yScan.length;
  const values = buffers[level]!;
  if (level > 0) consider(walk, values);
  if (level >= (hasWeighted ? weightedDepth : plainDepth)) return;
  const next = buffers[level + 1]!;
  for (let b = from; b < byInput.length; b++)
    for (const k of byInput[b]!) {
      const weighted = k >= firstWeighted;
      if (weighted && (hasWeighted || level + 1 > weightedDepth)) continue;
      if (!weighted && !hasWeighted && level + 1 > plainDepth) continue;
      const column = scanNeurons[k]!;
      for (let r = 0; r < n; r++) next[r] = values[r]! * column[r]!;
      product.push(k);
      visit(walk, b + 1, level + 1, hasWeighted || weighted);
      product.pop();
    }
}

/**
 * The best columns of the dictionary given `fixed` products, by the residual drop on the scan
 * rows; `extra` products (deeper than the dictionary goes) compete beside them, or alone
 * (`walkDictionary` false).
 */
export function* scan(
  pursuit: Pursuit,
  fixed: Products,
  count = CHECKED,
  extra: readonly number[][] = [],
  walkDictionary = true,
): Steps<number[][]> {
  const { byInput, firstWeighted, scanNeurons, dictionary, step, yScan } = pursuit;
  const { plainDepth, weightedDepth } = dictionary;
  const depth = Math.max(plainDepth, weightedDepth);
  const { q, residual } = basisOf(pursuit.fixedColumns(fixed, step), yScan);
  const n = yScan.length;
  const walk: Walk = {
    pursuit,
    q,
    residual,
    taken: new Set(fixed.map(keyOf)),
    count,
    top: [],
    buffers: Array.from({ length: depth + 1 }, () => new Float64Array(n)),
    product: [],
  };
  const { buffers, product } = walk;
  buffers[0]!.fill(1);
  // A yield per first factor (the event loop waits at most one subtree).
  const first = buffers[1]!;
  for (let b = 0; b < (walkDictionary ? byInput.length : 0); b++)
    for (const k of byInput[b]!) {
      const weighted = k >= firstWeighted;
      if (weighted ? weightedDepth < 1 : plainDepth < 1) continue;
      const column = scanNeurons[k]!;
      for (let r = 0; r < n; r++) first[r] = column[r]!;
      product.push(k);
      visit(walk, b + 1, 1, weighted);
      product.pop();
      yield;
    }
  for (const p of extra) {
    product.splice(0, product.length, ...p);
    consider(walk, pursuit.valuesOf(p, step));
  }
  return walk.top.map((t) => t.product);
}

/**
 * A term times one more plain neuron of an input it lacks: products deeper than the dictionary
 * (with a weighted neuron it holds two factors at most beside it), grown from the residual:
 * √I1·√I2·cos δ from √I2·cos δ.
 */
export function deepened(pursuit: Pursuit, term: readonly number[]): number[][] {
  const { neurons, firstWeighted, byInput, inputs, dictionary, options } = pursuit;
  // A term shallower than the dictionary has its deeper products in it already.
  const inDictionary = term.some((k) => k >= firstWeighted) ? dictionary.weightedDepth : dictionary.plainDepth;
  if (term.length >= options.maxFactors || term.length < inDictionary) return [];
  const held = new Set(term.map((k) => neurons[k]!.input));
  return byInput.flatMap((ks, b) =>
    held.has(inputs[b]!) ? [] : ks.filter((k) => k < firstWeighted).map((k) => [...term, k]),
  );
}

/** The best of a scan's candidates for slot `t` of `model` (or a new term), checked on every row. */
export function* bestFor(
  pursuit: Pursuit,
  model: number[][],
  t: number,
): Steps<{ products: number[][]; nrmse: number } | undefined> {
  const others = model.filter((_, k) => k !== t);
  let best: { products: number[][]; nrmse: number } | undefined;
  for (const candidate of yield* scan(pursuit, others, CHECKED, t < model.length ? deepened(pursuit, model[t]!) : [])) {
    const products = t < model.length ? model.map((p, k) => (k === t ? candidate : p)) : [...model, candidate];
    const nrmse = pursuit.nrmseOf(products);
    if (!best || nrmse < best.nrmse) best = { products, nrmse };
  }
  return best;
}
