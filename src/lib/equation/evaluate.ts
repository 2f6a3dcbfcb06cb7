import type { SymbolPlugin } from "../plugins/index.js";
import { evaluateExpression } from "./expression.js";
import { factorColumn } from "./monomial.js";
import { applyOuter } from "./outer.js";
import type { Equation, Factor, Term } from "./types.js";

export type SymbolLookup = (name: string) => SymbolPlugin;
export type ColumnLookup = (name: string) => ArrayLike<number>;

export function evaluateFactor(factor: Factor, symbols: SymbolLookup, column: ArrayLike<number>): Float64Array {
  const symbol = symbols(factor.symbol);
  const w = symbol.innerWeight ? (factor.weight ?? 1) : 1;
  // A plain loop: Float64Array.from with a map function is several times slower (the search
  // evaluates every fitted structure's terms a few times over).
  const values = new Float64Array(column.length);
  for (let i = 0; i < values.length; i++) values[i] = symbol.evaluate(w * column[i]!);
  return values;
}

export function evaluateTerm(term: Term, symbols: SymbolLookup, columns: ColumnLookup, rows: number): Float64Array {
  const out = new Float64Array(rows).fill(term.coefficient);
  for (const factor of term.factors) {
    const symbol = symbols(factor.symbol);
    const w = symbol.innerWeight ? (factor.weight ?? 1) : 1;
    const column = factorColumn(factor, columns, rows);
    // The factor's values multiplied in place (the same products as evaluateFactor's, in order).
    for (let i = 0; i < rows; i++) out[i] = out[i]! * symbol.evaluate(w * column[i]!);
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
  if (equation.expression !== undefined) return evaluateExpression(equation.expression, symbols, columns, rows);
  const sum = (terms: readonly Term[]) => {
    const out = new Float64Array(rows);
    for (const term of terms) {
      const values = evaluateTerm(term, symbols, columns, rows);
      for (let i = 0; i < rows; i++) out[i] = out[i]! + values[i]!;
    }
    return out;
  };
  const out = sum(equation.terms);
  if (equation.denominator) {
    const below = sum(equation.denominator);
    for (let i = 0; i < rows; i++) out[i] = out[i]! / below[i]!;
  }
  return equation.outer ? applyOuter(equation.outer, out) : out;
}
