import { defineSymbol } from "../kinds.js";

/** sqrt(w·x). Only c·sqrt(w) is identifiable, so the printed equation folds w into c. */
export default defineSymbol({
  kind: "symbol",
  name: "sqrt",
  complexity: 2,
  power: 0.5,
  innerWeight: true,
  text: (a) => `sqrt(${a})`,
  latex: (a) => `\\sqrt{${a}}`,
  evaluate: (x) => (x >= 0 ? Math.sqrt(x) : Number.NaN),
  derivative: (x) => (x > 0 ? 0.5 / Math.sqrt(x) : Number.NaN),
  // tf.sqrt of a negative is NaN on every backend, matching `evaluate`.
  apply: (x, tf) => tf.sqrt(x),
  domain: (x) => x > 0,
  fold: (w) => (w > 0 ? { coefficient: Math.sqrt(w), weight: 1 } : { coefficient: 1, weight: w }),
  description: "square root; domain x > 0",
});
