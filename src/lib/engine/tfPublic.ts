/**
 * `tf` as consolesr exports it: tfjs-core itself (tf.ts), typed by our own interface (tfOps.ts),
 * so that the public declarations never reach tfjs-core's. The assignment below is checked: tfjs
 * has every member the interface names. tfjs loads on first use (tf.ts): `loadTf()` loads it.
 */
import { loadTf as loadCore, tf as core } from "./tf.js";
import type { Tf } from "./tfOps.js";

export const tf: Tf = core;

/**
 * Loads tfjs (tfjs-core, its cpu backend and the gradients) where it is not loaded yet; resolves to
 * `tf`. `fit` does this itself; in a browser, await it before touching `tf` outside a fit.
 */
export async function loadTf(): Promise<Tf> {
  await loadCore();
  return tf;
}
