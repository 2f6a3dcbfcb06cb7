import type { Expression } from "./expression.js";
import type { OuterName } from "./outer.js";

/** An equation is a sum of terms; a term is a coefficient times a product of unary factors. */
export interface Factor {
  /** Symbol name in the registry (x, x^2, cos, …). */
  symbol: string;
  /** Input column. */
  input: string;
  /** Inner weight w of f(w·x), for symbols that have one. */
  weight?: number;
  /**
   * The argument is a product of powers of inputs, Π input^power, not one input (monomial.ts;
   * docs/design.md#monomial); `input` is then the monomial's text ("a*b/c").
   */
  monomial?: MonomialPart[];
}

/** One input of a monomial argument and its (small integer) power. */
export interface MonomialPart {
  input: string;
  power: number;
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
  /**
   * A denominator: y = g(Σ terms / Σ denominator) (docs/design.md#ratio); a term without
   * factors is its constant. Absent: no denominator.
   */
  denominator?: Term[];
  /**
   * The whole law as an expression tree (expression.ts; docs/design.md#expression), for a law that is
   * no LoCaL, its outer function or ratio: y = expression, and `terms` (then empty) are not read.
   */
  expression?: Expression;
}
