/**
 * The monomial screen (docs/design.md#monomial): is y a function of a product of powers of inputs,
 * u = Π x_i^p_i over 2 or 3 inputs (exponents ±1, ±2 for two inputs, ±1 for three), and of the
 * other inputs, rather than of every input apart? Such a y (exp(−a·b/c), c·cos(2·a/b),
 * sin(a·b·c) + d) is no short sum of products of the inputs, but is one of u and the rest, which
 * the search then fits with u as an input.
 *
 * The test is nonparametric and cheap: the nearest-neighbour delta of y over a set of features F,
 * δ(F) = Σ_i (y_i − y_nn(i))² / (2·n·var y), is small where y is a smooth function of F alone
 * (neighbours in F have close y) and near 1 where F misses what y depends on. Replacing the inputs
 * of a monomial by u lowers the dimension, so a true u scores far below the inputs themselves;
 * a wrong one leaves y unexplained. A candidate is chosen when its δ is below MONOMIAL_RATIO of the
 * inputs' own δ, and confirmed by the Gamma test (MONOMIAL_NOISE). Noise adds the same 2σ² share to
 * both δ, so noise alone does not make the screen fire.
 * Float64 throughout, on at most SCREEN_ROWS strided rows; the same answer in every engine.
 */
import { runSteps, type Steps } from "../core/index.js";
import { factorColumn, monomialText, powerValue, type MonomialPart } from "../equation/index.js";
import { estimateNoise } from "./noise.js";
import { strided } from "./linear/proposer.js";

export interface MonomialChoice {
  /**
   * The monomial u, and at most one other of the same dimension that scores as well (u = b·c beside
   * a, or u = a/(b·c) beside a: which one the law uses, the search decides).
   */
  monomials: MonomialPart[][];
  /** The inputs kept beside them (those outside the first, and at most one of its own; their union). */
  keep: string[];
  /** δ of the first and its kept inputs, and of all inputs. */
  delta: number;
  baseline: number;
}

interface Scored {
  parts: MonomialPart[];
  keep: string[];
  delta: number;
  cost: number;
}

const SCREEN_ROWS = 400;
/**
 * A candidate's δ must be below this share of the inputs' own δ. Measured on noiseless laws of
 * three inputs: a true monomial that leaves one dimension of three scores 0.003–0.07 of the
 * inputs' δ, one that leaves two 0.15–0.25; a wrong one 1 and more (it loses what y depends on).
 */
export const MONOMIAL_RATIO = 0.4;
/** Candidates at most (inputs beyond this many pairs and triples are not screened). */
const MAX_CANDIDATES = 1500;

function standardised(v: Float64Array): Float64Array | null {
  let mean = 0;
  for (const x of v) mean += x / v.length;
  let variance = 0;
  for (const x of v) variance += (x - mean) ** 2 / v.length;
  const sd = Math.sqrt(variance);
  if (!(sd > 0) || !Number.isFinite(sd)) return null;
  return Float64Array.from(v, (x) => (x - mean) / sd);
}

/** The nearest-neighbour delta of y over the features (each standardised). */
export function neighbourDelta(features: readonly Float64Array[], y: Float64Array): number {
  const n = y.length;
  let mean = 0;
  for (const v of y) mean += v / n;
  let variance = 0;
  for (const v of y) variance += (v - mean) ** 2 / n;
  if (!(variance > 0)) return 0;
  let sum = 0;
  const d = features.length;
  for (let i = 0; i < n; i++) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let dist = 0;
      for (let k = 0; k < d && dist < best; k++) {
        const diff = features[k]![i]! - features[k]![j]!;
        dist += diff * diff;
      }
      if (dist < best) {
        best = dist;
        at = j;
      }
    }
    if (at >= 0) sum += (y[i]! - y[at]!) ** 2;
  }
  return sum / (2 * n * variance);
}

function* subsets(n: number, size: number, start = 0, picked: number[] = []): Generator<number[]> {
  if (picked.length === size) {
    yield [...picked];
    return;
  }
  for (let i = start; i < n; i++) yield* subsets(n, size, i + 1, [...picked, i]);
}

function* powerSets(size: number): Generator<number[]> {
  const choices = size === 2 ? [1, -1, 2, -2] : [1, -1];
  const grow = function* (picked: number[]): Generator<number[]> {
    if (picked.length === size) {
      yield [...picked];
      return;
    }
    for (const p of choices) yield* grow([...picked, p]);
  };
  yield* grow([]);
}

/**
 * The monomial argument y is a function of, with the inputs kept beside it, or undefined.
 * `inputs` names the columns of `x`.
 */
export function screenMonomial(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
): MonomialChoice | undefined {
  return runSteps(screenMonomialSteps(inputs, x, y));
}

/**
 * A monomial's inputs must leave at most this many times the noise estimate (noise.ts, the Gamma
 * test) the data's inputs leave. Measured on noiseless data: 1e-16 against 1e-5 for a true
 * reduction; 1.6 times where two monomials stand for three inputs (exp(−a/(b·c)) + 0.5·a); 0.09
 * against 8e-5 for I1 + I2 + 2·√(I1·I2)·cos δ over I1·I2 and δ, whose δ ratio (0.399) passed.
 */
export const MONOMIAL_NOISE = 3;

/** screenMonomial as interruptible steps (clock.ts): one step per candidate. */
export function* screenMonomialSteps(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  /** The noise estimate of y over the inputs, where the caller has it (estimateNoise's NRMSE). */
  noise?: number,
): Steps<MonomialChoice | undefined> {
  const n = inputs.length;
  if (n < 2) return undefined;
  const xs = x.map((c) => strided(c, SCREEN_ROWS));
  const ys = strided(y, SCREEN_ROWS);
  const own = xs.map(standardised);
  if (own.some((c) => c === null)) return undefined;
  const baseline = neighbourDelta(own as Float64Array[], ys);
  if (!(baseline > 0)) return undefined;
  const nonzero = xs.map((c) => c.every((v) => v !== 0));
  const scored: Scored[] = [];
  let best: Scored | undefined;
  let screened = 0;
  for (const size of [2, 3]) {
    for (const members of subsets(n, size)) {
      for (const powers of powerSets(size)) {
        if (members.some((m, k) => powers[k]! < 0 && !nonzero[m])) continue;
        if (++screened > MAX_CANDIDATES) break;
        yield;
        const u = new Float64Array(ys.length).fill(1);
        members.forEach((m, k) => {
          const p = powers[k]!;
          const c = xs[m]!;
          for (let r = 0; r < u.length; r++) u[r] = u[r]! * powerValue(c[r]!, p);
        });
        const uz = standardised(u);
        if (!uz || !uz.every(Number.isFinite)) continue;
        const rest = [...Array(n).keys()].filter((i) => !members.includes(i));
        // Beside u: the inputs outside it, and (three inputs) at most one of its own.
        const extras = [[], ...(size === 3 ? members.map((m) => [m]) : [])];
        for (const extra of extras) {
          const keep = [...rest, ...extra].sort((a, b) => a - b);
          const delta = neighbourDelta([uz, ...keep.map((i) => own[i]!)], ys);
          const candidate: Scored = {
            parts: members.map((m, k) => ({ input: inputs[m]!, power: powers[k]! })),
            keep: keep.map((i) => inputs[i]!),
            delta,
            cost: keep.length * 10 + powers.reduce((sum, p) => sum + Math.abs(p), 0),
          };
          scored.push(candidate);
          // Equivalent arguments (u and 1/u, u²) score alike: the cheaper one, else the first
          // enumerated (a positive first exponent: a/b before b/a), unless one is far better.
          if (!best || delta < best.delta / 2 || (delta <= 2 * best.delta && candidate.cost < best.cost))
            best = candidate;
        }
      }
    }
  }
  if (!best || !(best.delta < MONOMIAL_RATIO * baseline)) return undefined;
  const chosen = best;
  // A second argument of the same dimension, as good, and not the first in another guise.
  const second = scored
    .filter(
      (c) => c.keep.length === chosen.keep.length && c.delta <= 2 * chosen.delta && !equivalent(c.parts, chosen.parts),
    )
    .sort((p, q) => p.cost - q.cost || p.delta - q.delta)[0];
  const monomials = second ? [chosen.parts, second.parts] : [chosen.parts];
  const keep = inputs.filter((i) => chosen.keep.includes(i) || (second?.keep.includes(i) ?? false));
  // The Gamma test confirms it on every row: y over the monomials and the kept inputs leaves no
  // more noise than over the inputs.
  yield;
  const derived = monomialColumns(inputs, x, { monomials, keep }).x;
  const before = noise ?? estimateNoise(x, y).nrmse;
  yield;
  if (!(estimateNoise(derived, y).nrmse <= MONOMIAL_NOISE * before + 1e-12)) return undefined;
  return { monomials, keep, delta: chosen.delta, baseline };
}

/**
 * The inputs of a search with monomial arguments: each monomial's column (named by its text), then
 * the kept inputs' in the data's order.
 */
export function monomialColumns(
  inputs: readonly string[],
  x: readonly Float64Array[],
  choice: Pick<MonomialChoice, "monomials" | "keep">,
): { inputs: string[]; x: Float64Array[] } {
  const column = (name: string) => x[inputs.indexOf(name)]!;
  const rows = x[0]?.length ?? 0;
  const derived = choice.monomials.map((parts) =>
    Float64Array.from(factorColumn({ symbol: "x", input: monomialText(parts), monomial: parts }, column, rows)),
  );
  const keep = inputs.filter((i) => choice.keep.includes(i));
  return { inputs: [...choice.monomials.map(monomialText), ...keep], x: [...derived, ...keep.map(column)] };
}

/** Two monomials of the same inputs whose powers are proportional (u, 1/u, u²): one argument. */
function equivalent(p: readonly MonomialPart[], q: readonly MonomialPart[]): boolean {
  if (p.length !== q.length) return false;
  const ratio = q.find((x) => x.input === p[0]!.input);
  if (!ratio) return false;
  const r = ratio.power / p[0]!.power;
  return p.every((x) => q.some((y) => y.input === x.input && y.power === r * x.power));
}
