import { defineSymbol } from "../kinds.js";
import { exp } from "../../core/index.js";

/** exp(w·x). */
export default defineSymbol({
  kind: "symbol",
  name: "exp",
  complexity: 2,
  innerWeight: true,
  text: (a) => `exp(${a})`,
  latex: (a) => `\\exp\\left(${a}\\right)`,
  evaluate: (x) => exp(x),
  derivative: (x) => exp(x),
  apply: (x, tf) => tf.exp(x),
  description: "exponential",
});
