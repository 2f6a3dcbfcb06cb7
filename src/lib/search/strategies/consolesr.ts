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
import type { Icnn } from "../icnn.js";

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
  const search = new ConsolesrSearch(run);
  return {
    *prepare(need) {
      yield* search.prepare(need);
    },
    promisedScore: (rows) => search.promisedScore(rows),
    promise: () => search.promise(),
    propose: (keep) => search.propose(keep),
    redraw: (attempt, keep) => search.redraw(attempt, keep),
    observe: (o) => search.observe(o),
    get nets() {
      return search.nets();
    },
  };
}

/** One size's consolesr search: the learner, the parents of the edits and the linear-algebra proposals. */
class ConsolesrSearch {
  private readonly settings: SearchRun["settings"];
  private readonly trajectories: SearchRun["trajectories"];
  private readonly rng: SearchRun["rng"];
  private readonly evaluator: SearchRun["evaluator"];
  // Made on first use: a search whose first proposal is its answer never trains −Q or −R, and the
  // nets draw their weights from their own streams (run.nets), so a later start changes no bit.
  private made: QLearner | undefined;
  /** The best fitted structures by NRMSE, best first: the parents of the edits. */
  private readonly parents: { nrmse: number; products: Products }[] = [];
  private readonly limits: ProductLimits;
  /**
   * The linear-algebra proposals, screened once per size (by `prepare`, which the loop drives
   * before the size's promise and first proposal), taken in order.
   */
  private linear: LinearProposal[] | undefined;
  private readonly screens: boolean;
  /** The next linear proposal to take, and the episodes proposed so far. */
  private next = 0;
  private turn = 0;

  constructor(private readonly run: SearchRun) {
    const { settings } = run;
    this.settings = settings;
    this.trajectories = run.trajectories;
    this.rng = run.rng;
    this.evaluator = run.evaluator;
    this.limits = {
      allowed: run.space.allowed.flatMap((ok, i) => (ok ? [i] : [])),
      maxFactors: settings.maxFactors,
      maxTerms: settings.terms,
    };
    this.screens = settings.proposal === "linear" || settings.proposal === "wide";
  }

  private learner(): QLearner {
    const { run, settings } = this;
    this.made ??= new QLearner(run.space, settings, run.ctx.argmin, run.nets, this.rng, this.trajectories.limits);
    return this.made;
  }

  *prepare(need: "promise" | "propose"): Steps<void> {
    if (this.screens || need === "promise") this.linear ??= yield* screenLinear(this.run);
  }

  private prepared(): LinearProposal[] {
    if (!this.linear) throw new Error("consolesr: the linear proposals were not prepared");
    return this.linear;
  }

  promisedScore(rows: number): number {
    const linear = this.prepared();
    const { pool, symbols } = this.run.ctx;
    const parameters = (products: number[][]) => parametersOfProducts(products, pool, (n) => symbols.get(n));
    return linear.reduce(
      (m, p) => Math.min(m, frontScoreOf(p.expected, parameters(p.products), rows)),
      Number.POSITIVE_INFINITY,
    );
  }

  promise(): number {
    return this.prepared().reduce((m, p) => Math.min(m, p.expected), Number.POSITIVE_INFINITY);
  }

  propose(keep: readonly Product[]): Trajectory | undefined {
    const { settings } = this;
    // The best 16 linear-algebra proposals in a row; after them (at the last size), every
    // other episode, so that the Q-learning's own proposals are not held up by weak ones.
    this.turn++;
    const linearTurn =
      (settings.proposal === "linear" || settings.proposal === "wide") &&
      (this.next < WIDENING_PROPOSALS || this.turn % 2 === 0);
    const first = linearTurn ? this.proposeLinear() : undefined;
    if (first) return first;
    return settings.proposal !== "argmin" && this.rng.next() >= settings.epsilon
      ? this.proposeOperators(keep)
      : this.trajectories.rollout(settings.epsilon, keep, this.learner().policy);
  }

  redraw(attempt: number, keep: readonly Product[]): Trajectory {
    return this.trajectories.rollout(attempt < 2 ? this.settings.epsilon : 1, keep, this.learner().policy);
  }

  observe(o: Outcome): void {
    const { parents, settings, trajectories } = this;
    if (!o.cached && o.candidate.structure.products.length > 0) {
      parents.push({ nrmse: o.candidate.nrmse, products: o.candidate.structure.products.map((p) => [...p]) });
      parents.sort((a, b) => a.nrmse - b.nrmse);
      parents.length = Math.min(parents.length, settings.parents);
    }
    const seen = settings.proposal === "argmin" ? o.trajectory : trajectories.canonical(o.trajectory);
    this.learner().learn(o.trajectory, seen, o.reward, o.episode);
  }

  nets(): { q: Icnn; r: Icnn } {
    const { q, r } = this.learner();
    return { q, r };
  }

  /** The next linear-algebra proposal not fitted yet, its fit warm-started; undefined when none is left. */
  private proposeLinear(): Trajectory | undefined {
    const linear = this.prepared();
    // A size the search widens through gets its best few proposals; the last size gets them all.
    const limit = () => (this.run.widening ? Math.min(linear.length, WIDENING_PROPOSALS) : linear.length);
    while (this.next < limit()) {
      const proposal = linear[this.next++]!;
      const t = this.trajectories.fromProducts(proposal.products);
      if (t && !this.evaluator.has(t.structure)) {
        this.evaluator.hint(t.structure, warmStart(proposal));
        return t;
      }
    }
    return undefined;
  }

  /** The greedy episode: the LP-greedy trajectory of −Q and `candidates` others, the best by −R. */
  private proposeOperators(keep: readonly Product[]): Trajectory {
    const { trajectories } = this;
    const pool: Trajectory[] = [trajectories.canonical(trajectories.rollout(0, keep, this.learner().policy))];
    for (let c = 0; c < this.settings.candidates; c++) {
      const t = this.drawCandidate(keep);
      if (t) pool.push(t);
    }
    return this.pick(pool) ?? trajectories.rollout(1, keep);
  }

  /** A quarter uniform rollouts, half edits of one parent, a quarter crossovers of two (null: not a structure). */
  private drawCandidate(keep: readonly Product[]): Trajectory | null {
    const { parents, limits, rng, trajectories } = this;
    const structures = () => parents.map((p) => p.products);
    const r = rng.next();
    if (parents.length === 0 || r < 0.25) return trajectories.canonical(trajectories.rollout(1, keep));
    if (r < 0.75 || parents.length < 2) {
      const parent = parents[rng.int(parents.length)]!.products;
      let child = mutate(parent, structures(), limits, rng).products;
      if (rng.next() < 0.3) child = mutate(child, structures(), limits, rng).products;
      return trajectories.fromProducts(child);
    }
    const i = rng.int(parents.length);
    let j = rng.int(parents.length - 1);
    if (j >= i) j++;
    return trajectories.fromProducts(crossover(parents[i]!.products, parents[j]!.products, limits, rng));
  }

  /** The best unfitted candidate by the −R network (or a uniform draw when rank is "none"). */
  private pick(pool: readonly Trajectory[]): Trajectory | undefined {
    const fresh = new Map<string, Trajectory>();
    for (const t of pool) {
      const key = structureKey(t.structure);
      if (!fresh.has(key) && !this.evaluator.has(t.structure)) fresh.set(key, t);
    }
    const open = [...fresh.values()];
    if (open.length === 0) return undefined;
    if (this.settings.rank === "none") return open[this.rng.int(open.length)];
    let choice = open[0]!;
    let score = Number.POSITIVE_INFINITY;
    for (const t of open) {
      const v = this.learner().predicted(t);
      if (v < score) {
        score = v;
        choice = t;
      }
    }
    return choice;
  }
}
