import { defineSymbol } from "../kinds.js";

/** x^3. No inner weight, for the same reason as x^2. */
export default defineSymbol({
  kind: "symbol",
  name: "x^3",
  complexity: 3,
  power: 3,
  innerWeight: false,
  text: (a) => `${a}^3`,
  latex: (a) => `${a}^{3}`,
  evaluate: (x) => x * x * x,
  derivative: (x) => 3 * x * x,
  apply: (x, tf) => tf.mul(tf.square(x), x),
  description: "cube",
});
