/**
 * Flags shared by `fit` and `run`: the LoCaL fit settings, the backend and the search. Every
 * setting's flag, help and bound come from the settings table (src/lib/core/settings.ts); a number
 * is validated once, where commander parses it, through the same bound the library and result
 * files use (src/lib/search/bounds.ts); a name through `choices`.
 */
import { Option, type Command } from "commander";
import { FLAG_BOUNDS, ITEM_BOUNDS, parseBound, type Bound } from "../../lib/search/index.js";
import type { FitOptions } from "../../lib/local/index.js";
import { METHOD_NAMES, METHODS, type SearchMethod, type SearchSettings } from "../../lib/search/index.js";
import {
  BACKENDS,
  type Choice,
  type ChoiceSettingName,
  flaggedRows,
  InputError,
  type ListRow,
  type ListSettingName,
  type NumberSettingName,
  type SettingGroup,
  type SettingName,
  type SettingRow,
  SETTINGS,
  type TableSettingName,
  type ValueOf,
} from "../../lib/core/index.js";
import { list } from "../io.js";

/** The attribute commander gives a flag's value: `--max-factors <n>` → maxFactors, `--lr <rate>` → lr. */
export const flagKey = (row: SettingRow): string =>
  row
    .flag!.split(" ")[0]!
    .slice(2)
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The value a table row's flag holds. */
type FlagValue<N extends SettingName> = (typeof SETTINGS)[N] extends { kind: "choice" }
  ? Choice<Extract<N, ChoiceSettingName>>
  : ValueOf<(typeof SETTINGS)[N]>;

/**
 * The table's flags of the search and the model baselines, by setting name (`--q-network` is
 * qNetwork): every flagged row with a default but the fit rows (their flags are FitFlags).
 */
type TableSearchFlags = {
  [N in TableSettingName as (typeof SETTINGS)[N] extends { flag: string } ? N : never]?: FlagValue<N>;
};

export interface FitFlags {
  steps?: number;
  lr?: number;
  polish?: FitOptions["polish"];
  engine?: FitOptions["engine"];
  backend: string;
}

export interface SearchFlags extends TableSearchFlags {
  method: SearchMethod;
  /** Print each target's Pareto front (complexity, train NRMSE, score, equation; the answer marked). */
  front?: boolean;
  constraints: string[];
  reward: string;
}

/** `--flag <value>` parsed into a bounded number (an InputError naming the flag otherwise). */
export function numberOption(flags: string, description: string, bound: Bound, fallback?: number): Option {
  const flag = flags.split(" ")[0]!;
  const option = new Option(flags, description).argParser((text: string) => parseBound(bound, text, flag));
  return fallback === undefined ? option : option.default(fallback);
}

/** `--flag <name>` restricted to `choices` (commander names the flag and the choices). */
export const choiceOption = (
  flags: string,
  description: string,
  choices: readonly string[],
  fallback?: string,
): Option => {
  const option = new Option(flags, description).choices(choices);
  return fallback === undefined ? option : option.default(fallback);
};

/** `--flag <a,b,…>`: a non-empty comma-separated list (an empty one is an InputError naming the flag). */
export function listOption(
  flags: string,
  description: string,
  { allowEmpty = false, fallback }: { allowEmpty?: boolean; fallback?: string } = {},
): Option {
  const flag = flags.split(" ")[0]!;
  const initial = fallback === undefined ? undefined : list(fallback);
  // A flag given twice adds to the list (`--target y --target z` is `--target y,z`; the second had
  // replaced the first without a word); its first use replaces the default.
  const option = new Option(flags, description).argParser((text: string, previous: string[] | undefined) => {
    const names = list(text);
    if (names.length === 0 && !allowEmpty)
      throw new InputError(
        `${flag} names nothing (got ${JSON.stringify(text)}); give one or more comma-separated names`,
      );
    return previous === undefined || previous === initial ? names : [...previous, ...names];
  });
  return initial === undefined ? option : option.default(initial, fallback);
}

/**
 * A table row's flag: its bound (the flag's own, where narrower), its choices, its items
 * (comma-separated) or, a boolean's, the flag and its negation (`--outer`, `--no-outer`); and its help.
 */
export function settingOptions(name: SettingName, row: SettingRow = SETTINGS[name]): Option[] {
  if (!row.flag) throw new Error(`setting ${name} has no flag`);
  switch (row.kind) {
    case "choice":
      return [choiceOption(row.flag, row.help, row.choices)];
    case "boolean":
      return [new Option(row.flag, row.help), new Option(`--no-${row.flag.slice(2)}`, `turn ${row.flag} off`)];
    case "list":
      return [itemsOption(row, ITEM_BOUNDS[name as ListSettingName])];
    default:
      return [numberOption(row.flag, row.help, FLAG_BOUNDS[name as NumberSettingName])];
  }
}

/** A list row's flag, `--hidden 64,64`: its count of items, each a bounded number. */
function itemsOption(row: ListRow, item: Bound): Option {
  const flag = row.flag!.split(" ")[0]!;
  return new Option(row.flag!, row.help).argParser((text: string) => {
    const parts = text.split(",");
    if (parts.length > row.maxItems)
      throw new InputError(
        `${flag} must be ${row.minItems} to ${row.maxItems} ${row.items} (got ${JSON.stringify(text)})`,
      );
    return parts.map((part) => parseBound(item, part, flag));
  });
}

/** Every flag of one group of the table, in the table's order. */
const addRows = (command: Command, group: SettingGroup): Command =>
  flaggedRows(group).reduce((c, [name]) => settingOptions(name).reduce((d, o) => d.addOption(o), c), command);

/** The tfjs backends the command line offers: the library's (BACKENDS) but webgl, which needs a browser. */
const NODE_BACKENDS = BACKENDS.filter((name) => name !== "webgl");

export function addFitFlags(command: Command): Command {
  return addRows(command, "fit").addOption(choiceOption("--backend <name>", "tfjs backend", NODE_BACKENDS, "cpu"));
}

export function addSearchFlags(command: Command): Command {
  command.addOption(
    choiceOption(
      "--method <name>",
      `search method: ${METHOD_NAMES.map((name) => `${name} (${METHODS[name].description})`).join("; ")}`,
      METHOD_NAMES,
      "consolesr",
    ),
  );
  return addRows(command, "search")
    .option(
      "--front",
      "print each target's Pareto front after the equations: complexity, train NRMSE, score (the answer " +
        "rule's, lower is better) and equation, the answer marked *",
    )
    .addOption(
      listOption("--constraints <names>", "constraint plugins, comma-separated (empty: none)", {
        allowEmpty: true,
        fallback: "static,dynamic",
      }),
    )
    .option("--reward <name>", "reward plugin", "inv-nrmse");
}

/**
 * The model baselines' flags (--method mlp, eql, dsr, vpg); --lr is their Adam learning rate,
 * --hidden EQL's units of each kind, --epochs its epochs per phase.
 */
export function addModelFlags(command: Command): Command {
  return addRows(command, "model");
}

export function fitSettings(
  flags: FitFlags,
  defaults: Pick<FitOptions, "steps" | "engine">,
): Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine"> {
  // An unset --polish stays unset: the pipeline's default (lm, or an experiment's own) applies.
  return {
    steps: flags.steps ?? defaults.steps ?? 200,
    learningRate: flags.lr ?? 0.01,
    polish: flags.polish,
    engine: flags.engine ?? defaults.engine ?? "tfjs",
  };
}

/** The search settings the flags give: every flag of the table's search and model rows. */
export function searchOverrides(
  flags: SearchFlags,
  defaults: Partial<SearchSettings> = {},
): { method: SearchMethod; settings: Partial<SearchSettings>; constraints: string[] } {
  const settings: Record<string, unknown> = { ...defaults };
  const given = flags as unknown as Record<string, unknown>;
  for (const [name, row] of [...flaggedRows("search"), ...flaggedRows("model")])
    if (given[flagKey(row)] !== undefined) settings[name] = given[flagKey(row)];
  return { method: flags.method, settings: settings as Partial<SearchSettings>, constraints: flags.constraints };
}

/**
 * Warning lines for the search flags given on the command line (`given`: commander's value source
 * is "cli") that the run will not read: with --form every search flag (the form is fitted, not
 * searched); otherwise each table flag the method does not read (`--terms` with `--method mlp`).
 * They were ignored without a word.
 */
export function ignoredFlagWarnings(method: SearchMethod, form: boolean, given: (key: string) => boolean): string[] {
  const rows = [...flaggedRows("search"), ...flaggedRows("model")];
  const flagOf = (row: SettingRow) => row.flag!.split(" ")[0]!;
  if (form) {
    const others = ["--method", "--front", "--constraints", "--reward"];
    return [
      ...rows.filter(([, row]) => given(flagKey(row))).map(([, row]) => flagOf(row)),
      ...others.filter((flag) => given(flag.slice(2))),
    ].map((flag) => `warning: ${flag} is not used with --form (the form is fitted, not searched)`);
  }
  const uses = new Set<string>(METHODS[method].uses);
  const reads = [...rows, ...flaggedRows("fit")].filter(([name]) => uses.has(name)).map(([, row]) => flagOf(row));
  return rows
    .filter(([name, row]) => !uses.has(name) && given(flagKey(row)))
    .map(
      ([, row]) =>
        `warning: ${flagOf(row)} is not used by --method ${method} (it reads ` +
        `${reads.length ? reads.join(", ") : "none of the search flags"})`,
    );
}
