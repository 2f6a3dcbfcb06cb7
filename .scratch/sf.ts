import { benchmarkData, benchmarkEntry } from "../src/lib/data/benchmark.js";
import { createSymbolRegistry } from "../src/plugins/index.js";
import { sharedFactor } from "../src/lib/search/linear/monomial.js";
import { allowedNeurons } from "../src/lib/search/constraints.js";
const symbols = createSymbolRegistry();
for (const id of ["feynman-I.13.12", "feynman-I.12.11", "feynman-II.2.42"]) {
const e = benchmarkEntry(id); const d = benchmarkData(e, { symbols, seed: 0, rows: 500 });
console.log(id, sharedFactor({ x: d.train.x, y: d.train.y[0]!, pool: e.pool, allowed: allowedNeurons(d.train, e.pool, symbols), lookup: (n) => symbols.get(n), maxFactors: e.maxFactors }), d.train.inputs, e.pool);
}
