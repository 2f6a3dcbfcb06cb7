/**
 * The "forms under noise" family (issue 56): laws of our own making, none from a public list, that a
 * scientist measures with noise nobody announces. Written and committed before the changes that
 * measure them (ratios, functions of monomials and transforms under noise).
 *
 * - **ratio** (8): P/Q of short sums, one to three terms above and below, with and without constants;
 * - **monomial** (8): exp, sin or cos of a product or ratio of inputs, alone, times other inputs, or
 *   beside another term;
 * - **transform** (8): √ of a sum, the reciprocal of a sum, 1/√ of a sum, exp of a sum (log-linear);
 * - **sum** (8): sums of products on realistic ranges, some spanning decades, as a control.
 *
 * Half of the laws have 5–7 inputs, every one of them in the law. Each entry's `note` says which
 * form makes it reachable (a LoCaL sum under an outer function, a ratio of two sums, a symbol of a
 * monomial). The laws are evaluated with the library's deterministic exp, sin and cos (core/math.ts),
 * so the data are the same bits in every JavaScript engine; the data come from `beyondData` (800 rows
 * by default here, `FORMS_ROWS`), with the test set on the wider ranges of `testRange`. Noise: 1 % of
 * y's RMS (SRBench's protocol: `beyondData`'s `noiseRms`) and 20 dB (`snrDb`, relative to y's std).
 *
 * Browser-safe: no node: imports.
 */
import { cos, exp, sin } from "../core/index.js";
import type { BenchmarkInput } from "./benchmark.js";

export type FormsKind = "ratio" | "monomial" | "transform" | "sum";

export interface FormsEntry {
  /** Unique and stable: "forms-ratio-1". */
  id: string;
  kind: FormsKind;
  /** The law as people write it (metrics and reports only; the search never reads it). */
  truth: string;
  /** What the law is, and the form that makes it reachable. */
  note: string;
  inputs: BenchmarkInput[];
  /** The truth at one row, the inputs in `inputs` order (data and metrics only). */
  evaluate: (x: readonly number[]) => number;
  /**
   * The most additive pieces a writing of the law holds (each term and each constant, above and
   * below a ratio, inside an outer function): a right answer holds no more (metrics only).
   */
  pieces: number;
}

/** Training rows of this family's runs. */
export const FORMS_ROWS = 800;

type Range = [number, number];
const counters = new Map<FormsKind, number>();
const law = (
  kind: FormsKind,
  truth: string,
  note: string,
  ranges: Record<string, Range>,
  evaluate: (x: readonly number[]) => number,
): Omit<FormsEntry, "pieces"> => {
  const n = (counters.get(kind) ?? 0) + 1;
  counters.set(kind, n);
  return {
    id: `forms-${kind}-${n}`,
    kind,
    truth,
    note,
    inputs: Object.entries(ranges).map(([name, range]) => ({ name, range })),
    evaluate,
  };
};

const laws: readonly Omit<FormsEntry, "pieces">[] = [
  // Ratios: y = P/Q, found as y·Q = P (ratio form).
  law(
    "ratio",
    "y = 4.2*a/(1 + 0.8*b)",
    "a saturating gain; ratio, a constant below",
    { a: [0.5, 5], b: [0.1, 10] },
    ([a, b]) => (4.2 * a!) / (1 + 0.8 * b!),
  ),
  law(
    "ratio",
    "y = 1.5*a*b/(a + b)",
    "a reduced mass over two decades; ratio, no constant",
    { a: [1, 100], b: [1, 100] },
    ([a, b]) => (1.5 * a! * b!) / (a! + b!),
  ),
  law(
    "ratio",
    "y = 9*a*b/(1 + a*c)",
    "an uptake with saturation; ratio",
    { a: [0.1, 10], b: [0.5, 2], c: [0.01, 1] },
    ([a, b, c]) => (9 * a! * b!) / (1 + a! * c!),
  ),
  law(
    "ratio",
    "y = (2*a + 0.5*b*c)/(1 + 0.3*d)",
    "two sources over a loss; ratio, two terms above",
    { a: [0.5, 3], b: [0.5, 3], c: [0.5, 3], d: [0, 5] },
    ([a, b, c, d]) => (2 * a! + 0.5 * b! * c!) / (1 + 0.3 * d!),
  ),
  law(
    "ratio",
    "y = 3*a*b/(c + 2*d + 0.5*e)",
    "a flux over three resistances in series; ratio, three below",
    { a: [1, 4], b: [0.5, 2], c: [0.5, 3], d: [0.1, 2], e: [1, 6] },
    ([a, b, c, d, e]) => (3 * a! * b!) / (c! + 2 * d! + 0.5 * e!),
  ),
  law(
    "ratio",
    "y = (a*b + 2*c)/(d*e + 1)",
    "a mixed yield; ratio, products above and below",
    { a: [0.5, 2], b: [1, 3], c: [0.2, 2], d: [0.1, 1], e: [0.5, 5] },
    ([a, b, c, d, e]) => (a! * b! + 2 * c!) / (d! * e! + 1),
  ),
  law(
    "ratio",
    "y = 6*a/(b*c + d*e + f)",
    "a driving term over three parallel paths; ratio",
    { a: [1, 10], b: [0.5, 2], c: [0.5, 2], d: [0.2, 1], e: [1, 3], f: [0.5, 4] },
    ([a, b, c, d, e, f]) => (6 * a!) / (b! * c! + d! * e! + f!),
  ),
  law(
    "ratio",
    "y = (0.7*a + b + 0.2*c*d)/(e + f*g)",
    "a blended signal over a gated load; ratio, three above, two below",
    { a: [1, 5], b: [0.5, 3], c: [1, 4], d: [0.5, 2], e: [0.5, 2], f: [0.1, 1], g: [1, 5] },
    ([a, b, c, d, e, f, g]) => (0.7 * a! + b! + 0.2 * c! * d!) / (e! + f! * g!),
  ),
  // Functions of monomials: a symbol of a product or ratio of inputs (monomial form).
  law(
    "monomial",
    "y = 3*exp(-a*b/c)",
    "an Arrhenius-like factor; exp of a monomial",
    { a: [0.5, 2], b: [0.5, 2], c: [1, 4] },
    ([a, b, c]) => 3 * exp(-(a! * b!) / c!),
  ),
  law(
    "monomial",
    "y = a*exp(-0.5*b*c)",
    "an attenuated amplitude; exp of a monomial times an input",
    { a: [1, 10], b: [0.2, 2], c: [0.5, 3] },
    ([a, b, c]) => a! * exp(-0.5 * b! * c!),
  ),
  law(
    "monomial",
    "y = 2*sin(a*b)*c",
    "an oscillation of a product's phase; sin of a monomial times an input",
    { a: [0.5, 1.5], b: [0.5, 1.5], c: [1, 3] },
    ([a, b, c]) => 2 * sin(a! * b!) * c!,
  ),
  law(
    "monomial",
    "y = 1.5*cos(a/b)*c*d",
    "a projection by an angle that is a ratio; cos of a monomial",
    { a: [0.2, 1.2], b: [0.5, 1.5], c: [1, 3], d: [0.5, 2] },
    ([a, b, c, d]) => 1.5 * cos(a! / b!) * c! * d!,
  ),
  law(
    "monomial",
    "y = exp(-a*b/(c*d))*e",
    "a Boltzmann-weighted amount; exp of a four-input monomial times a fifth",
    { a: [0.5, 2], b: [0.5, 2], c: [1, 3], d: [0.5, 2], e: [1, 10] },
    ([a, b, c, d, e]) => exp(-(a! * b!) / (c! * d!)) * e!,
  ),
  law(
    "monomial",
    "y = 4*sin(0.5*a*b*c)*d + e",
    "a driven response plus an offset input; sin of a monomial beside a term",
    { a: [0.5, 1.5], b: [0.5, 1.5], c: [0.5, 2], d: [1, 2], e: [0, 3] },
    ([a, b, c, d, e]) => 4 * sin(0.5 * a! * b! * c!) * d! + e!,
  ),
  law(
    "monomial",
    "y = a*b*exp(-c/(d*e))*f",
    "a rate with an activated step; exp of a ratio monomial times three inputs",
    { a: [0.5, 2], b: [1, 3], c: [0.5, 3], d: [0.5, 2], e: [1, 3], f: [0.2, 1] },
    ([a, b, c, d, e, f]) => a! * b! * exp(-c! / (d! * e!)) * f!,
  ),
  law(
    "monomial",
    "y = 2.5*(1 - cos(a*b))*c*d*e",
    "a pendulum-like energy; 1 − cos of a monomial times three inputs",
    { a: [0.5, 1.5], b: [0.5, 1.5], c: [1, 3], d: [0.5, 2], e: [1, 2] },
    ([a, b, c, d, e]) => 2.5 * (1 - cos(a! * b!)) * c! * d! * e!,
  ),
  // Transforms: T(y) is a sum of products (outer functions sqrt, inverse, inverse-sqrt, exp).
  law("transform", "y = sqrt(a^2 + b^2)", "a magnitude; √ of a sum", { a: [0.1, 10], b: [0.1, 10] }, ([a, b]) =>
    Math.sqrt(a! * a! + b! * b!),
  ),
  law(
    "transform",
    "y = sqrt(2*a*b + c^2)",
    "a speed after a push; √ of a sum",
    { a: [1, 10], b: [0.5, 5], c: [0, 4] },
    ([a, b, c]) => Math.sqrt(2 * a! * b! + c! * c!),
  ),
  law(
    "transform",
    "y = 1/(1/a + 1/b + 1/c)",
    "three resistances in parallel; the reciprocal of a sum",
    { a: [1, 100], b: [1, 100], c: [1, 100] },
    ([a, b, c]) => 1 / (1 / a! + 1 / b! + 1 / c!),
  ),
  law(
    "transform",
    "y = 1/(a*b + c*d + e)",
    "a conductance sum inverted; the reciprocal of a sum",
    { a: [0.5, 2], b: [0.5, 2], c: [0.2, 1], d: [1, 4], e: [0.1, 1] },
    ([a, b, c, d, e]) => 1 / (a! * b! + c! * d! + e!),
  ),
  law(
    "transform",
    "y = exp(0.5*a - 0.2*b*c)",
    "a log-linear response; exp of a sum",
    { a: [0, 4], b: [0.5, 3], c: [0.5, 3] },
    ([a, b, c]) => exp(0.5 * a! - 0.2 * b! * c!),
  ),
  law(
    "transform",
    "y = exp(0.3*a + 0.1*b*c - 0.4*d + 0.2*e)",
    "a growth model with four drivers; exp of a sum",
    { a: [0, 3], b: [0.5, 4], c: [0.5, 3], d: [0, 2], e: [0, 3] },
    ([a, b, c, d, e]) => exp(0.3 * a! + 0.1 * b! * c! - 0.4 * d! + 0.2 * e!),
  ),
  law(
    "transform",
    "y = sqrt(a*b + c*d + e*f)",
    "an RMS of three powers; √ of a sum",
    { a: [0.5, 3], b: [0.5, 3], c: [0.2, 2], d: [1, 5], e: [0.5, 2], f: [0.5, 2] },
    ([a, b, c, d, e, f]) => Math.sqrt(a! * b! + c! * d! + e! * f!),
  ),
  law(
    "transform",
    "y = 1/sqrt(1 + a*b + c*d + e)",
    "a damping factor; 1/√ of a sum",
    { a: [0, 3], b: [0, 2], c: [0.5, 2], d: [0, 3], e: [0, 4] },
    ([a, b, c, d, e]) => 1 / Math.sqrt(1 + a! * b! + c! * d! + e!),
  ),
  // Sums of products on realistic ranges (control).
  law(
    "sum",
    "y = 0.5*a*b^2 + c*d*e",
    "a kinetic plus a work term; sum",
    { a: [0.1, 10], b: [0.5, 5], c: [0.5, 5], d: [1, 20], e: [0.1, 1] },
    ([a, b, c, d, e]) => 0.5 * a! * b! * b! + c! * d! * e!,
  ),
  law(
    "sum",
    "y = a*b*c/d",
    "a product over two decades; one product",
    { a: [1, 100], b: [0.5, 5], c: [1, 10], d: [10, 1000] },
    ([a, b, c, d]) => (a! * b! * c!) / d!,
  ),
  law(
    "sum",
    "y = 8.3*a*b/c",
    "an ideal-gas pressure; one product",
    { a: [0.1, 10], b: [200, 400], c: [0.01, 1] },
    ([a, b, c]) => (8.3 * a! * b!) / c!,
  ),
  law(
    "sum",
    "y = a*b + c*d + e*f + g",
    "three power terms and a base load; sum",
    { a: [0.5, 5], b: [1, 3], c: [0.2, 2], d: [1, 10], e: [0.5, 2], f: [0.5, 4], g: [0, 10] },
    ([a, b, c, d, e, f, g]) => a! * b! + c! * d! + e! * f! + g!,
  ),
  law(
    "sum",
    "y = 2*a*sqrt(b) + 3*c/d + e",
    "a flow with a root law, a ratio and an offset; sum",
    { a: [0.5, 3], b: [1, 100], c: [1, 5], d: [0.5, 5], e: [0, 2] },
    ([a, b, c, d, e]) => 2 * a! * Math.sqrt(b!) + (3 * c!) / d! + e!,
  ),
  law(
    "sum",
    "y = a*b*c*d*e/f^2",
    "a six-input inverse-square law; one product",
    { a: [0.5, 2], b: [1, 5], c: [0.5, 2], d: [1, 3], e: [0.2, 1], f: [0.5, 5] },
    ([a, b, c, d, e, f]) => (a! * b! * c! * d! * e!) / (f! * f!),
  ),
  law(
    "sum",
    "y = 0.5*a*b^2 + 9.81*a*c",
    "kinetic plus potential energy; sum",
    { a: [0.1, 10], b: [0, 20], c: [0, 50] },
    ([a, b, c]) => 0.5 * a! * b! * b! + 9.81 * a! * c!,
  ),
  law(
    "sum",
    "y = a*cos(b) + c*sin(b)",
    "a rotated component; sum of products with functions of one input",
    { a: [0.5, 3], b: [0, 1.5], c: [0.5, 3] },
    ([a, b, c]) => a! * cos(b!) + c! * sin(b!),
  ),
];

/**
 * Each law's pieces (FormsEntry.pieces), counted in its writings: 4.2·a/(1 + 0.8·b) holds 1 + 2;
 * 3·exp(−a·b/c) is one term with a function of a monomial, or exp(−a·b/c + 1.1), two pieces under
 * an outer exp; 2.5·(1 − cos(a·b))·c·d·e is two terms.
 */
const PIECES: Record<string, number> = {
  "forms-ratio-1": 3,
  "forms-ratio-2": 3,
  "forms-ratio-3": 3,
  "forms-ratio-4": 4,
  "forms-ratio-5": 4,
  "forms-ratio-6": 4,
  "forms-ratio-7": 4,
  "forms-ratio-8": 5,
  "forms-monomial-1": 2,
  "forms-monomial-2": 1,
  "forms-monomial-3": 1,
  "forms-monomial-4": 1,
  "forms-monomial-5": 1,
  "forms-monomial-6": 2,
  "forms-monomial-7": 1,
  "forms-monomial-8": 2,
  "forms-transform-1": 2,
  "forms-transform-2": 2,
  "forms-transform-3": 3,
  "forms-transform-4": 3,
  "forms-transform-5": 2,
  "forms-transform-6": 4,
  "forms-transform-7": 3,
  "forms-transform-8": 4,
  "forms-sum-1": 2,
  "forms-sum-2": 1,
  "forms-sum-3": 1,
  "forms-sum-4": 4,
  "forms-sum-5": 3,
  "forms-sum-6": 1,
  "forms-sum-7": 2,
  "forms-sum-8": 2,
};

export const formsEntries: readonly FormsEntry[] = laws.map((entry) => ({ ...entry, pieces: PIECES[entry.id]! }));
