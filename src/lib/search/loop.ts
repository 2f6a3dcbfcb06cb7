/**
 * The episode loop of one output: a method's strategy proposes, the fit cache fits, the hall of
 * fame and the stop rules judge, the strategy learns. Shared by every structure-search method.
 */
import { InputError } from "../errors.js";
import { allowedNeurons, ConstraintGate } from "./constraints.js";
import { createSpace, type Limits } from "./cmp.js";
import { createEvaluator, type Candidate } from "./evaluator.js";
import { HallOfFame } from "./hallOfFame.js";
import { shapeReward } from "./learner.js";
import { methodRow } from "./methods.js";
import type { SearchSettings, StopReason } from "./settings.js";
import { stopRules } from "./stop.js";
import type { OutputSearchResult, SearchContext, SearchRun } from "./strategy.js";
import { Trajectories, type Tally } from "./trajectory.js";

/** Creates what every strategy shares. */
function createRun(ctx: SearchContext, settings: SearchSettings): SearchRun {
  const space = createSpace(ctx.data.inputs, ctx.pool, settings.terms, settings.encoding, allowedNeurons(ctx.data, ctx.pool, ctx.symbols));
  const limits: Limits = { maxFactors: settings.maxFactors, maxTerms: settings.terms, pearson: settings.pearson };
  const gate = new ConstraintGate(ctx.constraints, space, limits);
  const evaluator = createEvaluator(ctx.data, ctx.target, ctx.symbols, ctx.reward, settings.fit);
  const nets = { r: ctx.rng.fork(), q: ctx.rng.fork() };
  const trajectories = new Trajectories(space, limits, gate, ctx.rng, ctx.target, settings.explore);
  return { ctx, settings, space, limits, gate, evaluator, trajectories, rng: ctx.rng, nets };
}

/** Lets Ctrl-C and a page's cancel through once per episode. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function searchOutput(ctx: SearchContext, settings: SearchSettings): Promise<OutputSearchResult> {
  const method = methodRow(settings.method);
  const run = createRun(ctx, settings);
  const strategy = method.strategy(run);
  const { evaluator, gate, trajectories } = run;
  const hall = new HallOfFame();
  const rules = stopRules(method.threshold, settings);
  const shape = shapeReward(settings.shaping, ctx.reward.range);
  const rewards: number[] = [];
  const counts: Tally = { greedy: 0, random: 0, rejected: 0 };
  let best: Candidate | undefined;
  let stopReason: StopReason = "episodes";
  let error: InputError | undefined;
  for (let episode = 1; episode <= settings.episodes; episode++) {
    await nextTick();
    if (ctx.signal?.aborted) {
      stopReason = "aborted";
      break;
    }
    try {
      // The products the dynamic constraint keeps change only between episodes.
      const keep = gate.kept();
      let trajectory = strategy.propose(keep);
      if (!trajectory) {
        stopReason = "exhausted";
        break;
      }
      let fitted = evaluator.evaluate(trajectory.structure);
      for (let attempt = 0; settings.avoidRepeats && strategy.redraw && fitted.cached && attempt < 20; attempt++) {
        trajectory = strategy.redraw(attempt, keep);
        fitted = evaluator.evaluate(trajectory.structure);
      }
      const { candidate, cached } = fitted;
      for (const key of ["greedy", "random", "rejected"] as const) counts[key] += trajectory.tally[key];
      hall.add(candidate);
      if (!cached) {
        gate.record(candidate);
        trajectories.record(trajectory, candidate.nrmse);
      }
      if (!best || candidate.nrmse < best.nrmse || (candidate.nrmse === best.nrmse && candidate.complexity < best.complexity)) best = candidate;
      const reward = shape(candidate.reward);
      rewards.push(candidate.reward);
      strategy.observe?.({ episode, trajectory, candidate, cached, reward });
      ctx.onEpisode?.({ target: ctx.target, episode, reward: candidate.reward, structures: evaluator.size, best, ...trajectory.tally, nets: strategy.nets });
      const stop = rules.find((rule) => rule.check({ candidate, reward, cached, structures: evaluator.size }));
      if (stop) {
        stopReason = stop.reason;
        break;
      }
    } catch (cause) {
      if (!(cause instanceof InputError)) throw cause;
      error = cause;
      stopReason = "error";
      break;
    }
  }
  const answer = method.answer === "best" ? best : (hall.choose() ?? best);
  return { target: ctx.target, best: answer, front: hall.front(), episodes: rewards.length, structures: evaluator.size, stopReason, error, rewards, actions: counts, fitSeconds: evaluator.seconds, nets: strategy.nets };
}
