/** The local room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export { compileLocal, type LocalWeights } from "./compiled.js";
export { equationsOfLocal, formOf, structureOfEquations } from "./extract.js";
export { type FitData, fitLocal, fitLocalSteps, fitLocalSync, type FitOptions, type FitResult } from "./fit.js";
export { type Float64Model, levenbergMarquardt } from "./float64.js";
export { fromMasks, type LocalStructure, structureKey, toMasks, validateStructure, withConstant } from "./structure.js";
