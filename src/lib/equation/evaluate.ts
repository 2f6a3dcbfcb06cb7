import type { SymbolPlugin } from "../plugins.js";
import type { Equation, Factor, Term } from "./types.js";

export type SymbolLookup = (name: string) => SymbolPlugin;
export type ColumnLookup = (name: string) => ArrayLike<number>;

export function evaluateFactor(factor: Factor, symbols: SymbolLookup, column: ArrayLike<number>): Float64Array {
  const symbol = symbols(factor.symbol);
  const w = symbol.innerWeight ? (factor.weight ?? 1) : 1;
  return Float64Array.from(column, (x) => symbol.evaluate(w * x));
}

export function evaluateTerm(term: Term, symbols: SymbolLookup, columns: ColumnLookup, rows: number): Float64Array {
  const out = new Float64Array(rows).fill(term.coefficient);
  for (const factor of term.factors) {
    const values = evaluateFactor(factor, symbols, columns(factor.input));
    for (let i = 0; i < rows; i++) out[i] = out[i]! * values[i]!;
  }
  return out;
}

/** ŷ of an equation on named columns, in float64. */
export function evaluateEquation(
  equation: Equation,
  symbols: SymbolLookup,
  columns: ColumnLookup,
  rows: number,
): Float64Array {
  const out = new Float64Array(rows);
  for (const term of equation.terms) {
    const values = evaluateTerm(term, symbols, columns, rows);
    for (let i = 0; i < rows; i++) out[i] = out[i]! + values[i]!;
  }
  return out;
}
