/**
 * What a search method plugs into the episode loop (loop.ts): a ProposalStrategy proposes the
 * next structure to fit and may learn from the fit. Everything strategies share (the space, the
 * constraint gate, the fit cache, trajectory making, the random stream) is one SearchRun.
 */
import type { OuterName } from "../equation/index.js";
import type { Dataset } from "../data/index.js";
import type { InputError } from "../core/index.js";
import type { ConstraintPlugin, Product, Registry, RewardPlugin, SymbolPlugin } from "../plugins/index.js";
import type { Rng } from "../core/index.js";
import type { ArgminSolver } from "./argmin.js";
import type { Limits, SearchSpace } from "./cmp.js";
import type { ConstraintGate } from "./constraints.js";
import type { Candidate, Evaluator } from "./evaluator.js";
import type { Icnn } from "./icnn.js";
import type { SearchSettings, StopReason } from "./settings.js";
import type { Tally, Trajectories, Trajectory } from "./trajectory.js";
import type { Size } from "./growth.js";
import type { Clock, Steps } from "../core/index.js";
import type { NoiseEstimate } from "./noise.js";
import type { PhaseSeconds } from "./phases.js";
import type { LinearProposal, ScreenCache } from "./linear/proposer.js";

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
  /** The whole search's clock (its time limit and the signal); default: the signal alone. */
  clock?: Clock;
  onEpisode?: (event: EpisodeEvent) => void;
  /** When a phase that may take a while starts (the question it asks, in words): for a progress line. */
  onPhase?: (event: PhaseEvent) => void;
  /** Set on the search of g⁻¹(y) for an outer function g (forms.ts outerSearch): no second one inside. */
  outer?: OuterName;
  /**
   * Set on the search of y·Q for a ratio (no other form inside) or with a monomial input (an
   * outer function only): forms.ts ratioSearch, monomialSearch; "none": the search of y after a form
   * whose search found no exact law (no form at all).
   */
  within?: "ratio" | "monomial" | "none";
  /** Set on the search with derived inputs (forms.ts derivedSearch): no derived inputs of them. */
  derived?: boolean;
  /**
   * Under noise, the forms screen's proposal for this (reformulated) target, which reaches y's noise
   * floor on y's scale (forms.ts), and the NRMSE it leaves on this target, which stands for the noise
   * estimate: the search fits it first and skips the costly screens (loop.ts atFloor).
   */
  start?: { proposal: LinearProposal; noise: NoiseEstimate };
}

export interface SearchRun {
  ctx: SearchContext;
  settings: SearchSettings;
  space: SearchSpace;
  limits: Limits;
  gate: ConstraintGate;
  evaluator: Evaluator;
  trajectories: Trajectories;
  /** The proposals' stream. */
  rng: Rng;
  /** The −R and −Q networks' streams (every method forks them first, so all share the proposal stream). */
  nets: { r: Rng; q: Rng };
  /** Library columns screened by linear algebra (not fitted: they are not structures). */
  screened: number;
  /** Whether this size is one of several the search widens through, and not the last. */
  widening: boolean;
  /** The output's linear-algebra screens (libraries, selections), shared from size to size. */
  screens: ScreenCache;
}

/** One fitted proposal, as a strategy sees it after the fit. */
export interface Outcome {
  episode: number;
  trajectory: Trajectory;
  candidate: Candidate;
  /** The structure was fitted before (a cache hit). */
  cached: boolean;
  /** The reward as the method shapes it (settings.shaping). */
  reward: number;
}

export interface ProposalStrategy {
  /**
   * Long preparation (a size's screening), as interruptible steps (clock.ts) that the loop
   * drives on the event loop before `promise` and before every `propose`; cheap once done.
   */
  prepare?(need: "promise" | "propose"): Steps<void>;
  /** The next trajectory to fit; undefined when the method has nothing left ("exhausted"). */
  propose(keep: readonly Product[]): Trajectory | undefined;
  /** Another trajectory after a proposal that was fitted already (with avoidRepeats); try = 0, 1, … */
  redraw?(attempt: number, keep: readonly Product[]): Trajectory;
  /** Learns from an episode's outcome. */
  observe?(outcome: Outcome): void;
  /**
   * The train NRMSE the strategy expects to reach at this size (from screening, before any fit):
   * a widening search skips a size that does not promise to halve its best NRMSE so far.
   */
  promise?(): number;
  /**
   * The lowest score (hallOfFame.ts, before making it relative) the strategy's screened proposals
   * at this size promise on `rows` rows: past the noise floor, a wider size is visited only where
   * it promises a better score than the answer so far.
   */
  promisedScore?(rows: number): number;
  /** The −Q and −R networks of a learning method (for inspection, figures and tests). */
  nets?: { q: Icnn; r: Icnn };
}

/** A search's phase before its episodes, in words ("asking the polynomial question (83 monomials)"). */
export interface PhaseEvent {
  target: string;
  phase: string;
}

export interface EpisodeEvent extends Tally {
  target: string;
  episode: number;
  reward: number;
  structures: number;
  best: Candidate;
  /** This episode's fit (with its rival without the constant, `plain`, where it has one), and whether it was cached. */
  candidate: Candidate;
  cached: boolean;
  /**
   * The live −Q and −R networks after this episode's training, for learning methods (clone them to keep a snapshot).
   */
  nets?: { q: Icnn; r: Icnn };
}

export interface OutputSearchResult {
  target: string;
  best: Candidate | undefined;
  front: Candidate[];
  /** Each front member's score (hallOfFame.ts): relative to the lowest, in nats; lower is better. */
  scores: number[];
  /** The noise estimate of the target (noise.ts). */
  noise: NoiseEstimate;
  /**
   * Under noise, where the answer is not clearly better than a rival that is not its sub- or
   * super-structure: that rival and its score's gap above the answer's (below AMBIGUOUS_GAP;
   * hallOfFame.ts rivalOf). Absent: noiseless, or no such rival.
   */
  ambiguous?: { rival: Candidate; gap: number };
  /** The noise floor the search used (undefined: noiseless, or the noise floor turned off). */
  floor?: number;
  /** The train NRMSE at or below which a fit counted as reaching the floor (floorReach(rows) × floor). */
  reach?: number;
  episodes: number;
  structures: number;
  stopReason: StopReason;
  /** A plugin failure that stopped the search; the best found before it is kept. */
  error?: InputError;
  rewards: number[];
  /** How often the LP's rounded argmin was taken, how often an action was drawn, and how often one was redrawn. */
  actions: Tally;
  /** Seconds spent fitting LoCaL structures (the rest is the search). */
  fitSeconds: number;
  /** Library columns screened by the linear-algebra proposals (0 when none ran). */
  screened: number;
  /** The size the search reached (its last, widest size when the size grows by itself). */
  size: Size;
  /**
   * Exact linear relations among the polynomial question's monomials on the rows ("v^2 = 1 - u^2"):
   * the law has several writings there, and the answer is the sparsest. Absent: none found.
   */
  identities?: string[];
  /**
   * Monomials of an exact sparse polynomial of y that the pool cannot write ("u3^2": a product uses a
   * neuron once, so u² needs x²); noiseless data whose law the pool cannot write. Absent otherwise.
   */
  unwritable?: string[];
  /** The trained −Q and −R networks of a learning method (not serialised). */
  nets?: { q: Icnn; r: Icnn };
  /** Seconds per phase of the search (phases.ts; not serialised: timings vary from run to run). */
  phases: PhaseSeconds;
}
