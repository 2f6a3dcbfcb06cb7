/**
 * The constraint plugins as the search sees them: a gate every (state, action) passes, the
 * products the dynamic constraint keeps, and the evidence (|ρ| of fitted products) they read.
 */
import type { Dataset } from "../data/index.js";
import { InputError } from "../core/index.js";
import type { ConstraintContext, ConstraintPlugin, Product, Registry, SymbolPlugin } from "../plugins/index.js";
import type { Candidate } from "./evaluator.js";
import { partialStructure, type Limits, type SearchSpace } from "./cmp.js";

export type Evidence = ConstraintContext["evidence"][number];

/** Domain-safe neurons: a symbol with a domain only on inputs whose every value is inside it. */
export function allowedNeurons(data: Dataset, pool: readonly string[], symbols: Registry<SymbolPlugin>): boolean[] {
  return data.inputs.flatMap((_, i) =>
    pool.map((name) => {
      const domain = symbols.get(name).domain;
      return !domain || data.x[i]!.every((v) => domain(v));
    }),
  );
}

const failure = (plugin: { name: string }, what: string, cause: unknown) =>
  new InputError(`plugin ${plugin.name}: ${what} threw: ${cause instanceof Error ? cause.message : String(cause)}`);

export class ConstraintGate {
  /** Every fitted product's |ρ| with the output, in fit order (one array: plugins may memoise on it). */
  readonly evidence: Evidence[];
  readonly #plugins: readonly ConstraintPlugin[];
  readonly #space: SearchSpace;
  readonly #limits: Limits;

  /** `evidence`: the array to record into (shared by the sizes of one output search). */
  constructor(plugins: readonly ConstraintPlugin[], space: SearchSpace, limits: Limits, evidence: Evidence[] = []) {
    this.evidence = evidence;
    this.#plugins = plugins;
    this.#space = space;
    this.#limits = limits;
  }

  /** Does every plugin accept action a_k after `actions` at state s_k? */
  accepts(k: number, state: Float64Array, actions: readonly Float64Array[], action: Float64Array): boolean {
    const space = this.#space;
    const ctx: ConstraintContext = {
      layer: k,
      state: Array.from(state),
      action: Array.from(action),
      space: { inputs: space.inputs, symbols: space.symbols, neurons: space.n1, terms: space.n2 },
      structure: partialStructure(space, [...actions, action]),
      limits: this.#limits,
      evidence: this.evidence,
    };
    for (const plugin of this.#plugins) if (check(plugin, ctx) !== true) return false;
    return true;
  }

  /** The products later structures must keep (at most terms − 1, so there is room to search), within this size. */
  kept(): Product[] {
    const all: Product[] = [];
    for (const plugin of this.#plugins) {
      if (!plugin.keep) continue;
      try {
        all.push(...plugin.keep({ evidence: this.evidence, limits: this.#limits }));
      } catch (cause) {
        throw failure(plugin, "keep", cause);
      }
    }
    // Evidence outlives a size when the size grows: a product kept at a wider size that this
    // size cannot hold (more factors, a neuron it does not allow) is not kept here.
    const fits = all.filter((p) => p.length <= this.#limits.maxFactors && p.every((i) => this.#space.allowed[i]));
    return fits.slice(0, Math.max(0, this.#limits.maxTerms - 1));
  }

  /** Adds a newly fitted candidate's products to the evidence. */
  record(candidate: Candidate): void {
    for (const e of candidate.evidence) this.evidence.push({ ...e, nrmse: candidate.nrmse });
  }
}

function check(plugin: ConstraintPlugin, ctx: ConstraintContext): true | string {
  let verdict: unknown;
  try {
    verdict = plugin.check(ctx);
  } catch (cause) {
    throw failure(plugin, "check", cause);
  }
  if (verdict === true || typeof verdict === "string") return verdict;
  throw new InputError(`plugin ${plugin.name}: check returned ${JSON.stringify(verdict)}, not true or a reason`);
}
