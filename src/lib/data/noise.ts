/** Gaussian noise on targets at a signal-to-noise ratio (shared by every experiment's data). */
import { std } from "../numeric/index.js";
import type { Rng } from "../core/index.js";
import { pow } from "../core/index.js";

/** Adds N(0, σ²) in place with σ = fraction·rms(y) (SRBench's protocol: 1 % of the RMS is 0.01). */
export function addNoiseRms(y: Float64Array, fraction: number, rng: Rng): void {
  let sum = 0;
  for (const v of y) sum += v * v;
  const sigma = fraction * Math.sqrt(sum / Math.max(1, y.length));
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + sigma * rng.normal();
}

/** Adds N(0, σ²) in place with σ = std(y)/10^(snr/20): signal power / noise power = 10^(snr/10). */
export function addNoise(y: Float64Array, snrDb: number, rng: Rng): void {
  const sigma = std(y) / pow(10, snrDb / 20);
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + sigma * rng.normal();
}
