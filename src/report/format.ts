/**
 * Numbers as every page writes them (one format, checked over the built pages by
 * test/browser/report-pages.test.ts): an NRMSE in exponent form with three significant digits
 * ("1.23e-5"), an E_c (in %, the unit in the column's head or after the number) with three
 * significant digits ("12.3", "0.500", "100"; exponent form below 0.001: "2.10e-5"); 0 as "0", and
 * a missing value as "—".
 */
const missing = (v: number | null | undefined): v is null | undefined =>
  v === null || v === undefined || !Number.isFinite(v);

export const nrmseText = (v: number | null | undefined): string =>
  missing(v) ? "—" : v === 0 ? "0" : v.toExponential(2);

export const ecText = (v: number | null | undefined): string =>
  missing(v) ? "—" : v === 0 ? "0" : Math.abs(v) < 1e-3 ? v.toExponential(2) : v.toPrecision(3);
