import { defineSymbol } from "../kinds.js";
import { log } from "../../core/index.js";

/**
 * log(w·x), natural logarithm. c·log(w·x) = c·log(w) + c·log(x): the weight is identifiable
 * but its gradient is only c/w, which is why Adam alone is slow here (docs/design.md#adam-slow-on-log). Beside
 * the additive constant it is not: c·log(w·x) + b reads c·log(x) + (b + c·log(w)) (`shift`).
 */
export default defineSymbol({
  kind: "symbol",
  name: "log",
  complexity: 2,
  innerWeight: true,
  text: (a) => `log(${a})`,
  latex: (a) => `\\log\\left(${a}\\right)`,
  evaluate: (x) => (x > 0 ? log(x) : Number.NaN),
  derivative: (x) => (x > 0 ? 1 / x : Number.NaN),
  apply: (x, tf) => tf.log(x),
  domain: (x) => x > 0,
  shift: (w) => (w > 0 ? { shift: log(w), weight: 1 } : { shift: 0, weight: w }),
  description: "natural logarithm; domain x > 0",
});
