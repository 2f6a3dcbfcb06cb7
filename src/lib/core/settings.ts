/**
 * The settings table: every number, choice, switch and list a user can set, once — its type,
 * bound or choices, consolesr's default (and the paper's where it differs), its command-line flag,
 * its help, its group, the methods that read it, and what a result file made before it existed
 * meant. Derived from it (like PySR's parameter groupings, one table drives options, docs and
 * validation): SearchSettings' fields and defaults (search/settings.ts), the validation of every
 * setting (search/bounds.ts: the library's settings check, result files and the flags go through
 * the same rule), each method's `uses` and so what its manifest records (search/methods.ts), the
 * CLI's options (src/cli/commands/fitOptions.ts), the sweep variants' checks (sweep/spec.ts), the
 * reference page (scripts/reference.ts) and the playground's and report forms' controls with
 * their URL parameters (their ranges: a form may cap a slow setting lower, `form`).
 *
 * Adding a setting: a row here, and the code that reads it (CONTRIBUTING.md, "Add a setting").
 * Pure data: no schema library, nothing Node-only.
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

/**
 * The methods of the method table (search/methods.ts) that read a setting, by the groupings the
 * rows share; test/search/method-conformance.test.ts checks that every name is a method.
 */
const SEARCHES = ["consolesr", "paper", "random", "enumerate"] as const;
/** The Q-learning searches: their networks, exploration and state. */
const LEARNERS = ["consolesr", "paper"] as const;
const DSR = ["dsr", "vpg"] as const;
const MODELS = ["mlp", "eql", ...DSR] as const;

interface RowBase<V> {
  group: SettingGroup;
  /**
   * The command-line flag with its argument (`--time-limit <seconds>`); a boolean's is the bare
   * flag (`--outer`), which also gives its negation (`--no-outer`). None: library and files only.
   */
  flag?: string;
  /** One line for `--help` and the reference. */
  help: string;
  /**
   * consolesr's default. A row with one is a search setting: a field of SearchSettings
   * (search/settings.ts), checked by its schema, recorded in a result's manifest.config for the
   * methods that read it, and a `search` option of `fit()`.
   */
  default?: V;
  /** The paper's Algorithm 2 value (the `paper` method's default), where it differs from consolesr's. */
  paper?: V;
  /**
   * The methods that read it. A fit row is read through a structure search's `fit` record, and
   * by a model method (which has no such record) as its own setting (learningRate).
   */
  readBy?: readonly string[];
  /**
   * In a result file: a manifest made before the setting existed ran with `absent` (reproduce
   * re-runs it so); `omit`: that value is not written either, so that such results read the same.
   */
  manifest?: { absent: V; omit?: true };
}

/** A bounded number. */
export interface NumberRow extends RowBase<number> {
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
export interface ChoiceRow extends RowBase<string> {
  kind: "choice";
  choices: readonly string[];
}

/** On or off. */
export interface BooleanRow extends RowBase<boolean> {
  kind: "boolean";
}

/** A list of bounded integers (a flag takes them comma-separated). */
export interface ListRow extends RowBase<readonly number[]> {
  kind: "list";
  /** Each item's bound. */
  item: { kind: "integer"; min: number; max: number };
  minItems: number;
  maxItems: number;
  /** What the items are, for the rule: "a list of 1 to 8 layer widths". */
  items: string;
}

export type SettingRow = NumberRow | ChoiceRow | BooleanRow | ListRow;

type More<R extends SettingRow> = Omit<Partial<R>, "kind" | "group" | "help">;
// Generic in `more`, so that a row's type keeps what it has (a default: a search setting, TableSettings).
const integer = <const M extends More<NumberRow> = {}>(
  group: SettingGroup,
  min: number,
  max: number,
  help: string,
  more?: M,
) => ({ ...(more as M), kind: "integer", group, min, max, help }) as const satisfies NumberRow;
const number = <const M extends More<NumberRow> = {}>(
  group: SettingGroup,
  min: number,
  max: number,
  help: string,
  more?: M,
) => ({ ...(more as M), kind: "number", group, min, max, help }) as const satisfies NumberRow;
const choice = <
  const C extends readonly string[],
  const M extends More<ChoiceRow> & { default?: C[number]; paper?: C[number] },
>(
  group: SettingGroup,
  choices: C,
  help: string,
  more: M,
) => ({ ...more, kind: "choice", group, choices, help }) as const satisfies ChoiceRow;
const boolean = <const M extends More<BooleanRow> & { default: boolean }>(group: SettingGroup, help: string, more: M) =>
  ({ ...more, kind: "boolean", group, help }) as const satisfies BooleanRow;

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
    default: 600,
    readBy: SEARCHES,
  }),
  budget: integer("search", 0, 10_000_000, "maximum distinct structures fitted per output (0: no limit)", {
    flag: "--budget <n>",
    rule: "an integer from 0 (no limit) to 10000000",
    form: { max: 100_000 },
    default: 0,
    readBy: [...SEARCHES, ...DSR],
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
      default: 0,
      readBy: SEARCHES,
      manifest: { absent: 0, omit: true },
    },
  ),
  terms: integer("search", 0, TERMS_CAP, `products per output (LoCaL n2), 1…${TERMS_CAP}; default: grows by itself`, {
    flag: "--terms <n>",
    rule: `an integer from 1 to ${TERMS_CAP}, or 0 for a size that grows by itself`,
    flagMin: 1,
    default: 0,
    paper: 2,
    readBy: SEARCHES,
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
      default: 0,
      paper: 2,
      readBy: SEARCHES,
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
      default: 1e-6,
      paper: 0,
      readBy: ["consolesr", "random", "enumerate", ...DSR],
    },
  ),
  noiseFloor: boolean(
    "search",
    "estimate the noise floor from the data and stop at it once the search stalls (off where stopNrmse is given)",
    { default: true, paper: false, readBy: ["consolesr", "random", "enumerate"], manifest: { absent: false } },
  ),
  epsilon: number("search", 0, 1, "ε-greedy exploration, 0…1 (paper 0.4)", {
    flag: "--epsilon <p>",
    default: 0.4,
    readBy: [...LEARNERS, "dsr"],
  }),
  gamma: number("search", 0, 1, "discount factor, 0…1 (paper 0.2)", {
    flag: "--gamma <g>",
    default: 0.2,
    readBy: LEARNERS,
  }),
  lambda: number("search", 0, 1, "the paper's stop rule |R − 1| ≤ λ", { default: 0, paper: 1e-2, readBy: ["paper"] }),
  pearson: number("search", 0, 1, "the dynamic constraint's correlation threshold", {
    default: 0.9999,
    paper: 0.99,
    readBy: SEARCHES,
  }),
  outer: boolean("search", "try outer functions: search g⁻¹(y) and answer y = g(L) (√, 1/·, ², ^(−1/2), exp)", {
    default: true,
    paper: false,
    readBy: ["consolesr"],
    manifest: { absent: false },
  }),
  ratio: boolean("search", "try ratios: an exact relation y·Q(x) = P(x) proposes y = P/Q", {
    default: true,
    paper: false,
    readBy: ["consolesr"],
    manifest: { absent: false },
  }),
  monomial: boolean("search", "try monomial arguments: f(w·u) of a product of powers u of inputs", {
    default: true,
    paper: false,
    readBy: ["consolesr"],
    manifest: { absent: false },
  }),
  derived: boolean(
    "search",
    "try derived inputs: sums and differences of inputs or of their squares (a·(b − c)², √(a² + b²))",
    {
      default: true,
      paper: false,
      readBy: ["consolesr"],
      manifest: { absent: false },
    },
  ),
  polynomial: boolean("search", "ask first whether y is a sparse sum of monomials of degree ≤ 3 (or 2)", {
    default: true,
    paper: false,
    readBy: ["consolesr"],
    manifest: { absent: false },
  }),
  constant: boolean("search", "fit every structure with an additive constant per output", {
    default: true,
    paper: false,
    readBy: SEARCHES,
    manifest: { absent: false },
  }),
  avoidRepeats: boolean("search", "redraw a trajectory whose structure was already fitted", {
    default: true,
    paper: false,
    readBy: [...LEARNERS, "random"],
  }),
  targetEvery: integer("search", 1, 1_000_000, "episodes between target-network updates (paper T0 = 10)", {
    default: 25,
    paper: 10,
    readBy: LEARNERS,
  }),
  icnnLearningRate: number("search", 0, 1, "the ICNNs' learning rate", {
    openMin: true,
    default: 5e-3,
    readBy: LEARNERS,
  }),
  hidden: {
    kind: "list",
    group: "model",
    flag: "--hidden <widths>",
    help:
      "MLP hidden layer widths, comma-separated (mlp default 64,64); EQL: one number, its units of each kind " +
      "(default 2)",
    item: { kind: "integer", min: 1, max: 1024 },
    minItems: 1,
    maxItems: HIDDEN_LAYERS_CAP,
    items: "layer widths",
    default: [32, 32],
    readBy: [...LEARNERS, ...MODELS],
  },
  epochs: integer("model", 1, 10_000, "MLP: most epochs (mlp default 500); EQL: epochs per phase (default 200)", {
    flag: "--epochs <n>",
    default: 10,
    paper: 50,
    readBy: [...LEARNERS, "mlp", "eql"],
  }),
  batch: integer("model", 1, 100_000, "MLP, EQL: mini-batch rows (default 64)", {
    flag: "--batch <n>",
    default: 32,
    paper: 100,
    readBy: [...LEARNERS, ...MODELS],
  }),
  candidates: integer("search", 1, 100_000, "proposals drawn per episode by the operators", {
    default: 256,
    readBy: ["consolesr"],
  }),
  parents: integer("search", 1, 1000, "parents the operators draw from the hall of fame", {
    default: 8,
    readBy: ["consolesr"],
  }),
  // The model baselines.
  patience: integer(
    "model",
    1,
    10_000,
    "MLP: stop after this many epochs without a better validation loss (default 30)",
    { flag: "--patience <n>", default: 30, readBy: ["mlp"] },
  ),
  validation: number(
    "model",
    0,
    0.5,
    "MLP: fraction of the training rows held out for early stopping, above 0 and at most 0.5 (default 0.2)",
    { flag: "--validation <fraction>", openMin: true, default: 0.2, readBy: ["mlp"] },
  ),
  l1: number("model", 0, 1, "EQL: L1 strength of its second phase, 0…1 (default 1e-2)", {
    flag: "--l1 <strength>",
    default: 1e-2,
    readBy: ["eql"],
  }),
  threshold: number(
    "model",
    0,
    10,
    "EQL: weights with |w| below this are fixed at 0 in its last phase, 0…10 (default 0.1)",
    { flag: "--threshold <w>", default: 0.1, readBy: ["eql"] },
  ),
  entropy: number("model", 0, 1, "DSR, VPG: weight of the entropy bonus, 0…1 (default 0.005)", {
    flag: "--entropy <weight>",
    default: 0.005,
    readBy: DSR,
  }),
  minLength: integer("model", 1, LENGTH_CAP, "DSR, VPG: shortest expression sampled, in tokens (default 4)", {
    flag: "--min-length <tokens>",
    default: 4,
    readBy: DSR,
  }),
  maxLength: integer("model", 3, LENGTH_CAP, "DSR, VPG: longest expression sampled, in tokens (default 30)", {
    flag: "--max-length <tokens>",
    default: 30,
    readBy: DSR,
  }),
  // One fit (a structure search's `fit` record; its defaults are search/settings.ts's SEARCH_FIT).
  steps: integer("fit", 0, 1_000_000, "Adam steps per fit (default 200 for a form, 50 in the search)", {
    flag: "--steps <n>",
    form: { max: 5000 },
    readBy: SEARCHES,
  }),
  learningRate: number("fit", 0, 10, "Adam learning rate (paper: 1e-2; with --method mlp the MLP's, default 3e-3)", {
    flag: "--lr <rate>",
    openMin: true,
    // The model baselines' own (a fit's default is 1e-2, FitOptions).
    default: 3e-3,
    readBy: [...SEARCHES, ...MODELS],
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
    { flag: "--proposal <kind>", default: "linear", paper: "argmin", readBy: ["consolesr"] },
  ),
  rank: choice(
    "search",
    ["reward-net", "none"],
    "rank proposals by the −R network (reward-net) or not at all (none: the ablation)",
    { flag: "--rank <kind>", default: "reward-net", readBy: ["consolesr"] },
  ),
  shaping: choice("search", ["raw", "log"], "the reward the Q-network learns: raw or its log", {
    default: "log",
    paper: "raw",
    readBy: LEARNERS,
  }),
  explore: choice("search", ["uniform", "mutate"], "random actions: uniform, or a mutation of the best structure", {
    default: "mutate",
    paper: "uniform",
    readBy: [...LEARNERS, "random"],
  }),
  qNetwork: choice(
    "search",
    ["icnn", "mlp"],
    "the −Q and −R networks: icnn (default: input-convex, LP argmin) | mlp (not convex, the best of 64 " +
      "sampled actions: the paper's non-convex ablation)",
    { flag: "--q-network <kind>", default: "icnn", readBy: LEARNERS },
  ),
  encoding: choice("search", ["paper", "structure"], "the state the Q-network reads", {
    default: "structure",
    paper: "paper",
    readBy: LEARNERS,
  }),
  polish: choice(
    "fit",
    ["lm", "none", "lsq", "bfgs"],
    "coefficient fit: lsq (the search's default: lm, except that a structure with no inner weight is solved " +
      "exactly by QR least squares, no Adam) | lm (Adam then Levenberg–Marquardt; a form's default) | " +
      "none (Adam only, the paper) | bfgs (BFGS alone, no Adam: the ablation)",
    { flag: "--polish <kind>", readBy: SEARCHES },
  ),
  engine: choice("fit", ["tfjs", "js"], "where Adam runs (default tfjs for a form, js in the search)", {
    flag: "--engine <engine>",
    readBy: SEARCHES,
  }),
} as const satisfies Record<string, SettingRow>;

export type SettingName = keyof typeof SETTINGS;

/** The names of the table's rows of one kind. */
type RowsOf<K extends SettingRow["kind"]> = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { kind: K } ? N : never;
}[SettingName];
export type NumberSettingName = RowsOf<"integer"> | RowsOf<"number">;
export type ChoiceSettingName = RowsOf<"choice">;
export type BooleanSettingName = RowsOf<"boolean">;
export type ListSettingName = RowsOf<"list">;
/** A choice setting's values, as a type (`Choice<"polish">` is "lm" | "none" | "lsq" | "bfgs"). */
export type Choice<N extends ChoiceSettingName> = (typeof SETTINGS)[N]["choices"][number];

/** The value a row holds, as a type. */
export type ValueOf<R> = R extends { kind: "choice"; choices: readonly (infer C)[] }
  ? C
  : R extends { kind: "boolean" }
    ? boolean
    : R extends { kind: "list" }
      ? number[]
      : number;

/** The search settings: the rows with a default (each a field of SearchSettings). */
export type TableSettingName = {
  [N in SettingName]: (typeof SETTINGS)[N] extends { default: unknown } ? N : never;
}[SettingName];
/** The search settings' fields as the table types them (SearchSettings extends this). */
export type TableSettings = { [N in TableSettingName]: ValueOf<(typeof SETTINGS)[N]> };

/**
 * The order a result's manifest.config has always listed the search settings in (with the method
 * and the fit record), frozen: a result's bytes depend on it. A setting added later comes after
 * these, in the table's order (`recordOrder`), so a new row needs nothing here.
 */
const RECORD_ORDER = [
  "method",
  "episodes",
  "budget",
  "timeLimit",
  "gamma",
  "epsilon",
  "lambda",
  "stopNrmse",
  "noiseFloor",
  "outer",
  "ratio",
  "monomial",
  "derived",
  "constant",
  "targetEvery",
  "icnnLearningRate",
  "epochs",
  "batch",
  "hidden",
  "terms",
  "maxFactors",
  "pearson",
  "encoding",
  "avoidRepeats",
  "shaping",
  "explore",
  "proposal",
  "candidates",
  "rank",
  "qNetwork",
  "parents",
  "fit",
  "learningRate",
  "patience",
  "validation",
  "l1",
  "threshold",
  "entropy",
  "minLength",
  "maxLength",
] as const;

/** Every search setting's name (the rows with a default), with "method" and "fit", in the record's order. */
export function recordOrder(): (TableSettingName | "method" | "fit")[] {
  const known = new Set<string>(RECORD_ORDER);
  const added = (Object.entries(SETTINGS) as [SettingName, SettingRow][]).filter(
    ([name, row]) => row.default !== undefined && !known.has(name),
  );
  return [...RECORD_ORDER, ...added.map(([name]) => name as TableSettingName)];
}

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
