/**
 * Product proposals from log space: a product with one sign over the data is a sum in log space,
 * log|y| = log|c| + Σ_i p_i·log|x_i| (+ w·x_i for exp(w·x_i), + log|s(w·x_i)| for other
 * factors), so one least-squares solve proposes the factors and their powers (the transform
 * AI Feynman uses). Powers are read off the pool: a symbol is a power p when f(x) = x^p on test
 * points (x, x², x³, x⁻¹, x⁻², sqrt among the built-ins); an exponent is written with the
 * fewest power neurons of its input that sum to it (x⁵ = x³·x²).
 */
import { runSteps, type Steps } from "../../core/index.js";
import { dot, extent, householderQr } from "../../numeric/index.js";
import type { SymbolPlugin } from "../../plugins/index.js";
import { WEIGHT_GRID } from "./columns.js";
import { log, log2, pow } from "../../core/index.js";

export interface ProductProposal {
  /** CMP neurons, ascending. */
  neurons: number[];
  /** Starting inner weight per neuron (aligned), where the log fit suggests one. */
  weights: number[];
  /** RMS residual of the log-space fit (lower is better). */
  residual: number;
}

/**
 * The exponent p when f(x) = x^p (up to 1e-9), else undefined: the symbol's declared `power`
 * (SymbolPlugin.power, checked by check-plugin), else read off test points.
 */
export function powerOf(symbol: SymbolPlugin): number | undefined {
  if (symbol.power !== undefined) return symbol.power;
  const f = (x: number) => symbol.evaluate(x);
  const [a, b] = [1.7, 2.3];
  const p = log(f(b) / f(a)) / log(b / a);
  if (!Number.isFinite(p)) return undefined;
  return [0.6, 1, 3.1, 4.7].every((x) => Math.abs(f(x) - pow(x, p)) <= 1e-9 * Math.max(1, Math.abs(pow(x, p))))
    ? Math.round(p * 1e6) / 1e6
    : undefined;
}

/** Fewest distinct power symbols per exponent: exponent → pool symbol indices. */
function writings(powers: readonly { symbol: number; p: number }[], maxFactors: number): Map<number, number[]> {
  const best = new Map<number, number[]>();
  const grow = (start: number, picked: number[], sum: number) => {
    if (picked.length > 0) {
      const key = Math.round(sum * 1e6) / 1e6;
      const old = best.get(key);
      if (key !== 0 && (!old || picked.length < old.length)) best.set(key, [...picked]);
    }
    if (picked.length >= maxFactors) return;
    for (let i = start; i < powers.length; i++) grow(i + 1, [...picked, powers[i]!.symbol], sum + powers[i]!.p);
  };
  grow(0, [], 0);
  return best;
}

/**
 * Least squares of t on the columns with an intercept (numeric/linalg's QR): the coefficients,
 * intercept first, and the RMS residual; null when a column is (nearly) a combination of the
 * others: its part outside their span under 1e-6 of its norm, where log-space exponents mean nothing.
 */
function logFit(columns: readonly Float64Array[], t: Float64Array): { beta: number[]; residual: number } | null {
  const n = t.length;
  const qr = householderQr([new Float64Array(n).fill(1), ...columns], { dependent: 1e-6 });
  if (!qr || qr.kept.length < columns.length + 1) return null;
  const beta = qr.solve(t);
  if (!beta) return null;
  const r = qr.residual(t);
  return { beta: Array.from(beta), residual: Math.sqrt(dot(r, r) / n) };
}

export interface MonomialInput {
  x: readonly Float64Array[];
  y: Float64Array;
  pool: readonly string[];
  allowed: readonly boolean[];
  lookup: (name: string) => SymbolPlugin;
  maxFactors: number;
  /** Non-power factors (sin, cos, log, exp …) tried on top of the powers (default 2). */
  extras?: number;
}

/**
 * Single-product proposals, best first; empty when y changes sign or comes near 0 (log|y| is
 * then not a sum). Each proposal respects `maxFactors` and the allowed neurons.
 */
/**
 * The log-space target and the pool's powers. log|y| = Σ log|f_k| holds on every row where
 * y ≠ 0, also when a factor changes sign (sin θ over [1, 5]); rows within 1e-6 of the largest
 * |y| of a zero are left out. Null when too few rows are left (y is mostly near 0).
 */
function logSpace({ y, pool, lookup }: MonomialInput) {
  const top = y.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const keep = Array.from(y.keys()).filter((r) => Math.abs(y[r]!) > 1e-6 * top);
  if (!(top > 0) || keep.length < Math.max(8, 0.5 * y.length)) return null;
  const t = Float64Array.from(keep, (r) => log(Math.abs(y[r]!)));
  const powers = pool.flatMap((name, symbol) => {
    const p = powerOf(lookup(name));
    return p === undefined ? [] : [{ symbol, p }];
  });
  return { keep, t, powers };
}

export function monomialProposals(input: MonomialInput): ProductProposal[] {
  return runSteps(monomialProposalsSteps(input));
}

/**
 * monomialProposals in steps: it yields between its log-space solves (clock.ts), so that with many
 * inputs (hundreds of columns, thousands of candidate factors) a stop gets through.
 */
export function* monomialProposalsSteps(input: MonomialInput): Steps<ProductProposal[]> {
  const space = logSpace(input);
  if (!space) return [];
  const basis = logBasis(input, space);
  const out = new Map<string, ProductProposal>();
  consider(basis, out, []);
  // One or two non-power factors, chosen greedily by the log-space residual; none where powers
  // alone fit log|y| to rounding (a product of powers: a factor more cannot be better).
  const exact = [...out.values()].some((p) => p.residual < 1e-9);
  if (!exact) yield* chooseExtras(basis, out, extraColumns(input, space.keep), input.extras ?? 2);
  // Fits within a factor 2 of each other (or at rounding level) rank by size: no spurious factors.
  const bucket = (r: number) => Math.floor(log2(Math.max(r, 1e-9)));
  return [...out.values()].sort(
    (p, q) => bucket(p.residual) - bucket(q.residual) || p.neurons.length - q.neurons.length || p.residual - q.residual,
  );
}

/**
 * A non-power factor's log column; `exponential`: log|f(w·x)|
 * is linear in x (exp), its weight is then the fitted slope.
 */
type Extra = { neuron: number; weight: number; values: Float64Array; exponential: boolean; span: number };

/**
 * The least change of log|y| over the rows, max − min, an exponential factor of a product must make: one
 * that changes y by under 5 % is its coefficient's, not a factor (exp(−0.0005·a·e) over a·e ∈ [0.2, 10]
 * beside exp(−1.5·b·c/d)·a·e at 1 % noise, which the near-tied sets of chooseExtras kept and the noise paid for).
 */
const EXP_CHANGE = 0.05;

/** What the log-space fits share: the target, the power columns and how each exponent is written. */
interface LogBasis {
  input: MonomialInput;
  t: Float64Array;
  /** log|x_i| of each input of one sign (where the pool has powers). */
  base: { input: number; values: Float64Array }[];
  /** Exponent → pool symbol indices writing it (writings), and the exponents. */
  ways: Map<number, number[]>;
  exponents: number[];
}

/** The log-space fits' shared parts over the rows logSpace keeps. */
function logBasis(input: MonomialInput, { keep, t, powers }: NonNullable<ReturnType<typeof logSpace>>): LogBasis {
  const rows = (c: Float64Array) => Float64Array.from(keep, (r) => c[r]!);
  // Inputs of one sign carry a log|x_i| column; every input may carry non-power factors.
  const signed = input.x.map((c) => c.every((v) => v > 0) || c.every((v) => v < 0));
  const base = input.x.flatMap((c, i) =>
    signed[i] && powers.length > 0 ? [{ input: i, values: Float64Array.from(rows(c), (v) => log(Math.abs(v))) }] : [],
  );
  const ways = writings(powers, input.maxFactors);
  return { input, t, base, ways, exponents: [...ways.keys()] };
}

/**
 * The log columns of every allowed non-power factor (at each grid weight where it has one), on the
 * `keep` rows. Built only where powers alone leave a residual: a product of powers needs none.
 */
function extraColumns({ x, pool, allowed, lookup }: MonomialInput, keep: readonly number[]): Extra[] {
  const extras: Extra[] = [];
  x.forEach((full, i) => {
    const c = Float64Array.from(keep, (r) => full[r]!);
    pool.forEach((name, s) => {
      const neuron = i * pool.length + s;
      const symbol = lookup(name);
      if (!allowed[neuron] || powerOf(symbol) !== undefined) return;
      const f = (v: number) => symbol.evaluate(v);
      const exponential = Math.abs(f(0) - 1) < 1e-12 && Math.abs(f(0.4) * f(1.3) - f(1.7)) < 1e-9 * Math.abs(f(1.7));
      for (const w of symbol.innerWeight ? WEIGHT_GRID : [1]) {
        const values = new Float64Array(c.length);
        let ok = true;
        for (let r = 0; r < c.length && ok; r++) {
          const value = symbol.evaluate(symbol.innerWeight ? w * c[r]! : c[r]!);
          values[r] = log(Math.abs(value));
          ok = Number.isFinite(values[r]!);
        }
        if (ok) extras.push({ neuron, weight: w, values, exponential, span: spanOf(values) });
      }
    });
  });
  return extras;
}

/**
 * Extras added greedily, up to `rounds`: each round adds to each kept set the one extra whose fit
 * beside it leaves the least residual, and keeps the sets within TIE of the round's best (at most
 * TIED): two factors of one input can tie alone and part only beside a third (sin(v) and
 * v·cos(0.5·v) beside exp(−u), measured on a·exp(−b/c)·sin(d·e) over b/c and d·e: 0.201 and 0.201
 * alone, then 7e-3 for the cosine's product and 7e-16 for the sine's, which a greedy choice never
 * fitted). Every fit on the way is considered (a yield before each).
 */
function* chooseExtras(
  basis: LogBasis,
  out: Map<string, ProductProposal>,
  extras: readonly Extra[],
  rounds: number,
): Steps<void> {
  let kept: Extra[][] = [[]];
  let shortlist: Extra[] = [];
  // The residual before the round: the powers' alone, then the round before's best.
  let before =
    logFit(
      basis.base.map((b) => b.values),
      basis.t,
    )?.residual ?? Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds && kept.length > 0; round++) {
    const grown: { chosen: Extra[]; residual: number }[] = [];
    const seen = new Set<string>();
    for (const [k, chosen] of kept.entries()) {
      // The best set grows by every extra; a tied one by the first round's best few alone.
      for (const e of k === 0 ? extras : shortlist) {
        yield;
        if (chosen.some((c) => c.neuron === e.neuron)) continue;
        const next = [...chosen, e];
        const key = next
          .map((c) => `${c.neuron}:${c.weight}`)
          .sort()
          .join(" ");
        if (seen.has(key)) continue;
        seen.add(key);
        const fit = logFit([...basis.base.map((b) => b.values), ...next.map((c) => c.values)], basis.t);
        if (fit) grown.push({ chosen: next, residual: fit.residual });
        consider(basis, out, next);
      }
    }
    grown.sort((p, q) => p.residual - q.residual);
    const best = grown[0]?.residual ?? Number.POSITIVE_INFINITY;
    // Ties are kept where the round's best factor gained (a product's factor); where none did (y is no
    // product: a sum's log|y|), every extra ties with every other, and the best alone goes on.
    const tied = best <= GAINED * before ? TIED : 1;
    if (round === 0)
      shortlist = perInput(
        grown.map((g) => g.chosen[0]!),
        basis.input.pool.length,
      );
    kept = grown
      .filter((g) => g.residual <= TIE * best)
      .slice(0, tied)
      .map((g) => g.chosen);
    before = best;
  }
}

/** Sets of extras kept after a round: those within this factor of the round's least residual, and at most TIED. */
const TIE = 1.05;
const TIED = 3;
/**
 * A round's best residual must be below this share of the residual before it for its ties to be kept
 * (sin(v) beside the powers of a·exp(−u)·sin(v): 0.201 against 0.294 before it).
 */
const GAINED = 0.8;
/**
 * Extras a tied set is grown by: the first round's best PER_INPUT of each input (the factor that parts
 * a tie is one of them; the best eight overall missed exp(u) on 2 of 12 draws of a·exp(−u)·sin(v)).
 */
const PER_INPUT = 2;

/** The first PER_INPUT extras of each input, in the given order (neuron = input·pool + symbol). */
function perInput(ranked: readonly Extra[], pool: number): Extra[] {
  const counts = new Map<number, number>();
  return ranked.filter((e) => {
    const input = Math.floor(e.neuron / pool);
    const count = counts.get(input) ?? 0;
    counts.set(input, count + 1);
    return count < PER_INPUT;
  });
}

/**
 * The powers with the `chosen` extras fitted in log space: its products (at two tolerances) kept in
 * `out`, the best fit per product.
 */
function consider(basis: LogBasis, out: Map<string, ProductProposal>, chosen: Extra[]): void {
  const fit = logFit([...basis.base.map((b) => b.values), ...chosen.map((e) => e.values)], basis.t);
  if (!fit) return;
  for (const tolerance of [0.15, 0.3]) {
    const proposal = productOf(basis, fit.beta, chosen, tolerance);
    if (!proposal) continue;
    const key = proposal.neurons.join(".");
    const old = out.get(key);
    if (!old || fit.residual < old.residual) out.set(key, { ...proposal, residual: fit.residual });
  }
}

/** The product of a fit: powers rounded to writable exponents, plus the chosen extras. */
function productOf(basis: LogBasis, beta: number[], chosen: Extra[], tolerance: number): ProductProposal | null {
  const { base, ways, exponents } = basis;
  const { pool, allowed, maxFactors } = basis.input;
  const neurons: number[] = [];
  const weights: number[] = [];
  for (let b = 0; b < base.length; b++) {
    const p = beta[1 + b]!;
    if (Math.abs(p) < tolerance) continue;
    const near = exponents.reduce(
      (best, e) => (Math.abs(e - p) < Math.abs(best - p) ? e : best),
      Number.POSITIVE_INFINITY,
    );
    if (!(Math.abs(near - p) <= tolerance)) return null;
    for (const s of ways.get(near)!) {
      neurons.push(base[b]!.input * pool.length + s);
      weights.push(1);
    }
  }
  for (const [k, e] of chosen.entries()) {
    // A factor enters a product once: its log column's coefficient is 1 (an exp's is its weight).
    const b = beta[1 + base.length + k]!;
    if (e.exponential ? !(Math.abs(b) > 1e-3 && Math.abs(b) * e.span > EXP_CHANGE) : Math.abs(b - 1) > tolerance)
      return null;
    if (neurons.includes(e.neuron)) return null;
    neurons.push(e.neuron);
    weights.push(e.exponential ? b * e.weight : e.weight);
  }
  if (neurons.length === 0 || neurons.length > maxFactors || neurons.some((v) => !allowed[v])) return null;
  const order = neurons.map((v, k) => [v, weights[k]!] as const).sort((p, q) => p[0] - q[0]);
  return { neurons: order.map((o) => o[0]), weights: order.map((o) => o[1]), residual: 0 };
}

/**
 * The factor a sum's terms share, from the same log-space fit without extras: the inputs whose
 * exponent is within 0.1 of a writable nonzero integer or half-integer (G·m1·m2 of
 * G·m1·m2·(1/r2 − 1/r1)); the other inputs' exponents are left to the sum. The fit may round
 * a summed input into the factor (1/r2 here, √v in ½·m·(v² + u² + w²)), so the sets are the
 * parts in order of confidence (every prefix), and all parts but one.
 */
export function sharedFactors(input: MonomialInput): number[][] {
  const { x, pool, allowed, maxFactors } = input;
  const space = logSpace(input);
  if (!space) return [];
  const { keep, t, powers } = space;
  const inputs = x.flatMap((c, i) => (c.every((v) => v > 0) || c.every((v) => v < 0) ? [i] : []));
  if (powers.length === 0 || inputs.length === 0) return [];
  const fit = logFit(
    inputs.map((i) => Float64Array.from(keep, (r) => log(Math.abs(x[i]![r]!)))),
    t,
  );
  if (!fit) return [];
  const ways = writings(powers, maxFactors);
  const parts: { neurons: number[]; miss: number }[] = [];
  inputs.forEach((i, b) => {
    const p = fit.beta[1 + b]!;
    const near = Math.round(p * 2) / 2;
    if (near === 0 || Math.abs(p - near) > 0.1 || !ways.has(near)) return;
    const part = ways.get(near)!.map((s) => i * pool.length + s);
    if (part.every((v) => allowed[v])) parts.push({ neurons: part, miss: Math.abs(p - near) });
  });
  if (parts.length === 0) return [];
  // The most confident parts first: every prefix of that order, and all parts but one.
  parts.sort((p, q) => p.miss - q.miss);
  const sets = new Map<string, number[]>();
  const add = (chosen: typeof parts) => {
    const set = chosen.flatMap((c) => c.neurons).sort((p, q) => p - q);
    if (set.length > 0) sets.set(set.join("."), set);
  };
  for (let k = 1; k <= parts.length; k++) add(parts.slice(0, k));
  if (parts.length > 2) {
    parts.forEach((_, d) => {
      add(parts.filter((__, k) => k !== d));
    });
  }
  return [...sets.values()];
}

/** max − min of a column. */
function spanOf(values: Float64Array): number {
  const [lo, hi] = extent(values);
  return hi - lo;
}
