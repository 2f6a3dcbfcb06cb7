/**
 * paper: Algorithm 2 as written. Each layer's action is the rounded LP argmin of −Q with
 * probability 1 − ε, else uniform at random; the episode's reward trains −R and −Q.
 */
import { QLearner } from "../learner.js";
import type { ProposalStrategy, SearchRun } from "../strategy.js";

export function paperStrategy(run: SearchRun): ProposalStrategy {
  const { settings, trajectories } = run;
  const learner = new QLearner(run.space, settings, run.ctx.argmin, run.nets, run.rng, trajectories.limits);
  return {
    propose: (keep) => trajectories.rollout(settings.epsilon, keep, learner.policy),
    // Two ε-greedy retries, then fully random ones.
    redraw: (attempt, keep) => trajectories.rollout(attempt < 2 ? settings.epsilon : 1, keep, learner.policy),
    observe: (o) => learner.learn(o.trajectory, o.trajectory, o.reward, o.episode),
    nets: { q: learner.q, r: learner.r },
  };
}
