import { defineReward } from "../kinds.js";

/** The paper's reward R = 1/(1 + NRMSE): 1 for an exact fit, towards 0 for a poor one. */
export default defineReward({
  kind: "reward",
  name: "inv-nrmse",
  range: [0, 1],
  score: ({ nrmse }) => 1 / (1 + nrmse),
});
