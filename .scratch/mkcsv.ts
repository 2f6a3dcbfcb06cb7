import { writeFileSync } from "node:fs";
import { benchmarkData, benchmarkEntry } from "../src/lib/data/benchmark.js";
import { createSymbolRegistry } from "../src/plugins/index.js";
import { createRng } from "../src/lib/rng.js";
const symbols = createSymbolRegistry();
const write = (file: string, names: string[], cols: ArrayLike<number>[]) => {
  const n = cols[0]!.length; const lines = [names.join(",")];
  for (let r = 0; r < n; r++) lines.push(cols.map((c) => c[r]!.toPrecision(17)).join(","));
  writeFileSync(file, lines.join("\n") + "\n");
};
for (const id of ["feynman-I.43.31", "nguyen-1", "feynman-I.12.11", "jin-4", "keijzer-15"]) {
  const d = benchmarkData(benchmarkEntry(id), { symbols, seed: 0, rows: 500 });
  write(`.scratch/${id}.csv`, [...d.train.inputs, "y"], [...d.train.x, d.train.y[0]!]);
}
const rng = createRng(3); const n = 500;
const u = () => Float64Array.from({ length: n }, () => 1 + rng.next());
const [a, b, c] = [u(), u(), u()];
write(".scratch/sum.csv", ["x1", "x2", "x3", "y"], [a, b, c, a.map((v, i) => 2 * v * b[i]! + c[i]! ** 2)]);
write(".scratch/prod3.csv", ["x1", "x2", "x3", "y"], [a, b, c, a.map((v, i) => -v * b[i]! * Math.cos(c[i]!))]);
