import type { OuterName } from "./outer.js";

/** An equation is a sum of terms; a term is a coefficient times a product of unary factors. */
export interface Factor {
  /** Symbol name in the registry (x, x^2, cos, …). */
  symbol: string;
  /** Input column. */
  input: string;
  /** Inner weight w of f(w·x), for symbols that have one. */
  weight?: number;
}

export interface Term {
  coefficient: number;
  factors: Factor[];
}

export interface Equation {
  target: string;
  terms: Term[];
  /**
   * An outer function g of the whole sum: y = g(Σ terms) (outer.ts; docs/design.md#outer).
   * Absent: y is the sum itself.
   */
  outer?: OuterName;
}
