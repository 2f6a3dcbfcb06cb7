/**
 * `npm run bench` (part): where the linear-algebra proposals' screening should run. The beam's
 * work is matrix–vector products of the column library with a residual (every column's
 * correlation), and exhaustive best subset wants the Gram matrix. This measures both on float64
 * JS (what the search uses: decisions on float64 values reproduce on every engine) and on tfjs
 * cpu and wasm, plus the mixed plan: tfjs screens every column in float32, float64 re-scores the
 * 64 best. Library: Feynman I.12.11's sized search (pool x, sin, cos, x², up to 4 factors, 400
 * rows). Prints figures and ratios; asserts nothing.
 */
import { tf } from "../src/lib/engine/tf.js";
import { useBackend } from "../src/lib/engine/backend.js";
import { benchmarkData, benchmarkEntry } from "../src/lib/data/benchmark.js";
import { allowedNeurons } from "../src/lib/search/constraints.js";
import { neuronColumns, productColumns } from "../src/lib/search/linear/columns.js";
import { createSymbolRegistry } from "../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
const symbols = createSymbolRegistry();
const entry = benchmarkEntry("feynman-I.12.11");
const data = benchmarkData(entry, { symbols, seed: 0, rows: 400 });
const neurons = neuronColumns(data.train.x, entry.pool, allowedNeurons(data.train, entry.pool, symbols), (n) =>
  symbols.get(n),
);
const { columns } = productColumns(neurons, entry.maxFactors, 12000, 1);
const m = columns.length;
const n = data.train.rows;
const y = data.train.y[0]!;
const flat = new Float64Array(m * n);
columns.forEach((c, j) => {
  let norm = 0;
  for (let r = 0; r < n; r++) norm += c.values[r]! ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let r = 0; r < n; r++) flat[j * n + r] = c.values[r]! / norm;
});

const best = (f: () => void, repeats = 5) => {
  f();
  let t = Infinity;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    f();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
};

function scoresF64(r: Float64Array): Float64Array {
  const out = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    let s = 0;
    const o = j * n;
    for (let k = 0; k < n; k++) s += flat[o + k]! * r[k]!;
    out[j] = s * s;
  }
  return out;
}

const gramRows = Math.min(m, 2000);
function gramF64(): void {
  const g = new Float64Array(gramRows * gramRows);
  for (let i = 0; i < gramRows; i++)
    for (let j = i; j < gramRows; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += flat[i * n + k]! * flat[j * n + k]!;
      g[i * gramRows + j] = s;
    }
}

const rows: string[][] = [];
const f64Scores = best(() => void scoresF64(y));
const f64Gram = best(gramF64, 2);
rows.push(["float64 JS", f64Scores.toFixed(2), "—", f64Gram.toFixed(0), "1.00", "1.00"]);
for (const backend of ["cpu", "wasm"] as const) {
  await useBackend(backend);
  const a = tf.tensor2d(Float32Array.from(flat), [m, n]);
  const sub = a.slice([0, 0], [gramRows, n]);
  const r = tf.tensor2d(Float32Array.from(y), [n, 1]);
  const screen = () => tf.tidy(() => tf.matMul(a, r).square()).dataSync();
  const screenTime = best(screen);
  // Mixed: tfjs scores every column in float32, float64 re-scores the 64 best exactly.
  const mixed = best(() => {
    const s = screen();
    const top = Array.from(s.keys())
      .sort((p, q) => s[q]! - s[p]!)
      .slice(0, 64);
    for (const j of top) {
      let _v = 0;
      for (let k = 0; k < n; k++) _v += flat[j * n + k]! * y[k]!;
    }
  });
  const gram = best(() => void tf.tidy(() => tf.matMul(sub, sub, false, true)).dataSync(), 2);
  rows.push([
    `tfjs ${backend}`,
    screenTime.toFixed(2),
    mixed.toFixed(2),
    gram.toFixed(0),
    (f64Scores / mixed).toFixed(2),
    (f64Gram / gram).toFixed(2),
  ]);
  tf.dispose([a, sub, r]);
}
console.log(`\n# Screening: ${m} library columns × ${n} rows (Feynman I.12.11, sized), Gram on the first ${gramRows}`);
console.log(
  "engine        ms per screen (all columns)  ms screen + f64 re-score top 64  ms Gram  speed-up screen  speed-up Gram",
);
for (const r of rows)
  console.log(`${r[0]!.padEnd(14)}${r[1]!.padEnd(29)}${r[2]!.padEnd(33)}${r[3]!.padEnd(9)}${r[4]!.padEnd(17)}${r[5]}`);
