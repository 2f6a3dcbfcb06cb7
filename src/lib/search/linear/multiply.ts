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
  // Under noise, the held sum's own score at its fewest terms (what a move must beat), made once.
  let heldScore: number | undefined;
  const held = () => (heldScore ??= scoreOf(pursuit, pruned(pursuit, pursuit.model, "noise")));
  for (let t = 0; t < pursuit.model.length && pursuit.error > pursuit.options.exact; t++) {
    if (pursuit.model[t]!.some((k) => k >= pursuit.firstWeighted)) continue;
    const top = timesWeighted(pursuit, t);
    yield;
    for (const product of top) if (yield* tryMultiplied(pursuit, t, product, held)) return;
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
function* tryMultiplied(pursuit: Pursuit, t: number, product: number[], held: () => number): Steps<boolean> {
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
  // Under noise: a move that lets the sum shed parameters at the noise (a coefficient per term, and
  // the weight: cos(1.46·x) for x⁴ beside x, x², x³ sheds none), the shorter sum scoring better than
  // the held one at its own fewest terms (Schwarz's criterion). Not "fitting no worse" than the held
  // sum: at 20 dB a Taylor sum of 4·sin(0.5·u)·d + e, u·d + u²·d + u³·d + e, fits 0.1023 of y's RMS
  // and sin(0.53·u)·d in place of u·d beside the others 0.1025, which pruned (and refitted) to
  // sin(0.50·u)·d + e holds 3 parameters, not 4. Not only fewer than the held sum's: x − 2·x³ + x⁵
  // at 20 dB was held with a spare term, which 0.15·x³ + 0.27·sin(3.79·x) imitated in 3.
  if (options.isNoise && settle(pursuit, refined, e) === "noise") {
    const shorter = yield* prunedAndRefit(pursuit, refined);
    if (
      parametersOf(pursuit, shorter.products) < parametersOf(pursuit, pursuit.model) &&
      scoreOf(pursuit, shorter) < held()
    ) {
      pursuit.model = shorter.products;
      pursuit.error = shorter.nrmse;
      pursuit.settled = "noise";
      return true;
    }
  }
  return false;
}

/**
 * A noise sum without the terms its residual stays noise without, its inner weights then fitted
 * again on every row where that helps: they were fitted beside the terms pruned, on the refinement's
 * few rows (sin(0.53·u)·d beside a Taylor sum's u³·d and u²·d: 0.111 of y's RMS alone at 20 dB;
 * refitted on 128 rows 0.103, on all 800 its weight 0.50 and 0.100).
 */
function* prunedAndRefit(pursuit: Pursuit, products: number[][]): Steps<{ products: number[][]; nrmse: number }> {
  const shorter = pruned(pursuit, products, "noise");
  if (!pursuit.refine || !shorter.products.some((p) => p.some((k) => k >= pursuit.firstWeighted))) return shorter;
  const refit = yield* pursuit.refine(shorter.products, pursuit.y.length);
  const e = refit ? pursuit.nrmseOf(refit) : Number.POSITIVE_INFINITY;
  return refit && e < shorter.nrmse ? { products: refit, nrmse: e } : shorter;
}

/** Schwarz's criterion of a sum on the pursuit's rows: 2·n·ln(NRMSE) + parameters·ln(n). */
function scoreOf(pursuit: Pursuit, sum: { products: number[][]; nrmse: number }): number {
  const rows = Math.max(pursuit.y.length, 2);
  return (
    2 * rows * Math.log(Math.max(sum.nrmse, Number.MIN_VALUE)) + parametersOf(pursuit, sum.products) * Math.log(rows)
  );
}
