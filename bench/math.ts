/**
 * `npm run bench`: the cost of the deterministic elementary functions (src/lib/core/math.ts) against
 * the engine's own Math.*, in nanoseconds per call over a million seeded arguments each (warm:
 * each loop runs once untimed). Both give the same bits on Node 20; ours give them in every engine.
 * Figures, never assertions. The search's own seconds (syn1, syn2) are in bench/search.ts.
 */
import { cos, exp, hypot, log, log2, log10, pow, sin } from "../src/lib/core/math.js";

const N = 1_000_000;
let state = 0x9e3779b9;
const next = () => {
  state = (state + 0x6d2b79f5) | 0;
  let z = state;
  z = Math.imul(z ^ (z >>> 15), z | 1);
  z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
  return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
};
const trig = Float64Array.from({ length: N }, () => (next() * 2 - 1) * 2 ** (next() * 8));
const small = Float64Array.from({ length: N }, () => (next() * 2 - 1) * 20);
const positive = Float64Array.from({ length: N }, () => 2 ** (next() * 60 - 30) * (1 + next()));
const exponent = Float64Array.from({ length: N }, () => (next() * 2 - 1) * 8);

function time(f: (x: number, y: number) => number, xs: Float64Array, ys: Float64Array): number {
  let sink = 0;
  for (let i = 0; i < N; i++) sink += f(xs[i]!, ys[i]!);
  const started = performance.now();
  for (let i = 0; i < N; i++) sink += f(xs[i]!, ys[i]!);
  const ns = ((performance.now() - started) * 1e6) / N;
  if (sink === 0.5) console.log("");
  return ns;
}

const rows: [string, (x: number, y: number) => number, (x: number, y: number) => number, Float64Array, Float64Array][] =
  [
    ["sin", (x) => sin(x), (x) => Math.sin(x), trig, trig],
    ["cos", (x) => cos(x), (x) => Math.cos(x), trig, trig],
    ["exp", (x) => exp(x), (x) => Math.exp(x), small, small],
    ["log", (x) => log(x), (x) => Math.log(x), positive, positive],
    ["log2", (x) => log2(x), (x) => Math.log2(x), positive, positive],
    ["log10", (x) => log10(x), (x) => Math.log10(x), positive, positive],
    ["pow", (x, y) => pow(x, y), (x, y) => x ** y, positive, exponent],
    ["hypot", (x, y) => hypot(x, y), (x, y) => Math.hypot(x, y), small, trig],
  ];
console.log(`# Deterministic elementary functions (src/lib/core/math.ts) against Math.*, ns per call, ${N} arguments`);
console.log("function  ours ns  Math ns  ratio");
for (const [name, ours, engine, xs, ys] of rows) {
  const a = time(ours, xs, ys);
  const b = time(engine, xs, ys);
  console.log(`${name.padEnd(10)}${a.toFixed(1).padEnd(9)}${b.toFixed(1).padEnd(9)}${(a / b).toFixed(2)}×`);
}
