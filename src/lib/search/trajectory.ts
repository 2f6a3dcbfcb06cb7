/**
 * Trajectories s_0 → s_3 of the CMP (three actions build one LoCaL output), made three ways:
 * rolled out layer by layer (ε-greedy over a policy, else random or a bit flip of the best
 * trajectory), written from a set of products in one canonical slot order, or canonicalised.
 * Every action passes the constraint gate or is redrawn.
 */
import { InputError } from "../core/index.js";
import type { LocalStructure } from "../local/index.js";
import type { Product } from "../plugins/index.js";
import type { Rng } from "../core/index.js";
import { roundAction } from "./argmin.js";
import {
  initialState,
  layerBounds,
  LAYERS,
  partialStructure,
  randomAction,
  structureOf,
  transition,
  type LayerBounds,
  type Limits,
  type SearchSpace,
} from "./cmp.js";
import type { ConstraintGate } from "./constraints.js";
import { flipBits } from "./operators.js";

export interface Tally {
  /** Actions taken from the policy's argmin, drawn at random, and drawn but rejected by a constraint. */
  greedy: number;
  random: number;
  rejected: number;
}

export interface Trajectory {
  states: Float64Array[];
  actions: Float64Array[];
  /** The policy's relaxed (fractional) action where one was asked for, else the action taken. */
  relaxed: Float64Array[];
  tally: Tally;
  structure: LocalStructure;
}

/** The greedy action of layer `layer`: the relaxed argmin of −Q at a state within the layer's bounds. */
export type Policy = (state: Float64Array, bounds: LayerBounds, layer: number) => Float64Array;

export class Trajectories {
  readonly space: SearchSpace;
  readonly limits: Limits;
  /** The best fitted trajectory's actions (what "mutate" exploration flips bits of). */
  #best: { nrmse: number; actions: Float64Array[] } | undefined;
  readonly #gate: ConstraintGate;
  readonly #rng: Rng;
  readonly #target: string;
  readonly #explore: "uniform" | "mutate";

  constructor(
    space: SearchSpace,
    limits: Limits,
    gate: ConstraintGate,
    rng: Rng,
    target: string,
    explore: "uniform" | "mutate",
  ) {
    this.space = space;
    this.limits = limits;
    this.#gate = gate;
    this.#rng = rng;
    this.#target = target;
    this.#explore = explore;
  }

  /** Remembers a fitted trajectory if it beats the best so far. */
  record(trajectory: Trajectory, nrmse: number): void {
    if (!this.#best || nrmse < this.#best.nrmse) this.#best = { nrmse, actions: trajectory.actions };
  }

  /** One trajectory: at each layer the policy's rounded argmin with probability 1 − ε, else a random action. */
  rollout(epsilon: number, keep: readonly Product[], policy?: Policy): Trajectory {
    const { space, limits } = this;
    const rng = this.#rng;
    const states: Float64Array[] = [initialState(space)];
    const actions: Float64Array[] = [];
    const relaxed: Float64Array[] = [];
    const tally: Tally = { greedy: 0, random: 0, rejected: 0 };
    const parent = this.#best?.actions;
    for (let k = 0; k < LAYERS; k++) {
      const bounds = layerBounds(space, k, partialStructure(space, actions), keep, limits);
      const accept = (action: Float64Array) => this.#gate.accepts(k, states[k]!, actions, action);
      let chosen: Float64Array | null = null;
      let relax: Float64Array | null = null;
      if (!(rng.next() < epsilon) && policy) {
        relax = policy(states[k]!, bounds, k);
        const rounded = roundAction(relax);
        if (accept(rounded)) {
          chosen = rounded;
          tally.greedy++;
        } else tally.rejected++;
      }
      for (let attempt = 0; !chosen; attempt++) {
        if (attempt > 1000)
          throw new InputError(
            `the constraints reject every action at layer ${k}; ` +
              "loosen `maxFactors`/`terms` or the constraint plugins",
          );
        const mutate = this.#explore === "mutate" && parent && rng.next() < 0.5;
        const candidate = mutate ? flipBits(parent[k]!, bounds, rng) : randomAction(space, k, bounds, limits, rng);
        if (accept(candidate)) {
          chosen = candidate;
          tally.random++;
        } else tally.rejected++;
      }
      actions.push(chosen);
      relaxed.push(relax ?? chosen);
      states.push(transition(space, k, states[k]!, chosen));
    }
    return { states, actions, relaxed, tally, structure: this.#structure(actions) };
  }

  /**
   * The one trajectory of a set of products: slots in canonical order (by size, then neuron
   * indices), so that a structure always has the same encoding for the reward network; null when
   * it has no product, too many, a neuron outside the domain, or a constraint rejects it.
   */
  fromProducts(products: readonly (readonly number[])[]): Trajectory | null {
    const { space } = this;
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
    chosen.forEach((product, slot) => {
      for (const i of product) a1[i * space.n2 + slot] = 1;
    });
    const a2 = new Float64Array(space.nA);
    chosen.forEach((_, slot) => {
      a2[slot] = 1;
    });
    const actions = [a0, a1, a2];
    const states = [initialState(space)];
    for (let k = 0; k < LAYERS; k++) {
      if (!this.#gate.accepts(k, states[k]!, actions.slice(0, k), actions[k]!)) return null;
      states.push(transition(space, k, states[k]!, actions[k]!));
    }
    return {
      states,
      actions,
      relaxed: actions,
      tally: { greedy: 0, random: 0, rejected: 0 },
      structure: this.#structure(actions),
    };
  }

  /** The canonical-slot trajectory of a trajectory's structure (itself if constraints reject it). */
  canonical(t: Trajectory): Trajectory {
    if (t.structure.products.length === 0) return t;
    const c = this.fromProducts(t.structure.products);
    return c ? { ...c, tally: t.tally } : t;
  }

  #structure(actions: readonly Float64Array[]): LocalStructure {
    return structureOf(this.space, this.#target, partialStructure(this.space, actions));
  }
}

function compareLex(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
