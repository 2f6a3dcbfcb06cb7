/**
 * Between LoCaL structures and equations: the equation a fitted LoCaL computes, and the
 * LoCaL structure of a set of equations' forms.
 */
import type { LocalWeights } from "./compiled.js";
import { neuronIndex, neuronOf, type LocalStructure } from "./structure.js";
import type { SymbolLookup } from "../equation/index.js";
import type { Equation, Factor } from "../equation/index.js";

/** The raw (unsimplified) equations of a fitted LoCaL, one per output. */
export function equationsOfLocal(structure: LocalStructure, weights: LocalWeights, symbols: SymbolLookup): Equation[] {
  return structure.outputs.map((target, o) => ({
    target,
    terms: structure.sums[o]!.map((j) => ({
      coefficient: weights.w2[j]![o]!,
      factors: structure.products[j]!.map((i): Factor => {
        const { input, symbol } = neuronOf(structure, i);
        const name = structure.symbols[symbol]!;
        const factor: Factor = { symbol: name, input: structure.inputs[input]! };
        if (symbols(name).innerWeight) factor.weight = weights.inner[i]!;
        return factor;
      }),
    })),
  }));
}

/**
 * The LoCaL structure whose products are the terms of `equations` (coefficients and weights
 * ignored). Equal products are shared between outputs, as in one LoCaL block. The symbol pool
 * is the symbols the equations use, in `symbolOrder`.
 */
export function structureOfEquations(
  equations: readonly Equation[],
  inputs: readonly string[],
  symbolOrder: readonly string[],
): LocalStructure {
  const used = new Set(equations.flatMap((e) => e.terms.flatMap((t) => t.factors.map((f) => f.symbol))));
  // The pool's symbols in its order, then any other the forms name (a derived power: q^4).
  const symbols = [...symbolOrder.filter((s) => used.has(s)), ...[...used].filter((s) => !symbolOrder.includes(s))];
  const base = { inputs: [...inputs], symbols, outputs: equations.map((e) => e.target) };
  const products: number[][] = [];
  const keys: string[] = [];
  const sums = equations.map((equation) =>
    equation.terms.map((term) => {
      const neurons = term.factors
        .map((f) => neuronIndex(base, inputs.indexOf(f.input), symbols.indexOf(f.symbol)))
        .sort((a, b) => a - b);
      const key = neurons.join(".");
      let j = keys.indexOf(key);
      if (j < 0) {
        j = products.length;
        products.push(neurons);
        keys.push(key);
      }
      return j;
    }),
  );
  return { ...base, products, sums };
}

/** The form of an equation: its structure with every coefficient 1 and no inner weights. */
export function formOf(equation: Equation): Equation {
  return {
    target: equation.target,
    terms: equation.terms.map((t) => ({
      coefficient: 1,
      factors: t.factors.map(({ symbol, input }) => ({ symbol, input })),
    })),
  };
}
