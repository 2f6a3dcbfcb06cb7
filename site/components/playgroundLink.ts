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
export function playgroundLink(values: { [K in ParamName]?: ParamValues[K] | null }): string {
  for (const name of Object.keys(values))
    if (!(PARAM_NAMES as readonly string[]).includes(name))
      throw new Error(`playgroundLink: the playground has no parameter "${name}"`);
  return `./playground${queryOf(values)}`;
}
