/**
 * The search's settings: one flat record that every method reads a part of (the settings table,
 * core/settings.ts, says which part: its rows' readBy), their defaults and their validation, all
 * from the table. Paper defaults (Algorithm 2, appendix): γ = 0.2, ε = 0.4, T = 600, λ = 1e-2,
 * T0 = 10; ICNN lr 5e-3, 50 epochs, batch 100.
 */
import { recordOrder, SETTINGS, type SettingRow, type TableSettings } from "../core/index.js";
import type { FitOptions } from "../local/index.js";
import { checkWith, searchSettingsSchema } from "./bounds.js";

/**
 * Every field of the table's rows with a default (TableSettings), typed by the table; the fields
 * named here are the ones that say more than their row's help, or are not rows (method, fit, replay).
 */
export interface SearchSettings extends TableSettings {
  /** The method (a name in the method table). */
  method: string;
  /** Maximum episodes T (paper 600). */
  episodes: number;
  /** Maximum distinct structures fitted per output (0: no limit); the benchmark's equal budget. */
  budget: number;
  /**
   * Wall-clock limit of the whole search in seconds (0: none). At the limit every output answers
   * with its best so far (stopReason "time-limit"); an output not reached answers with its
   * baseline, a linear fit over single inputs.
   */
  timeLimit: number;
  /**
   * Internal, never recorded: the completed episodes per target of a time-limited run, so that
   * `reproduce` replays it to the same point (the clock's limit is then ignored).
   */
  replay?: Record<string, number>;
  /**
   * Internal, never recorded: how the replayed run stopped after those episodes ("time-limit" by
   * default; "aborted" for a run stopped from outside: Ctrl-C, a page's Stop), so that the replay
   * states the same reason and searches no target the original did not reach.
   */
  replayStop?: "time-limit" | "aborted";
  /** Paper stop rule: |R − 1| ≤ λ. */
  lambda: number;
  /**
   * consolesr stop rule: train NRMSE of the simplified equation
   * ≤ this (−1: no threshold; the run uses its whole budget).
   */
  stopNrmse: number;
  /**
   * Estimate the noise floor from the data (noise.ts) and, where it is above stopNrmse, stop once
   * a fit reaches it and the search stalls (stopReason "noise-floor"), choosing the answer by its
   * score (hallOfFame.ts). Off where stopNrmse is given explicitly (the caller announced the noise).
   */
  noiseFloor: boolean;
  /**
   * Try outer functions (equation/outer.ts): where the first screen leaves y unexplained but fits
   * g⁻¹(y) exactly for an outer g (√, 1/·, ², ^(−1/2), exp), search g⁻¹(y) and answer y = g(L).
   * The paper's Algorithm 2: false.
   */
  outer: boolean;
  /**
   * Try ratios (docs/design.md#ratio): where the first screen leaves y unexplained, an exact linear
   * relation y·Q(x) = P(x) proposes a denominator Q; search y·Q and answer y = P/Q. Paper: false.
   */
  ratio: boolean;
  /**
   * Try monomial arguments (docs/design.md#monomial): where y is a function of a product of powers
   * of inputs u (and the other inputs) but no sum of products of the inputs, search with u as an
   * input and answer f(w·u) as a function of the inputs (exp(−a·b/c)). Paper: false.
   */
  monomial: boolean;
  /**
   * Try derived inputs (docs/design.md#derived): where y is a function of a sum or difference of
   * inputs or of their squares (and the other inputs) and no form of the inputs fits it, search with
   * them as inputs and answer an expression of the inputs (a·(b − c)²). Paper: false.
   */
  derived: boolean;
  /**
   * Fit every structure with an additive constant per output (search/evaluator.ts): y = 2·x1 + 5
   * is one product and a constant. The paper's Algorithm 2 (its LoCaL has no bias): false.
   */
  constant: boolean;
  /** Products per output; 0: the size grows by itself (growth.ts). */
  terms: number;
  /** Factors per product; 0: grows by itself. */
  maxFactors: number;
  /** Redraw a trajectory whose structure was already fitted (every episode buys information). */
  avoidRepeats: boolean;
  /**
   * What the ICNNs learn from the reward: "raw" (paper) or "log", −log10(1 − u)/12 of the reward
   * normalised to u ∈ [0, 1], which spreads the near-exact fits R = 0.99…1 that raw R squeezes.
   */
  shaping: TableSettings["shaping"];
  /** Exploration: "uniform" random actions (paper) or half of them flip bits of the best trajectory. */
  explore: TableSettings["explore"];
  /**
   * consolesr's proposals: "linear" (the linear-algebra proposals first, best first, then
   * "operators"), "operators" (greedy episodes score the LP-greedy trajectory, rollouts, product
   * edits and crossovers of the best structures, ranked by −R) or "argmin" (the paper's
   * ε-greedy LP rollout). "wide" is "linear" plus backward elimination over the whole product
   * library for sums of up to `terms` products (linear/backward.ts; pow's default).
   */
  proposal: TableSettings["proposal"];
  /** Candidates scored per greedy "operators" episode. */
  candidates: number;
  /**
   * How proposals are ranked: by the trained −R network ("reward-net"), or not at all ("none":
   * a uniformly drawn unfitted candidate, the ablation that shows what the learned ranking adds).
   */
  rank: TableSettings["rank"];
  /**
   * The −Q and −R networks: "icnn" (the paper's input-convex networks, greedy action by the exact
   * LP argmin) or "mlp" (the same networks without the convexity constraint, the greedy action
   * the best of SAMPLED_ACTIONS actions drawn within the layer's bounds): the paper's
   * "non-convex deep Q-learning" ablation.
   */
  qNetwork: TableSettings["qNetwork"];
  /** Structures kept as parents for the "operators" proposals (the best by NRMSE). */
  parents: number;
  fit: Omit<FitOptions, "symbols">;
  /** The MLP baseline's Adam learning rate (its layer widths, epochs and batch are `hidden`, `epochs`, `batch`). */
  learningRate: number;
  /** The MLP's early stopping: epochs without a better validation loss before it stops. */
  patience: number;
  /** The MLP's validation split: this fraction of the training rows, drawn with the run's seed. */
  validation: number;
  /** The EQL baseline's L1 strength λ in its second training phase. */
  l1: number;
  /** The EQL baseline's L0 phase: weights with |w| below this are fixed at zero. */
  threshold: number;
  /** The DSR and VPG baselines' entropy bonus weight (paper 0.005). */
  entropy: number;
  /** DSR and VPG: the fewest and most tokens of a sampled expression (paper 4 and 30). */
  minLength: number;
  maxLength: number;
}

/** Why the search of one output stopped. */
export const STOP_REASONS = [
  "reward-threshold",
  "noise-floor",
  "time-limit",
  "episodes",
  "budget",
  "exhausted",
  "aborted",
  "error",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** A structure search's fit of each structure (a form's is run/config.ts's FORM_FIT). */
const SEARCH_FIT: SearchSettings["fit"] = { engine: "js", steps: 50, polish: "lsq" };

/** The defaults of the table's rows (consolesr's, or the paper's), in the order results record them. */
function tableDefaults(method: "consolesr" | "paper"): SearchSettings {
  const value = (name: string): unknown => {
    const row: SettingRow = SETTINGS[name as keyof typeof SETTINGS];
    const chosen = method === "paper" && row.paper !== undefined ? row.paper : row.default;
    return Array.isArray(chosen) ? [...chosen] : chosen;
  };
  return Object.fromEntries(
    recordOrder().map((name) => [name, name === "method" ? method : name === "fit" ? { ...SEARCH_FIT } : value(name)]),
  ) as unknown as SearchSettings;
}

/** Algorithm 2 as written: the paper's values (the table's `paper`, else its default). */
export const paperSettings: SearchSettings = tableDefaults("paper");

/** consolesr's defaults (the table's): where the measurements pointed away from the paper (docs/deviations.md). */
export const consolesrSettings: SearchSettings = tableDefaults("consolesr");

/**
 * Throws an InputError naming the first setting out of its bounds
 * (src/lib/search/bounds.ts, shared with the CLI's flags and result files).
 */
export function checkSettings(settings: SearchSettings): void {
  checkWith(searchSettingsSchema(), settings, "search option ");
}
