/** The version-1 result JSON: built, serialised, checked against its schema and compared with a re-run. */
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
  type SameWriting,
  type TargetComparison,
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
