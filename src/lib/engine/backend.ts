/**
 * Choosing the tfjs backend (tfjs itself is loaded first, tf.ts). cpu comes with tf.ts; wasm (a
 * dependency) and webgl (an optional peer dependency, for the browser: `npm install
 * @tensorflow/tfjs-backend-webgl`) are loaded on first use. In the browser, pages may pass their
 * own loader for wasm (it needs its .wasm files served), see docs/design.md#stack.
 */
import { InputError } from "../core/index.js";
import { loadTf, tf } from "./tf.js";
import { checkBackendName } from "../core/index.js";

export { BACKENDS, checkBackendName, type BackendName } from "../core/index.js";

export async function useBackend(
  name: string,
  loadWasm: () => Promise<unknown> = () => import("@tensorflow/tfjs-backend-wasm"),
): Promise<string> {
  checkBackendName(name);
  await loadTf();
  if (name === "wasm" && !tf.findBackendFactory("wasm")) await loadWasm();
  if (name === "webgl" && !tf.findBackendFactory("webgl")) {
    try {
      await import("@tensorflow/tfjs-backend-webgl");
    } catch {
      throw new InputError(
        'the tfjs backend "webgl" needs @tensorflow/tfjs-backend-webgl (npm install @tensorflow/tfjs-backend-webgl)',
      );
    }
  }
  const ok = await tf.setBackend(name);
  if (!ok) throw new InputError(`the tfjs backend "${name}" could not be initialised here`);
  await tf.ready();
  return tf.getBackend();
}
