/** consolesr's public API. Browser-safe: nothing here imports a `node:` module. */
// Registers fitLocal's tfjs engine (local/fitTfjs.ts): the library's users fit on tfjs by default.
import "./local/fitTfjs.js";
export { VERSION } from "./version.js";
export { InputError, isInputError } from "./errors.js";
export { tf } from "./tfPublic.js";
export type { Operand, Tensor, Tf, TfMemory } from "./tfOps.js";
export { useBackend, BACKENDS, type BackendName } from "./backend.js";
export {
  calibrate,
  type Calibration,
  type CalibrationEntry,
  type CalibrateOptions,
  type FitEngine,
} from "./calibrate.js";
export { elementary } from "./math.js";
export { runtimeFacts, type RuntimeFacts } from "./runtimeFacts.js";
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
export {
  resultToJson,
  resultEquation,
  resultTerms,
  type ResultJson,
  type EquationResult,
  type EvaluationResult,
  type Manifest,
} from "./result.js";
export {
  createSymbolRegistry,
  createConstraintRegistry,
  createRewardRegistry,
  createRegistries,
  builtinSymbols,
  builtinConstraints,
  builtinRewards,
} from "../plugins/index.js";
export {
  checkPlugins,
  checkPlugin,
  formatFailure,
  sampleConstraintContexts,
  sampleRewardFits,
  type CheckPluginsOptions,
  type PluginCheckReport,
  type PluginCheckFailure,
} from "./checkPlugin.js";
export {
  search,
  resolveSettings,
  consolesrSettings,
  paperSettings,
  METHODS,
  METHOD_NAMES,
  SEARCH_METHOD_NAMES,
  isModelMethod,
  isMethod,
  methodRow,
  settingsRecord,
  type MethodRow,
  type ProposalStrategy,
  type SearchOptions,
  type SearchResult,
  type SearchSettings,
  type SearchMethod,
  type EpisodeEvent,
} from "./search/index.js";
export { createArgminSolver, type ArgminSolver } from "./search/argmin.js";
// The CMP of Algorithm 2 (states, layer bounds, transitions) and the ICNN type, for reports
// that draw the search's own objects (the toy page's −Q slices).
export {
  createSpace,
  initialState,
  layerBounds,
  partialStructure,
  transition,
  type SearchSpace,
} from "./search/cmp.js";
export type { Icnn } from "./search/icnn.js";
export { allowedNeurons } from "./search/index.js";
// The hall of fame's Pareto rule, for a page that draws the front of a run while it goes (the playground).
export { HallOfFame, type Candidate } from "./search/index.js";
// The browser helpers (no Node module in them): backend fallbacks and HiGHS from a URL.
export { BACKEND_ORDER, backendOrder, selectBackend, browserArgmin, type BackendChoice } from "./browser.js";
export * from "./fitArrays.js";
// The sweep grammar: the CLI runs a spec's jobs, the report pages find their results by the same names.
export {
  parseSweepSpec,
  expandSweepSpec,
  sweepSpecSchema,
  type SweepSpec,
  type SweepJob,
  type VariantSettings,
} from "./sweep/spec.js";
export {
  resolvePipelineConfig,
  configFromManifest,
  pipelineData,
  runPipeline,
  type PipelineConfig,
  type PipelineOptions,
  type PipelineOutput,
  isExperimentConfig,
  isFormConfig,
  type PipelineData,
} from "./pipeline.js";
export {
  default as defineExperimentModule,
  runModule,
  type Progress,
  type RuntimeConfig,
  type RuntimeHooks,
} from "./runtime.js";
export {
  parseResult,
  compareEquations,
  compareResults,
  formatComparison,
  toleranceFor,
  tolerancePolicy,
  type Comparison,
  type TolerancePolicy,
} from "./reproduce.js";
export { benchmarkEntries, benchmarkEntry, benchmarkData, type BenchmarkEntry } from "./data/benchmark.js";
