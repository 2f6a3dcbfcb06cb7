/**
 * The one tfjs entry point of the library. The union package registers the cpu and webgl
 * backends and every gradient (tfjs-core alone has no gradients, and its ESM build cannot be
 * loaded by Node directly). wasm is opt-in through backend.ts. Nothing here is Node-only.
 */
import * as tf from "@tensorflow/tfjs";

// The command line asks for tfjs's Node banner ("Hi, looks like you are running TensorFlow.js in
// Node.js…") to be silenced (src/cli/quietTfjs.ts sets this flag before tfjs is loaded, which it
// may never be); the library alone leaves tfjs's warnings to its users.
if ((globalThis as Record<string, unknown>).__consolesrQuietTfjs === true) tf.env().set("PROD", true);

export { tf };
export type Tf = typeof tf;
export type Tensor = tf.Tensor;
