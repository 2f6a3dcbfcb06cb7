/**
 * The structure search over every target (one output at a time: docs/design.md#joint-search: the joint
 * search failing where per-output search succeeds), returning the version-1 result pieces.
 */
import type { Dataset } from "../data/index.js";
import { equationText } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import type { InputError } from "../core/index.js";
import type { ConstraintPlugin, Registry, RewardPlugin, SymbolPlugin } from "../plugins/index.js";
import { equationResult, type EquationResult } from "../result/index.js";
import type { Rng } from "../core/index.js";
import { createArgminSolver, type ArgminSolver } from "./argmin.js";
import { Clock } from "../core/index.js";
import { searchOutput } from "./loop.js";
import { resolveSettings } from "./methods.js";
import type { SearchSettings } from "./settings.js";
import type { EpisodeEvent, OutputSearchResult, PhaseEvent } from "./strategy.js";

export { searchOutput } from "./loop.js";
export {
  METHODS,
  METHOD_NAMES,
  isMethod,
  isModelMethod,
  methodRow,
  SEARCH_METHOD_NAMES,
  structureSearchRow,
  resolveSettings,
  settingKeys,
  settingsAbsentFrom,
  settingsRecord,
  settingRows,
  type MethodRow,
  type ModelRow,
  type StructureSearchRow,
  type SearchMethod,
  type ModelMethod,
} from "./methods.js";
export { consolesrSettings, paperSettings, STOP_REASONS, type SearchSettings, type StopReason } from "./settings.js";
export { allowedNeurons } from "./constraints.js";
export { FACTORS_CAP, TERMS_CAP, sizesOf, type Size } from "./growth.js";
export type {
  EpisodeEvent,
  PhaseEvent,
  OutputSearchResult,
  ProposalStrategy,
  SearchRun,
  SearchContext,
  Outcome,
} from "./strategy.js";
export { createEvaluator, complexityOf, type Candidate } from "./evaluator.js";
export { HallOfFame, frontScoreOf, frontScores, parametersOf } from "./hallOfFame.js";
export { estimateNoise, type NoiseEstimate } from "./noise.js";
export { exactPolynomialInputs } from "./polynomialQuestion.js";
export { Clock, Interrupted } from "../core/index.js";
export {
  PRODUCT_MOVES,
  mutate,
  crossover,
  randomProduct,
  flipBits,
  type Products,
  type ProductLimits,
  type ProductMove,
} from "./operators.js";

export interface SearchOptions {
  symbols: Registry<SymbolPlugin>;
  pool: string[];
  constraints: ConstraintPlugin[];
  reward: RewardPlugin;
  rng: Rng;
  /** A method of the method table (default consolesr). */
  method?: string;
  /** Overrides of the method's defaults. */
  settings?: Partial<SearchSettings>;
  signal?: AbortSignal;
  /**
   * When the run began (performance.now()), where work before the search (the pipeline's input
   * screen) counts towards the time limit; default: now.
   */
  started?: number;
  onEpisode?: (event: EpisodeEvent) => void;
  /** When a target's search starts a phase before its episodes (strategy.ts PhaseEvent). */
  onPhase?: (event: PhaseEvent) => void;
  argmin?: ArgminSolver;
}

export interface FrontEntry {
  target: string;
  complexity: number;
  nrmse: number;
  text: string;
  /** The answer rule's score (hallOfFame.ts): relative to the front's lowest, in nats; lower is better. */
  score: number;
  /** The member chosen as the answer. */
  chosen: boolean;
}

export interface SearchResult {
  outputs: OutputSearchResult[];
  equations: EquationResult[];
  simplified: Equation[];
  front: FrontEntry[];
  /**
   * Per output whose answer is not clearly better than a rival (OutputSearchResult.ambiguous):
   * the rival's text and the gap.
   */
  ambiguous: { target: string; rival: string; gap: number }[];
  episodes: number;
  structures: number;
  /**
   * "reward-threshold" or "noise-floor" when every output met one of them (noise-floor if any
   * output stopped there); else the first of "error", "aborted", "time-limit" that applies, or "episodes".
   */
  stopReason: "reward-threshold" | "noise-floor" | "time-limit" | "episodes" | "aborted" | "error";
  /** The plugin failure that stopped the search, if one did. */
  error?: InputError;
  settings: SearchSettings;
}

export async function search(data: Dataset, options: SearchOptions): Promise<SearchResult> {
  const settings = resolveSettings(options.method, options.settings);
  // Structure fits on a tfjs engine need it loaded (the float64 engine, the default, does not).
  if (settings.fit.engine !== undefined && settings.fit.engine !== "js") await import("../local/fitTfjs.js");
  const argmin = options.argmin ?? (await createArgminSolver());
  const lookup = (name: string) => options.symbols.get(name);
  const outputs: OutputSearchResult[] = [];
  const clock = new Clock(settings.replay ? 0 : settings.timeLimit, options.signal, options.started);
  for (const target of data.targets) {
    if (options.signal?.aborted) break;
    // A replay of a run stopped from outside searches only the targets it reached.
    if (settings.replayStop === "aborted" && !(target in (settings.replay ?? {}))) break;
    const result = await searchOutput(
      {
        data,
        target,
        symbols: options.symbols,
        pool: options.pool,
        constraints: options.constraints,
        reward: options.reward,
        argmin,
        rng: options.rng.fork(),
        signal: options.signal,
        clock,
        onEpisode: options.onEpisode,
        onPhase: options.onPhase,
      },
      settings,
    );
    outputs.push(result);
    if (result.error) break;
  }
  const simplified = outputs.map((o) => o.best?.equation ?? { target: o.target, terms: [] });
  const equations = outputs.map((o, k) => equationResult(simplified[k]!, lookup, o.best?.nrmse ?? Number.NaN));
  const front = outputs.flatMap((o) =>
    o.front.map((c, i) => ({
      target: o.target,
      complexity: c.complexity,
      nrmse: c.nrmse,
      text: equationText(c.equation, lookup),
      score: o.scores[i]!,
      chosen: c === o.best,
    })),
  );
  const ambiguous = outputs.flatMap((o) =>
    o.ambiguous
      ? [{ target: o.target, rival: equationText(o.ambiguous.rival.equation, lookup), gap: o.ambiguous.gap }]
      : [],
  );
  const error = outputs.find((o) => o.error)?.error;
  const stopReason = error
    ? "error"
    : outputs.some((o) => o.stopReason === "aborted") || outputs.length < data.targets.length
      ? "aborted"
      : outputs.some((o) => o.stopReason === "time-limit")
        ? "time-limit"
        : outputs.every((o) => o.stopReason === "reward-threshold")
          ? "reward-threshold"
          : outputs.every((o) => o.stopReason === "reward-threshold" || o.stopReason === "noise-floor")
            ? "noise-floor"
            : "episodes";
  return {
    outputs,
    equations,
    simplified,
    front,
    ambiguous,
    episodes: outputs.reduce((s, o) => s + o.episodes, 0),
    structures: outputs.reduce((s, o) => s + o.structures, 0),
    stopReason,
    error,
    settings,
  };
}
export { type ArgminSolver, browserArgmin, createArgminSolver } from "./argmin.js";
export {
  type Bound,
  BOUNDS,
  checkBound,
  checkWith,
  CHOICES,
  fitSchema,
  FLAG_BOUNDS,
  ITEM_BOUNDS,
  listRule,
  parseBound,
  rowSchema,
} from "./bounds.js";
export { createSpace, initialState, layerBounds, partialStructure, type SearchSpace, transition } from "./cmp.js";
export type { Icnn } from "./icnn.js";
