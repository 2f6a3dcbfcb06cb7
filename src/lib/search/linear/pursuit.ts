/**
 * Product pursuit (Speed II): sums of multi-factor products found without building and screening
 * a library of every product. The dictionary is every product of neurons without a weight grid
 * (x, powers, sqrt, log …) on distinct inputs, up to the factors whose count stays under
 * `DICTIONARY_CAP`; its columns are generated on the fly (depth-first, one multiplication per
 * product) at every scan, never stored.
 *
 * The sum grows one term at a time (orthogonal matching pursuit: the column that lowers the
 * residual most joins), and after every growth each term in turn is replaced by the best column
 * of the whole dictionary given the others, until no replacement helps (a swap sweep: what frees
 * greedy growth from an early wrong pick among correlated products). A scan scores every column
 * by the residual drop (a·r)² / ‖a⊥‖², a⊥ its part outside the fixed terms' span, on
 * `SCAN_ROWS` strided rows; the best few are checked on all the screening rows.
 *
 * Sums of many bilinear products of nearly collinear columns (power flow) are better served by
 * backward elimination over the products of up to two factors (backward.ts), which runs first
 * where that library is small.
 *
 * The weighted pursuit (pursueWeightedSteps) adds products with one neuron at an inner weight
 * (sin, cos, exp) from a fine grid, fits each sum's weights continuously (refineWeights), and
 * moves such a neuron into a plain sum's terms (multiply moves).
 *
 * Under noise no sum is exact: a pursuit given `isNoise` stops where its sum's residual is noise
 * and returns that sum ("noise"), without the terms it stays noise without. A term with a weighted
 * neuron is also completed alone over plain products to the noise ("completion"): the rest of a
 * sum grown beside it keeps imitating what plain products give exactly.
 */
import type { NeuronColumn, WeightedNeuron } from "./columns.js";
import { backwardElimination } from "./backward.js";
import { exp, log } from "../../core/index.js";
import { dot, gramSchmidt, solveSpd } from "../../numeric/index.js";
import type { Steps } from "../../core/index.js";

/** Dictionary columns at most (the factors per product are cut where the count would pass it). */
export const DICTIONARY_CAP = 40000;
/** Rows a scan scores on (strided); the best candidates are checked on every row. */
const SCAN_ROWS = 128;
/** Candidates of a scan checked on every row. */
const CHECKED = 6;
/** Swap sweeps at most after each growth. */
const SWEEPS = 4;
/** Terms the pursuit grows to at most (longer sums are backward elimination's). */
const PURSUIT_TERMS = 6;
/** Backward elimination's library at most (it costs O(K³)). */
const BACKWARD_COLUMNS = 120;

export interface PursuitOptions {
  maxTerms: number;
  maxFactors: number;
  /** A constant column beside the terms (the search's additive constant). */
  intercept: boolean;
  /** Stop growing at this NRMSE (an exact sum). */
  exact: number;
  /** Each neuron's power (x^p; undefined for log and other non-powers): enables refinePowers. */
  powers?: readonly (number | undefined)[];
  /** Sums (products of neuron indices) whose exponents refinePowers fits before the pursuit. */
  starts?: readonly (readonly (readonly number[])[])[];
  /**
   * Whether a sum's residual (on every row of y) is noise: the pursuit stops growing there (no
   * exact sum is coming) and says so in `PursuitEnds.noise`.
   */
  isNoise?: (residual: Float64Array) => boolean;
  /** The weighted pursuit only multiplies and refines the starts, growing no sum (default true). */
  grow?: boolean;
}

export interface PursuitResult {
  /** Products as indices into the neuron list given. */
  products: number[][];
  /** The least-squares NRMSE (residual norm over the target's centred norm), on the rows given. */
  nrmse: number;
  /**
   * "noise": the sum at which the pursuit stopped because its residual was noise
   * (PursuitOptions.isNoise), without the terms it stays noise without; not exact.
   * "completion": likewise, a weighted term completed over plain products to the noise.
   */
  source: "pursuit" | "backward" | "noise" | "completion";
}

/** Orthonormal basis of the columns' span (numeric/linalg's Gram–Schmidt) and y's residual outside it. */
function basisOf(columns: readonly Float64Array[], y: Float64Array): { q: Float64Array[]; residual: Float64Array } {
  const basis = gramSchmidt(columns, { dependent: 1e-10 });
  return { q: basis.q, residual: basis.project(Float64Array.from(y)) };
}

/**
 * The residual drop of adding a column: (aᵀr)² over the part of a outside the basis q (orthonormal,
 * r already outside it); undefined where the column lies (numerically) in the basis.
 */
function gainOf(values: Float64Array, q: readonly Float64Array[], residual: Float64Array): number | undefined {
  const aa = dot(values, values);
  const ar = dot(values, residual);
  let inside = 0;
  for (const u of q) {
    const d = dot(u, values);
    inside += d * d;
  }
  const outside = aa - inside;
  return outside > 1e-12 * aa && Number.isFinite(outside) ? (ar * ar) / outside : undefined;
}

const strided = (v: Float64Array, step: number) =>
  Float64Array.from({ length: Math.ceil(v.length / step) }, (_, i) => v[i * step]!);

/** The factors per product at most whose dictionary stays under the cap. */
function dictionaryFactors(inputs: number, perInput: readonly number[], maxFactors: number): number {
  // count[k]: products of exactly k factors on distinct inputs (elementary symmetric sums).
  const count = new Array<number>(maxFactors + 1).fill(0);
  count[0] = 1;
  for (let i = 0; i < inputs; i++)
    for (let k = Math.min(maxFactors, i + 1); k >= 1; k--) count[k]! += count[k - 1]! * perInput[i]!;
  let total = 0;
  for (let k = 1; k <= maxFactors; k++) {
    total += count[k]!;
    if (total > DICTIONARY_CAP) return k - 1;
  }
  return maxFactors;
}

/**
 * Sums found by backward elimination (products of up to two factors, where that library is small)
 * and by pursuit over the dictionary, best first. `neurons` hold columns without a weight grid on
 * the screening rows of `y`.
 */
export function* pursueSteps(
  neurons: readonly NeuronColumn[],
  y: Float64Array,
  options: PursuitOptions,
): Steps<PursuitResult[]> {
  const { ones, scale, valuesOf, nrmseOf } = sumsOf(neurons, y, options.intercept);
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  const byInput = inputs.map((i) => neurons.flatMap((n, k) => (n.input === i ? [k] : [])));
  const results: PursuitResult[] = [];
  /**
   * An exact sum without the terms it is exact without (a term taken before the right ones were
   * found, its coefficient now 0).
   */
  const pruned = (products: readonly (readonly number[])[]) =>
    withoutSpares(products, nrmseOf, (_, e) => e <= options.exact);
  const factors = Math.min(options.maxFactors, inputs.length);

  // Backward elimination over the products of up to two factors.
  const pairs: number[][] = [];
  byInput.forEach((own, a) => {
    for (const n of own) pairs.push([n]);
    if (factors >= 2)
      for (let b = a + 1; b < byInput.length; b++) for (const n of own) for (const m of byInput[b]!) pairs.push([n, m]);
  });
  if (options.maxTerms > 1 && pairs.length <= BACKWARD_COLUMNS) {
    const library = [...(options.intercept ? [[] as number[]] : []), ...pairs];
    const { path } = backwardElimination(
      library.map((p) => (p.length === 0 ? ones : valuesOf(p))),
      library.map((p) => p.reduce((s, n) => s + neurons[n]!.complexity, 0)),
      y,
      options.maxTerms,
    );
    for (const model of path) {
      const products = model.members.map((m) => library[m]!).filter((p) => p.length > 0);
      if (products.length > 0) results.push({ products, nrmse: Math.sqrt(model.rss) / scale, source: "backward" });
    }
    yield;
    if (results.some((r) => r.nrmse <= options.exact)) return results.sort((p, q) => p.nrmse - q.nrmse);
  }

  // The caller's sums (the first screen's best of each length), their exponents refined.
  if (options.powers && options.starts?.length) {
    for (const products of yield* refinePowers(neurons, options.powers, y, options.starts, options.intercept)) {
      if (nrmseOf(products) <= options.exact) {
        results.push({ ...pruned(products), source: "pursuit" });
        return results.sort((p, q) => p.nrmse - q.nrmse);
      }
    }
  }

  // Pursuit over the dictionary.
  const depth = dictionaryFactors(
    byInput.length,
    byInput.map((own) => own.length),
    factors,
  );
  const refine = options.powers
    ? function* (model: number[][]): Steps<number[][] | undefined> {
        const [refined] = yield* refinePowers(neurons, options.powers!, y, [model], options.intercept);
        return refined;
      }
    : undefined;
  const own = {
    neurons: [...neurons],
    firstWeighted: neurons.length,
    weightedEnd: neurons.length,
    completed: new Set<string>(),
  };
  results.push(...(yield* grow({ ...own, plainDepth: depth, weightedDepth: 0 }, y, options, refine)));
  return results.sort((p, q) => p.nrmse - q.nrmse);
}

/**
 * Sums of products of `neurons` as least squares sees them on the rows of y: a product's values
 * (on every `step`-th row), a sum's columns (the constant first when `intercept`) and its NRMSE
 * (residual norm over y's centred norm). `neurons` is read at each call (it may grow).
 */
function sumsOf(neurons: readonly NeuronColumn[], y: Float64Array, intercept: boolean) {
  const rows = y.length;
  const mean = y.reduce((s, v) => s + v, 0) / rows;
  const scale = Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0)) || 1;
  const ones = new Float64Array(rows).fill(1);
  const valuesOf = (product: readonly number[], step = 1): Float64Array => {
    const v = new Float64Array(Math.ceil(rows / step)).fill(1);
    for (const n of product) {
      const column = neurons[n]!.values;
      for (let r = 0; r < v.length; r++) v[r]! *= column[r * step]!;
    }
    return v;
  };
  const fixedColumns = (products: readonly (readonly number[])[], step = 1) => [
    ...(intercept ? [step === 1 ? ones : new Float64Array(Math.ceil(rows / step)).fill(1)] : []),
    ...products.map((p) => valuesOf(p, step)),
  ];
  const nrmseOf = (products: readonly (readonly number[])[]) => {
    const { residual } = basisOf(fixedColumns(products), y);
    return Math.sqrt(dot(residual, residual)) / scale;
  };
  return { ones, scale, valuesOf, fixedColumns, nrmseOf };
}

/** A sum without each term (the last first) whose removal still `holds` (exact, or noise). */
function withoutSpares(
  products: readonly (readonly number[])[],
  nrmseOf: (products: readonly (readonly number[])[]) => number,
  holds: (products: readonly (readonly number[])[], nrmse: number) => boolean,
): { products: number[][]; nrmse: number } {
  let model = products.map((p) => [...p]);
  let nrmse = nrmseOf(model);
  for (let t = model.length - 1; t >= 0 && model.length > 1; t--) {
    const without = model.filter((_, k) => k !== t);
    const e = nrmseOf(without);
    if (holds(without, e)) {
      model = without;
      nrmse = e;
    }
  }
  return { products: model, nrmse };
}

/** Whether weighted neuron k's symbol and input are in the products at another weight (a LoCaL neuron has one). */
function clashesIn(neurons: readonly NeuronColumn[], firstWeighted: number, products: readonly (readonly number[])[]) {
  const held = new Map<number, Set<number>>();
  for (const p of products)
    for (const k of p)
      if (k >= firstWeighted) held.set(neurons[k]!.neuron, (held.get(neurons[k]!.neuron) ?? new Set()).add(k));
  return (k: number) => [...(held.get(neurons[k]!.neuron) ?? [])].some((j) => j !== k);
}

/** How a pursuit's sum ended: exact, or with a residual of noise. */
type Settled = "exact" | "noise";

/** The dictionary of a pursuit: neurons (plain first, then `weighted` ones with an inner weight) and product depths. */
interface Dictionary {
  /** Plain neurons, then the weighted ones from `firstWeighted` to `weightedEnd`; refined ones are appended. */
  neurons: NeuronColumn[];
  firstWeighted: number;
  weightedEnd: number;
  /** Factors per product without a weighted neuron, and with one (a product holds at most one). */
  plainDepth: number;
  weightedDepth: number;
  /** Terms a plain completion has grown from (grow's complete: each once per dictionary). */
  completed: Set<string>;
}

/**
 * Orthogonal matching pursuit with swap sweeps over a dictionary (see the module comment), a
 * length's sum handed to `refine` where it is not exact. Returns each length's sum, and the
 * exact one (pruned) where one was found, or the sum whose residual is noise ("noise", pruned)
 * where the pursuit stopped on noise. Given a `start`, its terms are refined and multiplied first.
 */
function* grow(
  dictionary: Dictionary,
  y: Float64Array,
  options: PursuitOptions,
  refine?: (model: number[][]) => Steps<number[][] | undefined>,
  start: readonly (readonly number[])[] = [],
  pairAfterStart = false,
): Steps<PursuitResult[]> {
  const { neurons, firstWeighted, weightedEnd } = dictionary;
  const weighted = weightedEnd > firstWeighted;
  const { valuesOf, fixedColumns, nrmseOf } = sumsOf(neurons, y, options.intercept);
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  const byInput = inputs.map((i) => neurons.flatMap((n, k) => (n.input === i ? [k] : [])));
  /** Whether a sum is exact, or leaves a residual of noise (options.isNoise), or neither. */
  const settle = (products: readonly (readonly number[])[], e = nrmseOf(products)): Settled | undefined => {
    if (e <= options.exact) return "exact";
    if (options.isNoise?.(basisOf(fixedColumns(products), y).residual)) return "noise";
    return undefined;
  };
  const ended = (products: readonly (readonly number[])[], kind: Settled): PursuitResult => ({
    ...pruned(products, kind),
    source: kind === "exact" ? "pursuit" : "noise",
  });
  /**
   * An exact sum without the terms it is exact without, and with each weighted factor that a
   * refined weight made degenerate (cos(10⁻⁶·x) standing in for 1, sin(10⁻⁶·x) for x) replaced
   * by nothing or by a plain neuron of its input where the sum stays exact; a noise sum (kind
   * "noise") likewise where its residual stays noise.
   */
  const pruned = (products: readonly (readonly number[])[], kind: Settled = "exact") => {
    // A noise sum keeps what its residual needs to stay noise; an exact sum, what it needs to stay exact.
    const holds = (trial: readonly (readonly number[])[], e: number) =>
      kind === "exact" ? e <= options.exact : settle(trial, e) !== undefined;
    let { products: model, nrmse } = withoutSpares(products, nrmseOf, holds);
    for (const [t, product] of model.entries())
      for (const k of product.filter((k) => k >= firstWeighted)) {
        const rest = product.filter((j) => j !== k);
        const plainOfInput = neurons.flatMap((n, j) => (j < firstWeighted && n.input === neurons[k]!.input ? [j] : []));
        for (const replaced of [rest, ...plainOfInput.map((j) => [...rest, j])]) {
          if (replaced.length === 0) continue;
          const trial = model.map((p, u) => (u === t ? replaced : p));
          const e = nrmseOf(trial);
          if (holds(trial, e)) {
            model = trial;
            nrmse = e;
            break;
          }
        }
      }
    return { products: model, nrmse };
  };
  const results: PursuitResult[] = [];
  const step = Math.max(1, Math.floor(y.length / SCAN_ROWS));
  const yScan = strided(y, step);
  const scanNeurons = neurons.map((n) => strided(n.values, step));
  const { plainDepth, weightedDepth } = dictionary;
  const depth = Math.max(plainDepth, weightedDepth);
  const keyOf = (p: readonly number[]) => [...p].sort((a, b) => a - b).join(".");
  const skeletonOf = (p: readonly number[]) =>
    p
      .map((k) => neurons[k]!.neuron)
      .sort((a, b) => a - b)
      .join(".");
  const clashes = (products: readonly (readonly number[])[]) => clashesIn(neurons, firstWeighted, products);

  /**
   * The best columns of the dictionary given `fixed` products, by the residual drop on the scan
   * rows; `extra` products (deeper than the dictionary goes) compete beside them, or alone
   * (`walk` false).
   */
  function* scan(
    fixed: readonly (readonly number[])[],
    count = CHECKED,
    extra: readonly number[][] = [],
    walk = true,
  ): Steps<number[][]> {
    const { q, residual } = basisOf(fixedColumns(fixed, step), yScan);
    const taken = new Set(fixed.map(keyOf));
    const top: { product: number[]; gain: number; skeleton: string }[] = [];
    const n = yScan.length;
    // One buffer per depth: the product's values are built in place, depth-first.
    const buffers = Array.from({ length: depth + 1 }, () => new Float64Array(n));
    buffers[0]!.fill(1);
    const product: number[] = [];
    /** Scores the product held in `product` (its scan-row values in `values`) against the top. */
    const consider = (values: Float64Array): void => {
      const gain = gainOf(values, q, residual);
      if (gain !== undefined) {
        if ((top.length < count || gain > top[top.length - 1]!.gain) && !taken.has(keyOf(product))) {
          // One candidate per skeleton (the same neurons at other weights): the best few differ.
          const skeleton = skeletonOf(product);
          const same = top.findIndex((t) => t.skeleton === skeleton);
          if (same < 0 || top[same]!.gain < gain) {
            if (same >= 0) top.splice(same, 1);
            top.push({ product: [...product], gain, skeleton });
            top.sort((p, s) => s.gain - p.gain);
            if (top.length > count) top.pop();
          }
        }
      }
    };
    const visit = (from: number, level: number, hasWeighted: boolean): void => {
      const values = buffers[level]!;
      if (level > 0) consider(values);
      if (level >= (hasWeighted ? weightedDepth : plainDepth)) return;
      const next = buffers[level + 1]!;
      for (let b = from; b < byInput.length; b++)
        for (const k of byInput[b]!) {
          const weighted = k >= firstWeighted;
          if (weighted && (hasWeighted || level + 1 > weightedDepth)) continue;
          if (!weighted && !hasWeighted && level + 1 > plainDepth) continue;
          const column = scanNeurons[k]!;
          for (let r = 0; r < n; r++) next[r] = values[r]! * column[r]!;
          product.push(k);
          visit(b + 1, level + 1, hasWeighted || weighted);
          product.pop();
        }
    };
    // A yield per first factor (the event loop waits at most one subtree).
    const first = buffers[1]!;
    for (let b = 0; b < (walk ? byInput.length : 0); b++)
      for (const k of byInput[b]!) {
        const weighted = k >= firstWeighted;
        if (weighted ? weightedDepth < 1 : plainDepth < 1) continue;
        const column = scanNeurons[k]!;
        for (let r = 0; r < n; r++) first[r] = column[r]!;
        product.push(k);
        visit(b + 1, 1, weighted);
        product.pop();
        yield;
      }
    for (const p of extra) {
      product.splice(0, product.length, ...p);
      consider(valuesOf(p, step));
    }
    return top.map((t) => t.product);
  }
  /**
   * A term times one more plain neuron of an input it lacks: products deeper than the dictionary
   * (with a weighted neuron it holds two factors at most beside it), grown from the residual:
   * √I1·√I2·cos δ from √I2·cos δ.
   */
  const deepened = (term: readonly number[]): number[][] => {
    // A term shallower than the dictionary has its deeper products in it already.
    const inDictionary = term.some((k) => k >= firstWeighted) ? weightedDepth : plainDepth;
    if (term.length >= options.maxFactors || term.length < inDictionary) return [];
    const held = new Set(term.map((k) => neurons[k]!.input));
    return byInput.flatMap((ks, b) =>
      held.has(inputs[b]!) ? [] : ks.filter((k) => k < firstWeighted).map((k) => [...term, k]),
    );
  };
  /** The best of a scan's candidates for slot `t` (or a new term), checked on every row. */
  function* bestFor(model: number[][], t: number): Steps<{ products: number[][]; nrmse: number } | undefined> {
    const others = model.filter((_, k) => k !== t);
    let best: { products: number[][]; nrmse: number } | undefined;
    for (const candidate of yield* scan(others, CHECKED, t < model.length ? deepened(model[t]!) : [])) {
      const products = t < model.length ? model.map((p, k) => (k === t ? candidate : p)) : [...model, candidate];
      const nrmse = nrmseOf(products);
      if (!best || nrmse < best.nrmse) best = { products, nrmse };
    }
    return best;
  }
  /**
   * Multiply moves: a term times a weighted neuron (in place of its plain factor on that input,
   * if any), the best few by the residual drop given the other terms, each checked with its
   * weights refined; one that makes the sum exact is taken (the others leave the sum as it was).
   * Reaches q·B·v·sin(θ) from q·B·v, deeper than the dictionary goes.
   */
  function* multiply(): Steps<void> {
    multiplied.length = 0;
    for (let t = 0; t < model.length && error > options.exact; t++) {
      const term = model[t]!;
      if (term.some((k) => k >= firstWeighted)) continue;
      const others = model.filter((_, u) => u !== t);
      const { q, residual } = basisOf(fixedColumns(others, step), yScan);
      const clash = clashes(others);
      const top: { product: number[]; gain: number }[] = [];
      for (let k = firstWeighted; k < weightedEnd; k++) {
        if (clash(k)) continue;
        const product = [...term.filter((j) => neurons[j]!.input !== neurons[k]!.input), k];
        const gain = gainOf(valuesOf(product, step), q, residual);
        if (gain === undefined) continue;
        top.push({ product, gain });
        top.sort((a, b) => b.gain - a.gain);
        if (top.length > MULTIPLIED) top.pop();
      }
      yield;
      for (const { product } of top) {
        const trial = model.map((p, u) => (u === t ? product : p));
        const refined = nrmseOf(trial) <= options.exact ? trial : refine ? yield* refine(trial) : undefined;
        if (!refined) continue;
        const e = nrmseOf(refined);
        if (options.isNoise) multiplied.push({ term: refined[t]!, nrmse: e });
        if (e <= options.exact) {
          model = refined;
          error = e;
          settled = "exact";
          return;
        }
        // Under noise: a move that fits no worse and lets the sum shed parameters at the noise
        // (a coefficient per term, and the weight: cos(1.46·x) for x⁴ beside x, x², x³ sheds none).
        if (options.isNoise && e <= error && settle(refined, e) === "noise") {
          const shorter = pruned(refined, "noise");
          if (parametersOf(shorter.products) < parametersOf(model)) {
            model = shorter.products;
            error = shorter.nrmse;
            settled = "noise";
            return;
          }
        }
      }
    }
  }
  /**
   * The first terms a pair starts from: the first scan's best (distinct neurons) and, with weighted
   * neurons, every plain neuron alone (x3 of 0.77·e^(−3.36·x1)·x2 − 0.95·x3 explains little alone).
   */
  function* firstTerms(): Steps<number[][]> {
    const best = yield* scan(start, PAIRED);
    if (!weighted && start.length === 0) return best;
    const keys = new Set(best.map(keyOf));
    const singles = byInput.flat().filter((k) => k < firstWeighted && !keys.has(String(k)));
    return [...best, ...singles.map((k) => [k])];
  }
  /**
   * Each term holding a weighted neuron kept alone and the rest grown over the plain dictionary:
   * the plain terms of I1 + I2 + 2·√I1·√I2·cos δ explain less alone than a weighted imitator of
   * their sum (√I1·e^(0.18·I2)), which the weighted pursuit takes first. The term is also tried
   * with its weighted neuron swapped for the best few others of that input, by what each explains
   * of y beyond the plain single neurons (sin(1.48·δ) stood in for cos δ). Returns an exact sum,
   * or under noise (options.isNoise) one whose residual is noise.
   */
  function* complete(): Steps<PursuitResult | undefined> {
    const singles = byInput.flat().flatMap((j) => (j < firstWeighted ? [[j]] : []));
    for (const term of model) {
      const k = term.find((j) => j >= firstWeighted);
      if (k === undefined) continue;
      const rest = term.filter((j) => j !== k);
      const same = byInput[inputs.indexOf(neurons[k]!.input)]!;
      const swapped = same.filter((j) => j >= firstWeighted && j < weightedEnd).map((j) => [...rest, j]);
      for (const candidate of [term, ...(yield* scan(singles, SWAPPED, swapped, false))]) {
        const ended = yield* completeFrom(candidate, options.isNoise !== undefined);
        if (ended) return ended;
      }
    }
    return undefined;
  }
  /**
   * One term kept alone and the rest grown over the plain dictionary (once per term and
   * dictionary): an exact end, or with `noise` one whose residual is noise and whose plain terms
   * hold no input of the term's weighted neurons (at the noise, e^(0.09·x) beside x, x², x³
   * imitates x⁴: a weighted neuron and plain powers of its input stand in for each other).
   */
  function* completeFrom(term: readonly number[], noise: boolean): Steps<PursuitResult | undefined> {
    if (kept.has(keyOf(term))) return undefined;
    kept.add(keyOf(term));
    const plainOnly = { ...dictionary, weightedEnd: firstWeighted, weightedDepth: 0 };
    const isNoise = noise ? options.isNoise : undefined;
    const ends = yield* grow(plainOnly, y, { ...options, maxTerms: WEIGHTED_TERMS, isNoise }, refine, [term], true);
    const apart = (end: PursuitResult) => {
      const held = new Set(end.products.flat().flatMap((k) => (k >= firstWeighted ? [neurons[k]!.input] : [])));
      return end.products.every(
        (p) => p.some((k) => k >= firstWeighted) || p.every((k) => !held.has(neurons[k]!.input)),
      );
    };
    return ends.find((end) => end.nrmse <= options.exact || (noise && end.source === "noise" && apart(end)));
  }
  /**
   * Under noise, a start's best multiplied terms (by their refined sum's NRMSE) each completed to
   * the noise over plain products: the rest of a start grown on Taylor terms of cos δ keeps
   * imitating I1 + I2 beside √I1·√I2·cos δ (I1²/I2 + I2²/I1), the term alone is completed by them.
   */
  function* completeMultiplied(): Steps<PursuitResult | undefined> {
    const best = [...multiplied].sort((p, q) => p.nrmse - q.nrmse);
    const tried = new Set<string>();
    for (const { term } of best) {
      if (tried.has(keyOf(term)) || tried.size >= COMPLETED_UNDER_NOISE) continue;
      tried.add(keyOf(term));
      const ended = yield* completeFrom(term, true);
      if (ended) return ended;
    }
    return undefined;
  }
  const kept = dictionary.completed;
  /** Under noise, the terms the last multiply moves tried, with their refined sum's NRMSE. */
  const multiplied: { term: number[]; nrmse: number }[] = [];
  let model: number[][] = start.map((p) => [...p]);
  let error = model.length > 0 ? nrmseOf(model) : 1;
  const parametersOf = (products: readonly (readonly number[])[]) =>
    products.reduce((n, p) => n + 1 + p.filter((k) => k >= firstWeighted).length, 0);
  /** Set by a multiply move that made the sum exact or its residual noise. */
  let settled: Settled | undefined;
  // A start: its terms multiplied by weighted neurons and refined before anything is grown.
  if (model.length > 0 && weighted) {
    const refined = refine ? yield* refine(model) : undefined;
    if (refined && nrmseOf(refined) <= options.exact) return [ended(refined, "exact")];
    yield* multiply();
    if (settled === "exact") return [ended(model, settled)];
    // Under noise a multiplied term completed alone may need fewer parameters than the start kept
    // beside it (q·B·v·sin θ + q·Ef, where the start's pruned sum kept q·B·v and q·B·v·θ³ too).
    const completed = options.isNoise ? yield* completeMultiplied() : undefined;
    if (completed && (!settled || parametersOf(completed.products) < parametersOf(model)))
      return [ended(completed.products, completed.nrmse <= options.exact ? "exact" : "noise")];
    if (settled) return [ended(model, settled)];
  }
  for (let terms = model.length + 1; terms <= Math.min(options.maxTerms, PURSUIT_TERMS); terms++) {
    let grown = yield* bestFor(model, model.length);
    // The second term of a sum from nothing: the best pair over the first scan's best few terms
    // (a first pick that explains most alone, sin(1.25·x1)·x3, is often in no exact pair); with
    // weighted neurons each pair's weights are refined, and an exact pair ends the pursuit.
    if (grown && terms === start.length + 2 && (start.length === 0 || pairAfterStart))
      for (const first of yield* firstTerms()) {
        const paired = yield* bestFor([...start.map((p) => [...p]), first], start.length + 1);
        if (!paired) continue;
        const refined = weighted && refine ? yield* refine(paired.products) : undefined;
        if (refined && nrmseOf(refined) <= options.exact) {
          results.push({ ...pruned(refined), source: "pursuit" });
          return results;
        }
        if (paired.nrmse < grown.nrmse) grown = paired;
      }
    if (!grown) break;
    model = grown.products;
    error = grown.nrmse;
    for (let sweep = 0; sweep < SWEEPS && error > options.exact; sweep++) {
      let changed = false;
      for (let t = 0; t < model.length && error > options.exact; t++) {
        const swapped = yield* bestFor(model, t);
        if (swapped && swapped.nrmse < error * (1 - 1e-6)) {
          model = swapped.products;
          error = swapped.nrmse;
          changed = true;
        }
      }
      if (!changed) break;
    }
    if (weighted) yield* multiply();
    if (error <= options.exact) {
      results.push(ended(model, "exact"));
      break;
    }
    if (settled) {
      results.push(ended(model, settled));
      break;
    }
    const completed = weighted ? yield* complete() : undefined;
    if (completed) {
      const exact = completed.nrmse <= options.exact;
      results.push(
        exact ? ended(completed.products, "exact") : { ...ended(completed.products, "noise"), source: "completion" },
      );
      break;
    }
    results.push({ products: model.map((p) => [...p]), nrmse: error, source: "pursuit" });
    // Not exact: this length's sum refined (its exponents, its inner weights) before a longer one.
    const refined = refine ? yield* refine(model) : undefined;
    if (refined && nrmseOf(refined) <= options.exact) {
      results.push(ended(refined, "exact"));
      break;
    }
    // What is left is noise: no longer sum will be exact; the sum is a noise-level answer.
    const last = refined && nrmseOf(refined) < error ? refined : model;
    if (options.isNoise?.(basisOf(fixedColumns(last), y).residual)) {
      results.push(ended(last, "noise"));
      break;
    }
  }
  return results.sort((p, q) => p.nrmse - q.nrmse);
}

/** Weighted dictionary columns at most (the factors beside the weighted neuron are cut to stay under it). */
export const WEIGHTED_CAP = 12000;
/** Terms the weighted pursuit grows to at most. */
const WEIGHTED_TERMS = 4;
/** Rows refineWeights fits on (strided). */
const REFINE_ROWS = 128;
/** First terms (distinct skeletons) each paired with its best second term, for a sum grown from nothing. */
const PAIRED = 10;
/** Weighted neurons a completed term is also tried with (complete in grow). */
const SWAPPED = 1;
/** Multiply moves refined per term (the best by the residual drop). */
const MULTIPLIED = 3;
/** Multiplied terms completed to the noise over plain products from a start under noise (completeMultiplied). */
const COMPLETED_UNDER_NOISE = 2;
/** Levenberg–Marquardt iterations of refineWeights. */
const WEIGHT_ITERATIONS = 40;

export interface WeightedResult {
  /** Products as neuron columns (plain ones, and weighted ones at their refined weights). */
  products: NeuronColumn[][];
  nrmse: number;
}

/**
 * Products with at most one neuron at an inner weight (sin(w·x), exp(w·x) …) among the plain ones:
 * the weighted neurons come from a fine grid of weights (columns.ts fineWeightColumns), the pursuit
 * grows sums over the dictionary, and each length's sum has its inner weights refined by
 * Levenberg–Marquardt (refineWeights): a weight off every grid (sin(2.52·x)) is reached from the
 * nearest fine-grid one. Returns exact sums, and under noise (`isNoise`) a start whose terms a
 * weighted neuron let shed parameters at the noise, or whose multiplied term plain products
 * complete to the noise; a sum grown to the noise over the weighted dictionary is not returned
 * (sin and cos of small weights imitate powers there), one weighted term completed over plain
 * products to the noise is. `grow: false` only works on the starts.
 */
export function* pursueWeightedSteps(
  plain: readonly NeuronColumn[],
  weighted: readonly WeightedNeuron[],
  y: Float64Array,
  options: PursuitOptions,
): Steps<WeightedResult[]> {
  if (weighted.length === 0 || options.maxTerms < 1) return [];
  const neurons: NeuronColumn[] = [...plain, ...weighted];
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  const plainCounts = inputs.map((i) => plain.filter((n) => n.input === i).length);
  const weightedCounts = inputs.map((i) => weighted.filter((n) => n.input === i).length);
  const factors = Math.min(options.maxFactors, inputs.length);
  const plainDepth = dictionaryFactors(inputs.length, plainCounts, factors);
  // Products with exactly one weighted neuron, by factors (a two-state elementary symmetric sum).
  const none = new Array<number>(factors + 1).fill(0);
  const one = new Array<number>(factors + 1).fill(0);
  none[0] = 1;
  for (const [i] of inputs.entries())
    for (let k = factors; k >= 1; k--) {
      one[k]! += one[k - 1]! * plainCounts[i]! + none[k - 1]! * weightedCounts[i]!;
      none[k]! += none[k - 1]! * plainCounts[i]!;
    }
  let weightedDepth = 0;
  let total = 0;
  for (let k = 1; k <= factors; k++) {
    total += one[k]!;
    if (total > WEIGHTED_CAP) break;
    weightedDepth = k;
  }
  if (weightedDepth === 0) return [];
  const refine = function* (model: number[][]): Steps<number[][] | undefined> {
    yield;
    return refineWeights(neurons, plain.length, model, y, options.intercept);
  };
  const dictionary = {
    neurons,
    firstWeighted: plain.length,
    weightedEnd: neurons.length,
    plainDepth: Math.min(plainDepth, Math.max(weightedDepth, 2)),
    weightedDepth,
    completed: new Set<string>(),
  };
  // From nothing, then from the caller's plain sums (the terms the plain pursuit was sure of).
  const ends: PursuitResult[] = [];
  const starts = options.starts ?? [];
  // An answer holds each neuron at one weight (a LoCaL neuron has one); the pursuit on its way
  // may hold it at several (exp(−1.25·x1)·x3 beside exp(−3·x1)·x2), which refining and pruning resolve.
  const valid = (end: PursuitResult) =>
    (end.nrmse <= options.exact || end.source === "noise" || end.source === "completion") &&
    end.products.some((p) => p.some((k) => k >= plain.length)) &&
    end.products.every((p) => p.every((k) => !clashesIn(neurons, plain.length, end.products)(k)));
  const found = () => ends.some(valid);
  // Each plain sum with weighted neurons multiplied into its terms (no growth), then sums grown
  // from nothing and from the shortest plain sum.
  for (const start of starts) {
    if (found()) break;
    ends.push(...(yield* grow(dictionary, y, { ...options, maxTerms: start.length }, refine, start)));
  }
  // A grown sum is proposed only where exact: grown over the weighted dictionary to the noise,
  // sin and cos of small weights imitate powers (cos(1.46·x) for x⁴) as well as the truth fits.
  const grown = { ...options, maxTerms: Math.min(options.maxTerms, WEIGHTED_TERMS) };
  for (const start of options.grow === false ? [] : [[], ...starts.slice(0, 1)]) {
    if (found()) break;
    ends.push(...(yield* grow(dictionary, y, grown, refine, start)).filter((end) => end.source !== "noise"));
  }
  return ends
    .filter(valid)
    .map((end) => ({ products: end.products.map((p) => p.map((k) => neurons[k]!)), nrmse: end.nrmse }));
}

/**
 * The inner weights of a sum's weighted neurons fitted by Levenberg–Marquardt (variable projection:
 * the coefficients are each step's least squares; a forward-difference Jacobian). The refined
 * neurons are appended to `neurons`; returns the sum with them, or undefined when no weight moved.
 */
function refineWeights(
  neurons: NeuronColumn[],
  firstWeighted: number,
  model: readonly (readonly number[])[],
  y: Float64Array,
  intercept: boolean,
): number[][] | undefined {
  // One weight per weighted neuron, shared by the terms that hold it (a LoCaL neuron has one).
  const slots: { k: number; uses: { term: number; at: number }[]; neuron: WeightedNeuron }[] = [];
  model.forEach((product, term) => {
    product.forEach((k, at) => {
      if (k < firstWeighted) return;
      const slot = slots.find((s) => s.k === k);
      if (slot) slot.uses.push({ term, at });
      else slots.push({ k, uses: [{ term, at }], neuron: neurons[k] as WeightedNeuron });
    });
  });
  if (slots.length === 0) return undefined;
  // Fitted on strided rows (an exact sum is exact on them too; the caller checks every row).
  const step = Math.max(1, Math.floor(y.length / REFINE_ROWS));
  const target = strided(y, step);
  const rows = target.length;
  const ones = new Float64Array(rows).fill(1);
  const plainPart = model.map((product) => {
    const v = new Float64Array(rows).fill(1);
    for (const k of product)
      if (k < firstWeighted) for (let r = 0; r < rows; r++) v[r]! *= neurons[k]!.values[r * step]!;
    return v;
  });
  const xs = slots.map((slot) => strided(slot.neuron.x, step));
  const columnOf = (j: number, w: number, x: Float64Array = xs[j]!): Float64Array =>
    Float64Array.from(x, (v) => slots[j]!.neuron.evaluate(w * v));
  const residualOf = (weights: readonly number[]): Float64Array | undefined => {
    const columns = plainPart.map((v) => Float64Array.from(v));
    for (const [j, slot] of slots.entries()) {
      const f = columnOf(j, weights[j]!);
      for (const { term } of slot.uses) {
        const c = columns[term]!;
        for (let r = 0; r < rows; r++) c[r]! *= f[r]!;
      }
    }
    if (!columns.every((c) => c.every(Number.isFinite))) return undefined;
    return basisOf(intercept ? [ones, ...columns] : columns, target).residual;
  };
  let weights = slots.map((s) => s.neuron.weight);
  let residual = residualOf(weights);
  if (!residual) return undefined;
  let loss = dot(residual, residual);
  let lambda = 1e-3;
  const P = slots.length;
  for (let iteration = 0; iteration < WEIGHT_ITERATIONS; iteration++) {
    const J: Float64Array[] = [];
    for (let j = 0; j < P; j++) {
      const h = 1e-7 * Math.max(1, Math.abs(weights[j]!));
      const moved = residualOf(weights.map((w, i) => (i === j ? w + h : w)));
      if (!moved) return undefined;
      J.push(Float64Array.from(moved, (v, r) => (v - residual![r]!) / h));
    }
    const JJ = new Float64Array(P * P);
    const Jr = new Float64Array(P);
    for (let a = 0; a < P; a++) {
      Jr[a] = -dot(J[a]!, residual);
      for (let b = 0; b < P; b++) JJ[a * P + b] = dot(J[a]!, J[b]!);
    }
    let improved = false;
    for (let attempt = 0; attempt < 8 && !improved; attempt++) {
      const A = Float64Array.from(JJ);
      for (let a = 0; a < P; a++) A[a * P + a]! += lambda * (JJ[a * P + a]! || 1);
      const delta = solveSpd(A, Jr);
      if (delta) {
        const next = weights.map((w, j) => w + delta[j]!);
        const moved = residualOf(next);
        const nextLoss = moved ? dot(moved, moved) : Number.POSITIVE_INFINITY;
        if (nextLoss < loss) {
          const gain = (loss - nextLoss) / (loss || 1);
          weights = next;
          residual = moved!;
          loss = nextLoss;
          lambda = Math.max(lambda / 3, 1e-12);
          improved = true;
          if (gain < 1e-12) iteration = WEIGHT_ITERATIONS;
          continue;
        }
      }
      lambda *= 4;
    }
    if (!improved || loss <= 1e-30 * rows) break;
  }
  const out = model.map((p) => [...p]);
  for (const [j, slot] of slots.entries()) {
    const values = columnOf(j, weights[j]!, slot.neuron.x);
    neurons.push({ ...slot.neuron, weight: weights[j]!, values });
    for (const { term, at } of slot.uses) out[term]![at] = neurons.length - 1;
  }
  return out;
}

/** Levenberg–Marquardt iterations per start of refinePowers. */
const POWER_ITERATIONS = 60;
/** Rows refinePowers fits on (strided). */
const POWER_ROWS = 128;
/** How far a fitted exponent may lie from the power it is rounded to. */
const ROUNDING = 0.2;

/**
 * Sums of products of powers with their exponents made continuous: y ≈ c0 + Σ_k c_k·Π_i |x_i|^p_ki
 * fitted by Levenberg–Marquardt from each start's exponents (inputs of one sign only), then every
 * exponent rounded to one the pool writes on that input (a power symbol, or two of them). A wrong
 * pick among correlated products (a·b·c for a²·b·c) moves along a continuous exponent to the
 * right one, which the discrete moves of the pursuit cannot do for several terms at once.
 * Returns the rounded sums (products of neuron indices), in the order of the starts.
 */
function* refinePowers(
  neurons: readonly NeuronColumn[],
  powers: readonly (number | undefined)[],
  y: Float64Array,
  starts: readonly (readonly (readonly number[])[])[],
  intercept: boolean,
): Steps<number[][][]> {
  const step = Math.max(1, Math.floor(y.length / POWER_ROWS));
  const target = strided(y, step);
  const inputs = [...new Set(neurons.map((n) => n.input))].sort((a, b) => a - b);
  // log|x_i| from a neuron of power 1 (or any power p: log|x^p| / p), null where x changes sign or is 0.
  const logs = inputs.map((input) => {
    const k = neurons.findIndex((n, j) => n.input === input && powers[j] !== undefined && powers[j] !== 0);
    if (k < 0) return null;
    const values = strided(neurons[k]!.values, step);
    const sign = Math.sign(values[0]!);
    if (!(sign !== 0) || values.some((v) => Math.sign(v) !== sign)) return null;
    return Float64Array.from(values, (v) => log(Math.abs(v)) / powers[k]!);
  });
  // Exponent → neurons writing it, per input: one power symbol, or two (x³·x for x⁴).
  const writings = inputs.map((input) => {
    const own = neurons.flatMap((n, j) => (n.input === input && powers[j] !== undefined ? [j] : []));
    const out = new Map<number, number[]>([[0, []]]);
    const put = (p: number, js: number[]) => {
      const key = Math.round(p * 1e6) / 1e6;
      if (!out.has(key)) out.set(key, js);
    };
    for (const j of own) put(powers[j]!, [j]);
    for (const j of own) for (const k of own) if (j < k) put(powers[j]! + powers[k]!, [j, k]);
    return out;
  });
  const usable = inputs.map((_, i) => logs[i] !== null);
  const out: number[][][] = [];
  for (const start of starts) {
    // The start's exponent matrix (terms × inputs); a non-power factor or a sign-changing input ends it.
    const P: number[][] = [];
    let valid = true;
    for (const product of start) {
      const row = inputs.map(() => 0);
      for (const n of product) {
        const i = inputs.indexOf(neurons[n]!.input);
        if (powers[n] === undefined || !usable[i]) valid = false;
        else row[i]! += powers[n]!;
      }
      P.push(row);
    }
    if (!valid || P.length === 0) continue;
    const fitted = levenbergPowers(P, logs, usable, target, intercept);
    yield;
    if (!fitted) continue;
    // A term whose exponents do not round (two near-copies cancelling, a term fitted to nothing)
    // is left out: the exactness check of the rest decides.
    const products: number[][] = [];
    for (const row of fitted) {
      const product: number[] = [];
      let rounds = true;
      for (const [i, p] of row.entries()) {
        let near: number | undefined;
        for (const e of writings[i]!.keys()) if (near === undefined || Math.abs(e - p) < Math.abs(near - p)) near = e;
        if (near === undefined || Math.abs(near - p) > ROUNDING) {
          rounds = false;
          break;
        }
        product.push(...writings[i]!.get(near)!);
      }
      if (!rounds) continue;
      const key = [...product].sort((a, b) => a - b).join(".");
      if (product.length > 0 && !products.some((q) => [...q].sort((a, b) => a - b).join(".") === key))
        products.push(product);
    }
    if (products.length > 0) out.push(products);
  }
  return out;
}

/**
 * Levenberg–Marquardt on c0, c_k and the exponents P (terms × inputs) of
 * c0 + Σ_k c_k·exp(Σ_i P_ki·L_i); the coefficients start at their least-squares values for the
 * start's exponents. Returns the fitted exponents, or null when the fit fails (overflow, no step).
 */
function levenbergPowers(
  start: readonly (readonly number[])[],
  logs: readonly (Float64Array | null)[],
  usable: readonly boolean[],
  y: Float64Array,
  intercept: boolean,
): number[][] | null {
  const rows = y.length;
  const T = start.length;
  const free = usable.flatMap((u, i) => (u ? [i] : []));
  const c0 = intercept ? 1 : 0;
  const np = c0 + T + T * free.length;
  const theta = new Float64Array(np);
  for (const [k, row] of start.entries())
    for (const [f, i] of free.entries()) theta[c0 + T + k * free.length + f] = row[i]!;
  const F = free.length;
  const L = free.map((i) => logs[i]!);
  const terms = (t: Float64Array): Float64Array[] | null => {
    const m: Float64Array[] = [];
    for (let k = 0; k < T; k++) {
      const v = new Float64Array(rows);
      const at = c0 + T + k * F;
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let f = 0; f < F; f++) s += t[at + f]! * L[f]![r]!;
        if (Math.abs(s) > 60) return null;
        v[r] = exp(s);
      }
      m.push(v);
    }
    return m;
  };
  const residualOf = (t: Float64Array, m: Float64Array[]) => {
    const e = new Float64Array(rows);
    for (let r = 0; r < rows; r++) {
      let s = intercept ? t[0]! : 0;
      for (let k = 0; k < T; k++) s += t[c0 + k]! * m[k]![r]!;
      e[r] = y[r]! - s;
    }
    return e;
  };
  const sse = (e: Float64Array) => e.reduce((s, v) => s + v * v, 0);
  // Coefficients at their least squares for the start's exponents.
  let m = terms(theta);
  if (!m) return null;
  {
    const A = new Float64Array(np * 0 + (c0 + T) * (c0 + T));
    const b = new Float64Array(c0 + T);
    const col = (j: number, r: number) => (j < c0 ? 1 : m![j - c0]![r]!);
    for (let a = 0; a < c0 + T; a++) {
      for (let r = 0; r < rows; r++) b[a]! += col(a, r) * y[r]!;
      for (let d = 0; d < c0 + T; d++) for (let r = 0; r < rows; r++) A[a * (c0 + T) + d]! += col(a, r) * col(d, r);
      A[a * (c0 + T) + a]! *= 1 + 1e-12;
    }
    const c = solveSpd(A, b);
    if (!c) return null;
    theta.set(c);
  }
  let e = residualOf(theta, m);
  let loss = sse(e);
  let lambda = 1e-3;
  const J = new Float64Array(rows * np);
  for (let iteration = 0; iteration < POWER_ITERATIONS; iteration++) {
    for (let r = 0; r < rows; r++) {
      const at = r * np;
      if (intercept) J[at] = 1;
      for (let k = 0; k < T; k++) {
        const mk = m[k]![r]!;
        J[at + c0 + k] = mk;
        const ck = theta[c0 + k]! * mk;
        const base = at + c0 + T + k * F;
        for (let f = 0; f < F; f++) J[base + f] = ck * L[f]![r]!;
      }
    }
    const JJ = new Float64Array(np * np);
    const Je = new Float64Array(np);
    for (let r = 0; r < rows; r++) {
      const at = r * np;
      for (let a = 0; a < np; a++) {
        const ja = J[at + a]!;
        if (ja === 0) continue;
        Je[a]! += ja * e[r]!;
        for (let d = a; d < np; d++) JJ[a * np + d]! += ja * J[at + d]!;
      }
    }
    for (let a = 0; a < np; a++) for (let d = 0; d < a; d++) JJ[a * np + d] = JJ[d * np + a]!;
    let improved = false;
    for (let attempt = 0; attempt < 8 && !improved; attempt++) {
      const A = Float64Array.from(JJ);
      for (let a = 0; a < np; a++) A[a * np + a]! += lambda * (JJ[a * np + a]! || 1);
      const delta = solveSpd(A, Je);
      if (delta) {
        const next = Float64Array.from(theta, (v, j) => v + delta[j]!);
        const mNext = terms(next);
        if (mNext) {
          const eNext = residualOf(next, mNext);
          const lossNext = sse(eNext);
          if (lossNext < loss) {
            theta.set(next);
            m = mNext;
            e = eNext;
            const gain = (loss - lossNext) / (loss || 1);
            loss = lossNext;
            lambda = Math.max(lambda / 3, 1e-9);
            improved = true;
            if (gain < 1e-10) iteration = POWER_ITERATIONS;
            continue;
          }
        }
      }
      lambda *= 4;
    }
    if (!improved || loss <= 1e-28 * rows) break;
  }
  return start.map((row, k) => row.map((p, i) => (usable[i] ? theta[c0 + T + k * free.length + free.indexOf(i)]! : p)));
}
