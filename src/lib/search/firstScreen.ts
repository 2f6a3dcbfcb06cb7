/**
 * The cheap first screen of a growing search (Speed I: the cheap questions first): its input,
 * the exact fit among its proposals, and the size where the search starts.
 */
import { allowedNeurons } from "./constraints.js";
import type { Size } from "./growth.js";
import {
  SCREEN_ROWS,
  strided,
  warmStart,
  type LinearInput,
  type LinearProposal,
  type ScreenCache,
} from "./linear/proposer.js";
import { dot, gramSchmidt, std } from "../numeric/index.js";
import type { WeightedNeuron } from "./linear/columns.js";
import { refineWeights } from "./linear/refineWeights.js";
import type { NoiseEstimate } from "./noise.js";
import type { SearchSettings } from "./settings.js";
import type { SearchContext } from "./strategy.js";

/**
 * Below this NRMSE, a linear fit of the cheap first screen is exact: its residual then stands
 * for the noise estimate (noise at most that), and the data count as noiseless.
 */
export const EXACT_SCREEN = 1e-6;

/** Where the search starts: the first screen's proposal fitted first, and the first size that holds it. */
export interface CheapStart {
  /** The proposal chosen. */
  proposal: LinearProposal;
  products: number[][];
  warm?: Map<number, number>;
  stage: number;
}

/**
 * Where a growing search starts (Speed I: the cheap questions first): the cheap first screen's
 * best proposal that reaches `reach` (the stop rule noiseless: the fewest products, then the
 * lowest NRMSE; the noise floor: the lowest score, hallOfFame.ts), and the first size that
 * holds it. The search skips the sizes before it and fits that proposal first.
 */
export function cheapStart(
  proposals: readonly LinearProposal[],
  sizes: readonly Size[],
  reach: number,
  score: ((p: LinearProposal) => number) | undefined,
): CheapStart | undefined {
  const hits = proposals.filter((p) => p.expected <= reach);
  if (hits.length === 0) return undefined;
  const rank = score ?? ((p: LinearProposal) => p.products.length + p.expected);
  const chosen = hits.reduce((best, p) => (rank(p) < rank(best) ? p : best));
  const factors = Math.max(...chosen.products.map((p) => p.length));
  const stage = sizes.findIndex((s) => s.terms >= chosen.products.length && s.maxFactors >= factors);
  return stage < 0 ? undefined : { proposal: chosen, products: chosen.products, warm: warmStart(chosen), stage };
}

/** The first screen's input for a target vector: the data's inputs, the pool, the widest size. */
export function firstScreenInput(
  ctx: SearchContext,
  settings: SearchSettings,
  sizes: readonly Size[],
  y: Float64Array,
  cache: ScreenCache,
): LinearInput {
  return {
    x: ctx.data.x,
    y,
    pool: ctx.pool,
    allowed: allowedNeurons(ctx.data, ctx.pool, ctx.symbols),
    lookup: (name) => ctx.symbols.get(name),
    maxFactors: Math.max(...sizes.map((s) => s.maxFactors)),
    maxTerms: Math.max(...sizes.map((s) => s.terms)),
    intercept: settings.constant,
    cache,
  };
}

/**
 * The first screen's exact fit (NRMSE at most EXACT_SCREEN; the fewest products, then the lowest
 * NRMSE), whose residual stands for the noise estimate; undefined: none.
 */
export function exactFirstScreen(proposals: readonly LinearProposal[]): NoiseEstimate | undefined {
  const exact = proposals
    .filter((p) => p.expected <= EXACT_SCREEN)
    .reduce<LinearProposal | undefined>(
      (m, p) =>
        m &&
        (m.products.length < p.products.length || (m.products.length === p.products.length && m.expected <= p.expected))
          ? m
          : p,
      undefined,
    );
  return (
    exact && {
      nrmse: exact.expected,
      method: `residual of an exact linear fit (${exact.products.length} terms, the first screen)`,
    }
  );
}

/**
 * A proposal's NRMSE on y: a log-space product's least-squares fit of y (productNrmse: additive noise
 * at small |y| reads as a large relative error in log space) where that is lower, else its expectation.
 */
export function nrmseOnY(
  ctx: Pick<SearchContext, "data" | "pool" | "symbols">,
  p: LinearProposal,
  y: Float64Array,
  constant: boolean,
): number {
  return p.source === "log-product" && p.products.length === 1
    ? Math.min(p.expected, productNrmse(ctx, p, y, constant))
    : p.expected;
}

/**
 * A one-product proposal's NRMSE fitted in y's own space (its coefficient, and the constant where
 * the search fits one), on at most SCREEN_ROWS strided rows. A log-space residual reads additive
 * noise at small |y| as a large relative error: ε·c·E² at 10 % noise fits log|y| to 0.37 and y to
 * the noise, 0.094.
 */
export function productNrmse(
  ctx: Pick<SearchContext, "data" | "pool" | "symbols">,
  p: LinearProposal,
  y: Float64Array,
  constant: boolean,
): number {
  const rows = (v: Float64Array) => strided(v, SCREEN_ROWS);
  const ys = rows(y);
  const column = new Float64Array(ys.length).fill(1);
  p.products[0]!.forEach((neuron, j) => {
    const symbol = ctx.symbols.get(ctx.pool[neuron % ctx.pool.length]!);
    const weight = p.weights?.[0]?.[j] ?? 1;
    const x = rows(ctx.data.x[Math.floor(neuron / ctx.pool.length)]!);
    for (let r = 0; r < ys.length; r++) column[r]! *= symbol.evaluate(symbol.innerWeight ? weight * x[r]! : x[r]!);
  });
  const columns = constant ? [column, new Float64Array(ys.length).fill(1)] : [column];
  const basis = gramSchmidt(columns, { dependent: 1e-9, unit: true });
  const residual = basis.project(Float64Array.from(ys));
  const fitted = Math.sqrt(dot(residual, residual) / ys.length) / (std(ys) || 1);
  return Number.isFinite(fitted) ? fitted : Number.POSITIVE_INFINITY;
}

/**
 * A one-product log-space proposal with its inner weights fitted on y's own scale (Levenberg–Marquardt
 * on SCREEN_ROWS strided rows, the coefficient and the constant by least squares at each step), and
 * its NRMSE there; the proposal as it is where it has no inner weight or none moved. Under noise the
 * log-space slope of a small |y| is noise's: exp(w·u)·sin(v)·a at 1 % of y's RMS took w = −1.078 for
 * −1 from log|y| (NRMSE on y 0.038, the floor's reach 0.026), −1.000 refitted here (0.018).
 */
export function refinedProduct(
  ctx: Pick<SearchContext, "data" | "pool" | "symbols">,
  p: LinearProposal,
  y: Float64Array,
  constant: boolean,
): { proposal: LinearProposal; nrmse: number } {
  const unrefined = { proposal: p, nrmse: productNrmse(ctx, p, y, constant) };
  if (p.products.length !== 1) return unrefined;
  const rows = (v: Float64Array) => strided(v, SCREEN_ROWS);
  const product = p.products[0]!;
  const symbolOf = (neuron: number) => ctx.symbols.get(ctx.pool[neuron % ctx.pool.length]!);
  // refineWeights takes the plain neurons first, then the weighted ones.
  const order = product
    .map((_, j) => j)
    .sort((i, j) => +!!symbolOf(product[i]!).innerWeight - +!!symbolOf(product[j]!).innerWeight);
  const neurons: WeightedNeuron[] = order.map((j) => {
    const neuron = product[j]!;
    const symbol = symbolOf(neuron);
    const input = Math.floor(neuron / ctx.pool.length);
    const x = rows(ctx.data.x[input]!);
    const weight = symbol.innerWeight ? (p.weights?.[0]?.[j] ?? 1) : 1;
    const evaluate = (v: number) => symbol.evaluate(v);
    return {
      neuron,
      input,
      weight,
      complexity: 0,
      x,
      evaluate,
      values: Float64Array.from(x, (v) => evaluate(weight * v)),
    };
  });
  const firstWeighted = neurons.findIndex((n) => symbolOf(n.neuron).innerWeight);
  if (firstWeighted < 0) return unrefined;
  const model = refineWeights(neurons, firstWeighted, [neurons.map((_, k) => k)], rows(y), constant, SCREEN_ROWS);
  if (!model) return unrefined;
  const weights = new Map(model[0]!.map((k) => [neurons[k]!.neuron, neurons[k]!.weight]));
  const refined: LinearProposal = { ...p, weights: [product.map((neuron) => weights.get(neuron) ?? 1)] };
  const nrmse = productNrmse(ctx, refined, y, constant);
  return nrmse < unrefined.nrmse ? { proposal: { ...refined, expected: nrmse }, nrmse } : unrefined;
}
