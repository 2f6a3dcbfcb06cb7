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
import { log, runSteps, type Steps } from "../core/index.js";
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

/** A column at mean 0 and standard deviation 1; null where it does not vary (or is not finite). */
export function standardised(v: Float64Array): Float64Array | null {
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
/**
 * Under noise (the caller's estimate above its stop rule), the bound is this: a true reduction leaves
 * the noise it found over the inputs, a wrong merge adds what the merged inputs told apart. Measured
 * (estimate over the choice / estimate over the inputs, 800 rows, seeds 0–4, 1 % of y's RMS and 20 dB):
 * the forms family's true monomial choices 0.77–1.02; a·b·c·d beside e for 4·sin(0.5·a·b·c)·d + e
 * 1.29–1.50 at 20 dB (3.2–3.9 at 1 %), a·b·c alone for 2·sin(a·b)·c 3.4–13. At 20 dB the bound of 3
 * took a·b·c·d, whose sums missed y, and the search ran to the clock on a Taylor sum.
 */
export const NOISY_MONOMIAL_NOISE = 1.15;

/** screenMonomial as interruptible steps (clock.ts): one step per candidate. */
export function* screenMonomialSteps(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  /** The noise estimate of y over the inputs, where the caller has it (estimateNoise's NRMSE). */
  noise?: number,
  /** Whether that estimate is noise the search stops at (the confirmation's NOISY_MONOMIAL_NOISE). */
  noisy = false,
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
  const before = noise ?? estimateNoise(x, y).nrmse;
  yield;
  if (!gammaConfirms(inputs, x, y, { monomials, keep }, before, noisy)) return undefined;
  return { monomials, keep, delta: chosen.delta, baseline };
}

/**
 * Inputs at most for the reduction screen (its merges grow as the square of the features, each
 * scored over them all: a nine-input law, about 1 s).
 */
export const REDUCTION_INPUTS = 9;
/** A merge must take δ below this share of the features' δ before it (docs/design.md#monomial). */
export const MERGE_RATIO = 0.8;
/** The exponents two features are merged with: u·v, u/v, u·v², u/v², u²·v, u²/v. */
const MERGES: readonly (readonly [number, number])[] = [
  [1, 1],
  [1, -1],
  [1, 2],
  [1, -2],
  [2, 1],
  [2, -1],
];
/** Feature sets kept at each number of merges. */
const BEAM = 5;
/** Feature sets the Gamma test is asked about at most. */
const CONFIRMED = 8;
/** The largest |power| of one input in a merged monomial. */
const MAX_POWER = 2;

function merge(p: readonly MonomialPart[], q: readonly MonomialPart[], a: number, b: number): MonomialPart[] | null {
  const powers = new Map<string, number>();
  for (const x of p) powers.set(x.input, a * x.power);
  for (const x of q) powers.set(x.input, (powers.get(x.input) ?? 0) + b * x.power);
  const parts = [...powers].map(([input, power]) => ({ input, power }));
  return parts.every((x) => x.power !== 0 && Math.abs(x.power) <= MAX_POWER) ? parts : null;
}

/**
 * The reduction screen, for data wider than the exhaustive screen's (screenMonomialSteps): features
 * start as the inputs, and the merge of two features into their monomial (u·v^±1, u·v^±2, u²·v^±1)
 * that lowers δ the most is taken while it takes δ below MERGE_RATIO of the δ before it, so
 * exp(−a·b/(c·d))·e becomes a function of a·b/(c·d) and e in three merges, and
 * a·b·f·exp(−c/(d·e)) one of a·b·f and c/(d·e). The monomials of two inputs and more are the
 * choice, the other inputs kept beside them; as the exhaustive screen, it must end below
 * MONOMIAL_RATIO of the inputs' δ and pass the Gamma test. One step per feature set scored.
 */
export function* reduceMonomialSteps(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  /** The noise estimate of y over the inputs, where the caller has it (estimateNoise's NRMSE). */
  noise?: number,
  /** Whether that estimate is noise the search stops at (the confirmation's NOISY_MONOMIAL_NOISE). */
  noisy = false,
): Steps<MonomialChoice | undefined> {
  const n = inputs.length;
  if (n < 2 || n > REDUCTION_INPUTS) return undefined;
  const xs = x.map((c) => strided(c, SCREEN_ROWS));
  const ys = strided(y, SCREEN_ROWS);
  const nonzero = new Map(inputs.map((name, i) => [name, xs[i]!.every((v) => v !== 0)]));
  const columnOf = (parts: readonly MonomialPart[]) => {
    const u = new Float64Array(ys.length).fill(1);
    for (const q of parts) {
      const c = xs[inputs.indexOf(q.input)]!;
      for (let r = 0; r < u.length; r++) u[r] = u[r]! * powerValue(c[r]!, q.power);
    }
    return u.every(Number.isFinite) ? standardised(u) : null;
  };
  const singles = inputs.map((input) => {
    const parts: MonomialPart[] = [{ input, power: 1 }];
    return { parts, column: columnOf(parts) };
  });
  if (singles.some((f) => f.column === null)) return undefined;
  type Feature = { parts: MonomialPart[]; column: Float64Array };
  const before = noise ?? estimateNoise(x, y).nrmse;
  // Noise adds about its own share, σ²/var y, to every δ: reductions are compared above it.
  const floor = Number.isFinite(before) ? before * before : 0;
  const above = (delta: number) => Math.max(delta - floor, 1e-12);
  const baseline = neighbourDelta(
    singles.map((f) => f.column!),
    ys,
  );
  if (!(above(baseline) > 1e-12)) return undefined;
  type State = { features: Feature[]; delta: number };
  const keyOf = (features: readonly Feature[]) =>
    features
      .map((f) => monomialText(ordered(f.parts, inputs)))
      .sort()
      .join(";");
  // A beam of the best feature sets at each number of merges, the deepest last.
  const levels: State[][] = [[{ features: singles as Feature[], delta: baseline }]];
  for (;;) {
    const next = new Map<string, State>();
    for (const { features, delta } of levels.at(-1)!) {
      for (let i = 0; i < features.length; i++)
        for (let j = i + 1; j < features.length; j++)
          for (const [a, b] of MERGES) {
            const parts = merge(features[i]!.parts, features[j]!.parts, a, b);
            if (!parts || parts.some((q) => q.power < 0 && !nonzero.get(q.input))) continue;
            yield;
            const column = columnOf(parts);
            if (!column) continue;
            const rest = features.filter((_, k) => k !== i && k !== j);
            const d = neighbourDelta([column, ...rest.map((f) => f.column)], ys);
            if (!(above(d) < MERGE_RATIO * above(delta))) continue;
            const merged = [...rest, { parts, column }];
            const key = keyOf(merged);
            if (!next.has(key) || next.get(key)!.delta > d) next.set(key, { features: merged, delta: d });
          }
    }
    if (next.size === 0) break;
    levels.push([...next.values()].sort((p, q) => p.delta - q.delta).slice(0, BEAM));
  }
  // The most reduced set the Gamma test confirms (a merge may join a factor that only looked alike:
  // b²·e for (1 − cos(a·b))·c·d·e), below MONOMIAL_RATIO of the inputs' δ.
  let tested = 0;
  for (const level of levels.slice(1).reverse())
    for (const state of level) {
      if (!(above(state.delta) < MONOMIAL_RATIO * above(baseline)) || tested++ >= CONFIRMED) continue;
      const monomials = state.features.filter((f) => f.parts.length > 1).map((f) => ordered(f.parts, inputs));
      const keep = inputs.filter((name) =>
        state.features.some((f) => f.parts.length === 1 && f.parts[0]!.input === name),
      );
      yield;
      if (gammaConfirms(inputs, x, y, { monomials, keep }, before, noisy))
        return { monomials, keep, delta: state.delta, baseline };
    }
  return undefined;
}

/**
 * The Gamma test's confirmation of a choice, on every row: y over the monomials and the kept inputs
 * leaves at most MONOMIAL_NOISE (noisy: NOISY_MONOMIAL_NOISE) times the noise `before` it leaves
 * over the inputs.
 */
function gammaConfirms(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  choice: Pick<MonomialChoice, "monomials" | "keep">,
  before: number,
  noisy: boolean,
): boolean {
  return leavesNoNoise(monomialColumns(inputs, x, choice).x, y, before, noisy);
}

/**
 * Whether y over derived columns leaves at most MONOMIAL_NOISE (noisy: NOISY_MONOMIAL_NOISE) times
 * the noise `before` it leaves over the inputs: the confirmation of the monomial and derived screens.
 */
export function leavesNoNoise(derived: readonly Float64Array[], y: Float64Array, before: number, noisy: boolean) {
  return estimateNoise(derived, y).nrmse <= (noisy ? NOISY_MONOMIAL_NOISE : MONOMIAL_NOISE) * before + 1e-12;
}

/**
 * A monomial's parts in the data's order of inputs, the first power positive (a·b/c, not c/(a·b):
 * the search writes f(w·u) of the u it is given, and u and 1/u score alike in the screens).
 */
function ordered(parts: readonly MonomialPart[], inputs: readonly string[]): MonomialPart[] {
  const sorted = [...parts].sort((p, q) => inputs.indexOf(p.input) - inputs.indexOf(q.input));
  const sign = sorted[0]!.power < 0 ? -1 : 1;
  return sorted.map((p) => ({ input: p.input, power: sign * p.power }));
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

/**
 * y's range, largest over smallest |y|, from which the monomial screens also ask log|y| where y
 * itself gives no choice (monomialChoiceSteps).
 */
export const LOG_SPAN = 10;

/**
 * A monomial screen (the exhaustive one or the reduction screen) of y, and where it finds nothing
 * and y keeps one sign over a range of LOG_SPAN and more, of log|y|: y is a function of the same
 * features as log|y|, and the nearest-neighbour δ of a y over decades is its largest values' (a
 * diode's a·(e^(b/c) − 1) over a ∈ [0.01, 1], b/c ∈ [0.2, 5]: 0.69 of the inputs' δ on y, 0.25 on
 * log|y|). A choice on log|y| is confirmed on y itself as every choice is (leavesNoNoise, against
 * `noise`, y's estimate over the inputs).
 */
export function* monomialChoiceSteps(
  screen: "exhaustive" | "reduction",
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  noise: number,
  noisy: boolean,
): Steps<MonomialChoice | undefined> {
  const ask = (target: Float64Array, estimate: number) =>
    screen === "exhaustive"
      ? screenMonomialSteps(inputs, x, target, estimate, noisy)
      : reduceMonomialSteps(inputs, x, target, estimate, noisy);
  const choice = yield* ask(y, noise);
  if (choice) return choice;
  const logY = logTarget(y);
  if (!logY) return undefined;
  yield;
  const found = yield* ask(logY, estimateNoise(x, logY).nrmse);
  yield;
  return found && leavesNoNoise(monomialColumns(inputs, x, found).x, y, noise, noisy) ? found : undefined;
}

/** log|y| where y keeps one sign and spans LOG_SPAN or more; else undefined. */
function logTarget(y: Float64Array): Float64Array | undefined {
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  let positive = 0;
  for (const v of y) {
    const a = Math.abs(v);
    if (a < lo) lo = a;
    if (a > hi) hi = a;
    if (v > 0) positive++;
  }
  if (!(lo > 0) || (positive !== 0 && positive !== y.length) || !(hi >= LOG_SPAN * lo)) return undefined;
  return Float64Array.from(y, (v) => log(Math.abs(v)));
}
