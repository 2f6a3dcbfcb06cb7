/**
 * consolesr: the double-convex Q-learning with linear-algebra and product-level proposals
 * (docs/deviations.md). With proposal "linear" (the default) the first 16 episodes fit the
 * linear-algebra proposals (linear/proposer.ts) best first ("wide" adds backward elimination over
 * the whole library for sums of up to `terms` products); after them every other episode
 * takes the next one while any is left. The search's own episodes: a greedy one (probability
 * 1 − ε) scores, with the trained −R, the LP-greedy trajectory of −Q plus `candidates` others (a
 * quarter uniform rollouts, half edits of one of the best fitted structures (operators.ts), a
 * quarter crossovers of two of them; all in canonical slot order) and takes the best one not
 * fitted yet; the others are ε-greedy rollouts, as in the paper.
 */
import { QLearner } from "../learner.js";
import { crossover, mutate, type Products, type ProductLimits } from "../operators.js";
import type { Product } from "../../plugins/index.js";
import type { Outcome, ProposalStrategy, SearchRun } from "../strategy.js";
import type { Trajectory } from "../trajectory.js";
import { linearProposalsSteps, parametersOfProducts, warmStart, type LinearProposal } from "../linear/proposer.js";
import { structureKey } from "../../local/index.js";
import type { Steps } from "../../core/index.js";
import { frontScoreOf } from "../hallOfFame.js";

/** Linear-algebra proposals fitted at a size the search widens through (all of them at the last). */
const WIDENING_PROPOSALS = 16;

/** The linear-algebra proposals of a run's output (its data, pool and size), as interruptible steps. */
function* screenLinear(run: SearchRun): Steps<LinearProposal[]> {
  const { ctx, settings, space } = run;
  const y = ctx.data.y[ctx.data.targets.indexOf(ctx.target)]!;
  const screen = yield* linearProposalsSteps({
    x: ctx.data.x,
    y,
    pool: ctx.pool,
    allowed: space.allowed,
    lookup: (name) => ctx.symbols.get(name),
    maxFactors: settings.maxFactors,
    maxTerms: settings.terms,
    wide: settings.proposal === "wide",
    intercept: settings.constant,
    cache: run.screens,
  });
  run.screened += screen.columns;
  return screen.proposals;
}

export function consolesrStrategy(run: SearchRun): ProposalStrategy {
  const { settings, trajectories, rng, evaluator } = run;
  // Made on first use: a search whose first proposal is its answer never trains −Q or −R, and the
  // nets draw their weights from their own streams (run.nets), so a later start changes no bit.
  let made: QLearner | undefined;
  const learner = (): QLearner =>
    (made ??= new QLearner(run.space, settings, run.ctx.argmin, run.nets, rng, trajectories.limits));
  /** The best fitted structures by NRMSE, best first: the parents of the edits. */
  const parents: { nrmse: number; products: Products }[] = [];
  const limits: ProductLimits = {
    allowed: run.space.allowed.flatMap((ok, i) => (ok ? [i] : [])),
    maxFactors: settings.maxFactors,
    maxTerms: settings.terms,
  };

  /** The best unfitted candidate by the −R network (or a uniform draw when rank is "none"). */
  const pick = (pool: readonly Trajectory[]): Trajectory | undefined => {
    const fresh = new Map<string, Trajectory>();
    for (const t of pool) {
      const key = structureKey(t.structure);
      if (!fresh.has(key) && !evaluator.has(t.structure)) fresh.set(key, t);
    }
    const open = [...fresh.values()];
    if (open.length === 0) return undefined;
    if (settings.rank === "none") return open[rng.int(open.length)];
    let choice = open[0]!;
    let score = Number.POSITIVE_INFINITY;
    for (const t of open) {
      const v = learner().predicted(t);
      if (v < score) {
        score = v;
        choice = t;
      }
    }
    return choice;
  };

  const proposeOperators = (keep: readonly Product[]): Trajectory => {
    const pool: Trajectory[] = [trajectories.canonical(trajectories.rollout(0, keep, learner().policy))];
    const add = (t: Trajectory | null) => void (t && pool.push(t));
    const structures = () => parents.map((p) => p.products);
    for (let c = 0; c < settings.candidates; c++) {
      const r = rng.next();
      if (parents.length === 0 || r < 0.25) add(trajectories.canonical(trajectories.rollout(1, keep)));
      else if (r < 0.75 || parents.length < 2) {
        const parent = parents[rng.int(parents.length)]!.products;
        let child = mutate(parent, structures(), limits, rng).products;
        if (rng.next() < 0.3) child = mutate(child, structures(), limits, rng).products;
        add(trajectories.fromProducts(child));
      } else {
        const i = rng.int(parents.length);
        let j = rng.int(parents.length - 1);
        if (j >= i) j++;
        add(trajectories.fromProducts(crossover(parents[i]!.products, parents[j]!.products, limits, rng)));
      }
    }
    return pick(pool) ?? trajectories.rollout(1, keep);
  };

  /**
   * The linear-algebra proposals, screened once per size (by `prepare`, which the loop drives
   * before the size's promise and first proposal), taken in order.
   */
  let linear: LinearProposal[] | undefined;
  const screens = settings.proposal === "linear" || settings.proposal === "wide";
  let next = 0;
  let turn = 0;
  // A size the search widens through gets its best few proposals; the last size gets them all.
  const limit = () => (run.widening ? Math.min(linear!.length, WIDENING_PROPOSALS) : linear!.length);
  const proposeLinear = (): Trajectory | undefined => {
    if (!linear) throw new Error("consolesr: the linear proposals were not prepared");
    while (next < limit()) {
      const proposal = linear[next++]!;
      const t = trajectories.fromProducts(proposal.products);
      if (t && !evaluator.has(t.structure)) {
        evaluator.hint(t.structure, warmStart(proposal));
        return t;
      }
    }
    return undefined;
  };

  const observe = (o: Outcome) => {
    if (!o.cached && o.candidate.structure.products.length > 0) {
      parents.push({ nrmse: o.candidate.nrmse, products: o.candidate.structure.products.map((p) => [...p]) });
      parents.sort((a, b) => a.nrmse - b.nrmse);
      parents.length = Math.min(parents.length, settings.parents);
    }
    const seen = settings.proposal === "argmin" ? o.trajectory : trajectories.canonical(o.trajectory);
    learner().learn(o.trajectory, seen, o.reward, o.episode);
  };

  return {
    *prepare(need) {
      if (screens || need === "promise") linear ??= yield* screenLinear(run);
    },
    promisedScore: (rows) => {
      if (!linear) throw new Error("consolesr: the linear proposals were not prepared");
      const { pool, symbols } = run.ctx;
      const parameters = (products: number[][]) => parametersOfProducts(products, pool, (n) => symbols.get(n));
      return linear.reduce(
        (m, p) => Math.min(m, frontScoreOf(p.expected, parameters(p.products), rows)),
        Number.POSITIVE_INFINITY,
      );
    },
    promise: () => {
      if (!linear) throw new Error("consolesr: the linear proposals were not prepared");
      return linear.reduce((m, p) => Math.min(m, p.expected), Number.POSITIVE_INFINITY);
    },
    propose: (keep) => {
      // The best 16 linear-algebra proposals in a row; after them (at the last size), every
      // other episode, so that the Q-learning's own proposals are not held up by weak ones.
      turn++;
      const linearTurn =
        (settings.proposal === "linear" || settings.proposal === "wide") &&
        (next < WIDENING_PROPOSALS || turn % 2 === 0);
      const first = linearTurn ? proposeLinear() : undefined;
      if (first) return first;
      return settings.proposal !== "argmin" && rng.next() >= settings.epsilon
        ? proposeOperators(keep)
        : trajectories.rollout(settings.epsilon, keep, learner().policy);
    },
    redraw: (attempt, keep) => trajectories.rollout(attempt < 2 ? settings.epsilon : 1, keep, learner().policy),
    observe,
    get nets() {
      const { q, r } = learner();
      return { q, r };
    },
  };
}
