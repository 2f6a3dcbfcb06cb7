/**
 * The episode loop of one output: a method's strategy proposes, the fit cache fits, the hall of
 * fame and the stop rules judge, the strategy learns. Shared by every structure-search method.
 * An auto-sized search runs it over growing sizes (growth.ts), sharing the fit cache, the hall
 * of fame and the constraints' evidence; each size gets a fresh space and strategy.
 */
import { InputError } from "../errors.js";
import { allowedNeurons, ConstraintGate, type Evidence } from "./constraints.js";
import { createSpace, type Limits } from "./cmp.js";
import { createEvaluator, type Candidate, type Evaluator } from "./evaluator.js";
import { sizesOf, STAGE_PATIENCE, type Size } from "./growth.js";
import { HallOfFame } from "./hallOfFame.js";
import { shapeReward } from "./learner.js";
import { structureSearchRow } from "./methods.js";
import type { SearchSettings, StopReason } from "./settings.js";
import { stopRules } from "./stop.js";
import type { OutputSearchResult, ProposalStrategy, SearchContext, SearchRun } from "./strategy.js";
import type { Product } from "../plugins.js";
import { Trajectories, type Tally } from "./trajectory.js";

/** Creates what every strategy shares at one size. */
function createRun(
  ctx: SearchContext,
  settings: SearchSettings,
  evaluator: Evaluator,
  evidence: Evidence[],
  widening: boolean,
): SearchRun {
  const space = createSpace(
    ctx.data.inputs,
    ctx.pool,
    settings.terms,
    settings.encoding,
    allowedNeurons(ctx.data, ctx.pool, ctx.symbols),
  );
  const limits: Limits = { maxFactors: settings.maxFactors, maxTerms: settings.terms, pearson: settings.pearson };
  const gate = new ConstraintGate(ctx.constraints, space, limits, evidence);
  const nets = { r: ctx.rng.fork(), q: ctx.rng.fork() };
  const trajectories = new Trajectories(space, limits, gate, ctx.rng, ctx.target, settings.explore);
  return { ctx, settings, space, limits, gate, evaluator, trajectories, rng: ctx.rng, nets, screened: 0, widening };
}

/**
 * The strategy's next proposal fitted through the cache, a repeat redrawn (up to 20 times) when
 * avoidRepeats; undefined when the strategy has nothing left.
 */
function fitNext(strategy: ProposalStrategy, evaluator: Evaluator, keep: readonly Product[], avoidRepeats: boolean) {
  let trajectory = strategy.propose(keep);
  if (!trajectory) return undefined;
  let fitted = evaluator.evaluate(trajectory.structure);
  for (let attempt = 0; avoidRepeats && strategy.redraw && fitted.cached && attempt < 20; attempt++) {
    trajectory = strategy.redraw(attempt, keep);
    fitted = evaluator.evaluate(trajectory.structure);
  }
  return { trajectory, ...fitted };
}

/** Lets Ctrl-C and a page's cancel through once per episode. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function searchOutput(ctx: SearchContext, settings: SearchSettings): Promise<OutputSearchResult> {
  const method = structureSearchRow(settings.method);
  const evaluator = createEvaluator(ctx.data, ctx.target, ctx.symbols, ctx.reward, settings.fit);
  const evidence: Evidence[] = [];
  const hall = new HallOfFame();
  const shape = shapeReward(settings.shaping, ctx.reward.range);
  const sizes = sizesOf(settings);
  const rewards: number[] = [];
  const counts: Tally = { greedy: 0, random: 0, rejected: 0 };
  let best: Candidate | undefined;
  let stopReason: StopReason = "episodes";
  let error: InputError | undefined;
  let episode = 0;
  const runs: SearchRun[] = [];
  let reached: Size = sizes[0]!;
  let strategy: ProposalStrategy | undefined;
  stages: for (const [stage, size] of sizes.entries()) {
    const last = stage === sizes.length - 1;
    const run = createRun(ctx, { ...settings, ...size }, evaluator, evidence, !last);
    runs.push(run);
    const rules = stopRules(method.threshold, settings);
    strategy = method.strategy(run);
    reached = size;
    // A size whose screening promises no real gain over the best so far is passed over.
    if (!last && best && strategy.promise && !(strategy.promise() < 0.5 * best.nrmse)) continue;
    let stalled = 0;
    while (episode < settings.episodes) {
      episode++;
      await nextTick();
      if (ctx.signal?.aborted) {
        stopReason = "aborted";
        break stages;
      }
      try {
        // (The products the dynamic constraint keeps change only between episodes.)
        const fitted = fitNext(strategy, evaluator, run.gate.kept(), settings.avoidRepeats);
        if (!fitted) {
          episode--;
          if (!last) break;
          stopReason = "exhausted";
          break stages;
        }
        const { trajectory, candidate, cached } = fitted;
        for (const key of ["greedy", "random", "rejected"] as const) counts[key] += trajectory.tally[key];
        hall.add(candidate);
        if (!cached) {
          run.gate.record(candidate);
          run.trajectories.record(trajectory, candidate.nrmse);
          stalled = best && !(candidate.nrmse < 0.99 * best.nrmse) ? stalled + 1 : 0;
        }
        if (
          !best ||
          candidate.nrmse < best.nrmse ||
          (candidate.nrmse === best.nrmse && candidate.complexity < best.complexity)
        )
          best = candidate;
        const reward = shape(candidate.reward);
        rewards.push(candidate.reward);
        strategy.observe?.({ episode, trajectory, candidate, cached, reward });
        ctx.onEpisode?.({
          target: ctx.target,
          episode,
          reward: candidate.reward,
          structures: evaluator.size,
          best,
          ...trajectory.tally,
          nets: strategy.nets,
        });
        const stop = rules.find((rule) => rule.check({ candidate, reward, cached, structures: evaluator.size }));
        if (stop && (last || stop.reason !== "exhausted")) {
          stopReason = stop.reason;
          break stages;
        }
        // A used-up or stalled size widens (the last size runs to a stop rule).
        if (!last && (stop || stalled >= STAGE_PATIENCE)) break;
      } catch (cause) {
        if (!(cause instanceof InputError)) throw cause;
        error = cause;
        stopReason = "error";
        break stages;
      }
    }
    if (episode >= settings.episodes) break;
  }
  const screened = runs.reduce((sum, run) => sum + run.screened, 0);
  const answer = method.answer === "best" ? best : (hall.choose() ?? best);
  return {
    target: ctx.target,
    best: answer,
    front: hall.front(),
    episodes: rewards.length,
    structures: evaluator.size,
    stopReason,
    error,
    rewards,
    actions: counts,
    fitSeconds: evaluator.seconds,
    screened,
    size: reached,
    nets: strategy?.nets,
  };
}
