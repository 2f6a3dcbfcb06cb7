/**
 * The bounds of every number a user can set, as zod schemas built from the settings table
 * (core/settings.ts). The CLI's flag parsers
 * (src/cli/commands/fitOptions.ts), the library's settings check (search/settings.ts) and a result
 * file's manifest (configFromManifest) all validate through these, so that a value refused as a
 * flag is refused in a result file too, with the same words, and before anything is allocated.
 *
 * The caps keep a run's memory bounded: sizes (terms, factors, hidden units, candidates, rows)
 * are what allocations scale with; counts (episodes, steps) bound its time, and Ctrl-C stops it.
 */
import { z } from "zod";
import {
  DECIMAL,
  HIDDEN_LAYERS_CAP,
  InputError,
  type NumberRow,
  ruleOf,
  SETTINGS,
  type ChoiceSettingName,
  type NumberSettingName,
  type SettingName,
  type SettingRow,
} from "../core/index.js";

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

/** A row's bound, as the library checks it (sentinel included) or as its flag does. */
function boundOf(row: NumberRow, forFlag: boolean): Bound {
  const min = forFlag && row.flagMin !== undefined ? row.flagMin : row.min;
  const plain = bound(row.kind === "integer", min, row.max, { openMin: row.openMin, rule: ruleOf(row, forFlag) });
  return row.sentinel && !forFlag ? sentinel(plain, row.sentinel.value, row.sentinel.rule) : plain;
}

const numberRows = (Object.entries(SETTINGS) as [SettingName, SettingRow][]).filter(
  (entry): entry is [NumberSettingName, NumberRow] => entry[1].kind !== "choice",
);

/** Every number setting's bound (the settings table, core/settings.ts). */
export const BOUNDS = Object.fromEntries(numberRows.map(([name, row]) => [name, boundOf(row, false)])) as Record<
  NumberSettingName,
  Bound
>;

/**
 * The flags' own bounds where they are narrower than the library's
 * (a flag cannot ask for "auto" = 0 or the sentinel −1).
 */
export const FLAG_BOUNDS: Record<NumberSettingName, Bound> = {
  ...BOUNDS,
  ...(Object.fromEntries(
    numberRows.filter(([, row]) => row.flagMin !== undefined).map(([name, row]) => [name, boundOf(row, true)]),
  ) as Partial<Record<NumberSettingName, Bound>>),
};

/** The choices of the search's enumerated settings (the settings table's choice rows). */
export const CHOICES = {
  proposal: SETTINGS.proposal.choices,
  rank: SETTINGS.rank.choices,
  shaping: SETTINGS.shaping.choices,
  explore: SETTINGS.explore.choices,
  qNetwork: SETTINGS.qNetwork.choices,
  encoding: SETTINGS.encoding.choices,
  polish: SETTINGS.polish.choices,
  engine: SETTINGS.engine.choices,
} as const satisfies Record<ChoiceSettingName, readonly string[]>;

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
  outer: z.boolean({ error: "true or false" }),
  ratio: z.boolean({ error: "true or false" }),
  monomial: z.boolean({ error: "true or false" }),
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

/** A flag's text as a bounded number: an InputError naming the flag for anything else. */
export function parseBound(b: Bound, text: string, flag: string): number {
  const trimmed = text.trim();
  const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!b.schema.safeParse(value).success)
    throw new InputError(`${flag} must be ${b.rule} (got ${JSON.stringify(text)})`);
  return value;
}
