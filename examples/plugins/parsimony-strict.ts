/**
 * A reward plugin: 1/(1 + NRMSE), discounted by 5 % per unit of complexity beyond the first
 * (multiplicatively: exp(−0.05·(complexity − 1))). Stricter than the built-in `parsimony`
 * (1 % per unit, floored at one half), and still within its range [0, 1]; among equations of one
 * size, an exact fit scores highest.
 *
 *   consolesr fit data.csv --plugin examples/plugins/parsimony-strict.ts --reward parsimony-strict --target y
 */
import type { RewardFit, RewardPlugin } from "consolesr/sdk";

export default {
  kind: "reward",
  name: "parsimony-strict",
  range: [0, 1],
  score: ({ nrmse, complexity }: RewardFit) => Math.exp(-0.05 * Math.max(0, complexity - 1)) / (1 + nrmse),
} satisfies RewardPlugin;
