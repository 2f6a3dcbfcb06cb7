/**
 * Many inputs: which of them the search gets (docs/design.md#screen). With more than SCREEN_INPUTS
 * input columns the product library of the search grows as their square and beyond, so the inputs
 * are screened first, per output, by forward selection on the search's rows:
 *
 * 1. every input's columns are its pool symbols f(x) (inner weight 1; a symbol whose domain the
 *    column leaves is skipped), standardised;
 * 2. the residual starts as y minus its mean; the input with the largest |correlation| between one
 *    of its columns and the residual is selected, if that correlation exceeds the threshold
 *    max(0.05, 5/√rows) (the largest of a thousand correlations of unrelated columns stays below
 *    about 3.7/√rows);
 * 3. y is fitted by least squares on the selected inputs' columns and the products of every two
 *    selected inputs (each input's x, and x with the other's x²), and the residual is what is left;
 * 4. repeated until no input passes, the residual is below 1e-9 of y's spread, or 24 are kept.
 *
 * Where the polynomial question is asked (the search setting `polynomial`, up to 22 inputs), an
 * output whose y is an exact sparse polynomial of the inputs (search/polynomialQuestion.ts) keeps
 * the inputs that polynomial uses instead, and any other output adds to its selection the inputs of
 * its best polynomial by the score (a long sum over many inputs leaves each too little correlation),
 * where its noise estimate is above the search's stopNrmse (as the search asks it).
 *
 * The inputs kept are those any output selected, in the table's order; where no input stood out
 * for an output, every input is kept (nothing is dropped on no evidence). The result records
 * `search.inputs: {kept, dropped, reason}`.
 */
import type { Dataset } from "../data/index.js";
import { leastSquares } from "../numeric/index.js";
import { exactPolynomialInputs } from "../search/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";

/** More input columns than this are screened before the search. */
export const SCREEN_INPUTS = 12;
/** At most this many inputs are kept per output. */
const MAX_KEPT = 24;

/** What `search.inputs` records. */
export interface InputScreen {
  kept: string[];
  dropped: string[];
  reason: string;
}

/** A column centred and scaled to unit norm; null when it is constant or not finite. */
function unit(values: Float64Array): Float64Array | null {
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let norm = 0;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i]! - mean;
    norm += out[i]! ** 2;
  }
  norm = Math.sqrt(norm);
  if (!(norm > 0) || !Number.isFinite(norm)) return null;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

const dotOf = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** The inputs one output selects (indices into data.inputs), or null when none stood out. */
function selectFor(
  y: Float64Array,
  columns: Float64Array[][],
  plain: (Float64Array | null)[],
  squared: (Float64Array | null)[],
  threshold: number,
): number[] | null {
  const rows = y.length;
  const centred = unit(y);
  if (!centred) return null;
  let residual = centred;
  const selected: number[] = [];
  const basis: Float64Array[] = [new Float64Array(rows).fill(1)];
  for (let round = 0; round < MAX_KEPT; round++) {
    const r = unit(residual);
    if (!r) break;
    let best = -1;
    let bestScore = threshold;
    columns.forEach((cols, i) => {
      if (selected.includes(i)) return;
      for (const c of cols) {
        const score = Math.abs(dotOf(r, c));
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
    });
    if (best < 0) break;
    for (const other of selected)
      for (const [a, b] of [
        [plain[best], plain[other]],
        [plain[best], squared[other]],
        [squared[best], plain[other]],
      ] as const)
        if (a && b) basis.push(a.map((v, k) => v * b[k]!));
    selected.push(best);
    basis.push(...columns[best]!);
    const solved = leastSquares(basis, centred);
    if (!solved) break;
    const next = Float64Array.from(centred);
    basis.forEach((column, j) => {
      for (let k = 0; k < rows; k++) next[k]! -= solved[j]! * column[k]!;
    });
    residual = next;
    if (Math.sqrt(dotOf(next, next)) < 1e-9) break;
  }
  return selected.length ? selected : null;
}

/**
 * The search's data with only the inputs the screen keeps, and its record; `data` itself (and no
 * record) with SCREEN_INPUTS inputs or fewer.
 */
export function screenInputs(
  data: Dataset,
  pool: readonly string[],
  symbols: Registry<SymbolPlugin>,
  polynomial?: { intercept: boolean; stopNrmse: number },
): { data: Dataset; inputs?: InputScreen } {
  if (data.inputs.length <= SCREEN_INPUTS) return { data };
  const threshold = Math.max(0.05, 5 / Math.sqrt(data.rows));
  const columns = data.x.map((x) =>
    pool.flatMap((name) => {
      const symbol = symbols.get(name);
      if (symbol.domain && !x.every((v) => symbol.domain!(v))) return [];
      const values = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) values[i] = symbol.evaluate(x[i]!);
      const column = unit(values);
      return column ? [column] : [];
    }),
  );
  const plain = data.x.map((x) => unit(Float64Array.from(x)));
  const squared = data.x.map((x) => unit(x.map((v) => v * v)));
  const keep = new Set<number>();
  let everything = false;
  let exact = 0;
  for (const [target, y] of data.y.entries()) {
    const sparse =
      polynomial && exactPolynomialInputs(data, target, pool, symbols, polynomial.intercept, polynomial.stopNrmse);
    if (sparse && sparse.exact) exact++;
    const selected =
      sparse && sparse.exact ? null : selectFor(Float64Array.from(y), columns, plain, squared, threshold);
    // An exact polynomial's inputs alone; else the forward selection's with the best polynomial's.
    const chosen =
      sparse && (sparse.exact || selected) ? [...new Set([...(selected ?? []), ...sparse.inputs])] : selected;
    if (chosen === null) everything = true;
    else for (const i of chosen) keep.add(i);
  }
  const kept = data.inputs.filter((_, i) => everything || keep.has(i));
  const dropped = data.inputs.filter((name) => !kept.includes(name));
  const reason = everything
    ? `more than ${SCREEN_INPUTS} inputs; for an output no input stood out ` +
      `(|correlation| ≤ ${threshold.toFixed(3)}): all kept`
    : `more than ${SCREEN_INPUTS} inputs: forward selection on ${data.rows} rows, each input's pool symbols ` +
      `against the residual of a least-squares fit on those selected (with their pairwise products), ` +
      `threshold |correlation| > ${threshold.toFixed(3)}` +
      (exact > 0 ? `; the inputs of an exact sparse polynomial for ${exact} of ${data.y.length} outputs` : "") +
      (polynomial && exact < data.y.length ? "; with the inputs of the best sparse polynomial" : "");
  if (!dropped.length) return { data, inputs: { kept, dropped, reason } };
  const index = kept.map((name) => data.inputs.indexOf(name));
  return {
    data: { ...data, inputs: kept, x: index.map((i) => data.x[i]!) },
    inputs: { kept, dropped, reason },
  };
}
