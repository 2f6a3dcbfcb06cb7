/**
 * `consolesr/inspect`: the library's inner objects, for report pages that draw them and for
 * research code that takes the search apart. Not the stable API (that is `consolesr`,
 * src/lib/index.ts): these names follow the code. Browser-safe, like the main entry.
 */
// The CMP of Algorithm 2 (states, layer bounds, transitions), the ICNN and the constraint's
// allowed neurons: the toy page's −Q slices.
export {
  createSpace,
  initialState,
  layerBounds,
  partialStructure,
  transition,
  allowedNeurons,
  HallOfFame,
  frontScores,
  type SearchSpace,
  type Icnn,
  type Candidate,
} from "./search/index.js";
// A LoCaL's structure as masks, and the float64 engine's pieces.
export {
  toMasks,
  fromMasks,
  structureKey,
  validateStructure,
  fitLocalSteps,
  levenbergMarquardt,
} from "./local/index.js";
export {
  evaluateTerm,
  evaluateFactor,
  compareTerms,
  compareFactors,
  foldNearDegenerate,
  type FoldOptions,
  type FoldResult,
} from "./equation/index.js";
export { leaveOneOutNrmse } from "./metrics/index.js";
// The conformance check's samples, and the guard the registries put around a symbol.
export { sampleConstraintContexts, sampleRewardFits } from "./conformance/index.js";
export { guardSymbol } from "./plugins/index.js";
// The paper's systems: the power grid (Pow, and any grid file's operating points) and the mass–damper network (Mas).
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
  gridOperatingPoints,
  reducedTruth,
  learnedTopology,
  topologySummary,
  HOURS_PER_YEAR,
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
  benchmarkFamily,
  benchmarkExperiment,
  type PowerCase,
  type Grid,
  type OperatingPoints,
  type LearnedTopology,
  type LearnedLine,
  type MassDamperNetwork,
  type MasTrajectories,
  type Damper,
  type LearnedMatrix,
} from "./data/index.js";
