import { defineSymbol } from "../kinds.js";
import { cos, sin } from "../../core/index.js";

/** sin(w·x); sin(−w·x) = −sin(w·x), so the printed weight is positive. */
export default defineSymbol({
  kind: "symbol",
  name: "sin",
  complexity: 2,
  innerWeight: true,
  text: (a) => `sin(${a})`,
  latex: (a) => `\\sin\\left(${a}\\right)`,
  evaluate: (x) => sin(x),
  derivative: (x) => cos(x),
  apply: (x, tf) => tf.sin(x),
  fold: (w) => (w < 0 ? { coefficient: -1, weight: -w } : { coefficient: 1, weight: w }),
  period: 2 * Math.PI,
  description: "sine",
});
