/**
 * The one tfjs entry point of the library: tfjs-core with the cpu backend, and tfjs-core's
 * gradients and chained ops (registered by vendor/tfjsRegistrations.js, which
 * scripts/tfjsRegistrations.ts bundles from tfjs-core: tfjs-core alone registers neither, and its
 * ES-module build cannot be loaded by Node directly). wasm and webgl are loaded on first use
 * (backend.ts). Nothing here is Node-only.
 *
 * tfjs is loaded on first use, not when the library is imported (a search on the float64 engine
 * never needs it, and `import("consolesr")` stays light): `loadTf()` loads it (fit, calibration and
 * the plugin checks await it before they compute); `tf` is tfjs-core itself once loaded. Touched
 * before, `tf` loads tfjs at once where that can be done synchronously (Node, through its CommonJS
 * builds); in a browser it says to await loadTf() first.
 */
import { nodeRequire } from "../core/index.js";
import type * as TfCore from "@tensorflow/tfjs-core";

type Core = typeof TfCore;

let core: Core | undefined;

/** tfjs's Node banner ("Hi, looks like you are running TensorFlow.js in Node.js…") silenced where the CLI asks. */
function loaded(module: Core): Core {
  // The command line asks for the banner to be silenced (src/cli/quietTfjs.ts sets this flag
  // before tfjs is loaded, which it may never be); the library alone leaves tfjs's warnings to its users.
  if ((globalThis as Record<string, unknown>).__consolesrQuietTfjs === true) module.env().set("PROD", true);
  core = module;
  return module;
}

/** tfjs loaded synchronously (Node), or undefined where it cannot be. */
function loadNow(): Core | undefined {
  const require = nodeRequire(import.meta.url);
  if (require === undefined) return undefined;
  const module = require("@tensorflow/tfjs-core") as Core;
  require("@tensorflow/tfjs-backend-cpu");
  require("../vendor/tfjsRegistrations.js");
  return loaded(module);
}

/** Loads tfjs-core, its cpu backend and the gradients (once); resolves to tfjs-core. */
export async function loadTf(): Promise<Core> {
  if (core) return core;
  const now = loadNow();
  if (now) return now;
  const module = (await import("@tensorflow/tfjs-core")) as Core;
  await import("@tensorflow/tfjs-backend-cpu");
  await import("../vendor/tfjsRegistrations.js");
  return core ?? loaded(module);
}

/** Whether tfjs has been loaded in this process or page (nothing has needed it yet when false). */
export const tfLoaded = (): boolean => core !== undefined;

/** tfjs-core: every member read from the loaded module (module comment). */
export const tf: Core = new Proxy({} as Core, {
  get(_, key) {
    const module = core ?? loadNow();
    if (module === undefined)
      throw new Error("tfjs is not loaded yet: await loadTf() first (fit and the plugin checks do)");
    return Reflect.get(module, key);
  },
  has: (_, key) => Reflect.has(core ?? loadNow() ?? {}, key),
});

/** tfjs-core's types under the same name, as `import * as tf` gave them (tf.Tensor2D, tf.Variable, …). */
// biome-ignore lint/suspicious/noRedeclare: a type-only namespace beside the value, as a module namespace is both
export declare namespace tf {
  export type Tensor<R extends TfCore.Rank = TfCore.Rank> = TfCore.Tensor<R>;
  export type Tensor1D = TfCore.Tensor1D;
  export type Tensor2D = TfCore.Tensor2D;
  export type Scalar = TfCore.Scalar;
  export type Variable<R extends TfCore.Rank = TfCore.Rank> = TfCore.Variable<R>;
  export type Optimizer = TfCore.Optimizer;
  export type Rank = TfCore.Rank;
}

export type Tf = Core;
export type Tensor = TfCore.Tensor;
