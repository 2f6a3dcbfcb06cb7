/**
 * Completion moves of the weighted pursuit (grow.ts): a term holding a weighted neuron kept alone
 * and the rest of the sum grown over the plain dictionary (a pursuit of its own), to an exact sum
 * or, under noise, to the noise.
 */
import type { Steps } from "../../core/index.js";
import type { PursuitResult } from "./pursuit.js";
import type { Pursuit } from "./pursuitState.js";
import { scan } from "./scan.js";
import { keyOf } from "./sums.js";

/** Terms the weighted pursuit grows to at most. */
export const WEIGHTED_TERMS = 4;
/** Weighted neurons a completed term is also tried with (complete). */
const SWAPPED = 1;
/** Multiplied terms completed to the noise over plain products from a start under noise (completeMultiplied). */
const COMPLETED_UNDER_NOISE = 2;

/**
 * Each term holding a weighted neuron kept alone and the rest grown over the plain dictionary:
 * the plain terms of I1 + I2 + 2·√I1·√I2·cos δ explain less alone than a weighted imitator of
 * their sum (√I1·e^(0.18·I2)), which the weighted pursuit takes first. The term is also tried
 * with its weighted neuron swapped for the best few others of that input, by what each explains
 * of y beyond the plain single neurons (sin(1.48·δ) stood in for cos δ). Returns an exact sum,
 * or under noise (options.isNoise) one whose residual is noise.
 */
export function* complete(pursuit: Pursuit): Steps<PursuitResult | undefined> {
  const { neurons, firstWeighted, weightedEnd, byInput, inputs, options } = pursuit;
  const singles = byInput.flat().flatMap((j) => (j < firstWeighted ? [[j]] : []));
  for (const term of pursuit.model) {
    const k = term.find((j) => j >= firstWeighted);
    if (k === undefined) continue;
    const rest = term.filter((j) => j !== k);
    const same = byInput[inputs.indexOf(neurons[k]!.input)]!;
    const swapped = same.filter((j) => j >= firstWeighted && j < weightedEnd).map((j) => [...rest, j]);
    for (const candidate of [term, ...(yield* scan(pursuit, singles, SWAPPED, swapped, false))]) {
      const ended = yield* completeFrom(pursuit, candidate, options.isNoise !== undefined);
      if (ended) return ended;
    }
  }
  return undefined;
}

/**
 * Under noise, a start's best multiplied terms (by their refined sum's NRMSE) each completed to
 * the noise over plain products: the rest of a start grown on Taylor terms of cos δ keeps
 * imitating I1 + I2 beside √I1·√I2·cos δ (I1²/I2 + I2²/I1), the term alone is completed by them.
 */
export function* completeMultiplied(pursuit: Pursuit): Steps<PursuitResult | undefined> {
  const best = [...pursuit.multiplied].sort((p, q) => p.nrmse - q.nrmse);
  const tried = new Set<string>();
  for (const { term } of best) {
    if (tried.has(keyOf(term)) || tried.size >= COMPLETED_UNDER_NOISE) continue;
    tried.add(keyOf(term));
    const ended = yield* completeFrom(pursuit, term, true);
    if (ended) return ended;
  }
  return undefined;
}

/**
 * One term kept alone and the rest grown over the plain dictionary (once per term and
 * dictionary): an exact end, or with `noise` one whose residual is noise and whose plain terms
 * hold no input of the term's weighted neurons (at the noise, e^(0.09·x) beside x, x², x³
 * imitates x⁴: a weighted neuron and plain powers of its input stand in for each other).
 */
function* completeFrom(pursuit: Pursuit, term: readonly number[], noise: boolean): Steps<PursuitResult | undefined> {
  const { dictionary, neurons, firstWeighted, options } = pursuit;
  const kept = dictionary.completed;
  if (kept.has(keyOf(term))) return undefined;
  kept.add(keyOf(term));
  const plainOnly = { ...dictionary, weightedEnd: firstWeighted, weightedDepth: 0 };
  const isNoise = noise ? options.isNoise : undefined;
  const plainOptions = { ...options, maxTerms: WEIGHTED_TERMS, isNoise };
  const ends = yield* pursuit.grow(plainOnly, pursuit.y, plainOptions, pursuit.refine, [term], true);
  const apart = (end: PursuitResult) => {
    const held = new Set(end.products.flat().flatMap((k) => (k >= firstWeighted ? [neurons[k]!.input] : [])));
    return end.products.every((p) => p.some((k) => k >= firstWeighted) || p.every((k) => !held.has(neurons[k]!.input)));
  };
  return ends.find((end) => end.nrmse <= options.exact || (noise && end.source === "noise" && apart(end)));
}
