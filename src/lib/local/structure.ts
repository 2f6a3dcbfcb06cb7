/**
 * The structure of a one-block LoCaL network (paper §3.1): which (input, symbol) neurons of
 * the symbolic-activation layer feed which product (mask Z1), and which products are summed
 * into which output (mask Z2). Neuron i of layer 1 is input ⌊i/|Φ|⌋ under symbol i mod |Φ|.
 */
import { InputError } from "../core/index.js";

export interface LocalStructure {
  /** Layer-0 names (n0). */
  inputs: string[];
  /** The symbol pool Φ, by registry name; n1 = n0·|Φ|. */
  symbols: string[];
  /** Layer-3 names (n3). */
  outputs: string[];
  /** Z1 by columns: products[j] lists the layer-1 neurons multiplied into product j (n2 = products.length). */
  products: number[][];
  /** Z2 by columns: sums[o] lists the products summed into output o. */
  sums: number[][];
}

export interface Neuron {
  input: number;
  symbol: number;
}

export const neuronIndex = (s: Pick<LocalStructure, "symbols">, input: number, symbol: number): number =>
  input * s.symbols.length + symbol;

export const neuronOf = (s: Pick<LocalStructure, "symbols">, index: number): Neuron => ({
  input: Math.floor(index / s.symbols.length),
  symbol: index % s.symbols.length,
});

/** The 0/1 masks Z1 (n1 × n2) and Z2 (n2 × n3) of the paper. */
export function toMasks(s: LocalStructure): { z1: number[][]; z2: number[][] } {
  const n1 = s.inputs.length * s.symbols.length;
  const z1 = Array.from({ length: n1 }, () => new Array<number>(s.products.length).fill(0));
  s.products.forEach((neurons, j) => {
    for (const i of neurons) z1[i]![j] = 1;
  });
  const z2 = Array.from({ length: s.products.length }, () => new Array<number>(s.outputs.length).fill(0));
  s.sums.forEach((products, o) => {
    for (const j of products) z2[j]![o] = 1;
  });
  return { z1, z2 };
}

export function fromMasks(
  base: Pick<LocalStructure, "inputs" | "symbols" | "outputs">,
  z1: readonly (readonly number[])[],
  z2: readonly (readonly number[])[],
): LocalStructure {
  const n2 = z2.length;
  const products = Array.from({ length: n2 }, (_, j) => z1.flatMap((row, i) => (row[j] ? [i] : [])));
  const sums = base.outputs.map((_, o) => z2.flatMap((row, j) => (row[o] ? [j] : [])));
  return { inputs: [...base.inputs], symbols: [...base.symbols], outputs: [...base.outputs], products, sums };
}

/**
 * Throws on indices out of range or repeated factors. An empty product is the constant 1: summed
 * into an output, its weight is the output's additive constant (the search fits every structure
 * with one: search/evaluator.ts).
 */
export function validateStructure(s: LocalStructure): void {
  const n1 = s.inputs.length * s.symbols.length;
  if (s.sums.length !== s.outputs.length)
    throw new InputError(`structure: ${s.outputs.length} outputs but ${s.sums.length} sums`);
  s.products.forEach((neurons, j) => {
    if (new Set(neurons).size !== neurons.length) throw new InputError(`structure: product ${j} repeats a factor`);
    for (const i of neurons)
      if (!Number.isInteger(i) || i < 0 || i >= n1)
        throw new InputError(`structure: product ${j} names neuron ${i} of ${n1}`);
  });
  s.sums.forEach((products, o) => {
    for (const j of products) {
      if (!Number.isInteger(j) || j < 0 || j >= s.products.length)
        throw new InputError(`structure: output ${s.outputs[o]} names product ${j} of ${s.products.length}`);
    }
  });
}

/**
 * A canonical key: equal for structures that compute the same function family, whatever the
 * order of products or of factors. Used to cache fits by structure.
 */
export function structureKey(s: LocalStructure): string {
  const product = (j: number) => [...s.products[j]!].sort((a, b) => a - b).join(".");
  return s.sums
    .map((products, o) => `${s.outputs[o]}=${[...new Set(products.map(product))].sort().join("+")}`)
    .join(";");
}

/**
 * The structure with one additive constant per output: an empty product summed into every
 * output (any empty product it already has is reused, and a second one is not added).
 */
export function withConstant(s: LocalStructure): LocalStructure {
  let empty = s.products.findIndex((p) => p.length === 0);
  const products = s.products.map((p) => [...p]);
  if (empty < 0) {
    empty = products.length;
    products.push([]);
  }
  const sums = s.sums.map((ps) => (ps.includes(empty) ? [...ps] : [...ps, empty]));
  return { inputs: [...s.inputs], symbols: [...s.symbols], outputs: [...s.outputs], products, sums };
}
