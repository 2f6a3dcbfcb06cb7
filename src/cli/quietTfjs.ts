/**
 * Imported first by program.ts, so that it runs before any other module of the CLI (and before
 * any backend is initialised, in-process or in the plugin worker): tfjs's cpu backend prints
 * "Hi, looks like you are running TensorFlow.js in Node.js… install tfjs-node" through its
 * warn() on its first tensor, which is noise on the CLI's stderr. PROD silences tfjs's warn()
 * and log() and nothing else. It is set here and not in src/lib/tf.ts, so that the library does
 * not silence tfjs's warnings in its users' programs.
 */
import { tf } from "../lib/tf.js";

tf.env().set("PROD", true);
