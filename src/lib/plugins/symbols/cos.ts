import { defineSymbol } from "../kinds.js";
import { cos, sin } from "../../core/index.js";

/** cos(w·x); cos is even, so the printed weight is |w| (the toy's two optima ±2.5 are one). */
export default defineSymbol({
  kind: "symbol",
  name: "cos",
  complexity: 2,
  innerWeight: true,
  text: (a) => `cos(${a})`,
  latex: (a) => `\\cos\\left(${a}\\right)`,
  evaluate: (x) => cos(x),
  derivative: (x) => -sin(x),
  apply: (x, tf) => tf.cos(x),
  fold: (w) => ({ coefficient: 1, weight: Math.abs(w) }),
  period: 2 * Math.PI,
  description: "cosine",
});
