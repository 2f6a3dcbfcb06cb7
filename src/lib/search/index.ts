/**
 * The structure search over every target (one output at a time: SEARCH-NOTES measured the joint
 * search failing where per-output search succeeds), returning the version-1 result pieces.
 */
import type { Dataset } from "../data/dataset.js";
import { equationLatex, equationText } from "../equation/format.js";
import type { Equation } from "../equation/types.js";
import { InputError } from "../errors.js";
import type { ConstraintPlugin, Registry, RewardPlugin, SymbolPlugin } from "../plugins.js";
import type { EquationResult } from "../result.js";
import type { Rng } from "../rng.js";
import { createArgminSolver, type ArgminSolver } from "./argmin.js";
import { consolesrSettings, paperSettings, searchOutput, type EpisodeEvent, type OutputSearchResult, type SearchMethod, type SearchSettings } from "./qlearning.js";

export { consolesrSettings, paperSettings, searchOutput, allowedNeurons } from "./qlearning.js";
export type { SearchSettings, SearchMethod, EpisodeEvent, OutputSearchResult } from "./qlearning.js";
export { HallOfFame, createEvaluator, complexityOf, type Candidate } from "./candidate.js";

export interface SearchOptions {
  symbols: Registry<SymbolPlugin>;
  pool: string[];
  constraints: ConstraintPlugin[];
  reward: RewardPlugin;
  rng: Rng;
  method?: SearchMethod;
  /** Overrides of the method's defaults. */
  settings?: Partial<SearchSettings>;
  signal?: AbortSignal;
  onEpisode?: (event: EpisodeEvent) => void;
  argmin?: ArgminSolver;
}

export interface FrontEntry {
  target: string;
  complexity: number;
  nrmse: number;
  text: string;
}

export interface SearchResult {
  outputs: OutputSearchResult[];
  equations: EquationResult[];
  simplified: Equation[];
  front: FrontEntry[];
  episodes: number;
  structures: number;
  stopReason: "reward-threshold" | "episodes" | "aborted" | "error";
  /** The plugin failure that stopped the search, if one did. */
  error?: InputError;
  settings: SearchSettings;
}

export function resolveSettings(method: SearchMethod = "consolesr", overrides: Partial<SearchSettings> = {}): SearchSettings {
  const base = method === "paper" ? paperSettings : consolesrSettings;
  if (!["consolesr", "paper", "random", "enumerate"].includes(method)) throw new InputError(`unknown search method "${method}" (known: consolesr, paper, random, enumerate)`);
  const settings = { ...base, ...overrides, method, fit: { ...base.fit, ...overrides.fit } };
  const positive: (keyof SearchSettings)[] = ["episodes", "targetEvery", "epochs", "batch", "terms", "maxFactors"];
  for (const name of positive) {
    const value = settings[name] as number;
    if (!Number.isInteger(value) || value < 1) throw new InputError(`search option ${name} must be a positive integer (got ${value})`);
  }
  if (!(Number.isInteger(settings.budget) && settings.budget >= 0)) throw new InputError(`search option budget must be a non-negative integer (got ${settings.budget})`);
  if (!["argmin", "surrogate", "operators"].includes(settings.proposal)) throw new InputError(`search option proposal must be argmin, surrogate or operators (got "${settings.proposal}")`);
  if (!["reward-net", "none"].includes(settings.rank)) throw new InputError(`search option rank must be reward-net or none (got "${settings.rank}")`);
  for (const name of ["gamma", "epsilon"] as const) {
    if (!(settings[name] >= 0 && settings[name] <= 1)) throw new InputError(`search option ${name} must be in [0, 1] (got ${settings[name]})`);
  }
  return settings;
}

export async function search(data: Dataset, options: SearchOptions): Promise<SearchResult> {
  const settings = resolveSettings(options.method, options.settings);
  const argmin = options.argmin ?? (await createArgminSolver());
  const lookup = (name: string) => options.symbols.get(name);
  const outputs: OutputSearchResult[] = [];
  for (const target of data.targets) {
    if (options.signal?.aborted) break;
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
        onEpisode: options.onEpisode,
      },
      settings,
    );
    outputs.push(result);
    if (result.error) break;
  }
  const simplified = outputs.map((o) => o.best?.equation ?? { target: o.target, terms: [] });
  const equations = outputs.map((o, k) => ({
    target: o.target,
    text: equationText(simplified[k]!, lookup),
    latex: equationLatex(simplified[k]!, lookup),
    terms: simplified[k]!.terms,
    trainNrmse: o.best?.nrmse ?? Number.NaN,
  }));
  const front = outputs.flatMap((o) => o.front.map((c) => ({ target: o.target, complexity: c.complexity, nrmse: c.nrmse, text: equationText(c.equation, lookup) })));
  const error = outputs.find((o) => o.error)?.error;
  const stopReason = error
    ? "error"
    : outputs.some((o) => o.stopReason === "aborted") || outputs.length < data.targets.length
      ? "aborted"
      : outputs.every((o) => o.stopReason === "reward-threshold")
        ? "reward-threshold"
        : "episodes";
  return {
    outputs,
    equations,
    simplified,
    front,
    episodes: outputs.reduce((s, o) => s + o.episodes, 0),
    structures: outputs.reduce((s, o) => s + o.structures, 0),
    stopReason,
    error,
    settings,
  };
}
