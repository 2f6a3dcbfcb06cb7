/**
 * Choosing a tfjs backend with fallbacks: the GPU (webgl) if there is one, then WebAssembly, then
 * plain JavaScript. For pages (src/lib/browser.ts); nothing here is Node-only.
 */
import { BACKENDS, useBackend, type BackendName } from "./backend.js";

export interface BackendChoice {
  /** The backend now live in tfjs. */
  backend: string;
  /** The ones tried before it, and why each failed. */
  failures: { backend: string; reason: string }[];
}

/** The default order: the GPU if there is one, then WebAssembly, then plain JavaScript. */
export const BACKEND_ORDER: readonly BackendName[] = ["webgl", "wasm", "cpu"];

/** `preferred` first, then the rest of BACKEND_ORDER. */
export const backendOrder = (preferred: string): string[] => [
  preferred,
  ...BACKEND_ORDER.filter((b) => b !== preferred),
];

/**
 * Makes the first backend of `order` that initialises here the live one. Throws only when none
 * of them does.
 */
export async function selectBackend(
  order: readonly string[] = BACKEND_ORDER,
  loadWasm?: () => Promise<unknown>,
): Promise<BackendChoice> {
  const failures: BackendChoice["failures"] = [];
  for (const name of order) {
    if (!(BACKENDS as readonly string[]).includes(name)) {
      failures.push({ backend: name, reason: `unknown backend (known: ${BACKENDS.join(", ")})` });
      continue;
    }
    try {
      const backend = await useBackend(name, loadWasm);
      return { backend, failures };
    } catch (error) {
      failures.push({ backend: name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  throw new Error(
    `no tfjs backend could be initialised: ${failures.map((f) => `${f.backend}: ${f.reason}`).join("; ")}`,
  );
}
