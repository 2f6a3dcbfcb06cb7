/**
 * `tf` as consolesr exports it: tfjs-core itself (tf.ts), typed by our own interface (tfOps.ts),
 * so that the public declarations never reach tfjs-core's. The assignment below is checked: tfjs
 * has every member the interface names.
 */
import { tf as core } from "./tf.js";
import type { Tf } from "./tfOps.js";

export const tf: Tf = core;
