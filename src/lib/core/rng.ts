/**
 * A small seeded PRNG (sfc32 seeded through splitmix32). The library never calls Math.random:
 * every source of randomness is an Rng passed in explicitly, so one seed reproduces a run.
 */
import { cos, log, sin } from "./math.js";

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  uniform(lo: number, hi: number): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** An independent generator derived from this one (for sub-tasks that must not shift the stream). */
  fork(): Rng;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number): Rng {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`seed must be an integer in [0, 2^32) (got ${seed})`);
  }
  const mix = splitmix32(seed);
  let a = mix(),
    b = mix(),
    c = mix(),
    d = mix();
  let spare: number | undefined;
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (n) => Math.floor(next() * n),
    normal: () => {
      if (spare !== undefined) {
        const s = spare;
        spare = undefined;
        return s;
      }
      let u = next();
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * log(u));
      spare = r * sin(2 * Math.PI * v);
      return r * cos(2 * Math.PI * v);
    },
    fork: () => createRng(Math.floor(next() * 4294967296)),
  };
  return rng;
}
