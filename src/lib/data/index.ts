export { type Dataset, columnOf, selectTargets } from "./dataset.js";
export { parseCsv, datasetFromTable, datasetToCsv, MIN_ROWS, type Table } from "./csv.js";
export { experiments, generateDataset, experimentData, addNoise, type Experiment, type GenerateOptions } from "./experiments.js";
