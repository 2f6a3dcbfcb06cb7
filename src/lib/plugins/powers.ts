/**
 * Powers of one input, merged into one factor: q·q³ → q⁴, c⁻¹·c⁻² → c⁻³, √c·c⁻¹ → c^(−1/2),
 * α·α⁻¹ → 1. A symbol that is a power of its argument says so (SymbolPlugin.power: x 1, x^2 2,
 * x^3 3, sqrt ½ once its inner weight is folded, x^-1 −1, x^-2 −2); factors of one input with
 * such symbols multiply into x^(Σ p). The merged factor takes a registered symbol of that power
 * where there is one (x·x → x^2 only if x^2 is in the pool — the search never has the same
 * symbol twice in a product, so that case only arises in a written form), and otherwise a
 * derived power symbol, named `x^4`, `x^-3`, `x^3/2` or `x^-1/2`. The symbol registry resolves
 * derived names on demand (Registry.get), so a result that prints one reads back.
 *
 * The complexity of x^p is ⌈|p|⌉, plus 1 for a negative p, plus 1 for a fractional one: the
 * built-ins' own costs (x 1, x^2 2, x^3 3, sqrt 2, x^-1 2, x^-2 3), and subadditive, so a merged
 * factor never costs more than the factors it replaces: a structure with a cancelling pair
 * simplifies to the plain one and never beats it.
 */
import { pow } from "../core/index.js";
import type { SymbolPlugin } from "./kinds.js";

/** Largest denominator a power is written with (user symbols such as x^(1/3) stay exact). */
const MAX_DENOMINATOR = 12;

/** p as a reduced fraction n/d (d ≤ 12), or undefined when it is none. */
export function fraction(p: number): { n: number; d: number } | undefined {
  if (!Number.isFinite(p)) return undefined;
  for (let d = 1; d <= MAX_DENOMINATOR; d++) {
    const n = Math.round(p * d);
    if (Math.abs(p * d - n) <= 1e-9 * Math.max(1, Math.abs(n))) return { n, d };
  }
  return undefined;
}

/** The power written as in a symbol's name: 4, -3, 3/2, -1/2. */
export function powerText(p: number): string {
  const f = fraction(p);
  if (!f) return String(p);
  return f.d === 1 ? String(f.n) : `${f.n}/${f.d}`;
}

/** The name of the derived symbol x^p. */
export const powerName = (p: number): string => `x^${powerText(p)}`;

/** p of a derived power symbol's name (`x^4`, `x^-3`, `x^3/2`), else undefined. */
export function powerOfName(name: string): number | undefined {
  const match = /^x\^(-?\d+)(?:\/(\d+))?$/.exec(name);
  if (!match) return undefined;
  const n = Number(match[1]);
  const d = match[2] === undefined ? 1 : Number(match[2]);
  if (d < 1 || d > MAX_DENOMINATOR || n === 0) return undefined;
  const f = fraction(n / d)!;
  // Only the canonical spelling (reduced, no "x^2/1"): one power, one name.
  return powerName(n / d) === name && f.n !== 0 ? n / d : undefined;
}

/** ⌈|p|⌉ + [p < 0] + [p not whole] (module comment). */
export function powerComplexity(p: number): number {
  return Math.ceil(Math.abs(p) - 1e-9) + (p < 0 ? 1 : 0) + (Number.isInteger(Math.round(p * 1e9) / 1e9) ? 0 : 1);
}

/** x^(n/d) on the reals: an odd denominator keeps the sign of x^n, an even one needs x ≥ 0. */
function realPower(x: number, n: number, d: number): number {
  if (d === 1) {
    if (n < 0 && x === 0) return Number.NaN;
    let out = 1;
    for (let k = 0; k < Math.abs(n); k++) out *= x;
    return n < 0 ? 1 / out : out;
  }
  if (x === 0) return n > 0 ? 0 : Number.NaN;
  if (x < 0) {
    if (d % 2 === 0) return Number.NaN;
    const magnitude = pow(-x, n / d);
    return n % 2 === 0 ? magnitude : -magnitude;
  }
  return pow(x, n / d);
}

const cache = new Map<string, SymbolPlugin>();

/** The symbol x^p (p a fraction with denominator ≤ 12, not 0), made once per power. */
export function powerSymbol(p: number): SymbolPlugin {
  const f = fraction(p);
  if (!f || f.n === 0) throw new RangeError(`powerSymbol: ${p} is not a nonzero fraction with denominator ≤ 12`);
  const name = powerName(p);
  const known = cache.get(name);
  if (known) return known;
  const { n, d } = f;
  const exponent = n / d;
  const written = powerText(exponent);
  const plain = d === 1 && n > 0;
  const positiveOnly = d % 2 === 0;
  const symbol: SymbolPlugin = {
    kind: "symbol",
    name,
    complexity: powerComplexity(exponent),
    innerWeight: false,
    power: exponent,
    text: (a) => (exponent === 1 ? a : plain ? `${a}^${written}` : `${a}^(${written})`),
    latex: (a) => (exponent === 1 ? a : `${a}^{${written}}`),
    evaluate: (x) => realPower(x, n, d),
    derivative: (x) => {
      if (exponent === 1) return 1;
      const below = realPower(x, n - d, d);
      return Number.isFinite(below) ? exponent * below : Number.NaN;
    },
    apply: (x, tf) => tf.pow(x, exponent),
    domain: (x) => (n < 0 ? x !== 0 : true) && (positiveOnly ? x >= 0 : true) && (n < 0 && positiveOnly ? x > 0 : true),
    description: `x^${written}: powers of one input merged into one factor`,
  };
  cache.set(name, symbol);
  return symbol;
}
