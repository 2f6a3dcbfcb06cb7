/**
 * The "composite laws" family (issue 57): laws of our own making, none copied from a public list, that
 * no single form of the search writes — a LoCaL sum, an outer function of one, a ratio of two, a
 * function of one monomial — but that a change of variables, a split, or an expression over LoCaL
 * parts does. Written and committed before the changes that measure it.
 *
 * - **difference** (6): a difference of inputs inside a power or a function (a squared offset, a
 *   distance between two points, a peak around a centre, a phase between two times);
 * - **inner-sum** (6): a sum inside a function (an exponential minus one, two exponentials, one minus
 *   a ratio of squares under a root, a difference of squares squared below, a log of one plus a ratio);
 * - **nested-ratio** (6): a function of a sum or a ratio inside a ratio (a monomial over an exponential
 *   minus one, a logistic step, a saturating ratio with an exponential below);
 * - **nested-transform** (6): a transform of a function of a sum (an exponential of a root, a softplus,
 *   a root of an exponential plus a constant);
 * - **product** (6): products of two different forms (an exponential of a ratio times a sine of a
 *   product, a ratio times an exponential, a root of a sum times a decay).
 *
 * Inputs: 2–6, every one in the law; realistic ranges, some over decades, chosen so that the test set's
 * wider ranges (`testRange`: half the width above a non-negative range) stay in the law's domain (no
 * difference below reaches zero, no root of a negative). Each entry's `note` says what the law is and
 * which decomposition writes it. Evaluated with the library's deterministic exp, log, sin and cos
 * (core/math.ts), so the data are the same bits in every JavaScript engine; data from `beyondData`
 * (1,000 rows here, `COMPOSITE_ROWS`); noise at 1 % of y's RMS (`noiseRms`), not told.
 *
 * Entries have the forms family's shape with kinds of their own; `pieces` counts the additive pieces
 * of the law as written: the top level's terms (one where it is no sum) and every inner sum's
 * (a·(b − c)² holds 3, a·b³/(e^(b/c) − 1) 3, a sum of two exponentials 2; a LoCaL sum its terms), so
 * the forms verdict (`right`: no more pieces, within 1 % of the truth's RMS on fresh noiseless rows)
 * applies to an answer written as an expression too.
 *
 * Browser-safe: no node: imports.
 */
import { cos, exp, log, sin } from "../core/index.js";
import type { FormsEntry } from "./forms.js";

export type CompositeKind = "difference" | "inner-sum" | "nested-ratio" | "nested-transform" | "product";

export interface CompositeEntry extends Omit<FormsEntry, "kind"> {
  kind: CompositeKind;
}

/** Training rows of this family's runs. */
export const COMPOSITE_ROWS = 1000;

type Range = [number, number];
const counters = new Map<CompositeKind, number>();
const law = (
  kind: CompositeKind,
  truth: string,
  note: string,
  ranges: Record<string, Range>,
  pieces: number,
  evaluate: (x: readonly number[]) => number,
): CompositeEntry => {
  const n = (counters.get(kind) ?? 0) + 1;
  counters.set(kind, n);
  return {
    id: `composite-${kind}-${n}`,
    kind,
    truth,
    note,
    inputs: Object.entries(ranges).map(([name, range]) => ({ name, range })),
    evaluate,
    pieces,
  };
};

const sq = (v: number) => v * v;

export const compositeEntries: readonly CompositeEntry[] = [
  // Differences of inputs inside a power or a function: one new input, b − c, makes each a LoCaL.
  law(
    "difference",
    "y = 0.5*a*(b - c)^2",
    "a spring's energy stretched from its rest length; a square of a difference",
    { a: [1, 50], b: [2, 4], c: [0, 1.5] },
    3,
    ([a, b, c]) => 0.5 * a! * sq(b! - c!),
  ),
  law(
    "difference",
    "y = a*exp(-(b - c)^2/d)",
    "a spectral line around its centre; a Gaussian of a difference over a width",
    { a: [1, 5], b: [0, 4], c: [1.5, 2.5], d: [0.5, 2] },
    3,
    ([a, b, c, d]) => a! * exp(-sq(b! - c!) / d!),
  ),
  law(
    "difference",
    "y = sqrt((a - b)^2 + (c - d)^2)",
    "the distance between two points of a plane; a root of two squared differences",
    { a: [0, 1], b: [2, 3], c: [0, 1], d: [1.5, 2.5] },
    7,
    ([a, b, c, d]) => Math.sqrt(sq(a! - b!) + sq(c! - d!)),
  ),
  law(
    "difference",
    "y = 9*a*b/(c - d)^2",
    "the force between two charges on a line; a product over a squared difference of positions",
    { a: [0.1, 2], b: [0.1, 2], c: [4, 6], d: [0, 1] },
    3,
    ([a, b, c, d]) => (9 * a! * b!) / sq(c! - d!),
  ),
  law(
    "difference",
    "y = a*cos(b*(c - d))",
    "a wave seen a delay after it left; a cosine of a frequency times a difference of times",
    { a: [1, 3], b: [1, 2], c: [0, 3], d: [0, 1] },
    3,
    ([a, b, c, d]) => a! * cos(b! * (c! - d!)),
  ),
  law(
    "difference",
    "y = a/(1 + (b - c)^2/d^2)",
    "a resonance's Lorentzian line; a ratio with a squared difference over a width below",
    { a: [1, 5], b: [0, 4], c: [1.5, 2.5], d: [0.5, 1.5] },
    5,
    ([a, b, c, d]) => a! / (1 + sq(b! - c!) / sq(d!)),
  ),
  // Sums inside a function: the function's argument or its inverse is a LoCaL sum.
  law(
    "inner-sum",
    "y = a*(exp(b/c) - 1)",
    "a diode's current over its voltage; an exponential of a ratio minus one",
    { a: [0.01, 1], b: [0.1, 1], c: [0.2, 0.5] },
    3,
    ([a, b, c]) => a! * (exp(b! / c!) - 1),
  ),
  law(
    "inner-sum",
    "y = a*exp(-b*c) + d*exp(-e*c)",
    "two decays of one time; a sum of two exponentials of products",
    { a: [1, 3], b: [0.5, 1.5], c: [0, 3], d: [0.5, 2], e: [2, 4] },
    2,
    ([a, b, c, d, e]) => a! * exp(-b! * c!) + d! * exp(-e! * c!),
  ),
  law(
    "inner-sum",
    "y = a/sqrt(1 - b^2/c^2)",
    "a moving mass's energy; one minus a ratio of squares under a root, below",
    { a: [1, 5], b: [0, 0.5], c: [1, 2] },
    3,
    ([a, b, c]) => a! / Math.sqrt(1 - sq(b!) / sq(c!)),
  ),
  law(
    "inner-sum",
    "y = a*b/(c^2 - d^2)^2",
    "a driven oscillator's power near resonance; a difference of squares squared, below",
    { a: [1, 10], b: [0.5, 2], c: [3, 4], d: [0, 1.5] },
    3,
    ([a, b, c, d]) => (a! * b!) / sq(sq(c!) - sq(d!)),
  ),
  law(
    "inner-sum",
    "y = a*log(1 + b/c)",
    "a channel's capacity by its signal over noise; a log of one plus a ratio",
    { a: [1, 10], b: [0.5, 50], c: [1, 4] },
    3,
    ([a, b, c]) => a! * log(1 + b! / c!),
  ),
  law(
    "inner-sum",
    "y = a*(1 - exp(-b/(c*d)))",
    "a capacitor charging through a resistor; one minus an exponential of a ratio",
    { a: [1, 12], b: [0, 5], c: [0.5, 2], d: [0.5, 2] },
    3,
    ([a, b, c, d]) => a! * (1 - exp(-b! / (c! * d!))),
  ),
  // A function of a sum or ratio inside a ratio.
  law(
    "nested-ratio",
    "y = a*b^3/(exp(b/c) - 1)",
    "a radiator's spectrum by frequency over temperature; a monomial over an exponential minus one",
    { a: [0.5, 2], b: [0.5, 3], c: [0.5, 2] },
    3,
    ([a, b, c]) => (a! * b! ** 3) / (exp(b! / c!) - 1),
  ),
  law(
    "nested-ratio",
    "y = a/(1 + exp((b - c)/d))",
    "a level's occupation by its energy above the chemical potential; a logistic step",
    { a: [1, 3], b: [0, 4], c: [1.5, 2.5], d: [0.3, 1] },
    5,
    ([a, b, c, d]) => a! / (1 + exp((b! - c!) / d!)),
  ),
  law(
    "nested-ratio",
    "y = a*b/(b + c*exp(-d/e))",
    "a saturating uptake whose constant follows an activation; an exponential inside a ratio's sum",
    { a: [1, 5], b: [0.1, 5], c: [0.5, 2], d: [0.5, 2], e: [0.5, 2] },
    3,
    ([a, b, c, d, e]) => (a! * b!) / (b! + c! * exp(-d! / e!)),
  ),
  law(
    "nested-ratio",
    "y = a/(1 - exp(-b/c))",
    "a mean energy of a mode over its quantum; a constant over one minus an exponential",
    { a: [0.5, 3], b: [0.2, 2], c: [0.5, 2] },
    3,
    ([a, b, c]) => a! / (1 - exp(-b! / c!)),
  ),
  law(
    "nested-ratio",
    "y = a*b/sqrt(b^2 + c^2)",
    "a field's component along an axis; a product over a root of a sum of squares",
    { a: [1, 10], b: [0.1, 3], c: [0.5, 3] },
    3,
    ([a, b, c]) => (a! * b!) / Math.sqrt(sq(b!) + sq(c!)),
  ),
  law(
    "nested-ratio",
    "y = a*(1 - exp(-b*c))/(b*d)",
    "the mean of a decay over a window, per unit; one minus an exponential over a product",
    { a: [1, 5], b: [0.2, 2], c: [0.5, 3], d: [0.5, 2] },
    3,
    ([a, b, c, d]) => (a! * (1 - exp(-b! * c!))) / (b! * d!),
  ),
  // A transform of a function of a sum.
  law(
    "nested-transform",
    "y = exp(-sqrt(a^2 + b^2)/c)",
    "a screened field's fall-off by the distance from an origin; an exponential of a root of a sum",
    { a: [0, 2], b: [0, 2], c: [1, 3] },
    3,
    ([a, b, c]) => exp(-Math.sqrt(sq(a!) + sq(b!)) / c!),
  ),
  law(
    "nested-transform",
    "y = a*log(1 + exp(b*c))",
    "a smooth rectifier's output; a log of one plus an exponential of a product",
    { a: [0.5, 2], b: [-2, 2], c: [0.5, 2] },
    3,
    ([a, b, c]) => a! * log(1 + exp(b! * c!)),
  ),
  law(
    "nested-transform",
    "y = sqrt(a*exp(-b/c) + d)",
    "a noise amplitude from a thermal part and a floor; a root of an exponential plus an input",
    { a: [1, 10], b: [0.5, 2], c: [0.5, 2], d: [0.5, 3] },
    3,
    ([a, b, c, d]) => Math.sqrt(a! * exp(-b! / c!) + d!),
  ),
  law(
    "nested-transform",
    "y = a/sqrt(1 + (b*c*d)^2)",
    "a low-pass filter's gain by frequency, resistance and capacitance; a root of one plus a square",
    { a: [1, 5], b: [0.1, 3], c: [0.5, 2], d: [0.5, 2] },
    3,
    ([a, b, c, d]) => a! / Math.sqrt(1 + sq(b! * c! * d!)),
  ),
  law(
    "nested-transform",
    "y = log(a + b*c^2)",
    "a level in decibel-like units of a floor plus a square; a log of a sum",
    { a: [0.5, 2], b: [0.5, 3], c: [0, 3] },
    3,
    ([a, b, c]) => log(a! + b! * sq(c!)),
  ),
  law(
    "nested-transform",
    "y = (a + b*sin(c))^2",
    "a power from an offset plus a swing; a square of a sum with a sine",
    { a: [1, 3], b: [0.2, 1], c: [0, 3] },
    3,
    ([a, b, c]) => sq(a! + b! * sin(c!)),
  ),
  // Products of two different forms.
  law(
    "product",
    "y = a*exp(-b/c)*sin(d*e)",
    "an activated rate times a drive's phase; an exponential of a ratio times a sine of a product",
    { a: [1, 5], b: [0.5, 2], c: [0.5, 2], d: [0.5, 1.5], e: [0.5, 2] },
    1,
    ([a, b, c, d, e]) => a! * exp(-b! / c!) * sin(d! * e!),
  ),
  law(
    "product",
    "y = a*b/(1 + b)*exp(-c*d)",
    "a saturating response damped by an absorber; a ratio times an exponential of a product",
    { a: [1, 5], b: [0.1, 5], c: [0.2, 1], d: [0.5, 3] },
    3,
    ([a, b, c, d]) => ((a! * b!) / (1 + b!)) * exp(-c! * d!),
  ),
  law(
    "product",
    "y = a*sqrt(b + c)*exp(-d/e)",
    "a flow through a gap of two parts, thermally activated; a root of a sum times an exponential",
    { a: [1, 5], b: [0.5, 2], c: [0.5, 2], d: [0.5, 2], e: [0.5, 2] },
    3,
    ([a, b, c, d, e]) => a! * Math.sqrt(b! + c!) * exp(-d! / e!),
  ),
  law(
    "product",
    "y = a*cos(b*c)/(1 + d*e)",
    "a wave's amplitude shared over a load; a cosine of a product over a sum",
    { a: [1, 5], b: [0.5, 1.5], c: [0, 2], d: [0.1, 2], e: [0.5, 2] },
    3,
    ([a, b, c, d, e]) => (a! * cos(b! * c!)) / (1 + d! * e!),
  ),
  law(
    "product",
    "y = a*log(1 + b)*exp(-c/d)",
    "a logarithmic gain times an activation; a log of a sum times an exponential of a ratio",
    { a: [1, 5], b: [0.1, 10], c: [0.5, 2], d: [0.5, 2] },
    3,
    ([a, b, c, d]) => a! * log(1 + b!) * exp(-c! / d!),
  ),
  law(
    "product",
    "y = a*b*(1 - exp(-c/d))*f/(e + f)",
    "a charged store's output through a divider; one minus an exponential times a ratio of inputs",
    { a: [1, 5], b: [0.5, 2], c: [0, 4], d: [0.5, 2], e: [1, 10], f: [1, 10] },
    5,
    ([a, b, c, d, e, f]) => a! * b! * (1 - exp(-c! / d!)) * (f! / (e! + f!)),
  ),
];
