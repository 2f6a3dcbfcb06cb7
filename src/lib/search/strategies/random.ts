/**
 * random: trajectories drawn at random within the constraints, with the same CMP, fitter and
 * cache as the learned search (the baseline it has to beat). With explore "mutate" (the default)
 * half of the draws at each layer flip bits of the best trajectory so far.
 */
import type { ProposalStrategy, SearchRun } from "../strategy.js";

export function randomStrategy(run: SearchRun): ProposalStrategy {
  const draw = (keep: Parameters<ProposalStrategy["propose"]>[0]) => run.trajectories.rollout(1, keep);
  return { propose: draw, redraw: (_attempt, keep) => draw(keep) };
}
