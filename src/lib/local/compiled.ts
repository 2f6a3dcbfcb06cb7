/**
 * A LoCaL structure reduced to what a fit touches: the neurons some output uses, the products
 * they form and the (product, output) terms with a weight in W2. Both fitting engines (tfjs
 * and float64 JS) and the equation extraction work on this form.
 */
import type { SymbolPlugin } from "../plugins/index.js";
import { neuronIndex, neuronOf, validateStructure, type LocalStructure } from "./structure.js";

export interface CompiledLocal {
  structure: LocalStructure;
  /** Active layer-1 neurons: their index in the full layer, input column and symbol. */
  neurons: { index: number; input: number; symbol: SymbolPlugin }[];
  /** Active products as lists of positions in `neurons`. */
  products: number[][];
  /** Terms: one W2 weight each, product `product` (position in `products`) into output `output`. */
  terms: { product: number; output: number }[];
  /** Positions in `neurons` whose symbol learns an inner weight. */
  inner: number[];
}

export function compileLocal(structure: LocalStructure, lookup: (name: string) => SymbolPlugin): CompiledLocal {
  validateStructure(structure);
  const usedProducts = [...new Set(structure.sums.flat())].sort((a, b) => a - b);
  const usedNeurons = [...new Set(usedProducts.flatMap((j) => structure.products[j]!))].sort((a, b) => a - b);
  const neuronPos = new Map(usedNeurons.map((n, k) => [n, k]));
  const productPos = new Map(usedProducts.map((j, k) => [j, k]));
  const neurons = usedNeurons.map((index) => {
    const { input, symbol } = neuronOf(structure, index);
    return { index, input, symbol: lookup(structure.symbols[symbol]!) };
  });
  const products = usedProducts.map((j) => structure.products[j]!.map((n) => neuronPos.get(n)!).sort((a, b) => a - b));
  const terms = structure.sums.flatMap((ps, output) => ps.map((j) => ({ product: productPos.get(j)!, output })));
  const inner = neurons.flatMap((n, k) => (n.symbol.innerWeight ? [k] : []));
  return { structure, neurons, products, terms, inner };
}

/** Weights of a fitted LoCaL in the paper's layout. */
export interface LocalWeights {
  /** Inner weight of every layer-1 neuron (n1); 1 where the symbol has none or the neuron is unused. */
  inner: number[];
  /** W2 (n2 × n3); 0 where Z2 masks the entry. */
  w2: number[][];
}

/** LocalWeights from a parameter vector θ = [inner weights of `inner` positions…, term coefficients…]. */
export function unpackWeights(c: CompiledLocal, theta: ArrayLike<number>): LocalWeights {
  const s = c.structure;
  const inner = new Array<number>(s.inputs.length * s.symbols.length).fill(1);
  c.inner.forEach((k, p) => {
    inner[c.neurons[k]!.index] = theta[p]!;
  });
  const w2 = s.products.map(() => new Array<number>(s.outputs.length).fill(0));
  const usedProducts = [...new Set(s.sums.flat())].sort((a, b) => a - b);
  c.terms.forEach((t, p) => {
    w2[usedProducts[t.product]!]![t.output] = theta[c.inner.length + p]!;
  });
  return { inner, w2 };
}

/** θ at the paper's initialisation: every trainable weight equal to `value` (1). */
export function initialTheta(c: CompiledLocal, value = 1): Float64Array {
  return new Float64Array(c.inner.length + c.terms.length).fill(value);
}

export { neuronIndex };
