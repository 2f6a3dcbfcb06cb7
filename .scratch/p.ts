import { createRng } from "../src/lib/rng.js";
import { experimentData, experiments, selectTargets } from "../src/lib/data/index.js";
import { search } from "../src/lib/search/index.js";
import { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } from "../src/plugins/index.js";
const symbols = createSymbolRegistry();
for (const t of ["y1","y2","y3"]) for (const seed of [0,1]) {
const d = selectTargets(experimentData(experiments.syn1!, { rng: createRng(seed), symbols: (n) => symbols.get(n), rows: 400 }).train, [t]);
const r = await search(d, { symbols, pool: experiments.syn1!.symbols, constraints: ["static","dynamic"].map(n=>createConstraintRegistry().get(n)), reward: createRewardRegistry().get("inv-nrmse"), rng: createRng(seed), method: "paper", settings: { episodes: 120 } });
const o = r.outputs[0]!; console.log(t, seed, o.episodes, o.stopReason, o.actions, r.equations[0]!.text, o.best!.nrmse);
}
