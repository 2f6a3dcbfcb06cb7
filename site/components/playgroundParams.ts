/**
 * The playground's parameters in its URL (`/playground?dataset=syn1&seed=3&symbols=x,x^2,cos`):
 * one table of every control (its URL name, the config field it fills, its range or choices),
 * read when the page opens and written by Run (history.replaceState), so that a URL restores the
 * controls of the run it names. The page builds its Inputs from the same table (ranges, choices,
 * defaults), so a URL value is valid exactly when the control could show it.
 *
 * Reading never throws: an unknown parameter, a value out of range or a name that is not
 * registered (a plugin's symbol before its file is loaded) is left out, with one notice per
 * problem for the page to show on one line. A file (a CSV, a plugin) cannot be kept in a URL.
 */
import { SETTINGS } from "../lib/index.js";
import type { PlaygroundConfig } from "./playground.js";
import {
  BACKEND_CHOICES,
  type BackendPreference,
  type Choice,
  choiceText,
  type EngineChoice,
  ENGINES,
  type ParamName,
  type ParamValues,
  queryOf,
} from "./playgroundLink.js";

export {
  BACKEND_CHOICES,
  type BackendPreference,
  ENGINES,
  type EngineChoice,
  type ParamName,
  type ParamValues,
  playgroundLink,
} from "./playgroundLink.js";

interface IntSpec {
  kind: "int";
  min: number;
  max: number;
}
interface NumberSpec {
  kind: "number";
  min: number;
  max: number;
}
interface ChoiceSpec {
  kind: "choice";
  /** Fixed choices, or the name of a list given when reading (datasets, methods, rewards). */
  choices: readonly Choice[] | ListName;
}
interface NamesSpec {
  kind: "names";
  /** The list the names must come from (targets: any column name; a CSV is chosen later). */
  from: ListName | "columns";
}
/** Free text of at most `max` characters (a file's name). */
interface TextSpec {
  kind: "text";
  max: number;
}
type Spec = IntSpec | NumberSpec | ChoiceSpec | NamesSpec | TextSpec;

/** The lists a URL is checked against that depend on the page (registries, the method table). */
export interface ParamLists {
  datasets: readonly string[];
  methods: readonly string[];
  symbols: readonly string[];
  constraints: readonly string[];
  rewards: readonly string[];
}
type ListName = keyof ParamLists;

/** NRMSE stop thresholds; "never" is −1, not 0 (an exact fit reaches NRMSE 0 and would stop at 0). */
/** The stop rules (train NRMSE); 2e-5 is the 100 dB benchmark's, so its links keep it. */
export const STOP_CHOICES = [1e-6, 2e-5, 1e-4, 1e-2, -1] as const;
/** The noise levels (dB); 80–120 are the SNR sensitivity sweep's, so its links keep their noise. */
export const SNR_CHOICES = [null, 120, 110, 100, 90, 80, 60, 40, 30, 20, 10] as const;
export const LEARNING_RATES = [0.001, 0.005, 0.01, 0.05] as const;
export const POLISHES = ["lm", "lsq", "bfgs", "none"] as const;

/**
 * The config as the controls hold it: the fit engine as chosen ("auto" too), before
 * resolveEngine makes it the engine a run uses (PlaygroundConfig's).
 */
export type ControlsConfig = Omit<PlaygroundConfig, "fit"> & {
  fit: Omit<PlaygroundConfig["fit"], "engine"> & { engine: EngineChoice };
};

/** The settings a control takes its range from (the library's settings table). */
type TableControl =
  | "timeLimit"
  | "rows"
  | "seed"
  | "episodes"
  | "budget"
  | "terms"
  | "maxFactors"
  | "gamma"
  | "epsilon"
  | "steps";

/**
 * A number setting's control from the library's settings table: its bound, capped by the table's
 * `form` maximum where a page runs it lower.
 */
function fromTable(name: TableControl): IntSpec | NumberSpec {
  const row = SETTINGS[name];
  const max = "form" in row && row.form ? row.form.max : row.max;
  return row.kind === "integer" ? { kind: "int", min: row.min, max } : { kind: "number", min: row.min, max };
}

/** Every control of the page, by its name in the URL (exactly the names of PARAM_NAMES). */
export const PARAMS = {
  dataset: { kind: "choice", choices: "datasets" },
  file: { kind: "text", max: 200 },
  rows: fromTable("rows"),
  snr: { kind: "choice", choices: SNR_CHOICES },
  targets: { kind: "names", from: "columns" },
  symbols: { kind: "names", from: "symbols" },
  constraints: { kind: "names", from: "constraints" },
  reward: { kind: "choice", choices: "rewards" },
  method: { kind: "choice", choices: "methods" },
  seed: fromTable("seed"),
  episodes: fromTable("episodes"),
  budget: fromTable("budget"),
  timeLimit: fromTable("timeLimit"),
  terms: fromTable("terms"),
  maxFactors: fromTable("maxFactors"),
  gamma: fromTable("gamma"),
  epsilon: fromTable("epsilon"),
  stop: { kind: "choice", choices: STOP_CHOICES },
  steps: fromTable("steps"),
  engine: { kind: "choice", choices: ENGINES },
  lr: { kind: "choice", choices: LEARNING_RATES },
  polish: { kind: "choice", choices: POLISHES },
  backend: { kind: "choice", choices: BACKEND_CHOICES },
} as const satisfies { [K in ParamName]: Spec };

/** [min, max] of a numeric control, for Inputs.number. */
export const rangeOf = (name: ParamName): [number, number] => {
  const spec: Spec = PARAMS[name];
  if (spec.kind !== "int" && spec.kind !== "number") throw new Error(`${name} is not a numeric control`);
  return [spec.min, spec.max];
};

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * Parses one parameter; a string is the reason it was refused. A list with some unknown names
 * keeps the known ones, and says why the others were dropped (`reason`).
 */
function parseParam(name: ParamName, text: string, lists: ParamLists): { value: unknown; reason?: string } | string {
  const spec: Spec = PARAMS[name];
  if (spec.kind === "int" || spec.kind === "number") {
    const value = Number(text);
    const whole = spec.kind === "int";
    if (!NUMBER.test(text.trim()) || !Number.isFinite(value) || (whole && !Number.isInteger(value)))
      return `not a ${whole ? "whole number" : "number"}`;
    if (value < spec.min || value > spec.max) return `not in [${spec.min}, ${spec.max}]`;
    return { value };
  }
  if (spec.kind === "text") {
    const value = text.trim();
    if (value === "" || value.length > spec.max) return `not a file name of 1 to ${spec.max} characters`;
    return { value };
  }
  if (spec.kind === "choice") {
    const choices = typeof spec.choices === "string" ? lists[spec.choices] : spec.choices;
    // A number may be written another way than JavaScript prints it (1e-6 for 0.000001).
    const found = choices.find(
      (c) => choiceText(name, c) === text || (typeof c === "number" && NUMBER.test(text) && Number(text) === c),
    );
    if (found === undefined) return `not one of ${choices.map((c) => choiceText(name, c)).join(", ")}`;
    return { value: found };
  }
  const names = text === "" ? [] : text.split(",").map((n) => n.trim());
  if (spec.from === "columns") return names.every((n) => n) ? { value: names } : "an empty name";
  const known = lists[spec.from];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length === 0) return { value: names };
  const what = spec.from === "symbols" ? "symbol" : "constraint";
  const hint = spec.from === "symbols" ? " (a plugin's? load its file)" : "";
  const reason = `unknown ${what}${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}${hint}`;
  // The known names still count; a list left empty by the unknown ones falls back to the default.
  const kept = names.filter((n) => known.includes(n));
  return kept.length ? { value: kept, reason } : reason;
}

/**
 * The parameters of a URL's query string. `take(name)` hands a value to its control once: a
 * control rebuilt later (another dataset, a plugin loaded) starts from its own default or the
 * user's choice, not from the URL again.
 */
export class UrlParams {
  readonly values: Partial<ParamValues> = {};
  /** One entry per ignored parameter: `name=value (why)`. */
  readonly notices: string[] = [];
  readonly #taken = new Set<ParamName>();

  constructor(search: string, lists: ParamLists) {
    const query = new URLSearchParams(search);
    const seen = new Set<string>();
    for (const [name, text] of query) {
      const shown = `${name}=${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
      if (!Object.hasOwn(PARAMS, name)) {
        this.notices.push(`${shown} (unknown parameter)`);
        continue;
      }
      const key = name as ParamName;
      if (seen.has(key)) {
        this.notices.push(`${shown} (${name} is given twice; only the first counts)`);
        continue;
      }
      seen.add(key);
      const parsed = parseParam(key, text, lists);
      if (typeof parsed === "string") {
        this.notices.push(`${shown} (${parsed})`);
        continue;
      }
      (this.values as Record<string, unknown>)[key] = parsed.value;
      if (parsed.reason) this.notices.push(`${shown} (${parsed.reason})`);
    }
  }

  /** Whether the URL holds any parameter this page knows. */
  get any(): boolean {
    return Object.keys(this.values).length > 0;
  }

  /** The URL's value of `name` the first time it is asked for; undefined after, or when absent. */
  take<K extends ParamName>(name: K): ParamValues[K] | undefined {
    if (this.#taken.has(name)) return undefined;
    this.#taken.add(name);
    return this.values[name];
  }

  /** The one line the page shows for the ignored parameters (empty when none was). */
  notice(): string {
    return this.notices.length ? `Ignored in this URL: ${this.notices.join("; ")}.` : "";
  }
}

/**
 * The query string (with its "?") that restores the controls: `config` as the controls hold it
 * (the fit engine as chosen, "auto" too) and the tfjs backend as chosen ("auto" too), not what
 * they resolved to.
 */
export function writeParams(config: ControlsConfig, backend: BackendPreference): string {
  const values: { [K in ParamName]?: ParamValues[K] } = {
    dataset: config.dataset,
    file: config.dataset === "csv" ? config.csv?.name : undefined,
    rows: config.rows,
    snr: config.snrDb,
    targets: config.dataset === "csv" ? config.csv?.targets : undefined,
    symbols: config.symbols,
    constraints: config.constraints,
    reward: config.reward,
    method: config.method,
    seed: config.seed,
    episodes: config.episodes,
    budget: config.budget,
    timeLimit: config.timeLimit,
    terms: config.terms,
    maxFactors: config.maxFactors,
    gamma: config.gamma,
    epsilon: config.epsilon,
    stop: config.stopNrmse,
    steps: config.fit.steps,
    engine: config.fit.engine,
    lr: config.fit.learningRate,
    polish: config.fit.polish,
    backend,
  };
  return queryOf(values);
}

/** A control as the page built it: for what (the dataset, when its default depends on it), from which options. */
interface Built {
  scope: string;
  options?: readonly string[];
  input: { value: unknown };
}

/**
 * The values the page's controls start with. Framework rebuilds a control when a cell it reads
 * changes (another dataset, a CSV chosen, a plugin loaded); a rebuilt control keeps what it held
 * when it is rebuilt for the same scope, and otherwise starts from the URL's value (the first
 * time) or its default for the new scope. A choice among options keeps the user's choice, with
 * the options new since the last build (a plugin just loaded) switched on: loading a plugin is
 * asking to use it.
 */
export class ControlState {
  readonly #built = new Map<ParamName, Built>();
  constructor(readonly url: UrlParams) {}

  /**
   * Builds control `name` for `scope` with `make(value)`, and remembers it. `options`: the
   * choices of a checkbox or select whose options can change (names), to keep its value to them.
   */
  make<K extends ParamName, I extends { value: unknown }>(
    name: K,
    scope: string,
    fallback: () => ParamValues[K],
    make: (value: ParamValues[K]) => I,
    options?: readonly string[],
  ): I {
    const input = make(this.#initial(name, scope, fallback, options));
    this.#built.set(name, { scope, options, input });
    return input;
  }

  #initial<K extends ParamName>(
    name: K,
    scope: string,
    fallback: () => ParamValues[K],
    options?: readonly string[],
  ): ParamValues[K] {
    const previous = this.#built.get(name);
    type V = ParamValues[K];
    // A value kept to the options: a list loses the names that are not options, a single choice is kept or not.
    const fit = (value: unknown): unknown =>
      !options
        ? value
        : Array.isArray(value)
          ? value.filter((v) => options.includes(v))
          : options.includes(value as string)
            ? value
            : undefined;
    if (previous && previous.scope === scope) {
      if (!options) return previous.input.value as V;
      const added = options.filter((o) => !previous.options?.includes(o));
      const held = previous.input.value;
      if (Array.isArray(held)) return [...(fit(held) as string[]), ...added] as V;
      return (added.at(-1) ?? fit(held) ?? fallback()) as V;
    }
    // A list waits for its options (a CSV's targets, before the file is chosen) before it takes the URL's value.
    const fromUrl = options && options.length === 0 ? undefined : fit(this.url.take(name));
    const usable = Array.isArray(fromUrl) ? fromUrl.length > 0 : fromUrl !== undefined;
    return (usable ? fromUrl : fit(fallback())) as V;
  }
}
