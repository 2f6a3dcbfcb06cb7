/**
 * Browser-only helpers: choosing a tfjs backend with fallbacks (webgl, then wasm, then cpu) and
 * loading the search's LP solver (HiGHS) from an explicit URL. Also the one-call `fit({X, y})`
 * (src/lib/api/fitArrays.ts, the same function src/lib/index.ts exports) and `resultToJson`, so that
 * a page can fit arrays from this entry alone: `fit({X, y, backend, argmin: await
 * browserArgmin(url)})`, and a CSV read as it arrives (`readCsv(file.stream())`, CsvReader) or
 * whole (`parseCsv`). tfjs and highs stay bare imports here (the page's bundler resolves them;
 * in the site, scripts/browserVendor.ts provides them).
 *
 * In the Framework site neither needs a URL: scripts/browserVendor.ts pre-bundles
 * `@tensorflow/tfjs-backend-wasm` and `highs` for the browser with their .wasm files beside the
 * bundles, so the library's defaults (`useBackend("wasm")`, `createArgminSolver()`) find them.
 * `browserArgmin` is for pages served some other way.
 */
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
  calibrate,
  type Calibration,
  type CalibrationEntry,
} from "./api/index.js";
export { resultToJson, type ResultJson } from "./result/index.js";
export { CsvReader, parseCsv, readCsv, type CsvSource, type ReadCsvOptions, type Table } from "./data/index.js";
export { BACKEND_ORDER, backendOrder, selectBackend, type BackendChoice } from "./engine/index.js";
export { browserArgmin } from "./search/index.js";
