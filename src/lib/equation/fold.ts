/**
 * Folding near-degenerate factors, so that the answer the search chooses does not carry a
 * nonlinear symbol that only stands in for x or 1 on the data. Over U(1,2), sin(0.0005587·x2) is
 * 0.0005587·x2 to 8 digits and exp(0.0001·x1) is 1 + 0.0001·x1: a fit of y = x1·x2 with two
 * terms may come back as 0.9985·x1·x2 + 2.676·x1·sin(0.0005587·x2), which is x1·x2.
 *
 * The rule, decided on the data rather than by symbol name:
 *
 * 1. Screen. A factor f (any symbol but the identity "x") is near-affine on the data when its
 *    values are fitted by b·x or, failing that, by a + b·x (least squares on its input column)
 *    with a maximum deviation ≤ tolerance · (max f − min f) (tolerance 1e-4). On U(1,2) this
 *    passes sin(w·x) for w ≲ 0.03, exp(w·x) for w ≲ 0.0016, and no fixed-shape symbol: x² is
 *    off an affine by ~4 % of its range there, sqrt and log by 2–5 %.
 * 2. Fold. Such a factor is replaced by b·x (the term keeps its other factors) or a + b·x (the
 *    term splits in two: the constant part drops the factor). The identity symbol "x" must be in
 *    the registry, else nothing folds. A term that already has x on that input needs the symbol
 *    equal to x·x on the data (x^2 in the built-ins); without one that fold is skipped.
 * 3. Refit. Equal terms merge (simplifyEquation), every coefficient is refitted by linear least
 *    squares on the term columns (the output is linear in the coefficients for fixed inner
 *    weights; a column within 1.5e-8 of the span of the earlier ones gets 0 and goes), and
 *    simplifyEquation drops negligible terms and puts the result in canonical order.
 * 4. Accept. The folded equation replaces the original when it is no more complex
 *    (Σ over terms of 1 + Σ symbol complexities, as the hall of fame counts) and fits as well:
 *    NRMSE_folded ≤ NRMSE_original · (1 + slack) + floor, slack 1e-3, floor 1e-9 (the hall of
 *    fame's floor for fits at machine precision). The bound is always against the original, so
 *    several folds cannot add up to more than it.
 *
 * All screened folds are tried together first; if that is refused, each alone, keeping the
 * simplest accepted one, and again from there. An equation with nothing to fold comes back as
 * it was, with ŷ computed in the same order of operations as evaluateEquation (same bits).
 */
import type { ColumnLookup } from "./evaluate.js";
import { simplifyEquation, type SimplifyOptions } from "./simplify.js";
import type { Equation, Factor, Term } from "./types.js";
import { gramSchmidt, nrmse as nrmseOf } from "../numeric/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import { pow } from "../core/index.js";

export interface FoldOptions extends SimplifyOptions {
  columns: ColumnLookup;
  rows: number;
  /** The target column the equation is fitted to. */
  y: ArrayLike<number>;
  /**
   * Screen: a factor folds when its maximum deviation from b·x or a + b·x
   * is ≤ tolerance of its range (1e-4); also simplifyEquation's tolerance.
   */
  tolerance?: number;
  /** Relative NRMSE a fold may cost (1e-3). */
  slack?: number;
  /** Absolute NRMSE a fold may cost on top of the slack (1e-9). */
  floor?: number;
}

export interface FoldResult {
  /** The folded equation, or the one given when no fold fits as well. */
  equation: Equation;
  /** Its NRMSE on y (NaN when ŷ has NaN). */
  nrmse: number;
  /** Its ŷ on the columns. */
  predicted: Float64Array;
  /** Whether the equation returned is not the one given. */
  folded: boolean;
}

/** The identity symbol a near-affine factor becomes. */
const IDENTITY = "x";
/** A column this close (relative) to the span of the earlier ones is dependent in the refit. */
const DEPENDENT = 1.5e-8;

interface Affine {
  /** a of a + b·x; 0 when b·x alone passed the screen. */
  a: number;
  b: number;
}

interface State {
  equation: Equation;
  nrmse: number;
  predicted: Float64Array;
  complexity: number;
}

interface Candidate {
  term: number;
  factor: number;
  model: Affine;
}

export function foldNearDegenerate(equation: Equation, options: FoldOptions): FoldResult {
  const slack = options.slack ?? 1e-3;
  const floor = options.floor ?? 1e-9;
  const folder = new Folder(options);
  const original = folder.stateOf(equation);
  if (!Number.isFinite(original.nrmse) || lookup(options.symbols, IDENTITY) === undefined)
    return { equation, nrmse: original.nrmse, predicted: original.predicted, folded: false };
  const limit = original.nrmse * (1 + slack) + floor;
  const rounds = equation.terms.reduce((n, t) => n + t.factors.length, 0);
  const current = folder.foldWhileAccepted(original, limit, rounds);
  if (current === original) return { equation, nrmse: original.nrmse, predicted: original.predicted, folded: false };
  return { equation: current.equation, nrmse: current.nrmse, predicted: current.predicted, folded: true };
}

/**
 * One fold of one equation on one data set: the factor values it has computed (each factor once),
 * the power symbols it has looked up, and the steps of the rule above as methods.
 */
class Folder {
  private readonly tolerance: number;
  private readonly columns: ColumnLookup;
  private readonly rows: number;
  private readonly y: ArrayLike<number>;
  private readonly symbols: FoldOptions["symbols"];
  private readonly symbolOrder: FoldOptions["symbolOrder"];
  /** simplifyEquation's options with the columns: the data-dependent drops too. */
  private readonly simplifyOptions: SimplifyOptions;
  /** simplifyEquation's options without the columns: merge and order only. */
  private readonly mergeOptions: SimplifyOptions;
  /** A factor's values, by symbol, input and weight. */
  private readonly cache = new Map<string, Float64Array>();
  /** The symbol equal to x^k on an input (null: none), by input and k. */
  private readonly powers = new Map<string, string | null>();

  constructor(options: FoldOptions) {
    const tolerance = options.tolerance ?? 1e-4;
    const { columns, rows, y } = options;
    this.tolerance = tolerance;
    this.columns = columns;
    this.rows = rows;
    this.y = y;
    this.symbols = options.symbols;
    this.symbolOrder = options.symbolOrder;
    this.simplifyOptions = {
      symbols: options.symbols,
      inputOrder: options.inputOrder,
      symbolOrder: options.symbolOrder,
      columns,
      rows,
      tolerance,
    };
    this.mergeOptions = {
      symbols: options.symbols,
      inputOrder: options.inputOrder,
      symbolOrder: options.symbolOrder,
      tolerance,
    };
  }

  /**
   * Folds from `start` as long as a fold is accepted, at most `rounds` times: all screened folds
   * together, else the simplest accepted single fold; returns `start` itself when none is.
   */
  foldWhileAccepted(start: State, limit: number, rounds: number): State {
    let current = start;
    while (rounds-- > 0) {
      const candidates = this.candidatesOf(current.equation);
      if (candidates.length === 0) break;
      const together = this.finish(this.apply(current.equation, candidates));
      if (acceptable(together, current, limit)) {
        current = together;
        continue;
      }
      const best = candidates.length > 1 ? this.bestSingleFold(current, candidates, limit) : undefined;
      if (!best) break;
      current = best;
    }
    return current;
  }

  /** The simplest (then best-fitting) accepted fold of one candidate alone; the first of equals. */
  private bestSingleFold(current: State, candidates: readonly Candidate[], limit: number): State | undefined {
    let best: State | undefined;
    for (const candidate of candidates) {
      const alone = this.finish(this.apply(current.equation, [candidate]));
      if (!acceptable(alone, current, limit)) continue;
      if (
        !best ||
        alone.complexity < best.complexity ||
        (alone.complexity === best.complexity && alone.nrmse < best.nrmse)
      )
        best = alone;
    }
    return best;
  }

  stateOf(eq: Equation): State {
    const predicted = this.predict(eq);
    return { equation: eq, predicted, nrmse: nrmseOf(this.y, predicted), complexity: this.complexityOf(eq) };
  }

  private valuesOf(factor: Factor): Float64Array {
    const key = `${factor.symbol}\u0000${factor.input}\u0000${factor.weight ?? ""}`;
    let values = this.cache.get(key);
    if (!values) {
      // evaluateFactor's values, without its iterator-driven Float64Array.from.
      const symbol = this.symbols(factor.symbol);
      const w = symbol.innerWeight ? (factor.weight ?? 1) : 1;
      const column = this.columns(factor.input);
      values = new Float64Array(this.rows);
      for (let i = 0; i < this.rows; i++) values[i] = symbol.evaluate(w * column[i]!);
      this.cache.set(key, values);
    }
    return values;
  }

  // Same operations, in the same order, as evaluateTerm and evaluateEquation.
  private termValues(term: Term): Float64Array {
    const rows = this.rows;
    const out = new Float64Array(rows).fill(term.coefficient);
    for (const factor of term.factors) {
      const values = this.valuesOf(factor);
      for (let i = 0; i < rows; i++) out[i] = out[i]! * values[i]!;
    }
    return out;
  }

  private predict(eq: Equation): Float64Array {
    const rows = this.rows;
    const out = new Float64Array(rows);
    for (const term of eq.terms) {
      const values = this.termValues(term);
      for (let i = 0; i < rows; i++) out[i] = out[i]! + values[i]!;
    }
    return out;
  }

  private complexityOf(eq: Equation): number {
    return eq.terms.reduce(
      (sum, t) => sum + 1 + t.factors.reduce((s, f) => s + this.symbols(f.symbol).complexity, 0),
      0,
    );
  }

  /** Step 1: the factors that pass the screen, with their affine stand-ins. */
  private candidatesOf(eq: Equation): Candidate[] {
    const out: Candidate[] = [];
    eq.terms.forEach((term, t) => {
      term.factors.forEach((factor, j) => {
        if (factor.symbol === IDENTITY) return;
        const model = nearAffine(this.columns(factor.input), this.valuesOf(factor), this.rows, this.tolerance);
        if (model) out.push({ term: t, factor: j, model });
      });
    });
    return out;
  }

  /** The registered symbol equal to x^k on an input's data (x·x → x^2), for a term that would hold x twice. */
  private powerSymbol(input: string, k: number): string | undefined {
    const key = `${input}\u0000${k}`;
    if (!this.powers.has(key)) {
      const column = this.columns(input);
      const found = this.symbolOrder.find((name) => {
        const symbol = lookup(this.symbols, name);
        if (!symbol || symbol.innerWeight || name === IDENTITY) return false;
        for (let i = 0; i < this.rows; i++) {
          const want = pow(column[i]!, k);
          if (!(Math.abs(symbol.evaluate(column[i]!) - want) <= 1e-12 * Math.max(1, Math.abs(want)))) return false;
        }
        return true;
      });
      this.powers.set(key, found ?? null);
    }
    return this.powers.get(key) ?? undefined;
  }

  /** A term's factors with repeated x on one input replaced by the power symbol; undefined if there is none. */
  private withoutRepeats(term: Term): Term | undefined {
    const counts = new Map<string, number>();
    for (const f of term.factors) if (f.symbol === IDENTITY) counts.set(f.input, (counts.get(f.input) ?? 0) + 1);
    if ([...counts.values()].every((k) => k <= 1)) return term;
    const factors = term.factors.filter((f) => f.symbol !== IDENTITY || counts.get(f.input) === 1);
    for (const [input, k] of counts) {
      if (k <= 1) continue;
      const name = this.powerSymbol(input, k);
      if (!name || factors.some((f) => f.symbol === name && f.input === input)) return undefined;
      factors.push({ symbol: name, input });
    }
    return { coefficient: term.coefficient, factors };
  }

  /**
   * Step 2: the equation with the chosen factors folded (before merging); undefined when a term
   * cannot hold the result.
   */
  private apply(eq: Equation, chosen: readonly Candidate[]): Equation | undefined {
    const terms: Term[] = [];
    for (let t = 0; t < eq.terms.length; t++) {
      for (const part of foldTerm(eq.terms[t]!, t, chosen)) {
        const clean = this.withoutRepeats(part);
        if (!clean) return undefined;
        terms.push(clean);
      }
    }
    return { target: eq.target, terms };
  }

  /** Step 3: merge, refit the coefficients, drop what is negligible, score. */
  private finish(eq: Equation | undefined): State | undefined {
    if (!eq) return undefined;
    // Merge and order only: the data-dependent drops wait for the refitted coefficients.
    const merged = simplifyEquation(eq, this.mergeOptions);
    const basis = merged.terms.map((term) => this.termValues({ coefficient: 1, factors: term.factors }));
    const coefficients = refitCoefficients(basis, this.y, this.rows);
    if (!coefficients.every(Number.isFinite)) return undefined;
    const refitted: Equation = {
      target: merged.target,
      terms: merged.terms
        .map((term, k) => ({ coefficient: coefficients[k]!, factors: term.factors }))
        .filter((term) => term.coefficient !== 0),
    };
    const state = this.stateOf(simplifyEquation(refitted, this.simplifyOptions));
    return Number.isFinite(state.nrmse) ? state : undefined;
  }
}

/** Step 4: a trial is accepted when it fits within the limit and is no more complex. */
const acceptable = (trial: State | undefined, current: State, limit: number): trial is State =>
  trial !== undefined && trial.nrmse <= limit && trial.complexity <= current.complexity;

/**
 * Term number t with its chosen factors replaced by b·x, or split in two by a + b·x: the parts,
 * before repeated x are merged.
 */
function foldTerm(term: Term, t: number, chosen: readonly Candidate[]): Term[] {
  let parts: Term[] = [{ coefficient: term.coefficient, factors: [] }];
  term.factors.forEach((factor, j) => {
    const model = chosen.find((c) => c.term === t && c.factor === j)?.model;
    if (!model) {
      for (const part of parts) part.factors.push(factor);
      return;
    }
    const next: Term[] = [];
    for (const part of parts) {
      if (model.a !== 0) next.push({ coefficient: part.coefficient * model.a, factors: [...part.factors] });
      next.push({
        coefficient: part.coefficient * model.b,
        factors: [...part.factors, { symbol: IDENTITY, input: factor.input }],
      });
    }
    parts = next;
  });
  return parts;
}

/** The symbol, or undefined when the lookup does not know it (a Registry's get throws). */
function lookup(symbols: FoldOptions["symbols"], name: string): SymbolPlugin | undefined {
  try {
    return symbols(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * b·x, else a + b·x, fitted to f over x by least squares, when its largest deviation is
 * ≤ tolerance · range(f); undefined when neither is, or f is not finite or does not vary.
 */
export function nearAffine(
  x: ArrayLike<number>,
  f: ArrayLike<number>,
  rows: number,
  tolerance: number,
): Affine | undefined {
  if (rows < 3) return undefined;
  let fLo = Infinity;
  let fHi = -Infinity;
  let xLo = Infinity;
  let xHi = -Infinity;
  let sx = 0;
  let sf = 0;
  let sxx = 0;
  let sxf = 0;
  for (let i = 0; i < rows; i++) {
    const xi = x[i]!;
    const fi = f[i]!;
    if (!Number.isFinite(fi) || !Number.isFinite(xi)) return undefined;
    if (fi < fLo) fLo = fi;
    if (fi > fHi) fHi = fi;
    if (xi < xLo) xLo = xi;
    if (xi > xHi) xHi = xi;
    sx += xi;
    sf += fi;
    sxx += xi * xi;
    sxf += xi * fi;
  }
  const range = fHi - fLo;
  if (!(range > 0) || !(xHi > xLo)) return undefined;
  const bound = tolerance * range;
  const deviation = (a: number, b: number) => {
    let worst = 0;
    for (let i = 0; i < rows; i++) {
      const d = Math.abs(f[i]! - a - b * x[i]!);
      if (d > worst) worst = d;
    }
    return worst;
  };
  const slope = sxf / sxx;
  if (deviation(0, slope) <= bound) return { a: 0, b: slope };
  const mx = sx / rows;
  const mf = sf / rows;
  let cxx = 0;
  let cxf = 0;
  for (let i = 0; i < rows; i++) {
    const dx = x[i]! - mx;
    cxx += dx * dx;
    cxf += dx * (f[i]! - mf);
  }
  const b = cxf / cxx;
  const a = mf - b * mx;
  return deviation(a, b) <= bound ? { a, b } : undefined;
}

/**
 * Least-squares coefficients of y on the columns, over the first `rows` rows (numeric/linalg's
 * Gram–Schmidt). A column within DEPENDENT (relative) of the span of the earlier ones, or not
 * finite, gets 0.
 */
export function refitCoefficients(basis: readonly ArrayLike<number>[], y: ArrayLike<number>, rows: number): number[] {
  return gramSchmidt(basis, { dependent: DEPENDENT, rows }).solve(y);
}
