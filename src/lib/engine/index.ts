/** The tensor engine: which tfjs backend runs, and the tfjs interface that plugins and users see. */
export { useBackend } from "./backend.js";
// Two faces of tfjs: users and plugins see it through our own interface (publicTf, Tf, Tensor:
// tfPublic.ts); the library computes with tfjs-core itself through the room's second door, tf.ts,
// kept out of this one so that the public declarations never reach tfjs-core's.
export { loadTf, tf as publicTf } from "./tfPublic.js";
export type { Operand, Tensor, Tf, TfMemory } from "./tfOps.js";
export { BACKEND_ORDER, type BackendChoice, backendOrder, selectBackend } from "./select.js";
