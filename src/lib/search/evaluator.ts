/**
 * Fitting and scoring one proposed structure, cached by its canonical key so that a structure
 * the search proposes again costs nothing (docs/design.md#greedy-repeats).
 */
import type { Dataset } from "../data/index.js";
import { columnOf } from "../data/index.js";
import { equationsOfLocal } from "../local/index.js";
import { evaluateEquation, evaluateTerm, monomialCost, outerOf } from "../equation/index.js";
import { foldNearDegenerate, refitCoefficients } from "../equation/index.js";
import { simplifyEquation, type FoldOptions, type SimplifyOptions } from "../equation/index.js";
import type { Equation, Term } from "../equation/index.js";
import { fitLocalSteps, type FitOptions } from "../local/index.js";
import { runSteps, type Steps } from "../core/index.js";
import { structureKey, withConstant, type LocalStructure } from "../local/index.js";
import type { Product, Registry, RewardFit, RewardPlugin, SymbolPlugin } from "../plugins/index.js";
import { InputError } from "../core/index.js";
import { leaveOneOutNrmse, tangentColumns } from "../metrics/index.js";
import { nrmse as nrmseOf } from "../numeric/index.js";

/** An NRMSE gain below this (the hall of fame's floor for fits at machine precision) is no gain. */
const POLISH_FLOOR = 1e-9;

export interface Candidate {
  key: string;
  structure: LocalStructure;
  /** The simplified equation the fit gives. */
  equation: Equation;
  /** Train NRMSE of the simplified equation. */
  nrmse: number;
  /**
   * Its leave-one-out NRMSE (metrics/leaveOneOut.ts: each row predicted by the fit without it,
   * inner weights held): what the answer rule under noise scores (hallOfFame.ts).
   */
  loo: number;
  complexity: number;
  reward: number;
  /** |Pearson| of each fitted product with the output (the dynamic constraint's evidence). */
  evidence: { product: Product; pearson: number }[];
  /**
   * Where the fit kept an additive constant: the same products without it (coefficients refitted,
   * inner weights held), one complexity simpler. The hall of fame weighs both (HallOfFame.add);
   * the search's reward and stop rules see the candidate itself.
   */
  plain?: Candidate;
}

/**
 * Σ over terms of (1 + Σ symbol complexities): a term costs its sum and its factors; an outer
 * function adds its own cost (equation/outer.ts), so y = L is preferred where it fits as well.
 */
export function complexityOf(equation: Equation, symbols: Registry<SymbolPlugin>): number {
  const sum = (terms: readonly Term[]) =>
    terms.reduce(
      (total, t) =>
        total + 1 + t.factors.reduce((s, f) => s + symbols.get(f.symbol).complexity + monomialCost(f.monomial), 0),
      0,
    );
  // A denominator costs its terms and 1 for the division (docs/design.md#ratio).
  const terms = sum(equation.terms) + (equation.denominator ? 1 + sum(equation.denominator) : 0);
  return equation.outer ? terms + outerOf(equation.outer).cost : terms;
}

function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa > 0 && sbb > 0 ? Math.abs(sab / Math.sqrt(saa * sbb)) : 0;
}

export interface Evaluator {
  /** Whether a structure was fitted already (no fit happens). */
  has(structure: LocalStructure): boolean;
  /**
   * A warm start for the structure's fit (FitOptions.warm: inner weights by neuron), as a screen
   * proposed it; the first hint before its fit counts, a fitted structure ignores it.
   */
  hint(structure: LocalStructure, warm: ReadonlyMap<number, number> | undefined): void;
  evaluate(structure: LocalStructure): { candidate: Candidate; cached: boolean };
  /** evaluate in steps that yield inside the fit (clock.ts): a driven search stays interruptible. */
  evaluateSteps(structure: LocalStructure): Steps<{ candidate: Candidate; cached: boolean }>;
  readonly size: number;
  /** Wall-clock seconds spent fitting (for the benchmark's fits per second). */
  readonly seconds: number;
}

export function createEvaluator(
  data: Dataset,
  target: string,
  symbols: Registry<SymbolPlugin>,
  reward: RewardPlugin,
  fit: Omit<FitOptions, "symbols">,
  /** Fit every structure with an additive constant (SearchSettings.constant). */
  constant = true,
): Evaluator {
  const cache = new Map<string, Candidate>();
  const hints = new Map<string, ReadonlyMap<number, number>>();
  let seconds = 0;
  const scoring = scoringOf(data, target, symbols, reward);
  function* evaluateSteps(structure: LocalStructure): Steps<{ candidate: Candidate; cached: boolean }> {
    const key = structureKey(structure);
    const hit = cache.get(key);
    if (hit) return { candidate: hit, cached: true };
    const started = performance.now();
    // Every structure is fitted with an additive constant (its last term), unless told not to.
    const fittedStructure = constant ? withConstant(structure) : structure;
    const warm = hints.get(key);
    // The hint is kept until the fit ends: a fit abandoned on an interrupt leaves it for next time.
    const fitted = yield* fitLocalSteps(
      fittedStructure,
      { x: structure.inputs.map(scoring.columns), y: [scoring.y] },
      { ...fit, symbols, ...(warm ? { warm } : {}) },
    );
    hints.delete(key);
    const [raw] = equationsOfLocal(fittedStructure, fitted.weights, scoring.lookup);
    const candidate = candidateOf(scoring, key, structure, raw!, constant);
    cache.set(key, candidate);
    seconds += (performance.now() - started) / 1000;
    return { candidate, cached: false };
  }
  return {
    get size() {
      return cache.size;
    },
    get seconds() {
      return seconds;
    },
    has: (structure) => cache.has(structureKey(structure)),
    hint(structure, warm) {
      const key = structureKey(structure);
      if (warm && !cache.has(key) && !hints.has(key)) hints.set(key, warm);
    },
    evaluate: (structure) => runSteps(evaluateSteps(structure)),
    evaluateSteps,
  };
}

/** What scoring a fit of one target reads: the data's columns, the reward and the simplifier's options. */
interface Scoring {
  data: Dataset;
  y: Float64Array;
  symbols: Registry<SymbolPlugin>;
  reward: RewardPlugin;
  lookup: (name: string) => SymbolPlugin;
  columns: (name: string) => Float64Array;
  /** Simplification with the data: a term the data says is negligible is dropped. */
  order: SimplifyOptions;
  /** Weights folded and powers merged, but no term dropped or folded by the data (no columns). */
  merging: SimplifyOptions;
  foldOptions: FoldOptions;
  /** Each input's spacing on the rows (aliasedFactor), found when first asked. */
  spacing: Map<string, number>;
}

function scoringOf(data: Dataset, target: string, symbols: Registry<SymbolPlugin>, reward: RewardPlugin): Scoring {
  const y = columnOf(data, target);
  const lookup = (name: string) => symbols.get(name);
  const columns = (name: string) => columnOf(data, name);
  const order = { symbols: lookup, inputOrder: data.inputs, symbolOrder: symbols.names(), columns, rows: data.rows };
  const merging = { symbols: lookup, inputOrder: data.inputs, symbolOrder: symbols.names() };
  const foldOptions = { ...order, y };
  return { data, y, symbols, reward, lookup, columns, order, merging, foldOptions, spacing: new Map() };
}

/**
 * The candidate of a fitted structure (its equation `raw` as the fit left it): simplified, its
 * near-degenerate factors folded, polished by least squares where the fit stopped short, scored,
 * and with a rival without its constant where it kept one.
 */
function candidateOf(
  scoring: Scoring,
  key: string,
  structure: LocalStructure,
  raw: Equation,
  constant: boolean,
): Candidate {
  const { lookup, columns, data, y } = scoring;
  // Near-degenerate factors (sin(0.0005·x) standing in for x) fold before the answer is chosen.
  let {
    equation,
    predicted,
    nrmse: folded,
  } = foldNearDegenerate(simplifyEquation(raw, scoring.order), scoring.foldOptions);
  // Where the nonlinear fit stopped short, the least-squares coefficients at its inner weights
  // are the better fit and replace it: every term kept for the refit (a weight folded, no term
  // dropped yet), as c·sqrt(w·x) slid to w → 10⁻¹⁴ along its flat valley (only c·√w counts)
  // and the term was negligible, while sqrt(x) beside x1²·x2 and the constant fits.
  if (constant && Number.isFinite(folded) && folded > 1e-12) {
    const polished = refitted(scoring, simplifyEquation(raw, scoring.merging));
    // A gain within the floor of fits at machine precision is none: the folded equation stays.
    if (polished && polished.nrmse < 0.999 * folded && folded - polished.nrmse > POLISH_FLOOR)
      ({ equation, predicted, nrmse: folded } = polished);
  }
  const evidence = structure.products.map((product, j) => {
    const term = raw.terms[j]!;
    const values = evaluateTerm({ coefficient: 1, factors: term.factors }, lookup, columns, data.rows);
    return { product, pearson: pearson(values, y) };
  });
  // A periodic factor faster than the rows can show is no law (cos(897·a) fitting noise): unscored.
  const aliased = aliasedFactor(equation, scoring.lookup, scoring.columns, scoring.spacing) !== undefined;
  if (aliased) folded = Number.POSITIVE_INFINITY;
  const candidate = scored(scoring, key, structure, equation, predicted, folded, evidence);
  // A constant the fit kept (above simplifyEquation's negligible size) has a rival: the same
  // products without it, their coefficients refitted (inner weights held), for the answer rule.
  const at = equation.terms.findIndex((t) => t.factors.length === 0);
  if (constant && !aliased && at >= 0 && equation.terms.length > 1) {
    const plain = refitted(scoring, equation, at);
    if (plain)
      candidate.plain = scored(
        scoring,
        `${key}#plain`,
        structure,
        plain.equation,
        plain.predicted,
        plain.nrmse,
        evidence,
        candidate.reward,
      );
  }
  return candidate;
}

/**
 * A periodic factor of the equation (SymbolPlugin.period) whose inner weight turns faster than the
 * rows can show: f(w·x) has the period P/|w| in x, and below two samples per period (Nyquist: |w| >
 * P / (2·spacing), the spacing the input's range over its distinct values less one) its values on
 * the rows are aliased noise, not a law (cos(897·a) on 800 rows of a ∈ [0, 10], whose limit is about
 * 250). Returns the factor's text; undefined: none. Functions of monomials are not judged here.
 */
export function aliasedFactor(
  equation: Equation,
  lookup: (name: string) => SymbolPlugin,
  columns: (name: string) => Float64Array,
  spacing: Map<string, number> = new Map(),
): string | undefined {
  const terms = [...equation.terms, ...(equation.denominator ?? [])];
  for (const factor of terms.flatMap((t) => t.factors)) {
    const period = lookup(factor.symbol).period;
    if (period === undefined || factor.weight === undefined || factor.monomial) continue;
    let gap = spacing.get(factor.input);
    if (gap === undefined) {
      const sorted = Float64Array.from(columns(factor.input)).sort();
      let distinct = sorted.length > 0 ? 1 : 0;
      for (let r = 1; r < sorted.length; r++) if (sorted[r] !== sorted[r - 1]) distinct++;
      gap = distinct > 1 ? (sorted[sorted.length - 1]! - sorted[0]!) / (distinct - 1) : 0;
      spacing.set(factor.input, gap);
    }
    if (gap > 0 && Math.abs(factor.weight) > period / (2 * gap))
      return `${factor.symbol}(${factor.weight}*${factor.input})`;
  }
  return undefined;
}

/** The reward plugin's score of a fit, checked (a throw, NaN or a value out of range is an InputError naming it). */
function rewardOf(reward: RewardPlugin, fitScore: RewardFit): number {
  const error = fitScore.nrmse;
  let score: number;
  try {
    score = reward.score(fitScore);
  } catch (cause) {
    throw new InputError(
      `plugin ${reward.name}: score threw: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
  if (!Number.isFinite(score)) {
    if (Number.isFinite(error))
      throw new InputError(`plugin ${reward.name}: score returned ${score} for NRMSE ${error}`);
    score = reward.range[0];
  }
  const [lo, hi] = reward.range;
  const slack = 1e-12 * Math.max(1, hi - lo); // as check-plugin's range check
  if (score < lo - slack || score > hi + slack) {
    throw new InputError(
      `plugin ${reward.name}: score returned ${score} for NRMSE ${error}, ` +
        `outside its declared range [${lo}, ${hi}]`,
    );
  }
  return score;
}

/** The candidate of a fitted equation: its reward, complexity and left-out NRMSE. */
function scored(
  scoring: Scoring,
  key: string,
  structure: LocalStructure,
  equation: Equation,
  predicted: Float64Array,
  nrmse: number,
  evidence: Candidate["evidence"],
  /** The reward, given: a rival without the constant shares its structure's (the search learns that). */
  given?: number,
): Candidate {
  const { y, lookup, columns, data } = scoring;
  const error = Number.isFinite(nrmse) ? nrmse : Number.POSITIVE_INFINITY;
  const complexity = complexityOf(equation, scoring.symbols);
  const score = given ?? rewardOf(scoring.reward, { yTrue: y, yPred: predicted, nrmse: error, complexity });
  let loo = Number.isFinite(error)
    ? leaveOneOutNrmse(tangentColumns(equation, lookup, columns, data.rows), y, predicted)
    : Number.POSITIVE_INFINITY;
  if (!Number.isFinite(loo)) loo = Number.POSITIVE_INFINITY;
  return { key, structure, equation, nrmse: error, loo, complexity, reward: score, evidence };
}

/**
 * The equation's coefficients refitted by least squares on its term columns (inner weights
 * held), without the term at `drop` when given; undefined when nothing is left or the drop
 * comes back (a dropped constant that another term folds back into).
 */
function refitted(scoring: Scoring, equation: Equation, drop = -1) {
  const { y, lookup, columns, data } = scoring;
  const terms = equation.terms.filter((_, k) => k !== drop);
  const basis = terms.map((t) => evaluateTerm({ coefficient: 1, factors: t.factors }, lookup, columns, data.rows));
  const beta = refitCoefficients(basis, y, data.rows);
  const out = simplifyEquation(
    { target: equation.target, terms: terms.map((t, k) => ({ coefficient: beta[k]!, factors: t.factors })) },
    scoring.order,
  );
  if (out.terms.length === 0 || (drop >= 0 && out.terms.some((t) => t.factors.length === 0))) return undefined;
  const predicted = evaluateEquation(out, lookup, columns, data.rows);
  return { equation: out, predicted, nrmse: nrmseOf(y, predicted) };
}
