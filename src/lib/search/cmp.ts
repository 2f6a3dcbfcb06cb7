/**
 * The controlled Markov process of the structure search (paper §3.2, eq. 1) for one output.
 * Three decisions build a one-block LoCaL: a_0 enables activation neurons (Z0: input i →
 * neuron (i, symbol)), a_1 wires neurons into products (Z1, n1 × n2), a_2 sums products into the
 * output (Z2, n2 × 1). Actions are zero-padded to n_a = max(n1, n1·n2, n2).
 *
 * Two state encodings, both linear in the action for a fixed state (what Theorem 1 needs):
 * - "paper": s = [layer values (counts), layer index]; s_{k+1} = Mat(a_k)ᵀ s_k + c.
 * - "structure" (consolesr's default): the paper's state followed by the actions taken so far
 *   and a one-hot layer, so the next decision sees which neurons and products exist
 *   (docs/design.md#state-counts).
 */
import { InputError } from "../core/index.js";
import type { LocalStructure } from "../local/index.js";
import type { Product } from "../plugins/index.js";
import type { Rng } from "../core/index.js";

export type StateEncoding = "paper" | "structure";

export interface SearchSpace {
  inputs: string[];
  symbols: string[];
  /** Neurons enabled for search (domain-safe); others are fixed off. */
  allowed: boolean[];
  n0: number;
  n1: number;
  /** Products per output (the `terms` option). */
  n2: number;
  nA: number;
  nS: number;
  encoding: StateEncoding;
  /** Width of the paper part of the state: max layer width + 1. */
  paperWidth: number;
}

export const LAYERS = 3;

export function createSpace(
  inputs: readonly string[],
  symbols: readonly string[],
  terms: number,
  encoding: StateEncoding,
  allowed?: readonly boolean[],
): SearchSpace {
  const n0 = inputs.length;
  const n1 = n0 * symbols.length;
  const n2 = terms;
  const nA = Math.max(n1, n1 * n2, n2);
  const paperWidth = Math.max(n0, n1, n2, 1) + 1;
  const nS = encoding === "paper" ? paperWidth : paperWidth + n1 + n1 * n2 + LAYERS;
  return {
    inputs: [...inputs],
    symbols: [...symbols],
    allowed: allowed ? [...allowed] : new Array(n1).fill(true),
    n0,
    n1,
    n2,
    nA,
    nS,
    encoding,
    paperWidth,
  };
}

export function initialState(space: SearchSpace): Float64Array {
  const s = new Float64Array(space.nS);
  for (let i = 0; i < space.n0; i++) s[i] = 1;
  if (space.encoding === "structure") s[space.paperWidth + space.n1 + space.n1 * space.n2] = 1;
  return s;
}

/** s_{k+1} from s_k and a_k: linear in a_k for a fixed s_k. */
export function transition(
  space: SearchSpace,
  k: number,
  state: ArrayLike<number>,
  action: ArrayLike<number>,
): Float64Array {
  const { n1, n2, paperWidth } = space;
  const next = new Float64Array(space.nS);
  const v = (i: number) => state[i]!;
  if (k === 0) {
    // Z0[input(i)][i] = a_0[i]: neuron i takes the value of its input.
    for (let i = 0; i < n1; i++) next[i] = v(Math.floor(i / space.symbols.length)) * action[i]!;
  } else if (k === 1) {
    for (let j = 0; j < n2; j++) {
      let sum = 0;
      for (let i = 0; i < n1; i++) sum += v(i) * action[i * n2 + j]!;
      next[j] = sum;
    }
  } else {
    let sum = 0;
    for (let j = 0; j < n2; j++) sum += v(j) * action[j]!;
    next[0] = sum;
  }
  next[paperWidth - 1] = v(paperWidth - 1) + 1;
  if (space.encoding === "structure") {
    const history = paperWidth;
    for (let i = 0; i < n1 + n1 * n2; i++) next[history + i] = v(history + i);
    if (k === 0) for (let i = 0; i < n1; i++) next[history + i] = action[i]!;
    if (k === 1) for (let i = 0; i < n1 * n2; i++) next[history + n1 + i] = action[i]!;
    const onehot = history + n1 + n1 * n2;
    if (k + 1 < LAYERS) next[onehot + k + 1] = 1;
  }
  return next;
}

/** The partial structure after the actions taken so far (binary). */
export interface PartialStructure {
  neurons: number[];
  products?: Product[];
  sums?: number[];
}

export function partialStructure(space: SearchSpace, actions: readonly ArrayLike<number>[]): PartialStructure {
  const { n1, n2 } = space;
  const out: PartialStructure = { neurons: [] };
  if (actions.length === 0) return out;
  const a0 = actions[0]!;
  for (let i = 0; i < n1; i++) if (a0[i]! > 0.5) out.neurons.push(i);
  if (actions.length > 1) {
    const a1 = actions[1]!;
    out.products = Array.from({ length: n2 }, (_, j) => out.neurons.filter((i) => a1[i * n2 + j]! > 0.5));
  }
  if (actions.length > 2) {
    const a2 = actions[2]!;
    out.sums = Array.from({ length: n2 }, (_, j) => j).filter((j) => a2[j]! > 0.5);
  }
  return out;
}

/** The LoCaL structure of a full trajectory for `target` (only summed, non-empty products). */
export function structureOf(space: SearchSpace, target: string, partial: PartialStructure): LocalStructure {
  const used = (partial.sums ?? []).filter((j) => (partial.products?.[j]?.length ?? 0) > 0);
  return {
    inputs: [...space.inputs],
    symbols: [...space.symbols],
    outputs: [target],
    products: used.map((j) => [...partial.products![j]!]),
    sums: [used.map((_, k) => k)],
  };
}

export interface Limits {
  maxFactors: number;
  maxTerms: number;
  pearson: number;
}

/** Per-entry bounds and linear rows for layer k's action: what the argmin and the sampler respect. */
export interface LayerBounds {
  lower: Float64Array;
  upper: Float64Array;
  rows: { index: number[]; coef: number[]; lo: number; hi: number }[];
}

/**
 * Bounds of layer k given the partial structure and the kept products. Kept products occupy
 * the first product slots.
 */
export function layerBounds(
  space: SearchSpace,
  k: number,
  partial: PartialStructure,
  kept: readonly Product[],
  limits: Limits,
): LayerBounds {
  const { n1, n2, nA } = space;
  const lower = new Float64Array(nA);
  const upper = new Float64Array(nA);
  const rows: LayerBounds["rows"] = [];
  if (k === 0) {
    for (let i = 0; i < n1; i++) upper[i] = space.allowed[i] ? 1 : 0;
    for (const i of kept.flat()) lower[i] = upper[i] = 1;
    const all = Array.from({ length: n1 }, (_, i) => i).filter((i) => space.allowed[i]);
    if (all.length === 0)
      throw new InputError("no (input, symbol) pair lies in its symbol's domain: widen the symbol pool");
    rows.push({ index: all, coef: all.map(() => 1), lo: 1, hi: limits.maxFactors * limits.maxTerms });
  } else if (k === 1) {
    for (const i of partial.neurons) for (let j = 0; j < n2; j++) upper[i * n2 + j] = 1;
    kept.forEach((product, j) => {
      if (j >= n2) return;
      for (const i of partial.neurons) {
        const on = product.includes(i) ? 1 : 0;
        lower[i * n2 + j] = upper[i * n2 + j] = on;
      }
    });
    for (let j = 0; j < n2; j++) {
      const index = partial.neurons.map((i) => i * n2 + j);
      if (index.length > 0) rows.push({ index, coef: index.map(() => 1), lo: 0, hi: limits.maxFactors });
    }
  } else {
    const index: number[] = [];
    for (let j = 0; j < n2; j++) {
      if ((partial.products?.[j]?.length ?? 0) === 0) continue;
      upper[j] = 1;
      index.push(j);
    }
    kept.forEach((_, j) => {
      if (j < n2 && upper[j]) lower[j] = 1;
    });
    // Without the static constraint every product may be empty; then nothing can be summed.
    if (index.length > 0) rows.push({ index, coef: index.map(() => 1), lo: 1, hi: limits.maxTerms });
  }
  return { lower, upper, rows };
}

/** Fisher–Yates in place, drawing from `rng`. */
export function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** A random binary action that respects the bounds and, by construction, the row limits. */
export function randomAction(
  space: SearchSpace,
  k: number,
  bounds: LayerBounds,
  limits: Limits,
  rng: Rng,
): Float64Array {
  const { n1, n2, nA } = space;
  const a = Float64Array.from(bounds.lower);
  const free = (i: number) => bounds.upper[i]! > bounds.lower[i]!;
  if (k === 0) {
    const fixed = a.reduce((s, v) => s + v, 0);
    const candidates = shuffle(Array.from({ length: n1 }, (_, i) => i).filter(free), rng);
    const room = Math.max(0, Math.min(candidates.length, limits.maxFactors * limits.maxTerms - fixed));
    const count = Math.max(fixed > 0 ? 0 : 1, 1 + rng.int(Math.max(1, room)));
    for (const i of candidates.slice(0, Math.min(count, room))) a[i] = 1;
  } else if (k === 1) {
    for (let j = 0; j < n2; j++) {
      const slots = Array.from({ length: n1 }, (_, i) => i * n2 + j).filter(free);
      if (slots.length === 0) continue;
      const fixed = Array.from({ length: n1 }, (_, i) => a[i * n2 + j]!).reduce((s, v) => s + v, 0);
      const count = rng.int(Math.max(0, limits.maxFactors - fixed) + 1);
      for (const slot of shuffle(slots, rng).slice(0, count)) a[slot] = 1;
    }
  } else {
    const slots = Array.from({ length: n2 }, (_, j) => j).filter(free);
    for (const j of slots) if (rng.next() < 0.5) a[j] = 1;
    const on = () => Array.from({ length: n2 }, (_, j) => a[j]!).reduce((s, v) => s + v, 0);
    if (on() === 0 && slots.length > 0) a[slots[rng.int(slots.length)]!] = 1;
    while (on() > limits.maxTerms) {
      const active = slots.filter((j) => a[j] === 1);
      a[active[rng.int(active.length)]!] = 0;
    }
  }
  for (let i = 0; i < nA; i++) a[i] = Math.min(bounds.upper[i]!, Math.max(bounds.lower[i]!, a[i]!));
  return a;
}
