/**
 * Elementary functions that give the same bits in every JavaScript engine.
 *
 * `Math.sin`, `cos`, `exp`, `log`, `log2`, `log10` and `pow` are only required by ECMAScript to be
 * "implementation-approximated". Node's V8 computes them with its port of fdlibm (Sun's freely
 * distributable libm); Chromium's V8 uses other code for some of them, and the two differ in the
 * last bit on a few per cent of arguments. A search is a chain of decisions on such numbers (which
 * structure fits better, when to stop), so one different bit can send a browser run elsewhere.
 *
 * These functions follow the fdlibm algorithms (argument reduction, the same minimax polynomials
 * and the same order of operations) in plain double arithmetic, which IEEE 754 makes exact and
 * portable. On Node they return the bits of `Math.*` (a test checks over a million seeded
 * arguments per function), so switching to them changed no committed result; in any other engine
 * they return those same bits. Their error, measured in `test/unit/math.test.ts` against a
 * double-double reference: below 1 ulp for sin, cos, exp, log, log2 and pow with |y| ≤ 2^31;
 * up to 1.72 ulp for log10 and 1.95 ulp for hypot (V8's algorithms, kept for the bit match);
 * pow with |y| > 2^31 and x within 2^-20 of 1 (fdlibm's shortcut there) up to a few hundred ulp.
 *
 * One part is not fdlibm's: sin and cos of |x| > 2^19·π/2 reduce x modulo π/2 exactly with
 * BigInt arithmetic on 1400 bits of 2/π (fdlibm uses its own multi-word routine there). Its
 * result is as accurate, but may differ from Node's `Math.sin` in the last bit for such x.
 */

// ── access to the two 32-bit words of a double (high word: sign, exponent, top of the mantissa) ──
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;

/** High word as a signed 32-bit integer (C's `int hx = __HI(x)`). */
function high(x: number): number {
  f64[0] = x;
  return u32[HI]! | 0;
}
/** Low word, unsigned. */
function low(x: number): number {
  f64[0] = x;
  return u32[LO]!;
}
function fromWords(hi: number, lo: number): number {
  u32[HI] = hi >>> 0;
  u32[LO] = lo >>> 0;
  return f64[0]!;
}
/** x with its low word cleared. */
function clearLow(x: number): number {
  f64[0] = x;
  u32[LO] = 0;
  return f64[0]!;
}
/** x with its high word replaced. */
function setHigh(x: number, hi: number): number {
  f64[0] = x;
  u32[HI] = hi >>> 0;
  return f64[0]!;
}
/** 2^k for an integer k in [-1022, 1023], exactly. */
const twoTo = (k: number): number => fromWords((k + 1023) << 20, 0);

// ── exp ──
const LN2_HI = 0.6931471803691238;
const LN2_LO = 1.9082149292705877e-10;
const INV_LN2 = Math.LOG2E;
const P1 = 0.16666666666666602;
const P2 = -0.0027777777777015593;
const P3 = 0.00006613756321437934;
const P4 = -0.0000016533902205465252;
const P5 = 4.1381367970572385e-8;
const EXP_OVERFLOW = 709.782712893384;
const EXP_UNDERFLOW = -745.1332191019411;
const TWO_M1000 = 9.332636185032189e-302;

/** e^x. */
export function exp(x: number): number {
  let hx = high(x);
  const negative = hx < 0;
  hx &= 0x7fffffff;
  if (hx >= 0x40862e42) {
    // |x| ≥ 709.78: overflow, underflow, NaN or infinity
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | low(x)) !== 0) return x + x;
      return negative ? 0 : x;
    }
    if (x > EXP_OVERFLOW) return Number.POSITIVE_INFINITY;
    if (x < EXP_UNDERFLOW) return 0;
  }
  let hi = 0;
  let lo = 0;
  let k = 0;
  if (hx > 0x3fd62e42) {
    // |x| > ln2/2: x = k·ln2 + r, |r| ≤ ln2/2
    if (hx < 0x3ff0a2b2) {
      if (x === 1) return Math.E; // as V8: the reduction below gets e wrong in the last bit
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = (INV_LN2 * x + (negative ? -0.5 : 0.5)) | 0;
      hi = x - k * LN2_HI;
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (hx < 0x3e300000) {
    // |x| < 2^-28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2) - x);
  const y = 1 - (lo - (x * c) / (2 - c) - hi);
  if (k >= -1021) return k === 1024 ? y * 2 * twoTo(1023) : y * twoTo(k);
  return y * twoTo(k + 1000) * TWO_M1000;
}

// ── log, log2, log10 ──
const TWO54 = 18014398509481984;
const LG1 = 0.6666666666666735;
const LG2 = 0.3999999999940942;
const LG3 = 0.2857142874366239;
const LG4 = 0.22222198432149784;
const LG5 = 0.1818357216161805;
const LG6 = 0.15313837699209373;
const LG7 = 0.14798198605116586;

/** The shared first step of log, log2 and log10: x = 2^k·(1+f) with √2/2 ≤ 1+f < √2. */
interface Reduced {
  k: number;
  f: number;
  hx: number;
}
const reduced: Reduced = { k: 0, f: 0, hx: 0 };

/**
 * The special cases every logarithm shares: returns the answer for 0, negative, infinite or NaN x;
 * otherwise undefined, with x (a subnormal scaled by 2^54) and its high word in `scaled` and k = −54
 * or 0.
 */
const scaled = { x: 0, hx: 0, k: 0 };
function logSpecial(x: number): number | undefined {
  let hx = high(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022: zero, negative or subnormal
    if (((hx & 0x7fffffff) | low(x)) === 0) return Number.NEGATIVE_INFINITY;
    if (hx < 0) return Number.NaN;
    k -= 54;
    x *= TWO54;
    hx = high(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  scaled.x = x;
  scaled.hx = hx;
  scaled.k = k;
  return undefined;
}

/** Fills `reduced` and returns undefined, or returns the answer for 0, negative, infinite or NaN x. */
function reduceLog(x0: number): number | undefined {
  const special = logSpecial(x0);
  if (special !== undefined) return special;
  let { x, hx, k } = scaled;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = setHigh(x, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  reduced.k = k;
  reduced.f = x - 1;
  reduced.hx = hx;
  return undefined;
}

/** log(1+f) − f + f²/2 for the reduced f (FreeBSD's k_log1p). */
function logKernel(f: number): number {
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const hfsq = 0.5 * f * f;
  return s * (hfsq + (t2 + t1));
}

/** Natural logarithm. */
export function log(x: number): number {
  const special = reduceLog(x);
  if (special !== undefined) return special;
  const { k, f, hx } = reduced;
  if ((0x000fffff & (2 + hx)) < 3) {
    // −2^-20 ≤ f < 2^-20
    if (f === 0) return k === 0 ? 0 : k * LN2_HI + k * LN2_LO;
    const r = f * f * (0.5 - 0.3333333333333333 * f);
    return k === 0 ? f - r : k * LN2_HI - (r - k * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const r = t2 + t1;
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    if (k === 0) return f - (hfsq - s * (hfsq + r));
    return k * LN2_HI - (hfsq - (s * (hfsq + r) + k * LN2_LO) - f);
  }
  if (k === 0) return f - s * (f - r);
  return k * LN2_HI - (s * (f - r) - k * LN2_LO - f);
}

const IVLN2_HI = 1.4426950407214463;
const IVLN2_LO = 1.6751713164886512e-10;

/** Base-2 logarithm. */
export function log2(x: number): number {
  if (x === 1) return 0;
  const special = reduceLog(x);
  if (special !== undefined) return special;
  const { k, f } = reduced;
  const hfsq = 0.5 * f * f;
  const r = logKernel(f);
  const hi = clearLow(f - hfsq);
  const lo = f - hi - hfsq + r;
  let valHi = hi * IVLN2_HI;
  let valLo = (lo + hi) * IVLN2_LO + lo * IVLN2_HI;
  const w = k + valHi;
  valLo += k - w + valHi;
  valHi = w;
  return valLo + valHi;
}

const IVLN10 = Math.LOG10E;
const LOG10_2HI = 0.30102999566361177;
const LOG10_2LO = 3.694239077158931e-13;

/** Base-10 logarithm (fdlibm's: log10(x) = k·log10(2) + log(x·2^-k)/ln 10, with 1 ≤ x·2^-k < 2 or ½ ≤ … < 1). */
export function log10(x0: number): number {
  const special = logSpecial(x0);
  if (special !== undefined) return special;
  const { x, hx } = scaled;
  const k = scaled.k + (hx >> 20) - 1023;
  const i = k < 0 ? 1 : 0;
  const y = k + i;
  const z = y * LOG10_2LO + IVLN10 * log(setHigh(x, (hx & 0x000fffff) | ((0x3ff - i) << 20)));
  return z + y * LOG10_2HI;
}

// ── pow ──
const BP = [1, 1.5];
const DP_H = [0, 0.5849624872207642];
const DP_L = [0, 1.350039202129749e-8];
const TWO53 = 9007199254740992;
const HUGE = 1e300;
const TINY = 1e-300;
const L1 = 0.5999999999999946;
const L2 = 0.4285714285785502;
const L3 = 0.33333332981837743;
const L4 = 0.272728123808534;
const L5 = 0.23066074577556175;
const L6 = 0.20697501780033842;
const LG2_FULL = Math.LN2;
const LG2_H = 0.6931471824645996;
const LG2_L = -1.904654299957768e-9;
const OVT = 8.008566259537294e-17;
const CP = 0.9617966939259756;
const CP_H = 0.9617967009544373;
const CP_L = -7.028461650952758e-9;
const IVLN2 = Math.LOG2E;
const IVLN2_H = 1.4426950216293335;
const IVLN2_L = 1.9259629911266175e-8;

/** x·2^n, rounding once (for results that may be subnormal). */
function scale(x: number, n: number): number {
  while (n > 1023) {
    x *= twoTo(1023);
    n -= 1023;
  }
  while (n < -1022) {
    // keep 54 bits of headroom so that only the last multiplication rounds
    if (n >= -1022 - 54) return x * twoTo(n + 54) * twoTo(-54);
    x *= twoTo(-1022);
    n += 1022;
  }
  return x * twoTo(n);
}

/**
 * What kind of integer y is, for pow of a negative x: 0 not an integer, 1 odd, 2 even (from y's
 * high word without its sign, iy, and its low word, ly).
 */
function integerKind(iy: number, ly: number): number {
  if (iy >= 0x43400000) return 2;
  if (iy >= 0x3ff00000) {
    const e = (iy >> 20) - 0x3ff;
    if (e > 20) {
      const j = ly >>> (52 - e);
      if ((j << (52 - e)) >>> 0 === ly) return 2 - (j & 1);
    } else if (ly === 0) {
      const j = iy >> (20 - e);
      if (j << (20 - e) === iy) return 2 - (j & 1);
    }
  }
  return 0;
}

/** x^y for y = ±∞, ±1, 2 or ½ (y's low word is 0); otherwise undefined. */
function powOfSpecialY(x: number, y: number, hx: number, lx: number, hy: number): number | undefined {
  const ix = hx & 0x7fffffff;
  const iy = hy & 0x7fffffff;
  if (iy === 0x7ff00000) {
    // y = ±∞
    if (((ix - 0x3ff00000) | lx) === 0) return Number.NaN;
    if (ix >= 0x3ff00000) return hy >= 0 ? y : 0;
    return hy < 0 ? -y : 0;
  }
  if (iy === 0x3ff00000) return hy < 0 ? 1 / x : x; // y = ±1
  if (hy === 0x40000000) return x * x; // y = 2
  if (hy === 0x3fe00000 && hx >= 0) return Math.sqrt(x); // y = 0.5 (sqrt is correctly rounded)
  return undefined;
}

/** x^y for x = ±0, ±∞ or ±1 (ax = |x|, yIsInt from `integerKind`). */
function powOfSpecialX(ax: number, hx: number, hy: number, yIsInt: number): number {
  const ix = hx & 0x7fffffff;
  let z = ax;
  if (hy < 0) z = 1 / z;
  if (hx < 0) {
    if (((ix - 0x3ff00000) | yIsInt) === 0) z = Number.NaN;
    else if (yIsInt === 1) z = -z;
  }
  return z;
}

/**
 * x^y for |y| > 2^31 when it overflows or underflows (s: the result's sign, ix: |x|'s high word);
 * otherwise (x within 2^-20 of 1) undefined.
 */
function powOutOfRangeForHugeY(hy: number, ix: number, iy: number, s: number): number | undefined {
  if (iy > 0x43f00000) {
    if (ix <= 0x3fefffff) return hy < 0 ? HUGE * HUGE : TINY * TINY;
    if (ix >= 0x3ff00000) return hy > 0 ? HUGE * HUGE : TINY * TINY;
  }
  if (ix < 0x3fefffff) return hy < 0 ? s * HUGE * HUGE : s * TINY * TINY;
  if (ix > 0x3ff00000) return hy > 0 ? s * HUGE * HUGE : s * TINY * TINY;
  return undefined;
}

/**
 * log2(|x|) as head + tail, the head with its low word cleared, which the two helpers below leave
 * here for signedExp2Product. A Float64Array, not two arguments or an object: numbers passed
 * between functions V8 does not inline are boxed, one allocation each, on every call of pow.
 */
const log2Split = new Float64Array(2);

/** Fills `log2Split` for |1 − x| ≤ 2^-20, by log(x) ≈ x − x²/2 + x³/3 − x⁴/4. */
function log2NearOne(x: number): void {
  const t = Math.abs(x) - 1;
  const w = t * t * (0.5 - t * (0.3333333333333333 - t * 0.25));
  const u = IVLN2_H * t;
  const v = t * IVLN2_L - w * IVLN2;
  const t1 = clearLow(u + v);
  log2Split[0] = t1;
  log2Split[1] = v - (t1 - u);
}

/** Fills `log2Split` for a finite, non-zero x whose high word without the sign is ix. */
function log2Extended(x: number, ix: number): void {
  let ax = Math.abs(x);
  let n = 0;
  if (ix < 0x00100000) {
    ax *= TWO53;
    n -= 53;
    ix = high(ax);
  }
  n += (ix >> 20) - 0x3ff;
  const j = ix & 0x000fffff;
  ix = j | 0x3ff00000;
  let k: number;
  if (j <= 0x3988e) k = 0;
  else if (j < 0xbb67a) k = 1;
  else {
    k = 0;
    n += 1;
    ix -= 0x00100000;
  }
  ax = setHigh(ax, ix);
  // ss = s_h + s_l = (x − 1)/(x + 1) or (x − 1.5)/(x + 1.5)
  let u = ax - BP[k]!;
  let v = 1 / (ax + BP[k]!);
  const ss = u * v;
  const sH = clearLow(ss);
  let tH = fromWords(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0);
  let tL = ax - (tH - BP[k]!);
  const sL = v * (u - sH * tH - sH * tL);
  // log(ax)
  let s2 = ss * ss;
  let r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
  r += sL * (sH + ss);
  s2 = sH * sH;
  tH = clearLow(3 + s2 + r);
  tL = r - (tH - 3 - s2);
  u = sH * tH;
  v = sL * tH + tL * ss;
  const pH = clearLow(u + v);
  const pL = v - (pH - u);
  const zH = CP_H * pH;
  const zL = CP_L * pH + pL * CP + DP_L[k]!;
  const t = n;
  const t1 = clearLow(zH + zL + DP_H[k]! + t);
  log2Split[0] = t1;
  log2Split[1] = zL - (t1 - t - DP_H[k]! - zH);
}

/**
 * s·2^(y·(t1 + t2)) for t1 + t2 = log2|x| from `log2Split`: the product as (y1 + y2)·(t1 + t2)
 * with y1 = y with its low word cleared, its overflow and underflow, then 2^(pH + pL).
 */
function signedExp2Product(y: number, s: number): number {
  const t1 = log2Split[0]!;
  const t2 = log2Split[1]!;
  const y1 = clearLow(y);
  const pL = (y - y1) * t1 + y * t2;
  let pH = y1 * t1;
  let z = pL + pH;
  const j = high(z);
  let i = low(z);
  if (j >= 0x40900000) {
    // z ≥ 1024
    if (((j - 0x40900000) | i) !== 0) return s * HUGE * HUGE;
    if (pL + OVT > z - pH) return s * HUGE * HUGE;
  } else if ((j & 0x7fffffff) >= 0x4090cc00) {
    // z ≤ −1075
    if (((j - 0xc090cc00) | i) !== 0) return s * TINY * TINY;
    if (pL <= z - pH) return s * TINY * TINY;
  }
  // 2^(pH + pL)
  i = j & 0x7fffffff;
  let k = (i >> 20) - 0x3ff;
  let n = 0;
  if (i > 0x3fe00000) {
    n = (j + (0x00100000 >> (k + 1))) | 0;
    k = ((n & 0x7fffffff) >> 20) - 0x3ff;
    const t = fromWords(n & ~(0x000fffff >> k), 0);
    n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) n = -n;
    pH -= t;
  }
  const t = clearLow(pL + pH);
  const u = t * LG2_H;
  const v = (pL - (t - pH)) * LG2_FULL + t * LG2_L;
  z = u + v;
  const w = v - (z - u);
  const tt = z * z;
  const c = z - tt * (P1 + tt * (P2 + tt * (P3 + tt * (P4 + tt * P5))));
  const r = (z * c) / (c - 2 - (w + z * w));
  z = 1 - (r - z);
  const hz = (high(z) + (n << 20)) | 0;
  if (hz >> 20 <= 0) z = scale(z, n);
  else z = setHigh(z, hz);
  return s * z;
}

/**
 * x^y, with ECMAScript's special cases (1^±∞ and (−1)^±∞ are NaN): fdlibm's e_pow.c, split into
 * its phases (special cases, log2|x| in extra precision, then 2^(y·log2|x|)) with the same
 * operations in the same order.
 */
export function pow(x: number, y: number): number {
  const hx = high(x);
  const lx = low(x);
  const hy = high(y);
  const ly = low(y);
  const ix = hx & 0x7fffffff;
  const iy = hy & 0x7fffffff;
  if ((iy | ly) === 0) return 1; // x^0
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  // y's kind when x < 0: 0 not an integer, 1 odd, 2 even
  const yIsInt = hx < 0 ? integerKind(iy, ly) : 0;
  if (ly === 0) {
    const special = powOfSpecialY(x, y, hx, lx, hy);
    if (special !== undefined) return special;
  }
  if (lx === 0 && (ix === 0x7ff00000 || ix === 0 || ix === 0x3ff00000))
    return powOfSpecialX(Math.abs(x), hx, hy, yIsInt);

  const n = (hx >>> 31) - 1;
  if ((n | yIsInt) === 0) return Number.NaN; // negative x to a non-integer power
  let s = 1;
  if ((n | (yIsInt - 1)) === 0) s = -1; // negative x to an odd power

  if (iy > 0x41e00000) {
    // |y| > 2^31
    const outOfRange = powOutOfRangeForHugeY(hy, ix, iy, s);
    if (outOfRange !== undefined) return outOfRange;
    log2NearOne(x);
  } else log2Extended(x, ix);
  return signedExp2Product(y, s);
}

// ── sin, cos ──
const S1 = -0.16666666666666632;
const S2 = 0.00833333333332249;
const S3 = -0.0001984126982985795;
const S4 = 0.0000027557313707070068;
const S5 = -2.5050760253406863e-8;
const S6 = 1.58969099521155e-10;
const C1 = 0.0416666666666666;
const C2 = -0.001388888888887411;
const C3 = 0.00002480158728947673;
const C4 = -2.7557314351390663e-7;
const C5 = 2.087572321298175e-9;
const C6 = -1.1359647557788195e-11;

/** sin(x + y) for |x| ≤ π/4, y the tail of x (`hasTail` false: y = 0). */
function kernelSin(x: number, y: number, hasTail: boolean): number {
  const ix = high(x) & 0x7fffffff;
  if (ix < 0x3e400000 && (x | 0) === 0) return x; // |x| < 2^-27
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (!hasTail) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

/** cos(x + y) for |x| ≤ π/4, y the tail of x. */
function kernelCos(x: number, y: number): number {
  const ix = high(x) & 0x7fffffff;
  if (ix < 0x3e400000 && (x | 0) === 0) return 1; // |x| < 2^-27
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0);
  const hz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (hz - (z * r - x * y));
}

const INV_PIO2 = 0.6366197723675814;
const PIO2_1 = 1.5707963267341256;
const PIO2_1T = 6.077100506506192e-11;
const PIO2_2 = 6.077100506303966e-11;
const PIO2_2T = 2.0222662487959506e-21;
const PIO2_3 = 2.0222662487111665e-21;
const PIO2_3T = 8.4784276603689e-32;
/** High words of n·π/2, n = 1…32 (fdlibm's npio2_hw). */
const NPIO2_HW = Array.from({ length: 32 }, (_, i) => high((i + 1) * (Math.PI / 2)));

/** The reduced argument: x − n·π/2 = y0 + y1, |y0| ≤ π/4. */
const rem = { y0: 0, y1: 0 };

/** x = n·π/2 + y0 + y1; returns n (only n mod 4 matters). */
function remPio2(x: number): number {
  const hx = high(x);
  const ix = hx & 0x7fffffff;
  if (ix < 0x4002d97c) {
    // |x| < 3π/4: n = ±1
    if (hx > 0) {
      let z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        rem.y0 = z - PIO2_1T;
        rem.y1 = z - rem.y0 - PIO2_1T;
      } else {
        z -= PIO2_2;
        rem.y0 = z - PIO2_2T;
        rem.y1 = z - rem.y0 - PIO2_2T;
      }
      return 1;
    }
    let z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      rem.y0 = z + PIO2_1T;
      rem.y1 = z - rem.y0 + PIO2_1T;
    } else {
      z += PIO2_2;
      rem.y0 = z + PIO2_2T;
      rem.y1 = z - rem.y0 + PIO2_2T;
    }
    return -1;
  }
  if (ix <= 0x413921fb) {
    // |x| ≤ 2^19·π/2: Cody–Waite with π/2 in three parts
    const t = Math.abs(x);
    const n = (t * INV_PIO2 + 0.5) | 0;
    const fn = n;
    let r = t - fn * PIO2_1;
    let w = fn * PIO2_1T;
    let y0: number;
    if (n < 32 && ix !== NPIO2_HW[n - 1]) {
      y0 = r - w;
    } else {
      const j = ix >> 20;
      y0 = r - w;
      let i = j - ((high(y0) >> 20) & 0x7ff);
      if (i > 16) {
        let tt = r;
        w = fn * PIO2_2;
        r = tt - w;
        w = fn * PIO2_2T - (tt - r - w);
        y0 = r - w;
        i = j - ((high(y0) >> 20) & 0x7ff);
        if (i > 49) {
          tt = r;
          w = fn * PIO2_3;
          r = tt - w;
          w = fn * PIO2_3T - (tt - r - w);
          y0 = r - w;
        }
      }
    }
    const y1 = r - y0 - w;
    if (hx < 0) {
      rem.y0 = -y0;
      rem.y1 = -y1;
      return -n;
    }
    rem.y0 = y0;
    rem.y1 = y1;
    return n;
  }
  const n = remPio2Exact(Math.abs(x));
  if (hx < 0) {
    rem.y0 = -rem.y0;
    rem.y1 = -rem.y1;
    return -n;
  }
  return n;
}

// Large arguments: 2/π and π/2 to PRECISION bits, computed once on first use (Machin's formula).
const PRECISION = 1400n;
let twoOverPi: bigint | undefined;
let pio2: bigint | undefined;

function arctanInverse(k: bigint, one: bigint): bigint {
  // atan(1/k) = Σ (−1)^i / ((2i+1)·k^(2i+1))
  let power = one / k;
  const k2 = k * k;
  let sum = 0n;
  for (let i = 0n; power !== 0n; i++) {
    const term = power / (2n * i + 1n);
    sum += i % 2n === 0n ? term : -term;
    power /= k2;
  }
  return sum;
}

function bigConstants(): { twoOverPi: bigint; pio2: bigint } {
  if (twoOverPi === undefined || pio2 === undefined) {
    const guard = 64n;
    const one = 1n << (PRECISION + guard);
    const pi = 16n * arctanInverse(5n, one) - 4n * arctanInverse(239n, one); // π·2^(P+guard)
    pio2 = (pi >> 1n) >> guard; // π/2 · 2^P
    twoOverPi = ((2n << (2n * (PRECISION + guard))) / pi) >> guard; // 2/π · 2^P
  }
  return { twoOverPi, pio2 };
}

/** The nearest double to v·2^-shift (v ≠ 0 or 0), rounding once. */
function bigToDouble(v: bigint, shift: bigint): number {
  const negative = v < 0n;
  let a = negative ? -v : v;
  if (a === 0n) return 0;
  const bits = BigInt(a.toString(2).length);
  let drop = 0n;
  if (bits > 64n) {
    drop = bits - 64n;
    const sticky = (a & ((1n << drop) - 1n)) !== 0n ? 1n : 0n;
    a = (a >> drop) | sticky;
  }
  const value = scale(Number(a), Number(drop - shift));
  return negative ? -value : value;
}

/** The 53-bit integer significand of a normal double. */
const mantissa = (x: number): bigint => (BigInt((high(x) & 0x000fffff) | 0x00100000) << 32n) | BigInt(low(x));

/** Exact reduction of a large positive x: fills rem, returns n. */
function remPio2Exact(x: number): number {
  const { twoOverPi: t, pio2: p } = bigConstants();
  // x = m·2^e with an integer m < 2^53
  const e = ((high(x) >> 20) & 0x7ff) - 1075;
  const m = mantissa(x);
  // x·2/π = m·t·2^(e − P): integer part n, fraction f·2^-shift
  const shift = PRECISION - BigInt(e);
  const product = m * t;
  let n = product >> shift;
  let f = product & ((1n << shift) - 1n);
  if (f >> (shift - 1n) !== 0n) {
    // fraction ≥ 1/2: round n up, fraction becomes negative
    n += 1n;
    f -= 1n << shift;
  }
  const r = f * p; // (x − n·π/2)·2^(shift + P)
  const rs = shift + PRECISION;
  const y0 = bigToDouble(r, rs);
  // the exact tail: r − y0·2^rs, with y0 = my·2^ey exactly
  const ey = ((high(y0) >> 20) & 0x7ff) - 1075;
  const my = mantissa(y0);
  const y0Scaled = (y0 < 0 ? -my : my) << (rs + BigInt(ey));
  rem.y0 = y0;
  rem.y1 = bigToDouble(r - y0Scaled, rs);
  return Number(n & 3n);
}

/** Sine. */
export function sin(x: number): number {
  const ix = high(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, false);
  if (ix >= 0x7ff00000) return Number.NaN;
  const n = remPio2(x);
  switch (n & 3) {
    case 0:
      return kernelSin(rem.y0, rem.y1, true);
    case 1:
      return kernelCos(rem.y0, rem.y1);
    case 2:
      return -kernelSin(rem.y0, rem.y1, true);
    default:
      return -kernelCos(rem.y0, rem.y1);
  }
}

/** Cosine. */
export function cos(x: number): number {
  const ix = high(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0);
  if (ix >= 0x7ff00000) return Number.NaN;
  const n = remPio2(x);
  switch (n & 3) {
    case 0:
      return kernelCos(rem.y0, rem.y1);
    case 1:
      return -kernelSin(rem.y0, rem.y1, true);
    case 2:
      return -kernelCos(rem.y0, rem.y1);
    default:
      return kernelSin(rem.y0, rem.y1, true);
  }
}

/**
 * √(a² + b²) without overflow, as V8's `Math.hypot` computes it for two arguments: both scaled by
 * the larger magnitude, the squares summed with Kahan's compensation.
 */
export function hypot(a: number, b: number): number {
  const x = Math.abs(a);
  const y = Math.abs(b);
  if (x === Number.POSITIVE_INFINITY || y === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  const max = Math.max(x, y);
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  for (const v of [x, y]) {
    const n = v / max;
    const summand = n * n - compensation;
    const preliminary = sum + summand;
    compensation = preliminary - sum - summand;
    sum = preliminary;
  }
  return Math.sqrt(sum) * max;
}

/**
 * The deterministic functions as one object, for plugins: a symbol whose `evaluate` uses
 * `elementary.sin` instead of `Math.sin` gives the same search in every browser and in Node.
 */
export const elementary = Object.freeze({ sin, cos, exp, log, log2, log10, pow, hypot });
