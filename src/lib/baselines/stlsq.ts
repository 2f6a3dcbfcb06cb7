/**
 * Sequentially thresholded least squares (STLSQ, the sparse regression of SINDy: Brunton, Proctor
 * and Kutz 2016) over a given column library: a peer for the search's polynomial question
 * (search/linear/polynomial.ts) that selects by thresholds instead of subsets.
 *
 * For one threshold λ:
 * 1. least squares of y on the columns of the support (all columns at first), by the library's
 *    Householder QR (never the normal equations: on U(1, 2), x and x² correlate at 0.996, and the
 *    normal equations square the condition number);
 * 2. a column leaves the support when its term is small: |β_j|·‖x_j‖ < λ·‖y‖, the coefficient it
 *    has on the column scaled to unit norm, relative to y's norm, so that λ depends neither on
 *    the columns' units nor on y's;
 * 3. refit on the survivors and repeat until the support stops changing (at most MAX_ITERATIONS).
 *
 * λ is chosen on a grid of GRID_SIZE values log-spaced over [LAMBDA_LOW, LAMBDA_HIGH] by the lowest
 * score 2·n·log(NRMSE) + k·log(n) on the rows (the answer rule's score, hallOfFame.ts
 * frontScoreOf: n rows, k columns in the support, the constant included; an NRMSE below 1e-9
 * counts as 1e-9, rounding and not signal, so that among exact fits the fewest columns win);
 * on a tie the larger λ (the sparser or equal support) wins. The constant column, where asked
 * (`intercept`, on by default, as the search fits a constant), is thresholded like the others.
 *
 * Deterministic: no random draw; one input gives one output, bit for bit.
 */
import { log10, pow } from "../core/index.js";
import { dot, householderQr, nrmse } from "../numeric/index.js";
import { frontScoreOf } from "../search/index.js";

/** Values of λ tried. */
export const GRID_SIZE = 20;
/** The grid's smallest and largest λ (a term's share of ‖y‖ below which it is dropped). */
export const LAMBDA_LOW = 1e-6;
export const LAMBDA_HIGH = 1;
/** Threshold-and-refit rounds at most for one λ (the support shrinks or stays: it settles well before). */
export const MAX_ITERATIONS = 25;

export interface StlsqOptions {
  /** Add the constant column (default true). */
  intercept?: boolean;
  /** The λ grid instead of the default one (each value > 0). */
  lambdas?: readonly number[];
}

export interface StlsqFit {
  /** The chosen columns (indices into the given columns), ascending. */
  support: number[];
  /** Their coefficients, in the columns' own units, in `support`'s order. */
  coefficients: number[];
  /** The constant (0 where it is not in the support or not asked). */
  constant: number;
  /** Whether the constant column is in the support. */
  constantInSupport: boolean;
  /** NRMSE of the fit on the rows. */
  nrmse: number;
  /** The chosen threshold. */
  lambda: number;
  /** Its score, 2·n·log(NRMSE) + k·log(n). */
  score: number;
  /** Threshold-and-refit rounds the chosen λ took. */
  iterations: number;
}

/** The default grid: GRID_SIZE values log-spaced from LAMBDA_LOW to LAMBDA_HIGH. */
export function lambdaGrid(): number[] {
  // The library's own log10 and pow: the same grid, bit for bit, in every engine.
  const lo = log10(LAMBDA_LOW);
  const hi = log10(LAMBDA_HIGH);
  return Array.from({ length: GRID_SIZE }, (_, i) => pow(10, lo + ((hi - lo) * i) / (GRID_SIZE - 1)));
}

/** A support's least-squares fit: coefficients by column index (0 off the support) and predictions. */
function fitSupport(
  columns: readonly Float64Array[],
  y: Float64Array,
  support: readonly number[],
): { beta: Float64Array; predicted: Float64Array } {
  const beta = new Float64Array(columns.length);
  const predicted = new Float64Array(y.length);
  if (support.length === 0) return { beta, predicted };
  const solved = householderQr(support.map((j) => columns[j]!))?.solve(y);
  if (!solved) throw new RangeError("stlsq: a column or y holds a value that is not finite");
  for (const [p, j] of support.entries()) {
    beta[j] = solved[p]!;
    const column = columns[j]!;
    for (let r = 0; r < y.length; r++) predicted[r] = predicted[r]! + solved[p]! * column[r]!;
  }
  return { beta, predicted };
}

/** STLSQ at one λ (module comment): the settled support, its coefficients and the rounds taken. */
function thresholded(
  columns: readonly Float64Array[],
  norms: readonly number[],
  y: Float64Array,
  yNorm: number,
  lambda: number,
): { support: number[]; beta: Float64Array; predicted: Float64Array; iterations: number } {
  let support = columns.map((_, j) => j).filter((j) => norms[j]! > 0);
  let fitted = fitSupport(columns, y, support);
  let iterations = 1;
  while (iterations < MAX_ITERATIONS) {
    const kept = support.filter((j) => Math.abs(fitted.beta[j]!) * norms[j]! >= lambda * yNorm);
    if (kept.length === support.length) break;
    support = kept;
    fitted = fitSupport(columns, y, support);
    iterations++;
  }
  return { support, ...fitted, iterations };
}

/**
 * STLSQ of y over `columns` (module comment), λ chosen by the score. Columns and y must have one
 * length and finite values.
 */
export function stlsq(columns: readonly Float64Array[], y: Float64Array, options: StlsqOptions = {}): StlsqFit {
  const n = y.length;
  if (!columns.every((c) => c.length === n)) throw new RangeError(`stlsq: every column must have ${n} rows, as y does`);
  const intercept = options.intercept ?? true;
  const lambdas = options.lambdas ?? lambdaGrid();
  if (lambdas.length === 0 || !lambdas.every((l) => l > 0))
    throw new RangeError(`stlsq: lambdas must be positive numbers (got ${lambdas.join(", ")})`);
  const all = intercept ? [...columns, new Float64Array(n).fill(1)] : [...columns];
  const norms = all.map((c) => Math.sqrt(dot(c, c)));
  const yNorm = Math.sqrt(dot(y, y));
  let best: (ReturnType<typeof thresholded> & { lambda: number; nrmse: number; score: number }) | undefined;
  // Largest λ first, so that on a tie the sparser support stays.
  for (const lambda of [...lambdas].sort((a, b) => b - a)) {
    const fit = thresholded(all, norms, y, yNorm, lambda);
    const error = nrmse(y, fit.predicted);
    const score = frontScoreOf(error, fit.support.length, n);
    if (!best || score < best.score) best = { ...fit, lambda, nrmse: error, score };
  }
  const chosen = best!;
  const constantIndex = intercept ? columns.length : -1;
  const support = chosen.support.filter((j) => j !== constantIndex);
  return {
    support,
    coefficients: support.map((j) => chosen.beta[j]!),
    constant: intercept ? chosen.beta[constantIndex]! : 0,
    constantInSupport: chosen.support.includes(constantIndex),
    nrmse: chosen.nrmse,
    lambda: chosen.lambda,
    score: chosen.score,
    iterations: chosen.iterations,
  };
}

/** An STLSQ fit's predictions on rows given by the same library's columns. */
export function predictStlsq(fit: StlsqFit, columns: readonly Float64Array[]): Float64Array {
  const rows = columns[0]?.length ?? 0;
  const out = new Float64Array(rows).fill(fit.constant);
  for (const [p, j] of fit.support.entries()) {
    const column = columns[j]!;
    for (let r = 0; r < rows; r++) out[r] = out[r]! + fit.coefficients[p]! * column[r]!;
  }
  return out;
}
