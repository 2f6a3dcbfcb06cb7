/**
 * Seeded arguments for test/unit/math.test.ts, and the per-engine report that the test computes in Node
 * and, bundled with esbuild, in Chromium: the same code on the same seeds gives the same arguments
 * in every engine (integer and exactly rounded double operations only, never Math.random or a
 * Math.* function whose last bit is implementation-defined).
 */
import { cos, exp, hypot, log, log2, log10, pow, sin } from "../../src/lib/core/math.js";

// ── a small PRNG: Marsaglia's xorshift128 on four 32-bit words, each output through a multiply–xorshift mix ──
export class Xorshift128 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    // the state from the seed by a Weyl sequence through the same mix, never all zero
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      return mix32(s);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next() | 1;
  }
  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    let t = this.a ^ (this.a << 11);
    t ^= t >>> 8;
    this.a = this.b;
    this.b = this.c;
    this.c = this.d;
    this.d = this.d ^ (this.d >>> 19) ^ t;
    return mix32(this.d);
  }
  /** Uniform in [0, 1) with 53 random bits. */
  unit(): number {
    return (this.u32() >>> 5) * 67108864 + (this.u32() >>> 6);
  }
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * (this.unit() / 9007199254740992);
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor((this.unit() / 9007199254740992) * (hi - lo + 1));
  }
  sign(): number {
    return this.u32() & 1 ? -1 : 1;
  }
}

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** The double with these two 32-bit words. */
function fromWords(hi: number, lo: number): number {
  u32[HI] = hi >>> 0;
  u32[1 - HI] = lo >>> 0;
  return f64[0]!;
}

/** 2^k exactly, k in [-1074, 1023]. */
export function pow2(k: number): number {
  if (k >= -1022) return fromWords((k + 1023) << 20, 0);
  return k >= -1042 ? fromWords(0x80000 >>> (-1023 - k), 0) : fromWords(0, 2 ** (k + 1074));
}

/** A double in [2^e, 2^(e+1)) with uniformly random significand bits, e in [-1074, 1023]. */
export function magnitude(rng: Xorshift128, e: number): number {
  if (e >= -1022) return fromWords(((e + 1023) << 20) | (rng.u32() & 0xfffff), rng.u32());
  const k = e + 1074; // a subnormal M·2^-1074 with 2^k ≤ M < 2^(k+1)
  const m = 2 ** k + Math.floor((rng.unit() / 9007199254740992) * 2 ** k);
  return fromWords(Math.floor(m / 4294967296), m % 4294967296);
}

/** The binary exponent of a finite nonzero double (floor(log2|x|)), subnormals included. */
export function exponentOf(x: number): number {
  f64[0] = x;
  const biased = (u32[HI]! >>> 20) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  f64[0] = x * 18014398509481984; // 2^54
  return ((u32[HI]! >>> 20) & 0x7ff) - 1023 - 54;
}

/** x moved by k units in its last place (k small; x finite and nonzero, no sign change). */
function ulpsAway(x: number, k: number): number {
  f64[0] = x;
  let lo = u32[1 - HI]! + k;
  let hi = u32[HI]!;
  if (lo < 0) {
    lo += 4294967296;
    hi -= 1;
  } else if (lo >= 4294967296) {
    lo -= 4294967296;
    hi += 1;
  }
  return fromWords(hi, lo);
}

export type Unary = "sin" | "cos" | "exp" | "log" | "log2" | "log10";
export type Binary = "pow" | "hypot";
export type Name = Unary | Binary;
export const NAMES: readonly Name[] = ["sin", "cos", "exp", "log", "log2", "log10", "pow", "hypot"];

export const ours: Record<Unary, (x: number) => number> & Record<Binary, (x: number, y: number) => number> = {
  sin,
  cos,
  exp,
  log,
  log2,
  log10,
  pow,
  hypot,
};
export const engine: typeof ours = {
  sin: Math.sin,
  cos: Math.cos,
  exp: Math.exp,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  pow: Math.pow,
  hypot: Math.hypot,
};

export interface Arguments {
  /** First arguments. */
  x: Float64Array;
  /** Second arguments (pow, hypot). */
  y?: Float64Array;
  /** The first `specCount` entries are ECMAScript's special cases, whose results the specification fixes. */
  specCount: number;
}

const INF = Number.POSITIVE_INFINITY;
const MAX = Number.MAX_VALUE;
const MIN = Number.MIN_VALUE;
const NORMAL = 2.2250738585072014e-308;

// Special cases with results the specification fixes (NaN, ±0, ±∞, log(1), …).
const SPEC_UNARY: Record<Unary, number[]> = {
  sin: [Number.NaN, 0, -0, INF, -INF],
  cos: [Number.NaN, 0, -0, INF, -INF],
  exp: [Number.NaN, 0, -0, INF, -INF],
  log: [Number.NaN, 0, -0, INF, -INF, 1, -1, -MIN, -MAX],
  log2: [Number.NaN, 0, -0, INF, -INF, 1, -1, -MIN, -MAX],
  log10: [Number.NaN, 0, -0, INF, -INF, 1, -1, -MIN, -MAX],
};
// Finite edges whose results are not fixed: they go through every check as the seeded ones do.
const EDGE_UNARY: Record<Unary, number[]> = {
  sin: [MIN, -MIN, NORMAL, 2 ** -27, 0.7853981633974483, 2.356194490192345, 1e5, 823549.6653814783, 1e22, 2 ** 20, MAX],
  cos: [MIN, -MIN, NORMAL, 2 ** -27, 0.7853981633974483, 2.356194490192345, 1e5, 823549.6653814783, 1e22, 2 ** 20, MAX],
  exp: [
    MIN,
    -MIN,
    1,
    -1,
    2 ** -28,
    0.34657359027997264,
    709.782712893384,
    709.7827128933841,
    -708.3964185322641,
    -745.1332191019411,
    -745.1332191019412,
    MAX,
    -MAX,
  ],
  log: [MIN, NORMAL, MAX, 2, 0.5, 10, Math.E, 1 + 2 ** -52, 1 - 2 ** -53, Math.SQRT1_2, Math.SQRT2],
  log2: [MIN, NORMAL, MAX, 2, 0.5, 10, Math.E, 1 + 2 ** -52, 1 - 2 ** -53, Math.SQRT1_2, Math.SQRT2],
  log10: [MIN, NORMAL, MAX, 2, 0.5, 10, 1e-300, 1e300, 1 + 2 ** -52, 1 - 2 ** -53, 1e22],
};
const SPEC_POW_X = [Number.NaN, 0, -0, INF, -INF, 1, -1, 0.5, -0.5, 2, -2, 3, -3, MIN, -MIN, MAX, -MAX];
const SPEC_POW_Y = [Number.NaN, 0, -0, INF, -INF];
// x = ±0 and ±∞ with finite y: also fixed by the specification
const SPEC_POW_Y_FOR_ZERO_INF = [1, -1, 2, -2, 3, -3, 0.5, -0.5, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, MIN, MAX, -MAX];
const EDGE_POW: [number, number][] = [
  [2, 0.5],
  [2, 1023],
  [2, 1024],
  [2, -1074],
  [2, -1075],
  [0.5, 1074],
  [10, 308],
  [10, -323],
  [-2, 1023],
  [-2, -1073],
  [-8, 1 / 3],
  [1 + 2 ** -52, 2 ** 52],
  [1 - 2 ** -53, 2 ** 60],
  [MAX, 0.5],
  [MIN, 0.5],
  [MIN, -0.5],
  [1.0000001, 2 ** 31 + 1],
  [-1.0000001, 2 ** 31 + 1],
  [3, 2],
  [3, -1],
];
const SPEC_HYPOT: [number, number][] = [
  [Number.NaN, 1],
  [1, Number.NaN],
  [INF, Number.NaN],
  [Number.NaN, -INF],
  [INF, 1],
  [-INF, -INF],
  [0, 0],
  [-0, -0],
  [0, -0],
];
const EDGE_HYPOT: [number, number][] = [
  [3, 4],
  [-5, 12],
  [MAX, MAX],
  [MAX, 1],
  [MIN, MIN],
  [MIN, 0],
  [0, -MIN],
  [NORMAL, NORMAL],
  [1e300, 1e-300],
  [1, 2 ** -27],
];

/** The seed of each function's stream (any fixed numbers; changing one changes the arguments). */
const SEEDS: Record<Name, number> = {
  sin: 11,
  cos: 12,
  exp: 13,
  log: 14,
  log2: 15,
  log10: 16,
  pow: 17,
  hypot: 18,
};

/** |x| for sin and cos: [2^-30, 2^20) mostly, near multiples of π/2, tiny and huge (up to 1e300). */
function trigArgument(rng: Xorshift128): number {
  const u = rng.u32() % 1000;
  if (u < 850) return magnitude(rng, rng.int(-30, 19));
  if (u < 900) {
    // within a few ulps of n·π/2 (the hard cases of the reduction)
    const n = rng.int(1, 667544);
    return ulpsAway(n * 1.5707963267948966, rng.int(-4, 4));
  }
  if (u < 920) return magnitude(rng, rng.int(-1074, -31));
  return magnitude(rng, rng.int(20, 995));
}

function expArgument(rng: Xorshift128): number {
  const u = rng.u32() % 100;
  if (u < 50) return rng.uniform(-20, 20);
  if (u < 60) return rng.sign() * magnitude(rng, rng.int(-60, -1));
  return rng.uniform(-745, 709.8);
}

function logArgument(rng: Xorshift128): number {
  const u = rng.u32() % 100;
  if (u < 70) return magnitude(rng, rng.int(-1074, 1023));
  if (u < 90) return 1 + rng.sign() * magnitude(rng, rng.int(-53, -2));
  if (u < 95) return rng.int(1, 1 << 20);
  const p = pow2(rng.int(-1074, 1023));
  const k = rng.int(-1, 1);
  return k === 0 || p === MIN ? p : ulpsAway(p, k);
}

/** A bound on |y| that keeps |y·log2 x| within about 1100 (a few results overflow or underflow). */
const yBound = (x: number) => {
  const e = exponentOf(Math.abs(x));
  return Math.min(40, 1100 / Math.abs(e + 0.5));
};

function powArguments(rng: Xorshift128): [number, number] {
  const u = rng.u32() % 100;
  if (u < 50) {
    const x = magnitude(rng, rng.int(-1074, 1023));
    const b = yBound(x);
    return [x, rng.uniform(-b, b)];
  }
  if (u < 65) {
    const x = magnitude(rng, rng.int(-1074, 1023));
    const b = Math.floor(yBound(x));
    return [x, rng.int(-b, b)];
  }
  if (u < 80) {
    const x = -magnitude(rng, rng.int(-1074, 1023));
    const b = Math.floor(yBound(x));
    return [x, rng.int(-b, b)];
  }
  if (u < 90) return [1 + rng.sign() * magnitude(rng, rng.int(-53, -1)), rng.sign() * magnitude(rng, rng.int(0, 40))];
  return [rng.uniform(0, 100), rng.uniform(-40, 40)];
}

function hypotArguments(rng: Xorshift128): [number, number] {
  const u = rng.u32() % 100;
  if (u < 40) {
    return [rng.sign() * magnitude(rng, rng.int(-1074, 1023)), rng.sign() * magnitude(rng, rng.int(-1074, 1023))];
  }
  if (u < 80) {
    const e = rng.int(-1074, 1023);
    const f = Math.min(1023, Math.max(-1074, e + rng.int(-60, 60)));
    return [rng.sign() * magnitude(rng, e), rng.sign() * magnitude(rng, f)];
  }
  return [rng.sign() * magnitude(rng, rng.int(-30, 29)), rng.sign() * magnitude(rng, rng.int(-30, 29))];
}

/** `count` arguments (pairs for pow and hypot) for `name`: the special cases first, then edges, then seeded ones. */
export function mathArguments(name: Name, count: number): Arguments {
  const rng = new Xorshift128(SEEDS[name]);
  const x = new Float64Array(count);
  if (name === "pow" || name === "hypot") {
    const y = new Float64Array(count);
    const fixed: [number, number][] = [];
    if (name === "pow") {
      for (const a of SPEC_POW_X) for (const b of SPEC_POW_Y) fixed.push([a, b]);
      for (const a of [0, -0, INF, -INF]) for (const b of SPEC_POW_Y_FOR_ZERO_INF) fixed.push([a, b]);
    } else fixed.push(...SPEC_HYPOT);
    const specCount = fixed.length;
    fixed.push(...(name === "pow" ? EDGE_POW : EDGE_HYPOT));
    fixed.forEach(([a, b], i) => {
      x[i] = a;
      y[i] = b;
    });
    const draw = name === "pow" ? powArguments : hypotArguments;
    for (let i = fixed.length; i < count; i++) {
      const [a, b] = draw(rng);
      x[i] = a;
      y[i] = b;
    }
    return { x, y, specCount };
  }
  const spec = SPEC_UNARY[name];
  const fixed = [...spec, ...EDGE_UNARY[name]];
  fixed.forEach((v, i) => {
    x[i] = v;
  });
  const draw =
    name === "exp"
      ? expArgument
      : name === "sin" || name === "cos"
        ? (r: Xorshift128) => r.sign() * trigArgument(r)
        : logArgument;
  for (let i = fixed.length; i < count; i++) x[i] = draw(rng);
  return { x, specCount: spec.length };
}

/** f over the arguments. */
export function evaluate(f: (x: number, y: number) => number, args: Arguments): Float64Array {
  const { x } = args;
  const y = args.y ?? x;
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = f(x[i]!, y[i]!);
  return out;
}

/** Whether two results are the same value (Object.is: NaN is NaN, +0 is not −0). */
export const same = (a: number, b: number): boolean =>
  a === b ? a !== 0 || 1 / a === 1 / b : Number.isNaN(a) && Number.isNaN(b);

/**
 * A 64-bit hash (two 32-bit lanes, as 16 hex digits) of the bits of `values[from, to)`, with every
 * NaN hashed as one pattern (engines may store different NaN payloads).
 */
export function hashBits(values: Float64Array, from = 0, to = values.length): string {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  let h1 = 0x811c9dc5;
  let h2 = 0x2545f491;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    const nan = Number.isNaN(v);
    const w0 = nan ? 0x7ff80000 : words[2 * i]!;
    const w1 = nan ? 0 : words[2 * i + 1]!;
    h1 = Math.imul(h1 ^ w0, 0x01000193);
    h1 = Math.imul(h1 ^ w1, 0x01000193);
    h2 = Math.imul((h2 ^ w1) + 0x6b43a9b5, 0x9e3779b1);
    h2 = Math.imul(h2 ^ (h2 >>> 15) ^ w0, 0x85ebca77);
  }
  h1 = mix32(h1 ^ to);
  h2 = mix32(h2 ^ (h1 >>> 3));
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}

export const BLOCKS = 16;

export interface FunctionReport {
  name: Name;
  /** Hash of the arguments (both of a pair). */
  argumentHash: string;
  /** Hash of our results, whole and by BLOCKS equal blocks. */
  hash: string;
  blocks: string[];
  /** Results of the engine's Math.* that differ from ours (Object.is), and among the special cases. */
  engineDiffers: number;
  engineDiffersSpec: number;
  /** Up to 3 arguments where the engine's Math.* differs from ours: [x, y, ours, engine] as bit strings. */
  examples: string[][];
  /** Milliseconds: generating arguments, ours, the engine's Math.*. */
  ms: { generate: number; ours: number; engine: number };
}

const bitString = (v: number) => {
  f64[0] = v;
  return u32[HI]!.toString(16).padStart(8, "0") + u32[1 - HI]!.toString(16).padStart(8, "0");
};

/** The report of one function in the engine that runs it (Node or a browser page). */
export function functionReport(name: Name, count: number): FunctionReport {
  let t = performance.now();
  const args = mathArguments(name, count);
  const generate = performance.now() - t;
  const argumentHash = hashBits(args.x) + (args.y ? hashBits(args.y) : "");
  t = performance.now();
  const mine = evaluate(ours[name] as (x: number, y: number) => number, args);
  const oursMs = performance.now() - t;
  t = performance.now();
  const theirs = evaluate(engine[name] as (x: number, y: number) => number, args);
  const engineMs = performance.now() - t;
  let engineDiffers = 0;
  let engineDiffersSpec = 0;
  const examples: string[][] = [];
  for (let i = 0; i < count; i++) {
    if (same(mine[i]!, theirs[i]!)) continue;
    engineDiffers++;
    if (i < args.specCount) engineDiffersSpec++;
    if (examples.length < 3) {
      const y = args.y ? bitString(args.y[i]!) : "";
      examples.push([bitString(args.x[i]!), y, bitString(mine[i]!), bitString(theirs[i]!)]);
    }
  }
  const size = Math.ceil(count / BLOCKS);
  const blocks = Array.from({ length: BLOCKS }, (_, b) => hashBits(mine, b * size, Math.min(count, (b + 1) * size)));
  return {
    name,
    argumentHash,
    hash: hashBits(mine),
    blocks,
    engineDiffers,
    engineDiffersSpec,
    examples,
    ms: { generate, ours: oursMs, engine: engineMs },
  };
}

/** Our results of `name` on the arguments [from, to), as bit strings (to find where two engines part). */
export function resultBits(name: Name, count: number, from: number, to: number): string[] {
  const args = mathArguments(name, count);
  const f = ours[name] as (x: number, y: number) => number;
  const y = args.y ?? args.x;
  const bits: string[] = [];
  for (let i = from; i < to; i++) bits.push(bitString(f(args.x[i]!, y[i]!)));
  return bits;
}
