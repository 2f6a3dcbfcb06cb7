/**
 * A sampled DSR expression (tokens in prefix order, dsrLibrary.ts) as numbers and as text:
 * its values on data columns in float64 with the derivatives by each constant (forward mode),
 * its constants fitted by the project's Levenberg–Marquardt from all-ones (DSR starts its
 * constants at 1 too), and its text (docs/design.md#text-grammar) and LaTeX with the fitted constants.
 *
 * Values outside a symbol's domain are NaN (the symbols' own evaluate), never a quiet number:
 * an expression that is NaN or infinite on a training row is invalid (reward 0).
 */
import { columnLatex, formatNumber } from "../equation/index.js";
import { type Float64Model, levenbergMarquardt } from "../local/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import type { Token, TokenLibrary } from "./dsrLibrary.js";

type Columns = readonly Float64Array[];

function derivativeOf(symbol: SymbolPlugin): (u: number) => number {
  if (symbol.derivative) return symbol.derivative;
  // A central difference of the scalar reference, as the LoCaL polish does for a symbol without f'.
  return (u) => {
    const h = 1e-6 * Math.max(1, Math.abs(u));
    return (symbol.evaluate(u + h) - symbol.evaluate(u - h)) / (2 * h);
  };
}

/** A node of a compiled expression: its values on the rows and their derivatives by its subtree's constants. */
interface Node {
  token: Token;
  children: Node[];
  value: Float64Array;
  /** The constants of the subtree (their index in prefix order), and ∂value/∂each, aligned. */
  constants: number[];
  d: Float64Array[];
}

/**
 * An expression compiled for repeated evaluation on fixed columns: every node owns its buffers
 * (allocated once), so a fit's many evaluations allocate nothing. A constant appears once in the
 * tree, so the two children of a binary node hold disjoint constants.
 */
export class CompiledExpression {
  readonly parameters: number;
  private readonly order: Node[] = [];
  private readonly root: Node;

  constructor(
    library: TokenLibrary,
    tokens: readonly number[],
    private readonly columns: Columns,
    readonly rows: number,
  ) {
    let position = 0;
    let constantIndex = 0;
    const build = (): Node => {
      const token = library.tokens[tokens[position++]!]!;
      const children = Array.from({ length: library.arity[tokens[position - 1]!]! }, build);
      const constants = token.kind === "constant" ? [constantIndex++] : children.flatMap((c) => c.constants);
      const value = token.kind === "input" ? this.columns[token.input]! : new Float64Array(rows);
      const d = constants.map(() => new Float64Array(rows));
      if (token.kind === "constant") d[0]!.fill(1);
      const node: Node = { token, children, value, constants, d };
      this.order.push(node);
      return node;
    };
    this.root = build();
    this.parameters = constantIndex;
  }

  /** Evaluates every node for the constants `theta` (with `derivatives`, their derivatives too); returns the root. */
  run(theta: ArrayLike<number>, derivatives: boolean): { value: Float64Array; constants: number[]; d: Float64Array[] } {
    const rows = this.rows;
    for (const node of this.order) {
      const { token, value } = node;
      if (token.kind === "input") continue;
      if (token.kind === "constant") {
        value.fill(theta[node.constants[0]!]!);
        continue;
      }
      if (token.kind === "unary") {
        const a = node.children[0]!;
        const f = token.symbol.evaluate;
        for (let i = 0; i < rows; i++) value[i] = f(a.value[i]!);
        if (derivatives && node.constants.length > 0) {
          const df = derivativeOf(token.symbol);
          const slope = node.d[0]!;
          // The slope in the first derivative buffer, then each derivative scaled by it (last first).
          for (let i = 0; i < rows; i++) slope[i] = df(a.value[i]!);
          for (let k = node.constants.length - 1; k >= 0; k--) {
            const out = node.d[k]!;
            const inner = a.d[k]!;
            for (let i = 0; i < rows; i++) out[i] = slope[i]! * inner[i]!;
          }
        }
        continue;
      }
      const [a, b] = node.children as [Node, Node];
      const u = a.value;
      const v = b.value;
      const op = token.name;
      if (op === "+") for (let i = 0; i < rows; i++) value[i] = u[i]! + v[i]!;
      else if (op === "-") for (let i = 0; i < rows; i++) value[i] = u[i]! - v[i]!;
      else if (op === "*") for (let i = 0; i < rows; i++) value[i] = u[i]! * v[i]!;
      else for (let i = 0; i < rows; i++) value[i] = u[i]! / v[i]!;
      if (!derivatives) continue;
      const left = a.constants.length;
      node.d.forEach((out, k) => {
        const fromLeft = k < left;
        const inner = fromLeft ? a.d[k]! : b.d[k - left]!;
        if (op === "+") out.set(inner);
        else if (op === "-") {
          if (fromLeft) out.set(inner);
          else for (let i = 0; i < rows; i++) out[i] = -inner[i]!;
        } else if (op === "*") {
          const other = fromLeft ? v : u;
          for (let i = 0; i < rows; i++) out[i] = inner[i]! * other[i]!;
        } else if (fromLeft) for (let i = 0; i < rows; i++) out[i] = inner[i]! / v[i]!;
        else for (let i = 0; i < rows; i++) out[i] = (-inner[i]! * u[i]!) / (v[i]! * v[i]!);
      });
    }
    return this.root;
  }
}

/** The expression's values on `columns` (the library's inputs, in order), in float64. */
export function evaluateExpression(
  library: TokenLibrary,
  tokens: readonly number[],
  constants: ArrayLike<number>,
  columns: Columns,
  rows: number,
): Float64Array {
  return Float64Array.from(new CompiledExpression(library, tokens, columns, rows).run(constants, false).value);
}

export interface FittedExpression {
  constants: Float64Array;
  /** Train NRMSE with the fitted constants (NaN or ∞ for an invalid expression). */
  nrmse: number;
}

/** Most LM iterations per expression: DSR fits a constant-bearing expression for every sample. */
const LM_ITERATIONS = 30;

/**
 * Fits the expression's constants to `y` by Levenberg–Marquardt on the normalised residual
 * (y − ŷ)/spread (spread: std(y)) from `start` (default all-ones), at most `iterations` steps
 * (0: the constants are only evaluated); an expression without constants is only evaluated.
 */
export function fitExpression(
  library: TokenLibrary,
  tokens: readonly number[],
  columns: Columns,
  y: ArrayLike<number>,
  rows: number,
  spread: number,
  start?: ArrayLike<number>,
  iterations = LM_ITERATIONS,
): FittedExpression {
  const compiled = new CompiledExpression(library, tokens, columns, rows);
  const p = compiled.parameters;
  const s = 1 / spread;
  const loss = (theta: ArrayLike<number>) => {
    const { value } = compiled.run(theta, false);
    let sum = 0;
    for (let i = 0; i < rows; i++) sum += ((y[i]! - value[i]!) * s) ** 2;
    return sum;
  };
  const nrmseOf = (sum: number) => (Number.isFinite(sum) ? Math.sqrt(sum / rows) : Number.NaN);
  const initial = start ? Float64Array.from(start) : new Float64Array(p).fill(1);
  if (p === 0 || iterations === 0) return { constants: initial, nrmse: nrmseOf(loss(initial)) };
  // levenbergMarquardt reads only the parameter count, the loss and the normal equations.
  const model: Pick<Float64Model, "parameters" | "loss" | "normalEquations"> = {
    parameters: p,
    loss,
    normalEquations: (theta) => {
      const root = compiled.run(theta, true);
      // The root's derivative buffers in the order of the constants.
      const d = root.constants.map((_, k) => root.d[root.constants.indexOf(k)]!);
      const jtj = new Float64Array(p * p);
      const jtr = new Float64Array(p);
      let sum = 0;
      for (let i = 0; i < rows; i++) {
        const r = (y[i]! - root.value[i]!) * s;
        sum += r * r;
        for (let u = 0; u < p; u++) {
          const ju = d[u]![i]! * s;
          jtr[u] = jtr[u]! + ju * r;
          for (let v = 0; v <= u; v++) jtj[u * p + v] = jtj[u * p + v]! + ju * d[v]![i]! * s;
        }
      }
      for (let u = 0; u < p; u++) for (let v = u + 1; v < p; v++) jtj[u * p + v] = jtj[v * p + u]!;
      return { loss: sum, jtj, jtr };
    },
  };
  const fitted = levenbergMarquardt(model as Float64Model, initial, iterations);
  return { constants: fitted.theta, nrmse: nrmseOf(fitted.loss) };
}

/** DSR's reward: 1/(1 + NRMSE), 0 for an invalid expression. */
export const rewardOf = (nrmse: number): number => (Number.isFinite(nrmse) ? 1 / (1 + nrmse) : 0);

interface Rendered {
  body: string;
  /** 1 a sum (or a negative number), 2 a product or quotient, 3 a power, 4 an atom. */
  precedence: number;
  /** A negative constant (printed as a subtraction after + and -). */
  negative?: number;
}

/** The symbol's template puts its argument in brackets of its own (sin(·), \sqrt{·}): no parentheses needed. */
function bracketsArgument(render: (a: string) => string): boolean {
  const probe = render("\u0000");
  return /[({]\u0000[)}]/.test(probe) || probe.includes("\\left(\u0000\\right)");
}

interface Style {
  number: (v: number) => string;
  column: (name: string) => string;
  paren: (body: string) => string;
  times: string;
  divide: (a: Rendered, b: Rendered) => Rendered;
  symbol: (symbol: SymbolPlugin) => (arg: string) => string;
}

function latexNumber(value: number): string {
  const text = formatNumber(value);
  const match = /^(-?[\d.]+)e([+-]\d+)$/.exec(text);
  return match ? `${match[1]} \\times 10^{${Number(match[2])}}` : text;
}

const TEXT: Style = {
  number: (v) => formatNumber(v),
  column: (name) => name,
  paren: (body) => `(${body})`,
  times: "*",
  divide: (a, b) => ({
    body: `${a.precedence >= 2 ? a.body : `(${a.body})`}/${b.precedence >= 3 ? b.body : `(${b.body})`}`,
    precedence: 2,
  }),
  symbol: (symbol) => symbol.text,
};

const LATEX: Style = {
  number: latexNumber,
  column: columnLatex,
  paren: (body) => `\\left(${body}\\right)`,
  times: " \\cdot ",
  divide: (a, b) => ({ body: `\\frac{${a.body}}{${b.body}}`, precedence: 4 }),
  symbol: (symbol) => symbol.latex,
};

function render(library: TokenLibrary, tokens: readonly number[], constants: ArrayLike<number>, style: Style): string {
  let position = 0;
  let constantIndex = 0;
  const atLeast = (r: Rendered, precedence: number) => (r.precedence >= precedence ? r.body : style.paren(r.body));
  const walk = (): Rendered => {
    const token = library.tokens[tokens[position++]!]!;
    switch (token.kind) {
      case "constant": {
        const v = constants[constantIndex++]!;
        return v < 0
          ? { body: style.number(v), precedence: 1, negative: -v }
          : { body: style.number(v), precedence: 4 };
      }
      case "input":
        return { body: style.column(token.name), precedence: 4 };
      case "unary": {
        const template = style.symbol(token.symbol);
        const arg = walk();
        return bracketsArgument(template)
          ? { body: template(arg.body), precedence: 4 }
          : { body: template(atLeast(arg, 4)), precedence: 3 };
      }
      case "binary": {
        const a = walk();
        const b = walk();
        if (token.name === "+" || token.name === "-") {
          // a + (−c) is a − c, a − (−c) is a + c.
          const flip = b.negative !== undefined;
          const sign = (token.name === "-") !== flip ? " - " : " + ";
          const right = flip ? style.number(b.negative!) : token.name === "-" ? atLeast(b, 2) : b.body;
          return { body: `${a.body}${sign}${right}`, precedence: 1 };
        }
        if (token.name === "*") return { body: `${atLeast(a, 2)}${style.times}${atLeast(b, 2)}`, precedence: 2 };
        return style.divide(a, b);
      }
    }
  };
  return walk().body;
}

/** The expression in the text grammar (docs/design.md#text-grammar), constants to 4 significant digits. */
export const expressionText = (library: TokenLibrary, tokens: readonly number[], constants: ArrayLike<number>) =>
  render(library, tokens, constants, TEXT);

/** The expression in LaTeX. */
export const expressionLatex = (library: TokenLibrary, tokens: readonly number[], constants: ArrayLike<number>) =>
  render(library, tokens, constants, LATEX);
