/**
 * The size of the space a search works in, and how it grows. With `terms` and `maxFactors`
 * given (flags, an experiment, the benchmark's sized mode) the search runs at that size, which
 * holds every smaller structure too. Left at 0 ("auto"), a search starts small and widens when
 * a size is used up or stalls (PySR grows its maxsize the same way), up to the caps; a flag
 * given alone caps its own dimension and the other grows.
 */
import { FACTORS_CAP, InputError, TERMS_CAP } from "../core/index.js";
export { FACTORS_CAP, TERMS_CAP };

/** Largest products per output and factors per product: the auto sizes' caps and the flags' bounds. */

/** New structures in a row without a 1 % better NRMSE after which an auto size widens. */
export const STAGE_PATIENCE = 10;

export interface Size {
  terms: number;
  maxFactors: number;
}

/**
 * The auto sizes in order: single products of up to the cap's factors first (one log-space solve
 * proposes a whole product, however many factors it has), then sums, narrow before wide.
 */
const SCHEDULE: Size[] = [
  { terms: 1, maxFactors: FACTORS_CAP },
  { terms: 2, maxFactors: 2 },
  { terms: 3, maxFactors: 2 },
  { terms: 2, maxFactors: 3 },
  { terms: 4, maxFactors: 3 },
  { terms: 3, maxFactors: 4 },
  { terms: 6, maxFactors: 3 },
  { terms: 8, maxFactors: 4 },
  { terms: TERMS_CAP, maxFactors: FACTORS_CAP },
];

/** Throws an InputError when a given size is outside 0 (auto) … its cap. */
export function checkSize(size: Size): void {
  for (const [name, value, cap] of [
    ["terms", size.terms, TERMS_CAP],
    ["maxFactors", size.maxFactors, FACTORS_CAP],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > cap)
      throw new InputError(
        `search option ${name} must be an integer from 1 to ${cap}, ` +
          `or 0 for a size that grows by itself (got ${value})`,
      );
  }
}

/** The sizes a search visits: one when both are given, else the schedule clipped to what is given. */
export function sizesOf(size: Size): Size[] {
  if (size.terms > 0 && size.maxFactors > 0) return [size];
  const clip = (s: Size): Size => ({
    terms: size.terms > 0 ? Math.min(s.terms, size.terms) : s.terms,
    maxFactors: size.maxFactors > 0 ? Math.min(s.maxFactors, size.maxFactors) : s.maxFactors,
  });
  const out: Size[] = [];
  for (const s of SCHEDULE.map(clip)) {
    // A size inside one already visited adds nothing.
    if (!out.some((o) => o.terms >= s.terms && o.maxFactors >= s.maxFactors)) out.push(s);
  }
  return out;
}
