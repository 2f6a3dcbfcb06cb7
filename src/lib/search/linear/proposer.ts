/**
 * The linear-algebra proposals of one output search, in the order they are fitted: single
 * products from log space first (one solve proposes every factor), then sums from sparse
 * selection over the product-column library. Computed once per search size, on at most 400
 * strided rows; counts of what was screened are kept for the JSON.
 */
import { extent, std } from "../../numeric/index.js";
import type { SymbolPlugin } from "../../plugins/index.js";
import {
  fineWeightColumns,
  neuronColumns,
  productColumnsSteps,
  type NeuronColumn,
  type ProductColumn,
} from "./columns.js";
import { monomialProposalsSteps, powerOf, sharedFactors, type MonomialInput } from "./monomial.js";
import { Selection, type Subset } from "./select.js";
import { backwardElimination } from "./backward.js";
import { noisyRatioSteps, ratioProposalSteps, type NoisyRatio, type RatioProposal } from "./ratio.js";
import { pursueSteps, pursueWeightedSteps, type PursuitResult } from "./pursuit.js";
import { log2 } from "../../core/index.js";
import { noiseShare } from "../noise.js";
import { runSteps, type Steps } from "../../core/index.js";

export interface LinearProposal {
  products: number[][];
  /** NRMSE (sums) or log-space residual (products) of the screening fit. */
  score: number;
  /** The train NRMSE the screening suggests a fit would reach (for products, from the log residual). */
  expected: number;
  source: "log-product" | "sparse-sum" | "backward-sum" | "pursuit" | "polynomial";
  /**
   * The inner weight of each factor (aligned with `products`) where the screen used one (a
   * grid weight, or the log fit's slope of an exp): the fit starts there (a warm start).
   */
  weights?: number[][];
}

/** A proposal's warm start: the inner weight of each neuron the screen did not use at 1. */
export function warmStart(proposal: LinearProposal): Map<number, number> | undefined {
  if (!proposal.weights) return undefined;
  const start = new Map<number, number>();
  for (const [j, product] of proposal.products.entries())
    for (const [k, neuron] of product.entries()) {
      const w = proposal.weights[j]?.[k];
      if (w !== undefined && w !== 1 && !start.has(neuron)) start.set(neuron, w);
    }
  return start.size > 0 ? start : undefined;
}

export interface LinearInput extends MonomialInput {
  /** Products per output: the sums' largest size. */
  maxTerms: number;
  /**
   * Also screen sums of up to `maxTerms` products (not only SCREEN_TERMS) by backward elimination
   * over the whole library (backward.ts), when it has at most WIDE_COLUMNS columns: proposal
   * "wide", for outputs that are sums of many products (pow).
   */
  wide?: boolean;
  /**
   * The sums' library holds the constant column (default true): the search fits every structure
   * with an additive constant (SearchSettings.constant).
   */
  intercept?: boolean;
  /**
   * Only the cheap parts: the log-space products and the sums of singles and pairs (no centred
   * subsets, no product pursuit). What an outer function's screen asks: is g⁻¹(y) a short exact sum.
   */
  quick?: boolean;
  /**
   * Factors per product of the cheap screen's library (default CHEAP_FACTORS): an outer
   * function's second screen asks for 3 (y² = a·b·c + 4), without gridded neurons.
   */
  factors?: number;
  /** Names the target in the cache (default "y"): screens of other targets (g⁻¹(y)) share its libraries. */
  tag?: string;
  /**
   * What one output's earlier screens built (libraries and selections), for a search whose size
   * grows: a wider size reuses them and selects deeper only where it must (same proposals).
   */
  cache?: ScreenCache;
}

/** Libraries and selections of one output's screens, reused from size to size. */
export class ScreenCache {
  readonly #libraries = new Map<string, { columns: ProductColumn[]; truncated: boolean }>();
  readonly #selections = new Map<string, { neurons: string[]; selection: Selection }>();
  #neurons?: { key: string; columns: NeuronColumn[] };
  readonly #logProducts = new Map<string, LinearProposal[]>();

  /** The log-space single products of up to `maxFactors` factors. */
  *logProducts(maxFactors: number, make: () => Steps<LinearProposal[]>, tag = "y"): Steps<LinearProposal[]> {
    const key = `${tag}:${maxFactors}`;
    let products = this.#logProducts.get(key);
    if (!products) {
      products = yield* make();
      this.#logProducts.set(key, products);
    }
    return products;
  }

  /** The neuron columns of an allowed set (one per output: the data and pool do not change). */
  neurons(allowed: readonly boolean[], make: () => NeuronColumn[]): NeuronColumn[] {
    const key = allowed.map((a) => (a ? 1 : 0)).join("");
    if (this.#neurons?.key !== key) this.#neurons = { key, columns: make() };
    return this.#neurons.columns;
  }

  /** A product library by its making's arguments. */
  *library(
    key: string,
    make: () => Steps<{ columns: ProductColumn[]; truncated: boolean }>,
  ): Steps<{ columns: ProductColumn[]; truncated: boolean }> {
    let built = this.#libraries.get(key);
    if (!built) {
      built = yield* make();
      this.#libraries.set(key, built);
    }
    return built;
  }

  /**
   * The selection over these columns (on SCREEN_ROWS rows) against `target`, which `tag` names
   * (y, or a quotient of it): kept while the columns are the same products (a prefix of a wider
   * library may equal a narrower one).
   */
  selection(tag: string, columns: readonly ProductColumn[], target: Float64Array, center = false): Selection {
    const neurons = columns.map((c) => `${c.neurons.join(".")}@${c.weights.join(".")}`);
    const key = `${tag}:${columns.length}:${center}`;
    const kept = this.#selections.get(key);
    if (kept && kept.neurons.length === neurons.length && kept.neurons.every((n, i) => n === neurons[i]))
      return kept.selection;
    const selection = new Selection(
      columns.map((c) => c.values),
      target,
      { rows: SCREEN_ROWS, center },
    );
    this.#selections.set(key, { neurons, selection });
    return selection;
  }
}

/**
 * The screening's own size limits: sums of at most 6 library products of at most 4 factors
 * (wider sizes are the Q-learning's alone: screening them costs tens of seconds per size and,
 * on a narrow range, proposes approximants rather than laws). Single products from log space
 * take up to the size's factors.
 */
export const SCREEN_TERMS = 6;
export const SCREEN_FACTORS = 4;

/** Library columns at most (products beyond are not screened, and the JSON says how many were). */
export const COLUMN_CAP = 12000;
/** The wide screen's library at most (backward elimination costs O(K³)). */
export const WIDE_COLUMNS = 600;
export const SCREEN_ROWS = 400;

export interface LinearScreen {
  proposals: LinearProposal[];
  /** Product columns built and scored. */
  columns: number;
  /** Whether the column cap cut the library. */
  truncated: boolean;
}

/**
 * The library with the constant column first (no neurons, complexity 0) where the search fits a
 * constant (LinearInput.intercept): y = 2·x1 + 5 is then the subset {1, x1}, whose proposal is
 * {x1}. It costs one column of the library.
 */
function withOnes(columns: readonly ProductColumn[], input: LinearInput): ProductColumn[] {
  if (!(input.intercept ?? true) || columns.length === 0) return [...columns];
  const rows = columns[0]!.values.length;
  return [{ neurons: [], weights: [], complexity: 0, values: new Float64Array(rows).fill(1) }, ...columns];
}

/** Whether a column holds one value on every row (up to rounding). */
function constant(values: Float64Array): boolean {
  const [lo, hi] = extent(values);
  return hi - lo <= 1e-12 * Math.max(Math.abs(lo), Math.abs(hi));
}

const rms = (v: Float64Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0) / Math.max(1, v.length));

/** At most `rows` values of a column, evenly strided (the screens' rows). */
export function strided(values: ArrayLike<number>, rows: number): Float64Array {
  const step = Math.max(1, Math.floor(values.length / rows));
  const out: number[] = [];
  for (let r = 0; r < values.length; r += step) out.push(values[r]!);
  return Float64Array.from(out);
}

/** Ends of the prefixes of a size-ordered library that hold products of up to 1, 2, … factors (the whole last). */
function libraryPrefixes(columns: readonly ProductColumn[]): number[] {
  const ends: number[] = [];
  for (let i = 1; i < columns.length; i++) {
    if (columns[i]!.neurons.length > columns[i - 1]!.neurons.length) ends.push(i);
  }
  return [...ends, columns.length];
}

/**
 * The screening rows (at most SCREEN_ROWS, strided) and the best 8 single products of one
 * log-space solve; the products are kept in the cache per maxFactors (the first screen and the
 * first size ask the same).
 */
function* logProducts(input: LinearInput, cache: ScreenCache) {
  const x = input.x.map((c) => strided(c, SCREEN_ROWS));
  const y = strided(input.y, SCREEN_ROWS);
  // A log-space residual r is a relative error of about r: an NRMSE of about r·rms(y)/std(y).
  const spread = rms(y) / (std(y) || 1);
  const products = yield* cache.logProducts(
    input.maxFactors,
    function* () {
      return (yield* monomialProposalsSteps({ ...input, x, y })).slice(0, 8).map(
        (p): LinearProposal => ({
          products: [p.neurons],
          ...(p.weights.some((v) => v !== 1) ? { weights: [p.weights] } : {}),
          score: p.residual,
          expected: p.residual * spread,
          source: "log-product",
        }),
      );
    },
    input.tag,
  );
  return { x, y, products };
}

export function linearProposals(input: LinearInput): LinearScreen {
  return runSteps(linearProposalsSteps(input));
}

/** linearProposals as interruptible steps (clock.ts): the search drives them on the event loop. */
export function* linearProposalsSteps(input: LinearInput): Steps<LinearScreen> {
  const cache = input.cache ?? new ScreenCache();
  const { x, y, products } = yield* logProducts(input, cache);
  // An exact log-space fit says y is one product: no library is needed.
  if (products.some((p) => p.score < 1e-9)) return { proposals: products, columns: 0, truncated: false };
  const neurons = cache.neurons(input.allowed, () => neuronColumns(x, input.pool, input.allowed, input.lookup));
  const maxTerms = Math.min(input.maxTerms, SCREEN_TERMS);
  const levels = yield* levelSubsets(input, cache, neurons, y, maxTerms);
  const quotients = yield* quotientSubsets(input, cache, neurons, x, y, maxTerms);
  const wide = yield* wideSubsets(input, neurons, y);
  const scored = [...levels.scored, ...quotients.scored, ...wide.scored];
  // Where no subset is exact (the wide path's included), the single-factor columns with the
  // constant in every subset (centredSubsets).
  if (levels.plain && !scored.some((s) => s.subset.nrmse <= PURSUIT_EXACT))
    scored.push(...(yield* centredSubsets(levels.plain, y, maxTerms, input, cache)));
  const sums = sumProposals(scored, wide.scored);
  const count = levels.count + quotients.count + wide.count;
  return { proposals: merge(products, sums), columns: count, truncated: levels.truncated };
}

/** A subset of a library's columns selected against y, with the library it indexes. */
type Scored = { columns: readonly ProductColumn[]; subset: Subset };

/**
 * The subsets selected in the libraries by how many gridded neurons (sin, exp … at grid weights)
 * a product may hold: none (powers, sqrt …: no impostors, small enough to search exhaustively),
 * one, two. Gridded columns imitate polynomial terms on a narrow range, and many of them crowd
 * the selection. Also the columns built, whether the cap cut a library, and the first library
 * (without gridded neurons where the pool has any).
 */
function* levelSubsets(
  input: LinearInput,
  cache: ScreenCache,
  neurons: readonly NeuronColumn[],
  y: Float64Array,
  maxTerms: number,
): Steps<{ scored: Scored[]; count: number; truncated: boolean; plain: ProductColumn[] | undefined }> {
  const gridded = neurons.some((n) => n.weight !== 1);
  const levels = gridded ? [0, 1, 2].filter((g) => g <= input.maxFactors) : [input.maxFactors];
  const scored: Scored[] = [];
  let count = 0;
  let truncated = false;
  // Single products of many factors are the log-space solve's; the library holds up to 3.
  const libraryFactors = Math.min(input.maxTerms === 1 ? 3 : SCREEN_FACTORS, input.maxFactors);
  let plain: ProductColumn[] | undefined;
  for (const level of levels) {
    const built = yield* cache.library(`${level}:${libraryFactors}`, () =>
      productColumnsSteps(neurons, libraryFactors, COLUMN_CAP, level),
    );
    if (built.columns.length === 0) continue;
    count += built.columns.length;
    truncated ||= built.truncated;
    plain ??= built.columns;
    // The library grows by size (singles, then pairs, …): its prefixes are the libraries of
    // fewer factors. Selecting in each prefix too finds a sum of simple products that the beam
    // over the whole library can miss when larger products correlate with it more greedily.
    const library = withOnes(built.columns, input);
    for (const end of libraryPrefixes(library)) {
      const prefix = library.slice(0, end);
      for (const subset of yield* cache.selection("y", prefix, y).upTo(maxTerms))
        scored.push({ columns: library, subset });
    }
  }
  return { scored, count, truncated, plain };
}

/**
 * Sums whose terms share a factor (G·m1·m2·(1/r2 − 1/r1)): y divided by the shared factor is
 * a sum of smaller products, which a small library can hold. Its subsets, as products with the
 * shared factors, and the columns built.
 */
function* quotientSubsets(
  input: LinearInput,
  cache: ScreenCache,
  neurons: readonly NeuronColumn[],
  x: Float64Array[],
  y: Float64Array,
  maxTerms: number,
): Steps<{ scored: Scored[]; count: number }> {
  const scored: Scored[] = [];
  let count = 0;
  const sharedSets = input.maxTerms > 1 ? sharedFactors({ ...input, x, y }) : [];
  const quotientFactors = Math.min(input.maxFactors, SCREEN_FACTORS);
  for (const shared of sharedSets.filter((set) => set.length > 0 && set.length < quotientFactors)) {
    const divisor = Float64Array.from(y, () => 1);
    for (const v of shared) {
      const column = neurons.find((n) => n.neuron === v && n.weight === 1);
      if (column) for (let r = 0; r < divisor.length; r++) divisor[r]! *= column.values[r]!;
    }
    if (!divisor.every((d) => Number.isFinite(d) && d !== 0)) continue;
    const rest = neurons.filter((n) => !shared.includes(n.neuron));
    const built = yield* cache.library(`quotient ${shared.join(".")}:${quotientFactors - shared.length}`, () =>
      productColumnsSteps(rest, quotientFactors - shared.length, COLUMN_CAP, 1),
    );
    count += built.columns.length;
    const quotient = Float64Array.from(y, (v, r) => v / divisor[r]!);
    const prefixed = built.columns.map((c) => withShared(c, shared));
    for (const subset of yield* cache.selection(`quotient ${shared.join(".")}`, built.columns, quotient).upTo(maxTerms))
      scored.push({ columns: prefixed, subset });
  }
  return { scored, count };
}

/** A quotient library's column as a product with the shared factors (its neurons sorted). */
function withShared(c: ProductColumn, shared: readonly number[]): ProductColumn {
  // A column constant over the rows (α·α⁻¹) is the term of the shared factors alone.
  const own = constant(c.values) ? [] : c.neurons.map((v, k) => [v, c.weights[k]!] as const);
  const pairs = [...shared.map((v) => [v, 1] as const), ...own].sort((p, q) => p[0] - q[0]);
  return { ...c, neurons: pairs.map((p) => p[0]), weights: pairs.map((p) => p[1]) };
}

/** The wide screen (LinearInput.wide): every model on the backward-elimination path of the whole library. */
function* wideSubsets(
  input: LinearInput,
  neurons: readonly NeuronColumn[],
  y: Float64Array,
): Steps<{ scored: Scored[]; count: number }> {
  const scored: Scored[] = [];
  if (!input.wide) return { scored, count: 0 };
  const built = yield* productColumnsSteps(neurons, Math.min(SCREEN_FACTORS, input.maxFactors), WIDE_COLUMNS);
  if (built.truncated || built.columns.length === 0) return { scored, count: 0 };
  const scale = std(y) * Math.sqrt(y.length) || 1;
  const library = withOnes(built.columns, input);
  const { path } = backwardElimination(
    library.map((c) => c.values),
    library.map((c) => c.complexity),
    y,
    input.maxTerms,
  );
  for (const model of path)
    scored.push({ columns: library, subset: { members: model.members, nrmse: Math.sqrt(model.rss) / scale } });
  return { scored, count: built.columns.length };
}

/**
 * The subsets as sum proposals, near-exact first, the fewest terms among those within a factor 2
 * of each other; each sum once (the constant column, the fit's own constant, is no product).
 */
function sumProposals(scored: Scored[], wide: readonly Scored[]): LinearProposal[] {
  const bucket = (nrmse: number) => Math.floor(log2(Math.max(nrmse, 1e-10)));
  scored.sort(
    (p, q) =>
      bucket(p.subset.nrmse) - bucket(q.subset.nrmse) ||
      p.subset.members.length - q.subset.members.length ||
      p.subset.nrmse - q.subset.nrmse,
  );
  const sums: LinearProposal[] = [];
  const seen = new Set<string>();
  for (const { columns, subset: s } of scored) {
    const members = s.members.filter((m) => columns[m]!.neurons.length > 0);
    const products = members.map((m) => columns[m]!.neurons);
    const weights = members.map((m) => columns[m]!.weights);
    if (products.length === 0) continue;
    const key = products
      .map((p) => p.join("."))
      .sort()
      .join("|");
    if (seen.has(key)) continue;
    seen.add(key);
    sums.push({
      products,
      ...(weights.some((w) => w.some((v) => v !== 1)) ? { weights } : {}),
      score: s.nrmse,
      expected: s.nrmse,
      source: wide.some((w) => w.subset === s) ? "backward-sum" : "sparse-sum",
    });
  }
  return sums;
}

/**
 * Where a single-factor column is nearly constant (nearlyConstant: Pow's voltages u ≈ 1), subsets
 * of a library's single-factor prefix (one neuron per column: x, x², 1/x … of each input) selected
 * with the constant in every subset (centred columns, select.ts), for a search that fits a
 * constant (none otherwise): up to `maxTerms` terms beside it, scored without the catastrophic
 * cancellation that columns close to constant (u ≈ 1 beside u²) cause next to the constant column
 * of the plain selection, whose subsets leave it out or take it as one of their terms. Asked where
 * the plain selection found nothing exact (noise, or a truth outside the library): on Pow's outputs
 * at 60 dB it finds q4's six voltages and constant at the noise, which the plain one misses, while
 * on exact data the plain one's subsets are the pursuit's better starts. The prefix only: over the
 * pairs too it cost a third more search CPU on the noise benchmark.
 */
function* centredSubsets(
  library: readonly ProductColumn[],
  y: Float64Array,
  maxTerms: number,
  input: LinearInput,
  cache: ScreenCache,
): Steps<{ columns: readonly ProductColumn[]; subset: Subset }[]> {
  const out: { columns: readonly ProductColumn[]; subset: Subset }[] = [];
  if (!(input.intercept ?? true)) return out;
  const end = library.findIndex((c) => c.neurons.length > 1);
  const prefix = end < 0 ? library : library.slice(0, end);
  if (prefix.length === 0 || !prefix.some((c) => nearlyConstant(c.values))) return out;
  for (const subset of yield* cache.selection("y", prefix, y, true).upTo(maxTerms))
    out.push({ columns: prefix, subset });
  return out;
}

/**
 * Whether a column varies, but by less than 1 % of its mean (mean² > 10⁴·variance): beside the
 * constant column it is then collinear to four digits and more, and the plain selection's scores
 * (differences of yᵀy-sized sums) lose that much to rounding, so the centred selection is asked.
 * Elsewhere it is not: on y = x + 2·log(3·x) over [1, 5] its exact scores let sums of powers imitate
 * the log to 1e-7, which the plain selection never reached, and the search stopped on one.
 */
function nearlyConstant(values: Float64Array): boolean {
  let mean = 0;
  for (const v of values) mean += v / values.length;
  let variance = 0;
  for (const v of values) variance += (v - mean) ** 2 / values.length;
  return variance > 0 && mean * mean > 1e4 * variance;
}

/**
 * The neuron columns of the screening rows `x` and the library of products of up to `factors` of
 * them with no gridded neuron (level 0; for a pool without grids, the one level there is holds
 * none either): the library the sizes build, shared through the cache.
 */
function* plainLibrary(input: LinearInput, cache: ScreenCache, x: readonly Float64Array[], factors: number) {
  const neurons = cache.neurons(input.allowed, () => neuronColumns(x, input.pool, input.allowed, input.lookup));
  const gridded = neurons.some((n) => n.weight !== 1);
  const most = Math.min(factors, input.maxFactors);
  const level = gridded ? 0 : most;
  const built = yield* cache.library(`${level}:${most}`, () => productColumnsSteps(neurons, most, COLUMN_CAP, level));
  return { neurons, built };
}

/** Factors per product in the cheap first screen's library: every single neuron and every pair. */
export const CHEAP_FACTORS = 2;

/**
 * The cheap first screen (Speed I: ask the cheap questions first): what a few solves answer
 * before any size of the search is entered. Single products from one log-space solve, and sums
 * of up to `maxTerms` (at most SCREEN_TERMS) products of one or two neurons without a weight
 * grid (x, x², 1/x, sqrt … of every input, and their pairs) selected from one small library.
 * The library and its selection go into the cache, where the search's sizes find them again.
 */
export function* cheapProposalsSteps(input: LinearInput): Steps<{ proposals: LinearProposal[]; columns: number }> {
  const cache = input.cache ?? new ScreenCache();
  const { x, y, products } = yield* logProducts(input, cache);
  if (products.some((p) => p.score < 1e-9)) return { proposals: products, columns: 0 };
  const { neurons, built } = yield* plainLibrary(input, cache, x, input.factors ?? CHEAP_FACTORS);
  if (built.columns.length === 0) return { proposals: products, columns: 0 };
  // As the sizes do: every prefix of the library (singles, then singles and pairs) is selected from.
  const sums: LinearProposal[] = [];
  const library = withOnes(built.columns, input);
  const depth = Math.min(input.maxTerms, SCREEN_TERMS);
  for (const end of libraryPrefixes(library)) {
    const prefix = library.slice(0, end);
    for (const subset of yield* cache.selection(input.tag ?? "y", prefix, y).upTo(depth)) {
      const chosen = subset.members.map((m) => prefix[m]!.neurons).filter((p) => p.length > 0);
      if (chosen.length > 0)
        sums.push({ products: chosen, score: subset.nrmse, expected: subset.nrmse, source: "sparse-sum" });
    }
  }
  if (input.quick) return { proposals: [...products, ...sums], columns: built.columns.length };
  // Where no sum is exact, the single-factor columns with the constant in every subset
  // (centredSubsets); proposed, not pursued from: the pursuit's starts stay the sums above.
  const centred: LinearProposal[] = [];
  if (!sums.some((p) => p.score <= PURSUIT_EXACT))
    for (const { columns, subset } of yield* centredSubsets(built.columns, y, depth, input, cache))
      centred.push({
        products: subset.members.map((m) => columns[m]!.neurons),
        score: subset.nrmse,
        expected: subset.nrmse,
        source: "sparse-sum",
      });
  // Where no sum of singles and pairs is exact, product pursuit (pursuit.ts).
  const pursued =
    !sums.some((p) => p.score <= PURSUIT_EXACT) && input.maxTerms > 1
      ? yield* pursuedSums(input, neurons, x, y, sums)
      : [];
  return { proposals: [...products, ...sums, ...centred, ...pursued], columns: built.columns.length };
}

/**
 * Product pursuit (pursuit.ts) from the cheap screen's sums: backward elimination over the pairs,
 * then sums of larger products; only an exact sum it finds is proposed (under noise, a sum picked
 * from tens of thousands of products could fit the noise), and the sum at which it stopped on
 * noise. Nothing exact among plain products: products with one neuron at an inner weight.
 */
function* pursuedSums(
  input: LinearInput,
  neurons: readonly NeuronColumn[],
  x: Float64Array[],
  y: Float64Array,
  sums: readonly LinearProposal[],
): Steps<LinearProposal[]> {
  const plain = neurons.filter((n) => !neurons.some((m) => m.neuron === n.neuron && m.weight !== 1));
  // A sum whose residual is mostly noise (the Gamma test's share of it, noise.ts) ends the pursuit:
  // with noise in the data no sum is exact, and the pursuit's time would be spent for nothing.
  const isNoise = (residual: Float64Array) => (noiseShare(x, residual) ?? 0) > NOISE_SHARE;
  const ends = yield* pursueSteps(plain, y, {
    starts: pursuitStarts(plain, sums),
    maxTerms: input.maxTerms,
    maxFactors: input.maxFactors,
    intercept: input.intercept ?? true,
    exact: PURSUIT_EXACT,
    powers: plain.map((n) => powerOf(input.lookup(input.pool[n.neuron % input.pool.length]!))),
    isNoise,
  });
  // Exact sums, and the sum at which the pursuit stopped on noise (a noise-level answer, which the
  // search fits first where it reaches the noise floor; loop.ts cheapStart).
  const noisy = ends.find((end) => end.source === "noise" && end.products.length > 0);
  const pursued: LinearProposal[] = [];
  for (const end of [...ends.filter((e) => e.nrmse <= PURSUIT_EXACT), ...(noisy ? [noisy] : [])])
    pursued.push({
      products: end.products.map((p) => p.map((i) => plain[i]!.neuron).sort((a, b) => a - b)),
      score: end.nrmse,
      expected: end.nrmse,
      source: end.source === "backward" ? "backward-sum" : "pursuit",
    });
  if (!pursued.some((p) => p.expected <= PURSUIT_EXACT))
    pursued.push(...(yield* weightedSums(input, plain, x, y, ends, noisy, isNoise)));
  return pursued;
}

/** The cheap screen's best sums of each length (PURSUIT_STARTS) over the plain neurons, as their indices. */
function pursuitStarts(plain: readonly NeuronColumn[], sums: readonly LinearProposal[]): number[][][] {
  const index = new Map(plain.map((n, i) => [n.neuron, i]));
  const starts: number[][][] = [];
  for (let terms = 1; terms <= SCREEN_TERMS; terms++) {
    const best = sums.filter((p) => p.products.length === terms).sort((p, q) => p.score - q.score);
    for (const sum of best.slice(0, PURSUIT_STARTS))
      if (sum.products.every((p) => p.every((n) => index.has(n))))
        starts.push(sum.products.map((p) => p.map((n) => index.get(n)!)));
  }
  return starts;
}

/**
 * Nothing exact among plain products: products with one neuron at an inner weight (sin, exp …),
 * from a fine weight grid, their weights refined (pursueWeightedSteps). Where the plain pursuit
 * stopped on noise only its sum's terms are multiplied by them (q·B·v·θ² to q·B·v·sin θ), and a
 * multiplied term completed alone over plain products to the noise; no weighted sum is grown.
 */
function* weightedSums(
  input: LinearInput,
  plain: readonly NeuronColumn[],
  x: Float64Array[],
  y: Float64Array,
  ends: readonly PursuitResult[],
  noisy: PursuitResult | undefined,
  isNoise: (residual: Float64Array) => boolean,
): Steps<LinearProposal[]> {
  const fine = fineWeightColumns(x, input.pool, input.allowed, input.lookup);
  const found = yield* pursueWeightedSteps(plain, fine, y, {
    maxTerms: input.maxTerms,
    maxFactors: input.maxFactors,
    intercept: input.intercept ?? true,
    exact: PURSUIT_EXACT,
    isNoise,
    grow: !noisy,
    // The plain pursuit's sums, shortest first: a weighted factor may be what they lack (under
    // noise, the noise sum alone).
    starts: noisy
      ? [noisy.products]
      : ends
          .filter((end) => end.source === "pursuit" && end.products.length > 0)
          .sort((p, q) => p.products.length - q.products.length)
          .map((end) => end.products),
  });
  return found.map((end): LinearProposal => {
    const products = end.products.map((p) => [...p].sort((a, b) => a.neuron - b.neuron));
    return {
      products: products.map((p) => p.map((n) => n.neuron)),
      weights: products.map((p) => p.map((n) => n.weight)),
      score: end.nrmse,
      expected: end.nrmse,
      source: "pursuit",
    };
  });
}

/**
 * The ratio screen (ratio.ts) over the cheap first screen's library (products of one or two plain
 * neurons, shared through the cache), on the screening rows.
 */
export function* ratioScreenSteps(input: LinearInput): Steps<RatioProposal | undefined> {
  const library = yield* ratioLibrary(input);
  return library && (yield* ratioProposalSteps(library, strided(input.y, SCREEN_ROWS)));
}

/**
 * Under noise, the ratio screen's fits (noisyRatioSteps) over the same library: the ratio of fewest
 * coefficients, below `most`, whose fit of y on the screening rows reaches `reach`.
 */
export function* noisyRatioScreenSteps(input: LinearInput, reach: number, most: number): Steps<NoisyRatio | undefined> {
  const library = yield* ratioLibrary(input);
  if (!library) return undefined;
  // Fixed terms: the constant and each input itself (c + 2·d + 0.5·e; a + b).
  const pool = input.pool;
  const plain = (c: ProductColumn) =>
    c.neurons.length === 1 && c.weights[0] === 1 && powerOf(input.lookup(pool[c.neurons[0]! % pool.length]!)) === 1;
  // Ranked over powers of one input and products of two inputs (a·b, d·e): a short library, as
  // each denominator's ranking is a selection of its own.
  const power = (c: ProductColumn) =>
    c.neurons.length === 1
      ? powerOf(input.lookup(pool[c.neurons[0]! % pool.length]!)) !== undefined
      : c.neurons.every((n) => powerOf(input.lookup(pool[n % pool.length]!)) === 1);
  const split = input.x.map((c) => strided(c, SCREEN_ROWS));
  const linear = (c: ProductColumn) => c.neurons.every((n) => powerOf(input.lookup(pool[n % pool.length]!)) === 1);
  return yield* noisyRatioSteps(library, strided(input.y, SCREEN_ROWS), reach, most, plain, power, linear, split);
}

/** The ratio screens' library on the screening rows; undefined: no single column. */
function* ratioLibrary(input: LinearInput): Steps<ProductColumn[] | undefined> {
  const cache = input.cache ?? new ScreenCache();
  const x = input.x.map((c) => strided(c, SCREEN_ROWS));
  const { built } = yield* plainLibrary(input, cache, x, CHEAP_FACTORS);
  const singles = built.columns.filter((c) => c.neurons.length === 1);
  if (singles.length === 0) return undefined;
  // Singles and pairs while they stay well under the screening rows (the numerator's span must
  // leave room outside it); else the singles and the products of two inputs (a·b, d·e: the
  // terms of most ratios of four to seven inputs, 4.2·a·b/(c·d + e)), which the full pair
  // library of a wide pool cannot hold (the enumeration is cut, or the span fills the rows).
  return !built.truncated && built.columns.length <= RATIO_COLUMNS
    ? built.columns
    : [...singles, ...inputPairs(singles, input)];
}

/** The products of two distinct inputs, x_i·x_j, from the single columns of the symbol of power 1. */
function inputPairs(singles: readonly ProductColumn[], input: LinearInput): ProductColumn[] {
  const pool = input.pool;
  const linear = singles.filter((c) => powerOf(input.lookup(pool[c.neurons[0]! % pool.length]!)) === 1);
  const inputOf = (c: ProductColumn) => Math.floor(c.neurons[0]! / pool.length);
  const out: ProductColumn[] = [];
  for (let i = 0; i < linear.length; i++)
    for (let j = i + 1; j < linear.length; j++) {
      const [p, q] = [linear[i]!, linear[j]!];
      if (inputOf(p) === inputOf(q)) continue;
      out.push({
        neurons: [p.neurons[0]!, q.neurons[0]!].sort((a, b) => a - b),
        weights: [1, 1],
        complexity: p.complexity + q.complexity,
        values: p.values.map((v, r) => v * q.values[r]!),
      });
    }
  return out;
}

/** The ratio screen's library at most (three inputs' singles and pairs: 168 columns of the built-ins). */
const RATIO_COLUMNS = 200;

/** A pursuit's residual with more than this share of noise (the Gamma test; 1 ± 0.1 for pure noise) ends it. */
const NOISE_SHARE = 0.8;
/** A screen's sum at or below this NRMSE is exact: product pursuit is not needed. */
const PURSUIT_EXACT = 1e-9;
/** The first screen's best sums of each length whose exponents are refined first. */
const PURSUIT_STARTS = 3;

/**
 * The parameters a fit of these products has: a coefficient per product and an inner weight per
 * neuron whose symbol has one that does not fold into the coefficient.
 */
export function parametersOfProducts(
  products: readonly (readonly number[])[],
  pool: readonly string[],
  lookup: (name: string) => SymbolPlugin,
): number {
  return products.reduce(
    (sum, p) =>
      sum +
      1 +
      p.filter((n) => {
        const symbol = lookup(pool[n % pool.length]!);
        return symbol.innerWeight && !symbol.fold;
      }).length,
    0,
  );
}

/** Near-exact screens first (either source), then the two sources alternately, sums first. */
function merge(products: LinearProposal[], sums: LinearProposal[]): LinearProposal[] {
  const exact = (p: LinearProposal) => p.score < 1e-6;
  const out = [...sums.filter(exact), ...products.filter(exact)];
  const rest = [sums.filter((p) => !exact(p)), products.filter((p) => !exact(p))];
  for (let i = 0; i < Math.max(rest[0]!.length, rest[1]!.length); i++)
    for (const list of rest) if (list[i]) out.push(list[i]!);
  return out;
}
