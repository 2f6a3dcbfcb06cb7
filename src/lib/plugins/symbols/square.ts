import { defineSymbol } from "../kinds.js";

/** x^2. No inner weight: (w·x)^2 = w^2·x^2 would only duplicate the output coefficient. */
export default defineSymbol({
  kind: "symbol",
  name: "x^2",
  complexity: 2,
  power: 2,
  innerWeight: false,
  text: (a) => `${a}^2`,
  latex: (a) => `${a}^{2}`,
  evaluate: (x) => x * x,
  derivative: (x) => 2 * x,
  apply: (x, tf) => tf.square(x),
  description: "square",
});
