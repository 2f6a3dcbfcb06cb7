/** The engine room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export { useBackend } from "./backend.js";
// Two faces of tfjs: the library computes with tfjs-core itself (tf, CoreTf, CoreTensor); users and
// plugins see it through our own interface (publicTf, Tf, Tensor), so that the public declarations
// never reach tfjs-core's (tfPublic.ts).
export { tf, type Tensor as CoreTensor, type Tf as CoreTf } from "./tf.js";
export { tf as publicTf } from "./tfPublic.js";
export type { Operand, Tensor, Tf, TfMemory } from "./tfOps.js";
export { BACKEND_ORDER, type BackendChoice, backendOrder, selectBackend } from "./select.js";
