/**
 * The settings table: every number and choice a user can set, once — its bound or choices, its
 * command-line flag, its help, and its group. Derived from it: the validation of every setting
 * (search/bounds.ts: the library's settings check, result files and the flags go through the same
 * rule), the CLI's options (src/cli/commands/fitOptions.ts), the sweep variants' checks (sweep/spec.ts) and
 * the playground's and report forms' controls with their URL parameters (their ranges: a form may
 * cap a slow setting lower, `form`). Which methods read a setting is the method table's `uses`
 * (search/methods.ts, `settingRows`), not repeated here.
 *
 * Adding a setting: a row here, and the code that reads it (its default in the method table's
 * settings, search/settings.ts). Pure data: no schema library, nothing Node-only.
 */

/** Longest time limit in seconds: a week (a larger value is a typo, not a plan). */
export const TIME_LIMIT_CAP = 604_800;
/** Largest seed: seeds are 32-bit (rng.ts). */
export const SEED_MAX = 0xffffffff;
/** Most rows an experiment draws (train and test each). */
export const ROWS_CAP = 1_000_000;
/** Fewest data rows a fit accepts. */
export const MIN_ROWS = 10;
/** Most tokens of a DSR expression (its batch keeps a mask per token and step). */
export const LENGTH_CAP = 64;
/** Most products per output (LoCaL n2) the size grows to. */
export const TERMS_CAP = 12;
/** Most factors per product the size grows to. */
export const FACTORS_CAP = 6;
/** Most hidden layers of the MLP baseline. */
export const HIDDEN_LAYERS_CAP = 8;

/** Where a setting belongs: the data drawn, one fit, the search, a model baseline, a sweep. */
export type SettingGroup = "data" | "fit" | "search" | "model" | "sweep";

interface RowBase {
  group: SettingGroup;
  /** The command-line flag with its argument (`--time-limit <seconds>`); none: library and files only. */
  flag?: string;
  /** One line for `--help` and the reference. */
  help: string;
}

/** A bounded number. */
export interface NumberRow extends RowBase {
  kind: "integer" | "number";
  min: number;
  max: number;
  /** Above min, not at it. */
  openMin?: boolean;
  /** The rule in words, where the default wording would mislead ("0 (no limit)"). */
  rule?: string;
  /** One value also accepted outside the range (−1: no threshold), with the rule that names it. */
  sentinel?: { value: number; rule: string };
  /** The flag's own narrower range, where the flag cannot ask for a library-only value (0: auto). */
  flagMin?: number;
  /** A form's cap, where a page runs a slow setting at a lower maximum. */
  form?: { max: number };
}

/** One of a list of names. */
export interface ChoiceRow extends RowBase {
  kind: "choice";
  choices: readonly string[];
}

export type SettingRow = NumberRow | ChoiceRow;

type More = Omit<Partial<NumberRow>, "kind" | "group" | "min" | "max" | "help">;
const integer = (group: SettingGroup, min: number, max: number, help: string, more: More = {}) =>
  ({ ...more, kind: "integer", group, min, max, help }) as const satisfies NumberRow;
const number = (group: SettingGroup, min: number, max: number, help: string, more: More = {}) =>
  ({ ...more, kind: "number", group, min, max, help }) as const satisfies NumberRow;
const choice = <const C extends readonly string[]>(group: SettingGroup, choices: C, help: string, flag?: string) =>
  ({ kind: "choice", group, choices, help, ...(flag ? { flag } : {}) }) as const;

/** The table, by each setting's name in the library (SearchSettings, FitOptions, a pipeline's config). */
export const SETTINGS = {
  // The data.
  seed: integer("data", 0, SEED_MAX, "seed of the data draw and the search", { form: { max: 2 ** 31 - 1 } }),
  rows: integer("data", MIN_ROWS, ROWS_CAP, "rows drawn for training (and again for the test set)", {
    form: { max: 100_000 },
  }),
  snrDb: number("data", -200, 1000, "Gaussian noise on the training target, SNR in dB"),
  // The search.
  episodes: integer("search", 1, 1_000_000, "maximum episodes per output (paper T = 600)", {
    flag: "--episodes <n>",
    form: { max: 10_000 },
  }),
  budget: integer("search", 0, 10_000_000, "maximum distinct structures fitted per output (0: no limit)", {
    flag: "--budget <n>",
    rule: "an integer from 0 (no limit) to 10000000",
    form: { max: 100_000 },
  }),
  timeLimit: number(
    "search",
    0,
    TIME_LIMIT_CAP,
    "wall-clock limit of the search; at it the best so far is printed and written (0: none, the default)",
    {
      flag: "--time-limit <seconds>",
      rule: `a number of seconds from 0 (no limit) to ${TIME_LIMIT_CAP}`,
      form: { max: 3600 },
    },
  ),
  terms: integer("search", 0, TERMS_CAP, `products per output (LoCaL n2), 1…${TERMS_CAP}; default: grows by itself`, {
    flag: "--terms <n>",
    rule: `an integer from 1 to ${TERMS_CAP}, or 0 for a size that grows by itself`,
    flagMin: 1,
  }),
  maxFactors: integer(
    "search",
    0,
    FACTORS_CAP,
    `symbols per product (static constraint), 1…${FACTORS_CAP}; default: grows by itself`,
    {
      flag: "--max-factors <n>",
      rule: `an integer from 1 to ${FACTORS_CAP}, or 0 for a size that grows by itself`,
      flagMin: 1,
    },
  ),
  stopNrmse: number(
    "search",
    0,
    1,
    "stop rule: train NRMSE at or below this, 0…1 (default 1e-6, or the noise floor estimated from the " +
      "data where it is higher; giving it turns the estimate off)",
    {
      flag: "--stop-nrmse <x>",
      sentinel: { value: -1, rule: "a number from 0 to 1, or −1 for no threshold" },
      flagMin: 0,
    },
  ),
  epsilon: number("search", 0, 1, "ε-greedy exploration, 0…1 (paper 0.4)", { flag: "--epsilon <p>" }),
  gamma: number("search", 0, 1, "discount factor, 0…1 (paper 0.2)", { flag: "--gamma <g>" }),
  lambda: number("search", 0, 1, "the paper's stop rule |R − 1| ≤ λ"),
  pearson: number("search", 0, 1, "the dynamic constraint's correlation threshold"),
  targetEvery: integer("search", 1, 1_000_000, "episodes between target-network updates (paper T0 = 10)"),
  icnnLearningRate: number("search", 0, 1, "the ICNNs' learning rate", { openMin: true }),
  epochs: integer("model", 1, 10_000, "MLP: most epochs (mlp default 500); EQL: epochs per phase (default 200)", {
    flag: "--epochs <n>",
  }),
  batch: integer("model", 1, 100_000, "MLP, EQL: mini-batch rows (default 64)", { flag: "--batch <n>" }),
  hiddenUnits: integer("model", 1, 1024, "units of one hidden layer (--hidden's widths)"),
  candidates: integer("search", 1, 100_000, "proposals drawn per episode by the operators"),
  parents: integer("search", 1, 1000, "parents the operators draw from the hall of fame"),
  // The model baselines.
  patience: integer(
    "model",
    1,
    10_000,
    "MLP: stop after this many epochs without a better validation loss (default 30)",
    {
      flag: "--patience <n>",
    },
  ),
  validation: number(
    "model",
    0,
    0.5,
    "MLP: fraction of the training rows held out for early stopping, above 0 and at most 0.5 (default 0.2)",
    { flag: "--validation <fraction>", openMin: true },
  ),
  l1: number("model", 0, 1, "EQL: L1 strength of its second phase, 0…1 (default 1e-2)", { flag: "--l1 <strength>" }),
  threshold: number(
    "model",
    0,
    10,
    "EQL: weights with |w| below this are fixed at 0 in its last phase, 0…10 (default 0.1)",
    {
      flag: "--threshold <w>",
    },
  ),
  entropy: number("model", 0, 1, "DSR, VPG: weight of the entropy bonus, 0…1 (default 0.005)", {
    flag: "--entropy <weight>",
  }),
  minLength: integer("model", 1, LENGTH_CAP, "DSR, VPG: shortest expression sampled, in tokens (default 4)", {
    flag: "--min-length <tokens>",
  }),
  maxLength: integer("model", 3, LENGTH_CAP, "DSR, VPG: longest expression sampled, in tokens (default 30)", {
    flag: "--max-length <tokens>",
  }),
  // One fit.
  steps: integer("fit", 0, 1_000_000, "Adam steps per fit (default 200 for a form, 50 in the search)", {
    flag: "--steps <n>",
    form: { max: 5000 },
  }),
  learningRate: number("fit", 0, 10, "Adam learning rate (paper: 1e-2; with --method mlp the MLP's, default 3e-3)", {
    flag: "--lr <rate>",
    openMin: true,
  }),
  // A sweep.
  jobs: integer("sweep", 1, 256, "worker processes"),
  // The choices.
  proposal: choice(
    "search",
    ["linear", "wide", "operators", "argmin"],
    "consolesr's proposals: linear (default: linear-algebra proposals first, then operators) | wide (linear, " +
      "plus backward elimination over the whole product library for sums up to --terms products; pow's default) " +
      "| operators | argmin (the paper's ε-greedy LP rollout)",
    "--proposal <kind>",
  ),
  rank: choice(
    "search",
    ["reward-net", "none"],
    "rank proposals by the −R network (reward-net) or not at all (none: the ablation)",
    "--rank <kind>",
  ),
  shaping: choice("search", ["raw", "log"], "the reward the Q-network learns: raw or its log"),
  explore: choice("search", ["uniform", "mutate"], "random actions: uniform, or a mutation of the best structure"),
  qNetwork: choice(
    "search",
    ["icnn", "mlp"],
    "the −Q and −R networks: icnn (default: input-convex, LP argmin) | mlp (not convex, the best of 64 " +
      "sampled actions: the paper's non-convex ablation)",
    "--q-network <kind>",
  ),
  encoding: choice("search", ["paper", "structure"], "the state the Q-network reads"),
  polish: choice(
    "fit",
    ["lm", "none", "lsq", "bfgs"],
    "coefficient fit: lsq (the search's default: lm, except that a structure with no inner weight is solved " +
      "exactly by QR least squares, no Adam) | lm (Adam then Levenberg–Marquardt; a form's default) | " +
      "none (Adam only, the paper) | bfgs (BFGS alone, no Adam: the ablation)",
    "--polish <kind>",
  ),
  engine: choice(
    "fit",
    ["tfjs", "js"],
    "where Adam runs (default tfjs for a form, js in the search)",
    "--engine <engine>",
  ),
} as const satisfies Record<string, SettingRow>;

export type SettingName = keyof typeof SETTINGS;

/** The names of the table's rows of one kind. */
type RowsOf<K extends SettingRow["kind"]> = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { kind: K } ? N : never;
}[SettingName];
export type NumberSettingName = RowsOf<"integer"> | RowsOf<"number">;
export type ChoiceSettingName = RowsOf<"choice">;
/** A choice setting's values, as a type (`Choice<"polish">` is "lm" | "none" | "lsq" | "bfgs"). */
export type Choice<N extends ChoiceSettingName> = (typeof SETTINGS)[N]["choices"][number];

/** The rows of one group that have a flag, in the table's order. */
export const flaggedRows = (group: SettingGroup): [SettingName, SettingRow][] =>
  (Object.entries(SETTINGS) as [SettingName, SettingRow][]).filter(([, row]) => row.group === group && row.flag);

/** A number row's rule in words, as every error message states it. */
export function ruleOf(row: NumberRow, forFlag = false): string {
  if (row.sentinel && !forFlag) return row.sentinel.rule;
  const min = forFlag && row.flagMin !== undefined ? row.flagMin : row.min;
  if (row.rule && !(forFlag && row.flagMin !== undefined)) return row.rule;
  return row.kind === "integer"
    ? `an integer from ${min} to ${row.max}`
    : row.openMin
      ? `a number above ${min} and at most ${row.max}`
      : `a number from ${min} to ${row.max}`;
}
