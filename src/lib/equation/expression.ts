/**
 * Expressions: a law that is no LoCaL (docs/design.md#expression) as a tree of named operators,
 * inputs and constants, the version-1 JSON's `equations[].expression`. A node is
 *  - a number: a constant;
 *  - a string: an input column's name;
 *  - an array `[op, ...args]`: `"+"` and `"*"` of two or more arguments, `"-"`, `"/"` and `"^"` of two,
 *    `"neg"` of one, or a registered symbol's name (a unary function: `["sin", x]`, `["exp", …]`,
 *    `["sqrt", …]`, a plugin's) of one.
 * So sqrt((a − b)² + (c − d)²) is `["sqrt", ["+", ["^", ["-", "a", "b"], 2], ["^", ["-", "c", "d"], 2]]]`.
 * A symbol node applies the symbol to its argument as given: a weight is a product inside it
 * (`["sin", ["*", 2.5, "x"]]`). Evaluated in float64 with the symbols' own functions (the library's
 * deterministic exp, log, sin and cos for the built-ins), so the same bits in every engine.
 */
import { InputError } from "../core/index.js";
import type { SymbolLookup, ColumnLookup } from "./evaluate.js";
import { columnLatex, formatNumber } from "./format.js";
import { outerOf } from "./outer.js";
import type { Equation, Factor, Term } from "./types.js";

/** An expression node (module comment). */
export type Expression = number | string | ExpressionCall;
export type ExpressionCall = [string, ...Expression[]];

/** The operators that are not symbols, and how many arguments each takes (Infinity: two or more). */
const OPERATORS: Record<string, { least: number; most: number }> = {
  "+": { least: 2, most: Number.POSITIVE_INFINITY },
  "*": { least: 2, most: Number.POSITIVE_INFINITY },
  "-": { least: 2, most: 2 },
  "/": { least: 2, most: 2 },
  "^": { least: 2, most: 2 },
  neg: { least: 1, most: 1 },
};

/** How many arguments an operator takes, in words. */
const arityText = ({ least, most }: { least: number; most: number }) =>
  most === 1 ? "one argument" : least === most ? "two arguments" : "two or more arguments";

/** Whether `op` is one of the arithmetic operators (not a symbol). */
export const isOperator = (op: string): boolean => Object.hasOwn(OPERATORS, op);

/**
 * Checks a value read from a file as an expression with symbols `known` (a name → whether it is
 * one) over `inputs` (any name where not given); throws an InputError naming `path` and the first
 * problem.
 */
export function checkExpression(
  value: unknown,
  path: string,
  known: (symbol: string) => boolean,
  inputs?: readonly string[],
): asserts value is Expression {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new InputError(`${path}: a constant is not finite`);
    return;
  }
  if (typeof value === "string") {
    if (inputs && !inputs.includes(value))
      throw new InputError(`${path}: "${value}" is not among the result's inputs (${inputs.join(", ")})`);
    return;
  }
  if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== "string")
    throw new InputError(`${path}: a node is a number, an input's name, or [operator, ...arguments]`);
  const [op, ...args] = value as [string, ...unknown[]];
  const arity = OPERATORS[op] ?? (known(op) ? { least: 1, most: 1 } : undefined);
  if (!arity) throw new InputError(`${path}: "${op}" is neither an operator (+ - * / ^ neg) nor a known symbol`);
  if (args.length < arity.least || args.length > arity.most)
    throw new InputError(`${path}: "${op}" takes ${arityText(arity)}, not ${args.length}`);
  for (const [i, arg] of args.entries()) checkExpression(arg, `${path}[${i + 1}]`, known, inputs);
}

/** The expression's values on `rows` rows of named columns, in float64. */
export function evaluateExpression(
  expression: Expression,
  symbols: SymbolLookup,
  columns: ColumnLookup,
  rows: number,
): Float64Array {
  if (typeof expression === "number") return new Float64Array(rows).fill(expression);
  if (typeof expression === "string") {
    const column = columns(expression);
    const out = new Float64Array(rows);
    for (let i = 0; i < rows; i++) out[i] = column[i]!;
    return out;
  }
  const [op, ...args] = expression;
  const values = args.map((arg) => evaluateExpression(arg, symbols, columns, rows));
  const out = values[0]!;
  switch (op) {
    case "+":
      for (const v of values.slice(1)) for (let i = 0; i < rows; i++) out[i] = out[i]! + v[i]!;
      return out;
    case "*":
      for (const v of values.slice(1)) for (let i = 0; i < rows; i++) out[i] = out[i]! * v[i]!;
      return out;
    case "-":
      for (let i = 0; i < rows; i++) out[i] = out[i]! - values[1]![i]!;
      return out;
    case "/":
      for (let i = 0; i < rows; i++) out[i] = out[i]! / values[1]![i]!;
      return out;
    case "^":
      for (let i = 0; i < rows; i++) out[i] = power(out[i]!, values[1]![i]!);
      return out;
    case "neg":
      for (let i = 0; i < rows; i++) out[i] = -out[i]!;
      return out;
    default: {
      const symbol = symbols(op);
      for (let i = 0; i < rows; i++) out[i] = symbol.evaluate(out[i]!);
      return out;
    }
  }
}

/** x^p: an integer power by repeated products (exact, and defined for x < 0), else Math.pow. */
function power(x: number, p: number): number {
  if (!Number.isInteger(p) || Math.abs(p) > 16) return x ** p;
  let out = 1;
  for (let k = 0; k < Math.abs(p); k++) out *= x;
  return p < 0 ? 1 / out : out;
}

/** The input names an expression reads, in order of first use. */
export function expressionInputs(expression: Expression): string[] {
  const out: string[] = [];
  const walk = (e: Expression) => {
    if (typeof e === "string") {
      if (!out.includes(e)) out.push(e);
    } else if (Array.isArray(e)) for (const arg of e.slice(1) as Expression[]) walk(arg);
  };
  walk(expression);
  return out;
}

/**
 * The expression's complexity: one per node (an operator, a symbol, an input, a constant), as the
 * LoCaL's complexity counts its coefficients and factors; and its parameters: the constants that are
 * fitted (every number but an exponent's, which is the law's structure: (a − b)^2).
 */
export function expressionComplexity(expression: Expression): { nodes: number; parameters: number } {
  let nodes = 0;
  let parameters = 0;
  const walk = (e: Expression, exponent: boolean) => {
    nodes++;
    if (typeof e === "number") {
      if (!exponent) parameters++;
    } else if (Array.isArray(e))
      for (const [i, arg] of e.slice(1).entries()) walk(arg as Expression, e[0] === "^" && i === 1);
  };
  walk(expression, false);
  return { nodes, parameters };
}

/** Binding strengths for printing: a child binding less tightly than its place asks is bracketed. */
const Tight = { Sum: 1, Product: 2, Unary: 3, Power: 4, Atom: 5 } as const;
type Tight = (typeof Tight)[keyof typeof Tight];

interface Printed {
  text: string;
  tight: Tight;
}

interface Writer {
  number: (v: number) => string;
  column: (name: string) => string;
  bracket: (text: string) => string;
  times: (parts: string[]) => string;
  ratio: (top: Printed, bottom: Printed) => Printed;
  power: (base: Printed, exponent: string) => Printed;
  /** A symbol of an argument, `atom` where it needs no bracket of its own. */
  symbol: (name: string, arg: string, atom: boolean) => string;
}

/**
 * A symbol's text of an argument: bare where the symbol brackets its own (sin(a - b)), bracketed
 * where it does not and the argument is no atom ((a - b)^2 of the power symbols' a^2).
 */
function symbolOf(write: (arg: string) => string, arg: string, atom: boolean, open: string, close: string): string {
  const probe = write("\u0000");
  // (In LaTeX a command's braced argument delimits it too: \sqrt{…}.)
  const own = probe.endsWith(`${open}\u0000${close}`) || /\\[A-Za-z]+\{\u0000\}/.test(probe);
  return atom || own ? write(arg) : write(`${open}${arg}${close}`);
}

function write(expression: Expression, w: Writer): Printed {
  if (typeof expression === "number")
    return { text: w.number(expression), tight: expression < 0 ? Tight.Unary : Tight.Atom };
  if (typeof expression === "string") return { text: w.column(expression), tight: Tight.Atom };
  const [op, ...args] = expression;
  const at = (p: Printed, least: Tight) => (p.tight < least ? w.bracket(p.text) : p.text);
  switch (op) {
    case "+": {
      const parts = args.map((a) => write(a, w));
      const text = parts
        .map((p, i) => {
          if (i === 0) return p.text;
          // a + -b and a + -3*b read a - b and a - 3*b
          return p.text.startsWith("-") && p.tight >= Tight.Product ? ` - ${p.text.slice(1)}` : ` + ${p.text}`;
        })
        .join("");
      return { text, tight: Tight.Sum };
    }
    case "-": {
      const [a, b] = args.map((x) => write(x, w));
      return { text: `${a!.text} - ${at(b!, Tight.Product)}`, tight: Tight.Sum };
    }
    case "*": {
      // (A product or ratio inside a product needs no bracket: a*b/c*d reads left to right.) A leading
      // constant that prints as 1 or -1 (a fitted weight of 0.99999) is written as none or a minus.
      const lead = typeof args[0] === "number" ? w.number(args[0]) : undefined;
      const rest = lead === "1" || lead === "-1" ? args.slice(1) : args;
      const text = w.times(rest.map((a) => at(write(a, w), Tight.Product)));
      return lead === "-1" ? { text: `-${text}`, tight: Tight.Unary } : { text, tight: Tight.Product };
    }
    case "/": {
      const [a, b] = args.map((x) => write(x, w));
      return w.ratio(a!, b!);
    }
    case "^": {
      const base = write(args[0]!, w);
      const exponent = write(args[1]!, w);
      return w.power(base, exponent.tight === Tight.Atom ? exponent.text : w.bracket(exponent.text));
    }
    case "neg":
      return { text: `-${at(write(args[0]!, w), Tight.Product)}`, tight: Tight.Unary };
    default: {
      const arg = write(args[0]!, w);
      return { text: w.symbol(op, arg.text, arg.tight === Tight.Atom), tight: Tight.Atom };
    }
  }
}

/** The expression in the text grammar (docs/design.md#text-grammar). */
export function expressionText(expression: Expression, symbols: SymbolLookup, digits = 4): string {
  return write(expression, {
    number: (v) => formatNumber(v, digits),
    column: (name) => name,
    bracket: (text) => `(${text})`,
    times: (parts) => parts.join("*"),
    // a/(b*c), not a/b*c: a denominator is bracketed unless it is a power or an atom.
    ratio: (top, bottom) => {
      const above = top.tight < Tight.Product ? `(${top.text})` : top.text;
      const below = bottom.tight < Tight.Power ? `(${bottom.text})` : bottom.text;
      return { text: `${above}/${below}`, tight: Tight.Product };
    },
    power: (base, exponent) => ({
      text: `${base.tight < Tight.Atom ? `(${base.text})` : base.text}^${exponent}`,
      tight: Tight.Power,
    }),
    symbol: (name, arg, atom) => symbolOf(symbols(name).text, arg, atom, "(", ")"),
  }).text;
}

/** A LaTeX exponent without its \\left( \\right) (the braces of ^{…} hold it). */
const unbracketed = (exponent: string) => exponent.replace(/^\\left\((.*)\\right\)$/, "$1");

/** The expression in LaTeX, as KaTeX renders it. */
export function expressionLatex(expression: Expression, symbols: SymbolLookup, digits = 4): string {
  return write(expression, {
    number: (v) => {
      const text = formatNumber(v, digits);
      const match = /^(-?[\d.]+)e([+-]\d+)$/.exec(text);
      return match ? `${match[1]} \\times 10^{${Number(match[2])}}` : text;
    },
    column: columnLatex,
    bracket: (text) => `\\left(${text}\\right)`,
    times: (parts) => parts.join(" "),
    ratio: (top, bottom) => ({ text: `\\frac{${top.text}}{${bottom.text}}`, tight: Tight.Atom }),
    power: (base, exponent) => ({
      text: `${base.tight < Tight.Atom ? `\\left(${base.text}\\right)` : base.text}^{${unbracketed(exponent)}}`,
      tight: Tight.Power,
    }),
    symbol: (name, arg, atom) => symbolOf(symbols(name).latex, arg, atom, "\\left(", "\\right)"),
  }).text;
}

/** Each input name replaced by the expression `by` gives it (others kept). */
export function substituteInputs(expression: Expression, by: (name: string) => Expression | undefined): Expression {
  if (typeof expression === "number") return expression;
  if (typeof expression === "string") return by(expression) ?? expression;
  const [op, ...args] = expression;
  return [op, ...args.map((arg) => substituteInputs(arg, by))];
}

/** A factor as an expression: the symbol of its (weighted) input or monomial. */
function factorExpression(factor: Factor, symbols: SymbolLookup): Expression {
  const product = (parts: readonly { input: string; power: number }[]): Expression => {
    const each = parts.map((q): Expression => (q.power === 1 ? q.input : ["^", q.input, q.power]));
    return each.length === 0 ? 1 : each.length === 1 ? each[0]! : ["*", ...each];
  };
  // A monomial argument as a ratio where it has negative powers: u^2/d, not u^2*d^(-1).
  const up = (factor.monomial ?? []).filter((q) => q.power > 0);
  const down = (factor.monomial ?? []).filter((q) => q.power < 0).map((q) => ({ ...q, power: -q.power }));
  const argument: Expression = !factor.monomial
    ? factor.input
    : down.length === 0
      ? product(up)
      : ["/", product(up), product(down)];
  const w = symbols(factor.symbol).innerWeight ? (factor.weight ?? 1) : 1;
  return [factor.symbol, w === 1 ? argument : w === -1 ? ["neg", argument] : ["*", w, argument]];
}

/** A sum of terms as an expression. */
function sumExpression(terms: readonly Term[], symbols: SymbolLookup): Expression {
  const parts = terms.map((term): Expression => {
    const factors = term.factors.map((f) => factorExpression(f, symbols));
    if (factors.length === 0) return term.coefficient;
    return term.coefficient === 1 && factors.length === 1
      ? factors[0]!
      : (["*", ...(term.coefficient === 1 ? [] : [term.coefficient]), ...factors] as Expression);
  });
  if (parts.length === 0) return 0;
  return parts.length === 1 ? parts[0]! : ["+", ...parts];
}

/**
 * An equation as an expression: its terms, over its denominator, under its outer function (the
 * built-in outer functions written with ^ and /; a plugin's outer function has no expression, and
 * throws). The law's values are the same.
 */
export function equationExpression(equation: Equation, symbols: SymbolLookup): Expression {
  if (equation.expression !== undefined) return equation.expression;
  const top = sumExpression(equation.terms, symbols);
  const ratio: Expression = equation.denominator ? ["/", top, sumExpression(equation.denominator, symbols)] : top;
  switch (equation.outer) {
    case undefined:
      return ratio;
    case "sqrt":
      return ["^", ratio, 0.5];
    case "inverse":
      return ["/", 1, ratio];
    case "square":
      return ["^", ratio, 2];
    case "inverse-sqrt":
      return ["^", ratio, -0.5];
    case "exp":
      return ["exp", ratio];
    default:
      throw new InputError(`the outer function ${outerOf(equation.outer).name} has no expression`);
  }
}
