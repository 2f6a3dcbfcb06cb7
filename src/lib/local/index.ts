/** The LoCaL network (paper §3): a structure's weights fitted (Adam, then Levenberg–Marquardt), read as equations. */
export { compileLocal, type LocalWeights } from "./compiled.js";
export { equationsOfLocal, formOf, structureOfEquations } from "./extract.js";
export { type FitData, fitLocal, fitLocalSteps, fitLocalSync, type FitOptions, type FitResult } from "./fit.js";
export { type Float64Model, levenbergMarquardt } from "./float64.js";
export { fromMasks, type LocalStructure, structureKey, toMasks, validateStructure, withConstant } from "./structure.js";
