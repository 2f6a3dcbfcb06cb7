/**
 * Orthogonal matching pursuit with swap sweeps over a dictionary (pursuit.ts's module comment),
 * as a list of named moves over one state (pursuitState.ts): a start's moves, then per length a
 * term added (and, for a second term, the best pair), swap sweeps, multiply moves, and the ends a
 * length may reach (exact, settled, completed, refined, noise).
 */
import type { Steps } from "../../core/index.js";
import type { PursuitOptions, PursuitResult } from "./pursuit.js";
import type { Dictionary } from "./dictionary.js";
import { complete, completeMultiplied } from "./complete.js";
import { multiply } from "./multiply.js";
import { ended, parametersOf, pruned, startPursuit, type Pursuit, type Refine } from "./pursuitState.js";
import { bestFor, scan } from "./scan.js";
import { basisOf, keyOf, type Products } from "./sums.js";

/** Swap sweeps at most after each growth. */
const SWEEPS = 4;
/** Terms the pursuit grows to at most (longer sums are backward elimination's). */
const PURSUIT_TERMS = 6;
/** First terms (distinct skeletons) each paired with its best second term, for a sum grown from nothing. */
const PAIRED = 10;

/** A sum of one length, grown or paired, with its NRMSE on every row. */
type Grown = { products: number[][]; nrmse: number };

/**
 * Orthogonal matching pursuit with swap sweeps over a dictionary (see the module comment), a
 * length's sum handed to `refine` where it is not exact. Returns each length's sum, and the
 * exact one (pruned) where one was found, or the sum whose residual is noise ("noise", pruned)
 * where the pursuit stopped on noise. Given a `start`, its terms are refined and multiplied first.
 */
export function* grow(
  dictionary: Dictionary,
  y: Float64Array,
  options: PursuitOptions,
  refine?: Refine,
  start: Products = [],
  pairAfterStart = false,
): Steps<PursuitResult[]> {
  const pursuit = startPursuit(dictionary, y, options, refine, start, grow);
  if (pursuit.model.length > 0 && pursuit.weighted) {
    const ends = yield* startMoves(pursuit);
    if (ends) return ends;
  }
  const results: PursuitResult[] = [];
  for (let terms = pursuit.model.length + 1; terms <= Math.min(options.maxTerms, PURSUIT_TERMS); terms++) {
    // A term added: the dictionary's best given the sum (a second term from nothing: the best pair).
    let grown = yield* bestFor(pursuit, pursuit.model, pursuit.model.length);
    if (grown && terms === start.length + 2 && (start.length === 0 || pairAfterStart)) {
      const paired = yield* bestPair(pursuit, grown);
      if ("exact" in paired) {
        results.push(paired.exact);
        return results;
      }
      grown = paired.grown;
    }
    if (!grown) break;
    // The sum of this length settled by swaps and multiply moves; it may end the pursuit.
    pursuit.model = grown.products;
    pursuit.error = grown.nrmse;
    yield* swapSweeps(pursuit);
    if (pursuit.weighted) yield* multiply(pursuit);
    const end = settledEnd(pursuit) ?? (yield* completedEnd(pursuit));
    if (end) {
      results.push(end);
      break;
    }
    // Not an end: this length's sum is kept, and refined before a longer one is grown.
    results.push({ products: pursuit.model.map((p) => [...p]), nrmse: pursuit.error, source: "pursuit" });
    const refinedEnd = yield* refinedOrNoiseEnd(pursuit);
    if (refinedEnd) {
      results.push(refinedEnd);
      break;
    }
  }
  return results.sort((p, q) => p.nrmse - q.nrmse);
}

/**
 * A start's moves, before anything is grown: its terms refined, multiplied by weighted neurons,
 * and under noise its multiplied terms completed alone. Returns the end where one settled it.
 */
function* startMoves(pursuit: Pursuit): Steps<PursuitResult[] | undefined> {
  const { options, refine, nrmseOf } = pursuit;
  const refined = refine ? yield* refine(pursuit.model) : undefined;
  if (refined && nrmseOf(refined) <= options.exact) return [ended(pursuit, refined, "exact")];
  yield* multiply(pursuit);
  if (pursuit.settled === "exact") return [ended(pursuit, pursuit.model, pursuit.settled)];
  // Under noise a multiplied term completed alone may need fewer parameters than the start kept
  // beside it (q·B·v·sin θ + q·Ef, where the start's pruned sum kept q·B·v and q·B·v·θ³ too).
  const completed = options.isNoise ? yield* completeMultiplied(pursuit) : undefined;
  if (
    completed &&
    (!pursuit.settled || parametersOf(pursuit, completed.products) < parametersOf(pursuit, pursuit.model))
  )
    return [ended(pursuit, completed.products, completed.nrmse <= options.exact ? "exact" : "noise")];
  if (pursuit.settled) return [ended(pursuit, pursuit.model, pursuit.settled)];
  return undefined;
}

/**
 * The second term of a sum from nothing: the best pair over the first scan's best few terms
 * (a first pick that explains most alone, sin(1.25·x1)·x3, is often in no exact pair); with
 * weighted neurons each pair's weights are refined, and an exact pair ends the pursuit.
 * Returns that end, or the better of `grown` and the best pair.
 */
function* bestPair(pursuit: Pursuit, grown: Grown): Steps<{ exact: PursuitResult } | { grown: Grown }> {
  const { start, weighted, refine, nrmseOf, options } = pursuit;
  let best = grown;
  for (const first of yield* firstTerms(pursuit)) {
    const paired = yield* bestFor(pursuit, [...start.map((p) => [...p]), first], start.length + 1);
    if (!paired) continue;
    const refined = weighted && refine ? yield* refine(paired.products) : undefined;
    if (refined && nrmseOf(refined) <= options.exact)
      return { exact: { ...pruned(pursuit, refined), source: "pursuit" } };
    if (paired.nrmse < best.nrmse) best = paired;
  }
  return { grown: best };
}

/**
 * The first terms a pair starts from: the first scan's best (distinct neurons) and, with weighted
 * neurons, every plain neuron alone (x3 of 0.77·e^(−3.36·x1)·x2 − 0.95·x3 explains little alone).
 */
function* firstTerms(pursuit: Pursuit): Steps<number[][]> {
  const { start, weighted, byInput, firstWeighted } = pursuit;
  const best = yield* scan(pursuit, start, PAIRED);
  if (!weighted && start.length === 0) return best;
  const keys = new Set(best.map(keyOf));
  const singles = byInput.flat().filter((k) => k < firstWeighted && !keys.has(String(k)));
  return [...best, ...singles.map((k) => [k])];
}

/** Swap sweeps: each term in turn replaced by the best column given the others, until none helps. */
function* swapSweeps(pursuit: Pursuit): Steps<void> {
  const { exact } = pursuit.options;
  for (let sweep = 0; sweep < SWEEPS && pursuit.error > exact; sweep++) {
    let changed = false;
    for (let t = 0; t < pursuit.model.length && pursuit.error > exact; t++) {
      const swapped = yield* bestFor(pursuit, pursuit.model, t);
      if (swapped && swapped.nrmse < pursuit.error * (1 - 1e-6)) {
        pursuit.model = swapped.products;
        pursuit.error = swapped.nrmse;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

/** The held sum's end where it is exact, or a multiply move settled it. */
function settledEnd(pursuit: Pursuit): PursuitResult | undefined {
  if (pursuit.error <= pursuit.options.exact) return ended(pursuit, pursuit.model, "exact");
  if (pursuit.settled) return ended(pursuit, pursuit.model, pursuit.settled);
  return undefined;
}

/** With weighted neurons, a weighted term completed over plain products (complete.ts): exact, or a "completion". */
function* completedEnd(pursuit: Pursuit): Steps<PursuitResult | undefined> {
  const completed = pursuit.weighted ? yield* complete(pursuit) : undefined;
  if (!completed) return undefined;
  return completed.nrmse <= pursuit.options.exact
    ? ended(pursuit, completed.products, "exact")
    : { ...ended(pursuit, completed.products, "noise"), source: "completion" };
}

/**
 * Not exact: this length's sum refined (its exponents, its inner weights) before a longer one;
 * an end where the refined sum is exact, or where what is left is noise (no longer sum will be
 * exact; the sum is a noise-level answer).
 */
function* refinedOrNoiseEnd(pursuit: Pursuit): Steps<PursuitResult | undefined> {
  const { refine, nrmseOf, options, model, error } = pursuit;
  const refined = refine ? yield* refine(model) : undefined;
  if (refined && nrmseOf(refined) <= options.exact) return ended(pursuit, refined, "exact");
  const last = refined && nrmseOf(refined) < error ? refined : model;
  if (options.isNoise?.(basisOf(pursuit.fixedColumns(last), pursuit.y).residual)) return ended(pursuit, last, "noise");
  return undefined;
}
