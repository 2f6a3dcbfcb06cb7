/**
 * Backward elimination over a whole product-column library (the "wide" proposals): start from
 * every column, and repeatedly drop the one whose removal raises the least-squares residual
 * least, down to one column; every model of at most `maxTerms` columns on that path is a
 * candidate. The forward beam (select.ts) builds sums up to 6 terms and judges them by a
 * residual update that cancels catastrophically when columns are nearly collinear; outputs that
 * are sums of many products of near-constant columns (pow: u ≈ 1 and small v, 7–11 terms) need
 * the opposite direction and stable numerics:
 * - a QR factorisation by modified Gram–Schmidt with re-orthogonalisation (numeric/linalg), columns taken
 *   simplest first (by complexity) and scaled to unit norm; a column whose part outside the
 *   earlier ones is below 1e-10 of its norm is exactly dependent on them and left out (u1² + v1² = 1
 *   at a PV bus makes u1² dependent on 1 and v1²: the simpler writing stays);
 * - the residual of the full model computed explicitly; the RSS increase of dropping column j,
 *   β_j² / ‖row j of R⁻¹‖², exact for the current model; the column removed from R (and Qᵀy) by
 *   Givens rotations, the entry that leaves adding to the RSS (no subtraction, no cancellation).
 * On noiseless data whose truth lies in the library, every column outside the truth costs ~0 and
 * goes first, so the path passes through the truth (measured on pow: all 10 outputs with
 * {x, x²}, 0.05–0.15 s each on 400 rows and 137 columns). Ties at the rounding floor drop the
 * most complex column first. Cost O(K³) for K columns: the caller caps K.
 */
import { dot, givens, gramSchmidt, rotate } from "../../numeric/index.js";

export interface BackwardModel {
  /** Column indices (into the caller's list), ascending. */
  members: number[];
  /** Residual sum of squares of the least-squares fit on the given rows. */
  rss: number;
}

/** Part of a column outside the earlier ones below which it counts as dependent on them. */
const DEPENDENT = 1e-10;

/**
 * The backward-elimination path: the least-squares model of every size from min(K, maxTerms)
 * down to 1 columns (largest first), with its RSS; `dependent` counts the columns left out as
 * exact linear combinations of simpler ones (or zero).
 */
export function backwardElimination(
  columns: readonly Float64Array[],
  complexity: readonly number[],
  y: Float64Array,
  maxTerms: number,
): { path: BackwardModel[]; dependent: number } {
  const m = y.length;
  const { Q, members, rColumns, dependent } = factorOf(columns, complexity);
  return eliminate(Q, members, rColumns, dependent, complexity, y, m, maxTerms);
}

/** The QR of a library (columns simplest first, dependent ones left out): what the path needs of it. */
interface Factored {
  Q: Float64Array[];
  members: number[];
  rColumns: number[][];
  dependent: number;
}

/** The last few libraries factored, most recent first: the outputs of one data set share one. */
const factored: { columns: readonly Float64Array[]; complexity: readonly number[]; value: Factored }[] = [];
const FACTORED_KEPT = 2;

/** Whether two libraries hold the same columns (values) and complexities. */
function sameLibrary(
  a: readonly Float64Array[],
  ca: readonly number[],
  b: readonly Float64Array[],
  cb: readonly number[],
): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) {
    if (ca[j] !== cb[j] || a[j]!.length !== b[j]!.length) return false;
    const u = a[j]!;
    const v = b[j]!;
    for (let r = 0; r < u.length; r++) if (!Object.is(u[r], v[r])) return false;
  }
  return true;
}

/**
 * The QR of `columns` (see backwardElimination), taken from the last libraries factored where one
 * holds the same values (the ten outputs of a power-flow grid screen one library: one QR, not ten;
 * the same bits either way). Q and R's columns are only read by the elimination.
 */
function factorOf(columns: readonly Float64Array[], complexity: readonly number[]): Factored {
  const hit = factored.find((f) => sameLibrary(f.columns, f.complexity, columns, complexity));
  if (hit) return hit.value;
  const value = factor(columns, complexity);
  factored.unshift({ columns: columns.map((c) => Float64Array.from(c)), complexity: [...complexity], value });
  factored.length = Math.min(factored.length, FACTORED_KEPT);
  return value;
}

function factor(columns: readonly Float64Array[], complexity: readonly number[]): Factored {
  const order = columns.map((_, j) => j).sort((a, b) => complexity[a]! - complexity[b]! || a - b);
  const basis = gramSchmidt(
    order.map((j) => columns[j]!),
    { dependent: DEPENDENT, unit: true },
  );
  const members = basis.kept.map((p) => order[p]!);
  return { Q: basis.q, members, rColumns: basis.r, dependent: columns.length - members.length };
}

/** The elimination path of backwardElimination, from a library's QR. */
function eliminate(
  Q: readonly Float64Array[],
  members: readonly number[],
  rColumns: readonly (readonly number[])[],
  dependent: number,
  complexity: readonly number[],
  y: Float64Array,
  m: number,
  maxTerms: number,
): { path: BackwardModel[]; dependent: number } {
  let k = members.length;
  // R (k×k, upper triangular, rows), z = Qᵀy, and the full model's residual computed explicitly.
  let R: Float64Array[] = Array.from({ length: k }, (_, i) =>
    Float64Array.from({ length: k }, (_, c) => (i < rColumns[c]!.length ? rColumns[c]![i]! : 0)),
  );
  let z: Float64Array = Float64Array.from(Q, (q) => dot(q, y));
  let rss = residualSquares(Q, y, m);
  const floor = 1e-22 * dot(y, y);
  const active = [...members];
  const path: BackwardModel[] = [];
  const S = inverseRows(R, k);
  while (k > 0) {
    if (k <= maxTerms) path.push({ members: [...active].sort((a, b) => a - b), rss });
    if (k === 1) break;
    const drop = cheapestDrop(S, z, k, floor, complexity, active);
    const dropped = dropColumn(R, z, S, k, drop);
    rss += dropped.lost;
    R = dropped.R;
    z = dropped.z;
    active.splice(drop, 1);
    k--;
  }
  return { path, dependent };
}

/** The residual sum of squares of y outside the orthonormal columns Q (projected out twice). */
function residualSquares(Q: readonly Float64Array[], y: Float64Array, m: number): number {
  const residual = Float64Array.from(y);
  for (let pass = 0; pass < 2; pass++) {
    for (const q of Q) {
      const c = dot(q, residual);
      for (let r = 0; r < m; r++) residual[r] = residual[r]! - c * q[r]!;
    }
  }
  return dot(residual, residual);
}

/**
 * S = R⁻¹ by rows (S[i][c], zero below the diagonal), once; each drop then updates it in O(k²)
 * instead of inverting the new R in O(k³): with H = R without column `drop` and G the Givens
 * rotations that make G·H triangular (R'), R'⁻¹ is S·Gᵀ without row `drop` and its last column.
 */
function inverseRows(R: readonly Float64Array[], k: number): Float64Array[] {
  const S = Array.from({ length: k }, () => new Float64Array(k));
  for (let c = 0; c < k; c++) {
    for (let i = c; i >= 0; i--) {
      let s = i === c ? 1 : 0;
      for (let t = i + 1; t <= c; t++) s -= R[i]![t]! * S[t]![c]!;
      S[i]![c] = s / R[i]![i]!;
    }
  }
  return S;
}

/**
 * The column whose removal raises the RSS least: β_j² / ‖row j of R⁻¹‖², not under `floor`; at the
 * floor, the most complex column (then the later one).
 */
function cheapestDrop(
  S: readonly Float64Array[],
  z: Float64Array,
  k: number,
  floor: number,
  complexity: readonly number[],
  active: readonly number[],
): number {
  let drop = 0;
  let dropCost = Number.POSITIVE_INFINITY;
  for (let j = 0; j < k; j++) {
    // β_j = (R⁻¹z)_j and ‖row j of R⁻¹‖².
    const row = S[j]!;
    let beta = 0;
    let norm = 0;
    for (let c = j; c < k; c++) {
      const w = row[c]!;
      beta += w * z[c]!;
      norm += w * w;
    }
    const cost = Math.max(floor, (beta * beta) / norm);
    const better = cost < dropCost || (cost === dropCost && complexity[active[j]!]! >= complexity[active[drop]!]!);
    if (better) {
      drop = j;
      dropCost = cost;
    }
  }
  return drop;
}

/**
 * Column `drop` removed from R and the triangle restored with Givens rotations on rows drop…k−1,
 * applied to z and S too (S loses row `drop`): the new R and z, and the RSS the drop adds (the
 * entry of z that leaves).
 */
function dropColumn(
  R: readonly Float64Array[],
  z: Float64Array,
  S: Float64Array[],
  k: number,
  drop: number,
): { R: Float64Array[]; z: Float64Array; lost: number } {
  const without = R.map((row) => {
    const out = new Float64Array(k - 1);
    out.set(row.subarray(0, drop), 0);
    out.set(row.subarray(drop + 1), drop);
    return out;
  });
  for (let c = drop; c < k - 1; c++) {
    const rotation = givens(without[c]![c]!, without[c + 1]![c]!);
    if (!rotation) continue;
    const { c: cs, s: sn } = rotation;
    for (let t = c; t < k - 1; t++) rotate(without[c]!, without[c + 1]!, t, t, cs, sn);
    rotate(z, z, c, c + 1, cs, sn);
    // S·Gᵀ: the same rotation on columns c, c + 1 of S (rows up to c + 1 hold them).
    for (let i = 0; i <= c + 1; i++) rotate(S[i]!, S[i]!, c, c + 1, cs, sn);
  }
  S.splice(drop, 1);
  return { R: without.slice(0, k - 1), z: z.slice(0, k - 1), lost: z[k - 1]! ** 2 };
}
