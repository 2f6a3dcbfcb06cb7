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
import { once, zod } from "../core/index.js";
import type { z } from "zod";
import {
  type ChoiceSettingName,
  DECIMAL,
  InputError,
  type ListRow,
  type ListSettingName,
  type NumberRow,
  type NumberSettingName,
  recordOrder,
  ruleOf,
  SETTINGS,
  type SettingName,
  type SettingRow,
} from "../core/index.js";
import type { FitOptions } from "../local/index.js";

/** A bounded number: its rule in words ("an integer from 1 to 12") and its schema (built on first use). */
export interface Bound {
  rule: string;
  readonly schema: z.ZodType<number>;
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
  const schema = once(() => zod().number({ error: rule }).refine(ok, { error: rule }));
  return {
    rule,
    integer,
    get schema() {
      return schema();
    },
  };
}

/** A bound that also accepts one sentinel value. */
function sentinel(b: Bound, value: number, rule: string): Bound {
  const schema = once(() =>
    zod()
      .number({ error: rule })
      .refine((v) => v === value || b.schema.safeParse(v).success, { error: rule }),
  );
  return {
    rule,
    integer: b.integer,
    get schema() {
      return schema();
    },
  };
}

type NumberRule = Pick<NumberRow, "kind" | "min" | "max" | "openMin" | "rule" | "sentinel" | "flagMin">;

/** A row's bound, as the library checks it (sentinel included) or as its flag does. */
function boundOf(row: NumberRule, forFlag: boolean): Bound {
  const min = forFlag && row.flagMin !== undefined ? row.flagMin : row.min;
  const plain = bound(row.kind === "integer", min, row.max, {
    openMin: row.openMin,
    rule: ruleOf(row as NumberRow, forFlag),
  });
  return row.sentinel && !forFlag ? sentinel(plain, row.sentinel.value, row.sentinel.rule) : plain;
}

const rows = Object.entries(SETTINGS) as [SettingName, SettingRow][];
const numberRows = rows.filter(
  (entry): entry is [NumberSettingName, NumberRow] => entry[1].kind === "integer" || entry[1].kind === "number",
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

/** The bound of each item of a list setting (hidden: a layer's width). */
export const ITEM_BOUNDS = Object.fromEntries(
  rows.flatMap(([name, row]) => (row.kind === "list" ? [[name, boundOf(row.item, false)]] : [])),
) as Record<ListSettingName, Bound>;

/** A list row's rule in words: "a list of 1 to 8 layer widths". */
export const listRule = (row: ListRow): string => `a list of ${row.minItems} to ${row.maxItems} ${row.items}`;

/** The choices of the enumerated settings (the settings table's choice rows). */
export const CHOICES = Object.fromEntries(
  rows.flatMap(([name, row]) => (row.kind === "choice" ? [[name, row.choices]] : [])),
) as { [N in ChoiceSettingName]: (typeof SETTINGS)[N]["choices"] };

/** A row's schema: its bound, its choices, true or false, or its list of bounded items. */
export function rowSchema(name: SettingName, row: SettingRow = SETTINGS[name]): z.ZodType {
  const z = zod();
  switch (row.kind) {
    case "choice":
      return z.enum(row.choices as [string, ...string[]], { error: row.choices.join(" or ") });
    case "boolean":
      return z.boolean({ error: "true or false" });
    case "list": {
      const rule = listRule(row);
      return z
        .array(boundOf(row.item, false).schema, { error: rule })
        .min(row.minItems, { error: rule })
        .max(row.maxItems, { error: rule });
    }
    default:
      return name in BOUNDS ? BOUNDS[name as NumberSettingName].schema : boundOf(row, false).schema;
  }
}

const fitRows = rows.filter(([, row]) => row.group === "fit");

/** The fit settings' schema (the table's fit rows: steps, learning rate, polish, engine), built on first use. */
export const fitSchema = once(
  () =>
    zod().object(
      Object.fromEntries(fitRows.map(([name, row]) => [name, rowSchema(name, row)])),
    ) as unknown as z.ZodType<Required<Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine">>>,
);

/**
 * The search settings every method reads a part of (SearchSettings: the table's rows with a
 * default, its fit rows in `fit`), in the record's order; unknown keys pass through. Built on first use.
 */
export const searchSettingsSchema = once(() => {
  const z = zod();
  return z.looseObject(
    Object.fromEntries(
      recordOrder().flatMap((name): [string, z.ZodType][] => {
        if (name === "method") return [[name, z.string({ error: "a string" })]];
        if (name === "fit")
          return [
            [
              name,
              z.looseObject(Object.fromEntries(fitRows.map(([key, row]) => [key, rowSchema(key, row).optional()]))),
            ],
          ];
        const entry: [string, z.ZodType] = [name, rowSchema(name)];
        // Internal, never recorded: a time-limited run's episodes per target, for `reproduce`.
        if (name !== "timeLimit") return [entry];
        const replay = z
          .record(z.string(), z.number().int().min(0), { error: "episodes per target (non-negative integers)" })
          .optional();
        const replayStop = z.enum(["time-limit", "aborted"], { error: '"time-limit" or "aborted"' }).optional();
        return [entry, ["replay", replay], ["replayStop", replayStop]];
      }),
    ),
  );
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
