import { defineReward } from "../kinds.js";

/**
 * An example of trading accuracy for size: 1/(1 + NRMSE) discounted by 1 % per unit of
 * complexity beyond the first, floored at half the accuracy reward. An exact fit still scores
 * above any inexact one of the same size.
 */
export default defineReward({
  kind: "reward",
  name: "parsimony",
  range: [0, 1],
  score: ({ nrmse, complexity }) => (1 / (1 + nrmse)) * Math.max(0.5, 1 - 0.01 * Math.max(0, complexity - 1)),
});
