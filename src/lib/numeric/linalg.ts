/**
 * The library's dense linear algebra, each kernel written once: the dot product, two QR
 * factorisations — Householder (the float64 engine's coefficient solves, the log-space screen) and
 * Gram–Schmidt with its explicit basis (the linear proposals' projections, the backward
 * elimination's R, refitting a sum's coefficients) — the Givens rotation, the Cholesky solve
 * and the square solve with partial pivoting. scripts/boundaries.ts fails a private copy elsewhere
 * (a function named dot, leastSquares, cholesky, givens, gramSchmidt or householder…).
 *
 * All of it is float64 and deterministic: sums run in a fixed order, so one input gives one
 * output, bit for bit, in Node and in every browser.
 */
import { hypot } from "../core/index.js";

/**
 * Σ a[i]·b[i] for i in [from, to), one running sum in index order: the order every fit of the
 * library was measured with (four interleaved sums are faster, but move exact fits off their last
 * bit: y = 2·x1 + 5 came back with the constant 4.999999999999999, test/search/constant.test.ts).
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>, from = 0, to = a.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i]! * b[i]!;
  return s;
}

/** The Householder QR of a set of columns, with the operations the library's fits need. */
export interface Qr {
  /** Rows of the columns. */
  readonly rows: number;
  /** The independent columns, by index, in order; the others are dependent on earlier ones. */
  readonly kept: readonly number[];
  /** For each column, how many independent columns are among it and the ones before it. */
  readonly rankAt: Int32Array;
  /** Qᵀ·v, in place (each reflection in order); v has `rows` entries. */
  applyQt(v: Float64Array): Float64Array;
  /**
   * Least-squares coefficients of y on the first `prefix` columns (all by default), in the
   * columns' own units; a dependent column gets 0. Null when y has a value that is not finite.
   */
  solve(y: ArrayLike<number>, prefix?: number): Float64Array | null;
  /** y minus its projection on the span of the first `prefix` columns (all by default). */
  residual(y: ArrayLike<number>, prefix?: number): Float64Array;
  /** ‖P·v‖², the squared norm of v's part inside the columns' span. */
  inside(v: ArrayLike<number>): number;
  /** Entry (i, p) of R: row i, the p-th independent column (columns scaled to unit norm). */
  r(i: number, p: number): number;
  /** The first `kept.length` columns of Q, explicitly: an orthonormal basis of the span. */
  basis(): Float64Array[];
}

export interface QrOptions {
  /**
   * A column whose part outside the earlier ones is at most this share of its own norm is
   * dependent on them: it gets no reflection and a zero coefficient (default 1e-12).
   */
  dependent?: number;
  /** Work in the given arrays (they are overwritten) instead of copies. */
  overwrite?: boolean;
}

/**
 * The Householder QR of A (given by columns; each scaled to unit norm first). Null when a column
 * holds a value that is not finite. Reflection k acts on rows k… only, so the first j entries of
 * Qᵀy serve every prefix of j independent columns: one factorisation solves all nested models.
 */
export function householderQr(columns: readonly Float64Array[], options: QrOptions = {}): Qr | null {
  const dependent = options.dependent ?? 1e-12;
  const n = columns[0]?.length ?? 0;
  if (!columns.every((a) => a.length === n && a.every(Number.isFinite))) return null;
  const a = options.overwrite ? (columns as Float64Array[]) : columns.map((c) => Float64Array.from(c));
  const scale = a.map((c) => {
    const norm = Math.sqrt(dot(c, c));
    if (norm > 0) for (let i = 0; i < n; i++) c[i] = c[i]! / norm;
    return norm;
  });
  const { pivots, rankAt } = householderReflections(a, scale, n, dependent);
  return householderOperations(a, scale, pivots, rankAt, n);
}

/** An independent column's reflection: the row of R its diagonal sits in is its index among the pivots. */
interface Pivot {
  column: number;
  /** R's diagonal entry. */
  diagonal: number;
  /** vᵀv of the reflection's vector. */
  vv: number;
}

/** b ← H·b on rows row…n−1, H = I − 2vvᵀ/vᵀv. */
function reflect(v: Float64Array, row: number, vv: number, b: Float64Array, n: number): void {
  const f = (2 * dot(v, b, row, n)) / vv;
  for (let i = row; i < n; i++) b[i] = b[i]! - f * v[i]!;
}

/**
 * Reduces the unit-norm columns a (n rows) in place: each independent one becomes its reflection's
 * vector below the diagonal (and R's column above it), each reflection applied to the later columns.
 */
function householderReflections(
  a: Float64Array[],
  scale: readonly number[],
  n: number,
  dependent: number,
): { pivots: Pivot[]; rankAt: Int32Array } {
  const m = a.length;
  const pivots: Pivot[] = [];
  const rankAt = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    const r = pivots.length;
    if (scale[k]! > 0 && r < n) {
      const v = a[k]!;
      const s = dot(v, v, r, n);
      const norm = Math.sqrt(s);
      if (norm > dependent) {
        const alpha = v[r]! > 0 ? -norm : norm;
        // v = x − alpha·e1 in v[r…]; H = I − 2vvᵀ/vᵀv, vᵀv = ‖x‖² − 2·alpha·x_r + alpha².
        const xr = v[r]!;
        v[r] = xr - alpha;
        const vv = s - 2 * alpha * xr + alpha * alpha;
        for (let j = k + 1; j < m; j++) reflect(v, r, vv, a[j]!, n);
        pivots.push({ column: k, diagonal: alpha, vv });
      }
    }
    rankAt[k] = pivots.length;
  }
  return { pivots, rankAt };
}

/** The operations of Qr on a factorisation by householderReflections. */
function householderOperations(
  a: readonly Float64Array[],
  scale: readonly number[],
  pivots: readonly Pivot[],
  rankAt: Int32Array,
  n: number,
): Qr {
  const m = a.length;
  const applyQt = (v: Float64Array) => {
    for (const [row, { column, vv }] of pivots.entries()) reflect(a[column]!, row, vv, v, n);
    return v;
  };
  /** Q·v, in place (the reflections in reverse). */
  const applyQ = (v: Float64Array) => {
    for (let row = pivots.length - 1; row >= 0; row--) reflect(a[pivots[row]!.column]!, row, pivots[row]!.vv, v, n);
    return v;
  };
  const rankOf = (prefix: number) => (prefix <= 0 ? 0 : rankAt[Math.min(prefix, m) - 1]!);
  return {
    rows: n,
    kept: pivots.map((p) => p.column),
    rankAt,
    applyQt,
    solve(target, prefix = m) {
      if (target.length !== n) return null;
      const y = Float64Array.from(target);
      if (!y.every(Number.isFinite)) return null;
      applyQt(y);
      const rank = rankOf(prefix);
      const out = new Float64Array(m);
      for (let p = rank - 1; p >= 0; p--) {
        const { column, diagonal } = pivots[p]!;
        let s = y[p]!;
        for (let q = p + 1; q < rank; q++) s -= a[pivots[q]!.column]![p]! * out[pivots[q]!.column]!;
        out[column] = s / diagonal;
      }
      for (let k = 0; k < m; k++) out[k] = scale[k]! > 0 ? out[k]! / scale[k]! : 0;
      return out;
    },
    residual(target, prefix = m) {
      const z = applyQt(Float64Array.from(target));
      z.fill(0, 0, rankOf(prefix));
      return applyQ(z);
    },
    inside(v) {
      const z = applyQt(Float64Array.from(v));
      return dot(z, z, 0, pivots.length);
    },
    basis() {
      return pivots.map((_, p) => {
        const e = new Float64Array(n);
        e[p] = 1;
        return applyQ(e);
      });
    },
    r(i, p) {
      return i < p ? a[pivots[p]!.column]![i]! : i === p ? pivots[p]!.diagonal : 0;
    },
  };
}

/** An orthonormal basis of a set of columns by Gram–Schmidt, with the operations on it. */
export interface GramSchmidt {
  /** The basis, one vector per independent column, in order. */
  q: Float64Array[];
  /** R by columns: r[p][i] is column kept[p]'s component along q[i] (i ≤ p; the diagonal at i = p). */
  r: number[][];
  /** The independent columns, by index. */
  kept: number[];
  /** v minus its projection on the basis, in place (twice over, as the basis was built). */
  project(v: Float64Array): Float64Array;
  /** Least-squares coefficients of y on the columns (a dependent one gets 0), by the basis and R. */
  solve(y: ArrayLike<number>): number[];
}

/**
 * Modified Gram–Schmidt, orthogonalised twice (over the first `rows` entries): the explicit
 * orthonormal basis the linear proposals project many candidate columns on, and the R the
 * backward elimination updates by Givens rotations. A column that is zero or not finite, or whose
 * part outside the earlier ones is at most `dependent` of its norm, is left out. With `unit`, each
 * column is scaled to unit norm first and `dependent` is that part's own norm.
 */
export function gramSchmidt(
  columns: readonly ArrayLike<number>[],
  options: { dependent: number; unit?: boolean; rows?: number },
): GramSchmidt {
  const n = options.rows ?? columns[0]?.length ?? 0;
  const q: Float64Array[] = [];
  const r: number[][] = [];
  const kept: number[] = [];
  for (const [k, column] of columns.entries()) {
    const v = Float64Array.from(column);
    const norm = Math.sqrt(dot(v, v, 0, n));
    if (!(norm > 0) || !Number.isFinite(norm)) continue;
    if (options.unit) for (let i = 0; i < n; i++) v[i] = v[i]! / norm;
    const rc = new Array<number>(q.length).fill(0);
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < q.length; i++) {
        const qi = q[i]!;
        const d = dot(qi, v, 0, n);
        rc[i] = rc[i]! + d;
        for (let t = 0; t < n; t++) v[t] = v[t]! - d * qi[t]!;
      }
    }
    const rest = Math.sqrt(dot(v, v, 0, n));
    if (!(rest > options.dependent * (options.unit ? 1 : norm)) || !Number.isFinite(rest)) continue;
    for (let t = 0; t < n; t++) v[t] = v[t]! / rest;
    rc.push(rest);
    q.push(v);
    r.push(rc);
    kept.push(k);
  }
  return {
    q,
    r,
    kept,
    project(v) {
      for (let pass = 0; pass < 2; pass++)
        for (const u of q) {
          const c = dot(u, v, 0, n);
          for (let t = 0; t < n; t++) v[t] = v[t]! - c * u[t]!;
        }
      return v;
    },
    solve(y) {
      const residual = Float64Array.from(y);
      const z = q.map((qi) => {
        const d = dot(qi, residual, 0, n);
        for (let t = 0; t < n; t++) residual[t] = residual[t]! - d * qi[t]!;
        return d;
      });
      const beta = new Array<number>(q.length).fill(0);
      for (let p = q.length - 1; p >= 0; p--) {
        let s = z[p]!;
        for (let j = p + 1; j < q.length; j++) s -= r[j]![p]! * beta[j]!;
        beta[p] = s / r[p]![p]!;
      }
      const out = new Array<number>(columns.length).fill(0);
      kept.forEach((k, p) => {
        out[k] = beta[p]!;
      });
      return out;
    },
  };
}

/** min ‖A·c − y‖ (A by columns): householderQr(columns, options).solve(y); null when not finite. */
export function leastSquares(
  columns: readonly Float64Array[],
  target: ArrayLike<number>,
  options?: QrOptions,
): Float64Array | null {
  return householderQr(columns, options)?.solve(target) ?? null;
}

/**
 * The rotation [c s; −s c] that zeroes b against a (c·a + s·b = r = hypot(a, b), −s·a + c·b = 0);
 * undefined when a and b are both 0. Applied by `rotate`. hypot is the library's own (core/math.ts),
 * the same bits in every engine.
 */
export function givens(a: number, b: number): { c: number; s: number } | undefined {
  const r = hypot(a, b);
  return r === 0 ? undefined : { c: a / r, s: b / r };
}

/** Rotates the pair (x[i], y[j]) by (c, s) in place: x[i] ← c·x[i] + s·y[j], y[j] ← −s·x[i] + c·y[j]. */
export function rotate(x: Float64Array, y: Float64Array, i: number, j: number, c: number, s: number): void {
  const a = x[i]!;
  const b = y[j]!;
  x[i] = c * a + s * b;
  y[j] = -s * a + c * b;
}

/** Solves the symmetric positive definite system A·x = b by Cholesky; null when A is not positive definite. */
export function solveSpd(A: Float64Array, b: Float64Array): Float64Array | null {
  const n = b.length;
  const L = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * n + j]!;
      for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * n + i] = Math.sqrt(s);
      } else L[i * n + j] = s / L[j * n + j]!;
    }
  }
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * n + k]! * z[k]!;
    z[i] = s / L[i * n + i]!;
  }
  const out = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= L[k * n + i]! * out[k]!;
    out[i] = s / L[i * n + i]!;
  }
  return out;
}

/**
 * Solves the square system A·x = b (A row-major m×m, both overwritten) by Gaussian elimination
 * with partial pivoting; null when a pivot is 0 (A is singular).
 */
export function solveSquare(A: Float64Array, b: Float64Array, m: number): Float64Array | null {
  for (let c = 0; c < m; c++) {
    let pivot = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(A[r * m + c]!) > Math.abs(A[pivot * m + c]!)) pivot = r;
    if (A[pivot * m + c] === 0) return null;
    if (pivot !== c) {
      for (let k = 0; k < m; k++) [A[c * m + k], A[pivot * m + k]] = [A[pivot * m + k]!, A[c * m + k]!];
      [b[c], b[pivot]] = [b[pivot]!, b[c]!];
    }
    for (let r = c + 1; r < m; r++) {
      const f = A[r * m + c]! / A[c * m + c]!;
      if (f === 0) continue;
      for (let k = c; k < m; k++) A[r * m + k] = A[r * m + k]! - f * A[c * m + k]!;
      b[r] = b[r]! - f * b[c]!;
    }
  }
  const x = new Float64Array(m);
  for (let r = m - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < m; k++) s -= A[r * m + k]! * x[k]!;
    x[r] = s / A[r * m + r]!;
  }
  return x;
}
