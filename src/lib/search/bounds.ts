/**
 * The bounds of every number a user can set, defined once (zod). The CLI's flag parsers
 * (src/cli/fitOptions.ts), the library's settings check (search/settings.ts) and a result
 * file's manifest (configFromManifest) all validate through these, so that a value refused as a
 * flag is refused in a result file too, with the same words, and before anything is allocated.
 *
 * The caps keep a run's memory bounded: sizes (terms, factors, hidden units, candidates, rows)
 * are what allocations scale with; counts (episodes, steps) bound its time, and Ctrl-C stops it.
 */
import { z } from "zod";
import { MIN_ROWS } from "../data/index.js";
import { InputError } from "../core/index.js";
import { FACTORS_CAP, TERMS_CAP } from "./growth.js";

/** A bounded number: its rule in words ("an integer from 1 to 12") and its schema. */
export interface Bound {
  rule: string;
  schema: z.ZodType<number>;
  integer: boolean;
}

function bound(integer: boolean, min: number, max: number, options: { openMin?: boolean; rule?: string } = {}): Bound {
  const rule =
    options.rule ??
    (integer
      ? `an integer from ${min} to ${max}`
      : options.openMin
        ? `a number above ${min} and at most ${max}`
        : `a number from ${min} to ${max}`);
  const ok = (v: number) => (!integer || Number.isInteger(v)) && (options.openMin ? v > min : v >= min) && v <= max;
  return { rule, integer, schema: z.number({ error: rule }).refine(ok, { error: rule }) };
}

/** A bound that also accepts one sentinel value. */
function sentinel(b: Bound, value: number, rule: string): Bound {
  return {
    rule,
    integer: b.integer,
    schema: z.number({ error: rule }).refine((v) => v === value || b.schema.safeParse(v).success, { error: rule }),
  };
}

/** Longest time limit in seconds: a week. */
export const TIME_LIMIT_CAP = 604_800;
/** Largest seed: seeds are 32-bit (rng.ts). */
export const SEED_MAX = 0xffffffff;
/** Most rows an experiment draws (train and test each). */
export const ROWS_CAP = 1_000_000;
/** Most tokens of a DSR expression (its batch keeps a mask per token and step). */
export const LENGTH_CAP = 64;

export const BOUNDS = {
  seed: bound(true, 0, SEED_MAX),
  rows: bound(true, MIN_ROWS, ROWS_CAP),
  snrDb: bound(false, -200, 1000),
  // The search.
  episodes: bound(true, 1, 1_000_000),
  budget: bound(true, 0, 10_000_000, { rule: "an integer from 0 (no limit) to 10000000" }),
  // Seconds of wall clock; a week at most (a larger value is a typo, not a plan).
  timeLimit: bound(false, 0, TIME_LIMIT_CAP, { rule: `a number of seconds from 0 (no limit) to ${TIME_LIMIT_CAP}` }),
  terms: bound(true, 0, TERMS_CAP, { rule: `an integer from 1 to ${TERMS_CAP}, or 0 for a size that grows by itself` }),
  maxFactors: bound(true, 0, FACTORS_CAP, {
    rule: `an integer from 1 to ${FACTORS_CAP}, or 0 for a size that grows by itself`,
  }),
  gamma: bound(false, 0, 1),
  epsilon: bound(false, 0, 1),
  lambda: bound(false, 0, 1),
  // −1: never stop on it (a library run that must use its whole budget, e.g. the toy figure).
  stopNrmse: sentinel(bound(false, 0, 1), -1, "a number from 0 to 1, or −1 for no threshold"),
  pearson: bound(false, 0, 1),
  targetEvery: bound(true, 1, 1_000_000),
  icnnLearningRate: bound(false, 0, 1, { openMin: true }),
  epochs: bound(true, 1, 10_000),
  batch: bound(true, 1, 100_000),
  hiddenUnits: bound(true, 1, 1024),
  candidates: bound(true, 1, 100_000),
  parents: bound(true, 1, 1000),
  // The MLP baseline.
  patience: bound(true, 1, 10_000),
  validation: bound(false, 0, 0.5, { openMin: true }),
  // The EQL baseline.
  l1: bound(false, 0, 1),
  threshold: bound(false, 0, 10),
  // The DSR and VPG baselines: the entropy weight and the expressions' lengths in tokens.
  entropy: bound(false, 0, 1),
  minLength: bound(true, 1, LENGTH_CAP),
  maxLength: bound(true, 3, LENGTH_CAP),
  // One fit.
  steps: bound(true, 0, 1_000_000),
  learningRate: bound(false, 0, 10, { openMin: true }),
  // `sweep --jobs`: worker processes.
  jobs: bound(true, 1, 256),
} as const;

/**
 * The flags' own bounds where they are narrower than the library's
 * (a flag cannot ask for "auto" = 0 or the sentinel −1).
 */
export const FLAG_BOUNDS = {
  ...BOUNDS,
  terms: bound(true, 1, TERMS_CAP),
  maxFactors: bound(true, 1, FACTORS_CAP),
  stopNrmse: bound(false, 0, 1),
} as const;

export const HIDDEN_LAYERS_CAP = 8;

/** The choices of the search's enumerated settings. */
export const CHOICES = {
  proposal: ["linear", "wide", "operators", "argmin"],
  rank: ["reward-net", "none"],
  shaping: ["raw", "log"],
  explore: ["uniform", "mutate"],
  qNetwork: ["icnn", "mlp"],
  encoding: ["paper", "structure"],
  polish: ["lm", "none", "lsq", "bfgs"],
  engine: ["tfjs", "js"],
} as const;

const choice = <K extends keyof typeof CHOICES>(key: K) =>
  z.enum(CHOICES[key], { error: `${CHOICES[key].join(" or ")}` });

/** The fit settings (steps, learning rate, polish, engine). */
export const fitSchema = z.object({
  steps: BOUNDS.steps.schema,
  learningRate: BOUNDS.learningRate.schema,
  polish: choice("polish"),
  engine: choice("engine"),
});

/** The search settings every method reads a part of (SearchSettings); unknown keys pass through. */
export const searchSettingsSchema = z.looseObject({
  method: z.string({ error: "a string" }),
  episodes: BOUNDS.episodes.schema,
  budget: BOUNDS.budget.schema,
  timeLimit: BOUNDS.timeLimit.schema,
  replay: z
    .record(z.string(), z.number().int().min(0), { error: "episodes per target (non-negative integers)" })
    .optional(),
  gamma: BOUNDS.gamma.schema,
  epsilon: BOUNDS.epsilon.schema,
  lambda: BOUNDS.lambda.schema,
  stopNrmse: BOUNDS.stopNrmse.schema,
  noiseFloor: z.boolean({ error: "true or false" }),
  constant: z.boolean({ error: "true or false" }),
  targetEvery: BOUNDS.targetEvery.schema,
  icnnLearningRate: BOUNDS.icnnLearningRate.schema,
  epochs: BOUNDS.epochs.schema,
  batch: BOUNDS.batch.schema,
  hidden: z
    .array(BOUNDS.hiddenUnits.schema, { error: `a list of 1 to ${HIDDEN_LAYERS_CAP} layer widths` })
    .min(1, { error: `a list of 1 to ${HIDDEN_LAYERS_CAP} layer widths` })
    .max(HIDDEN_LAYERS_CAP, { error: `a list of 1 to ${HIDDEN_LAYERS_CAP} layer widths` }),
  terms: BOUNDS.terms.schema,
  maxFactors: BOUNDS.maxFactors.schema,
  pearson: BOUNDS.pearson.schema,
  encoding: choice("encoding"),
  avoidRepeats: z.boolean({ error: "true or false" }),
  shaping: choice("shaping"),
  explore: choice("explore"),
  qNetwork: choice("qNetwork"),
  proposal: choice("proposal"),
  candidates: BOUNDS.candidates.schema,
  rank: choice("rank"),
  parents: BOUNDS.parents.schema,
  learningRate: BOUNDS.learningRate.schema,
  patience: BOUNDS.patience.schema,
  validation: BOUNDS.validation.schema,
  l1: BOUNDS.l1.schema,
  threshold: BOUNDS.threshold.schema,
  entropy: BOUNDS.entropy.schema,
  minLength: BOUNDS.minLength.schema,
  maxLength: BOUNDS.maxLength.schema,
  fit: z.looseObject({
    steps: BOUNDS.steps.schema.optional(),
    learningRate: BOUNDS.learningRate.schema.optional(),
    polish: choice("polish").optional(),
    engine: choice("engine").optional(),
  }),
});

/**
 * Validates `value` against `schema`; the first problem becomes one InputError,
 * `<prefix><path> must be <rule> (got <value>)`.
 */
export function checkWith<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path
    .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
    .join(".")
    .replace(/\.\[/g, "[");
  let got: unknown = value;
  for (const key of issue.path)
    got =
      got === null || typeof got !== "object" ? undefined : (got as Record<PropertyKey, unknown>)[key as PropertyKey];
  const shown =
    got === undefined
      ? "nothing"
      : typeof got === "number" && !Number.isFinite(got)
        ? String(got)
        : JSON.stringify(got);
  throw new InputError(`${prefix}${path} must be ${issue.message} (got ${shown})`);
}

/** One bounded number, checked: an InputError `<what> must be <rule> (got <value>)`. */
export function checkBound(b: Bound, value: unknown, what: string): number {
  if (!b.schema.safeParse(value).success)
    throw new InputError(
      `${what} must be ${b.rule} (got ${typeof value === "number" ? String(value) : JSON.stringify(value)})`,
    );
  return value as number;
}

/** A decimal number as text: digits with an optional sign, point and exponent (no hex, no "Infinity", no blanks). */
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A flag's text as a bounded number: an InputError naming the flag for anything else. */
export function parseBound(b: Bound, text: string, flag: string): number {
  const trimmed = text.trim();
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!b.schema.safeParse(value).success)
    throw new InputError(`${flag} must be ${b.rule} (got ${JSON.stringify(text)})`);
  return value;
}
