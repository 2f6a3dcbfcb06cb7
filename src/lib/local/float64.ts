/**
 * The LoCaL forward pass and its analytic Jacobian in plain float64 JavaScript. It serves
 * the Levenberg–Marquardt polish after Adam, the `js` fitting engine, and the benchmark's
 * floor. Per row: a_k = f_k(w_k·x), p_j = Π_{k∈j} a_k, ŷ_o = Σ_{t→o} c_t·p_{j(t)}.
 */
import type { SymbolPlugin } from "../plugins/index.js";
import { runSteps, type Steps } from "../core/index.js";
import { householderQr, solveSpd } from "../numeric/index.js";
import type { CompiledLocal } from "./compiled.js";

type Columns = readonly ArrayLike<number>[];

function derivativeOf(symbol: SymbolPlugin): (u: number) => number {
  if (symbol.derivative) return symbol.derivative;
  // Central difference of the scalar reference; accurate to ~1e-10, enough for a Jacobian.
  return (u) => {
    const h = 1e-6 * Math.max(1, Math.abs(u));
    return (symbol.evaluate(u + h) - symbol.evaluate(u - h)) / (2 * h);
  };
}

export interface Float64Model {
  readonly parameters: number;
  /** ŷ per output. */
  predict(theta: ArrayLike<number>): Float64Array[];
  /** Σ_o Σ_i ((y−ŷ)·s_o)² where s_o = 1/std(y_o): the normalised sum of squares. */
  loss(theta: ArrayLike<number>): number;
  /**
   * Loss, JᵀJ (row-major p×p) and Jᵀr of the normalised residual r = (y−ŷ)·s_o, where J is
   * ∂ŷ·s/∂θ. With `gradientOnly` JᵀJ is left at zero (the loss gradient is −2·Jᵀr).
   */
  normalEquations(
    theta: ArrayLike<number>,
    gradientOnly?: boolean,
  ): { loss: number; jtj: Float64Array; jtr: Float64Array };
  /**
   * For the inner weights of θ held fixed ŷ is linear in the term coefficients: θ with the
   * coefficients replaced by their least-squares values (per output), and its loss. The loss
   * is NaN where a factor leaves its domain, +∞ where the products are collinear.
   */
  linearFit(theta: ArrayLike<number>): { theta: Float64Array; loss: number };
  /**
   * The same least-squares coefficients solved by Householder QR of the product columns (scaled
   * to unit norm) instead of the normal equations: exact where the products are nearly
   * collinear (the normal equations square the condition number). A column exactly dependent on
   * earlier ones gets coefficient 0. The loss is NaN where a factor leaves its domain.
   */
  leastSquares(theta: ArrayLike<number>): { theta: Float64Array; loss: number };
}

export function float64Model(c: CompiledLocal, x: Columns, y: Columns, scale: readonly number[]): Float64Model {
  const model = new LocalRows(c, x, y, scale);
  return {
    parameters: model.p,
    predict: (theta) => model.predict(theta),
    loss: (theta) => model.loss(theta),
    normalEquations: (theta, gradientOnly = false) => model.normalEquations(theta, gradientOnly),
    linearFit: (theta) => model.linearFit(theta),
    leastSquares: (theta) => model.leastSquares(theta),
  };
}

/**
 * The compiled model over the data, row by row: `fill` computes one row's activations, their
 * derivatives and the products into scratch arrays that every pass reuses.
 */
class LocalRows {
  readonly rows: number;
  readonly nK: number;
  /** Inner weights: θ[0, nI) are the weights, θ[nI, p) the term coefficients. */
  readonly nI: number;
  readonly p: number;
  readonly outputs: number;
  /** Neuron k's inner weight's index in θ, or −1 for a neuron without one. */
  private readonly innerOf: Int32Array;
  private readonly f: ((u: number) => number)[];
  private readonly df: ((u: number) => number)[];
  private readonly cols: ArrayLike<number>[];
  /** The terms of each output, by index into c.terms. */
  readonly termsOf: number[][];
  /** One row's activations a_k, their derivatives ∂a_k/∂w_k and the products p_j. */
  readonly a: Float64Array;
  readonly da: Float64Array;
  readonly prod: Float64Array;

  constructor(
    readonly c: CompiledLocal,
    x: Columns,
    readonly y: Columns,
    readonly scale: readonly number[],
  ) {
    this.rows = x[0]?.length ?? 0;
    this.nK = c.neurons.length;
    this.nI = c.inner.length;
    this.p = this.nI + c.terms.length;
    const innerOf = new Int32Array(this.nK).fill(-1);
    c.inner.forEach((k, q) => {
      innerOf[k] = q;
    });
    this.innerOf = innerOf;
    this.f = c.neurons.map((n) => n.symbol.evaluate);
    this.df = c.neurons.map((n) => derivativeOf(n.symbol));
    this.cols = c.neurons.map((n) => x[n.input]!);
    this.outputs = c.structure.outputs.length;
    this.termsOf = Array.from({ length: this.outputs }, (_, o) =>
      c.terms.flatMap((t, q) => (t.output === o ? [q] : [])),
    );
    this.a = new Float64Array(this.nK);
    this.da = new Float64Array(this.nK);
    this.prod = new Float64Array(c.products.length);
  }

  /** Fills a, da (∂a/∂w) and prod for row i. */
  fill(theta: ArrayLike<number>, i: number, withDerivative: boolean): void {
    const { c, a, da, prod, innerOf, f, df, cols } = this;
    for (let k = 0; k < this.nK; k++) {
      const xi = cols[k]![i]!;
      const q = innerOf[k]!;
      const w = q >= 0 ? theta[q]! : 1;
      a[k] = f[k]!(w * xi);
      if (withDerivative && q >= 0) da[k] = df[k]!(w * xi) * xi;
    }
    for (let j = 0; j < c.products.length; j++) {
      let v = 1;
      for (const k of c.products[j]!) v *= a[k]!;
      prod[j] = v;
    }
  }

  predict(theta: ArrayLike<number>): Float64Array[] {
    const { c, rows, outputs, nI, termsOf, prod } = this;
    const out = Array.from({ length: outputs }, () => new Float64Array(rows));
    for (let i = 0; i < rows; i++) {
      this.fill(theta, i, false);
      for (let o = 0; o < outputs; o++) {
        let v = 0;
        for (const q of termsOf[o]!) v += theta[nI + q]! * prod[c.terms[q]!.product]!;
        out[o]![i] = v;
      }
    }
    return out;
  }

  loss(theta: ArrayLike<number>): number {
    const { rows, y, scale } = this;
    const yhat = this.predict(theta);
    let sum = 0;
    for (let o = 0; o < this.outputs; o++) {
      const s = scale[o]!;
      const yo = y[o]!;
      const ho = yhat[o]!;
      for (let i = 0; i < rows; i++) {
        const r = (yo[i]! - ho[i]!) * s;
        sum += r * r;
      }
    }
    return sum;
  }

  normalEquations(theta: ArrayLike<number>, gradientOnly: boolean) {
    const { p, rows, outputs, y, scale } = this;
    const jtj = new Float64Array(p * p);
    const jtr = new Float64Array(p);
    const J = new Float64Array(p);
    let sum = 0;
    for (let i = 0; i < rows; i++) {
      this.fill(theta, i, true);
      for (let o = 0; o < outputs; o++) {
        const s = scale[o]!;
        const yhat = this.jacobianRow(theta, o, s, J);
        const r = (y[o]![i]! - yhat) * s;
        sum += r * r;
        for (let u = 0; u < p; u++) {
          const ju = J[u]!;
          if (ju === 0) continue;
          jtr[u] = jtr[u]! + ju * r;
          if (gradientOnly) continue;
          for (let v = u; v < p; v++) jtj[u * p + v] = jtj[u * p + v]! + ju * J[v]!;
        }
      }
    }
    for (let u = 0; u < p; u++) for (let v = 0; v < u; v++) jtj[u * p + v] = jtj[v * p + u]!;
    return { loss: sum, jtj, jtr };
  }

  /** For the filled row: output o's ŷ, and J (cleared first) = ∂ŷ_o·s/∂θ. */
  private jacobianRow(theta: ArrayLike<number>, o: number, s: number, J: Float64Array): number {
    const { c, nI, a, da, prod, innerOf } = this;
    J.fill(0);
    let yhat = 0;
    for (const q of this.termsOf[o]!) {
      const term = c.terms[q]!;
      const cq = theta[nI + q]!;
      const pj = prod[term.product]!;
      yhat += cq * pj;
      J[nI + q] = pj * s;
      const factors = c.products[term.product]!;
      for (const k of factors) {
        const qi = innerOf[k]!;
        if (qi < 0) continue;
        let others = 1;
        for (const k2 of factors) if (k2 !== k) others *= a[k2]!;
        J[qi] = J[qi]! + cq * others * da[k]! * s;
      }
    }
    return yhat;
  }

  linearFit(theta: ArrayLike<number>): { theta: Float64Array; loss: number } {
    const { c, rows, nI, prod, y, scale } = this;
    const out = Float64Array.from(theta);
    let total = 0;
    for (let o = 0; o < this.outputs; o++) {
      const terms = this.termsOf[o]!;
      const m = terms.length;
      if (m === 0) continue;
      const A = new Float64Array(m * m);
      const b = new Float64Array(m);
      const yo = y[o]!;
      let yy = 0;
      for (let i = 0; i < rows; i++) {
        this.fill(theta, i, false);
        const yi = yo[i]!;
        yy += yi * yi;
        for (let u = 0; u < m; u++) {
          const pu = prod[c.terms[terms[u]!]!.product]!;
          b[u] = b[u]! + pu * yi;
          for (let v = u; v < m; v++) A[u * m + v] = A[u * m + v]! + pu * prod[c.terms[terms[v]!]!.product]!;
        }
      }
      for (let u = 0; u < m; u++) for (let v = 0; v < u; v++) A[u * m + v] = A[v * m + u]!;
      if (!A.every(Number.isFinite) || !b.every(Number.isFinite)) return { theta: out, loss: Number.NaN };
      for (let u = 0; u < m; u++) A[u * m + u] = A[u * m + u]! * (1 + 1e-12) + 1e-300;
      const coefficients = solveSpd(A, b);
      if (!coefficients) return { theta: out, loss: Number.POSITIVE_INFINITY };
      // Residual Σ(y − ŷ)² = yᵀy − cᵀb at the least-squares c (clamped: rounding near an exact fit).
      let explained = 0;
      terms.forEach((q, u) => {
        out[nI + q] = coefficients[u]!;
        explained += coefficients[u]! * b[u]!;
      });
      total += Math.max(0, yy - explained) * scale[o]! ** 2;
    }
    return { theta: out, loss: total };
  }

  leastSquares(theta: ArrayLike<number>): { theta: Float64Array; loss: number } {
    const { c, rows, nI, prod } = this;
    const out = Float64Array.from(theta);
    for (let o = 0; o < this.outputs; o++) {
      const terms = this.termsOf[o]!;
      if (terms.length === 0) continue;
      const columns = terms.map(() => new Float64Array(rows));
      for (let i = 0; i < rows; i++) {
        this.fill(theta, i, false);
        terms.forEach((q, u) => {
          columns[u]![i] = prod[c.terms[q]!.product]!;
        });
      }
      const coefficients = refinedLeastSquares(columns, this.y[o]!, rows);
      if (!coefficients) return { theta: out, loss: Number.NaN };
      terms.forEach((q, u) => {
        out[nI + q] = coefficients[u]!;
      });
    }
    return { theta: out, loss: this.loss(out) };
  }
}

/**
 * Least-squares coefficients of y on the columns by Householder QR (which overwrites the columns),
 * with one step of iterative refinement kept where it lowers the residual; undefined when QR fails.
 */
function refinedLeastSquares(columns: Float64Array[], y: ArrayLike<number>, rows: number): Float64Array | undefined {
  const kept = columns.map((a) => Float64Array.from(a));
  const solver = householderQr(columns, { overwrite: true });
  const coefficients = solver?.solve(y);
  if (!solver || !coefficients) return undefined;
  // One step of iterative refinement: the residual's own least squares, added. An exact fit
  // then lands on the coefficients that reproduce y to the last bit (4, not 3.9999999999999947).
  const residual = Float64Array.from(y);
  kept.forEach((a, u) => {
    const cu = coefficients[u]!;
    for (let i = 0; i < rows; i++) residual[i] = residual[i]! - cu * a[i]!;
  });
  const correction = solver.solve(residual);
  let before = 0;
  let after = 0;
  if (correction) {
    // A·correction column by column (each row's sum in the columns' order, as row by row).
    const d = new Float64Array(rows);
    kept.forEach((a, u) => {
      const cu = correction[u]!;
      for (let i = 0; i < rows; i++) d[i] = d[i]! + cu * a[i]!;
    });
    for (let i = 0; i < rows; i++) {
      before += residual[i]! * residual[i]!;
      after += (residual[i]! - d[i]!) * (residual[i]! - d[i]!);
    }
  }
  return coefficients.map((cu, u) => cu + (correction && after < before ? correction[u]! : 0));
}

export interface PolishResult {
  theta: Float64Array;
  loss: number;
  iterations: number;
}

/**
 * Levenberg–Marquardt (Marquardt's diagonal scaling). A step that leaves a symbol's domain
 * gives a NaN loss and is rejected like any step that does not descend.
 */
export function levenbergMarquardt(model: Float64Model, start: ArrayLike<number>, maxIterations = 100): PolishResult {
  return runSteps(levenbergMarquardtSteps(model, start, maxIterations));
}

/** levenbergMarquardt in steps: it yields before each iteration (clock.ts), the same iterations. */
export function* levenbergMarquardtSteps(
  model: Float64Model,
  start: ArrayLike<number>,
  maxIterations = 100,
): Steps<PolishResult> {
  let theta = Float64Array.from(start);
  let { loss, jtj, jtr } = model.normalEquations(theta);
  // Start damped (λ = 1: about half the Gauss–Newton step, leaning to the gradient). With the
  // textbook 1e-3, the first undamped step from syn1's y1 after 50 Adam steps (cos weight ≈ 1.5)
  // jumped to the cos(4.4·x2) basin in 10 of 10 seeds; with 1, 0 of 300 fits failed.
  let lambda = 1;
  let iterations = 0;
  const p = model.parameters;
  if (!Number.isFinite(loss)) return { theta, loss, iterations };
  while (iterations < maxIterations && loss > 1e-28 && lambda < 1e16) {
    yield;
    iterations++;
    const A = Float64Array.from(jtj);
    for (let u = 0; u < p; u++) A[u * p + u] = A[u * p + u]! * (1 + lambda) + 1e-300 + lambda * 1e-12;
    const delta = solveSpd(A, jtr);
    if (!delta) {
      lambda *= 10;
      continue;
    }
    const next = theta.map((t, u) => t + delta[u]!);
    const nextLoss = model.loss(next);
    if (Number.isFinite(nextLoss) && nextLoss < loss) {
      const improvement = (loss - nextLoss) / loss;
      theta = next;
      ({ loss, jtj, jtr } = model.normalEquations(theta));
      lambda = Math.max(lambda * 0.3, 1e-12);
      if (improvement < 1e-12) break;
    } else lambda *= 10;
  }
  return { theta, loss, iterations };
}

/**
 * BFGS on the model's loss (the inverse-Hessian update of Nocedal & Wright §6.1) with a
 * backtracking Armijo line search, from `start`: the ablation's "BFGS instead of Adam + LM"
 * (paper §5.4). A step that leaves a symbol's domain (NaN loss) is backtracked like any step that
 * does not descend. Stops when the gradient or the step vanishes, or after `maxIterations`.
 */
export function bfgs(model: Float64Model, start: ArrayLike<number>, maxIterations = 200): PolishResult {
  const p = model.parameters;
  let theta = Float64Array.from(start);
  let { loss, jtr } = model.normalEquations(theta, true);
  if (!Number.isFinite(loss)) return { theta, loss, iterations: 0 };
  // The gradient of the loss is −2·Jᵀr.
  let g = jtr.map((v) => -2 * v);
  const H = new Float64Array(p * p);
  for (let u = 0; u < p; u++) H[u * p + u] = 1;
  let iterations = 0;
  while (iterations < maxIterations && loss > 1e-28) {
    iterations++;
    const d = new Float64Array(p);
    for (let u = 0; u < p; u++) {
      let s = 0;
      for (let v = 0; v < p; v++) s -= H[u * p + v]! * g[v]!;
      d[u] = s;
    }
    let slope = 0;
    for (let u = 0; u < p; u++) slope += g[u]! * d[u]!;
    if (!(slope < 0)) {
      // Not a descent direction: restart from the gradient.
      H.fill(0);
      for (let u = 0; u < p; u++) {
        H[u * p + u] = 1;
        d[u] = -g[u]!;
      }
      slope = -g.reduce((s, v) => s + v * v, 0);
      if (slope === 0) break;
    }
    let step = 1;
    let next = theta;
    let nextLoss = Number.NaN;
    for (let tries = 0; tries < 60; tries++, step *= 0.5) {
      next = theta.map((t, u) => t + step * d[u]!);
      nextLoss = model.loss(next);
      if (Number.isFinite(nextLoss) && nextLoss <= loss + 1e-4 * step * slope) break;
    }
    if (!(Number.isFinite(nextLoss) && nextLoss < loss)) break;
    const improvement = (loss - nextLoss) / loss;
    const nextEq = model.normalEquations(next, true);
    const gNext = nextEq.jtr.map((v) => -2 * v);
    const s = next.map((t, u) => t - theta[u]!);
    const y = gNext.map((v, u) => v - g[u]!);
    let sy = 0;
    for (let u = 0; u < p; u++) sy += s[u]! * y[u]!;
    if (sy > 1e-300) {
      // H ← (I − ρ s yᵀ) H (I − ρ y sᵀ) + ρ s sᵀ, ρ = 1 / sᵀy.
      const rho = 1 / sy;
      const Hy = new Float64Array(p);
      for (let u = 0; u < p; u++) {
        let t = 0;
        for (let v = 0; v < p; v++) t += H[u * p + v]! * y[v]!;
        Hy[u] = t;
      }
      let yHy = 0;
      for (let u = 0; u < p; u++) yHy += y[u]! * Hy[u]!;
      for (let u = 0; u < p; u++)
        for (let v = 0; v < p; v++)
          H[u * p + v] =
            H[u * p + v]! - rho * (Hy[u]! * s[v]! + s[u]! * Hy[v]!) + (rho * rho * yHy + rho) * s[u]! * s[v]!;
    }
    theta = next;
    loss = nextLoss;
    g = gNext;
    if (improvement < 1e-14) break;
  }
  return { theta, loss, iterations };
}
