/**
 * Browser-only helpers: choosing a tfjs backend with fallbacks (webgl, then wasm, then cpu) and
 * loading the search's LP solver (HiGHS) from an explicit URL. Also the one-call `fit({X, y})`
 * (src/lib/fitArrays.ts, the same function src/lib/index.ts exports) and `resultToJson`, so that
 * a page can fit arrays from this entry alone: `fit({X, y, backend, argmin: await
 * browserArgmin(url)})`. tfjs and highs stay bare imports here (the page's bundler resolves them;
 * in the site, scripts/browserVendor.ts provides them).
 *
 * In the Framework site neither needs a URL: scripts/browserVendor.ts pre-bundles
 * `@tensorflow/tfjs-backend-wasm` and `highs` for the browser with their .wasm files beside the
 * bundles, so the library's defaults (`useBackend("wasm")`, `createArgminSolver()`) find them.
 * `browserArgmin` is for pages served some other way.
 */
import { BACKENDS, useBackend, type BackendName } from "./backend.js";
import { createArgminSolver, type ArgminSolver } from "./search/argmin.js";

export * from "./fitArrays.js";
export { calibrate, type Calibration, type CalibrationEntry } from "./calibrate.js";
export { resultToJson, type ResultJson } from "./result.js";

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

const solvers = new Map<string, Promise<ArgminSolver>>();

/**
 * The search's argmin solver with HiGHS loaded from `highsWasmUrl`, one per URL per page. The URL
 * goes in through `locateFile`: highs 1.15's ESM build never reads a `wasmBinary` option (its
 * Emscripten glue declares the variable but does not take it from the module argument), so bytes
 * passed that way are ignored and it falls back to `highs.wasm` beside its own module.
 */
export function browserArgmin(highsWasmUrl: string): Promise<ArgminSolver> {
  let solver = solvers.get(highsWasmUrl);
  if (!solver) {
    solver = createArgminSolver({ locateFile: () => highsWasmUrl });
    solver.catch(() => solvers.delete(highsWasmUrl));
    solvers.set(highsWasmUrl, solver);
  }
  return solver;
}
