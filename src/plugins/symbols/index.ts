/** The built-in symbols, in the order the registry lists them (and equations order factors). */
import identity from "./identity.js";
import square from "./square.js";
import cube from "./cube.js";
import sqrt from "./sqrt.js";
import log from "./log.js";
import exp from "./exp.js";
import sin from "./sin.js";
import cos from "./cos.js";

export const builtinSymbols = [identity, square, cube, sqrt, log, exp, sin, cos];
