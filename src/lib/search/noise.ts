/**
 * How much of a target's NRMSE is noise: an estimate of σ/std(y) for y = f(x) + N(0, σ²) with f an
 * unknown smooth law, from the data alone (no model of f is searched). The search can stop once an
 * equation is as good as the noise allows; an estimate below 1e-6 means "noiseless".
 *
 * Method. Several linear least-squares models of f are fitted, each on nested column sets, and each
 * column set gives RSS/(n − p) (p the columns kept), an unbiased estimate of σ² once the model holds
 * f, and one inflated by the model's approximation error otherwise; so the least over models and
 * sets is taken. The models:
 *  - a polynomial of total degree 1, 2, … in the inputs (Legendre polynomials of each input scaled to
 *    [−1, 1], all degrees of one total degree forming one set), up to n/3 and MAX_COLUMNS columns;
 *  - log|y| as a polynomial of total degree ≤ 3 in log x (inputs with a positive range) and x (the
 *    others), where y keeps one sign (power laws such as q·v·B/p are degree 1 there); fitted with
 *    weights y², its residual taken in y; p is still its column count;
 *  - for each input x_j when there are 2 to 5: Legendre degrees 0…A of x_j times every multilinear
 *    monomial of the others (r·F·sin θ, −m·B·cos θ, κ·A·(T2 − T1)/d are of this kind).
 * Then the Gamma test (the regression over k = 1…10 of ½·mean (r_i − r_N(i,k))² on the mean squared
 * distance to the k-th neighbour, inputs scaled to unit range; its intercept estimates σ²) runs on the
 * residual of the best model, and the smaller of the two figures is kept. On the residual, not on y:
 * a residual left by a model that holds f is noise, so the test sees a flat line and its intercept is
 * σ²; one left by approximation error is partly smooth, and extrapolating to distance 0 removes part
 * of it. Rows are strided evenly to MAX_ROWS (fewer for the neighbour search with many inputs).
 *
 * Why, by measurement (500 rows, seeds 1–5, ratio estimate / realised noise NRMSE):
 *  - the polynomial alone: 0.96–1.01 at 20, 30 and 40 dB for 1.5·x1·x2·x3, 2·x1·x2 + x3² and
 *    1.3·a²·b − 0.7·c on U(1, 2), and under 1e-14 on their noiseless data; but on noiseless data of
 *    the benchmark suite it gives < 1e-6 for 43 of 77 entries only (inverse powers on [1, 5] in 4 or
 *    5 inputs leave 1e-3 to 1e-1), up to 0.096;
 *  - the Gamma test and the delta test on y itself (nearest-neighbour differences): useless here.
 *    On noiseless data they give 3e-3 to 0.3 (the law's slope between neighbours, not noise); under
 *    noise the Gamma intercept scatters from 0 to 14× the truth at 40 dB with 3 inputs, the delta
 *    test reads 4 to 30× the truth at 40 dB;
 *  - the Gamma test on the polynomial's residual: 0.96–1.03 under noise, and a third to a half lower
 *    than the polynomial where approximation error dominates (sin(x1) + sin(x2²) on U(0, 4) at 30 dB:
 *    1.43–1.67 instead of 1.80–1.99);
 *  - with the log and the one-input-high-degree models added, noiseless benchmark entries under 1e-6
 *    went from 43 to 71 of 77 (listed in test/noise.test.ts's header), at the same accuracy under
 *    noise (the least of nested, dof-corrected fits of the same noise is biased down by 1–5%).
 * Polynomial fits are solved by normal equations (Cholesky of the Gram matrix of columns scaled to
 * unit norm, a column dropped when its pivot is below 1e-10, then one step of iterative refinement):
 * a quarter of the work of Gram–Schmidt, and noiseless polynomial laws still come out below 1e-13.
 *
 * Unreliable where no model holds f and the noise is below its approximation error: the estimate is
 * then that error (well above the truth on noiseless data of laws such as G·m1·m2·(1/r2 − 1/r1) on
 * [1, 5]^5: 0.037, or sin(x1) + sin(x2²) on U(0, 4): 0.04). With few rows per input the same
 * happens sooner. Everything is float64 arithmetic and math.js's exp and log, so the result has the
 * same bits on every engine.
 */
import { exp, log } from "../math.js";

export interface NoiseEstimate {
  /** Estimated noise σ over the population std of y: the NRMSE an exact law would score. */
  nrmse: number;
  /** Which model gave it, for logs and reports. */
  method: string;
}

/** Rows used at most (evenly strided). */
const MAX_ROWS = 2000;
/** Columns of one model at most (also at most a third of the rows). */
const MAX_COLUMNS = 160;
/** Highest degree of one input in a model. */
const MAX_DEGREE = 60;
/** Total degree of the log model. */
const LOG_DEGREE = 3;
/** Neighbours of the Gamma test. */
const NEIGHBOURS = 10;
/** Rows² × inputs of the neighbour search at most. */
const NEIGHBOUR_WORK = 2e7;
/** A column whose part outside the previous ones has a squared norm below this fraction of its own is dropped. */
const PIVOT = 1e-10;

/** Estimates σ/std(y) for y = f(x) + noise. x: input columns (each of n rows), y: target (n rows). */
export function estimateNoise(x: readonly Float64Array[], y: Float64Array): NoiseEstimate {
  const n = y.length;
  for (const column of x) {
    if (column.length !== n) throw new RangeError(`estimateNoise: ${n} targets but an input of ${column.length} rows`);
  }
  const scale = populationStd(y, allRows(n));
  if (!Number.isFinite(scale)) return { nrmse: Number.NaN, method: "non-finite target" };
  if (scale === 0) return { nrmse: 0, method: "constant target" };
  if (n < 3) return { nrmse: 0, method: "too few rows" };

  const rows = strided(n, MAX_ROWS);
  const m = rows.length;
  const ys = Float64Array.from(rows, (r) => y[r]!);
  let mean = 0;
  for (const v of ys) mean += v;
  mean /= m;
  const std = populationStd(ys, allRows(m)) || scale;
  const z = Float64Array.from(ys, (v) => (v - mean) / std);
  const inputs = x.map((column) => Float64Array.from(rows, (r) => column[r]!)).filter(varies);
  const cap = Math.max(1, Math.min(MAX_COLUMNS, Math.floor(m / 3)));

  const candidates: Candidate[] = [polynomialModel(inputs, z, cap)];
  const logged = logModel(inputs, ys, cap);
  if (logged) candidates.push({ ...logged, residual: logged.residual.map((v) => v / std) });
  candidates.push(...anisotropicModels(inputs, z, cap));
  let best = candidates[0]!;
  for (const c of candidates) if (c.variance < best.variance) best = c;

  let variance = best.variance;
  let method = best.method;
  if (variance > 0) {
    const gamma = gammaTest(inputs, best.residual);
    if (gamma !== undefined && Math.max(0, gamma) < variance) {
      variance = Math.max(0, gamma);
      method += ", Gamma test of its residual";
    }
  }
  if (m < n) method += ` (${m} of ${n} rows)`;
  // variance is in units of the subsample's std; report against the population std of all of y
  return { nrmse: (Math.sqrt(variance) * std) / scale, method };
}

/** One model's best column set: its RSS/(n − p) in units of std(y)², and its residual there. */
interface Candidate {
  variance: number;
  residual: Float64Array;
  method: string;
}

function populationStd(values: ArrayLike<number>, rows: Int32Array): number {
  let mean = 0;
  for (const r of rows) mean += values[r]!;
  mean /= rows.length;
  let sum = 0;
  for (const r of rows) sum += (values[r]! - mean) ** 2;
  return Math.sqrt(sum / rows.length);
}

const allRows = (n: number) => Int32Array.from({ length: n }, (_, i) => i);

/** At most `limit` row indices, evenly strided over n. */
function strided(n: number, limit: number): Int32Array {
  if (n <= limit) return allRows(n);
  return Int32Array.from({ length: limit }, (_, i) => Math.floor((i * n) / limit));
}

function range(column: Float64Array): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of column) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function varies(column: Float64Array): boolean {
  const [lo, hi] = range(column);
  return hi > lo;
}

/** The column mapped linearly onto [a, b] (its minimum to a, its maximum to b). */
function rescale(column: Float64Array, a: number, b: number): Float64Array {
  const [lo, hi] = range(column);
  return Float64Array.from(column, (v) => a + ((b - a) * (v - lo)) / (hi - lo));
}

/** Legendre polynomials P_0…P_degree at t ∈ [−1, 1]. */
function legendre(t: Float64Array, degree: number): Float64Array[] {
  const p = [new Float64Array(t.length).fill(1)];
  if (degree >= 1) p.push(Float64Array.from(t));
  for (let k = 1; k < degree; k++) {
    const a = p[k]!;
    const b = p[k - 1]!;
    p.push(Float64Array.from(t, (v, i) => ((2 * k + 1) * v * a[i]! - k * b[i]!) / (k + 1)));
  }
  return p;
}

/**
 * Columns of a total-degree polynomial basis (products of Legendre polynomials of the inputs), the
 * constant first, then degree 1, 2, …; `ends` holds the column count after each complete degree and
 * after the last (possibly partial) one.
 */
function totalDegreeColumns(
  inputs: readonly Float64Array[],
  rows: number,
  cap: number,
  maxDegree: number,
): { columns: Float64Array[]; ends: number[]; degrees: number[] } {
  const d = inputs.length;
  const columns = [new Float64Array(rows).fill(1)];
  const ends = [1];
  const degrees = [0];
  if (d === 0) return { columns, ends, degrees };
  const perInput = Math.min(maxDegree, MAX_DEGREE, cap - 1);
  const basis = inputs.map((column) => legendre(rescale(column, -1, 1), perInput));
  const exponents = new Array<number>(d).fill(0);
  let full = false;
  // exponent vectors of total `left` over inputs j…d−1, the first input's exponent falling first
  const fill = (j: number, left: number): void => {
    if (full) return;
    if (j === d - 1) {
      if (left > perInput) return;
      exponents[j] = left;
      const column = new Float64Array(rows).fill(1);
      for (let q = 0; q < d; q++) {
        const e = exponents[q]!;
        if (e === 0) continue;
        const p = basis[q]![e]!;
        for (let r = 0; r < rows; r++) column[r]! *= p[r]!;
      }
      columns.push(column);
      if (columns.length >= cap) full = true;
      return;
    }
    for (let e = Math.min(left, perInput); e >= 0; e--) {
      exponents[j] = e;
      fill(j + 1, left - e);
      if (full) return;
    }
  };
  for (let degree = 1; degree <= maxDegree && !full && columns.length < cap; degree++) {
    const before = columns.length;
    fill(0, degree);
    if (columns.length === before) break;
    ends.push(columns.length);
    degrees.push(degree);
  }
  return { columns, ends, degrees };
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let r = 0; r < a.length; r++) s += a[r]! * b[r]!;
  return s;
};

/**
 * Weighted least squares of z on nested prefixes of `columns` (weights w, or 1): the Gram matrix of the
 * weighted columns scaled to unit norm, its Cholesky factor (a column dropped when nearly dependent on
 * the previous ones), and solves for any prefix with one step of iterative refinement.
 */
function leastSquares(columns: readonly Float64Array[], z: Float64Array, w: Float64Array | null) {
  const p = columns.length;
  const n = z.length;
  const root = w ? Float64Array.from(w, Math.sqrt) : null;
  const weighted = root ? columns.map((c) => Float64Array.from(c, (v, r) => v * root[r]!)) : columns;
  const zw = root ? Float64Array.from(z, (v, r) => v * root[r]!) : z;
  const norms = Float64Array.from(weighted, (c) => Math.sqrt(dot(c, c)));
  const unit = (j: number) => (norms[j]! > 0 ? 1 / norms[j]! : 0);
  const gram = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) gram[i * p + j] = dot(weighted[i]!, weighted[j]!) * unit(i) * unit(j);
  }
  // left-looking Cholesky, lower triangle; a dropped column gets a zero row
  const chol = new Float64Array(p * p);
  const kept = new Uint8Array(p);
  const rank = new Int32Array(p + 1);
  for (let j = 0; j < p; j++) {
    let d = gram[j * p + j]!;
    for (let k = 0; k < j; k++) d -= chol[j * p + k]! ** 2;
    if (norms[j]! > 0 && d > PIVOT) {
      kept[j] = 1;
      const pivot = Math.sqrt(d);
      chol[j * p + j] = pivot;
      for (let i = j + 1; i < p; i++) {
        let s = gram[i * p + j]!;
        for (let k = 0; k < j; k++) s -= chol[i * p + k]! * chol[j * p + k]!;
        chol[i * p + j] = s / pivot;
      }
    }
    rank[j + 1] = rank[j]! + kept[j]!;
  }
  /** Solves (scaled) G_k·u = g for the first k columns, in place. */
  const solveScaled = (g: Float64Array, k: number) => {
    for (let i = 0; i < k; i++) {
      if (!kept[i]) {
        g[i] = 0;
        continue;
      }
      let s = g[i]!;
      for (let q = 0; q < i; q++) s -= chol[i * p + q]! * g[q]!;
      g[i] = s / chol[i * p + i]!;
    }
    for (let i = k - 1; i >= 0; i--) {
      if (!kept[i]) continue;
      let s = g[i]!;
      for (let q = i + 1; q < k; q++) s -= chol[q * p + i]! * g[q]!;
      g[i] = s / chol[i * p + i]!;
    }
  };
  /** Weighted residual zw − W^½·X_k·β. */
  const residualOf = (beta: Float64Array, k: number) => {
    const r = Float64Array.from(zw);
    for (let j = 0; j < k; j++) {
      const b = beta[j]!;
      if (b === 0) continue;
      const c = weighted[j]!;
      for (let i = 0; i < n; i++) r[i]! -= b * c[i]!;
    }
    return r;
  };
  /** Coefficients of the first k columns (unscaled), refined once. */
  const solve = (k: number): Float64Array => {
    const beta = new Float64Array(k);
    for (let step = 0; step < 2; step++) {
      const r = step === 0 ? zw : residualOf(beta, k);
      const g = new Float64Array(k);
      for (let j = 0; j < k; j++) if (kept[j]) g[j] = dot(weighted[j]!, r) * unit(j);
      solveScaled(g, k);
      for (let j = 0; j < k; j++) beta[j]! += g[j]! * unit(j);
    }
    return beta;
  };
  // RSS of every prefix from the forward solve (cheap, but only good to ~1e-16·zᵀz): for choosing
  const c = new Float64Array(p);
  for (let j = 0; j < p; j++) c[j] = kept[j] ? dot(weighted[j]!, zw) * unit(j) : 0;
  for (let i = 0; i < p; i++) {
    if (!kept[i]) continue;
    let s = c[i]!;
    for (let q = 0; q < i; q++) s -= chol[i * p + q]! * c[q]!;
    c[i] = s / chol[i * p + i]!;
  }
  const quickRss = new Float64Array(p + 1);
  quickRss[0] = dot(zw, zw);
  for (let j = 0; j < p; j++) quickRss[j + 1] = quickRss[j]! - c[j]! ** 2;
  return { rank, quickRss, solve };
}

/** X_k·β on every row (unweighted columns). */
function predict(columns: readonly Float64Array[], beta: Float64Array, rows: number): Float64Array {
  const out = new Float64Array(rows);
  for (let j = 0; j < beta.length; j++) {
    const b = beta[j]!;
    if (b === 0) continue;
    const c = columns[j]!;
    for (let i = 0; i < rows; i++) out[i]! += b * c[i]!;
  }
  return out;
}

/**
 * The best prefix (of those ending at `ends`) of an unweighted fit of z: chosen by the cheap RSS, then
 * the exact residual of that prefix and of the longest one.
 */
function bestPrefix(columns: readonly Float64Array[], ends: readonly number[], z: Float64Array) {
  const n = z.length;
  const fit = leastSquares(columns, z, null);
  const dof = (k: number) => n - fit.rank[k]!;
  let choice = ends[0]!;
  for (const k of ends) {
    if (dof(k) <= 0) continue;
    if (Math.max(0, fit.quickRss[k]!) / dof(k) < Math.max(0, fit.quickRss[choice]!) / dof(choice)) choice = k;
  }
  let best = { variance: Number.POSITIVE_INFINITY, residual: z, end: choice };
  const last = ends[ends.length - 1]!;
  for (const k of choice === last ? [choice] : [choice, last]) {
    if (dof(k) <= 0) continue;
    const fitted = predict(columns, fit.solve(k), n);
    const residual = Float64Array.from(z, (v, i) => v - fitted[i]!);
    const variance = dot(residual, residual) / dof(k);
    if (variance < best.variance) best = { variance, residual, end: k };
  }
  return { ...best, rank: fit.rank[best.end]! };
}

/** y (centred and scaled) as a polynomial of total degree 1, 2, … in the inputs. */
function polynomialModel(inputs: readonly Float64Array[], z: Float64Array, cap: number): Candidate {
  const { columns, ends, degrees } = totalDegreeColumns(inputs, z.length, cap, Number.POSITIVE_INFINITY);
  const best = bestPrefix(columns, ends, z);
  const degree = degrees[ends.indexOf(best.end)] ?? 0;
  return {
    variance: best.variance,
    residual: best.residual,
    method: `polynomial of degree ${degree} (${best.rank} columns)`,
  };
}

/**
 * log|y| as a polynomial of total degree ≤ LOG_DEGREE in log x (inputs whose range is positive) and x
 * (the others), fitted with weights y² (so that it approximates least squares in y), where at least 90%
 * of the rows share one sign (the others get weight 0). The residual is y − ±exp(fit), in y's units.
 */
function logModel(inputs: readonly Float64Array[], y: Float64Array, cap: number): Candidate | undefined {
  const n = y.length;
  let positive = 0;
  for (const v of y) if (v > 0) positive++;
  const sign = positive * 2 >= n ? 1 : -1;
  let wrong = 0;
  for (const v of y) if (!(sign * v > 0)) wrong++;
  if (wrong * 10 > n) return undefined;
  const transformed = inputs.map((column) => (range(column)[0] > 0 ? column.map(log) : column));
  const { columns, ends, degrees } = totalDegreeColumns(transformed, n, cap, LOG_DEGREE);
  const z = Float64Array.from(y, (v) => (sign * v > 0 ? log(sign * v) : 0));
  const w = Float64Array.from(y, (v) => (sign * v > 0 ? v * v : 0));
  const fit = leastSquares(columns, z, w);
  let best: Candidate | undefined;
  ends.forEach((k, b) => {
    const dof = n - fit.rank[k]!;
    if (k === 1 || dof <= 0) return;
    const g = predict(columns, fit.solve(k), n);
    const residual = Float64Array.from(y, (v, i) => v - sign * exp(Math.min(g[i]!, 700)));
    const variance = dot(residual, residual) / dof;
    if (!(variance < (best?.variance ?? Number.POSITIVE_INFINITY))) return;
    best = { variance, residual, method: `log-polynomial of degree ${degrees[b]} (${fit.rank[k]} columns)` };
  });
  return best;
}

/**
 * For each input x_j (with 2 to 5 inputs): Legendre degrees 0…A of x_j times every multilinear
 * monomial of the others (2^(d−1) of them), A as high as the column cap allows. Prefixes end after
 * each degree of x_j.
 */
function anisotropicModels(inputs: readonly Float64Array[], z: Float64Array, cap: number): Candidate[] {
  const d = inputs.length;
  const n = z.length;
  if (d < 2 || d > 5) return [];
  const monomials = 1 << (d - 1);
  const top = Math.min(MAX_DEGREE, Math.floor(cap / monomials) - 1);
  if (top < 4) return [];
  const scaled = inputs.map((column) => rescale(column, -1, 1));
  const out: Candidate[] = [];
  for (let j = 0; j < d; j++) {
    const others = scaled.filter((_, q) => q !== j);
    const products: Float64Array[] = [];
    for (let mask = 0; mask < monomials; mask++) {
      const column = new Float64Array(n).fill(1);
      others.forEach((o, q) => {
        if (mask & (1 << q)) for (let r = 0; r < n; r++) column[r]! *= o[r]!;
      });
      products.push(column);
    }
    const columns: Float64Array[] = [];
    const ends: number[] = [];
    for (const p of legendre(scaled[j]!, top)) {
      for (const m of products) columns.push(Float64Array.from(m, (v, r) => v * p[r]!));
      ends.push(columns.length);
    }
    const best = bestPrefix(columns, ends.slice(1), z);
    out.push({
      variance: best.variance,
      residual: best.residual,
      method: `degree ${best.end / monomials - 1} in input ${j + 1} × multilinear in the others (${best.rank} columns)`,
    });
  }
  return out;
}

/**
 * The Gamma test of r over the inputs (scaled to unit range): the intercept of the least-squares line
 * of ½·mean (r_i − r_N(i,k))² on mean |x_i − x_N(i,k)|² over k = 1…NEIGHBOURS, N(i,k) the k-th
 * nearest row (ties: the lower row). Undefined with no varying input or under 3 rows.
 */
function gammaTest(inputs: readonly Float64Array[], r: Float64Array): number | undefined {
  const d = inputs.length;
  if (d === 0) return undefined;
  const pick = strided(r.length, Math.floor(Math.sqrt(NEIGHBOUR_WORK / d)));
  const m = pick.length;
  const kMax = Math.min(NEIGHBOURS, m - 1);
  if (kMax < 1) return undefined;
  const units = inputs.map((column) => rescale(column, 0, 1));
  const points = new Float64Array(m * d);
  for (let i = 0; i < m; i++) for (let q = 0; q < d; q++) points[i * d + q] = units[q]![pick[i]!]!;
  const residual = Float64Array.from(pick, (i) => r[i]!);
  const delta = new Float64Array(kMax);
  const gamma = new Float64Array(kMax);
  const bestDistance = new Float64Array(kMax);
  const bestRow = new Int32Array(kMax);
  for (let i = 0; i < m; i++) {
    bestDistance.fill(Number.POSITIVE_INFINITY);
    for (let o = 0; o < m; o++) {
      if (o === i) continue;
      let s = 0;
      for (let q = 0; q < d; q++) s += (points[i * d + q]! - points[o * d + q]!) ** 2;
      if (!(s < bestDistance[kMax - 1]!)) continue;
      let at = kMax - 1;
      while (at > 0 && bestDistance[at - 1]! > s) {
        bestDistance[at] = bestDistance[at - 1]!;
        bestRow[at] = bestRow[at - 1]!;
        at--;
      }
      bestDistance[at] = s;
      bestRow[at] = o;
    }
    for (let k = 0; k < kMax; k++) {
      delta[k]! += bestDistance[k]!;
      gamma[k]! += 0.5 * (residual[bestRow[k]!]! - residual[i]!) ** 2;
    }
  }
  let meanDelta = 0;
  let meanGamma = 0;
  for (let k = 0; k < kMax; k++) {
    meanDelta += delta[k]! / m / kMax;
    meanGamma += gamma[k]! / m / kMax;
  }
  let sxx = 0;
  let sxy = 0;
  for (let k = 0; k < kMax; k++) {
    sxx += (delta[k]! / m - meanDelta) ** 2;
    sxy += (delta[k]! / m - meanDelta) * (gamma[k]! / m - meanGamma);
  }
  return sxx > 0 ? meanGamma - (sxy / sxx) * meanDelta : meanGamma;
}
