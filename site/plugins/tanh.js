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
  // tanh is odd: tanh(−w·x) = −tanh(w·x), so an equation prints a positive weight.
  fold: (w) => (w < 0 ? { coefficient: -1, weight: -w } : { coefficient: 1, weight: w }),
};
