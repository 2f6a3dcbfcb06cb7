/** The tfjs backends by name, without loading tfjs (a run on the float64 engine checks its flag only). */
import { InputError } from "./index.js";

export const BACKENDS = ["cpu", "wasm", "webgl"] as const;
export type BackendName = (typeof BACKENDS)[number];

/** Throws an InputError naming the known backends when `name` is none of them. */
export function checkBackendName(name: string): asserts name is BackendName {
  if (!(BACKENDS as readonly string[]).includes(name))
    throw new InputError(`unknown backend "${name}" (known: ${BACKENDS.join(", ")})`);
}
