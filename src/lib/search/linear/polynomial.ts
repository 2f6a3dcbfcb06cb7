/**
 * The polynomial question (docs/design.md#polynomial): is y a sparse sum over the low-degree
 * polynomial library of the inputs? Asked before any weighted neuron, since one solve over a few
 * dozen columns answers what episodes of fits would spend seconds on, and on a narrow range
 * (U(1, 2): x and x² correlate at 0.996) greedy selection picks impostors.
 *
 * - The library: every monomial x₁^p₁·…·xₙ^pₙ with non-negative integer powers the pool can write
 *   (`writable`), of total degree 1 … 3 where that is at most CUBIC_COLUMNS columns, else 1 … 2
 *   where that is at most QUADRATIC_COLUMNS, else no question (`polynomialDegree`); the constant
 *   column beside them where the search fits a constant.
 * - The selection, collinearity-safe: the columns factored by modified Gram–Schmidt, simplest
 *   first, an exactly dependent column left out (u² + v² = 1 at a PV bus: u² is 1 − v², and the
 *   simpler writing stays; the relation is returned, `relations`), then backward elimination
 *   (backward.ts: the RSS increase of each drop exact for the current model, by Givens
 *   rotations) down the whole path; then exchanges (one member swapped for one column outside,
 *   while the RSS falls), which repair the path where near-collinear columns misled a greedy
 *   step. Each swap is judged by the exact RSS of the new set (a projection on the set's
 *   orthonormal basis), never by correlation.
 * - The choice: noiseless, the fewest columns whose fit is exact (NRMSE at most POLY_EXACT); under
 *   noise, the lowest score the answer rule uses (hallOfFame.ts frontScoreOf: 2·n·log NRMSE +
 *   parameters·log n) over the sizes on the path, each exchanged.
 *
 * The answer is a proposal: the LoCaL fit confirms it on every row, and the hall of fame judges it
 * beside everything else the search fits.
 */
import { log, type Steps } from "../../core/index.js";
import { dot, gramSchmidt, leastSquares } from "../../numeric/index.js";
import { backwardElimination } from "./backward.js";
import { strided } from "./proposer.js";

/** Most columns of a degree-3 library (six inputs: 83; seven: 119). */
export const CUBIC_COLUMNS = 120;
/** Most columns of a degree-2 library (twenty inputs: 230; thirty: 495). */
export const QUADRATIC_COLUMNS = 500;
/** At or below this NRMSE a subset's least-squares fit is exact (float64 rounding: 1e-15 … 1e-13). */
export const POLY_EXACT = 1e-9;
/** Rows the question reads at most (evenly strided): enough for 320 columns, cheap on a million rows. */
export const POLY_ROWS = 2000;
/** A relation among columns holds exactly when what it leaves is at most this share of the column's norm. */
const EXACT_RELATION = 1e-12;
/** A column whose part outside the simpler ones is below this share of its norm depends on them exactly. */
const DEPENDENT = 1e-9;

/** A monomial: the power of each input (0: absent). */
export type Powers = readonly number[];

/** How many monomials of degree 1 … d over n inputs: C(n + d, d) − 1. */
function monomialCount(inputs: number, degree: number): number {
  let count = 1;
  for (let k = 1; k <= degree; k++) count = (count * (inputs + k)) / k;
  return Math.round(count) - 1;
}

/**
 * The library's degree for n inputs: 3, 2, or 0 (too many columns: no question); with `rows`, also
 * at most half as many columns as rows (a subset's fit must leave the noise room to show).
 */
export function polynomialDegree(inputs: number, rows = Infinity): number {
  const fits = (degree: number, cap: number) => {
    const columns = monomialCount(inputs, degree);
    return columns <= cap && 2 * (columns + 1) <= rows;
  };
  if (fits(3, CUBIC_COLUMNS)) return 3;
  if (fits(2, QUADRATIC_COLUMNS)) return 2;
  return 0;
}

/**
 * The monomials of total degree 1 … `degree` over `inputs` inputs whose every power the pool can
 * write (`writable(input, power)`), in graded order: degree 1 first, then 2, then 3; within a
 * degree, by the inputs' order.
 */
export function monomials(
  inputs: number,
  degree: number,
  writable: (input: number, power: number) => boolean,
): Powers[] {
  const out: Powers[] = [];
  for (let total = 1; total <= degree; total++) {
    const grow = (input: number, left: number, powers: number[]) => {
      if (input === inputs) {
        if (left === 0) out.push([...powers]);
        return;
      }
      for (let p = left; p >= 0; p--) {
        if (p > 0 && !writable(input, p)) continue;
        powers[input] = p;
        grow(input + 1, left - p, powers);
      }
      powers[input] = 0;
    };
    grow(0, total, new Array<number>(inputs).fill(0));
  }
  return out;
}

/** A monomial's values on the rows of x (repeated products: the same bits in every engine). */
export function monomialColumn(x: readonly ArrayLike<number>[], powers: Powers): Float64Array {
  const rows = x[0]?.length ?? 0;
  const out = new Float64Array(rows).fill(1);
  for (const [i, p] of powers.entries())
    for (let k = 0; k < p; k++) {
      const xi = x[i]!;
      for (let r = 0; r < rows; r++) out[r] = out[r]! * xi[r]!;
    }
  return out;
}

/** An exact linear relation among the library's columns on the rows: column = Σ coefficient·term. */
export interface Relation {
  /** The dependent column (an index into the question's columns; −1: the constant). */
  column: number;
  /** The simpler columns it equals a combination of, with their coefficients (−1: the constant). */
  terms: { column: number; coefficient: number }[];
}

export interface PolynomialAnswer {
  /** The chosen columns (indices into the monomials), in library order. */
  members: number[];
  /** Whether the constant column is among them. */
  constant: boolean;
  /** Least-squares coefficients of the members (the constant's last where it is one). */
  coefficients: number[];
  /** NRMSE of the chosen subset's fit on the question's rows. */
  nrmse: number;
  /** Whether the fit is exact (NRMSE at most POLY_EXACT). */
  exact: boolean;
  /** The answer rule's score of the fit (frontScoreOf's form, on the question's rows). */
  score: number;
  /** The library's exact linear relations on the rows (empty: none). */
  relations: Relation[];
  /** Columns the question screened (the monomials, and the constant where asked). */
  columns: number;
}

export interface PolynomialQuestion {
  /** The inputs by column (all rows: the question strides them itself). */
  x: readonly Float64Array[];
  y: Float64Array;
  monomials: readonly Powers[];
  /** The library holds the constant column (the search fits a constant). */
  intercept: boolean;
  /**
   * Noiseless: only an exact subset is an answer (undefined otherwise). Under noise: the best
   * subset by the score, whatever its NRMSE (the caller compares it to the noise floor).
   */
  noisy: boolean;
}

/** A subset of the question's columns and its RSS. */
interface Subset {
  members: number[];
  rss: number;
}

/**
 * The polynomial question's answer (module comment), as steps that let a clock through between
 * solves; undefined: no library (no monomial the pool writes), y not finite, or, noiseless, no
 * exact subset.
 */
export function* polynomialQuestionSteps(question: PolynomialQuestion): Steps<PolynomialAnswer | undefined> {
  const { monomials: library } = question;
  if (library.length === 0 || !question.y.every(Number.isFinite)) return undefined;
  // The same question again (the input screen, then the search, of one output): its answer.
  const answers = answersOf(question);
  const fingerprint = `${question.noisy}:${fingerprintOf(question.y)}`;
  const known = answers.get(question.y)?.get(fingerprint);
  if (known) return known.answer;
  const answer = yield* answerOf(question);
  const byY = answers.get(question.y) ?? new Map<string, { answer: PolynomialAnswer | undefined }>();
  byY.set(fingerprint, { answer });
  answers.set(question.y, byY);
  return answer;
}

/** A question's library as a key: the constant asked, and each monomial's powers. */
const libraryKey = (question: PolynomialQuestion) =>
  `${question.intercept}:${question.monomials.map((p) => p.join(",")).join(";")}`;

type Answers = WeakMap<Float64Array, Map<string, { answer: PolynomialAnswer | undefined }>>;

/** The answers given over a question's inputs and library, by y (and whether noisy). */
const answerCache = new WeakMap<Float64Array, { x: readonly Float64Array[]; library: string; answers: Answers }[]>();

/** The answers given over the question's inputs (the same arrays) and library. */
function answersOf(question: PolynomialQuestion): Answers {
  const first = question.x[0]!;
  const library = libraryKey(question);
  const entries = answerCache.get(first) ?? [];
  answerCache.set(first, entries);
  const same = (x: readonly Float64Array[]) => x.length === question.x.length && x.every((c, i) => c === question.x[i]);
  const hit = entries.find((e) => e.library === library && same(e.x));
  if (hit) return hit.answers;
  const made = { x: [...question.x], library, answers: new WeakMap() };
  entries.unshift(made);
  entries.length = Math.min(entries.length, 4);
  return made.answers;
}

/** y's values in short (its sum, sum of squares and a weighted sum): a y changed in place is a new question. */
function fingerprintOf(y: Float64Array): string {
  let sum = 0;
  let squares = 0;
  let weighted = 0;
  for (let r = 0; r < y.length; r++) {
    sum += y[r]!;
    squares += y[r]! * y[r]!;
    weighted += (r + 1) * y[r]!;
  }
  return `${y.length}:${sum}:${squares}:${weighted}`;
}

/** The question asked (polynomialQuestionSteps, which remembers the answers). */
function* answerOf(question: PolynomialQuestion): Steps<PolynomialAnswer | undefined> {
  const { monomials: library, intercept } = question;
  const x = question.x.map((c) => strided(c, POLY_ROWS));
  const y = strided(question.y, POLY_ROWS);
  // The constant is column `library.length` where it is asked.
  const columns = library.map((powers) => monomialColumn(x, powers));
  if (intercept) columns.push(new Float64Array(y.length).fill(1));
  if (!columns.every((c) => c.every(Number.isFinite))) return undefined;
  const complexity = library.map((powers) => powers.reduce((s, p) => s + p, 0));
  if (intercept) complexity.push(0);
  yield;
  const { path } = backwardElimination(columns, complexity, y, columns.length);
  yield;
  const scale = sumSquares(centred(y));
  if (!(scale > 0)) return undefined;
  const selection = selectionOf(question, x, y, columns, complexity, path, scale);
  const chosen = question.noisy ? yield* bestScored(selection) : yield* fewestExact(selection);
  if (!chosen) return undefined;
  yield;
  const members = [...chosen.members].sort((a, b) => a - b);
  const coefficients = leastSquares(
    members.map((j) => columns[j]!),
    y,
    { dependent: DEPENDENT },
  )!;
  const nrmse = selection.nrmseOf(chosen.rss);
  return {
    members: members.filter((j) => j < library.length),
    constant: intercept && members.includes(library.length),
    coefficients: [
      ...members.flatMap((j, k) => (j < library.length ? [coefficients[k]!] : [])),
      ...members.flatMap((j, k) => (j === library.length ? [coefficients[k]!] : [])),
    ],
    nrmse,
    exact: nrmse <= POLY_EXACT,
    score: selection.scoreOf(chosen),
    relations: relationsFor(selection.facts(), columns, complexity, library.length, intercept),
    columns: columns.length,
  };
}

/** What the two choices (fewestExact, bestScored) share: the library, the backward path, the scores, the exchanges. */
interface Selection {
  columns: readonly Float64Array[];
  complexity: readonly number[];
  rows: number;
  path: readonly Subset[];
  nrmseOf: (rss: number) => number;
  scoreOf: (s: Subset) => number;
  facts: () => LibraryFacts;
  /** Every column and y in an orthonormal basis of their joint span, made on first use (inBasis). */
  inCoordinates: () => { coordinates: Float64Array[]; target: Float64Array };
  /** A subset exchanged (with `pairs`, pairs of members too), up to EXCHANGED_MOST members. */
  swap: (start: Subset, pairs?: boolean) => Steps<Subset>;
}

function selectionOf(
  question: PolynomialQuestion,
  x: readonly Float64Array[],
  y: Float64Array,
  columns: readonly Float64Array[],
  complexity: readonly number[],
  path: readonly Subset[],
  scale: number,
): Selection {
  const n = y.length;
  const nrmseOf = (rss: number) => Math.sqrt(Math.max(0, rss) / scale);
  // The extended BIC: the answer rule's score plus 2·log C(K, k), the price of choosing k of K
  // columns (a sum picked from a library of 83 fits the noise a little, which log n alone pays for
  // one term at a time, not for the choice).
  const choices = logChoose(columns.length);
  const scoreOf = (s: Subset) =>
    2 * n * log(Math.max(nrmseOf(s.rss), 1e-300)) +
    s.members.length * log(Math.max(n, 2)) +
    2 * choices[s.members.length]!;
  // The exchanges read every column and y in an orthonormal basis of their joint span (at most
  // K + 1 coordinates for n rows): the same inner products and RSS, n / (K + 1) times cheaper.
  let basis: { coordinates: Float64Array[]; target: Float64Array } | undefined;
  const facts = () => libraryFacts(question, x);
  const inCoordinates = () => (basis ??= inBasis(columns, y, facts));
  // Exchanges cost the cube of the size: above EXCHANGED_MOST columns the paths stand as they are
  // (long sums are measured exact noiseless, where the backward path needs no repair).
  const swap = function* (start: Subset, pairs = false): Steps<Subset> {
    if (start.members.length > EXCHANGED_MOST) return start;
    const { coordinates, target } = inCoordinates();
    return yield* exchange(coordinates, target, start, pairs);
  };
  return { columns, complexity, rows: n, path, nrmseOf, scoreOf, facts, inCoordinates, swap };
}

/**
 * Noiseless: the fewest columns on the path whose fit is exact; then one size fewer, exchanged, in
 * case near-collinear columns misled the path (an exact subset that is smaller wins).
 */
function* fewestExact(selection: Selection): Steps<Subset | undefined> {
  const { path, nrmseOf, swap } = selection;
  const exactAt = path.filter((m) => nrmseOf(m.rss) <= POLY_EXACT).sort((a, b) => a.members.length - b.members.length);
  let chosen = exactAt[0];
  while (chosen && chosen.members.length > 1) {
    const size = chosen.members.length - 1;
    const smaller = path.find((m) => m.members.length === size);
    if (!smaller) break;
    const repaired = yield* swap(smaller, true);
    if (nrmseOf(repaired.rss) > POLY_EXACT) break;
    chosen = repaired;
  }
  return chosen;
}

/**
 * Under noise: the lowest score among the best subset of each size met (by RSS) on the backward
 * path, the sizes near its best exchanged, and forward paths over the library of degree ≤ 1, ≤ 2, …;
 * the sizes near the best then exchanged with pairs of members, and the answer's shorter subsets.
 */
function* bestScored(selection: Selection): Steps<Subset> {
  const { path, scoreOf, swap, inCoordinates } = selection;
  const bySize = new Map<number, Subset>();
  const meet = (s: Subset) => {
    const known = bySize.get(s.members.length);
    if (!known || s.rss < known.rss) bySize.set(s.members.length, s);
  };
  const bestOf = () => [...bySize.values()].reduce((a, b) => (scoreOf(b) < scoreOf(a) ? b : a));
  path.forEach(meet);
  const best = bestOf();
  const around = path.filter(
    (m) => Math.abs(m.members.length - best.members.length) <= EXCHANGED_SIZES && m.members.length <= EXCHANGED_MOST,
  );
  for (const start of around) meet(yield* swap(start));
  // A law of low degree among collinear inputs (a mass-spring chain's states) is found in its own
  // small library, where the full library's greedy first steps take products that imitate it.
  const degrees = [...new Set(selection.complexity)].filter((d) => d > 0).sort((a, b) => a - b);
  for (const degree of degrees) yield* forwardPath(selection, degree, meet);
  const near = bestOf().members.length;
  for (let size = near - 2; size <= near + 1; size++) {
    const start = bySize.get(size);
    if (start) meet(yield* swap(start, true));
  }
  // Then the answer one member shorter (its cheapest drop, exchanged), while that scores better:
  // a spare term fitted to the noise is the commonest way a selection overshoots.
  let chosen = bestOf();
  const { coordinates, target } = inCoordinates();
  // (Not for an answer of many terms: each drop refits every subset, the cube of its size.)
  const shorten = (s: Subset) => (s.members.length <= FORWARD_MOST ? dropped(coordinates, target, s) : undefined);
  for (let shorter = shorten(chosen); shorter; shorter = shorten(chosen)) {
    meet(yield* swap(shorter, true));
    if (bestOf() === chosen) break;
    chosen = bestOf();
  }
  return chosen;
}

/**
 * A forward path over the columns of degree at most `degree` (the constant among them), each size
 * exchanged and met, until FORWARD_PATIENCE sizes past its best score or FORWARD_MOST members.
 */
function* forwardPath(selection: Selection, degree: number, meet: (s: Subset) => void): Steps<void> {
  const { columns, complexity, scoreOf, swap } = selection;
  // Short: a law the library cannot write exactly (a pool without x², a smooth function) keeps
  // lowering the RSS term after term; the backward path holds the long sums.
  const most = Math.min(columns.length, Math.floor(selection.rows / 4), FORWARD_MOST);
  const outside = complexity.flatMap((d, j) => (d > degree ? [j] : []));
  const { coordinates, target } = selection.inCoordinates();
  let current: Subset = { members: [], rss: sumSquares(target) };
  let bestForward = Infinity;
  let sinceBest = 0;
  while (current.members.length < most && sinceBest < FORWARD_PATIENCE) {
    const grown = added(coordinates, target, current, outside);
    if (!grown) break;
    current = yield* swap(grown);
    meet(current);
    const score = scoreOf(current);
    if (score < bestForward) {
      bestForward = score;
      sinceBest = 0;
    } else sinceBest++;
  }
}

/** Sizes either side of the path's best score that are exchanged under noise. */
const EXCHANGED_SIZES = 2;
/** Largest backward-path model exchanged (an exchange costs the cube of the size). */
const EXCHANGED_MOST = 16;
/** Members a forward path reaches at most. */
const FORWARD_MOST = 32;
/** Sizes past its best score after which the forward path stops. */
const FORWARD_PATIENCE = 3;
/** Exchange passes at most (each makes the best swap of one member). */
const EXCHANGE_PASSES = 24;

/**
 * Every column and y as coordinates in an orthonormal basis of their joint span (Gram–Schmidt,
 * orthogonalised twice): inner products, norms and so every subset's RSS are those of the rows.
 * The columns' basis and coordinates depend on the rows alone (`library`: shared by the outputs of
 * one data set); y adds one coordinate, the norm of its part outside the columns' span.
 */
function inBasis(
  columns: readonly Float64Array[],
  y: Float64Array,
  library: () => LibraryFacts,
): { coordinates: Float64Array[]; target: Float64Array } {
  const facts = library();
  facts.basis ??= (() => {
    const basis = gramSchmidt(columns, { dependent: 1e-14, unit: true });
    const coordinates = columns.map((c) => {
      const out = new Float64Array(basis.q.length + 1);
      basis.q.forEach((q, i) => {
        out[i] = dot(q, c);
      });
      return out;
    });
    return { gs: basis, coordinates };
  })();
  const { gs, coordinates } = facts.basis;
  const target = new Float64Array(gs.q.length + 1);
  gs.q.forEach((q, i) => {
    target[i] = dot(q, y);
  });
  target[gs.q.length] = Math.sqrt(sumSquares(gs.project(Float64Array.from(y))));
  return { coordinates, target };
}

/** log C(K, k) for k = 0 … K. */
function logChoose(K: number): number[] {
  const out = [0];
  for (let k = 1; k <= K; k++) out.push(out[k - 1]! + log((K - k + 1) / k));
  return out;
}

const sumSquares = (v: ArrayLike<number>) => dot(v, v);

function centred(v: Float64Array): Float64Array {
  let mean = 0;
  for (const value of v) mean += value / v.length;
  return v.map((value) => value - mean);
}

/** The subset with the one column added that lowers its RSS most (exactly); undefined: none adds anything. */
function added(
  columns: readonly Float64Array[],
  y: Float64Array,
  current: Subset,
  excluded: readonly number[] = [],
): Subset | undefined {
  const { basis, residual, rss } = fitOn(columns, current.members, y);
  const parts = columns.map((c, j) =>
    current.members.includes(j) || excluded.includes(j) ? undefined : basis.project(Float64Array.from(c)),
  );
  const best = bestAdded(parts, residual, rss, columns.map(sumSquares));
  return best && { members: [...current.members, best.column], rss: best.rss };
}

/**
 * Exchanges from a subset: the best swap of one member for one column outside it, by the exact RSS
 * of the new set, while it lowers the RSS by more than rounding (with `pairs`, where no single swap
 * does, two members for two columns); the subset it ends at.
 */
function* exchange(columns: readonly Float64Array[], y: Float64Array, start: Subset, pairs: boolean): Steps<Subset> {
  let current = { members: [...start.members], rss: start.rss };
  const norms = columns.map(sumSquares);
  for (let pass = 0; pass < EXCHANGE_PASSES; pass++) {
    const scan = swapScan(columns, y, current.members);
    let best: Subset | undefined;
    for (const out of current.members) {
      const rest = current.members.filter((m) => m !== out);
      const { directions, along: yAlong, rss: restRss } = scan.without(rest, [out]);
      for (let j = 0; j < columns.length; j++) {
        const outside = scan.outside[j];
        if (!outside) continue;
        const column = columns[j]!;
        // Outside the rest's span: outside the set's, plus the member's own direction(s).
        let size = scan.size[j]!;
        let along = scan.along[j]!;
        for (const [k, d] of directions.entries()) {
          const c = dot(d, column);
          size += c * c;
          along += c * yAlong[k]!;
        }
        // A column (almost) inside the rest's span adds nothing it does not already hold.
        if (!(size > DEPENDENT * DEPENDENT * norms[j]!)) continue;
        const rss = restRss - (along * along) / size;
        if (!best || rss < best.rss) best = { members: [...rest, j], rss };
      }
      yield;
    }
    // No single swap helps: two members out and the best two in, one at a time (a and a² on a
    // narrow range stand in for b and b² together, which no single swap undoes).
    if (!best || !(best.rss < current.rss * (1 - 1e-9) - 1e-300))
      best = pairs ? yield* pairSwap(columns, current.members, scan, norms) : undefined;
    if (!best || !(best.rss < current.rss * (1 - 1e-9) - 1e-300)) return current;
    // The new set's RSS recomputed from its own basis (the update above subtracts).
    current = { members: best.members, rss: fitOn(columns, best.members, y).rss };
  }
  return current;
}

/**
 * What every swap from a set starts with: y's residual outside its span and each other column's
 * part outside it (its squared norm `size`, its inner product with the residual `along`); and, for
 * the set less some members, the unit directions those members add to the rest's span, y's
 * coordinates along them and the rest's RSS. Outside the rest's span is outside the set's plus
 * those directions, so a swap costs an inner product per column and direction, not a projection on
 * the rest's basis (a pass over m members: K projections, not m·K).
 */
function swapScan(columns: readonly Float64Array[], y: Float64Array, members: readonly number[]) {
  const { basis, residual, rss } = fitOn(columns, members, y);
  const outside = columns.map((c, j) => (members.includes(j) ? undefined : basis.project(Float64Array.from(c))));
  return {
    residual,
    outside,
    size: outside.map((o) => (o ? sumSquares(o) : 0)),
    along: outside.map((o) => (o ? dot(o, residual) : 0)),
    without(rest: readonly number[], removed: readonly number[]) {
      // The rest's basis, then the removed members': the vectors the removed add (none where one is
      // inside the rest's span).
      const gs = gramSchmidt(
        [...rest, ...removed].map((j) => columns[j]!),
        { dependent: DEPENDENT, unit: true },
      );
      const directions = gs.q.filter((_, i) => gs.kept[i]! >= rest.length);
      const along = directions.map((d) => dot(d, y));
      return { directions, along, rss: rss + sumSquares(along) };
    },
  };
}

/** The orthonormal basis of some columns (members), y's residual outside it and its RSS. */
function fitOn(columns: readonly Float64Array[], members: readonly number[], y: Float64Array) {
  const basis = gramSchmidt(
    members.map((j) => columns[j]!),
    { dependent: DEPENDENT, unit: true },
  );
  const residual = basis.project(Float64Array.from(y));
  return { basis, residual, rss: sumSquares(residual) };
}

/** The subset one member shorter with the lowest RSS; undefined: a single member. */
function dropped(columns: readonly Float64Array[], y: Float64Array, current: Subset): Subset | undefined {
  if (current.members.length < 2) return undefined;
  let best: Subset | undefined;
  for (const out of current.members) {
    const rest = current.members.filter((m) => m !== out);
    const { rss } = fitOn(columns, rest, y);
    if (!best || rss < best.rss) best = { members: rest, rss };
  }
  return best;
}

/** Largest subset whose pairs of members are swapped (their number grows as the square of the size). */
const PAIR_MOST = 12;

/**
 * The best subset with two members swapped for two columns added one at a time (each the one that
 * lowers the RSS most, neither a member); undefined: none.
 */
function* pairSwap(
  columns: readonly Float64Array[],
  members: readonly number[],
  scan: ReturnType<typeof swapScan>,
  norms: readonly number[],
): Steps<Subset | undefined> {
  if (members.length < 2 || members.length > PAIR_MOST) return undefined;
  let best: Subset | undefined;
  for (let a = 0; a < members.length; a++)
    for (let b = a + 1; b < members.length; b++) {
      const rest = members.filter((_, k) => k !== a && k !== b);
      const { directions, along: yAlong, rss: restRss } = scan.without(rest, [members[a]!, members[b]!]);
      // Each column's part outside the rest's span, and y's residual there.
      const outsideRest = (j: number) => {
        const v = Float64Array.from(scan.outside[j]!);
        for (const d of directions) {
          const c = dot(d, columns[j]!);
          for (let t = 0; t < v.length; t++) v[t] = v[t]! + c * d[t]!;
        }
        return v;
      };
      const residual = Float64Array.from(scan.residual);
      for (const [k, d] of directions.entries()) for (let t = 0; t < d.length; t++) residual[t]! += yAlong[k]! * d[t]!;
      const first = bestAdded(
        scan.outside.map((o, j) => (o ? outsideRest(j) : undefined)),
        residual,
        restRss,
        norms,
      );
      if (!first) continue;
      // The second: outside the rest and the first (projected, not updated: a column inside that
      // span must read as inside).
      const unit = first.outside.map((v) => v / Math.sqrt(first.size));
      const along = dot(unit, residual);
      for (let t = 0; t < residual.length; t++) residual[t]! -= along * unit[t]!;
      const parts = scan.outside.map((o, j) => {
        if (!o || j === first.column) return undefined;
        const v = outsideRest(j);
        for (let pass = 0; pass < 2; pass++) {
          const c = dot(unit, v);
          for (let t = 0; t < v.length; t++) v[t] = v[t]! - c * unit[t]!;
        }
        return v;
      });
      const second = bestAdded(parts, residual, first.rss, norms);
      if (second && (!best || second.rss < best.rss))
        best = { members: [...rest, first.column, second.column], rss: second.rss };
      yield;
    }
  return best;
}

/** Of columns' parts outside a span (undefined: not a candidate), the one that lowers the RSS most. */
function bestAdded(
  parts: readonly (Float64Array | undefined)[],
  residual: Float64Array,
  rss: number,
  norms: readonly number[],
): { column: number; rss: number; outside: Float64Array; size: number } | undefined {
  let best: { column: number; rss: number; outside: Float64Array; size: number } | undefined;
  for (const [j, outside] of parts.entries()) {
    if (!outside) continue;
    const size = sumSquares(outside);
    if (!(size > DEPENDENT * DEPENDENT * norms[j]!)) continue;
    const along = dot(outside, residual);
    const next = rss - (along * along) / size;
    if (!best || next < best.rss) best = { column: j, rss: next, outside, size };
  }
  return best;
}

/**
 * The library's exact linear relations: each column (simplest first, the constant first of all)
 * whose part outside the simpler ones is below DEPENDENT of its norm and, solved on them, leaves at
 * most EXACT_RELATION of it (coefficients below 1e-8 of the largest dropped). They depend on the
 * rows alone: the outputs of one data set share them (`libraryFacts`).
 */
function relationsOf(
  columns: readonly Float64Array[],
  complexity: readonly number[],
  monomialCount: number,
  intercept: boolean,
): Relation[] {
  const order = columns.map((_, j) => j).sort((a, b) => complexity[a]! - complexity[b]! || a - b);
  // Not scaled to unit norm: the basis solves in the columns' own units.
  const basis = gramSchmidt(
    order.map((j) => columns[j]!),
    { dependent: DEPENDENT },
  );
  const kept = basis.kept.map((p) => order[p]!);
  const name = (j: number) => (intercept && j === monomialCount ? -1 : j);
  const norms = columns.map((c) => Math.sqrt(sumSquares(c)));
  const relations: Relation[] = [];
  for (const j of order) {
    if (kept.includes(j)) continue;
    const column = columns[j]!;
    // Exact: what the simpler columns leave of it is rounding (a column nearly dependent on them,
    // u² beside u on a range of 0.1 %, is collinear, not a relation).
    if (!(sumSquares(basis.project(Float64Array.from(column))) <= EXACT_RELATION ** 2 * sumSquares(column))) continue;
    const solved = basis.solve(column);
    relations.push({
      column: name(j),
      terms: kept
        .map((k) => ({ column: name(k), coefficient: solved[order.indexOf(k)]! }))
        // A term under 1e-6 of the column (rounding, or the trace of a near-collinearity) is left out.
        .filter((t) => Math.abs(t.coefficient) * norms[t.column < 0 ? monomialCount : t.column]! > 1e-6 * norms[j]!)
        .sort(
          (a, b) =>
            order.indexOf(a.column < 0 ? monomialCount : a.column) -
            order.indexOf(b.column < 0 ? monomialCount : b.column),
        ),
    });
  }
  return relations;
}

/** A library's relations, made on first use. */
function relationsFor(
  facts: LibraryFacts,
  columns: readonly Float64Array[],
  complexity: readonly number[],
  monomialCount: number,
  intercept: boolean,
): Relation[] {
  if (!facts.relations) facts.relations = relationsOf(columns, complexity, monomialCount, intercept);
  return facts.relations;
}

/** What a library's columns on the rows give whatever y is: its relations and its orthonormal basis. */
interface LibraryFacts {
  x: Float64Array;
  library: string;
  relations?: Relation[];
  basis?: { gs: ReturnType<typeof gramSchmidt>; coordinates: Float64Array[] };
}

/** The facts of the library asked (by its rows' first input column and monomials), made where new. */
function libraryFacts(question: PolynomialQuestion, x: readonly Float64Array[]): LibraryFacts {
  const first = question.x[0]!;
  const library = `${libraryKey(question)}:${x[0]?.length}`;
  const hit = libraryCache.find((c) => c.x === first && c.library === library);
  if (hit) return hit;
  const made: LibraryFacts = { x: first, library };
  libraryCache.unshift(made);
  libraryCache.length = Math.min(libraryCache.length, 2);
  return made;
}

/** The facts of the last two libraries asked: the outputs of one data set share them. */
const libraryCache: LibraryFacts[] = [];
