import { benchmarkData, benchmarkEntry } from "../src/lib/data/benchmark.js";
import { createSymbolRegistry } from "../src/plugins/index.js";
import { sharedFactors } from "../src/lib/search/linear/monomial.js";
import { allowedNeurons } from "../src/lib/search/constraints.js";
const symbols = createSymbolRegistry();
const id = process.argv[2]!; const seed = Number(process.argv[3] ?? 0);
const e = benchmarkEntry(id); const d = benchmarkData(e, { symbols, seed, rows: 500 });
console.log(sharedFactors({ x: d.train.x, y: d.train.y[0]!, pool: e.pool, allowed: allowedNeurons(d.train, e.pool, symbols), lookup: (n) => symbols.get(n), maxFactors: e.maxFactors }), d.train.inputs, e.pool);
