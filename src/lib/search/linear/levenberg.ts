/**
 * The damped step of the pursuit's Levenberg–Marquardt fits (refineWeights.ts, refinePowers.ts).
 */
import { solveSpd } from "../../numeric/index.js";

/**
 * One Levenberg–Marquardt step: up to 8 solves of (JᵀJ + λ·diag(JᵀJ)) δ = rhs (a zero diagonal
 * entry damped as 1), λ × 4 after each solve that fails or does not lower `loss`, λ / 3 (not under
 * `floor`) after the one that does. `tryStep` evaluates a step (undefined where it fails).
 * Returns the damping for the next step, and the step taken (undefined: none lowered the loss).
 */
export function dampedStep<T extends { loss: number }>(
  JJ: Float64Array,
  rhs: Float64Array,
  lambda: number,
  floor: number,
  loss: number,
  tryStep: (delta: Float64Array) => T | undefined,
): { lambda: number; step: T | undefined } {
  const n = rhs.length;
  for (let attempt = 0; attempt < 8; attempt++) {
    const A = Float64Array.from(JJ);
    for (let a = 0; a < n; a++) A[a * n + a]! += lambda * (JJ[a * n + a]! || 1);
    const delta = solveSpd(A, rhs);
    const step = delta ? tryStep(delta) : undefined;
    if (step && step.loss < loss) return { lambda: Math.max(lambda / 3, floor), step };
    lambda *= 4;
  }
  return { lambda, step: undefined };
}
