/**
 * Ratio proposals: y = P(x)/Q(x) with P and Q short sums of products is the linear relation
 * y·Q(x) − P(x) = 0, which one term of Q fixed at 1 makes a least-squares problem (the
 * rational-fitting and SINDy-PI step): y·q₀(x) = Σ β_j·c_j(x) − Σ γ_k·y·c_k(x). Sparse selection
 * over the library's columns c_j and the columns y·c_k, once per fixed term q₀ (the constant, or
 * one single-factor column), proposes the denominator; the search then fits y·Q(x), a sum of
 * products, and answers P/Q on y's scale (loop.ts ratioSearch; docs/design.md#ratio).
 *
 * Only an exact relation with a short numerator is proposed (y·Q is at most NUMERATOR_TERMS
 * library columns to RATIO_EXACT on the screening rows): the whole library's span, or many terms,
 * would fit noise, or imitate a smooth law of another form, with some ratio.
 */
import type { Steps } from "../../core/index.js";
import { householderQr, std } from "../../numeric/index.js";
import type { ProductColumn } from "./columns.js";
import { Selection } from "./select.js";
import { splitLevel } from "../noise.js";

/** A denominator: products (CMP neurons, with their inner weights) and coefficients; [] is the constant. */
export interface RatioProposal {
  denominator: { neurons: number[]; weights: number[]; coefficient: number }[];
  /** Selected columns in all (numerator and denominator), the fixed one included. */
  size: number;
  nrmse: number;
}

/** A column's values scaled to its first row's, to 9 digits: equal keys, proportional columns. */
function valueKey(values: Float64Array): string {
  const first = values.find((v) => v !== 0) ?? 1;
  return Array.from(values, (v) => (v / first).toPrecision(9)).join(",");
}

/** At or below this NRMSE (of y·q₀ on the screening rows) the relation is exact. */
export const RATIO_EXACT = 1e-10;
/** At or below this share of |y·q₀| the sparse relation holds to rounding: a law, not an approximant. */
const LAW_EXACT = 1e-13;
/** A part outside the library within this share of the others' span marks a possible relation. */
const RELATION = 1e-8;
/** Numerator terms at most (the constant counted). */
const NUMERATOR_TERMS = 4;
/** Denominator terms at most beside the fixed one. */
const RATIO_TERMS = 2;

/**
 * The sparsest exact relation y·Q = P over `library` (screening rows; the constant column is
 * added here), or undefined. The numerator is taken whole: every column y·c_k is replaced by its
 * part outside the span of the library (one QR), so the selection chooses the denominator's few
 * terms among columns that no longer share the smooth part of y (selected directly, the columns
 * y·c_k all correlate with y·q₀ and greedy selection follows them, never reaching the law). The
 * search then finds the sparse numerator in y·Q. Fixed terms are the constant and each
 * single-factor column; the fewest denominator terms win, then the lowest complexity.
 */
export function* ratioProposalSteps(
  library: readonly ProductColumn[],
  y: Float64Array,
  maxTerms = RATIO_TERMS,
): Steps<RatioProposal | undefined> {
  const columns = distinctColumns(library, y.length);
  const qr = householderQr(
    columns.map((c) => c.values),
    { dependent: 1e-10 },
  );
  if (!qr) return undefined;
  yield;
  const relation = relationOf(columns, y, qr);
  if (!relation) return undefined;
  yield;
  let best: Best | undefined;
  for (const f of relation.fixed) {
    yield;
    best = yield* denominatorFor(relation, f, maxTerms, best);
  }
  if (!best) return undefined;
  const { complexity: _, ...proposal } = best;
  return proposal;
}

/** The best denominator so far, with its columns' complexity (the tie-break). */
type Best = RatioProposal & { complexity: number };

/** The denominator c_f + Σ γ_k·c_k as a proposal's terms. */
function denominatorOf(
  columns: readonly ProductColumn[],
  f: number,
  members: readonly number[],
  gamma: ArrayLike<number>,
): RatioProposal["denominator"] {
  return [
    { neurons: columns[f]!.neurons, weights: columns[f]!.weights, coefficient: 1 },
    ...members.map((k, i) => ({ neurons: columns[k]!.neurons, weights: columns[k]!.weights, coefficient: gamma[i]! })),
  ];
}

/** The columns of a relation y·Q = P, and their parts outside the numerator's span. */
interface Relation {
  rows: number;
  /** The constant, then the library's columns, one per function. */
  columns: ProductColumn[];
  /** The denominator's columns y·c_k. */
  scaled: Float64Array[];
  /** Each y·c_k's part outside the library's span (null where y·c_k is not finite). */
  outside: (Float64Array | null)[];
  /** The terms q₀ a denominator may fix at 1: the constant and single-factor columns. */
  fixed: number[];
}

const norm = (v: Float64Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

/** The constant column, then the library's columns, one per function. */
function distinctColumns(library: readonly ProductColumn[], rows: number): ProductColumn[] {
  const ones: ProductColumn = { neurons: [], weights: [], complexity: 0, values: new Float64Array(rows).fill(1) };
  // One column per function: a product that is constant (a·a⁻¹) or repeats another (√a·√a = a)
  // would make y·Q = P hold with Q = 0.
  const seen = new Set<string>([valueKey(ones.values)]);
  const distinct = library.filter((c) => {
    const key = valueKey(c.values);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [ones, ...distinct];
}

/**
 * The relation's columns (Relation), or undefined where no relation y·Q = P exists: only where
 * the parts outside the library are linearly dependent does one, and one QR of them answers that
 * for every fixed term at once (most targets that are no ratio stop here).
 */
function relationOf(
  columns: ProductColumn[],
  y: Float64Array,
  qr: NonNullable<ReturnType<typeof householderQr>>,
): Relation | undefined {
  const scaled = columns.map((c) => Float64Array.from(c.values, (v, r) => v * y[r]!));
  const outside = scaled.map((z) => (z.every(Number.isFinite) ? qr.residual(z) : null));
  const fixed = columns.map((_, k) => k).filter((k) => columns[k]!.neurons.length <= 1 && outside[k]);
  const parts = outside.filter((v, k): v is Float64Array => v !== null && norm(v) > RATIO_EXACT * norm(scaled[k]!));
  const all = householderQr(parts, { dependent: RELATION });
  if (all && all.kept.length === parts.length) return undefined;
  return { rows: y.length, columns, scaled, outside, fixed };
}

/**
 * The best denominator with fixed term f (fewest terms, then lowest complexity), or `best` where
 * none beats it: the denominator's other terms are selected among the parts outside the numerator's
 * span, and each subset is kept only where its relation is exact and sparse (exactRelation).
 */
function* denominatorFor(
  relation: Relation,
  f: number,
  maxTerms: number,
  best: Best | undefined,
): Steps<Best | undefined> {
  const { rows, columns, scaled, outside } = relation;
  const target = outside[f]!;
  const scale = norm(scaled[f]!);
  // y·q₀ inside the numerator's span: y = P/q₀, a sum of products (the plain screen's).
  if (!(norm(target) > RATIO_EXACT * scale)) return best;
  const others = columns
    .map((_, k) => k)
    .filter((k) => k !== f && outside[k] && norm(outside[k]!) > RATIO_EXACT * norm(scaled[k]!));
  const selection = new Selection(
    others.map((k) => outside[k]!),
    target,
    { rows },
  );
  const depth = Math.min(maxTerms, best ? best.size - 1 : maxTerms);
  for (const subset of yield* selection.upTo(depth)) {
    const members = subset.members.map((m) => others[m]!);
    const size = members.length + 1;
    const complexity = [f, ...members].reduce((sum, k) => sum + columns[k]!.complexity, 0);
    if (best && (size > best.size || (size === best.size && complexity >= best.complexity))) continue;
    const refined = yield* exactRelation(relation, f, members, scale);
    if (!refined) continue;
    best = {
      denominator: denominatorOf(columns, f, members, refined),
      size,
      nrmse: subset.nrmse,
      complexity,
    };
  }
  return best;
}

/**
 * The denominator coefficients of the terms `members` beside the fixed term f where the relation
 * is a law: exact, with a numerator of at most NUMERATOR_TERMS library columns, and holding to
 * rounding when solved again; undefined otherwise.
 */
function* exactRelation(
  relation: Relation,
  f: number,
  members: readonly number[],
  scale: number,
): Steps<number[] | undefined> {
  const { rows, columns, scaled, outside } = relation;
  const target = outside[f]!;
  // Exact: what the denominator leaves of y·q₀ outside the numerator's span is rounding.
  const fit = householderQr(
    members.map((k) => outside[k]!),
    { dependent: 1e-9 },
  );
  const gamma = fit?.kept.length === members.length ? fit.solve(target) : null;
  if (!gamma || !(norm(fit!.residual(target)) <= RATIO_EXACT * scale)) return undefined;
  // The numerator must be a short sum too: y·Q exactly some NUMERATOR_TERMS library columns.
  // A dense one is an approximant (a rational function of many terms imitating
  // sin(1.5·x1)·cos(0.5·x2) to 1e-10 on a narrow range), not a law.
  const q = Float64Array.from(scaled[f]!);
  members.forEach((k, i) => {
    const z = scaled[k]!;
    for (let r = 0; r < rows; r++) q[r] = q[r]! - gamma[i]! * z[r]!;
  });
  const numerator = new Selection(
    columns.map((c) => c.values),
    q,
    { rows },
  );
  const sparse = (yield* numerator.upTo(NUMERATOR_TERMS))
    .filter((s) => s.nrmse <= RATIO_EXACT)
    .sort((a, b) => a.members.length - b.members.length || a.nrmse - b.nrmse)[0];
  if (!sparse) return undefined;
  // The sparse relation itself, solved again: y·q₀ = Σ β_j·c_j − Σ γ_k·y·c_k. A law holds it to
  // rounding (1e-15, and its coefficients to as many digits); a short rational approximant of a
  // smooth law on a narrow range (a Padé form of sin(2.2·x1)) only to 1e-10 or so.
  const both = [...sparse.members.map((m) => columns[m]!.values), ...members.map((k) => scaled[k]!)];
  const solved = householderQr(both, { dependent: 1e-12 });
  const coefficients = solved?.kept.length === both.length ? solved.solve(scaled[f]!) : null;
  if (!coefficients || !(norm(solved!.residual(scaled[f]!)) <= LAW_EXACT * scale)) return undefined;
  return members.map((_, i) => -coefficients[sparse.members.length + i]!);
}

/** A ratio the noisy screen found: its denominator, its numerator's columns, and its fit of y. */
export interface NoisyRatio {
  denominator: RatioProposal["denominator"];
  numerator: { neurons: number[]; weights: number[] }[];
  /** Coefficients in all: the numerator's and the denominator's beside its fixed term. */
  parameters: number;
  /** NRMSE on y of P/Q, on the screening rows. */
  nrmse: number;
}

/** Denominators of one partner, and of two, whose sparse numerators the noisy screen fits on y. */
const NOISY_CANDIDATES = 6;
const NOISY_PAIRED = 3;
/** Rows the noisy screen ranks denominators on (strided). */
const RANK_ROWS = 200;
/** Numerators of each size per denominator that are scored. */
const RANKED_NUMERATORS = 2;
/** Sanathanan–Koerner passes: the relation y·Q = P reweighted by 1/|Q| of the pass before. */
const SK_PASSES = 4;

/** A denominator c_f + Σ γ_k·c_k to rank or fit: the fixed column and its partners. */
interface Denominator {
  f: number;
  members: number[];
  score: number;
}

/**
 * Under noise: the ratio y = P/Q of the best score (selectedScore; fewer coefficients than `most`)
 * whose fit on y's own scale reaches `reach` (an NRMSE), or undefined. No relation is exact here, so
 * the exact screen's tests become fits. Denominators are c_f + γ·c_k (c_f the constant or an input
 * itself, `fixed`; c_k an input or a product of two, `partner`), each ranked by its relation
 * y·c_f = P − γ·y·c_k with a sparse numerator P (a selection of up to NUMERATOR_TERMS columns, the
 * partner's column kept in) scored on y's scale: n·ln(RSS of y − P/Q) + ln n per coefficient
 * (y·Q − P over Q is y − P/Q); the best few get a second
 * partner the same way. Each candidate's numerators (a sparse selection of y·Q) are refined by
 * Sanathanan–Koerner passes (weighted by 1/|Q|, which makes the residual y's own). A Q that changes
 * sign on the rows is no law's denominator.
 */
export function* noisyRatioSteps(
  library: readonly ProductColumn[],
  y: Float64Array,
  reach: number,
  most: number,
  fixedColumn: (column: ProductColumn) => boolean,
  ranked: (column: ProductColumn) => boolean,
  partner: (column: ProductColumn) => boolean,
  splitColumns: readonly Float64Array[],
): Steps<NoisyRatio | undefined> {
  if (most <= 2) return undefined;
  const columns = distinctColumns(library, y.length);
  // The ranking's partners and numerators: the constant and the columns `ranked` keeps.
  const short = columns.map((_, k) => k).filter((k) => k === 0 || ranked(columns[k]!));
  // A denominator's other terms: inputs and products of two (c + 2·d + 0.5·e, b·c + d·e + f). A power
  // there (1 + 0.13·b²) is what Padé forms of cos and sin use, which fit such laws to 20 dB noise.
  const partners = short.filter((k) => k !== 0 && partner(columns[k]!));
  const n = y.length;
  const scaled = columns.map((c) => Float64Array.from(c.values, (v, r) => v * y[r]!));
  if (!scaled.every((v) => v.every(Number.isFinite))) return undefined;
  const fixed = columns.map((_, k) => k).filter((k) => k === 0 || fixedColumn(columns[k]!));
  // Ranking on RANK_ROWS strided rows.
  const step = Math.max(1, Math.floor(n / RANK_ROWS));
  const pick = (v: Float64Array) => Float64Array.from({ length: Math.ceil(n / step) }, (_, i) => v[i * step]!);
  const rankY = pick(y);
  const rankColumns = columns.map((c) => pick(c.values));
  const rankScaled = scaled.map(pick);
  const ranker = new SparseRelation(rankColumns, rankScaled, rankY, short);
  const singles: Denominator[] = [];
  for (const f of fixed)
    for (const k of partners) {
      if (k === f || k === 0) continue;
      const { score } = yield* ranker.score(f, [k]);
      if (Number.isFinite(score)) singles.push({ f, members: [k], score });
    }
  singles.sort((a, b) => a.score - b.score);
  const candidates = singles.slice(0, NOISY_CANDIDATES);
  // Paired: the best singles, and each fixed term's best (the constant's singles can crowd out the
  // inputs': 3·a·b/(c + 2·d + 0.5·e) at 1 % ranked c + d seventh, behind 1 + d and its kin).
  const pairedFrom = singles.slice(0, NOISY_PAIRED);
  for (const f of fixed) {
    const own = singles.find((d) => d.f === f);
    if (own && !pairedFrom.includes(own)) pairedFrom.push(own);
  }
  const paired: Denominator[] = [];
  for (const { f, members } of pairedFrom)
    for (const m of partners) {
      if (m === 0 || m === f || members.includes(m)) continue;
      const { score } = yield* ranker.score(f, [...members, m]);
      if (Number.isFinite(score)) paired.push({ f, members: [...members, m].sort((p, q) => p - q), score });
    }
  paired.sort((a, b) => a.score - b.score);
  for (const d of paired) {
    if (candidates.length >= NOISY_CANDIDATES + NOISY_PAIRED) break;
    if (!candidates.some((c) => c.f === d.f && c.members.join() === d.members.join())) candidates.push(d);
  }
  const spread = std(y) || 1;
  const fitter = new SparseRelation(
    columns.map((c) => c.values),
    scaled,
    y,
    columns.map((_, k) => k),
  );
  let best: Chosen | undefined;
  for (const { f, members } of candidates) {
    yield;
    const { gamma } = yield* fitter.score(f, members);
    if (gamma.length !== members.length) continue;
    const yq = Float64Array.from(
      combine(
        columns,
        f,
        members,
        gamma.map((g) => -g),
      ),
      (v, r) => v * y[r]!,
    );
    const numerators = yield* new Selection(
      columns.map((c) => c.values),
      yq,
      { rows: n },
    ).upTo(NUMERATOR_TERMS);
    for (const numerator of numerators) {
      const parameters = numerator.members.length + members.length;
      if (parameters >= most) continue;
      const fitted = skRefined(columns, scaled, f, members, numerator.members, y);
      if (!fitted) continue;
      const nrmse = Math.sqrt(fitted.rss / n) / spread;
      const score = selectedScore(nrmse, parameters, n);
      if (!(nrmse <= reach) || (best && score >= best.score)) continue;
      // Each partner must earn its coefficient: without it (the same numerator) the score is worse.
      const scoreWithout = (k: number) => {
        const fit = skRefined(
          columns,
          scaled,
          f,
          members.filter((m) => m !== k),
          numerator.members,
          y,
        );
        const e = fit ? Math.sqrt(fit.rss / n) / spread : Number.POSITIVE_INFINITY;
        return selectedScore(e, parameters - 1, n);
      };
      if (members.length > 1 && members.some((k) => scoreWithout(k) <= score)) continue;
      // The partners must be needed: where the numerator over c_f alone reaches the floor too, y is
      // that sum of products (h²·d⁻²/E at 20 dB: a partner 0.026·E⁻² fits the noise as well).
      if (Math.sqrt(aloneRss(columns, f, numerator.members, y) / n) / spread <= reach) continue;
      best = {
        denominator: denominatorOf(columns, f, members, fitted.gamma),
        numerator: numerator.members.map((j) => ({ neurons: columns[j]!.neurons, weights: columns[j]!.weights })),
        parameters,
        nrmse,
        score,
        f,
        members,
        numeratorColumns: numerator.members,
      };
    }
  }
  if (!best || !holdsAcross(columns, scaled, best, y, splitColumns)) return undefined;
  const { score: _s, f: _f, members: _m, numeratorColumns: _n, ...ratio } = best;
  return ratio;
}

/**
 * The relation y·c_f = P − Σ γ_k·y·c_k with a sparse numerator P (the selection over the library's
 * columns, the partners' columns y·c_k kept in; its RANKED_NUMERATORS best of each size), scored on
 * y's scale: the least n·ln(RSS/n) + ln n per coefficient over the numerator's sizes 1 …
 * NUMERATOR_TERMS, RSS that of y − P/Q.
 */
class SparseRelation {
  constructor(
    readonly columns: readonly Float64Array[],
    readonly scaled: readonly Float64Array[],
    readonly y: Float64Array,
    /** The numerator's columns (indices). */
    readonly numerators: readonly number[],
  ) {}

  *score(f: number, members: readonly number[]): Steps<{ score: number; gamma: number[] }> {
    const { columns, scaled, y } = this;
    const n = y.length;
    let best = { score: Number.POSITIVE_INFINITY, gamma: [] as number[] };
    // The partners' columns y·c_k projected out of the target and the library: a selection there is
    // one with them kept in.
    const partners = householderQr(
      members.map((k) => scaled[k]!),
      { dependent: 1e-10 },
    );
    if (!partners || partners.kept.length !== members.length) return best;
    const target = partners.residual(scaled[f]!);
    const library = this.numerators.map((j) => partners.residual(columns[j]!));
    const subsets = yield* new Selection(library, target, { rows: n }).upTo(NUMERATOR_TERMS);
    const seen = new Map<number, number>();
    for (const subset of subsets) {
      const size = subset.members.length;
      if ((seen.get(size) ?? 0) >= RANKED_NUMERATORS) continue;
      seen.set(size, (seen.get(size) ?? 0) + 1);
      const chosen = subset.members.map((m) => this.numerators[m]!);
      const design = [...chosen.map((j) => columns[j]!), ...members.map((k) => scaled[k]!.map((v) => -v))];
      const solution = householderQr(design, { dependent: 1e-12 })?.solve(scaled[f]!);
      if (!solution) continue;
      // Q = c_f + Σ γ_k·c_k (the design's last columns are −y·c_k).
      const gamma = members.map((_, i) => solution[chosen.length + i]!);
      const q = Float64Array.from(columns[f]!);
      members.forEach((k, i) => {
        for (let r = 0; r < n; r++) q[r]! += gamma[i]! * columns[k]![r]!;
      });
      if (!oneSign(q)) continue;
      let rss = 0;
      for (let r = 0; r < n; r++) {
        let p = 0;
        chosen.forEach((j, i) => {
          p += solution[i]! * columns[j]![r]!;
        });
        rss += (y[r]! - p / q[r]!) ** 2;
      }
      const score = n * Math.log(Math.max(rss, Number.MIN_VALUE) / n) + (size + members.length) * Math.log(n);
      if (score < best.score) best = { score, gamma };
    }
    return best;
  }
}

/** The noisy screen's choice so far, with its columns. */
type Chosen = NoisyRatio & { score: number; f: number; members: number[]; numeratorColumns: number[] };

/**
 * Whether the ratio holds with one set of coefficients across the range (Chow's test, as the
 * polynomial question's splitStatistic): for each input, the rows below and above its median fitted
 * apart (Sanathanan–Koerner) against all rows together; n·ln(RSS_all / (RSS_low + RSS_high)) above
 * the χ²_k quantile (k the ratio's coefficients) says a rational function imitates y on the range
 * with other coefficients on each half (a Padé form of sin·cos, of a long polynomial), not a law.
 * The level is SPLIT_P shared by the inputs (Bonferroni's: at 1 % each, (0.7·a + b + 0.2·c·d)/(e + f·g)
 * at 1 % noise was refused on one of its seven inputs).
 */
function holdsAcross(
  columns: readonly ProductColumn[],
  scaled: readonly Float64Array[],
  ratio: Chosen,
  y: Float64Array,
  inputs: readonly Float64Array[],
): boolean {
  const n = y.length;
  const k = ratio.parameters;
  const all = skRefined(columns, scaled, ratio.f, ratio.members, ratio.numeratorColumns, y)?.rss;
  if (all === undefined) return false;
  const rows = Array.from({ length: n }, (_, r) => r);
  const level = splitLevel(k, inputs.length);
  for (const x of inputs) {
    const median = Float64Array.from(x).sort()[n >> 1]!;
    const low = rows.filter((r) => x[r]! < median);
    const high = rows.filter((r) => !(x[r]! < median));
    if (low.length <= 2 * k || high.length <= 2 * k) continue;
    const rssOf = (index: readonly number[]) => {
      const pick = (v: Float64Array) => Float64Array.from(index, (r) => v[r]!);
      const part = columns.map((c) => ({ ...c, values: pick(c.values) }));
      return skRefined(part, scaled.map(pick), ratio.f, ratio.members, ratio.numeratorColumns, pick(y))?.rss;
    };
    const [below, above] = [rssOf(low), rssOf(high)];
    if (below === undefined || above === undefined) continue;
    if (n * Math.log(all / Math.max(below + above, Number.MIN_VALUE)) > level) return false;
  }
  return true;
}

/**
 * A screen's score of a fit selected from a library (lower is better): 2n·ln NRMSE, and per
 * coefficient ln n + 2·ln SELECTED_FROM (the extended BIC's price of picking columns among many: with
 * ln n alone, two spare columns chosen among hundreds of subsets beat a law's ratio at 1 % noise).
 */
export const selectedScore = (nrmse: number, parameters: number, rows: number): number =>
  2 * rows * Math.log(Math.max(nrmse, Number.MIN_VALUE)) + parameters * (Math.log(rows) + 2 * Math.log(SELECTED_FROM));

/** The library size the screens' scores are priced for (selectedScore). */
const SELECTED_FROM = 200;

/** The RSS on y of the numerator's columns over c_f alone, y ≈ Σ β_j·c_j / c_f (least squares). */
function aloneRss(columns: readonly ProductColumn[], f: number, numerator: readonly number[], y: Float64Array): number {
  const fixed = columns[f]!.values;
  const fit = householderQr(
    numerator.map((j) => Float64Array.from(columns[j]!.values, (v, r) => v / fixed[r]!)),
    { dependent: 1e-12 },
  );
  const residual = fit?.residual(y);
  return residual?.every(Number.isFinite) ? norm(residual) ** 2 : Number.POSITIVE_INFINITY;
}

/** Q on the rows: c_f − Σ g_k·c_k, for the relation's fit y·c_f ≈ Σ g_k·y·c_k (outside the numerator). */
function combine(columns: readonly ProductColumn[], f: number, members: readonly number[], g: ArrayLike<number>) {
  const q = Float64Array.from(columns[f]!.values);
  members.forEach((k, i) => {
    const values = columns[k]!.values;
    for (let r = 0; r < q.length; r++) q[r] = q[r]! - g[i]! * values[r]!;
  });
  return q;
}

/** Whether every value is finite, nonzero and of one sign. */
function oneSign(q: Float64Array): boolean {
  let positive = 0;
  for (const v of q) {
    if (!Number.isFinite(v) || v === 0) return false;
    if (v > 0) positive++;
  }
  return positive === 0 || positive === q.length;
}

/**
 * The relation y·c_f = Σ β_j·c_j − Σ γ_k·y·c_k refined by Sanathanan–Koerner passes (each row
 * weighted by 1/|Q| of the pass before, Q = c_f + Σ γ_k·c_k), and the RSS of P/Q on y; undefined
 * where a pass is singular or Q changes sign.
 */
function skRefined(
  columns: readonly ProductColumn[],
  scaled: readonly Float64Array[],
  f: number,
  members: readonly number[],
  numerator: readonly number[],
  y: Float64Array,
): { gamma: number[]; rss: number } | undefined {
  const n = y.length;
  const weight = new Float64Array(n).fill(1);
  let gamma: number[] = [];
  let rss = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < SK_PASSES; pass++) {
    const weighted = (v: Float64Array, sign = 1) => Float64Array.from(v, (x, r) => sign * x * weight[r]!);
    const design = [
      ...numerator.map((j) => weighted(columns[j]!.values)),
      ...members.map((k) => weighted(scaled[k]!, -1)),
    ];
    const fit = householderQr(design, { dependent: 1e-12 });
    if (!fit || fit.kept.length !== design.length) return undefined;
    const solution = fit.solve(weighted(scaled[f]!));
    if (!solution) return undefined;
    const beta = Array.from(solution.slice(0, numerator.length));
    gamma = Array.from(solution.slice(numerator.length));
    const q = Float64Array.from(columns[f]!.values);
    members.forEach((k, i) => {
      for (let r = 0; r < n; r++) q[r] = q[r]! + gamma[i]! * columns[k]!.values[r]!;
    });
    if (!oneSign(q)) return undefined;
    rss = 0;
    for (let r = 0; r < n; r++) {
      let p = 0;
      numerator.forEach((j, i) => {
        p += beta[i]! * columns[j]!.values[r]!;
      });
      rss += (y[r]! - p / q[r]!) ** 2;
      weight[r] = 1 / Math.abs(q[r]!);
    }
  }
  return Number.isFinite(rss) ? { gamma, rss } : undefined;
}
