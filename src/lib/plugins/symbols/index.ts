/**
 * The built-in symbols, in the order the registry lists them (and equations order factors).
 * New symbols go at the end, so that the factor order of equations printed before does not change.
 */
import identity from "./identity.js";
import square from "./square.js";
import cube from "./cube.js";
import sqrt from "./sqrt.js";
import log from "./log.js";
import exp from "./exp.js";
import sin from "./sin.js";
import cos from "./cos.js";
import reciprocal from "./reciprocal.js";
import inverseSquare from "./inverseSquare.js";

export const builtinSymbols = [identity, square, cube, sqrt, log, exp, sin, cos, reciprocal, inverseSquare];
