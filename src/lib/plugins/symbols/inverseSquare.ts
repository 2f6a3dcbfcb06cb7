import { defineSymbol } from "../kinds.js";

/** x^-2 = 1/x² (inverse-square laws). No inner weight, as for x^-1; written `x^(-2)`. */
export default defineSymbol({
  kind: "symbol",
  name: "x^-2",
  complexity: 3,
  power: -2,
  innerWeight: false,
  text: (a) => `${a}^(-2)`,
  latex: (a) => `${a}^{-2}`,
  evaluate: (x) => (x !== 0 ? 1 / (x * x) : Number.NaN),
  derivative: (x) => (x !== 0 ? -2 / (x * x * x) : Number.NaN),
  // One reciprocal of the square: its gradient is -2x/(x²)², exact in float32 away from 0.
  apply: (x, tf) => tf.reciprocal(tf.square(x)),
  domain: (x) => x !== 0,
  description: "inverse square 1/x²; domain x ≠ 0",
});
