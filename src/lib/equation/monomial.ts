/**
 * Monomial arguments: a factor whose argument is a product of powers of several inputs,
 * f(w·Π x_i^p_i) (exp(−a·b/c), sin(1.5·a·b), cos(2·a/b)), where the law is a function of a
 * monomial rather than of one input (docs/design.md#monomial). Exponents are small integers
 * (±1, ±2). The factor's `input` is then the monomial's text ("a*b/c"), a name no data column
 * has to carry: every evaluation goes through factorColumn.
 */
import { pow } from "../core/index.js";
import type { ColumnLookup } from "./evaluate.js";
import type { Factor, MonomialPart } from "./types.js";

/** The monomial's own text: "a*b/c", "a^2/(b*c)", "1/a" (inputs in the order given). */
export function monomialText(parts: readonly MonomialPart[]): string {
  const power = (name: string, p: number) => (p === 1 ? name : `${name}^${p}`);
  const up = parts.filter((q) => q.power > 0).map((q) => power(q.input, q.power));
  const down = parts.filter((q) => q.power < 0).map((q) => power(q.input, -q.power));
  const top = up.length === 0 ? "1" : up.join("*");
  if (down.length === 0) return top;
  return `${top}/${down.length === 1 ? down[0] : `(${down.join("*")})`}`;
}

/** v^p for a monomial's integer power: products and quotients for ±1, ±2 (the same bits everywhere). */
export function powerValue(v: number, p: number): number {
  if (p === 1) return v;
  if (p === -1) return 1 / v;
  if (p === 2) return v * v;
  if (p === -2) return 1 / (v * v);
  return pow(v, p);
}

/** The values a factor's symbol is applied to (before its inner weight): its input, or its monomial. */
export function factorColumn(factor: Factor, columns: ColumnLookup, rows?: number): ArrayLike<number> {
  if (!factor.monomial) return columns(factor.input);
  const parts = factor.monomial.map((q) => ({ values: columns(q.input), power: q.power }));
  const n = rows ?? parts[0]?.values.length ?? 0;
  const out = new Float64Array(n).fill(1);
  for (const { values, power } of parts)
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      out[i] = out[i]! * powerValue(v, power);
    }
  return out;
}

/**
 * What a monomial argument adds to its factor's complexity: each input beyond the first costs as
 * a power factor would (1 for ±1 — a product or a quotient —, 2 for ±2), so sin(a·b) costs more
 * than sin(a) and as much as sin(a)·b would.
 */
export function monomialCost(parts: readonly MonomialPart[] | undefined): number {
  if (!parts || parts.length < 2) return 0;
  const cost = (p: number) => (Math.abs(p) === 1 ? 1 : 2);
  const sorted = [...parts].sort((p, q) => cost(p.power) - cost(q.power));
  return sorted.slice(1).reduce((sum, q) => sum + cost(q.power), 0);
}

/** The data columns a factor reads: its input, or its monomial's inputs. */
export const factorInputs = (factor: Factor): string[] =>
  factor.monomial ? factor.monomial.map((q) => q.input) : [factor.input];
