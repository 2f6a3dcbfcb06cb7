import { createRng } from "../src/lib/rng.js";
import { createEvaluator } from "../src/lib/search/index.js";
import { equationText } from "../src/lib/equation/format.js";
import { createRewardRegistry, createSymbolRegistry } from "../src/plugins/index.js";
const symbols = createSymbolRegistry();
for (const seed of [0,1,2,3]) {
const rng = createRng(seed); const n = 500;
const x1 = Float64Array.from({length:n}, () => 1 + rng.next()), x2 = Float64Array.from({length:n}, () => 1 + rng.next());
const y = x1.map((v,i)=> 2*v*x2[i]!);
const data = { inputs: ["x1","x2"], targets: ["y"], x: [x1,x2], y: [y], rows: n } as any;
const ev = createEvaluator(data, "y", symbols, createRewardRegistry().get("inv-nrmse"), { engine: "js", steps: 50, polish: "lm" });
for (const pool of [["x","sin"],["x","tanh"],["x","exp"]]) {
const s = { inputs: ["x1","x2"], symbols: pool, outputs: ["y"], products: [[0,2],[0,3]], sums: [[0,1]] };
const { candidate } = ev.evaluate(s as any);
console.log(seed, pool.join(), equationText(candidate.equation, (n)=>symbols.get(n)), candidate.nrmse);
}}
import { fitLocalSync } from "../src/lib/local/fit.js";
import { equationsOfLocal } from "../src/lib/equation/extract.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
{
const rng = createRng(0); const n = 500;
const x1 = Float64Array.from({length:n}, () => 1 + rng.next()), x2 = Float64Array.from({length:n}, () => 1 + rng.next());
const y = x1.map((v,i)=> 2*v*x2[i]!);
const s = { inputs: ["x1","x2"], symbols: ["x","sin"], outputs: ["y"], products: [[0,2],[0,3]], sums: [[0,1]] };
const f = fitLocalSync(s as any, { x: [x1,x2], y: [y] }, { symbols, engine: "js", steps: 50, polish: "lm" });
const [raw] = equationsOfLocal(s as any, f.weights, (n)=>symbols.get(n));
const cols = (n: string) => n === "x1" ? x1 : x2;
console.log(JSON.stringify(raw), equationText(simplifyEquation(raw!, { symbols: (n)=>symbols.get(n), inputOrder: ["x1","x2"], symbolOrder: symbols.names(), columns: cols, rows: n }), (n)=>symbols.get(n)));
}
