/**
 * Text (docs/design.md#text-grammar: numbers, column names, + - * / ^, parentheses, sin cos tan exp log
 * sqrt abs tanh) and LaTeX of an equation. Symbols render themselves through their plugin.
 */
import type { SymbolLookup } from "./evaluate.js";
import { expressionLatex, expressionText } from "./expression.js";
import { monomialText } from "./monomial.js";
import { outerOf } from "./outer.js";
import type { Equation, Factor, MonomialPart, Term } from "./types.js";

/** A number to `digits` significant digits without trailing zeros: 2.99999987 → "3". */
export function formatNumber(value: number, digits = 4): string {
  if (value === 0) return "0";
  return String(Number(value.toPrecision(digits)));
}

function latexNumber(value: number, digits: number): string {
  const text = formatNumber(value, digits);
  const match = /^(-?[\d.]+)e([+-]\d+)$/.exec(text);
  if (!match) return text;
  return `${match[1]} \\times 10^{${Number(match[2])}}`;
}

/** x1 → x_{1}; theta → \theta-free \mathrm{theta}; single letters stay italic. */
export function columnLatex(name: string): string {
  const indexed = /^([A-Za-z])_?(\d+)$/.exec(name);
  if (indexed) return `${indexed[1]}_{${indexed[2]}}`;
  if (/^[A-Za-z]$/.test(name)) return name;
  return `\\mathrm{${name.replace(/([_#$%&{}])/g, "\\$1")}}`;
}

/** A monomial argument in LaTeX: \\frac{a b}{c}. */
export function monomialLatex(parts: readonly MonomialPart[]): string {
  const power = (name: string, p: number) => (p === 1 ? columnLatex(name) : `${columnLatex(name)}^{${p}}`);
  const up = parts.filter((q) => q.power > 0).map((q) => power(q.input, q.power));
  const down = parts.filter((q) => q.power < 0).map((q) => power(q.input, -q.power));
  const top = up.length === 0 ? "1" : up.join(" ");
  return down.length === 0 ? top : `\\frac{${top}}{${down.join(" ")}}`;
}

interface Renderer {
  number: (v: number) => string;
  column: (name: string) => string;
  /** A monomial argument, bracketed (the symbol may raise it to a power). */
  monomial: (parts: readonly MonomialPart[]) => string;
  /** Takes a bracketed argument off where the symbol brackets its own (sin(…), not sin((…))). */
  bare: (arg: string) => string;
  ratio: (top: string, bottom: string) => string;
  weighted: (w: string, column: string) => string;
  times: string;
  symbol: (factor: Factor, arg: string) => string;
}

function renderFactor(factor: Factor, r: Renderer, digits: number): string {
  const column = factor.monomial ? r.monomial(factor.monomial) : r.column(factor.input);
  const w = factor.weight;
  if (w === undefined || formatNumber(w, digits) === "1") {
    if (!factor.monomial) return r.symbol(factor, column);
    // sin((a*b)) reads sin(a*b): where the symbol brackets its argument, the monomial's own go.
    const probe = r.symbol(factor, "\u0000");
    return probe.endsWith("(\u0000)") || probe.endsWith("\\left(\u0000\\right)")
      ? r.symbol(factor, r.bare(column))
      : r.symbol(factor, column);
  }
  // exp(-(a*b)), not exp(-1*(a*b)) (a monomial argument only: other factors print as they always have).
  if (factor.monomial && formatNumber(w, digits) === "-1") return r.symbol(factor, `-${column}`);
  return r.symbol(factor, r.weighted(r.number(w), column));
}

function renderTerm(term: Term, r: Renderer, digits: number): { negative: boolean; body: string } {
  const negative = term.coefficient < 0;
  const magnitude = Math.abs(term.coefficient);
  const factors = term.factors.map((f) => renderFactor(f, r, digits));
  const unit = formatNumber(magnitude, digits) === "1";
  const parts = unit && factors.length > 0 ? factors : [r.number(magnitude), ...factors];
  return { negative, body: parts.join(r.times) };
}

/**
 * The terms in the order they print: as given (the constant last, simplifyEquation's order),
 * except that a positive constant leads when the first term is negative: `3 - 0.5*x1*x2`.
 */
function printOrder(terms: readonly Term[]): readonly Term[] {
  const last = terms[terms.length - 1];
  if (terms.length < 2 || !last || last.factors.length > 0 || !(last.coefficient > 0) || !(terms[0]!.coefficient < 0))
    return terms;
  return [last, ...terms.slice(0, -1)];
}

function render(equation: Equation, r: Renderer, digits: number): string {
  const top = renderSum(equation.terms, r, digits);
  return equation.denominator ? r.ratio(top, renderSum(equation.denominator, r, digits)) : top;
}

function renderSum(terms: readonly Term[], r: Renderer, digits: number): string {
  if (terms.length === 0) return "0";
  return printOrder(terms)
    .map((term, k) => {
      const { negative, body } = renderTerm(term, r, digits);
      if (k === 0) return negative ? `-${body}` : body;
      return negative ? ` - ${body}` : ` + ${body}`;
    })
    .join("");
}

/** Right-hand side in the text grammar (docs/design.md#text-grammar). */
export function equationText(equation: Equation, symbols: SymbolLookup, digits = 4): string {
  if (equation.expression !== undefined) return expressionText(equation.expression, symbols, digits);
  const inner = render(
    equation,
    {
      number: (v) => formatNumber(v, digits),
      column: (name) => name,
      monomial: (parts) => `(${monomialText(parts)})`,
      bare: (arg) => arg.slice(1, -1),
      ratio: (top, bottom) => `(${top})/(${bottom})`,
      weighted: (w, column) => `${w}*${column}`,
      times: "*",
      symbol: (factor, arg) => symbols(factor.symbol).text(arg),
    },
    digits,
  );
  return equation.outer ? outerOf(equation.outer).text(inner) : inner;
}

/** Right-hand side in LaTeX, as KaTeX renders it. */
export function equationLatex(equation: Equation, symbols: SymbolLookup, digits = 4): string {
  if (equation.expression !== undefined) return expressionLatex(equation.expression, symbols, digits);
  const inner = render(
    equation,
    {
      number: (v) => latexNumber(v, digits),
      column: columnLatex,
      monomial: (parts) => `\\left(${monomialLatex(parts)}\\right)`,
      bare: (arg) => arg.slice("\\left(".length, -"\\right)".length),
      ratio: (top, bottom) => `\\frac{${top}}{${bottom}}`,
      weighted: (w, column) => `${w} ${column}`,
      times: " ",
      symbol: (factor, arg) => symbols(factor.symbol).latex(arg),
    },
    digits,
  );
  return equation.outer ? outerOf(equation.outer).latex(inner) : inner;
}
