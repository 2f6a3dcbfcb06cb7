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
import { householderQr } from "../../numeric/index.js";
import type { ProductColumn } from "./columns.js";
import { Selection } from "./select.js";

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
      denominator: [
        { neurons: columns[f]!.neurons, weights: columns[f]!.weights, coefficient: 1 },
        ...members.map((k, i) => ({
          neurons: columns[k]!.neurons,
          weights: columns[k]!.weights,
          coefficient: refined[i]!,
        })),
      ],
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
