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
