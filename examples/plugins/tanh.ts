/**
 * A symbol plugin: tanh(w·x), with a learned inner weight w (starting at 1). Its name, my.tanh, is
 * dotted: no built-in name has a dot, so a dotted name can never clash with one, today's or a
 * later version's (a built-in tanh, say). It prints, and --form reads it, as tanh(…).
 *
 *   consolesr check-plugin examples/plugins/tanh.ts
 *   consolesr fit data.csv --plugin examples/plugins/tanh.ts --symbols my.tanh,x --target y
 *
 * The file imports nothing at run time: tfjs arrives as the second argument of `apply`, and the
 * type import below is erased when the file loads (it only lets `tsc` check the object).
 */
import type { SymbolPlugin } from "consolesr/sdk";

export default {
  kind: "symbol",
  name: "my.tanh",
  complexity: 2,
  innerWeight: true,
  text: (a) => `tanh(${a})`,
  latex: (a) => `\\tanh\\left(${a}\\right)`,
  evaluate: (x) => Math.tanh(x),
  derivative: (x) => 1 - Math.tanh(x) ** 2,
  apply: (x, tf) => tf.tanh(x),
  // tanh is odd: tanh(−w·x) = −tanh(w·x), so equations print a positive weight.
  fold: (w) => (w < 0 ? { coefficient: -1, weight: -w } : { coefficient: 1, weight: w }),
  description: "hyperbolic tangent",
} satisfies SymbolPlugin;
