/**
 * The double-convex deep Q-learning of paper Algorithm 2 for one output. −R(s,a) and −Q(s,a) are
 * input-convex networks; the greedy action is the argmin of −Q over the relaxed action box
 * (an exact LP for a ReLU ICNN, solved by highs), rounded at 0.5; ε-greedy exploration,
 * a replay buffer, TD targets from a target network refreshed every T0 episodes.
 *
 * consolesr's default mode differs where the literal algorithm measurably fails
 * (README "Deviations"): the state carries the structure built so far, the stop rule is a
 * train NRMSE threshold instead of |R − 1| ≤ λ, the dynamic constraint keeps a product only at
 * |ρ| ≥ 0.9999, and a greedy trajectory that repeats a fitted structure is redrawn.
 */
import type { Dataset } from "../data/dataset.js";
import { InputError } from "../errors.js";
import type { FitOptions } from "../local/fit.js";
import type { ConstraintContext, ConstraintPlugin, Product, Registry, RewardPlugin, SymbolPlugin } from "../plugins.js";
import type { Rng } from "../rng.js";
import type { ArgminSolver } from "./argmin.js";
import { roundAction } from "./argmin.js";
import { createEvaluator, HallOfFame, type Candidate } from "./candidate.js";
import { structureKey } from "../local/structure.js";
import {
  createSpace,
  initialState,
  layerBounds,
  LAYERS,
  partialStructure,
  randomAction,
  shuffle,
  structureOf,
  transition,
  type Limits,
  type PartialStructure,
  type SearchSpace,
  type StateEncoding,
} from "./cmp.js";
import { Icnn } from "./icnn.js";

/**
 * consolesr and paper learn (double-convex Q-learning); random and enumerate are the baselines
 * with the same CMP, constraints, fitter and cache: uniform random trajectories, and every
 * structure in order of size.
 */
export type SearchMethod = "consolesr" | "paper" | "random" | "enumerate";

export interface SearchSettings {
  method: SearchMethod;
  /** Maximum episodes T (paper 600). */
  episodes: number;
  /** Maximum distinct structures fitted per output (0: no limit); the benchmark's equal budget. */
  budget: number;
  gamma: number;
  epsilon: number;
  /** Paper stop rule: |R − 1| ≤ λ. */
  lambda: number;
  /** consolesr stop rule: train NRMSE of the simplified equation ≤ this. */
  stopNrmse: number;
  targetEvery: number;
  icnnLearningRate: number;
  epochs: number;
  batch: number;
  hidden: number[];
  terms: number;
  maxFactors: number;
  pearson: number;
  encoding: StateEncoding;
  /** Redraw a greedy trajectory whose structure was already fitted (consolesr). */
  avoidRepeats: boolean;
  /**
   * What the ICNNs learn from the reward: "raw" (paper) or "log", −log10(1 − u)/12 of the reward
   * normalised to u ∈ [0, 1], which spreads the near-exact fits R = 0.99…1 that raw R squeezes.
   */
  shaping: "raw" | "log";
  /** Exploration: "uniform" random actions (paper) or half of them "mutate" the best trajectory. */
  explore: "uniform" | "mutate";
  /**
   * How a greedy episode picks its trajectory: "argmin" (paper: the LP argmin of −Q at each
   * layer) or "surrogate": the LP-greedy trajectory and `candidates` sampled ones are scored by
   * the trained −R network and the best unfitted one is taken (the convex reward model used as
   * a surrogate, batching candidates).
   */
  proposal: "argmin" | "surrogate" | "operators";
  candidates: number;
  /**
   * How proposals are ranked: by the trained −R network ("reward-net"), or not at all ("none":
   * a uniformly drawn unfitted candidate, the ablation that shows what the learned ranking adds).
   */
  rank: "reward-net" | "none";
  /** Structures kept as parents for the "operators" proposals (the best by NRMSE). */
  parents: number;
  /** Mutations start from one of the `elite` best trajectories (1: the best only). */
  elite: number;
  fit: Omit<FitOptions, "symbols">;
}

export const paperSettings: SearchSettings = {
  method: "paper",
  episodes: 600,
  budget: 0,
  gamma: 0.2,
  epsilon: 0.4,
  lambda: 1e-2,
  stopNrmse: 0,
  targetEvery: 10,
  icnnLearningRate: 5e-3,
  epochs: 50,
  batch: 100,
  hidden: [32, 32],
  terms: 2,
  maxFactors: 2,
  pearson: 0.99,
  encoding: "paper",
  avoidRepeats: false,
  shaping: "raw",
  explore: "uniform",
  proposal: "argmin",
  candidates: 256,
  rank: "reward-net",
  parents: 8,
  elite: 1,
  fit: { engine: "js", steps: 50, polish: "lm" },
};

export const consolesrSettings: SearchSettings = {
  ...paperSettings,
  method: "consolesr",
  lambda: 0,
  stopNrmse: 1e-6,
  pearson: 0.9999,
  encoding: "structure",
  avoidRepeats: true,
  shaping: "log",
  explore: "mutate",
  proposal: "operators",
  epochs: 10,
  batch: 32,
  targetEvery: 25,
};

export interface EpisodeEvent {
  target: string;
  episode: number;
  reward: number;
  structures: number;
  best: Candidate;
  /** Which way this episode's actions were chosen. */
  greedy: number;
  random: number;
  rejected: number;
  /** The live −Q and −R networks after this episode's training (clone them to keep a snapshot). */
  nets: { q: Icnn; r: Icnn };
}

export interface SearchContext {
  data: Dataset;
  target: string;
  symbols: Registry<SymbolPlugin>;
  /** Symbol pool Φ (registry names). */
  pool: string[];
  constraints: ConstraintPlugin[];
  reward: RewardPlugin;
  argmin: ArgminSolver;
  rng: Rng;
  signal?: AbortSignal;
  onEpisode?: (event: EpisodeEvent) => void;
}

export interface OutputSearchResult {
  target: string;
  best: Candidate | undefined;
  front: Candidate[];
  episodes: number;
  structures: number;
  stopReason: "reward-threshold" | "episodes" | "budget" | "exhausted" | "aborted" | "error";
  /** A plugin failure that stopped the search; the best found before it is kept. */
  error?: InputError;
  rewards: number[];
  /** How often the LP's rounded argmin was taken, and how often it was redrawn. */
  actions: { greedy: number; random: number; rejected: number };
  /** Seconds spent fitting LoCaL structures (the rest is the Q-learning). */
  fitSeconds: number;
  /** The trained −Q and −R networks (for inspection and the convexity tests; not serialised). */
  nets: { q: Icnn; r: Icnn };
}

interface Transition {
  state: Float64Array;
  action: Float64Array;
  next: Float64Array;
  reward: number;
  terminal: boolean;
}

/** Episodes without a new structure after which a search stops as "exhausted". */
const STALL_EPISODES = 100;

const stateKey = (s: ArrayLike<number>) => Array.prototype.join.call(s, ",");

function runConstraint(plugin: ConstraintPlugin, ctx: ConstraintContext): true | string {
  let verdict: unknown;
  try {
    verdict = plugin.check(ctx);
  } catch (cause) {
    throw new InputError(`plugin ${plugin.name}: check threw: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (verdict === true || typeof verdict === "string") return verdict;
  throw new InputError(`plugin ${plugin.name}: check returned ${JSON.stringify(verdict)}, not true or a reason`);
}

/** Domain-safe neurons: a symbol with a domain only on inputs whose every value is inside it. */
export function allowedNeurons(data: Dataset, pool: readonly string[], symbols: Registry<SymbolPlugin>): boolean[] {
  return data.inputs.flatMap((_, i) =>
    pool.map((name) => {
      const domain = symbols.get(name).domain;
      return !domain || data.x[i]!.every((v) => domain(v));
    }),
  );
}

export async function searchOutput(ctx: SearchContext, settings: SearchSettings): Promise<OutputSearchResult> {
  const { rng } = ctx;
  const space: SearchSpace = createSpace(ctx.data.inputs, ctx.pool, settings.terms, settings.encoding, allowedNeurons(ctx.data, ctx.pool, ctx.symbols));
  const limits: Limits = { maxFactors: settings.maxFactors, maxTerms: settings.terms, pearson: settings.pearson };
  const evaluator = createEvaluator(ctx.data, ctx.target, ctx.symbols, ctx.reward, settings.fit);
  const hall = new HallOfFame();
  const netShape = { state: space.nS, action: space.nA, hidden: settings.hidden };
  const rNet = new Icnn(netShape, rng.fork());
  const qNet = new Icnn(netShape, rng.fork());
  const qTarget = qNet.clone();
  const replay: Transition[] = [];
  const rewardSamples: { state: Float64Array; action: Float64Array; target: number }[] = [];
  const evidence: ConstraintContext["evidence"][number][] = [];
  let targetValues = new Map<string, number>();
  const rewards: number[] = [];
  const counts = { greedy: 0, random: 0, rejected: 0 };
  let best: Candidate | undefined;
  let stopReason: OutputSearchResult["stopReason"] = "episodes";
  const train = { epochs: settings.epochs, learningRate: settings.icnnLearningRate, batchSize: settings.batch };
  const keepers = ctx.constraints.filter((c) => c.keep);
  /** The best trajectories by NRMSE, one per structure, best first. */
  const elite: { nrmse: number; actions: Float64Array[] }[] = [];
  /** The best fitted structures by NRMSE (their products), parents of the operator proposals. */
  const parents: { nrmse: number; products: number[][] }[] = [];
  const allowedList = space.allowed.flatMap((ok, i) => (ok ? [i] : []));
  const [lo, hi] = ctx.reward.range;
  const shape = (r: number) => {
    if (settings.shaping === "raw") return r;
    const u = Math.min(1, Math.max(0, (r - lo) / (hi - lo)));
    return -Math.log10(1 - u + 1e-12) / 12;
  };

  const kept = (): Product[] => {
    const all: Product[] = [];
    for (const plugin of keepers) {
      try {
        all.push(...plugin.keep!({ evidence, limits }));
      } catch (cause) {
        throw new InputError(`plugin ${plugin.name}: keep threw: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    }
    return all.slice(0, Math.max(0, settings.terms - 1));
  };

  /** Does every constraint plugin accept action a_k after `actions` at state s_k? */
  const acceptable = (k: number, state: Float64Array, actions: readonly Float64Array[], action: Float64Array): boolean => {
    const c: ConstraintContext = {
      layer: k,
      state: Array.from(state),
      action: Array.from(action),
      space: { inputs: space.inputs, symbols: space.symbols, neurons: space.n1, terms: space.n2 },
      structure: partialStructure(space, [...actions, action]),
      limits,
      evidence,
    };
    for (const plugin of ctx.constraints) if (runConstraint(plugin, c) !== true) return false;
    return true;
  };

  /**
   * The one trajectory of a set of products: slots in canonical order (by size, then neuron
   * indices), so that a structure always has the same encoding for the reward network; null when
   * a constraint rejects it.
   */
  const trajectoryOf = (products: readonly (readonly number[])[]) => {
    const unique = new Map<string, number[]>();
    for (const p of products) {
      const sorted = [...new Set(p)].sort((a, b) => a - b);
      if (sorted.length > 0) unique.set(sorted.join("."), sorted);
    }
    const chosen = [...unique.values()].sort((a, b) => a.length - b.length || compareLex(a, b));
    if (chosen.length === 0 || chosen.length > space.n2) return null;
    const neurons = [...new Set(chosen.flat())];
    if (neurons.some((i) => !space.allowed[i])) return null;
    const a0 = new Float64Array(space.nA);
    for (const i of neurons) a0[i] = 1;
    const a1 = new Float64Array(space.nA);
    chosen.forEach((product, slot) => product.forEach((i) => (a1[i * space.n2 + slot] = 1)));
    const a2 = new Float64Array(space.nA);
    chosen.forEach((_, slot) => (a2[slot] = 1));
    const actions = [a0, a1, a2];
    const states = [initialState(space)];
    for (let k = 0; k < LAYERS; k++) {
      if (!acceptable(k, states[k]!, actions.slice(0, k), actions[k]!)) return null;
      states.push(transition(space, k, states[k]!, actions[k]!));
    }
    const tally = { greedy: 0, random: 0, rejected: 0 };
    return { states, actions, relaxed: actions, tally, structure: structureOf(space, ctx.target, partialStructure(space, actions)) };
  };

  /** Every structure in order of size (products of 1…maxFactors allowed neurons, then 1…terms of them). */
  function* enumeration() {
    const allowed = space.allowed.flatMap((ok, i) => (ok ? [i] : []));
    const products: number[][] = [];
    const grow = (start: number, current: number[], size: number) => {
      if (current.length === size) return void products.push([...current]);
      for (let i = start; i < allowed.length; i++) grow(i + 1, [...current, allowed[i]!], size);
    };
    for (let size = 1; size <= settings.maxFactors; size++) grow(0, [], size);
    const combos = function* (start: number, chosen: number[], count: number): Generator<number[]> {
      if (chosen.length === count) return yield [...chosen];
      for (let j = start; j < products.length; j++) yield* combos(j + 1, [...chosen, j], count);
    };
    for (let count = 1; count <= settings.terms; count++) {
      for (const chosen of combos(0, [], count)) {
        const trajectory = trajectoryOf(chosen.map((j) => products[j]!));
        if (trajectory) yield trajectory;
      }
    }
  }
  const enumerator = settings.method === "enumerate" ? enumeration() : undefined;
  const learns = settings.method === "consolesr" || settings.method === "paper";

  /** One trajectory s_0 → s_3; every action passes every constraint or is redrawn. */
  const rollout = (epsilon: number, keep: readonly Product[]) => {
    const states: Float64Array[] = [initialState(space)];
    const actions: Float64Array[] = [];
    const relaxed: Float64Array[] = [];
    const tally = { greedy: 0, random: 0, rejected: 0 };
    // (No draw with a single elite, so the default consumes the random stream as before.)
    const parent = elite.length > 1 ? elite[rng.int(elite.length)]!.actions : elite[0]?.actions;
    for (let k = 0; k < LAYERS; k++) {
      const partial: PartialStructure = partialStructure(space, actions);
      const bounds = layerBounds(space, k, partial, keep, limits);
      const accept = (action: Float64Array) => acceptable(k, states[k]!, actions, action);
      let chosen: Float64Array | null = null;
      let relax: Float64Array | null = null;
      if (!(rng.next() < epsilon)) {
        const solved = ctx.argmin.lp(qNet, states[k]!, bounds);
        relax = solved.action;
        const rounded = roundAction(solved.action);
        if (accept(rounded)) {
          chosen = rounded;
          tally.greedy++;
        } else tally.rejected++;
      }
      for (let attempt = 0; !chosen; attempt++) {
        if (attempt > 1000) throw new InputError(`the constraints reject every action at layer ${k}; loosen --max-factors/--terms or the constraint plugins`);
        const candidate =
          settings.explore === "mutate" && parent && rng.next() < 0.5
            ? mutateAction(parent[k]!, bounds, rng)
            : randomAction(space, k, bounds, limits, rng);
        if (accept(candidate)) {
          chosen = candidate;
          tally.random++;
        } else tally.rejected++;
      }
      actions.push(chosen);
      relaxed.push(relax ?? chosen);
      states.push(transition(space, k, states[k]!, chosen));
    }
    return { states, actions, relaxed, tally, structure: structureOf(space, ctx.target, partialStructure(space, actions)) };
  };

  type Trajectory = ReturnType<typeof rollout>;
  /** −R summed over a trajectory's decisions: lower is a better predicted reward. */
  const predicted = (t: Trajectory) => {
    let sum = 0;
    for (let k = 0; k < LAYERS; k++) sum += rNet.value(t.states[k]!, t.actions[k]!);
    return sum;
  };
  /** The best unfitted candidate by the −R network (or a uniform draw when rank is "none"). */
  const pick = (pool: Trajectory[]): Trajectory | undefined => {
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
      const v = predicted(t);
      if (v < score) {
        score = v;
        choice = t;
      }
    }
    return choice;
  };

  /** The unfitted trajectory the −R network rates best among the greedy one and sampled ones. */
  const propose = (keep: readonly Product[]) => {
    const pool = [rollout(0, keep)];
    for (let c = 0; c < settings.candidates; c++) pool.push(rollout(1, keep));
    return pick(pool) ?? pool[0]!;
  };

  const randomProduct = (): number[] => {
    const size = 1 + rng.int(settings.maxFactors);
    const out = new Set<number>();
    while (out.size < Math.min(size, allowedList.length)) out.add(allowedList[rng.int(allowedList.length)]!);
    return [...out];
  };
  const productsOf = (structure: { products: number[][] }) => structure.products.map((p) => [...p]);
  /** One product-level edit of a parent: swap, add or drop a factor; add, drop or replace a product. */
  const mutateProducts = (source: number[][]): number[][] => {
    const products = source.map((p) => [...p]);
    const j = rng.int(products.length);
    const product = products[j]!;
    const other = parents.length > 1 ? parents[rng.int(parents.length)]!.products : undefined;
    const donor = () => (other && rng.next() < 0.5 ? [...other[rng.int(other.length)]!] : randomProduct());
    const fresh = () => {
      const free = allowedList.filter((i) => !product.includes(i));
      return free.length > 0 ? free[rng.int(free.length)]! : undefined;
    };
    switch (rng.int(6)) {
      case 0: {
        const n = fresh();
        if (n !== undefined) product[rng.int(product.length)] = n;
        break;
      }
      case 1: {
        const n = fresh();
        if (n !== undefined && product.length < settings.maxFactors) product.push(n);
        else if (n !== undefined) product[rng.int(product.length)] = n;
        break;
      }
      case 2:
        if (product.length > 1) product.splice(rng.int(product.length), 1);
        else products[j] = donor();
        break;
      case 3:
        if (products.length < settings.terms) products.push(donor());
        else products[j] = donor();
        break;
      case 4:
        if (products.length > 1) products.splice(j, 1);
        else products[j] = donor();
        break;
      default:
        products[j] = donor();
    }
    return products;
  };
  /** A random subset of the products of two parents (how the terms of a sum are combined). */
  const crossover = (a: number[][], b: number[][]): number[][] => {
    const union = shuffle([...a, ...b], rng);
    return union.slice(0, 1 + rng.int(Math.min(settings.terms, union.length)));
  };
  /**
   * consolesr's proposal: the LP-greedy trajectory of −Q, uniform rollouts, and product-level
   * edits and crossovers of the best fitted structures, in canonical form, ranked by −R.
   */
  const proposeOperators = (keep: readonly Product[]) => {
    const pool: Trajectory[] = [];
    const add = (t: Trajectory | null) => void (t && pool.push(t));
    add(canonical(rollout(0, keep)));
    const n = settings.candidates;
    for (let c = 0; c < n; c++) {
      const r = rng.next();
      if (parents.length === 0 || r < 0.25) add(canonical(rollout(1, keep)));
      else if (r < 0.75 || parents.length < 2) {
        const parent = parents[rng.int(parents.length)]!.products;
        let child = mutateProducts(parent);
        if (rng.next() < 0.3) child = mutateProducts(child);
        add(trajectoryOf(child));
      } else {
        const i = rng.int(parents.length);
        let j = rng.int(parents.length - 1);
        if (j >= i) j++;
        add(trajectoryOf(crossover(parents[i]!.products, parents[j]!.products)));
      }
    }
    return pick(pool) ?? rollout(1, keep);
  };
  /** The canonical-slot trajectory of a trajectory's structure (itself if constraints reject it). */
  const canonical = (t: Trajectory): Trajectory => {
    if (t.structure.products.length === 0) return t;
    const c = trajectoryOf(t.structure.products);
    return c ? { ...c, tally: t.tally } : t;
  };

  let error: InputError | undefined;
  /** Episodes in a row that fitted nothing new: the reachable space is used up (a small pool). */
  let stalled = 0;
  for (let episode = 1; episode <= settings.episodes; episode++) {
    // Yield to the event loop once per episode so that Ctrl-C and a page's cancel get through.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (ctx.signal?.aborted) {
      stopReason = "aborted";
      break;
    }
    try {
      // The products the dynamic constraint keeps change only between episodes.
      const keep = kept();
      let trajectory;
      if (enumerator) {
        const next = enumerator.next();
        if (next.done) {
          stopReason = "exhausted";
          break;
        }
        trajectory = next.value;
      } else if (settings.method === "random") trajectory = rollout(1, keep);
      else if (settings.proposal !== "argmin" && rng.next() >= settings.epsilon) trajectory = settings.proposal === "operators" ? proposeOperators(keep) : propose(keep);
      else trajectory = rollout(settings.epsilon, keep);
      let fitted = evaluator.evaluate(trajectory.structure);
      // A greedy policy proposes the same structure again and again; in consolesr mode a repeat
      // is replaced by another trajectory, fully random after two greedy repeats (bounded tries),
      // so that every episode buys information.
      for (let tries = 0; settings.avoidRepeats && fitted.cached && tries < 20; tries++) {
        trajectory = rollout(tries < 2 && learns ? settings.epsilon : 1, keep);
        fitted = evaluator.evaluate(trajectory.structure);
      }
      counts.greedy += trajectory.tally.greedy;
      counts.random += trajectory.tally.random;
      counts.rejected += trajectory.tally.rejected;
      const candidate = fitted.candidate;
      hall.add(candidate);
      if (!fitted.cached) for (const e of candidate.evidence) evidence.push({ ...e, nrmse: candidate.nrmse });
      if (!best || candidate.nrmse < best.nrmse || (candidate.nrmse === best.nrmse && candidate.complexity < best.complexity)) best = candidate;
      if (!fitted.cached) {
        if (candidate.structure.products.length > 0) {
          parents.push({ nrmse: candidate.nrmse, products: productsOf(candidate.structure) });
          parents.sort((a, b) => a.nrmse - b.nrmse);
          parents.length = Math.min(parents.length, settings.parents);
        }
        elite.push({ nrmse: candidate.nrmse, actions: trajectory.actions });
        elite.sort((a, b) => a.nrmse - b.nrmse);
        elite.length = Math.min(elite.length, settings.elite);
      }
      const R = shape(candidate.reward);
      rewards.push(candidate.reward);

      if (learns) {
        // −R on the end-of-trajectory reward of every (s_k, a_k) of the episode.
        const seen = settings.proposal === "operators" ? canonical(trajectory) : trajectory;
        for (let k = 0; k < LAYERS; k++) rewardSamples.push({ state: seen.states[k]!, action: seen.actions[k]!, target: -R });
        const rSample = sample(rewardSamples, settings.batch, rng);
        rNet.train(rSample.map((s) => s.state), rSample.map((s) => s.action), rSample.map((s) => s.target), { ...train, rng });

        // Replay: the taken (binary) transitions with R_t, and the relaxed ones with R(s, ã).
        for (let k = 0; k < LAYERS; k++) {
          const base = { state: trajectory.states[k]!, next: trajectory.states[k + 1]!, terminal: k === LAYERS - 1 };
          replay.push({ ...base, action: trajectory.actions[k]!, reward: R });
          const relaxed = trajectory.relaxed[k]!;
          if (relaxed !== trajectory.actions[k]) replay.push({ ...base, action: relaxed, reward: -rNet.value(base.state, relaxed) });
        }
        const batch = sample(replay, settings.batch, rng);
        const targets = batch.map((m) => {
          if (m.terminal) return -m.reward;
          // max_a Q'(s', a) = −min_a −Q'(s', a) over the box: an LP per distinct next state, cached
          // for the target network's lifetime.
          const key = stateKey(m.next);
          let value = targetValues.get(key);
          if (value === undefined) {
            value = ctx.argmin.lp(qTarget, m.next).value;
            targetValues.set(key, value);
          }
          return -(m.reward + settings.gamma * -value);
        });
        qNet.train(batch.map((m) => m.state), batch.map((m) => m.action), targets, { ...train, rng });
        if (episode % settings.targetEvery === 0) {
          qTarget.copyFrom(qNet);
          targetValues = new Map();
        }
      }

      ctx.onEpisode?.({ target: ctx.target, episode, reward: candidate.reward, structures: evaluator.size, best: best!, ...trajectory.tally, nets: { q: qNet, r: rNet } });
      const done = settings.method === "paper" ? Math.abs(R - 1) <= settings.lambda : candidate.nrmse <= settings.stopNrmse;
      if (done) {
        stopReason = "reward-threshold";
        break;
      }
      stalled = fitted.cached ? stalled + 1 : 0;
      if (stalled >= STALL_EPISODES) {
        stopReason = "exhausted";
        break;
      }
      if (settings.budget > 0 && evaluator.size >= settings.budget) {
        stopReason = "budget";
        break;
      }
    } catch (cause) {
      if (!(cause instanceof InputError)) throw cause;
      error = cause;
      stopReason = "error";
      break;
    }
  }
  const answer = settings.method === "paper" ? best : (hall.choose() ?? best);
  return { target: ctx.target, best: answer, front: hall.front(), episodes: rewards.length, structures: evaluator.size, stopReason, error, rewards, actions: counts, fitSeconds: evaluator.seconds, nets: { q: qNet, r: rNet } };
}

/** Flips one or two free entries of a previous action (a local move around the best structure). */
function mutateAction(previous: Float64Array, bounds: { lower: Float64Array; upper: Float64Array }, rng: Rng): Float64Array {
  const a = Float64Array.from(previous, (v, i) => Math.min(bounds.upper[i]!, Math.max(bounds.lower[i]!, v)));
  const free = Array.from(a.keys()).filter((i) => bounds.upper[i]! > bounds.lower[i]!);
  const flips = 1 + rng.int(2);
  for (let f = 0; f < flips && free.length > 0; f++) {
    const i = free[rng.int(free.length)]!;
    a[i] = 1 - a[i]!;
  }
  return a;
}

function compareLex(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function sample<T>(items: readonly T[], n: number, rng: Rng): T[] {
  if (items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[rng.int(items.length)]!);
  return out;
}
