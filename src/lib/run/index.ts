/** One run from config to result: resolve the config, get the data, search or fit, evaluate, write the manifest. */
export { evaluateExperiment } from "./evaluate.js";
export { checkDomains, fitForm, type FitFormOptions, type FitFormResult } from "./fitForm.js";
export { configFromManifest, manifestConfig, usesTfjs } from "./manifest.js";
export {
  type CsvFormConfig,
  type CsvSearchConfig,
  type FitConfig,
  FORM_FIT,
  isExperimentConfig,
  isFormConfig,
  isModelConfig,
  type PipelineConfig,
  type PipelineOptions,
  SEARCH_FIT,
} from "./config.js";
export {
  formEquations,
  pipelineData,
  type PipelineData,
  type PipelineInput,
  type PipelineOutput,
  pipelinePlugins,
  type PipelinePlugins,
  runPipeline,
  runPrepared,
  type RunHooks,
  searchOptionsOf,
} from "./pipeline.js";
export { prepareRun, type PreparedRun, type RunRequest, type RunSource } from "./prepare.js";
export { lookupExperiment, registerExperiment, resolvePipelineConfig, searchSettingsOf } from "./resolve.js";
export {
  SAMPLE_ROWS,
  SAMPLE_ROWS_PER_INPUT,
  sampleSize,
  sampleSeed,
  searchSample,
  refitOnAllRows,
  type SampleRecord,
} from "./sample.js";
export { SCREEN_INPUTS, screenInputs, type InputScreen } from "./screen.js";
