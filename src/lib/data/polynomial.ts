/**
 * The "polynomial" family: sums of 2–8 monomials of total degree at most 3 over 2–6 inputs, of our
 * own making (none from a public list), written before the search's polynomial question, to
 * measure it honestly. Half draw every input from U(1, 2), the paper's range, where the degree-2
 * and degree-3 columns are nearly collinear (x and x² correlate at 0.99 there); half draw from
 * wider ranges, some of them through 0 or negative.
 *
 * An entry is its terms (a coefficient and a monomial such as "a^2*b"; "1" is the constant), from
 * which come the law as people write it (`truth`, for reports), its value at a row (`evaluate`,
 * for the data and the metrics; the search reads neither) and its monomials (`monomialsOf`, for
 * the structure verdict under noise). Powers are products of the input, so the data are the same
 * bits in every engine. The data are drawn as the beyond family's (`beyondData`): train on the
 * entry's ranges, test on the wider ranges of `testRange`, noise on the training target.
 *
 * Browser-safe: no node: imports.
 */
import type { BenchmarkInput } from "./benchmark.js";

export interface PolynomialEntry {
  /** Unique and stable: "poly-1". */
  id: string;
  kind: "polynomial";
  /** The law as people write it (metrics and reports only). */
  truth: string;
  note: string;
  inputs: BenchmarkInput[];
  /** The terms: a coefficient and a monomial ("a^2*b", "1" for the constant). */
  terms: readonly (readonly [number, string])[];
  /** The truth at one row, the inputs in `inputs` order (metrics and data only). */
  evaluate: (x: readonly number[]) => number;
}

type Range = [number, number];
const UNIT: Range = [1, 2];

/** A monomial's powers by input name ("a^2*b" → {a: 2, b: 1}; "1" → {}). */
export function powersOf(monomial: string): Record<string, number> {
  const powers: Record<string, number> = {};
  if (monomial === "1") return powers;
  for (const factor of monomial.split("*")) {
    const [name, power] = factor.split("^");
    powers[name!] = (powers[name!] ?? 0) + Number(power ?? 1);
  }
  return powers;
}

/** The canonical key of a monomial: its inputs in name order with their powers ("a^2*b"; "1"). */
export function monomialKey(powers: Record<string, number>): string {
  const parts = Object.entries(powers)
    .filter(([, p]) => p !== 0)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([name, p]) => (p === 1 ? name : `${name}^${p}`));
  return parts.length === 0 ? "1" : parts.join("*");
}

/** The monomials of an entry, as canonical keys. */
export const monomialsOf = (entry: PolynomialEntry): string[] =>
  entry.terms.map(([, monomial]) => monomialKey(powersOf(monomial)));

function textOf(terms: PolynomialEntry["terms"]): string {
  return terms
    .map(([c, m], k) => {
      const magnitude = Math.abs(c);
      const body = m === "1" ? `${magnitude}` : magnitude === 1 ? m : `${magnitude}*${m}`;
      return k === 0 ? (c < 0 ? `-${body}` : body) : `${c < 0 ? " - " : " + "}${body}`;
    })
    .join("");
}

function entry(n: number, note: string, ranges: Record<string, Range>, terms: [number, string][]): PolynomialEntry {
  const names = Object.keys(ranges);
  const compiled = terms.map(([c, m]) => {
    const powers = powersOf(m);
    return { c, factors: Object.entries(powers).map(([name, p]) => [names.indexOf(name), p] as const) };
  });
  return {
    id: `poly-${n}`,
    kind: "polynomial",
    truth: `y = ${textOf(terms)}`,
    note,
    inputs: names.map((name) => ({ name, range: ranges[name]! })),
    terms,
    evaluate: (x) => {
      let sum = 0;
      for (const { c, factors } of compiled) {
        let product = c;
        for (const [i, p] of factors) for (let k = 0; k < p; k++) product *= x[i]!;
        sum += product;
      }
      return sum;
    },
  };
}

const unit = (...names: string[]): Record<string, Range> => Object.fromEntries(names.map((n) => [n, UNIT]));

/** On U(1, 2): nearly collinear libraries. */
const ON_UNIT: PolynomialEntry[] = [
  entry(1, "a line and a product", unit("a", "b"), [
    [2.1, "a"],
    [0.7, "a*b"],
  ]),
  entry(2, "a square, a line and a product", unit("a", "b"), [
    [1.5, "a^2"],
    [-0.8, "b"],
    [0.3, "a*b"],
  ]),
  entry(3, "two products and a square over three inputs", unit("a", "b", "c"), [
    [0.9, "a*b"],
    [1.7, "c^2"],
    [-1.1, "b*c"],
  ]),
  entry(4, "a cubic in one input, a product, a square and a constant", unit("a", "b"), [
    [1, "a^3"],
    [-2, "a*b"],
    [0.5, "b^2"],
    [1.2, "1"],
  ]),
  entry(5, "a triple product beside lines and a square", unit("a", "b", "c"), [
    [0.6, "a*b*c"],
    [1.4, "a"],
    [-0.9, "c^2"],
    [0.4, "b"],
  ]),
  entry(6, "a square times an input beside products and a line", unit("a", "b", "c", "d"), [
    [1.3, "a^2*b"],
    [-0.7, "b*c"],
    [2.2, "d"],
    [0.5, "a*d"],
  ]),
  entry(7, "four lines and one product", unit("a", "b", "c", "d"), [
    [0.8, "a"],
    [0.6, "b"],
    [0.4, "c"],
    [0.2, "d"],
    [1.1, "a*c"],
  ]),
  entry(8, "five inputs, five terms, a cube among them", unit("a", "b", "c", "d", "e"), [
    [2, "a*b"],
    [-1.5, "c*d"],
    [0.5, "e^2"],
    [0.9, "a*e"],
    [-0.3, "b^3"],
  ]),
  entry(9, "a quadratic form with a constant", unit("a", "b", "c"), [
    [0.5, "a^2"],
    [0.5, "b^2"],
    [0.5, "c^2"],
    [-1, "a*b"],
    [-1, "b*c"],
    [0.7, "1"],
  ]),
  entry(10, "six pairwise products and a square over six inputs", unit("a", "b", "c", "d", "e", "f"), [
    [1.2, "a*b"],
    [0.8, "c*d"],
    [0.6, "e*f"],
    [-0.4, "a*f"],
    [1.5, "b*e"],
    [0.3, "c^2"],
  ]),
  entry(11, "two cubics in one input each and their product", unit("a", "b"), [
    [3, "a"],
    [-2, "a^2"],
    [0.5, "a^3"],
    [1.5, "b"],
    [-0.7, "b^2"],
    [0.2, "a*b"],
    [0.9, "b^3"],
  ]),
  entry(12, "eight terms over four inputs, degree 3", unit("a", "b", "c", "d"), [
    [0.4, "a*b*c"],
    [0.9, "b*d"],
    [-1.3, "a*c"],
    [0.7, "d^2"],
    [1.1, "c"],
    [-0.6, "a^2*d"],
    [0.25, "b^2"],
    [2, "1"],
  ]),
];

/** On wider ranges, some through 0 or negative. */
const ON_WIDE: PolynomialEntry[] = [
  entry(13, "a product and a square, a through 0", { a: [-2, 2], b: [0.5, 3] }, [
    [1.8, "a*b"],
    [-0.6, "a^2"],
  ]),
  entry(14, "a cube, a line and a constant", { a: [-1.5, 1.5], b: [0, 4] }, [
    [0.75, "a^3"],
    [-1.2, "b"],
    [0.4, "1"],
  ]),
  entry(15, "a product, a square and a line", { a: [0, 3], b: [-2, 1], c: [0.5, 2.5] }, [
    [2.5, "a*c"],
    [-0.9, "b^2"],
    [1.1, "c"],
  ]),
  entry(16, "a square times an input, a product and a line", { a: [-3, 3], b: [0.2, 2], c: [-1, 1] }, [
    [0.3, "a^2*b"],
    [1.6, "b*c"],
    [-0.8, "a"],
  ]),
  entry(17, "a triple product, a product and a square", { a: [0, 2], b: [1, 5], c: [-1, 2], d: [-2, 2] }, [
    [1, "a*b*c"],
    [-0.5, "a*d"],
    [1.2, "d^2"],
  ]),
  entry(18, "a line, a square, a product and a triple product", { a: [-1, 3], b: [-2, 2], c: [0, 4], d: [0.5, 1.5] }, [
    [1.4, "a"],
    [0.9, "b^2"],
    [-0.6, "c*d"],
    [0.35, "a*b*d"],
  ]),
  entry(
    19,
    "five inputs on five ranges, a cube among them",
    { a: [-2, 2], b: [0, 3], c: [-1, 1], d: [1, 4], e: [-3, 0] },
    [
      [0.2, "a^3"],
      [-1.1, "a*b"],
      [0.8, "c^2"],
      [0.5, "d*e"],
    ],
  ),
  entry(
    20,
    "five lines and a product, ranges of different scales",
    { a: [0, 5], b: [-1, 1], c: [2, 6], d: [-4, -1], e: [0, 1] },
    [
      [2, "a"],
      [-1.5, "b"],
      [0.7, "c"],
      [-0.4, "d"],
      [1.9, "e"],
      [0.6, "a*e"],
    ],
  ),
  entry(
    21,
    "pairwise products of six inputs and a constant",
    { a: [0, 2], b: [-1, 3], c: [0.5, 1.5], d: [-2, 0], e: [1, 3], f: [-1, 1] },
    [
      [0.5, "a*b"],
      [0.5, "c*d"],
      [0.5, "e*f"],
      [-0.25, "a*f"],
      [3, "1"],
    ],
  ),
  entry(22, "a quadratic and a cubic in three inputs", { a: [-1.5, 1.5], b: [-1, 2], c: [0, 2] }, [
    [1.1, "a^2"],
    [-0.9, "b^2"],
    [0.4, "a*b"],
    [2.3, "c"],
    [-0.8, "c^3"],
    [0.6, "b*c"],
  ]),
  entry(23, "seven terms over four inputs, degree 3", { a: [0, 2], b: [-1, 1], c: [0.5, 3], d: [-1.5, 1.5] }, [
    [0.7, "a*b*c"],
    [-1.3, "b^2*d"],
    [0.5, "a*d"],
    [1.8, "c"],
    [-0.6, "d^3"],
    [0.9, "a"],
    [0.2, "b*c*d"],
  ]),
  entry(24, "two cubics in one input each, their product and a constant", { a: [-2, 3], b: [0, 4] }, [
    [1.5, "a"],
    [-0.5, "a^2"],
    [0.25, "a^3"],
    [-1.2, "b"],
    [0.8, "b^2"],
    [-0.1, "b^3"],
    [0.6, "a*b"],
    [1, "1"],
  ]),
];

export const polynomialEntries: PolynomialEntry[] = [...ON_UNIT, ...ON_WIDE];

/** Draws of the long sums' generator (a small LCG of our own: the same terms in every engine). */
function draws(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * A long sum of `terms` distinct products of one or two inputs (a square among them) over `inputs`
 * inputs named x1 … xn, every input used, coefficients ±0.2 … ±2.0 to one decimal; drawn from `seed`.
 */
function longSum(n: number, note: string, inputs: number, terms: number, range: Range, seed: number): PolynomialEntry {
  const next = draws(seed);
  const names = Array.from({ length: inputs }, (_, i) => `x${i + 1}`);
  const chosen = new Map<string, number>();
  const add = (monomial: string) => {
    if (chosen.has(monomial) || chosen.size >= terms) return;
    const magnitude = Math.round(2 + 18 * next()) / 10;
    chosen.set(monomial, next() < 0.5 ? -magnitude : magnitude);
  };
  // Every input once (alone or in a product), then products of two until the sum is long enough.
  for (const [i, name] of names.entries()) {
    const other = names[(i + 1 + Math.floor(next() * (inputs - 1))) % inputs]!;
    add(next() < 0.4 ? name : monomialKey(powersOf(`${name}*${other}`)));
  }
  while (chosen.size < terms) {
    const a = names[Math.floor(next() * inputs)]!;
    const b = names[Math.floor(next() * inputs)]!;
    add(monomialKey(powersOf(next() < 0.2 ? a : `${a}*${b}`)));
  }
  const ranges = Object.fromEntries(names.map((name) => [name, range]));
  return {
    ...entry(
      n,
      note,
      ranges,
      [...chosen].map(([m, c]) => [c, m]),
    ),
    id: `long-${n}`,
  };
}

/**
 * The long sums (issue 55, "long sums over many inputs", written after the question landed and
 * measured against the search with the question off): 10–40 products of one or two inputs over
 * 8–20 inputs, half on U(1, 2), half on wider ranges.
 */
export const longPolynomialEntries: PolynomialEntry[] = [
  longSum(1, "ten products over eight inputs", 8, 10, UNIT, 1),
  longSum(2, "fifteen products over ten inputs, a wider range", 10, 15, [-1, 2], 2),
  longSum(3, "twenty products over twelve inputs", 12, 20, UNIT, 3),
  longSum(4, "twenty-five products over sixteen inputs, a wider range", 16, 25, [0.5, 3], 4),
  longSum(5, "thirty products over twenty inputs", 20, 30, UNIT, 5),
  longSum(6, "forty products over twenty inputs, a wider range", 20, 40, [-2, 2], 6),
];
