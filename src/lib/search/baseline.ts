/**
 * The any-moment answer of a search stopped before its first fit (loop.ts): every input once as a
 * plain term, fitted by one least-squares solve.
 */
import type { RewardPlugin } from "../plugins/index.js";
import { allowedNeurons } from "./constraints.js";
import { createEvaluator, type Candidate } from "./evaluator.js";
import type { SearchSettings } from "./settings.js";
import type { SearchContext } from "./strategy.js";

/**
 * The any-moment answer: every input once as a plain term (symbol x where the pool has it, else
 * the pool's first symbol without an inner weight whose domain the input keeps), fitted before
 * any screening. It is kept apart from the search's cache and hall of fame (it changes nothing
 * the search decides) and is the answer only when the search was stopped before its first fit.
 */
const BASELINE_REWARD: RewardPlugin = {
  kind: "reward",
  name: "baseline",
  range: [0, 1],
  score: ({ nrmse }) => 1 / (1 + nrmse),
};

export function baselineCandidate(ctx: SearchContext, settings: SearchSettings): Candidate | undefined {
  const allowed = allowedNeurons(ctx.data, ctx.pool, ctx.symbols);
  const order = [ctx.pool.indexOf("x"), ...ctx.pool.map((name, s) => (ctx.symbols.get(name).innerWeight ? -1 : s))];
  const products: number[][] = [];
  ctx.data.inputs.forEach((_, i) => {
    const symbol = order.find((s) => s >= 0 && allowed[i * ctx.pool.length + s]);
    if (symbol !== undefined) products.push([i * ctx.pool.length + symbol]);
  });
  if (products.length === 0) return undefined;
  // Scored by 1/(1 + NRMSE), not the run's reward plugin: the baseline is no episode of the search.
  // Its products hold no inner weight, so its fit is one least-squares solve (no Adam, no LM):
  // fitted after an abort, it must be quick on a million rows too.
  const evaluator = createEvaluator(
    ctx.data,
    ctx.target,
    ctx.symbols,
    BASELINE_REWARD,
    { ...settings.fit, polish: "lsq" },
    settings.constant,
  );
  const structure = {
    inputs: [...ctx.data.inputs],
    symbols: [...ctx.pool],
    outputs: [ctx.target],
    products,
    sums: [products.map((_, j) => j)],
  };
  return evaluator.evaluate(structure).candidate;
}
