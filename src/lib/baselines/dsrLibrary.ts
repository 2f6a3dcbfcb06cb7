/**
 * The token library of the DSR and VPG baselines (Petersen et al. 2021): the four arithmetic
 * operators, the pool's unary symbols, the inputs and one constant placeholder, with the facts
 * the in-situ constraints need about each token. The facts come from the symbol itself, never
 * from a list of names: a symbol with a `period` is trigonometric (no trig below trig), a unary
 * child u is the inverse of its parent f when f(u(v)) = v at a few positive probe points
 * (exp∘log, log∘exp, x^-1∘x^-1, x^2∘sqrt, sqrt∘x^2), and a symbol that is v itself at those points
 * and their negatives (the identity "x") is left out as a no-op. So plugin symbols take part like the built-ins.
 */
import type { SymbolPlugin } from "../plugins/index.js";

export type Operator = "+" | "-" | "*" | "/";

export type Token =
  | { kind: "binary"; name: Operator }
  | { kind: "unary"; name: string; symbol: SymbolPlugin }
  | { kind: "input"; name: string; input: number }
  | { kind: "constant"; name: "const" };

export interface TokenLibrary {
  tokens: Token[];
  /** Children of each token: 2, 1 or 0. */
  arity: Int8Array;
  /** Index of the constant token. */
  constant: number;
  /** Unary tokens whose symbol is periodic (trigonometric). */
  periodic: Uint8Array;
  /** inverse[f] holds the unary tokens u that f undoes (f(u(v)) = v): banned as f's child. */
  inverse: readonly (readonly number[])[];
}

export const OPERATORS: readonly Operator[] = ["+", "-", "*", "/"];

/** Positive probe points: inside every built-in domain, none of them special (0, 1). */
const PROBES = [0.37, 0.81, 1.43, 2.9];

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** f(v) = v at every probe and their negatives (so that abs is no identity): a no-op as a token. */
const isIdentity = (symbol: SymbolPlugin) =>
  PROBES.every((v) => near(symbol.evaluate(v), v) && near(symbol.evaluate(-v), -v));

/** f(u(v)) = v at every probe where u(v) is defined (and at least two of them). */
function undoes(f: SymbolPlugin, u: SymbolPlugin): boolean {
  let checked = 0;
  for (const v of PROBES) {
    const inner = u.evaluate(v);
    if (!Number.isFinite(inner)) continue;
    const outer = f.evaluate(inner);
    if (!near(outer, v)) return false;
    checked++;
  }
  return checked >= 2;
}

/**
 * The library for `inputs` and the unary `symbols` (the pool's, in its order): operators first,
 * then the symbols, the inputs and the constant.
 */
export function tokenLibrary(inputs: readonly string[], symbols: readonly SymbolPlugin[]): TokenLibrary {
  const unary = symbols.filter((s) => !isIdentity(s));
  const tokens: Token[] = [
    ...OPERATORS.map((name): Token => ({ kind: "binary", name })),
    ...unary.map((symbol): Token => ({ kind: "unary", name: symbol.name, symbol })),
    ...inputs.map((name, input): Token => ({ kind: "input", name, input })),
    { kind: "constant", name: "const" },
  ];
  const arity = Int8Array.from(tokens, (t) => (t.kind === "binary" ? 2 : t.kind === "unary" ? 1 : 0));
  const periodic = Uint8Array.from(tokens, (t) => (t.kind === "unary" && t.symbol.period !== undefined ? 1 : 0));
  const inverse = tokens.map((t) =>
    t.kind !== "unary" ? [] : tokens.flatMap((u, k) => (u.kind === "unary" && undoes(t.symbol, u.symbol) ? [k] : [])),
  );
  return { tokens, arity, constant: tokens.length - 1, periodic, inverse };
}

/** The token names, for the result's record. */
export const tokenNames = (library: TokenLibrary): string[] => library.tokens.map((t) => t.name);
