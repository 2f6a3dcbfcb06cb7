/**
 * Large tables: the search works on a sample of the rows, the answer is refitted and scored on
 * all of them (docs/design.md#sample).
 *
 * - How many: every row up to `sampleSize(rows, inputs)` = max(SAMPLE_ROWS, 200 per input); beyond
 *   it, exactly that many. Below the threshold nothing changes (no sample, the same bytes as ever).
 * - How chosen: uniformly at random without replacement (a partial Fisher–Yates shuffle of the row
 *   indices), from a generator of its own seeded from the run's search seed (`sampleSeed`), so the
 *   search's own random stream is the one it would have had; the rows keep their file order.
 * - Refit: a chosen equation that is a plain sum of products (a constant included) gets its
 *   coefficients again by least squares on all rows, inner weights kept; an equation with an outer
 *   function or a denominator keeps the sample's coefficients. Every chosen equation's train NRMSE
 *   is then computed on all rows. The search's own figures (each episode's reward, the Pareto
 *   front, the noise estimate) stay the sample's.
 */
import { createRng } from "../core/index.js";
import type { Dataset } from "../data/index.js";
import { evaluateEquation, evaluateTerm, type Equation } from "../equation/index.js";
import { nrmse } from "../metrics/index.js";
import { leastSquares } from "../numeric/index.js";
import type { SymbolPlugin } from "../plugins/index.js";

/** The fewest rows a sample has: a search on fewer rows than this sees the whole table. */
export const SAMPLE_ROWS = 10_000;
/** Rows per input column a sample keeps at least. */
export const SAMPLE_ROWS_PER_INPUT = 200;

/** What `search.sample` records: the rows searched, of how many, the generator's seed and the method. */
export interface SampleRecord {
  rows: number;
  of: number;
  seed: number;
  method: "uniform";
}

/** The rows a search of a table of `rows` rows and `inputs` input columns works on. */
export const sampleSize = (rows: number, inputs: number): number =>
  Math.min(rows, Math.max(SAMPLE_ROWS, SAMPLE_ROWS_PER_INPUT * inputs));

/** The sample's generator seed, derived from the search seed (the golden ratio's 32 bits added). */
export const sampleSeed = (searchSeed: number): number => (searchSeed + 0x9e3779b9) >>> 0;

/**
 * The search's data: `data` itself when it is small enough, else a uniform sample of its rows
 * (in their order) with the record of how it was drawn.
 */
export function searchSample(data: Dataset, searchSeed: number): { data: Dataset; sample?: SampleRecord } {
  const size = sampleSize(data.rows, data.inputs.length);
  if (size >= data.rows) return { data };
  const seed = sampleSeed(searchSeed);
  const rng = createRng(seed);
  const order = new Int32Array(data.rows);
  for (let i = 0; i < order.length; i++) order[i] = i;
  for (let i = 0; i < size; i++) {
    const j = i + rng.int(data.rows - i);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const rows = order.subarray(0, size).sort();
  const pick = (column: Float64Array) => {
    const out = new Float64Array(size);
    for (let i = 0; i < size; i++) out[i] = column[rows[i]!]!;
    return out;
  };
  return {
    data: { ...data, x: data.x.map(pick), y: data.y.map(pick), rows: size },
    sample: { rows: size, of: data.rows, seed, method: "uniform" },
  };
}

/**
 * `equation` on all of `data`'s rows: a plain sum's coefficients refitted by least squares (inner
 * weights kept; kept as they were where the solve fails or does not lower the error), and its
 * train NRMSE there.
 */
export function refitOnAllRows(
  equation: Equation,
  data: Dataset,
  symbols: (name: string) => SymbolPlugin,
): { equation: Equation; nrmse: number } {
  const k = data.targets.indexOf(equation.target);
  const y = data.y[k]!;
  const columns = (name: string) => data.x[data.inputs.indexOf(name)]!;
  const score = (e: Equation) => nrmse(y, evaluateEquation(e, symbols, columns, data.rows));
  const before = score(equation);
  if (equation.outer || equation.denominator || equation.expression !== undefined || equation.terms.length === 0)
    return { equation, nrmse: before };
  const basis = equation.terms.map((term) => evaluateTerm({ ...term, coefficient: 1 }, symbols, columns, data.rows));
  const solved = leastSquares(basis, y);
  if (!solved) return { equation, nrmse: before };
  const refitted: Equation = {
    ...equation,
    terms: equation.terms.map((term, i) => ({ ...term, coefficient: solved[i]! })),
  };
  const after = score(refitted);
  return after <= before ? { equation: refitted, nrmse: after } : { equation, nrmse: before };
}
