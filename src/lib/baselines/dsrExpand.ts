/**
 * DSR's answer as an equation: the expression tree expanded, where it can be, into the project's
 * sum of products of unary factors (so that E_c and exact recovery apply, as for EQL):
 *
 * - a constant is a term with no factors, an input x a term with the factor x;
 * - sums concatenate, products multiply out, powers of one input add up
 *   (x·x·x is one factor x^3, x/x^2 is x^-1); like terms merge, and a merged coefficient below
 *   1e-9 of the sum's largest is a fitted zero and dropped (cos(2.5·x1 − 2.5·(x1 + x2)) is
 *   cos(−2.5·x2));
 * - a quotient needs a divisor of one term; a symbol divided by must cancel against the same
 *   factor elsewhere in its term (x/(c/(cos(x)·x)) is c⁻¹·x²·cos(x)), powers go negative (x^-1);
 * - an integer power symbol (x^2, x^3, x^-1, … recognised by its values, as the token library
 *   recognises the identity) raises its argument: a sum to a positive power multiplies out;
 * - another symbol f needs an argument c·x of one input: the factor f(c·x) (inner weight c,
 *   or c = 1 for a symbol without one). f(c·x + b) expands where an identity holds for f:
 *   sin and cos by the angle-sum formulas (both symbols must be in the registry), an f with
 *   f(u + b) = f(u)·f(b) (exp) into f(b)·f(c·x).
 *
 * A power of an input is written with the registry's power symbols (x^4 = x^3·x where there is
 * no x^4 symbol). Anything else (a symbol of a sum of inputs, a division by a sum) does not
 * expand: the reason says what, and the result keeps the expression only.
 */
import type { Factor, Term } from "../equation/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import type { TokenLibrary } from "./dsrLibrary.js";
import { cos, pow, sin } from "../core/index.js";

/** A term while expanding: coefficient · Π inputᵢ^powerᵢ · Π other factors / Π divided factors. */
interface Monomial {
  coefficient: number;
  /** Integer power of each input (library input order). */
  powers: number[];
  factors: Factor[];
  /** Factors divided by (x/(c/(cos(x)·x)) on the way to c⁻¹·x²·cos(x)); none may be left at the end. */
  divided: Factor[];
}

/** Beyond this many terms an expansion is not an answer anyone reads. */
const MAX_TERMS = 64;

/**
 * Within a sum, a merged coefficient this small relative to the sum's largest is a fitted zero
 * (2.5·x1 − 2.5000000000001·x1 inside cos(2.5·x1 − 2.5·(x1 + x2))).
 */
const CANCELLED = 1e-9;

class NotExpandable extends Error {}

const PROBES = [-1.7, -0.6, 0.45, 1.3, 2.2];
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** The integer power p with f(v) = v^p at every probe (p in −3…6, not 0), or undefined. */
export function powerOf(symbol: SymbolPlugin): number | undefined {
  for (let p = -3; p <= 6; p++) {
    if (p === 0) continue;
    if (PROBES.every((v) => near(symbol.evaluate(v), pow(v, p)))) return p;
  }
  return undefined;
}

const matches = (symbol: SymbolPlugin, f: (v: number) => number) => PROBES.every((v) => near(symbol.evaluate(v), f(v)));

/** f(u + b) = f(u)·f(b) at the probes (exp). */
const multiplicative = (symbol: SymbolPlugin) =>
  PROBES.every((u) => near(symbol.evaluate(u + 0.7), symbol.evaluate(u) * symbol.evaluate(0.7)));

export interface DsrExpansion {
  terms?: Term[];
  reason?: string;
}

/**
 * Expands the expression (prefix `tokens` with fitted `constants`) into terms of `library`'s
 * inputs, writing powers and partner symbols with `symbols` (the registry's, name → plugin).
 */
export function expandExpression(
  library: TokenLibrary,
  tokens: readonly number[],
  constants: ArrayLike<number>,
  symbols: readonly SymbolPlugin[],
): DsrExpansion {
  const expander = new Expander(library, tokens, constants, symbols);
  try {
    return { terms: expander.walk().map((m) => expander.written(m)) };
  } catch (error) {
    if (error instanceof NotExpandable) return { reason: error.message };
    throw error;
  }
}

/** One expansion: reads the prefix tokens once, left to right, and throws NotExpandable where it cannot go on. */
class Expander {
  /** The library's input names, in its order (a Monomial's powers are in this order). */
  private readonly inputs: string[];
  /** The registry's integer power symbols by power (the first of equals). */
  private readonly powers = new Map<number, string>();
  private readonly sine: SymbolPlugin | undefined;
  private readonly cosine: SymbolPlugin | undefined;
  /** The next token to read, and the next fitted constant. */
  private position = 0;
  private constantIndex = 0;

  constructor(
    private readonly library: TokenLibrary,
    private readonly tokens: readonly number[],
    private readonly constants: ArrayLike<number>,
    symbols: readonly SymbolPlugin[],
  ) {
    this.inputs = library.tokens.flatMap((t) => (t.kind === "input" ? [t.name] : []));
    for (const s of symbols) {
      const p = powerOf(s);
      if (p !== undefined && !this.powers.has(p)) this.powers.set(p, s.name);
    }
    this.sine = symbols.find((s) => matches(s, sin));
    this.cosine = symbols.find((s) => matches(s, cos));
  }

  private constant(c: number): Monomial {
    return constantOf(c, this.inputs.length);
  }
  /** A sum with like monomials merged and the cancelled ones dropped. */
  private collect(terms: Monomial[]): Monomial[] {
    return collect(terms, this.inputs.length);
  }
  private product(a: Monomial[], b: Monomial[]): Monomial[] {
    if (a.length * b.length > MAX_TERMS) throw new NotExpandable(`more than ${MAX_TERMS} terms`);
    return this.collect(a.flatMap((u) => b.map((v) => times(u, v))));
  }

  /** The subtree at the next token, expanded. */
  walk(): Monomial[] {
    const token = this.library.tokens[this.tokens[this.position++]!]!;
    switch (token.kind) {
      case "constant":
        return [this.constant(this.constants[this.constantIndex++]!)];
      case "input": {
        const m = this.constant(1);
        m.powers[token.input] = 1;
        return [m];
      }
      case "binary": {
        const a = this.walk();
        const b = this.walk();
        return this.combine(token.name, a, b);
      }
      case "unary":
        return this.applySymbol(token.symbol, this.walk());
    }
  }

  /** a + b, a − b, a·b or a/b. */
  private combine(operator: string, a: Monomial[], b: Monomial[]): Monomial[] {
    if (operator === "+") return this.collect([...a, ...b]);
    if (operator === "-") return this.collect([...a, ...b.map((m) => ({ ...m, coefficient: -m.coefficient }))]);
    if (operator === "*") return this.product(a, b);
    if (b.length !== 1 || b[0]!.coefficient === 0)
      throw new NotExpandable("a division by a sum is no product of unary factors");
    const d = b[0]!;
    const inverse: Monomial = {
      coefficient: 1 / d.coefficient,
      powers: d.powers.map((p) => -p),
      factors: d.divided,
      divided: d.factors,
    };
    return this.collect(a.map((m) => times(m, inverse)));
  }

  private applySymbol(symbol: SymbolPlugin, arg: Monomial[]): Monomial[] {
    // A symbol of a constant (left by pruning, dsrPrune.ts) is a constant.
    if (arg.length === 1 && isConstant(arg[0]!)) return [this.constant(symbol.evaluate(arg[0]!.coefficient))];
    const p = powerOf(symbol);
    if (p !== undefined) return this.applyPower(symbol, p, arg);
    const single = arg.length === 1 ? linear(arg[0]!) : undefined;
    const withoutWeight = (weight: number) => !symbol.innerWeight && weight !== 1;
    if (single && !withoutWeight(single[1]))
      return [{ ...this.constant(1), factors: [factorOf(symbol, this.inputs[single[0]]!, single[1])] }];
    const shifted = this.applyShifted(symbol, arg);
    if (shifted) return shifted;
    throw new NotExpandable(`${symbol.name} of anything but c·x of one input is no product of unary factors`);
  }

  /** arg^p for an integer power symbol: a sum to a positive power multiplied out. */
  private applyPower(symbol: SymbolPlugin, p: number, arg: Monomial[]): Monomial[] {
    if (p > 0) {
      let out = arg;
      for (let k = 1; k < p; k++) out = this.product(out, arg);
      return out;
    }
    if (arg.length !== 1 || !pure(arg[0]!))
      throw new NotExpandable(`${symbol.name} of a sum or of a symbol is no product of unary factors`);
    const m = arg[0]!;
    return [this.constant(pow(m.coefficient, p))].map((c) => ({ ...c, powers: m.powers.map((q) => q * p) }));
  }

  /** f(c·x + b) by the identities of sin, cos and exponentials; undefined where none holds. */
  private applyShifted(symbol: SymbolPlugin, arg: Monomial[]): Monomial[] | undefined {
    const bias = arg.length === 2 ? arg.findIndex(isConstant) : -1;
    const inner = bias >= 0 ? linear(arg[1 - bias]!) : undefined;
    if (!inner || !symbol.innerWeight) return undefined;
    const { sine, cosine } = this;
    const b = arg[bias]!.coefficient;
    const [input, c] = inner;
    const own: Monomial = { ...this.constant(1), factors: [factorOf(symbol, this.inputs[input]!, c)] };
    if (multiplicative(symbol)) return [{ ...own, coefficient: symbol.evaluate(b) }];
    const partner = symbol === sine ? cosine : symbol === cosine ? sine : undefined;
    if (!partner?.innerWeight) return undefined;
    const other: Monomial = {
      ...this.constant(symbol === sine ? sin(b) : -sin(b)),
      factors: [{ symbol: partner.name, input: this.inputs[input]!, weight: c }],
    };
    return [{ ...own, coefficient: cos(b) }, other];
  }

  /** A finished monomial as a term, its input powers written with the registry's power symbols. */
  written(m: Monomial): Term {
    if (m.divided.length > 0)
      throw new NotExpandable(`a division by ${m.divided[0]!.symbol}(${m.divided[0]!.input}) is no product of factors`);
    const factors: Factor[] = [];
    m.powers.forEach((p, i) => {
      let left = p;
      while (left !== 0) {
        // The largest power symbol towards 0 that fits what is left (x^4 = x^3·x).
        const step = [...this.powers.keys()]
          .filter((q) => Math.sign(q) === Math.sign(left) && Math.abs(q) <= Math.abs(left))
          .sort((a, b) => Math.abs(b) - Math.abs(a))[0];
        if (step === undefined) throw new NotExpandable(`${this.inputs[i]}^${p} has no power symbols to write it with`);
        factors.push({ symbol: this.powers.get(step)!, input: this.inputs[i]! });
        left -= step;
      }
    });
    return { coefficient: m.coefficient, factors: [...factors, ...m.factors] };
  }
}

/** The factor symbol(weight·input), without a weight for a symbol that has no inner weight. */
const factorOf = (symbol: SymbolPlugin, input: string, weight: number): Factor => ({
  symbol: symbol.name,
  input,
  ...(symbol.innerWeight ? { weight } : {}),
});

/** The constant c as a monomial over `width` inputs. */
const constantOf = (c: number, width: number): Monomial => ({
  coefficient: c,
  powers: Array.from({ length: width }, () => 0),
  factors: [],
  divided: [],
});

const same = (f: Factor, g: Factor) =>
  f.symbol === g.symbol && f.input === g.input && (f.weight ?? 1) === (g.weight ?? 1);

/** The factors over the divided ones, equal ones cancelled. */
function cancel(factors: Factor[], divided: Factor[]): { factors: Factor[]; divided: Factor[] } {
  const over = [...factors];
  const under = divided.filter((g) => {
    const at = over.findIndex((f) => same(f, g));
    if (at < 0) return true;
    over.splice(at, 1);
    return false;
  });
  return { factors: over, divided: under };
}

const times = (a: Monomial, b: Monomial): Monomial => ({
  coefficient: a.coefficient * b.coefficient,
  powers: a.powers.map((p, i) => p + b.powers[i]!),
  ...cancel([...a.factors, ...b.factors], [...a.divided, ...b.divided]),
});

const pure = (m: Monomial) => m.factors.length === 0 && m.divided.length === 0;

/** The argument c·x of one input, as [input, c], or undefined. */
function linear(m: Monomial): [number, number] | undefined {
  if (!pure(m)) return undefined;
  const used = m.powers.flatMap((p, i) => (p === 0 ? [] : [[i, p]]));
  return used.length === 1 && used[0]![1] === 1 ? [used[0]![0]!, m.coefficient] : undefined;
}

const isConstant = (m: Monomial) => pure(m) && m.powers.every((p) => p === 0);
const label = (f: Factor) => `${f.symbol}(${f.weight ?? 1}·${f.input})`;
const key = (m: Monomial) =>
  `${m.powers.join(",")}|${m.factors.map(label).join("·")}|${m.divided.map(label).join("·")}`;

/** A sum (over `width` inputs) with like monomials merged and the cancelled ones dropped. */
function collect(terms: Monomial[], width: number): Monomial[] {
  const merged = new Map<string, Monomial>();
  for (const m of terms) {
    const twin = merged.get(key(m));
    if (twin) twin.coefficient += m.coefficient;
    else merged.set(key(m), { ...m });
  }
  const largest = Math.max(0, ...terms.map((m) => Math.abs(m.coefficient)));
  const kept = [...merged.values()].filter((m) => Math.abs(m.coefficient) > CANCELLED * largest);
  return kept.length > 0 ? kept : [constantOf(0, width)];
}
