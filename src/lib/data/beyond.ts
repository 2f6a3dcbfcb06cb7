/**
 * The "beyond" family: laws that are not one sum of products of single-input functions, but
 * become one after one step. Of our own making (none from a public list of physics laws, none from
 * `benchmarkExcluded`), written before the search could fit any of them, to measure it honestly.
 *
 * - **ratio**: y = P(x)/Q(x), two short sums (a weighted mean, a combination of rates, a
 *   saturating response);
 * - **transform**: T(y) is a sum of products for T in {y², 1/y, √y, y⁻², log y}: the root of a
 *   sum of squares, the reciprocal of a sum of reciprocals, a quantity over √(1 − a ratio of
 *   squares), a square, an exponential of a sum;
 * - **monomial**: a symbol applied to a product of powers of several inputs: exp(−a·b/c),
 *   sin(w·a·b)², 1 − cos(a·b), …, alone or times an input.
 *
 * The laws are evaluated with the library's deterministic exp, sin and cos (core/math.ts), so the
 * data are the same bits in every JavaScript engine. Each entry has its law as people write it
 * (`truth`, for reports), the truth as a function of the inputs (`evaluate`, for the data and the
 * metrics; the search never reads either), and
 * training ranges chosen so that the wider test ranges (`testRange`) stay in the law's domain.
 * Two forms are the same law when they agree to 1e-9 relative on every held-out point
 * (`sameLaw`); docs/design.md#same-law.
 *
 * Browser-safe: no node: imports.
 */
import { cos, createRng, exp, sin } from "../core/index.js";
import { type BenchmarkInput, testRange } from "./benchmark.js";
import type { Dataset } from "./dataset.js";
import { addNoise } from "./experiments.js";
import { addNoiseRms } from "./noise.js";

export type BeyondKind = "ratio" | "transform" | "monomial";

export interface BeyondEntry {
  /** Unique and stable: "ratio-1". */
  id: string;
  kind: BeyondKind;
  /** The law as people write it (metrics and reports only). */
  truth: string;
  /** What makes it one sum of products (the transform, the ratio's parts, the monomial). */
  note: string;
  inputs: BenchmarkInput[];
  /** The truth at one row, the inputs in `inputs` order (metrics and data only). */
  evaluate: (x: readonly number[]) => number;
}

type Range = [number, number];
const entry = (
  kind: BeyondKind,
  n: number,
  truth: string,
  note: string,
  ranges: Record<string, Range>,
  evaluate: (x: readonly number[]) => number,
): BeyondEntry => ({
  id: `${kind}-${n}`,
  kind,
  truth,
  note,
  inputs: Object.entries(ranges).map(([name, range]) => ({ name, range })),
  evaluate,
});

const RATIOS: BeyondEntry[] = [
  entry(
    "ratio",
    1,
    "y = (2.5*a + 1.2*b)/(a + b)",
    "a weighted mean of 2.5 and 1.2",
    { a: [0.5, 3], b: [0.5, 3] },
    ([a, b]) => (2.5 * a! + 1.2 * b!) / (a! + b!),
  ),
  entry(
    "ratio",
    2,
    "y = 3*a*b/(1 + 0.5*c)",
    "a product over an affine denominator",
    { a: [1, 4], b: [0.2, 1], c: [0, 3] },
    ([a, b, c]) => (3 * a! * b!) / (1 + 0.5 * c!),
  ),
  entry(
    "ratio",
    3,
    "y = (a*b + 2*c)/(a + c^2)",
    "two sums of products",
    { a: [0.5, 2], b: [1, 3], c: [0.5, 1.5] },
    ([a, b, c]) => (a! * b! + 2 * c!) / (a! + c! * c!),
  ),
  entry(
    "ratio",
    4,
    "y = 4*a/(1 + b*c)",
    "a saturating response in b·c",
    { a: [0.5, 2], b: [0.1, 2], c: [0.5, 3] },
    ([a, b, c]) => (4 * a!) / (1 + b! * c!),
  ),
  entry(
    "ratio",
    5,
    "y = (1.5*a^2 - b)/(c + 2*d)",
    "four inputs, a difference over a sum",
    { a: [1, 2], b: [-1, 1], c: [0.5, 2], d: [0.5, 2] },
    ([a, b, c, d]) => (1.5 * a! * a! - b!) / (c! + 2 * d!),
  ),
  entry(
    "ratio",
    6,
    "y = a*b/(a + b + c)",
    "rates in series and a third path",
    { a: [1, 5], b: [1, 5], c: [0.5, 2] },
    ([a, b, c]) => (a! * b!) / (a! + b! + c!),
  ),
  entry(
    "ratio",
    7,
    "y = (0.7 + a*b)/(1.3 + c)",
    "constants in both parts",
    { a: [-1, 1], b: [0, 2], c: [0, 2] },
    ([a, b, c]) => (0.7 + a! * b!) / (1.3 + c!),
  ),
  entry(
    "ratio",
    8,
    "y = (a - b)/(a + b)",
    "a normalised difference",
    { a: [1, 3], b: [0.2, 0.8] },
    ([a, b]) => (a! - b!) / (a! + b!),
  ),
];

const TRANSFORMS: BeyondEntry[] = [
  entry("transform", 1, "y = sqrt(a^2 + 2*b^2)", "y² = a² + 2·b²", { a: [-2, 2], b: [0.5, 2] }, ([a, b]) =>
    Math.sqrt(a! * a! + 2 * b! * b!),
  ),
  entry(
    "transform",
    2,
    "y = sqrt(1.5*a*b + c^2)",
    "y² = 1.5·a·b + c²",
    { a: [0.5, 2], b: [1, 3], c: [-1, 1] },
    ([a, b, c]) => Math.sqrt(1.5 * a! * b! + c! * c!),
  ),
  entry(
    "transform",
    3,
    "y = 1/(1/a + 2/b + 1/c)",
    "1/y = a⁻¹ + 2·b⁻¹ + c⁻¹",
    { a: [1, 3], b: [0.5, 2], c: [2, 5] },
    ([a, b, c]) => 1 / (1 / a! + 2 / b! + 1 / c!),
  ),
  entry(
    "transform",
    4,
    "y = a/sqrt(1 - b^2/c^2)",
    "y⁻² = a⁻² − a⁻²·b²·c⁻²",
    { a: [0.5, 2], b: [0.1, 0.5], c: [1, 2] },
    ([a, b, c]) => a! / Math.sqrt(1 - (b! * b!) / (c! * c!)),
  ),
  entry(
    "transform",
    5,
    "y = (2*a + b*c)^2",
    "√y = 2·a + b·c",
    { a: [0.5, 2], b: [0.5, 1.5], c: [1, 2] },
    ([a, b, c]) => (2 * a! + b! * c!) * (2 * a! + b! * c!),
  ),
  entry(
    "transform",
    6,
    "y = exp(0.5*a + 0.3*b*c)",
    "log y = 0.5·a + 0.3·b·c",
    { a: [-1, 2], b: [0, 2], c: [0.5, 1.5] },
    ([a, b, c]) => exp(0.5 * a! + 0.3 * b! * c!),
  ),
  entry(
    "transform",
    7,
    "y = 1/(a*b + 0.5*c^2)",
    "1/y = a·b + 0.5·c²",
    { a: [0.5, 2], b: [0.5, 2], c: [0.5, 2] },
    ([a, b, c]) => 1 / (a! * b! + 0.5 * c! * c!),
  ),
  entry("transform", 8, "y = sqrt(a*b*c + 4)", "y² = a·b·c + 4", { a: [0.5, 2], b: [0.5, 2], c: [0, 3] }, ([a, b, c]) =>
    Math.sqrt(a! * b! * c! + 4),
  ),
];

const MONOMIALS: BeyondEntry[] = [
  entry(
    "monomial",
    1,
    "y = 2*exp(-a*b/c)",
    "exp of −a·b·c⁻¹",
    { a: [0.5, 2], b: [0.5, 2], c: [1, 3] },
    ([a, b, c]) => 2 * exp((-a! * b!) / c!),
  ),
  entry(
    "monomial",
    2,
    "y = sin(1.5*a*b)^2",
    "sin of 1.5·a·b, squared",
    { a: [0.2, 1], b: [0.5, 1.5] },
    ([a, b]) => sin(1.5 * a! * b!) * sin(1.5 * a! * b!),
  ),
  entry(
    "monomial",
    3,
    "y = 1 - cos(a*b)",
    "one minus cos of a·b",
    { a: [0.2, 1.5], b: [0.5, 1.5] },
    ([a, b]) => 1 - cos(a! * b!),
  ),
  entry(
    "monomial",
    4,
    "y = 3*exp(-0.5*a^2*b)",
    "exp of −0.5·a²·b",
    { a: [0, 2], b: [0.5, 1.5] },
    ([a, b]) => 3 * exp(-0.5 * a! * a! * b!),
  ),
  entry(
    "monomial",
    5,
    "y = c*cos(2*a/b)",
    "cos of 2·a·b⁻¹, times an input",
    { a: [0.2, 1], b: [1, 2], c: [0.5, 2] },
    ([a, b, c]) => c! * cos((2 * a!) / b!),
  ),
  entry(
    "monomial",
    6,
    "y = 1.2*sin(a*b*c) + d",
    "sin of a·b·c, plus an input",
    { a: [0.2, 1], b: [0.5, 1.5], c: [0.5, 1.5], d: [-1, 1] },
    ([a, b, c, d]) => 1.2 * sin(a! * b! * c!) + d!,
  ),
  entry(
    "monomial",
    7,
    "y = exp(-a/(b*c)) + 0.5*a",
    "exp of −a·b⁻¹·c⁻¹, plus a term",
    { a: [0.5, 2], b: [0.5, 2], c: [0.5, 2] },
    ([a, b, c]) => exp(-a! / (b! * c!)) + 0.5 * a!,
  ),
  entry(
    "monomial",
    8,
    "y = 0.8*sin(a^2/b)",
    "sin of a²·b⁻¹",
    { a: [0.3, 1.2], b: [1, 3] },
    ([a, b]) => 0.8 * sin((a! * a!) / b!),
  ),
  entry(
    "monomial",
    9,
    "y = a*exp(-b*c)",
    "an input times exp of −b·c",
    { a: [0.5, 3], b: [0.2, 1], c: [0.5, 2] },
    ([a, b, c]) => a! * exp(-b! * c!),
  ),
];

export const beyondEntries: BeyondEntry[] = [...RATIOS, ...TRANSFORMS, ...MONOMIALS];

export interface BeyondDataOptions {
  /** Rows of the train set and of the test set (500). */
  rows?: number;
  seed: number;
  /** Gaussian noise on the training target at this SNR in dB; noiseless when omitted. */
  snrDb?: number;
  /** Gaussian noise on the training target of this fraction of its RMS (0.01: 1 %); instead of snrDb. */
  noiseRms?: number;
}

/** What a law's data are drawn from: its inputs' ranges and its value at a row (this family, the polynomial). */
export type LawEntry = Pick<BeyondEntry, "inputs" | "evaluate">;

function draw(entry: LawEntry, rows: number, rng: ReturnType<typeof createRng>, wide: boolean): Dataset {
  const inputs = entry.inputs.map((i) => i.name);
  const ranges = entry.inputs.map((i) => (wide ? testRange(i.range) : i.range));
  const x = inputs.map(() => new Float64Array(rows));
  const y = new Float64Array(rows);
  const row = new Array<number>(inputs.length);
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < inputs.length; j++) {
      x[j]![r] = rng.uniform(ranges[j]![0], ranges[j]![1]);
      row[j] = x[j]![r]!;
    }
    y[r] = entry.evaluate(row);
  }
  return { inputs, targets: ["y"], x, y: [y], rows };
}

/**
 * Train and test sets of an entry from the seeded RNG: train on the entry's ranges (drawn
 * first), then test on the wider ranges of `testRange`; noise at `snrDb` on the training target.
 */
export function beyondData(entry: LawEntry, options: BeyondDataOptions): { train: Dataset; test: Dataset } {
  const rows = options.rows ?? 500;
  const rng = createRng(options.seed);
  const train = draw(entry, rows, rng, false);
  const test = draw(entry, rows, rng, true);
  if (options.snrDb !== undefined) addNoise(train.y[0]!, options.snrDb, rng);
  else if (options.noiseRms !== undefined) addNoiseRms(train.y[0]!, options.noiseRms, rng);
  return { train, test };
}

/** Relative agreement two forms of one law must reach on every held-out point. */
export const SAME_LAW_TOLERANCE = 1e-9;

/**
 * Whether predictions are the same law as the truth on held-out points: at every point
 * |ŷ − y| ≤ 1e-9·(|y| + rms(y)) (the rms term keeps a truth that crosses 0 from asking for
 * an impossible relative error there). Returns the largest error in units of that bound.
 */
export function sameLaw(predicted: ArrayLike<number>, truth: ArrayLike<number>): { same: boolean; worst: number } {
  let sum = 0;
  for (let i = 0; i < truth.length; i++) sum += truth[i]! * truth[i]!;
  const rms = Math.sqrt(sum / Math.max(1, truth.length));
  let worst = 0;
  for (let i = 0; i < truth.length; i++) {
    const error = Math.abs(predicted[i]! - truth[i]!) / (SAME_LAW_TOLERANCE * (Math.abs(truth[i]!) + rms));
    worst = Number.isNaN(error) ? Number.POSITIVE_INFINITY : Math.max(worst, error);
  }
  return { same: worst <= 1, worst };
}
