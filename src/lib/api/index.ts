/** The api room's door: the calls that drive a whole run from a script or a page — fit({X, y}), the
 * engine calibration and the reactive runtime module — which load tfjs (scripts/boundaries.ts). */
export {
  calibrate,
  chooseEngine,
  JS_MARGIN,
  type CalibrateOptions,
  type Calibration,
  type CalibrationEntry,
  type FitEngine,
} from "./calibrate.js";
export {
  default as defineExperimentModule,
  type Progress,
  runModule,
  type RuntimeConfig,
  type RuntimeHooks,
  type TrainingStep,
} from "./runtime.js";
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
} from "./fitArrays.js";
export { reproduceResult, type ReproduceResultOptions, type ResultReproduction } from "./reproduce.js";
