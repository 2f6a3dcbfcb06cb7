import { defineSymbol } from "../kinds.js";

/**
 * x^-1 = 1/x. No inner weight, for the same reason as x^2: (w·x)^-1 = w^-1·x^-1 would only
 * duplicate the output coefficient. Written `x^(-1)`: the parentheses keep the minus sign out of
 * the --form parser's split into terms, and SymPy reads it after ^ → **.
 */
export default defineSymbol({
  kind: "symbol",
  name: "x^-1",
  complexity: 2,
  power: -1,
  innerWeight: false,
  text: (a) => `${a}^(-1)`,
  latex: (a) => `${a}^{-1}`,
  evaluate: (x) => (x !== 0 ? 1 / x : Number.NaN),
  derivative: (x) => (x !== 0 ? -1 / (x * x) : Number.NaN),
  apply: (x, tf) => tf.reciprocal(x),
  domain: (x) => x !== 0,
  description: "reciprocal 1/x; domain x ≠ 0",
});
