/** What every room rests on: the settings table, input errors, the seeded RNG, the clock, names and syntax. */
export { Clock, driveSteps, Interrupted, paceSteps, runSteps, type Steps } from "./clock.js";
export { InputError, isInputError } from "./errors.js";
export { cos, elementary, exp, hypot, log, log10, log2, pow, sin } from "./math.js";
export { createRng, type Rng } from "./rng.js";
export { COLUMN_NAME, DECIMAL, errorLine, escapedLine, quote, shown } from "./syntax.js";
export { VERSION } from "./version.js";
export { BACKENDS, type BackendName, checkBackendName } from "./backendNames.js";
export { runtimeFacts, type RuntimeFacts } from "./runtimeFacts.js";
export {
  type BooleanRow,
  type BooleanSettingName,
  type ChoiceRow,
  type Choice,
  type ChoiceSettingName,
  FACTORS_CAP,
  flaggedRows,
  HIDDEN_LAYERS_CAP,
  LENGTH_CAP,
  type ListRow,
  type ListSettingName,
  MIN_ROWS,
  type NumberRow,
  type NumberSettingName,
  recordOrder,
  ROWS_CAP,
  ruleOf,
  SEED_MAX,
  type SettingGroup,
  type SettingName,
  type SettingRow,
  SETTINGS,
  type TableSettingName,
  type TableSettings,
  TERMS_CAP,
  TIME_LIMIT_CAP,
  type ValueOf,
} from "./settings.js";
export { lazyObject, nodeRequire, once } from "./lazy.js";
export { zod } from "./zod.js";
