/** consolesr's public API. Browser-safe: nothing here imports a `node:` module. */
export { VERSION } from "./version.js";
export { InputError, isInputError } from "./errors.js";
export { tf, type Tf, type Tensor } from "./tf.js";
export { useBackend, BACKENDS, type BackendName } from "./backend.js";
export { createRng, type Rng } from "./rng.js";
export * from "./plugins.js";
export * from "./equation/index.js";
export * from "./data/index.js";
export * from "./metrics/index.js";
export { fitLocal, fitLocalSync, type FitData, type FitOptions, type FitResult } from "./local/fit.js";
export { compileLocal, type LocalWeights } from "./local/compiled.js";
export { toMasks, fromMasks, structureKey, validateStructure, type LocalStructure } from "./local/structure.js";
export { fitForm, checkDomains, type FitFormOptions, type FitFormResult } from "./fitForm.js";
export { evaluateExperiment } from "./evaluate.js";
export { resultToJson, type ResultJson, type EquationResult, type EvaluationResult, type Manifest } from "./result.js";
export { createSymbolRegistry, createConstraintRegistry, createRewardRegistry, createRegistries, builtinSymbols, builtinConstraints, builtinRewards } from "../plugins/index.js";
export { checkPlugins, checkPlugin, formatFailure, sampleConstraintContexts, sampleRewardFits, type CheckPluginsOptions, type PluginCheckReport, type PluginCheckFailure } from "./checkPlugin.js";
