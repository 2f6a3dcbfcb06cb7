/**
 * A higher-precision reference for test/unit/math.test.ts: double-double arithmetic (a value is an
 * unevaluated sum hi + lo of two doubles, about 106 bits), built on the error-free transformations
 * TwoSum (Knuth) and TwoProduct (Dekker, with Veltkamp's splitting: JavaScript has no fma), and
 * double-double exp, log, log2, log10, sin, cos (|x| ≤ 2^20), pow and hypot of double arguments.
 *
 * A result is (hi + lo)·2^scale (`result.hi`, `result.lo`, `result.scale`), so that results beyond
 * the double range (exp(709.8), pow's overflows) or in the subnormal range keep their 106 bits.
 * Relative error: below 2^-100 everywhere the tests use it (checked against decimal expansions).
 *
 * Operations leave their value in the module's registers H, L (no allocation in the loops).
 */

let H = 0;
let L = 0;

const SPLITTER = 134217729; // 2^27 + 1

/** Exact a + b = H + L. */
function twoSum(a: number, b: number): void {
  H = a + b;
  const v = H - a;
  L = a - (H - v) + (b - v);
}

/** Exact a·b = H + L (|a|, |b| < 2^996). */
function twoProd(a: number, b: number): void {
  H = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  L = ah * bh - H + ah * bl + al * bh + al * bl;
}

/** (ah + al) + (bh + bl), accurately (both pairs through TwoSum). */
function add(ah: number, al: number, bh: number, bl: number): void {
  let s = ah + bh;
  let v = s - ah;
  let e = ah - (s - v) + (bh - v);
  const t = al + bl;
  v = t - al;
  const f = al - (t - v) + (bl - v);
  e += t;
  const h = s + e;
  e -= h - s;
  e += f;
  s = h + e;
  L = e - (s - h);
  H = s;
}

/** (ah + al) + b. */
function addD(ah: number, al: number, b: number): void {
  const s = ah + b;
  const v = s - ah;
  const e = ah - (s - v) + (b - v) + al;
  H = s + e;
  L = e - (H - s);
}

/** (ah + al)·(bh + bl). */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const p = ah * bh;
  let t = SPLITTER * ah;
  const ahh = t - (t - ah);
  const ahl = ah - ahh;
  t = SPLITTER * bh;
  const bhh = t - (t - bh);
  const bhl = bh - bhh;
  const e = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl + (ah * bl + al * bh);
  H = p + e;
  L = e - (H - p);
}

/** (ah + al)·b. */
function mulD(ah: number, al: number, b: number): void {
  const p = ah * b;
  let t = SPLITTER * ah;
  const ahh = t - (t - ah);
  const ahl = ah - ahh;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const e = ahh * bh - p + ahh * bl + ahl * bh + ahl * bl + al * b;
  H = p + e;
  L = e - (H - p);
}

/** √(ah + al), ah > 0: one Newton correction of the double square root. */
function sqrt(ah: number, al: number): void {
  const s = Math.sqrt(ah);
  twoProd(s, s);
  add(ah, al, -H, -L);
  const c = H / (2 * s);
  twoSum(s, c);
}

// ── exact constants from decimal expansions (BigInt rationals rounded to doubles) ──

const bitLength = (n: bigint) => n.toString(2).length;

/** A positive rational num/den as its nearest double m·2^e (m < 2^54), exactly: [m, e]. */
function nearest(num: bigint, den: bigint): [bigint, number] {
  let e = bitLength(num) - bitLength(den) - 53;
  for (;;) {
    const n = e < 0 ? num << BigInt(-e) : num;
    const d = e < 0 ? den : den << BigInt(e);
    let q = n / d;
    if (q < 1n << 52n) {
      e--;
      continue;
    }
    if (q >= 1n << 53n) {
      e++;
      continue;
    }
    const r2 = 2n * (n - q * d);
    if (r2 > d || (r2 === d && (q & 1n) === 1n)) q++;
    return [q, e];
  }
}

/** A signed rational as the sum of `count` doubles, each the nearest to what the earlier ones leave. */
function rationalParts(num: bigint, den: bigint, count: number): number[] {
  const parts: number[] = [];
  for (let i = 0; i < count; i++) {
    if (num === 0n) {
      parts.push(0);
      continue;
    }
    const negative = num < 0n;
    const [m, e] = nearest(negative ? -num : num, den);
    const sm = negative ? -m : m;
    parts.push(Number(sm) * 2 ** e);
    // num/den − sm·2^e
    if (e >= 0) num -= (sm << BigInt(e)) * den;
    else {
      num = (num << BigInt(-e)) - sm * den;
      den <<= BigInt(-e);
    }
  }
  return parts;
}

/** A decimal string ("-1.25e-3" or "3.14159…") as `count` double parts. */
export function decimalParts(text: string, count = 2): number[] {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!match) throw new Error(`not a decimal number: ${text}`);
  const [, sign, int = "", frac = "", exp = "0"] = match;
  let num = BigInt(`${int}${frac}` || "0");
  let den = 1n;
  const scale = Number(exp) - frac.length;
  if (scale >= 0) num *= 10n ** BigInt(scale);
  else den = 10n ** BigInt(-scale);
  return rationalParts(sign === "-" ? -num : num, den, count);
}

const PI = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803483";
const LN2_TEXT = "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863327";
const LOG2E_TEXT = "1.44269504088896340735992468100189213742664595415298593413544940693110921918118507988552662";
const LOG10E_TEXT = "0.434294481903251827651128918916605082294397005803666566114453783165864649208870774729224949";

// π/2 in four parts (about 210 bits), ln 2 in three.
const [PIO2_1, PIO2_2, PIO2_3, PIO2_4] = (() => {
  const [p1, p2, p3, p4] = decimalParts(PI, 4);
  return [p1! / 2, p2! / 2, p3! / 2, p4! / 2];
})() as [number, number, number, number];
const [LN2_1, LN2_2, LN2_3] = decimalParts(LN2_TEXT, 3) as [number, number, number];
const [LOG2E_H, LOG2E_L] = decimalParts(LOG2E_TEXT) as [number, number];
const [LOG10E_H, LOG10E_L] = decimalParts(LOG10E_TEXT) as [number, number];
const TWO_OVER_PI = 0.6366197723675814;

/** 1/n! as double-double [hi, lo], n = 0…30. */
const INV_FACTORIAL: [number, number][] = (() => {
  const table: [number, number][] = [];
  let f = 1n;
  for (let n = 0; n <= 30; n++) {
    if (n > 0) f *= BigInt(n);
    const [hi, lo] = rationalParts(1n, f, 2);
    table.push([hi!, lo!]);
  }
  return table;
})();
const invFactorial = (n: number): [number, number] => INV_FACTORIAL[n]!;

// ── results ──

/** The last result: (hi + lo)·2^scale. */
export const result = { hi: 0, lo: 0, scale: 0 };

function setResult(hi: number, lo: number, scale: number): void {
  result.hi = hi;
  result.lo = lo;
  result.scale = scale;
}

/** 2^k as a double, k in [-1022, 1023]. */
const twoTo = (k: number) => 2 ** k;

/** x·2^n exactly, for a double x and any integer n, when x·2^n and the steps toward it stay normal. */
export function ldexp(x: number, n: number): number {
  if (x === 0 || Number.isNaN(x)) return x;
  if (n > 2200) return x * Number.POSITIVE_INFINITY;
  if (n < -2200) return x * 0;
  while (n > 1000) {
    x *= twoTo(1000);
    n -= 1000;
  }
  while (n < -1000) {
    x *= twoTo(-1000);
    n += 1000;
  }
  return x * twoTo(n);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** floor(log2|x|) of a finite nonzero double, subnormals included. */
export function exponentOf(x: number): number {
  f64[0] = x;
  const biased = (u32[HI_WORD]! >>> 20) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  f64[0] = x * 18014398509481984;
  return ((u32[HI_WORD]! >>> 20) & 0x7ff) - 1023 - 54;
}

// ── exp ──

// e^s − 1 for |s| ≤ ln2/2·2^-4: terms s^n/n! for n ≤ 7 in double-double, 8…15 in double.
const C3 = invFactorial(3);
const C4 = invFactorial(4);
const C5 = invFactorial(5);
const C6 = invFactorial(6);
const C7 = invFactorial(7);
const [T8, T9, T10, T11, T12, T13, T14, T15] = [8, 9, 10, 11, 12, 13, 14, 15].map((n) => invFactorial(n)[0]) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const SQUARINGS = 4;

/** e^(rh + rl) − 1 for |r| ≤ 0.35, into H, L (relative error ~2^-104). */
function expm1Reduced(rh: number, rl: number): void {
  const sh = rh * 0.0625;
  const sl = rl * 0.0625;
  // e^s − 1 = s + s²·q, q = 1/2! + s/3! + … + s^5/7! + s^6·(1/8! + s/9! + …), the last sum in double
  const tail = T8 + sh * (T9 + sh * (T10 + sh * (T11 + sh * (T12 + sh * (T13 + sh * (T14 + sh * T15))))));
  addD(C7[0], C7[1], sh * tail);
  mul(H, L, sh, sl);
  add(H, L, C6[0], C6[1]);
  mul(H, L, sh, sl);
  add(H, L, C5[0], C5[1]);
  mul(H, L, sh, sl);
  add(H, L, C4[0], C4[1]);
  mul(H, L, sh, sl);
  add(H, L, C3[0], C3[1]);
  mul(H, L, sh, sl);
  addD(H, L, 0.5);
  const qh = H;
  const ql = L;
  mul(sh, sl, sh, sl);
  mul(H, L, qh, ql);
  add(H, L, sh, sl);
  // e^(2s) − 1 = (e^s − 1)·(e^s + 1)
  for (let i = 0; i < SQUARINGS; i++) {
    const eh = H;
    const el = L;
    addD(eh, el, 2);
    mul(H, L, eh, el);
  }
}

/** e^(xh + xl): result (hi + lo)·2^scale with hi in [1/√2, √2] (for |x| > 2^49 only the side: scale ±10^6). */
export function ddExp(xh: number, xl = 0): void {
  if (xh > 2 ** 49 || xh < -(2 ** 49)) {
    setResult(1, 0, xh > 0 ? 1e6 : -1e6);
    return;
  }
  const k = Math.round(xh * Math.LOG2E);
  // r = x − k·ln 2 with ln 2 in three parts (k·LN2_1 and k·LN2_2 exact)
  twoProd(k, LN2_1);
  add(xh, xl, -H, -L);
  const rh = H;
  const rl = L;
  twoProd(k, LN2_2);
  add(rh, rl, -H, -L - k * LN2_3);
  expm1Reduced(H, L);
  addD(H, L, 1);
  setResult(H, L, k);
}

// ── log ──

/** log x for a finite positive double x, as a double-double in H, L (no scale). */
function logInto(x: number): void {
  // Newton's step on e^y = x from the engine's log y0: y = y0 + log(x·e^-y0) = y0 + d − d²/2 + d³/3 …
  let y0 = Math.log(x);
  for (let iteration = 0; ; iteration++) {
    if (Math.abs(y0) < 0.34) {
      // x near 1: d = x·(e^-y0 − 1) + (x − 1), without the cancellation of x·e^-y0 − 1
      expm1Reduced(-y0, 0);
      mulD(H, L, x);
      addD(H, L, x - 1);
    } else {
      ddExp(-y0);
      const e = exponentOf(x);
      const m = ldexp(x, -e); // x = m·2^e, 1 ≤ m < 2
      mulD(result.hi, result.lo, m);
      const s = twoTo(result.scale + e);
      addD(H * s, L * s, -1);
    }
    const dh = H;
    const dl = L;
    if (Math.abs(dh) > 2 ** -30 * Math.max(1, Math.abs(y0)) && iteration < 3) {
      y0 += dh; // a poor start (never with a faithful Math.log): step again
      continue;
    }
    const corr = dh * dh * (-0.5 + dh / 3);
    twoSum(y0, dh);
    addD(H, L, dl + corr);
    return;
  }
}

/** log x, x finite and positive. */
export function ddLog(x: number): void {
  logInto(x);
  setResult(H, L, 0);
}

/** log2 x = log x · log2 e. */
export function ddLog2(x: number): void {
  logInto(x);
  mul(H, L, LOG2E_H, LOG2E_L);
  setResult(H, L, 0);
}

/** log10 x = log x · log10 e. */
export function ddLog10(x: number): void {
  logInto(x);
  mul(H, L, LOG10E_H, LOG10E_L);
  setResult(H, L, 0);
}

// ── sin, cos ──

// sin r = r·Σ (−z)^i/(2i+1)!, cos r = Σ (−z)^i/(2i)!, z = r², |r| ≤ π/4: terms up to z^8 in
// double-double, z^9… in double (below 2^-60 of the sum).
const SIN_DD = [1, 3, 5, 7, 9, 11, 13, 15, 17].map((n, i) => {
  const [h, l] = invFactorial(n);
  return i % 2 === 0 ? [h, l] : [-h, -l];
}) as [number, number][];
const COS_DD = [0, 2, 4, 6, 8, 10, 12, 14, 16].map((n, i) => {
  const [h, l] = invFactorial(n);
  return i % 2 === 0 ? [h, l] : [-h, -l];
}) as [number, number][];
const SIN_TAIL = [19, 21, 23, 25, 27, 29].map((n, i) => (i % 2 === 0 ? -1 : 1) * invFactorial(n)[0]);
const COS_TAIL = [18, 20, 22, 24, 26, 28].map((n, i) => (i % 2 === 0 ? -1 : 1) * invFactorial(n)[0]);

/** Σ c_i·z^i (c: double-double coefficients, then the tail's in double) into H, L. */
function series(zh: number, zl: number, c: [number, number][], tail: number[]): void {
  let t = 0;
  for (let i = tail.length - 1; i >= 0; i--) t = t * zh + tail[i]!;
  const [h, l] = c[c.length - 1]!;
  addD(h, l, zh * t);
  for (let i = c.length - 2; i >= 0; i--) {
    mul(H, L, zh, zl);
    const [ch, cl] = c[i]!;
    add(H, L, ch, cl);
  }
}

/** sin or cos of a double |x| ≤ 2^20. */
export function ddSinCos(x: number, cosine: boolean): void {
  const n = Math.round(x * TWO_OVER_PI);
  // r = x − n·π/2, π/2 in four parts, every product n·part exact (n < 2^20)
  twoProd(n, PIO2_1);
  addD(-H, -L, x);
  let rh = H;
  let rl = L;
  twoProd(n, PIO2_2);
  add(rh, rl, -H, -L);
  rh = H;
  rl = L;
  twoProd(n, PIO2_3);
  add(rh, rl, -H, -L - n * PIO2_4);
  rh = H;
  rl = L;
  const quadrant = ((n % 4) + 4 + (cosine ? 1 : 0)) % 4;
  mul(rh, rl, rh, rl);
  const zh = H;
  const zl = L;
  if (quadrant % 2 === 0) {
    series(zh, zl, SIN_DD, SIN_TAIL);
    mul(H, L, rh, rl);
  } else series(zh, zl, COS_DD, COS_TAIL);
  if (quadrant === 2 || quadrant === 3) setResult(-H, -L, 0);
  else setResult(H, L, 0);
}

// ── pow, hypot ──

/** x^y for finite x ≠ 0 and finite y (x < 0 only with an integer y). */
export function ddPow(x: number, y: number): void {
  const negative = x < 0 && Math.abs(y % 2) === 1;
  logInto(Math.abs(x));
  mulD(H, L, y);
  ddExp(H, L);
  if (negative) setResult(-result.hi, -result.lo, result.scale);
}

/** √(a² + b²) for finite a, b. */
export function ddHypot(a: number, b: number): void {
  const x = Math.abs(a);
  const y = Math.abs(b);
  const max = Math.max(x, y);
  if (max === 0) {
    setResult(0, 0, 0);
    return;
  }
  const e = exponentOf(max);
  const xs = ldexp(x, -e);
  const ys = ldexp(y, -e);
  twoProd(xs, xs);
  const h = H;
  const l = L;
  twoProd(ys, ys);
  add(h, l, H, L);
  sqrt(H, L);
  setResult(H, L, e);
}

/**
 * The error of `ours` in units in the last place of the reference in `result`:
 * (ours − ref)/ulp(ref), with ulp(ref) = 2^(max(floor(log2|ref|), −1022) − 52) and ±∞ taken as
 * ±2^1024 (so an overflow to ∞ of a reference just below 2^1024 costs its distance).
 * Infinite when ours is NaN, or finite where the reference is beyond 2^1024 (and 0 when ours is ∞ there).
 */
export function ulpError(ours: number): number {
  const { hi, lo, scale } = result;
  if (Number.isNaN(ours)) return Number.POSITIVE_INFINITY;
  if (hi === 0) return ours / 2 ** -1074;
  let e = exponentOf(hi);
  // hi + lo below the power of two hi: one binade lower
  if (Math.abs(hi) === twoTo(e) && lo !== 0 && lo < 0 !== hi < 0) e--;
  const refExponent = e + scale;
  if (refExponent >= 1024) {
    return ours === (hi > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY) ? 0 : Number.POSITIVE_INFINITY;
  }
  const ulpExponent = Math.max(refExponent, -1022) - 52;
  const mine = Number.isFinite(ours) ? ldexp(ours, -ulpExponent) : Math.sign(ours) * twoTo(1024 - ulpExponent);
  // (hi + lo)·2^(scale − ulpExponent): hi scaled is near 2^52 (or below it for subnormal references)
  const k = scale - ulpExponent;
  twoSum(mine, -ldexp(hi, k));
  return H + (L - ldexp(lo, k));
}
