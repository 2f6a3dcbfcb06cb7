/**
 * Simplification to a canonical form, applied to learned equations and to ground truth alike
 * so they can be compared (docs/design.md#metrics): identifiable scales folded into coefficients
 * (sqrt(2.2·x) → 1.483·sqrt(x)), even/odd symmetries (cos(−w·x), sin(−w·x)), factors that are
 * constant on the data (cos(0.005·x1) on U(1,2), x of a constant column) folded, equal terms merged, negligible terms
 * dropped, and a canonical order of factors and terms.
 */
import { evaluateFactor, evaluateTerm, type ColumnLookup, type SymbolLookup } from "./evaluate.js";
import type { Equation, Factor, Term } from "./types.js";
import { fraction, powerName, powerOfName } from "../plugins/index.js";

export interface SimplifyOptions {
  symbols: SymbolLookup;
  /** Canonical order of inputs and symbols (factors sort by input, then symbol). */
  inputOrder: readonly string[];
  symbolOrder: readonly string[];
  /** Training data, to find factors constant on it and terms negligible on it. */
  columns?: ColumnLookup;
  rows?: number;
  /** Relative size below which a factor's variation or a term's contribution is dropped (1e-4). */
  tolerance?: number;
}

const rms = (values: ArrayLike<number>) => {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, values.length));
};

function sameWeight(a: number | undefined, b: number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * c·F·f(w·x) = c·F·f(x) + c·shift·F for a symbol with a `shift` (log): where the equation also
 * has the term F alone (the constant, when F has no factor), the shift joins its coefficient and
 * the weight goes, so log(0.5864·x) + 0.5337 reads log(x). Terms are changed in place.
 */
function shiftWeights(terms: Term[], options: Pick<SimplifyOptions, "symbols">): void {
  for (const term of terms) {
    const at = term.factors.findIndex(
      (f) => f.weight !== undefined && f.weight !== 1 && options.symbols(f.symbol).shift,
    );
    if (at < 0 || term.factors.filter((f) => options.symbols(f.symbol).shift).length > 1) continue;
    const rest: Term = { coefficient: 0, factors: term.factors.filter((_, k) => k !== at) };
    const host = terms.find((t) => t !== term && sameFactors(t, rest));
    if (!host) continue;
    const factor = term.factors[at]!;
    const moved = options.symbols(factor.symbol).shift!(factor.weight!);
    if (!Number.isFinite(moved.shift) || moved.weight !== 1) continue;
    host.coefficient += term.coefficient * moved.shift;
    term.factors[at] = { ...factor, weight: 1 };
  }
}

/** A symbol's place in the order: the pool's symbols first, derived powers after them by power. */
function symbolRank(name: string, order: readonly string[]): number {
  const i = order.indexOf(name);
  return i >= 0 ? i : order.length + (powerOfName(name) ?? 0) / 1000;
}

export function compareFactors(a: Factor, b: Factor, o: Pick<SimplifyOptions, "inputOrder" | "symbolOrder">): number {
  return (
    o.inputOrder.indexOf(a.input) - o.inputOrder.indexOf(b.input) ||
    symbolRank(a.symbol, o.symbolOrder) - symbolRank(b.symbol, o.symbolOrder) ||
    (a.weight ?? 1) - (b.weight ?? 1)
  );
}

/**
 * The factors with every input's powers multiplied into one factor (powers.ts): those whose
 * symbol declares a power and has no inner weight, or has it folded to 1 (sqrt). An input with
 * one such factor keeps it as it is; powers that cancel leave no factor (α·α⁻¹ → 1).
 */
export function mergePowers(
  factors: readonly Factor[],
  options: Pick<SimplifyOptions, "symbols" | "symbolOrder">,
): Factor[] {
  const powerOf = (f: Factor): number | undefined => {
    const p = options.symbols(f.symbol).power;
    return p !== undefined && (f.weight === undefined || f.weight === 1) ? p : undefined;
  };
  const count = new Map<string, number>();
  for (const f of factors) if (powerOf(f) !== undefined) count.set(f.input, (count.get(f.input) ?? 0) + 1);
  if (![...count.values()].some((k) => k > 1)) return [...factors];
  const total = new Map<string, number>();
  for (const f of factors) {
    const p = powerOf(f);
    if (p !== undefined && count.get(f.input)! > 1) total.set(f.input, (total.get(f.input) ?? 0) + p);
  }
  const merged = new Map([...total].map(([input, p]) => [input, powerFactor(p, input, options)]));
  const out: Factor[] = [];
  for (const f of factors) {
    const m = merged.get(f.input);
    // Not merged: no power, alone on its input, or a power no symbol can write (x^(1/13)).
    if (powerOf(f) === undefined || m === undefined) out.push(f);
    else if (m !== null) {
      out.push(m);
      merged.set(f.input, null);
    }
  }
  return out;
}

/**
 * The factor input^p: a pool symbol of that power (one without an inner weight first), else a
 * derived one; null when the powers cancel, undefined when no symbol can write p.
 */
function powerFactor(
  p: number,
  input: string,
  options: Pick<SimplifyOptions, "symbols" | "symbolOrder">,
): Factor | null | undefined {
  if (Math.abs(p) < 1e-9) return null;
  const same = (q: number | undefined) => q !== undefined && Math.abs(q - p) <= 1e-9 * Math.max(1, Math.abs(p));
  const pool = options.symbolOrder.map((name) => options.symbols(name)).filter((s) => same(s.power));
  const plain = pool.find((s) => !s.innerWeight);
  if (plain) return { symbol: plain.name, input };
  if (pool[0]) return { symbol: pool[0].name, input, weight: 1 };
  const f = fraction(p);
  return f ? { symbol: powerName(f.n / f.d), input } : undefined;
}

/** Terms by their factors (compareFactors, then fewer factors first); the constant (no factor) last. */
export function compareTerms(a: Term, b: Term, o: Pick<SimplifyOptions, "inputOrder" | "symbolOrder">): number {
  if ((a.factors.length === 0) !== (b.factors.length === 0)) return a.factors.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.factors.length, b.factors.length); i++) {
    const c = compareFactors(a.factors[i]!, b.factors[i]!, o);
    if (c !== 0) return c;
  }
  return a.factors.length - b.factors.length;
}

const sameFactors = (a: Term, b: Term) =>
  a.factors.length === b.factors.length &&
  a.factors.every((f, i) => {
    const g = b.factors[i]!;
    return f.symbol === g.symbol && f.input === g.input && sameWeight(f.weight, g.weight);
  });

export function simplifyEquation(equation: Equation, options: SimplifyOptions): Equation {
  const tolerance = options.tolerance ?? 1e-4;
  const { columns, rows } = options;
  const terms: Term[] = [];
  for (const term of equation.terms) {
    let coefficient = term.coefficient;
    const unfolded: Factor[] = [];
    for (const factor of term.factors) {
      const symbol = options.symbols(factor.symbol);
      let weight = symbol.innerWeight ? (factor.weight ?? 1) : undefined;
      if (weight !== undefined && symbol.fold) {
        const folded = symbol.fold(weight);
        coefficient *= folded.coefficient;
        weight = folded.weight;
      }
      unfolded.push(weight === undefined ? { symbol: factor.symbol, input: factor.input } : { ...factor, weight });
    }
    const factors: Factor[] = [];
    for (const next of mergePowers(unfolded, options)) {
      const constant = constantValue(next, options, tolerance);
      if (constant !== undefined) coefficient *= constant;
      else factors.push(next);
    }
    factors.sort((a, b) => compareFactors(a, b, options));
    const twin = terms.find((t) => sameFactors(t, { coefficient, factors }));
    if (twin) twin.coefficient += coefficient;
    else terms.push({ coefficient, factors });
  }
  shiftWeights(terms, options);
  let kept = terms.filter((t) => t.coefficient !== 0);
  if (columns && rows) {
    const values = kept.map((t) => evaluateTerm(t, options.symbols, columns, rows));
    const total = new Float64Array(rows);
    for (const v of values) for (let i = 0; i < rows; i++) total[i] = total[i]! + v[i]!;
    const scale = rms(total);
    kept = kept.filter((_, k) => !(rms(values[k]!) <= tolerance * scale));
  }
  kept.sort((a, b) => compareTerms(a, b, options));
  return {
    target: equation.target,
    terms: kept,
    ...(equation.outer ? { outer: equation.outer } : {}),
    ...(equation.denominator ? { denominator: equation.denominator } : {}),
  };
}

/**
 * The value of a factor that does not vary on the data, else undefined: a factor with an inner
 * weight whose relative range is ≤ tolerance (cos(0.005·x1) on U(1,2)), or any factor that takes
 * one and the same value on every row (x of a constant column, such as a slack bus's u in pow).
 */
function constantValue(factor: Factor, options: SimplifyOptions, tolerance: number): number | undefined {
  if (factor.weight === undefined) {
    if (!options.columns || !options.rows) return undefined;
    // No inner weight here (simplifyEquation gives every symbol with
    // one a weight): f(x) row by row, stopping at the first change.
    const evaluate = options.symbols(factor.symbol).evaluate;
    const column = options.columns(factor.input);
    const first = evaluate(column[0]!);
    if (!Number.isFinite(first) || first === 0) return undefined;
    for (let i = 1; i < options.rows; i++) if (evaluate(column[i]!) !== first) return undefined;
    return first;
  }
  if (!options.columns || !options.rows) {
    if (factor.weight !== 0) return undefined;
    const at0 = options.symbols(factor.symbol).evaluate(0);
    return Number.isFinite(at0) && at0 !== 0 ? at0 : undefined;
  }
  const values = evaluateFactor(factor, options.symbols, options.columns(factor.input));
  let lo = Infinity;
  let hi = -Infinity;
  let sum = 0;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
    sum += v;
  }
  const mean = sum / values.length;
  if (!Number.isFinite(mean) || mean === 0) return undefined;
  return hi - lo <= tolerance * Math.abs(mean) ? mean : undefined;
}
