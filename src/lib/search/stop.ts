/**
 * The stop rules checked after every episode, in this order: the method's threshold (a reward
 * or an NRMSE), "exhausted" (the reachable space is used up: episodes in a row fitted nothing
 * new), and the structure budget. The episode cap and an abort are the loop's own.
 */
import type { Candidate } from "./evaluator.js";
import type { SearchSettings, StopReason } from "./settings.js";

/** Episodes in a row without a new structure after which a search stops as "exhausted". */
export const STALL_EPISODES = 100;

export interface EpisodeResult {
  candidate: Candidate;
  /** The shaped reward. */
  reward: number;
  cached: boolean;
  /** Distinct structures fitted so far. */
  structures: number;
}

/**
 * "reward": the paper's |R − 1| ≤ λ (it accepts any NRMSE ≤ 0.0101, docs/deviations.md);
 * "nrmse": train NRMSE of the simplified equation ≤ stopNrmse.
 */
export type Threshold = "reward" | "nrmse";

export interface StopRule {
  reason: StopReason;
  /** Whether the search stops after this episode (a rule may count episodes). */
  check(episode: EpisodeResult): boolean;
}

export function thresholdRule(threshold: Threshold, settings: Pick<SearchSettings, "lambda" | "stopNrmse">): StopRule {
  const check =
    threshold === "reward"
      ? (e: EpisodeResult) => Math.abs(e.reward - 1) <= settings.lambda
      : (e: EpisodeResult) => e.candidate.nrmse <= settings.stopNrmse;
  return { reason: "reward-threshold", check };
}

export function exhaustedRule(patience = STALL_EPISODES): StopRule {
  let stalled = 0;
  return {
    reason: "exhausted",
    check: (e) => {
      stalled = e.cached ? stalled + 1 : 0;
      return stalled >= patience;
    },
  };
}

export function budgetRule(budget: number): StopRule {
  return { reason: "budget", check: (e) => budget > 0 && e.structures >= budget };
}

export function stopRules(threshold: Threshold, settings: SearchSettings): StopRule[] {
  return [thresholdRule(threshold, settings), exhaustedRule(), budgetRule(settings.budget)];
}
