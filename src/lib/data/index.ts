/** Where rows come from: CSV tables, read whole or streamed, and the seeded datasets of the paper and the benchmark. */
export { type Dataset, columnOf, selectTargets } from "./dataset.js";
export { parseCsv, datasetFromTable, datasetToCsv, MIN_ROWS, MAX_MAGNITUDE, MIN_MAGNITUDE, type Table } from "./csv.js";
export {
  experiments,
  generateDataset,
  experimentData,
  addNoise,
  type Experiment,
  type GenerateOptions,
} from "./experiments.js";
export type { ExperimentDataOptions } from "./experiments.js";
export {
  powExperiment,
  POW_GRID,
  CASE5,
  makeGrid,
  admittanceMatrix,
  powerFlow,
  injections,
  writtenInjections,
  operatingPoints,
  powOperatingPoints,
  reducedTruth,
  learnedTopology,
  topologySummary,
  HOURS_PER_YEAR,
  parseGrid,
  gridCase,
  powerFlowExperiment,
  powerFlowDataset,
  powerFlowName,
  gridOperatingPoints,
  GRID_ROWS,
  type GridSpec,
  type GridBus,
  type GridLine,
  type PowerCase,
  type Grid,
  type OperatingPoints,
  type LearnedTopology,
  type LearnedLine,
} from "./pow/index.js";
export {
  masExperiment,
  MAS_NETWORK,
  MAS_TRAIN_ROWS,
  MAS_LINES,
  MAS_GROUNDED,
  MAS_MASS_RANGE,
  MAS_DAMPING_RANGE,
  MAS_NETWORK_SEED,
  MAS_DT,
  massDamperNetwork,
  massDamperMatrix,
  matrixExponential,
  masTrajectories,
  masTruth,
  learnedMatrix,
  matrixSummary,
  type MassDamperNetwork,
  type MasTrajectories,
  type Damper,
  type LearnedMatrix,
} from "./mas/index.js";
export {
  benchmarkData,
  benchmarkEntries,
  benchmarkEntry,
  type BenchmarkEntry,
  benchmarkExperiment,
  benchmarkFamily,
} from "./benchmark.js";
export { parseCsvSteps, CsvReader, readCsv, type CsvSource, type ReadCsvOptions } from "./csv.js";
export { GrowingColumn } from "./columns.js";
export { sameLaw, SAME_LAW_TOLERANCE } from "./beyond.js";
