/** The run room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export { evaluateExperiment } from "./evaluate.js";
export { checkDomains, fitForm, type FitFormOptions, type FitFormResult } from "./fitForm.js";
export {
  configFromManifest,
  type CsvFormConfig,
  type CsvSearchConfig,
  type FitConfig,
  FORM_FIT,
  formEquations,
  isExperimentConfig,
  isFormConfig,
  isModelConfig,
  lookupExperiment,
  manifestConfig,
  type PipelineConfig,
  pipelineData,
  type PipelineData,
  type PipelineInput,
  type PipelineOptions,
  type PipelineOutput,
  pipelinePlugins,
  resolvePipelineConfig,
  runPipeline,
  SEARCH_FIT,
  searchSettingsOf,
  usesTfjs,
} from "./pipeline.js";
