/**
 * consolesr's public API, `import … from "consolesr"`: every name is listed here, by group (no
 * `export *`), so that what a user can reach is a decision. Browser-safe: nothing here imports a
 * `node:` module. The objects the report pages draw from inside the search and the paper's systems
 * (the CMP's states and bounds, the Pareto store, the power grid, the mass–damper network) are in
 * the second entry, `consolesr/inspect` (src/lib/inspect.ts); plugin authors have `consolesr/sdk`.
 */
// Registers fitLocal's tfjs engine (local/fitTfjs.ts): the library's users fit on tfjs by default.
import "./local/fitTfjs.js";

// ── Fit your data ────────────────────────────────────────────────────────────────────────────
export {
  fit,
  loadResult,
  type Matrix,
  type TypedMatrix,
  type Targets,
  type FitArraysOptions,
  type RowChunk,
  type ArraysData,
  type ChunkedData,
  type FitSettings,
  type FitArraysResult,
  type FittedEquation,
  type LoadResultOptions,
} from "./api/index.js";
export { fitForm, checkDomains, type FitFormOptions, type FitFormResult } from "./run/index.js";

// ── The search and its settings ──────────────────────────────────────────────────────────────
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
  createArgminSolver,
  type ArgminSolver,
  type MethodRow,
  type ProposalStrategy,
  type SearchOptions,
  type SearchResult,
  type SearchSettings,
  type SearchMethod,
  type EpisodeEvent,
} from "./search/index.js";

// ── Runs, results and reproducing them ───────────────────────────────────────────────────────
export {
  prepareRun,
  runPrepared,
  type PreparedRun,
  type RunRequest,
  type RunSource,
  type RunHooks,
  resolvePipelineConfig,
  registerExperiment,
  configFromManifest,
  SAMPLE_ROWS,
  SAMPLE_ROWS_PER_INPUT,
  sampleSize,
  pipelineData,
  runPipeline,
  isExperimentConfig,
  isFormConfig,
  usesTfjs,
  evaluateExperiment,
  type PipelineConfig,
  type PipelineOptions,
  type PipelineOutput,
  type PipelineData,
} from "./run/index.js";
export { runModule, type Progress, type RuntimeConfig, type RuntimeHooks, type TrainingStep } from "./api/index.js";
// A saved result re-run from its manifest and compared (`consolesr reproduce`, a report's build check).
export { reproduceResult, type ReproduceResultOptions, type ResultReproduction } from "./api/index.js";
// The reactive module a page or `consolesr reproduce` runs (api/runtime.ts).
export { defineExperimentModule } from "./api/index.js";
export {
  resultToJson,
  resultEquation,
  resultTerms,
  parseResult,
  resultJsonSchema,
  resultSchemaProblems,
  compareEquations,
  compareResults,
  formatComparison,
  toleranceFor,
  tolerancePolicy,
  type ResultJson,
  type EquationResult,
  type EvaluationResult,
  type Manifest,
  type Comparison,
  type TolerancePolicy,
} from "./result/index.js";

// ── Data: CSV, the paper's experiments, the benchmark list ───────────────────────────────────
export {
  parseCsv,
  readCsv,
  CsvReader,
  type CsvSource,
  type ReadCsvOptions,
  datasetFromTable,
  datasetToCsv,
  columnOf,
  selectTargets,
  addNoise,
  experiments,
  experimentData,
  generateDataset,
  // A grid of one's own: its file checked, its power flow's data and experiment.
  parseGrid,
  gridCase,
  powerFlowDataset,
  powerFlowExperiment,
  powerFlowName,
  GRID_ROWS,
  type GridSpec,
  type GridBus,
  type GridLine,
  benchmarkEntries,
  benchmarkEntry,
  benchmarkData,
  MIN_ROWS,
  type Dataset,
  type Table,
  type Experiment,
  type GenerateOptions,
  type ExperimentDataOptions,
  type BenchmarkEntry,
} from "./data/index.js";

// ── Equations ────────────────────────────────────────────────────────────────────────────────
export {
  parseForm,
  parseWrittenEquations,
  simplifyEquation,
  evaluateEquation,
  equationText,
  equationLatex,
  formatNumber,
  columnLatex,
  type Equation,
  type Term,
  type Factor,
  type ParseFormOptions,
  type SimplifyOptions,
  type SymbolLookup,
  type ColumnLookup,
} from "./equation/index.js";

// ── Metrics (paper §5.1) ─────────────────────────────────────────────────────────────────────
export { nrmse, std, coefficientError, exactRecovery, type RecoveryCheck } from "./metrics/index.js";

// ── LoCaL networks ───────────────────────────────────────────────────────────────────────────
export {
  fitLocal,
  fitLocalSync,
  compileLocal,
  equationsOfLocal,
  structureOfEquations,
  formOf,
  type FitData,
  type FitOptions,
  type FitResult,
  type LocalWeights,
  type LocalStructure,
} from "./local/index.js";

// ── Plugins: symbols, constraints, rewards ───────────────────────────────────────────────────
export {
  defineSymbol,
  defineConstraint,
  defineReward,
  defineOuter,
  validatePlugin,
  registerPlugins,
  Registry,
  createRegistries,
  createSymbolRegistry,
  createConstraintRegistry,
  createRewardRegistry,
  builtinSymbols,
  builtinConstraints,
  builtinRewards,
  type Plugin,
  type SymbolPlugin,
  type ConstraintPlugin,
  type ConstraintContext,
  type RewardPlugin,
  type OuterPlugin,
  type RewardFit,
  type Product,
  type Registries,
  type SymbolRegistry,
} from "./plugins/index.js";
export {
  checkPlugins,
  checkPlugin,
  formatFailure,
  type CheckPluginsOptions,
  type PluginCheckReport,
  type PluginCheckFailure,
} from "./conformance/index.js";

// ── Engines: tfjs, its backends, the float64 engine, calibration ─────────────────────────────
export {
  loadTf,
  publicTf as tf,
  useBackend,
  type Operand,
  type Tensor,
  type Tf,
  type TfMemory,
} from "./engine/index.js";
export { BACKENDS, runtimeFacts, type BackendName, type RuntimeFacts } from "./core/index.js";
export {
  calibrate,
  chooseEngine,
  JS_MARGIN,
  type Calibration,
  type CalibrationEntry,
  type CalibrateOptions,
  type FitEngine,
} from "./api/index.js";
// The browser helpers (no Node module in them): backend fallbacks and HiGHS from a URL.
export { BACKEND_ORDER, backendOrder, selectBackend, type BackendChoice } from "./engine/index.js";
export { browserArgmin } from "./search/index.js";

// ── Sweeps: the grammar the CLI runs and the report pages read ───────────────────────────────
export {
  parseSweepSpec,
  expandSweepSpec,
  sweepSpecSchema,
  type SweepSpec,
  type SweepJob,
  type VariantSettings,
} from "./sweep/index.js";

// ── The settings table: every setting's bound or choices, flag, help and group ────────────────
export {
  SETTINGS,
  type SettingName,
  type SettingRow,
  type SettingGroup,
  type NumberRow,
  type ChoiceRow,
} from "./core/index.js";
export { settingRows } from "./search/index.js";

// ── Basics ───────────────────────────────────────────────────────────────────────────────────
export { VERSION, InputError, isInputError, createRng, elementary, type Rng } from "./core/index.js";
