/**
 * The one tfjs entry point of the library: tfjs-core with the cpu backend, and tfjs-core's
 * gradients and chained ops (registered by vendor/tfjsRegistrations.js, which
 * scripts/tfjsRegistrations.ts bundles from tfjs-core: tfjs-core alone registers neither, and its
 * ES-module build cannot be loaded by Node directly). wasm and webgl are loaded on first use
 * (backend.ts). Nothing here is Node-only.
 */
import * as tf from "@tensorflow/tfjs-core";
import "@tensorflow/tfjs-backend-cpu";
import "../vendor/tfjsRegistrations.js";

// The command line asks for tfjs's Node banner ("Hi, looks like you are running TensorFlow.js in
// Node.js…") to be silenced (src/cli/quietTfjs.ts sets this flag before tfjs is loaded, which it
// may never be); the library alone leaves tfjs's warnings to its users.
if ((globalThis as Record<string, unknown>).__consolesrQuietTfjs === true) tf.env().set("PROD", true);

export { tf };
export type Tf = typeof tf;
export type Tensor = tf.Tensor;
