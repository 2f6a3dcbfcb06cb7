/** Small seeded datasets shared by the test files. */
import type { Dataset } from "../../src/lib/data/dataset.js";
import { createRng } from "../../src/lib/rng.js";

/** y = f(x1, x2) on `rows` rows of x1, x2 ~ U(lo, hi) drawn from createRng(seed) (every x1, then every x2). */
export function twoInputs(
  rows: number,
  seed: number,
  [lo, hi]: [number, number],
  f: (x1: number, x2: number) => number,
): Dataset {
  const rng = createRng(seed);
  const x1 = Float64Array.from({ length: rows }, () => rng.uniform(lo, hi));
  const x2 = Float64Array.from({ length: rows }, () => rng.uniform(lo, hi));
  const y = x1.map((a, i) => f(a, x2[i]!));
  return { inputs: ["x1", "x2"], targets: ["y"], x: [x1, x2], y: [y], rows };
}
