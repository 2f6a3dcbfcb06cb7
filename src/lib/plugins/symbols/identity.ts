import { defineSymbol } from "../kinds.js";

/** x: the input itself. */
export default defineSymbol({
  kind: "symbol",
  name: "x",
  complexity: 1,
  power: 1,
  innerWeight: false,
  text: (a) => a,
  latex: (a) => a,
  evaluate: (x) => x,
  derivative: () => 1,
  apply: (x) => x,
  description: "the input itself",
});
