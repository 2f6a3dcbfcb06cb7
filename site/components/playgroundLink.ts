/**
 * The playground's URL parameters by name, in the order its address writes them, and the address
 * of a set of values: what a report form needs to link to the playground ("open in playground"),
 * without the library (a report page loads it only when a reader runs something). Their ranges and
 * choices are the playground's own table (playgroundParams.ts, PARAMS, checked to hold exactly
 * these names), which takes the settings' bounds from the library's settings table.
 */

/** Every parameter, in the order an address writes them. */
export const PARAM_NAMES = [
  "dataset",
  "file",
  "rows",
  "snr",
  "targets",
  "symbols",
  "constraints",
  "reward",
  "method",
  "seed",
  "episodes",
  "budget",
  "timeLimit",
  "terms",
  "maxFactors",
  "gamma",
  "epsilon",
  "stop",
  "steps",
  "engine",
  "lr",
  "polish",
  "backend",
] as const;
export type ParamName = (typeof PARAM_NAMES)[number];

export type Choice = string | number | null;

/** The fit engine control: "auto" takes the calibration's choice (see resolveEngine). */
export const ENGINES = ["auto", "js", "tfjs"] as const;
/** The tfjs backend control: "auto" takes the calibration's fastest tfjs backend. */
export const BACKEND_CHOICES = ["auto", "webgl", "wasm", "cpu"] as const;
export type EngineChoice = (typeof ENGINES)[number];
export type BackendPreference = (typeof BACKEND_CHOICES)[number];

/** The value each parameter gives its control. */
export interface ParamValues {
  dataset: string;
  /** A CSV run's file name: the file itself cannot be kept in an address, its name says which to choose again. */
  file: string;
  rows: number;
  snr: number | null;
  targets: string[];
  symbols: string[];
  constraints: string[];
  reward: string;
  method: string;
  seed: number;
  episodes: number;
  budget: number;
  timeLimit: number;
  terms: number;
  maxFactors: number;
  gamma: number;
  epsilon: number;
  stop: number;
  steps: number;
  engine: EngineChoice;
  lr: number;
  polish: string;
  backend: BackendPreference;
}

/**
 * How a choice is written in a URL: null as "none", the stop rule as 1e-6 or "never" (its −1),
 * other numbers as JavaScript prints them.
 */
export const choiceText = (name: ParamName, value: Choice): string =>
  value === null
    ? "none"
    : name === "stop" && typeof value === "number"
      ? value < 0
        ? "never"
        : value.toExponential()
      : String(value);

/** The query string (with its "?") of these parameter values, in the table's order; unset ones left out. */
export function queryOf(values: { [K in ParamName]?: ParamValues[K] | null }): string {
  const query = new URLSearchParams();
  for (const name of PARAM_NAMES) {
    const value = values[name];
    if (value === undefined || (value === null && name !== "snr")) continue;
    query.set(name, Array.isArray(value) ? value.join(",") : choiceText(name, value as Choice));
  }
  // Symbol names keep their ^ (x^2) readable; URLSearchParams would write %5E.
  return `?${query.toString().replace(/%5E/g, "^").replace(/%2C/g, ",")}`;
}

/**
 * The playground's address for a report form's settings ("open in playground"), named as the
 * playground reads them (PARAM_NAMES): a name it does not hold throws, so a form cannot link
 * with a parameter the playground would ignore.
 */
export function playgroundLink(values: LinkValues): string {
  for (const name of Object.keys(values))
    if (!(PARAM_NAMES as readonly string[]).includes(name))
      throw new Error(`playgroundLink: the playground has no parameter "${name}"`);
  return `./playground${queryOf(values)}`;
}

/** A value a parameter takes in a link. */
type LinkValues = { [K in ParamName]?: ParamValues[K] | null };

/** A run's search setting → its playground parameter (the fit's under `fit`). */
const SETTING_PARAMS: Record<string, ParamName> = {
  episodes: "episodes",
  budget: "budget",
  timeLimit: "timeLimit",
  terms: "terms",
  maxFactors: "maxFactors",
  gamma: "gamma",
  epsilon: "epsilon",
  stopNrmse: "stop",
  constraints: "constraints",
  symbols: "symbols",
  reward: "reward",
};
const FIT_PARAMS: Record<string, ParamName> = {
  steps: "steps",
  engine: "engine",
  learningRate: "lr",
  polish: "polish",
};

/**
 * A sweep variant's settings as playground parameters, or undefined where one of them has no
 * control there (a Q network, …): a link without it would open another experiment than the cell's.
 */
export function settingsParams(settings: Record<string, unknown> | undefined): LinkValues | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(settings ?? {})) {
    if (key === "fit" && typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        const name = FIT_PARAMS[k];
        if (name === undefined) return undefined;
        out[name] = v;
      }
      continue;
    }
    const name = SETTING_PARAMS[key];
    if (name === undefined) return undefined;
    out[name] = value;
  }
  return out as LinkValues;
}

/**
 * A sweep grid's cell as the playground's address: its run and its variant's settings; null where
 * the playground cannot hold them.
 */
export function sweepCellLink(
  cell: { experiment: string; seed: number; method: string; snr?: number | null; rows?: number | null },
  settings: Record<string, unknown> | undefined,
): string | null {
  const variant = settingsParams(settings);
  const { experiment, seed, method, snr, rows } = cell;
  return variant ? playgroundLink({ dataset: experiment, seed, method, snr, rows, ...variant }) : null;
}

/**
 * A search-benchmark cell as the playground's address: the entry, its draw, and the suite's
 * episodes, budget and stop rule; null where the playground does not offer the entry among its
 * `datasets` (it opened on the toy instead: the benchmark's equations are not the playground's).
 */
export function benchmarkCellLink(
  cell: {
    equation: string;
    seed: number;
    method: string;
    snr: number | null;
    rows: number;
    episodes: number;
    budget: number;
    stopNrmse: number;
  },
  datasets: readonly string[],
): string | null {
  const { equation, seed, method, snr, rows, episodes, budget, stopNrmse } = cell;
  if (!datasets.includes(equation)) return null;
  // (6 digits: a record's 2·10^(−100/20) is 1.9999999999999998e-5, the playground's choice 2e-5.)
  const stop = Number(stopNrmse.toPrecision(6));
  return playgroundLink({ dataset: equation, seed, snr, rows, method, budget, episodes, stop });
}
