/**
 * The leave-one-out NRMSE of a fitted sum of terms: what the NRMSE would be if each row were
 * predicted by the fit made without it. For coefficients fitted by least squares (inner weights
 * held at their values) it needs no refit: row i's left-out residual is r_i / (1 − h_ii), h the
 * hat matrix of the term columns (the PRESS statistic, Allen 1974). A term that only one row
 * needs (x⁻¹ at a row where x is nearly 0, fitting that row's noise) has a leverage near 1
 * there, and its train gain does not survive leaving that row out. Inner weights (sin(w·x)) are
 * fitted too: their columns are the fit's tangents ∂ŷ/∂w (the linearised model's hat matrix, as
 * for any nonlinear least squares), so that a fitted weight costs what a coefficient costs.
 */
import { evaluateEquation, evaluateFactor, type ColumnLookup, type SymbolLookup } from "../equation/index.js";
import { refitCoefficients } from "../equation/index.js";
import type { Equation } from "../equation/index.js";
import { std } from "../numeric/index.js";

/**
 * Leverages (the hat matrix's diagonal) of the columns: Σ_j q_ij² over an orthonormal basis of
 * their span (modified Gram–Schmidt, twice). A column inside the others' span adds nothing.
 */
export function leverages(columns: readonly ArrayLike<number>[], rows: number): Float64Array {
  const h = new Float64Array(rows);
  const basis: Float64Array[] = [];
  for (const column of columns) {
    const v = Float64Array.from(column);
    let norm0 = 0;
    for (let i = 0; i < rows; i++) norm0 += v[i]! * v[i]!;
    if (!(norm0 > 0) || !Number.isFinite(norm0)) continue;
    for (let pass = 0; pass < 2; pass++)
      for (const q of basis) {
        let d = 0;
        for (let i = 0; i < rows; i++) d += q[i]! * v[i]!;
        for (let i = 0; i < rows; i++) v[i] = v[i]! - d * q[i]!;
      }
    let norm = 0;
    for (let i = 0; i < rows; i++) norm += v[i]! * v[i]!;
    if (!(norm > 1e-20 * norm0)) continue;
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < rows; i++) {
      v[i] = v[i]! * scale;
      h[i] = h[i]! + v[i]! * v[i]!;
    }
    basis.push(v);
  }
  return h;
}

/** Rows with a leverage above this are left out by a refit (r/(1 − h) loses its digits as h nears 1). */
const REFIT_LEVERAGE = 0.9;

/**
 * Row `row`'s left-out residual by a refit: the fit's residual r, refitted by least squares on the
 * columns over every other row (the row zeroed in both), predicted at `row`. At a least-squares fit
 * this is r_i/(1 − h_ii) exactly, but it keeps its digits where h_ii is 1 − 10⁻¹² (a column that one
 * row dominates), and a column that is nothing without the row drops out (its coefficient is 0).
 */
function refitResidual(columns: readonly ArrayLike<number>[], r: Float64Array, row: number): number {
  const without = (values: ArrayLike<number>) => {
    const out = Float64Array.from(values);
    out[row] = 0;
    return out;
  };
  const coefficients = refitCoefficients(columns.map(without), without(r), r.length);
  return columns.reduce((left, c, j) => left - coefficients[j]! * c[row]!, r[row]!);
}

/**
 * Leave-one-out NRMSE from the fit's tangent columns (tangentColumns; plain terms with coefficient
 * 1), the target and the fit's prediction: r_i/(1 − h_ii) per row, a refit for the rows whose
 * leverage is above 0.9 (refitResidual).
 */
export function leaveOneOutNrmse(
  columns: readonly ArrayLike<number>[],
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
): number {
  const rows = yTrue.length;
  const h = leverages(columns, rows);
  const residual = Float64Array.from({ length: rows }, (_, i) => yTrue[i]! - yPred[i]!);
  let sum = 0;
  for (let i = 0; i < rows; i++) {
    const left = h[i]! > REFIT_LEVERAGE ? refitResidual(columns, residual, i) : residual[i]! / (1 - h[i]!);
    sum += left * left;
  }
  return Math.sqrt(sum / rows) / std(yTrue);
}

/**
 * The columns of a fitted equation's tangent plane: each term with coefficient 1, and for each
 * fitted inner weight w of a factor f(w·x), ∂ŷ/∂w = coefficient · x · f′(w·x) · (the term's other
 * factors). f′ is the symbol's derivative, or a central difference of its evaluate.
 */
export function tangentColumns(
  equation: Equation,
  symbols: SymbolLookup,
  columns: ColumnLookup,
  rows: number,
): Float64Array[] {
  const out: Float64Array[] = [];
  for (const term of equation.terms) {
    const values = term.factors.map((f) => evaluateFactor(f, symbols, columns(f.input)));
    const product = (skip: number) => {
      const p = new Float64Array(rows).fill(1);
      values.forEach((v, k) => {
        if (k !== skip) for (let i = 0; i < rows; i++) p[i] = p[i]! * v[i]!;
      });
      return p;
    };
    out.push(product(-1));
    term.factors.forEach((factor, k) => {
      const symbol = symbols(factor.symbol);
      if (!symbol.innerWeight || factor.weight === undefined) return;
      const w = factor.weight;
      const x = columns(factor.input);
      const slope = (u: number) => {
        if (symbol.derivative) return symbol.derivative(u);
        const step = 1e-6 * Math.max(1, Math.abs(u));
        return (symbol.evaluate(u + step) - symbol.evaluate(u - step)) / (2 * step);
      };
      const tangent = product(k);
      for (let i = 0; i < rows; i++) tangent[i] = tangent[i]! * term.coefficient * x[i]! * slope(w * x[i]!);
      out.push(tangent);
    });
  }
  return out;
}

/** The leave-one-out NRMSE of an equation on named columns, as fitted (tangentColumns). */
export function equationLeaveOneOut(
  equation: Equation,
  symbols: SymbolLookup,
  columns: ColumnLookup,
  rows: number,
): number {
  return leaveOneOutNrmse(
    tangentColumns(equation, symbols, columns, rows),
    columns(equation.target),
    evaluateEquation(equation, symbols, columns, rows),
  );
}
