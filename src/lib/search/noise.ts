/**
 * How much of a target's NRMSE is noise: an estimate of σ/std(y) for y = f(x) + N(0, σ²) with f an
 * unknown smooth law, from the data alone. The search can stop once an equation is as good as the
 * noise allows; an estimate below 1e-6 means "noiseless" (the exact stop rule applies).
 *
 * Method. Linear least-squares models of f, each fitted on nested column sets; a set of p independent
 * columns gives RSS/(n − p), unbiased for σ² once the model holds f and inflated by its approximation
 * error otherwise. The models:
 *  - a polynomial of total degree 1, 2, … (products of Legendre polynomials of the inputs scaled to
 *    [−1, 1]; one set per total degree), up to n/3 and MAX_COLUMNS columns;
 *  - log|y| as a polynomial of total degree ≤ 3 in log x (inputs with a positive range) and x (the
 *    others), where one sign holds ≥ 95% of Σy²: power laws such as q·v·B/p are degree 1 there. Fitted
 *    with weights y², then two Gauss–Newton steps of least squares in y; its residual is taken in y;
 *  - with 2 to 5 inputs, for each input x_j: Legendre degrees 0…A of x_j times every multilinear
 *    monomial of the others (r·F·sin θ, −m·B·cos θ, κ·A·(T2 − T1)/d are of this kind).
 * The column set of each model, then the model, is chosen by Akaike's final prediction error (see
 * `fpe`), and its RSS/(n − p) is the estimate, unless the Gamma test of its residual (the intercept of
 * the line through ½·mean (r_i − r_N(i,k))² against the mean squared distance to the k-th neighbour,
 * k = 1…10, inputs scaled to unit range) is below 0.7 of it: a residual left by a model that holds f
 * is noise, the line is flat and the two agree (within ±10%); one left by approximation error is
 * partly smooth, and the extrapolation to distance 0 removes part of it. Rows are strided evenly to
 * MAX_ROWS (and fewer for the neighbour search with many inputs).
 *
 * Why, by measurement (500 rows; ratio = estimate / realised noise NRMSE, 20 seeds unless said):
 *  - this method: 0.98–1.01 at 20, 30 and 40 dB for 1.5·x1·x2·x3, 2·x1·x2 + x3² and 1.3·a²·b − 0.7·c on
 *    U(1, 2); 0.96–1.02 for 3·x1²·cos(2.5·x2), sin(1.8·x1)·(log(3·x2) + √x3), x1·exp(−0.5·x2),
 *    0.5·m·v² + 9.81·m·h, x³ + x² + x on U(−1, 1), one input (x·e^−x + sin 3x) and six (x1·y1 + x2·y2 +
 *    x3·y3); 0.96–1.13 for sin(x1) + sin(x2²) on U(0, 4) and 0.97–1.16 for x1·x2·e^−x3 + sin(x4)·x5/x6.
 *    Noiseless: below 1e-15 for the polynomial laws, 7.5e-8 for the sin·(log + √) law, 3.7e-3 and
 *    3.8e-3 for the last two. On the 77 noiseless benchmark entries (src/lib/data/benchmark.ts, seeds
 *    0–2, worst seed): 72 below 1e-6, 73 below 1e-4, 75 below 1e-2; the others are Feynman I.37.4
 *    (8e-5), I.12.11 (4e-4), II.2.42 (3e-3), II.6.11 (0.012) and I.13.12 (0.059). With noise, 226, 229
 *    and 231 of 231 runs within a factor 1.5 at 40, 30 and 20 dB (the misses: I.13.12 and II.6.11);
 *  - the polynomial alone, its degree chosen by the least RSS/(n − p) (5 seeds): 0.96–1.01 on the
 *    three laws, but on the noiseless benchmark entries below 1e-6 for 42 of 77 only (inverse powers on
 *    [1, 5] in 4 or 5 inputs leave 1e-3 to 0.1);
 *  - the Gamma test and the delta test on y itself (5 seeds): useless here. Noiseless, they give 3e-3
 *    to 0.3 (the law's change between neighbours, not noise); at 40 dB with 3 inputs the Gamma
 *    intercept scatters from 0 to 14× the truth and the delta test reads 4 to 30×;
 *  - the Gamma test on the residual of the polynomial: 0.96–1.03 under noise, and 30–50% lower than
 *    RSS/(n − p) where approximation error dominates; so it is a correction, not an estimator;
 *  - choosing among column sets and models by the least RSS/(n − p) instead of the FPE (5 seeds):
 *    0.83–1.00 on the three laws (the set that absorbed the most noise wins), against 0.98–1.01.
 * Fits are solved by one Householder QR of the columns scaled to unit norm (a column dropped when
 * its part outside the previous ones is below √PIVOT, one step of iterative refinement): normal
 * equations lost their digits on nearly collinear columns (the power flow's voltages), and exact
 * polynomial laws come out below 1e-14.
 *
 * Unreliable where no model holds f and the noise is below its approximation error: the estimate is
 * then that error, above the truth (Feynman I.13.12, G·m1·m2·(1/r2 − 1/r1) on [1, 5]^5: 0.059 noiseless,
 * 3.6–6× the truth at 40 dB). Fewer rows lower the column cap (n/3) and so raise that error: at 100
 * rows sin(x1) + sin(x2²) reads 0.26 noiseless. Where the Gamma test finds the residual mostly
 * smooth the estimate can be 0 (below the truth, never above). Time (Node 20, warm; the first call
 * adds about 50 ms of compilation), 500 rows: 4 ms with 1 input, 30–40 ms with 3, 55 ms with 5, 30 ms
 * with 6, 90 ms with 100; more rows are strided to 1000: 75–95 ms with 3 inputs, 180 ms with 100.
 * Float64 arithmetic with math.js's exp and log: the same bits on every engine.
 */
import { exp, log } from "../core/index.js";
import { dot, extent, householderQr } from "../numeric/index.js";

export interface NoiseEstimate {
  /** Estimated noise σ over the population std of y: the NRMSE an exact law would score. */
  nrmse: number;
  /** Which model gave it, for logs and reports. */
  method: string;
}

/** Rows used at most (evenly strided). */
const MAX_ROWS = 1000;
/** Columns of one model at most (also at most a third of the rows). */
const MAX_COLUMNS = 160;
/** Highest degree of one input in a model. */
const MAX_DEGREE = 60;
/** Total degree of the log model. */
const LOG_DEGREE = 3;
/** Columns of one anisotropic model at most. */
const MAX_ANISOTROPIC_COLUMNS = 100;
/** The Gamma test of the residual replaces RSS/(n − p) where below this fraction of it (pure noise: 1 ± 0.1). */
const GAMMA_SMALLER = 0.7;
/** The log model is fitted where the rows of the minority sign hold at most this fraction of Σ y². */
const WRONG_SIGN = 0.05;
/** Gauss–Newton steps of the log model towards least squares in y. */
const GAUSS_NEWTON = 2;
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
  if (n < 3) return { nrmse: 0, method: "too few rows" };
  let peak = 0;
  for (const v of y) {
    if (!Number.isFinite(v)) return { nrmse: Number.NaN, method: "non-finite target" };
    peak = Math.max(peak, Math.abs(v));
  }
  if (y.every((v) => v === y[0])) return { nrmse: 0, method: "constant target" };
  // y/peak from here on: its squares neither overflow nor underflow
  const scale = populationStd(
    map(y, (v) => v / peak),
    allRows(n),
  );

  const rows = strided(n, MAX_ROWS);
  const m = rows.length;
  const ys = map(rows, (r) => y[r]! / peak);
  let mean = 0;
  for (const v of ys) mean += v;
  mean /= m;
  const std = populationStd(ys, allRows(m)) || scale;
  const z = map(ys, (v) => (v - mean) / std);
  const sampled = x.map((column) => map(rows, (r) => column[r]!));
  const inputs = sampled.filter(varies);
  const numbers = sampled.flatMap((column, i) => (varies(column) ? [i + 1] : []));
  const cap = Math.max(1, Math.min(MAX_COLUMNS, Math.floor(m / 3)));

  const candidates: Candidate[] = [polynomialModel(inputs, z, cap)];
  const logged = logModel(inputs, ys, cap);
  if (logged) {
    const residual = map(logged.residual, (v) => v / std);
    candidates.push({ rss: logged.rss / (std * std), columns: logged.columns, residual, method: logged.method });
  }
  candidates.push(...anisotropicModels(inputs, numbers, z, Math.min(cap, MAX_ANISOTROPIC_COLUMNS)));
  let best = candidates[0]!;
  for (const c of candidates) if (fpe(c.rss, c.columns, m) < fpe(best.rss, best.columns, m)) best = c;

  let variance = best.rss / (m - best.columns);
  let method = best.method;
  if (variance > 0) {
    const gamma = gammaTest(inputs, best.residual);
    if (gamma !== undefined && gamma < GAMMA_SMALLER * variance) {
      variance = Math.max(0, gamma);
      method += ", Gamma test of its residual";
    }
  }
  if (m < n) method += ` (${m} of ${n} rows)`;
  // variance is in units of the subsample's std; report against the population std of all of y
  return { nrmse: (Math.sqrt(variance) * std) / scale, method };
}

/** One model's best column set: its RSS in units of std(y)², its independent columns, its residual. */
interface Candidate {
  rss: number;
  columns: number;
  residual: Float64Array;
  method: string;
}

/**
 * How much of a residual is noise: the Gamma test's intercept over the residual's variance (about 1
 * for a residual of pure noise, near 0 for a smooth one: a law's part a model left out), or undefined
 * where the test cannot run. x: input columns, r: the residual (rows of x).
 */
export function noiseShare(x: readonly Float64Array[], r: Float64Array): number | undefined {
  let mean = 0;
  for (const v of r) mean += v;
  mean /= r.length || 1;
  let variance = 0;
  for (const v of r) variance += (v - mean) ** 2;
  variance /= r.length || 1;
  if (!(variance > 0) || !Number.isFinite(variance)) return undefined;
  const gamma = gammaTest(x.filter(varies), r);
  return gamma === undefined ? undefined : gamma / variance;
}

/**
 * Akaike's final prediction error, RSS·(n + p)/(n − p) (up to a constant factor): which column set and
 * which model to believe. Choosing by RSS/(n − p) itself would pick the set whose fit happened to absorb
 * the most noise (the least of many nested estimates of one σ², 10–17% low in trials); the FPE adds a
 * column only where it lowers the RSS by more than about 2σ², which noise alone rarely does.
 */
const fpe = (rss: number, p: number, n: number) =>
  n > p ? (Math.max(0, rss) * (n + p)) / (n - p) : Number.POSITIVE_INFINITY;

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

/** Whether the column takes more than one value, over a finite range. */
function varies(column: Float64Array): boolean {
  const [lo, hi] = extent(column);
  return hi > lo && Number.isFinite(hi - lo);
}

/** The column mapped linearly onto [a, b] (its minimum to a, its maximum to b). */
function rescale(column: Float64Array, a: number, b: number): Float64Array {
  const [lo, hi] = extent(column);
  return map(column, (v) => a + ((b - a) * (v - lo)) / (hi - lo));
}

/** Legendre polynomials P_0…P_degree at t ∈ [−1, 1]. */
function legendre(t: Float64Array, degree: number): Float64Array[] {
  const p: Float64Array[] = [new Float64Array(t.length).fill(1)];
  if (degree >= 1) p.push(Float64Array.from(t));
  for (let k = 1; k < degree; k++) {
    const a = p[k]!;
    const b = p[k - 1]!;
    p.push(map(t, (v, i) => ((2 * k + 1) * v * a[i]! - k * b[i]!) / (k + 1)));
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
  // the degree at which the columns reach the cap: C(D + d, d) ≥ cap
  let reach = 0;
  for (let count = 1; count < cap && reach < MAX_DEGREE; ) {
    reach++;
    count = (count * (reach + d)) / reach;
  }
  const perInput = Math.min(maxDegree, reach);
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

/** f(a[i], i) for every i, in a new array (Float64Array.from with a map function is slow in V8). */
function map(a: ArrayLike<number>, f: (v: number, i: number) => number): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f(a[i]!, i);
  return out;
}

/**
 * Weighted least squares of z on nested prefixes of `columns` (weights w, or 1), by one Householder
 * QR of the weighted columns (numeric/linalg; each scaled to unit norm, a column whose part outside
 * the previous ones is under √PIVOT of its norm dropped): the rank and residual sum of squares of
 * every prefix, and its coefficients refined once. QR keeps the digits the normal equations lose
 * on nearly collinear columns (the power flow's voltages, u ≈ 1), where the choice of degree and
 * the floor itself moved with the summation order.
 */
function normalEquations(columns: readonly Float64Array[], z: Float64Array, w: Float64Array | null) {
  const p = columns.length;
  const n = z.length;
  const root = w ? map(w, Math.sqrt) : null;
  const weighted = root ? columns.map((c) => map(c, (v, r) => v * root[r]!)) : columns;
  const zw = root ? map(z, (v, r) => v * root[r]!) : z;
  const qr = householderQr(weighted, { dependent: Math.sqrt(PIVOT) });
  const rank = new Int32Array(p + 1);
  const quickRss = new Float64Array(p + 1);
  quickRss[0] = dot(zw, zw);
  const t = qr ? qr.applyQt(Float64Array.from(zw)) : null;
  for (let j = 0; j < p; j++) {
    const before = rank[j]!;
    rank[j + 1] = qr ? qr.rankAt[j]! : 0;
    const added = rank[j + 1]! > before;
    quickRss[j + 1] = quickRss[j]! - (added && t ? t[before]! ** 2 : 0);
  }
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
    if (!qr) return beta;
    for (let step = 0; step < 2; step++) {
      const r = step === 0 ? zw : residualOf(beta, k);
      const delta = qr.solve(r, k);
      if (!delta) return beta;
      for (let j = 0; j < k; j++) beta[j]! += delta[j]!;
    }
    return beta;
  };
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
 * The best prefix (of those ending at `ends`) of an unweighted fit of z by the FPE: chosen on the
 * cheap RSS, then the exact residual of that prefix and of the longest one decide.
 */
function bestPrefix(columns: readonly Float64Array[], ends: readonly number[], z: Float64Array) {
  const n = z.length;
  const fit = normalEquations(columns, z, null);
  let choice = ends[0]!;
  for (const k of ends) {
    if (fpe(fit.quickRss[k]!, fit.rank[k]!, n) < fpe(fit.quickRss[choice]!, fit.rank[choice]!, n)) choice = k;
  }
  const last = ends[ends.length - 1]!;
  let best = { rss: Number.POSITIVE_INFINITY, columns: 0, residual: z, end: choice };
  for (const k of choice === last ? [choice] : [choice, last]) {
    const p = fit.rank[k]!;
    if (p >= n) continue;
    const fitted = predict(columns, fit.solve(k), n);
    const residual = map(z, (v, i) => v - fitted[i]!);
    const rss = dot(residual, residual);
    if (fpe(rss, p, n) < fpe(best.rss, best.columns, n)) best = { rss, columns: p, residual, end: k };
  }
  return best;
}

/** y (centred and scaled) as a polynomial of total degree 1, 2, … in the inputs. */
function polynomialModel(inputs: readonly Float64Array[], z: Float64Array, cap: number): Candidate {
  const { columns, ends, degrees } = totalDegreeColumns(inputs, z.length, cap, Number.POSITIVE_INFINITY);
  const best = bestPrefix(columns, ends, z);
  const degree = degrees[ends.indexOf(best.end)] ?? 0;
  return { ...best, method: `polynomial of degree ${degree} (${best.columns} columns)` };
}

/**
 * log|y| as a polynomial of total degree ≤ LOG_DEGREE in log x (inputs whose range is positive) and x
 * (the others), fitted with weights y² (so that it approximates least squares in y), where at least 90%
 * of the rows share one sign (the others get weight 0). The residual is y − ±exp(fit), in y's units.
 */
function logModel(inputs: readonly Float64Array[], y: Float64Array, cap: number): Candidate | undefined {
  const n = y.length;
  let above = 0;
  let below = 0;
  for (const v of y) {
    if (v > 0) above += v * v;
    else below += v * v;
  }
  const sign = above >= below ? 1 : -1;
  if (Math.min(above, below) > WRONG_SIGN * (above + below)) return undefined;
  const transformed = inputs.map((column) => (extent(column)[0] > 0 ? map(column, log) : column));
  const { columns, ends, degrees } = totalDegreeColumns(transformed, n, cap, LOG_DEGREE);
  const z = map(y, (v) => (sign * v > 0 ? log(sign * v) : 0));
  const w = map(y, (v) => (sign * v > 0 ? v * v : 0));
  const fit = normalEquations(columns, z, w);
  let best: { rss: number; p: number; k: number; degree: number; g: Float64Array } | undefined;
  const residualOf = (g: Float64Array) => map(y, (v, i) => v - sign * exp(Math.min(g[i]!, 700)));
  ends.forEach((k, b) => {
    const p = fit.rank[k]!;
    if (k === 1 || p >= n) return;
    const g = predict(columns, fit.solve(k), n);
    const residual = residualOf(g);
    const rss = dot(residual, residual);
    if (best && !(fpe(rss, p, n) < fpe(best.rss, best.p, n))) return;
    best = { rss, p, k, degree: degrees[b]!, g };
  });
  if (!best) return undefined;
  // Gauss–Newton steps of least squares in y from the weighted fit in log y: weights ŷ², target (y − ŷ)/ŷ
  const { k, p, degree } = best;
  let { g, rss } = best;
  const prefix = columns.slice(0, k);
  for (let step = 0; step < GAUSS_NEWTON; step++) {
    const fitted = map(g, (v) => sign * exp(Math.min(v, 700)));
    const target = map(y, (v, i) => (fitted[i] !== 0 ? (v - fitted[i]!) / fitted[i]! : 0));
    const shift = predict(
      prefix,
      normalEquations(
        prefix,
        target,
        map(fitted, (v) => v * v),
      ).solve(k),
      n,
    );
    const next = map(g, (v, i) => v + shift[i]!);
    const residual = residualOf(next);
    const nextRss = dot(residual, residual);
    if (!(nextRss < rss)) break;
    g = next;
    rss = nextRss;
  }
  return { rss, columns: p, residual: residualOf(g), method: `log-polynomial of degree ${degree} (${p} columns)` };
}

/**
 * For each input x_j (with 2 to 5 inputs; `numbers` are their 1-based places in x, for the method's
 * text): Legendre degrees 0…A of x_j times every multilinear monomial of the others (2^(d−1) of them),
 * A as high as `cap` columns allow. Prefixes end after each degree of x_j.
 */
function anisotropicModels(
  inputs: readonly Float64Array[],
  numbers: readonly number[],
  z: Float64Array,
  cap: number,
): Candidate[] {
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
      for (const m of products) columns.push(map(m, (v, r) => v * p[r]!));
      ends.push(columns.length);
    }
    const best = bestPrefix(columns, ends.slice(1), z);
    const degree = best.end / monomials - 1;
    const method = `degree ${degree} in input ${numbers[j]} × multilinear in the others (${best.columns} columns)`;
    out.push({ ...best, method });
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
  const residual = map(pick, (i) => r[i]!);
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

/**
 * A fit "reaches" the noise floor at this many times the estimate: 1 + 2/√rows, within [1.05, 1.25]
 * (1.09 at 500 rows). An exact law scores about the noise's NRMSE, and the estimate, a residual
 * variance, is off by about 1/√(2·rows) of it (3 % at 500 rows; on the noise benchmark the exact
 * law's NRMSE was at most 1.013 times the estimate in 99 % of the runs at 20 and 40 dB), so the
 * reach is about three such errors. A looser reach (1.25 before) let approximations 10–20 % above
 * the noise, such as √χ·e^(0.08·χ) for 1 + χ, end the search.
 */
export const floorReach = (rows: number): number => Math.min(1.25, Math.max(1.05, 1 + 2 / Math.sqrt(rows)));

/** The χ²_k quantile at 1 − p for the upper-tail normal quantile z of p (Wilson–Hilferty). */
export const chiSquareQuantile = (k: number, z: number): number =>
  k * (1 - 2 / (9 * k) + z * Math.sqrt(2 / (9 * k))) ** 3;

/**
 * The upper-tail normal quantile z of a probability p (0 < p ≤ 0.5): Abramowitz and Stegun's
 * rational approximation 26.2.23, within 4.5e-4.
 */
export function upperNormalQuantile(p: number): number {
  const t = Math.sqrt(-2 * Math.log(p));
  return t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3);
}

/** The split test's p (SPLIT_Z's): shared by the inputs where the test is the largest of several. */
export const SPLIT_P = 0.01;

/**
 * The χ²_k level a split statistic must stay at or below where it is the largest of `tests` tests,
 * one per input: each at SPLIT_P / tests (Bonferroni's), so that a law is refused at 1 % however
 * many inputs it has.
 */
export const splitLevel = (k: number, tests: number): number =>
  chiSquareQuantile(k, upperNormalQuantile(SPLIT_P / Math.max(1, tests)));

/**
 * The split test's level: a law is taken for a local imitation at p < 1 % (z = 2.326). A law so
 * taken only loses the polynomial answer's short cut (the search goes on, the answer stays in the
 * hall), so the level is set for power: the Taylor sums of sin·cos at 1 % and 10 % noise reach
 * p ≈ 1e-10 and 1e-3, the 240 noisy sums of the polynomial family no lower than p ≈ 0.012.
 */
export const SPLIT_Z = 2.326;
