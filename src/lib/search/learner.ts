/**
 * The double-convex Q-learning of paper Algorithm 2 for one output: −R(s,a) and −Q(s,a) are
 * input-convex networks; the greedy action is the argmin of −Q over the relaxed action box (an
 * exact LP for a ReLU ICNN, solved by highs); a replay buffer, TD targets from a target network
 * refreshed every T0 episodes. consolesr and paper share it; they differ in what they propose.
 */
import type { Rng } from "../core/index.js";
import type { ArgminSolver } from "./argmin.js";
import { LAYERS, randomAction, type LayerBounds, type Limits, type SearchSpace } from "./cmp.js";
import { Icnn } from "./icnn.js";
import type { SearchSettings } from "./settings.js";
import type { Policy, Trajectory } from "./trajectory.js";
import { log10 } from "../core/index.js";

/** Actions the non-convex ablation ("mlp") scores per decision, in place of the exact LP argmin. */
export const SAMPLED_ACTIONS = 64;

interface Transition {
  /** The layer the action belongs to. */
  layer: number;
  state: Float64Array;
  action: Float64Array;
  next: Float64Array;
  reward: number;
  terminal: boolean;
}

const stateKey = (s: ArrayLike<number>) => Array.prototype.join.call(s, ",");

/**
 * The reward the ICNNs learn and the paper's stop rule reads: raw (paper), or "log":
 * −log10(1 − u)/12 of the reward normalised to u ∈ [0, 1], so that NRMSE 1e-2 and 1e-8 differ.
 */
export function shapeReward(
  shaping: SearchSettings["shaping"],
  range: readonly [number, number],
): (reward: number) => number {
  const [lo, hi] = range;
  if (shaping === "raw") return (r) => r;
  return (r) => -log10(1 - Math.min(1, Math.max(0, (r - lo) / (hi - lo))) + 1e-12) / 12;
}

export class QLearner {
  readonly q: Icnn;
  readonly r: Icnn;
  readonly #target: Icnn;
  readonly #replay: Transition[] = [];
  readonly #rewardSamples: { state: Float64Array; action: Float64Array; target: number }[] = [];
  /** max_a Q′(s′, a) per distinct next state, for the target network's lifetime. */
  #targetValues = new Map<string, number>();
  readonly #settings: SearchSettings;
  readonly #argmin: ArgminSolver;
  readonly #rng: Rng;
  readonly #space: SearchSpace;
  readonly #limits: Limits;
  /** The non-convex ablation: no convexity, the argmin over sampled actions. */
  readonly #sampled: boolean;

  /**
   * `nets`: the −R and −Q networks' own streams. `limits`: the search space's caps, which the
   * sampled argmin of `qNetwork: "mlp"` draws its actions within (the LP does not need them).
   */
  constructor(
    space: SearchSpace,
    settings: SearchSettings,
    argmin: ArgminSolver,
    nets: { r: Rng; q: Rng },
    rng: Rng,
    limits?: Limits,
  ) {
    this.#sampled = settings.qNetwork === "mlp";
    const shape = {
      state: space.nS,
      action: space.nA,
      hidden: settings.hidden,
      ...(this.#sampled ? { convex: false } : {}),
    };
    this.r = new Icnn(shape, nets.r);
    this.q = new Icnn(shape, nets.q);
    this.#target = this.q.clone();
    this.#settings = settings;
    this.#argmin = argmin;
    this.#rng = rng;
    this.#space = space;
    this.#limits = limits ?? { maxFactors: space.n1, maxTerms: space.n2, pearson: 1 };
  }

  /**
   * The greedy policy: the relaxed LP argmin of −Q within a layer's bounds; for the non-convex
   * ablation, the best of SAMPLED_ACTIONS actions drawn within them.
   */
  readonly policy: Policy = (state, bounds, layer) =>
    this.#sampled
      ? this.#sampledArgmin(this.q, state, bounds, layer).action
      : this.#argmin.lp(this.q, state, bounds).action;

  /** min over SAMPLED_ACTIONS actions drawn within `bounds` (the first lowest wins). */
  #sampledArgmin(
    net: Icnn,
    state: Float64Array,
    bounds: LayerBounds,
    layer: number,
  ): { action: Float64Array; value: number } {
    let best: { action: Float64Array; value: number } | undefined;
    for (let i = 0; i < SAMPLED_ACTIONS; i++) {
      const action = randomAction(this.#space, layer, bounds, this.#limits, this.#rng);
      const value = net.value(state, action);
      if (!best || value < best.value) best = { action, value };
    }
    return best!;
  }

  /** −R summed over a trajectory's decisions: lower is a better predicted reward. */
  predicted(t: Trajectory): number {
    let sum = 0;
    for (let k = 0; k < LAYERS; k++) sum += this.r.value(t.states[k]!, t.actions[k]!);
    return sum;
  }

  /**
   * One episode's learning from its (shaped) reward R: −R on every (s_k, a_k) of `seen` (the
   * trajectory as the reward network should see it), then a TD step of −Q on a replay sample
   * holding the taken transitions with R and the relaxed ones with the −R estimate.
   */
  learn(trajectory: Trajectory, seen: Trajectory, reward: number, episode: number): void {
    const s = this.#settings;
    const rng = this.#rng;
    const train = { epochs: s.epochs, learningRate: s.icnnLearningRate, batchSize: s.batch, rng };
    for (let k = 0; k < LAYERS; k++)
      this.#rewardSamples.push({ state: seen.states[k]!, action: seen.actions[k]!, target: -reward });
    const rSample = sample(this.#rewardSamples, s.batch, rng);
    this.r.train(
      rSample.map((x) => x.state),
      rSample.map((x) => x.action),
      rSample.map((x) => x.target),
      train,
    );

    for (let k = 0; k < LAYERS; k++) {
      const base = {
        layer: k,
        state: trajectory.states[k]!,
        next: trajectory.states[k + 1]!,
        terminal: k === LAYERS - 1,
      };
      this.#replay.push({ ...base, action: trajectory.actions[k]!, reward });
      const relaxed = trajectory.relaxed[k]!;
      if (relaxed !== trajectory.actions[k])
        this.#replay.push({ ...base, action: relaxed, reward: -this.r.value(base.state, relaxed) });
    }
    const batch = sample(this.#replay, s.batch, rng);
    const targets = batch.map((m) =>
      m.terminal ? -m.reward : -(m.reward + s.gamma * -this.#bestNext(m.next, m.layer + 1)),
    );
    this.q.train(
      batch.map((m) => m.state),
      batch.map((m) => m.action),
      targets,
      train,
    );
    if (episode % s.targetEvery === 0) {
      this.#target.copyFrom(this.q);
      this.#targetValues = new Map();
    }
  }

  /**
   * min_a −Q′(s′, a) over the box: an LP per distinct next state, cached until the next refresh
   * (for the non-convex ablation, the best of the sampled actions of layer `layer` in the box).
   */
  #bestNext(next: Float64Array, layer: number): number {
    const key = stateKey(next);
    let value = this.#targetValues.get(key);
    if (value === undefined) {
      value = this.#sampled
        ? this.#sampledArgmin(this.#target, next, this.#box(), layer).value
        : this.#argmin.lp(this.#target, next).value;
      this.#targetValues.set(key, value);
    }
    return value;
  }

  /** The whole action box, as the LP's TD target uses it. */
  #box(): LayerBounds {
    const nA = this.#space.nA;
    return { lower: new Float64Array(nA), upper: new Float64Array(nA).fill(1), rows: [] };
  }
}

/** n draws with replacement (all items when there are at most n). */
function sample<T>(items: readonly T[], n: number, rng: Rng): T[] {
  if (items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[rng.int(items.length)]!);
  return out;
}
