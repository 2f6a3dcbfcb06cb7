import { defineSymbol } from "../../lib/plugins.js";

/** cos(w·x); cos is even, so the printed weight is |w| (the toy's two optima ±2.5 are one). */
export default defineSymbol({
  kind: "symbol",
  name: "cos",
  complexity: 2,
  innerWeight: true,
  text: (a) => `cos(${a})`,
  latex: (a) => `\\cos\\left(${a}\\right)`,
  evaluate: (x) => Math.cos(x),
  derivative: (x) => -Math.sin(x),
  apply: (x, tf) => tf.cos(x),
  fold: (w) => ({ coefficient: 1, weight: Math.abs(w) }),
  period: 2 * Math.PI,
  description: "cosine",
});
