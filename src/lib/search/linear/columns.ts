/**
 * The column library of the linear-algebra proposals: for fixed inner weights a LoCaL output is
 * linear in its products, so candidate products become columns and a set of them is scored by
 * one least-squares solve (the partial credit a single fit does not give on sums).
 *
 * Neuron columns: every allowed (input, symbol) neuron; a symbol with a free inner weight gets a
 * column per weight of a small grid, ± (its LoCaL fit starts there and refines it), unless its scale
 * folds out (sqrt(w·x) = √w·sqrt(x): one column). Product columns: products of 1…maxFactors
 * neurons (a neuron at most once, at one weight), de-duplicated by value (x·x³ = x²·x²), the
 * simplest kept, up to a cap.
 */
import type { SymbolPlugin } from "../../plugins/index.js";
import { runSteps, type Steps } from "../../core/index.js";

/** Inner weights tried for a symbol whose scale does not fold out. */
export const WEIGHT_GRID = [0.5, 1, 1.5, 2, 3, 4, 6.2832] as const;

export interface NeuronColumn {
  /** CMP neuron index (input·|pool| + symbol). */
  neuron: number;
  input: number;
  /** The inner weight (1 for symbols without one). */
  weight: number;
  complexity: number;
  values: Float64Array;
}

export interface ProductColumn {
  /** CMP neurons, ascending. */
  neurons: number[];
  /** Inner weight per neuron, aligned with `neurons`. */
  weights: number[];
  complexity: number;
  values: Float64Array;
}

/** Whether f(w·x) = c·f(x) for every w > 0 (the weight is a coefficient: one column is enough). */
function scaleFolds(symbol: SymbolPlugin): boolean {
  if (!symbol.fold) return false;
  return [0.37, 2.9].every((w) => symbol.fold!(w).weight === 1);
}

export function neuronColumns(
  x: readonly Float64Array[],
  pool: readonly string[],
  allowed: readonly boolean[],
  lookup: (name: string) => SymbolPlugin,
): NeuronColumn[] {
  const out: NeuronColumn[] = [];
  x.forEach((column, input) => {
    pool.forEach((name, s) => {
      const neuron = input * pool.length + s;
      if (!allowed[neuron]) return;
      const symbol = lookup(name);
      // Negative grid weights too, where they give new columns (exp(−w·x), a decay; sin and cos
      // give ± the positive weight's column, log no finite one).
      const weights = symbol.innerWeight && !scaleFolds(symbol) ? [...WEIGHT_GRID, ...WEIGHT_GRID.map((w) => -w)] : [1];
      const keys = new Set<string>();
      for (const weight of weights) {
        const values = new Float64Array(column.length);
        let finite = true;
        for (let r = 0; r < column.length && finite; r++) {
          const v = symbol.evaluate(symbol.innerWeight ? weight * column[r]! : column[r]!);
          values[r] = v;
          finite = Number.isFinite(v);
        }
        if (!finite) continue;
        const key = valueKey(values);
        if (weight < 0 && (key === null || keys.has(key))) continue;
        if (key !== null) keys.add(key);
        out.push({ neuron, input, weight, complexity: symbol.complexity, values });
      }
    });
  });
  return out;
}

/** A neuron with an inner weight, with its input's values and its symbol: a fit can move the weight. */
export interface WeightedNeuron extends NeuronColumn {
  x: Float64Array;
  evaluate: (v: number) => number;
}

/**
 * The fine weight grid of product pursuit: w·max|x| from 0.5 to 12 in steps of 0.5, so that the
 * nearest grid weight is at most a quarter of a radian off at any row (sin(2.52·x) on [0, 2]
 * lies within 0.04 of sin(2.5·x)) and starts refineWeights in its basin.
 */
export const FINE_SPANS = Array.from({ length: 24 }, (_, i) => (i + 1) * 0.5);

/** Whether f(w·x) = f(x) + c(w) (log): the weight is an additive constant, a plain product's business. */
function shiftFolds(symbol: SymbolPlugin): boolean {
  const at = [0.7, 1.3, 2.9];
  return [0.37, 2.9].every((w) => {
    const d = at.map((v) => symbol.evaluate(w * v) - symbol.evaluate(v));
    return d.every((v) => Number.isFinite(v) && Math.abs(v - d[0]!) < 1e-9 * (1 + Math.abs(d[0]!)));
  });
}

/**
 * Neuron columns of every allowed symbol with a free inner weight (one that folds neither into a
 * coefficient nor into an additive constant) at the fine weight grid of its input, ± where the
 * negative weight gives a new column (exp(−w·x)); finite columns only.
 */
export function fineWeightColumns(
  x: readonly Float64Array[],
  pool: readonly string[],
  allowed: readonly boolean[],
  lookup: (name: string) => SymbolPlugin,
): WeightedNeuron[] {
  const out: WeightedNeuron[] = [];
  x.forEach((column, input) => {
    let span = 0;
    for (const v of column) span = Math.max(span, Math.abs(v));
    if (!(span > 0) || !Number.isFinite(span)) return;
    pool.forEach((name, s) => {
      const neuron = input * pool.length + s;
      const symbol = lookup(name);
      if (!allowed[neuron] || !symbol.innerWeight || scaleFolds(symbol) || shiftFolds(symbol)) return;
      const evaluate = (v: number) => symbol.evaluate(v);
      for (const u of FINE_SPANS) {
        const keys = new Set<string>();
        for (const weight of [u / span, -u / span]) {
          const values = Float64Array.from(column, (v) => evaluate(weight * v));
          if (!values.every(Number.isFinite)) continue;
          const key = valueKey(values);
          if (key === null || keys.has(key)) continue;
          keys.add(key);
          out.push({ neuron, input, weight, complexity: symbol.complexity, values, x: column, evaluate });
        }
      }
    });
  });
  return out;
}

/** A key equal for columns equal up to scale and sign (a few rows, 9 digits). */
function valueKey(values: Float64Array): string | null {
  let norm = 0;
  for (let r = 0; r < values.length; r++) norm += values[r]! * values[r]!;
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  const step = Math.max(1, Math.floor(values.length / 12));
  let sign = 0;
  const parts: string[] = [];
  for (let r = 0; r < values.length; r += step) {
    const v = values[r]! / Math.sqrt(norm);
    if (sign === 0 && Math.abs(v) > 1e-12) sign = Math.sign(v);
    parts.push((v * (sign || 1)).toPrecision(9));
  }
  return parts.join(",");
}

/**
 * Products of 1…maxFactors neuron columns in order of size, with at most `maxGridded` neurons
 * whose symbol has a weight grid, de-duplicated by value (the first and simplest kept), at most
 * `cap` columns; `truncated` when the cap cut the enumeration.
 */
export function productColumns(
  neurons: readonly NeuronColumn[],
  maxFactors: number,
  cap: number,
  maxGridded = maxFactors,
): { columns: ProductColumn[]; truncated: boolean } {
  return runSteps(productColumnsSteps(neurons, maxFactors, cap, maxGridded));
}

/** productColumns as interruptible steps (clock.ts): a yield every 64 products built. */
export function* productColumnsSteps(
  neurons: readonly NeuronColumn[],
  maxFactors: number,
  cap: number,
  maxGridded = maxFactors,
): Steps<{ columns: ProductColumn[]; truncated: boolean }> {
  const gridded = new Set(neurons.filter((n) => n.weight !== 1).map((n) => n.neuron));
  const seen = new Map<string, number>();
  const columns: ProductColumn[] = [];
  const rows = neurons[0]?.values.length ?? 0;
  let truncated = false;
  const add = (picked: readonly NeuronColumn[], values: Float64Array) => {
    const key = valueKey(values);
    if (key === null) return;
    const complexity = picked.reduce((s, n) => s + n.complexity, 0);
    const at = seen.get(key);
    if (at !== undefined) {
      if (complexity < columns[at]!.complexity) columns[at] = product(picked, complexity, values);
      return;
    }
    seen.set(key, columns.length);
    columns.push(product(picked, complexity, values));
  };
  let built = 0;
  for (let size = 1; size <= maxFactors && !truncated; size++) {
    const grow = function* (start: number, picked: NeuronColumn[], values: Float64Array): Steps<void> {
      if (truncated) return;
      if ((++built & 63) === 0) yield;
      if (picked.length === size) {
        if (columns.length >= cap) truncated = true;
        else add(picked, values);
        return;
      }
      for (let i = start; i < neurons.length; i++) {
        const n = neurons[i]!;
        if (picked.some((p) => p.neuron === n.neuron)) continue;
        if (gridded.has(n.neuron) && picked.filter((p) => gridded.has(p.neuron)).length >= maxGridded) continue;
        const next = new Float64Array(rows);
        for (let r = 0; r < rows; r++) next[r] = values[r]! * n.values[r]!;
        yield* grow(i + 1, [...picked, n], next);
      }
    };
    yield* grow(0, [], new Float64Array(rows).fill(1));
  }
  return { columns, truncated };
}

function product(picked: readonly NeuronColumn[], complexity: number, values: Float64Array): ProductColumn {
  const order = [...picked].sort((a, b) => a.neuron - b.neuron);
  return { neurons: order.map((n) => n.neuron), weights: order.map((n) => n.weight), complexity, values };
}
