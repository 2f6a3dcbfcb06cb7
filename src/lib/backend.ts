/**
 * Choosing the tfjs backend. cpu and webgl come with the union package; wasm is loaded on
 * first use. In the browser, pages may pass their own loader for wasm (it needs its .wasm files
 * served), see STACK.md.
 */
import { InputError } from "./errors.js";
import { tf } from "./tf.js";
import { checkBackendName } from "./backendNames.js";

export { BACKENDS, checkBackendName, type BackendName } from "./backendNames.js";

export async function useBackend(
  name: string,
  loadWasm: () => Promise<unknown> = () => import("@tensorflow/tfjs-backend-wasm"),
): Promise<string> {
  checkBackendName(name);
  if (name === "wasm" && !tf.findBackendFactory("wasm")) await loadWasm();
  const ok = await tf.setBackend(name);
  if (!ok) throw new InputError(`the tfjs backend "${name}" could not be initialised here`);
  await tf.ready();
  return tf.getBackend();
}
