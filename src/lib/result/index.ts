/** The result room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export {
  compareEquations,
  compareResults,
  type Comparison,
  formatComparison,
  isObject,
  MAX_RESULT_BYTES,
  modelTolerancePolicy,
  parseResult,
  toleranceFor,
  tolerancePolicy,
  type TolerancePolicy,
} from "./reproduce.js";
export {
  type EquationResult,
  type EvaluationResult,
  type Manifest,
  type ModelResult,
  KNOWN_REQUIREMENTS,
  requirementsOf,
  resultEquation,
  type ResultJson,
  resultTerms,
  equationResult,
  resultToJson,
} from "./result.js";
export { RESULT_SCHEMA, resultJsonSchema, resultSchemaProblems } from "./schema.js";
