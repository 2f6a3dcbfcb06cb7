/**
 * Choosing the tfjs backend. cpu and webgl come with the union package; wasm is loaded on
 * first use. In the browser, pages may pass their own loader for wasm (it needs its .wasm files
 * served), see STACK.md.
 */
import { InputError } from "./errors.js";
import { tf } from "./tf.js";

export const BACKENDS = ["cpu", "wasm", "webgl"] as const;
export type BackendName = (typeof BACKENDS)[number];

export async function useBackend(
  name: string,
  loadWasm: () => Promise<unknown> = () => import("@tensorflow/tfjs-backend-wasm"),
): Promise<string> {
  if (!(BACKENDS as readonly string[]).includes(name))
    throw new InputError(`unknown backend "${name}" (known: ${BACKENDS.join(", ")})`);
  if (name === "wasm" && !tf.findBackendFactory("wasm")) await loadWasm();
  const ok = await tf.setBackend(name);
  if (!ok) throw new InputError(`the tfjs backend "${name}" could not be initialised here`);
  await tf.ready();
  return tf.getBackend();
}
