/**
 * Multiply moves of the weighted pursuit (grow.ts): a plain term times a weighted neuron (in place
 * of its plain factor on that input, if any), the best few by the residual drop given the other
 * terms, each checked with its weights refined; one that makes the sum exact is taken (the others
 * leave the sum as it was). Reaches q·B·v·sin(θ) from q·B·v, deeper than the dictionary goes.
 */
import type { Steps } from "../../core/index.js";
import { clashes, parametersOf, pruned, settle, type Pursuit } from "./pursuitState.js";
import { basisOf, gainOf } from "./sums.js";

/** Multiply moves refined per term (the best by the residual drop). */
const MULTIPLIED = 3;

/**
 * Each plain term of the held sum multiplied (see the module comment), until the sum is exact.
 * Sets `pursuit.settled` (and the sum) where a move made the sum exact, or under noise let it
 * shed parameters at the noise; records the moves tried under noise in `pursuit.multiplied`.
 */
export function* multiply(pursuit: Pursuit): Steps<void> {
  pursuit.multiplied.length = 0;
  for (let t = 0; t < pursuit.model.length && pursuit.error > pursuit.options.exact; t++) {
    if (pursuit.model[t]!.some((k) => k >= pursuit.firstWeighted)) continue;
    const top = timesWeighted(pursuit, t);
    yield;
    for (const product of top) if (yield* tryMultiplied(pursuit, t, product)) return;
  }
}

/** Term t times each weighted neuron: the best MULTIPLIED products by the residual drop given the other terms. */
function timesWeighted(pursuit: Pursuit, t: number): number[][] {
  const { model, neurons, firstWeighted, weightedEnd, step, yScan } = pursuit;
  const term = model[t]!;
  const others = model.filter((_, u) => u !== t);
  const { q, residual } = basisOf(pursuit.fixedColumns(others, step), yScan);
  const clash = clashes(pursuit, others);
  const top: { product: number[]; gain: number }[] = [];
  for (let k = firstWeighted; k < weightedEnd; k++) {
    if (clash(k)) continue;
    const product = [...term.filter((j) => neurons[j]!.input !== neurons[k]!.input), k];
    const gain = gainOf(pursuit.valuesOf(product, step), q, residual);
    if (gain === undefined) continue;
    top.push({ product, gain });
    top.sort((a, b) => b.gain - a.gain);
    if (top.length > MULTIPLIED) top.pop();
  }
  return top.map(({ product }) => product);
}

/** The held sum with `product` in slot t, refined; whether it settled the sum (and was taken). */
function* tryMultiplied(pursuit: Pursuit, t: number, product: number[]): Steps<boolean> {
  const { options, refine, nrmseOf } = pursuit;
  const trial = pursuit.model.map((p, u) => (u === t ? product : p));
  const refined = nrmseOf(trial) <= options.exact ? trial : refine ? yield* refine(trial) : undefined;
  if (!refined) return false;
  const e = nrmseOf(refined);
  if (options.isNoise) pursuit.multiplied.push({ term: refined[t]!, nrmse: e });
  if (e <= options.exact) {
    pursuit.model = refined;
    pursuit.error = e;
    pursuit.settled = "exact";
    return true;
  }
  // Under noise: a move that fits no worse and lets the sum shed parameters at the noise
  // (a coefficient per term, and the weight: cos(1.46·x) for x⁴ beside x, x², x³ sheds none).
  if (options.isNoise && e <= pursuit.error && settle(pursuit, refined, e) === "noise") {
    const shorter = pruned(pursuit, refined, "noise");
    if (parametersOf(pursuit, shorter.products) < parametersOf(pursuit, pursuit.model)) {
      pursuit.model = shorter.products;
      pursuit.error = shorter.nrmse;
      pursuit.settled = "noise";
      return true;
    }
  }
  return false;
}
