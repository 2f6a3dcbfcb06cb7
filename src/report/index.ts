/// <reference path="./htl.d.ts" />
/**
 * `consolesr/report`: the components of a consolesr report page, for browsers (Observable
 * Framework pages, or any page whose bundler resolves bare imports). This site's report pages use
 * them from here (site/report links to this folder), and so do the projects `consolesr report`
 * writes, from the package: a user's report looks and behaves like ours.
 *
 * - `equationCard(result)`: the learned laws in KaTeX, with their NRMSE and how each search ended.
 * - `paretoChart(result, target)`: the Pareto front of one output, chart and table.
 * - `diagnostics(result, table, target)`: predicted against observed and the residuals, on all rows.
 * - `dataSummary(table, …)`: rows, and per column its role, range, mean and spread.
 * - `reproduceBlock(result, …)`: the manifest, the commands, the JSON download;
 *   `reproduceCheck(check)`: whether the build's re-run matched the published result.
 * - `csvRerun(…)` ("Re-run with…" on a CSV) and `rerun(spec)`, the form every report page shares:
 *   runs in a Web Worker (`SearchWorker`), answers clicks while it runs, Stop keeps the best so far.
 * - `progressLine(progress, seconds)`: a run's progress as one line ("output 1 of 2 (y), episode …").
 * - `tex`, `nrmseText`, `ecText`, `scrollX`, `chartWidth`: the formatting every page shares.
 *
 * Pages link KaTeX's stylesheet with its fonts inlined (`katexStylesheet()` of
 * `consolesr/framework`, printed by a data loader). See the site's guide, "Publish your own report".
 */
export {
  equationCard,
  paretoChart,
  diagnostics,
  dataSummary,
  reproduceBlock,
  reproduceCheck,
  type Diagnostics,
  type BuildCheck,
} from "./components.js";
export { rerun, field, outputsOf, csvRerun, fitCommand, SNR_CHOICES, SEED_MAX, type CsvRerunValues } from "./rerun.js";
export {
  rewardChart,
  frontChart,
  manifestLine,
  nrmseChart,
  convergenceChart,
  NRMSE_FLOOR,
  RUN_COLORS,
} from "./experimentCharts.js";
export { tex, texName } from "./katex.js";
export { nrmseText, ecText } from "./format.js";
export { scrollX, chartWidth, withLegend } from "./layout.js";
export { saveJson } from "./download.js";
export { progressLine, unitName } from "./progressLine.js";
export {
  SearchWorker,
  calibrateInWorker,
  partialCalibration,
  CachedCalibration,
  STOP_GRACE_MS,
  CALIBRATION_WORKER,
  type RunRequest,
  type RunOverrides,
  type RunOutcome,
  type RunHandlers,
  type WorkerRun,
  type WorkerMessage,
  type WorkerRequest,
  type EpisodeMessage,
  type StartedMessage,
  type ProgressMessage,
  type CalibrationOutcome,
} from "./searchClient.js";
export {
  pipelineOptions,
  resultWithTimings,
  experimentNames,
  NOISE_FLOOR_STOP,
  type PlaygroundConfig,
} from "./playgroundConfig.js";
export { importPluginSource, PLUGIN_EXTENSIONS } from "./pluginSource.js";
