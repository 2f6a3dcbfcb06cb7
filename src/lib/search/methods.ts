/**
 * The method table: every `--method`, defined once. The CLI's choices, the pipeline's
 * validation, the manifest, the playground and the benchmark all read it. A new method is a
 * strategy file (strategies/) and one row here.
 *
 * `kind` leaves room for methods that are not LoCaL structure searches (the paper's baselines
 * DSR, VPG, EQL and an MLP run loops of their own); today every row is a "structure-search",
 * run by the episode loop over its ProposalStrategy.
 */
import { InputError } from "../errors.js";
import { consolesrSettings, paperSettings, checkSettings, type SearchSettings } from "./settings.js";
import type { Threshold } from "./stop.js";
import type { ProposalStrategy, SearchRun } from "./strategy.js";
import { consolesrStrategy } from "./strategies/consolesr.js";
import { enumerateStrategy } from "./strategies/enumerate.js";
import { paperStrategy } from "./strategies/paper.js";
import { randomStrategy } from "./strategies/random.js";

export interface MethodRow {
  name: string;
  kind: "structure-search";
  /** One line for `--help`, the playground and the docs. */
  description: string;
  /** The method's defaults (every field; the ones it does not use are inert). */
  defaults: SearchSettings;
  /** The settings it reads: what its manifest config records and what a user may meaningfully override. */
  uses: readonly (keyof SearchSettings)[];
  /** Its stop rule. */
  threshold: Threshold;
  /** Its answer: the best fit ("best") or the simplest candidate within 5 % of it ("simplest"). */
  answer: "best" | "simplest";
  strategy: (run: SearchRun) => ProposalStrategy;
}

const SPACE = ["episodes", "budget", "terms", "maxFactors", "pearson", "fit"] as const;
const LEARNING = [
  "gamma",
  "epsilon",
  "targetEvery",
  "icnnLearningRate",
  "epochs",
  "batch",
  "hidden",
  "encoding",
  "avoidRepeats",
  "shaping",
  "explore",
] as const;

export const METHODS = {
  consolesr: {
    name: "consolesr",
    kind: "structure-search",
    description:
      "linear-algebra proposals, then double-convex Q-learning with product-level proposals ranked by −R (default)",
    defaults: consolesrSettings,
    uses: [...SPACE, "stopNrmse", ...LEARNING, "proposal", "candidates", "rank", "parents"],
    threshold: "nrmse",
    answer: "simplest",
    strategy: consolesrStrategy,
  },
  paper: {
    name: "paper",
    kind: "structure-search",
    description: "Algorithm 2 as written: ε-greedy LP argmin of −Q, stop at |R − 1| ≤ λ",
    defaults: paperSettings,
    uses: [...SPACE, "lambda", ...LEARNING],
    threshold: "reward",
    answer: "best",
    strategy: paperStrategy,
  },
  random: {
    name: "random",
    kind: "structure-search",
    description: "random structures within the constraints (same fitter and cache): the baseline",
    defaults: { ...consolesrSettings, method: "random" },
    uses: [...SPACE, "stopNrmse", "avoidRepeats", "explore"],
    threshold: "nrmse",
    answer: "simplest",
    strategy: randomStrategy,
  },
  enumerate: {
    name: "enumerate",
    kind: "structure-search",
    description: "every structure once, smallest first",
    defaults: { ...consolesrSettings, method: "enumerate" },
    uses: [...SPACE, "stopNrmse"],
    threshold: "nrmse",
    answer: "simplest",
    strategy: enumerateStrategy,
  },
} satisfies Record<string, MethodRow>;

export type SearchMethod = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as SearchMethod[];

export const isMethod = (name: unknown): name is SearchMethod =>
  typeof name === "string" && Object.hasOwn(METHODS, name);

/** The row of a method name; an InputError listing the known ones otherwise. */
export function methodRow(name: string, what = "search method"): MethodRow {
  if (!isMethod(name)) throw new InputError(`unknown ${what} "${name}" (known: ${METHOD_NAMES.join(", ")})`);
  return METHODS[name];
}

/** A method's complete, validated settings: its defaults under the overrides. */
export function resolveSettings(method: string = "consolesr", overrides: Partial<SearchSettings> = {}): SearchSettings {
  const base = methodRow(method).defaults;
  const settings: SearchSettings = { ...base, ...overrides, method, fit: { ...base.fit, ...overrides.fit } };
  checkSettings(settings);
  return settings;
}

/** The settings a method's manifest config records: its method and the fields it uses, in the settings' order. */
export function settingsRecord(settings: SearchSettings): Partial<SearchSettings> {
  const uses = new Set<string>(methodRow(settings.method).uses);
  return Object.fromEntries(Object.entries(settings).filter(([key]) => key === "method" || uses.has(key)));
}
