/**
 * The one tfjs entry point of the library. The union package registers the cpu and webgl
 * backends and every gradient (tfjs-core alone has no gradients, and its ESM build cannot be
 * loaded by Node directly). wasm is opt-in through backend.ts. Nothing here is Node-only.
 */
import * as tf from "@tensorflow/tfjs";

export { tf };
export type Tf = typeof tf;
export type Tensor = tf.Tensor;
