/**
 * The "laboratory sums" family (issue 56's time-to-answer check): sums of products of 3–6 inputs on
 * realistic ranges, laws of our own making (none from a public list), measured as a scientist
 * would — 1,000 rows, clean and with noise of 1 % of y's RMS that nobody announces. Each law is
 * inside the search's own class, so the question it asks is not whether the law is found but how
 * long noise makes the user wait: a noisy run's search CPU against the same law's clean run
 * (`npm run bench:lab`). Written and committed before the changes that measure it.
 *
 * Entries have the forms family's shape (FormsEntry, kind "sum"), so the forms verdict (`right`:
 * no extra pieces, within 1 % of the truth's RMS on fresh noiseless rows) applies unchanged.
 * Browser-safe: no node: imports.
 */
import type { FormsEntry } from "./forms.js";

/** Training rows of this family's runs. */
export const LAB_ROWS = 1000;

type Range = [number, number];
let count = 0;
const law = (
  truth: string,
  note: string,
  ranges: Record<string, Range>,
  pieces: number,
  evaluate: (x: readonly number[]) => number,
): FormsEntry => ({
  id: `lab-${++count}`,
  kind: "sum",
  truth,
  note,
  inputs: Object.entries(ranges).map(([name, range]) => ({ name, range })),
  evaluate,
  pieces,
});

export const labSumEntries: readonly FormsEntry[] = [
  law(
    "y = a*b*c",
    "heat taken by a mass warmed by ΔT: m·c·ΔT, over decades",
    { a: [0.1, 5], b: [400, 4200], c: [1, 80] },
    1,
    ([a, b, c]) => a! * b! * c!,
  ),
  law(
    "y = a^2*b + c*d",
    "Joule heating beside a second load's V·I",
    { a: [0.1, 3], b: [1, 100], c: [1, 24], d: [0.1, 2] },
    2,
    ([a, b, c, d]) => a! * a! * b! + c! * d!,
  ),
  law(
    "y = 0.5*a*b^2 + c*d",
    "kinetic energy plus the work of a force over a distance",
    { a: [0.5, 20], b: [0, 15], c: [1, 100], d: [0, 5] },
    2,
    ([a, b, c, d]) => 0.5 * a! * b! * b! + c! * d!,
  ),
  law(
    "y = a/b + c*d/e",
    "two ratios of a flow network",
    { a: [1, 50], b: [0.5, 10], c: [0.1, 2], d: [1, 30], e: [1, 4] },
    2,
    ([a, b, c, d, e]) => a! / b! + (c! * d!) / e!,
  ),
  law(
    "y = 3*a*b*c - 2*d*e",
    "a gain less a loss, both products",
    { a: [0.2, 2], b: [1, 10], c: [0.5, 1.5], d: [1, 5], e: [0, 3] },
    2,
    ([a, b, c, d, e]) => 3 * a! * b! * c! - 2 * d! * e!,
  ),
  law(
    "y = a*b*c*d + e*f",
    "a four-factor rate beside a two-factor one, over decades",
    { a: [1, 100], b: [0.1, 1], c: [0.5, 2], d: [1, 3], e: [1, 20], f: [0.5, 5] },
    2,
    ([a, b, c, d, e, f]) => a! * b! * c! * d! + e! * f!,
  ),
  law(
    "y = a^2*b + c^3",
    "a volume of a prism beside a cube",
    { a: [0.5, 3], b: [1, 10], c: [0.2, 2] },
    2,
    ([a, b, c]) => a! * a! * b! + c! * c! * c!,
  ),
  law(
    "y = 4.2*a*b + 0.8*c",
    "an energy per degree plus a standing loss",
    { a: [0, 10], b: [1, 5], c: [10, 200] },
    2,
    ([a, b, c]) => 4.2 * a! * b! + 0.8 * c!,
  ),
  law(
    "y = a*b/c^2 + d",
    "an inverse-square field over a background",
    { a: [1, 10], b: [1, 10], c: [0.5, 5], d: [0, 1] },
    2,
    ([a, b, c, d]) => (a! * b!) / (c! * c!) + d!,
  ),
  law(
    "y = a*b*c + d*e*f + 2.5",
    "two three-factor products and an offset",
    { a: [0.5, 2], b: [1, 4], c: [0.1, 1], d: [1, 3], e: [0.5, 5], f: [0.2, 2] },
    3,
    ([a, b, c, d, e, f]) => a! * b! * c! + d! * e! * f! + 2.5,
  ),
  law(
    "y = a*sqrt(b)*c + d",
    "a root law over a span of decades, with an offset input",
    { a: [1, 5], b: [1, 400], c: [0.5, 2], d: [0, 10] },
    2,
    ([a, b, c, d]) => a! * Math.sqrt(b!) * c! + d!,
  ),
  law(
    "y = 1.5*a*b^2*c/d",
    "a drag-like product over a decade",
    { a: [0.1, 1], b: [1, 20], c: [1, 3], d: [10, 100] },
    1,
    ([a, b, c, d]) => (1.5 * a! * b! * b! * c!) / d!,
  ),
];
