/**
 * Imported first by program.ts, so that it runs before any other module of the CLI (in-process or
 * in the plugin worker): tfjs's cpu backend prints "Hi, looks like you are running TensorFlow.js
 * in Node.js… install tfjs-node" through its warn() on its first tensor, which is noise on the
 * CLI's stderr. This sets a flag that src/lib/engine/tf.ts reads when tfjs is loaded (on the paths that
 * use it only: a search on the float64 engine never loads it) and then sets PROD, which silences
 * tfjs's warn() and log() and nothing else. The library alone does not silence tfjs's warnings in
 * its users' programs.
 */
(globalThis as Record<string, unknown>).__consolesrQuietTfjs = true;
