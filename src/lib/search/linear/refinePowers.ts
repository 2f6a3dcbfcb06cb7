/**
 * The exponents of a plain pursuit's sums made continuous (pursuit.ts's pursueSteps): a wrong pick
 * among correlated products (a·b·c for a²·b·c) moves along a continuous exponent to the right
 * one, which the discrete moves of the pursuit cannot do for several terms at once.
 */
import type { NeuronColumn } from "./columns.js";
import { exp, log, type Steps } from "../../core/index.js";
import { solveSpd } from "../../numeric/index.js";
import { dampedStep } from "./levenberg.js";
import { everyStep, keyOf } from "./sums.js";

/** Levenberg–Marquardt iterations per start of refinePowers. */
const POWER_ITERATIONS = 60;
/** Rows refinePowers fits on (strided). */
const POWER_ROWS = 128;
/** How far a fitted exponent may lie from the power it is rounded to. */
const ROUNDING = 0.2;

/**
 * Sums of products of powers with their exponents made continuous: y ≈ c0 + Σ_k c_k·Π_i |x_i|^p_ki
 * fitted by Levenberg–Marquardt from each start's exponents (inputs of one sign only), then every
 * exponent rounded to one the pool writes on that input (a power symbol, or two of them).
 * Returns the rounded sums (products of neuron indices), in the order of the starts.
 */
export function* refinePowers(
  neurons: readonly NeuronColumn[],
  powers: readonly (number | undefined)[],
  y: Float64Array,
  starts: readonly (readonly (readonly number[])[])[],
  intercept: boolean,
): Steps<number[][][]> {
  const step = Math.max(1, Math.floor(y.length / POWER_ROWS));
  const target = everyStep(y, step);
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  const logs = inputs.map((input) => logOfInput(neurons, powers, input, step));
  const writings = inputs.map((input) => writingsOf(neurons, powers, input));
  const usable = inputs.map((_, i) => logs[i] !== null);
  const out: number[][][] = [];
  for (const start of starts) {
    const P = exponentsOf(neurons, powers, inputs, usable, start);
    if (!P) continue;
    const fitted = levenbergPowers(P, logs, usable, target, intercept);
    yield;
    if (!fitted) continue;
    const products = rounded(fitted, writings);
    if (products.length > 0) out.push(products);
  }
  return out;
}

/** log|x_i| from a neuron of power 1 (or any power p: log|x^p| / p), null where x changes sign or is 0. */
function logOfInput(
  neurons: readonly NeuronColumn[],
  powers: readonly (number | undefined)[],
  input: number,
  step: number,
): Float64Array | null {
  const k = neurons.findIndex((n, j) => n.input === input && powers[j] !== undefined && powers[j] !== 0);
  if (k < 0) return null;
  const values = everyStep(neurons[k]!.values, step);
  const sign = Math.sign(values[0]!);
  if (!(sign !== 0) || values.some((v) => Math.sign(v) !== sign)) return null;
  return Float64Array.from(values, (v) => log(Math.abs(v)) / powers[k]!);
}

/** Exponent → neurons writing it on one input: one power symbol, or two (x³·x for x⁴). */
function writingsOf(
  neurons: readonly NeuronColumn[],
  powers: readonly (number | undefined)[],
  input: number,
): Map<number, number[]> {
  const own = neurons.flatMap((n, j) => (n.input === input && powers[j] !== undefined ? [j] : []));
  const out = new Map<number, number[]>([[0, []]]);
  const put = (p: number, js: number[]) => {
    const key = Math.round(p * 1e6) / 1e6;
    if (!out.has(key)) out.set(key, js);
  };
  for (const j of own) put(powers[j]!, [j]);
  for (const j of own) for (const k of own) if (j < k) put(powers[j]! + powers[k]!, [j, k]);
  return out;
}

/**
 * The start's exponent matrix (terms × inputs); undefined where a non-power factor or a
 * sign-changing input ends it.
 */
function exponentsOf(
  neurons: readonly NeuronColumn[],
  powers: readonly (number | undefined)[],
  inputs: readonly number[],
  usable: readonly boolean[],
  start: readonly (readonly number[])[],
): number[][] | undefined {
  const P: number[][] = [];
  let valid = true;
  for (const product of start) {
    const row = inputs.map(() => 0);
    for (const n of product) {
      const i = inputs.indexOf(neurons[n]!.input);
      if (powers[n] === undefined || !usable[i]) valid = false;
      else row[i]! += powers[n]!;
    }
    P.push(row);
  }
  return valid && P.length > 0 ? P : undefined;
}

/**
 * The fitted exponents rounded to the writings of each input, as products (duplicates once). A
 * term whose exponents do not round (two near-copies cancelling, a term fitted to nothing) is left
 * out: the exactness check of the rest decides.
 */
function rounded(fitted: readonly (readonly number[])[], writings: readonly Map<number, number[]>[]): number[][] {
  const products: number[][] = [];
  for (const row of fitted) {
    const product: number[] = [];
    let rounds = true;
    for (const [i, p] of row.entries()) {
      let near: number | undefined;
      for (const e of writings[i]!.keys()) if (near === undefined || Math.abs(e - p) < Math.abs(near - p)) near = e;
      if (near === undefined || Math.abs(near - p) > ROUNDING) {
        rounds = false;
        break;
      }
      product.push(...writings[i]!.get(near)!);
    }
    if (!rounds) continue;
    const key = keyOf(product);
    if (product.length > 0 && !products.some((q) => keyOf(q) === key)) products.push(product);
  }
  return products;
}

/** The model c0 + Σ_k c_k·exp(Σ_i P_ki·L_i) of levenbergPowers: θ = (c0?, c_k, P_k·) over free inputs. */
interface PowerModel {
  rows: number;
  /** Intercept columns (0 or 1), terms, free inputs, parameters. */
  c0: number;
  T: number;
  F: number;
  np: number;
  L: Float64Array[];
  /** Each term's values at θ; null where an exponent overflows. */
  terms: (t: Float64Array) => Float64Array[] | null;
  residualOf: (t: Float64Array, m: Float64Array[]) => Float64Array;
}

/**
 * Levenberg–Marquardt on c0, c_k and the exponents P (terms × inputs) of
 * c0 + Σ_k c_k·exp(Σ_i P_ki·L_i); the coefficients start at their least-squares values for the
 * start's exponents. Returns the fitted exponents, or null when the fit fails (overflow, no step).
 */
function levenbergPowers(
  start: readonly (readonly number[])[],
  logs: readonly (Float64Array | null)[],
  usable: readonly boolean[],
  y: Float64Array,
  intercept: boolean,
): number[][] | null {
  const free = usable.flatMap((u, i) => (u ? [i] : []));
  const model = powerModel(start.length, free, logs, y, intercept);
  const { c0, T, F, np } = model;
  const theta = new Float64Array(np);
  for (const [k, row] of start.entries()) for (const [f, i] of free.entries()) theta[c0 + T + k * F + f] = row[i]!;
  let m = model.terms(theta);
  if (!m) return null;
  const c = startCoefficients(model, m, y);
  if (!c) return null;
  theta.set(c);
  let e = model.residualOf(theta, m);
  let loss = sse(e);
  let lambda = 1e-3;
  const J = new Float64Array(model.rows * np);
  for (let iteration = 0; iteration < POWER_ITERATIONS; iteration++) {
    const { JJ, Je } = powerNormalEquations(model, theta, m, e, J);
    const taken = dampedStep(JJ, Je, lambda, 1e-9, loss, (delta) => {
      const next = Float64Array.from(theta, (v, j) => v + delta[j]!);
      const mNext = model.terms(next);
      if (!mNext) return undefined;
      const eNext = model.residualOf(next, mNext);
      return { theta: next, m: mNext, e: eNext, loss: sse(eNext) };
    });
    lambda = taken.lambda;
    if (!taken.step) break;
    theta.set(taken.step.theta);
    m = taken.step.m;
    e = taken.step.e;
    const gain = (loss - taken.step.loss) / (loss || 1);
    loss = taken.step.loss;
    if (gain < 1e-10 || loss <= 1e-28 * model.rows) break;
  }
  return start.map((row, k) => row.map((p, i) => (usable[i] ? theta[c0 + T + k * F + free.indexOf(i)]! : p)));
}

const sse = (e: Float64Array) => e.reduce((s, v) => s + v * v, 0);

/** levenbergPowers's model for `T` terms over the `free` inputs (see PowerModel). */
function powerModel(
  T: number,
  free: readonly number[],
  logs: readonly (Float64Array | null)[],
  y: Float64Array,
  intercept: boolean,
): PowerModel {
  const rows = y.length;
  const c0 = intercept ? 1 : 0;
  const F = free.length;
  const np = c0 + T + T * F;
  const L = free.map((i) => logs[i]!);
  const terms = (t: Float64Array): Float64Array[] | null => {
    const m: Float64Array[] = [];
    for (let k = 0; k < T; k++) {
      const v = new Float64Array(rows);
      const at = c0 + T + k * F;
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let f = 0; f < F; f++) s += t[at + f]! * L[f]![r]!;
        if (Math.abs(s) > 60) return null;
        v[r] = exp(s);
      }
      m.push(v);
    }
    return m;
  };
  const residualOf = (t: Float64Array, m: Float64Array[]) => {
    const e = new Float64Array(rows);
    for (let r = 0; r < rows; r++) {
      let s = intercept ? t[0]! : 0;
      for (let k = 0; k < T; k++) s += t[c0 + k]! * m[k]![r]!;
      e[r] = y[r]! - s;
    }
    return e;
  };
  return { rows, c0, T, F, np, L, terms, residualOf };
}

/** The coefficients (c0?, c_k) at their least squares for the terms' values m; null where singular. */
function startCoefficients(model: PowerModel, m: Float64Array[], y: Float64Array): Float64Array | null {
  const { rows, c0, T } = model;
  const A = new Float64Array((c0 + T) * (c0 + T));
  const b = new Float64Array(c0 + T);
  const col = (j: number, r: number) => (j < c0 ? 1 : m[j - c0]![r]!);
  for (let a = 0; a < c0 + T; a++) {
    for (let r = 0; r < rows; r++) b[a]! += col(a, r) * y[r]!;
    for (let d = 0; d < c0 + T; d++) for (let r = 0; r < rows; r++) A[a * (c0 + T) + d]! += col(a, r) * col(d, r);
    A[a * (c0 + T) + a]! *= 1 + 1e-12;
  }
  return solveSpd(A, b);
}

/** JᵀJ and Jᵀe of the model's Jacobian at θ (written into J, rows × parameters). */
function powerNormalEquations(
  model: PowerModel,
  theta: Float64Array,
  m: Float64Array[],
  e: Float64Array,
  J: Float64Array,
): { JJ: Float64Array; Je: Float64Array } {
  const { rows, c0, T, F, np, L } = model;
  const intercept = c0 === 1;
  for (let r = 0; r < rows; r++) {
    const at = r * np;
    if (intercept) J[at] = 1;
    for (let k = 0; k < T; k++) {
      const mk = m[k]![r]!;
      J[at + c0 + k] = mk;
      const ck = theta[c0 + k]! * mk;
      const base = at + c0 + T + k * F;
      for (let f = 0; f < F; f++) J[base + f] = ck * L[f]![r]!;
    }
  }
  const JJ = new Float64Array(np * np);
  const Je = new Float64Array(np);
  for (let r = 0; r < rows; r++) {
    const at = r * np;
    for (let a = 0; a < np; a++) {
      const ja = J[at + a]!;
      if (ja === 0) continue;
      Je[a]! += ja * e[r]!;
      for (let d = a; d < np; d++) JJ[a * np + d]! += ja * J[at + d]!;
    }
  }
  for (let a = 0; a < np; a++) for (let d = 0; d < a; d++) JJ[a * np + d] = JJ[d * np + a]!;
  return { JJ, Je };
}
