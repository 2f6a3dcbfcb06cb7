/**
 * Forms beyond one sum of products (docs/design.md#outer, #ratio, #monomial): the screens that
 * find one for y, and the search of the reformulated problem (g⁻¹(y), y·Q, monomial inputs),
 * answered on y's own scale. The search itself comes in as `inner` (loop.ts searchOutput).
 */
import { columnOf } from "../data/index.js";
import { exp, log } from "../core/index.js";
import { type Clock, driveSteps } from "../core/index.js";
import {
  compareFactors,
  equationExpression,
  evaluateEquation,
  expressionComplexity,
  expressionInputs,
  monomialText,
  OUTER_NAMES,
  outerOf,
  substituteInputs,
  type Equation,
  type Factor,
  type OuterName,
  type Term,
} from "../equation/index.js";
import { powerName, type SymbolPlugin } from "../plugins/index.js";
import { nrmse as nrmseOf } from "../numeric/index.js";
import { complexityOf, type Candidate } from "./evaluator.js";
import { EXACT_SCREEN, firstScreenInput, nrmseOnY, productNrmse, refinedProduct } from "./firstScreen.js";
import type { Size } from "./growth.js";
import {
  CHEAP_FACTORS,
  cheapProposalsSteps,
  SCREEN_TERMS,
  noisyRatioScreenSteps,
  ratioScreenSteps,
  SCREEN_ROWS,
  strided,
  type LinearProposal,
  ScreenCache,
} from "./linear/proposer.js";
import { leastSquares, std } from "../numeric/index.js";
import { powerOf } from "./linear/monomial.js";
import { selectedScore, type NoisyRatio, type RatioProposal } from "./linear/ratio.js";
import { monomialChoiceSteps, monomialColumns, type MonomialChoice } from "./monomialScreen.js";
import { derivedColumns, derivedScreenSteps, type DerivedChoice } from "./derivedScreen.js";
import { estimateNoise, floorReach, type NoiseEstimate } from "./noise.js";
import { frontScoreOf, parametersOf } from "./hallOfFame.js";
import { type PhaseTimer, timedSteps } from "./phases.js";
import type { SearchSettings } from "./settings.js";
import type { OutputSearchResult, SearchContext } from "./strategy.js";

/** One output's search (loop.ts searchOutput), passed in so that the forms can search their problem. */
export type InnerSearch = (ctx: SearchContext, settings: SearchSettings) => Promise<OutputSearchResult>;

/**
 * At or below this NRMSE a sum fits an outer function's g⁻¹(y) exactly (float64 rounding, 1e-15 on
 * the laws measured): far below EXACT_SCREEN, which a six-term sum can reach on a smooth y² or 1/y
 * of a narrow range without being its law (x1 + 2·log x1 + 2.2: a six-term y² under 1e-6, not 1e-10).
 */
const OUTER_EXACT = 1e-10;
/** Inputs at most for the three-factor screens and the exhaustive monomial screen (docs/design.md#monomial). */
const FORM_INPUTS = 4;
/** Factors per product of an outer function's second screen. */
const OUTER_FACTORS = 3;

/** A form beyond one sum of products that the first screens found for y (docs/design.md#outer, #ratio, #monomial). */
export type Form =
  | { kind: "outer"; name: OuterName; start?: SearchContext["start"]; reach?: number; clip?: number }
  | { kind: "ratio"; denominator: Term[]; start?: SearchContext["start"]; reach?: number }
  | { kind: "monomial"; choice: MonomialChoice; start?: SearchContext["start"]; reach?: number }
  | { kind: "derived"; choice: DerivedChoice };

/**
 * The form of y the cheap screens find, where the first screen's cheap part (log-space products,
 * sums of singles and pairs) fits y itself neither exactly nor to ten times its noise estimate;
 * undefined: none. In order: an outer function whose g⁻¹(y) a short sum fits exactly
 * (OUTER_EXACT), a ratio whose exact linear relation y·Q = P the ratio screen finds (ratio.ts),
 * a monomial argument y is a function of (monomialScreen.ts).
 */
export async function screenForms(
  ctx: SearchContext,
  settings: SearchSettings,
  sizes: readonly Size[],
  clock: Clock,
  timer: PhaseTimer,
  cache: ScreenCache,
  estimate: () => NoiseEstimate,
  known: readonly { terms: number; nrmse: number }[] = [],
): Promise<Form | undefined> {
  const y = columnOf(ctx.data, ctx.target);
  // Each target's screen once (the exact outer check and the noisy forms ask the same; the check is
  // made on noisy data too, since the noise estimate of a clean 1/(e + a·b + c·d) is no zero).
  const screened = new Map<string, LinearProposal[]>();
  const screenProposals = async (target: Float64Array, tag: string, factors = CHEAP_FACTORS) => {
    const key = `${tag} ${factors}`;
    if (!screened.has(key)) {
      const input = firstScreenInput(ctx, settings, sizes, target, cache);
      const steps = cheapProposalsSteps({ ...input, tag, quick: true, factors });
      screened.set(key, (await driveSteps(timedSteps(steps, timer, "screening"), clock)).proposals);
    }
    return screened.get(key)!;
  };
  const screen = async (target: Float64Array, tag: string, factors = CHEAP_FACTORS) =>
    Math.min(...(await screenProposals(target, tag, factors)).map((p) => p.expected));
  // y itself first: a short exact sum, or one to the noise, needs no other form.
  const proposals = await screenProposals(y, "y");
  if (Math.min(...proposals.map((p) => p.expected)) <= EXACT_SCREEN) return undefined;
  // Under noise, the stop rule's reach of y's noise floor.
  const floor = floorReach(ctx.data.rows) * estimate().nrmse;
  // (A log-space product's expectation reads additive noise at small |y| as a large relative error:
  // its least-squares fit of y is what it leaves.)
  const onY = (p: LinearProposal) => nrmseOnY(ctx, p, y, settings.constant);
  const plain = Math.min(...proposals.map(onY));
  const targets: [OuterName, Float64Array][] = [];
  /** Under noise, the level a y of g's domain is clipped to where noise took a few out of it (clipOf). */
  const clips = new Map<OuterName, number>();
  if (settings.outer) {
    // The first outer function whose g⁻¹(y) a short sum fits exactly (tried simplest first).
    for (const name of [...OUTER_NAMES, ...ctx.symbols.outers]) {
      const g = outerOf(name);
      const clip = g.fits(y) ? undefined : clipOf(g, y, estimate().nrmse);
      if (!g.fits(y) && clip === undefined) continue;
      const transformed = outerTarget(g, y, clip);
      if (!transformed.every(Number.isFinite)) continue;
      targets.push([name, transformed]);
      if (clip !== undefined) clips.set(name, clip);
    }
    for (const [name, transformed] of targets)
      if (!clips.has(name) && (await screen(transformed, `outer:${name}`)) <= OUTER_EXACT)
        return { kind: "outer", name };
  }
  /**
   * Under noise: the outer function g whose g⁻¹(y) a sum fits so that g of it reaches y's floor on
   * y's own scale (loosely: FORM_REACH of the estimate, which a steep y can make a little low), or a
   * ratio that does (noisyRatioSteps), of the best score (selectedScore on the screening rows), where
   * it beats every sum of y the screen proposed (docs/design.md#outer, #ratio). Sums at the screen's
   * most terms are not taken (a truncated approximation: log(b) − a/c by six powers of b). Asked
   * after the other forms, which a law of theirs meets exactly or by their own noise tests.
   */
  /**
   * The monomial arguments y is a function of (monomialScreen.ts), by the exhaustive screen (up to
   * FORM_INPUTS inputs) or the reduction screen (up to REDUCTION_INPUTS); each asked once.
   */
  const asked = new Map<"exhaustive" | "reduction", Promise<MonomialChoice | undefined>>();
  const monomialBy = (screen: "exhaustive" | "reduction") => {
    if (!asked.has(screen))
      asked.set(
        screen,
        (async () => {
          const noise = estimate().nrmse;
          const noisy = noise > settings.stopNrmse;
          const steps = monomialChoiceSteps(screen, ctx.data.inputs, ctx.data.x, y, noise, noisy);
          const choice = await driveSteps(timedSteps(steps, timer, "screening"), clock);
          return choice && !choice.monomials.some((parts) => ctx.data.inputs.includes(monomialText(parts)))
            ? choice
            : undefined;
        })(),
      );
    return asked.get(screen)!;
  };
  const narrow = ctx.data.inputs.length <= FORM_INPUTS;
  /**
   * Under noise the reduction screen first on any data: its monomials take their inputs out of the
   * search (the exhaustive screen's second monomial keeps them all: a/b and c·d beside a, b, c, d).
   */
  const monomialChoice = async (noisy: boolean) =>
    noisy
      ? ((await monomialBy("reduction")) ?? (narrow ? await monomialBy("exhaustive") : undefined))
      : monomialBy(narrow ? "exhaustive" : "reduction");
  /**
   * Derived inputs (derivedScreen.ts): asked last, where no other form fits (a search on derived
   * inputs does not ask it again, nor one inside another form).
   */
  const derivedForm = async (): Promise<Form | undefined> => {
    if (!settings.derived || ctx.derived || ctx.within !== undefined) return undefined;
    ctx.onPhase?.({ target: ctx.target, phase: "testing symmetries: sums and differences of inputs (b − c, a² + b²)" });
    const noise = estimate().nrmse;
    const steps = derivedScreenSteps(ctx.data.inputs, ctx.data.x, y, noise, noise > settings.stopNrmse);
    const choice = await driveSteps(timedSteps(steps, timer, "screening"), clock);
    return choice && { kind: "derived", choice };
  };
  /** The noisy forms, else derived inputs. */
  const noisyOrDerived = async () => (await noisyForm()) ?? (await derivedForm());
  const noisyForm = async (): Promise<Form | undefined> => {
    const reach = Math.max(floor, FORM_REACH * estimate().nrmse);
    const screenRows = strided(y, SCREEN_ROWS).length;
    const own = settings.constant ? 1 : 0;
    const scoreOf = (nrmse: number, parameters: number) => selectedScore(nrmse, parameters, screenRows);
    const plainScore = Math.min(
      ...proposals.map((p) => scoreOf(onY(p), termsOf(p) + own)),
      ...known.map((k) => scoreOf(k.nrmse, k.terms + own)),
    );
    // One product of y at its floor: no form is shorter (a·b·c/d at 1 %: 3 s of screens saved). (Not
    // two, as the polynomial question's stable sum: the screen's pairs of neurons imitate a root at
    // 20 dB, √a·√b·e^(−0.5·c) + √c·sin(0.64·c) for √(a·b + c²).)
    if (proposals.some((p) => termsOf(p) === 1 && onY(p) <= reach)) return undefined;
    const most = Math.min(SCREEN_TERMS, Math.max(...sizes.map((s) => s.terms)));
    const w: Weighing = {
      ctx,
      settings,
      sizes,
      clock,
      timer,
      cache,
      y,
      reach,
      most,
      own,
      scoreOf,
      plainScore,
      estimate: estimate().nrmse,
    };
    // A function of monomials: the cheap screen of y over the monomials and the kept inputs.
    const monomial = settings.monomial && ctx.within === undefined ? await monomialChoice(true) : undefined;
    // y's noise over the monomials well below its noise over the inputs: the latter was approximation
    // error, and the monomials' search runs whole on its own estimate (monomialOverestimated).
    if (monomial && monomialOverestimated(ctx, monomial, y, w.estimate)) return { kind: "monomial", choice: monomial };
    const bestMonomial = monomial ? await weighMonomials(w, monomial) : undefined;
    // A short sum of the monomials at the floor is asked no further: no outer function or ratio is
    // shorter (SHORT_AT_FLOOR; a·b·c·d + e·f at 1 %: 6 s of screens saved).
    const shortMonomial = bestMonomial !== undefined && termsOf(bestMonomial.start) <= SHORT_AT_FLOOR;
    const best = shortMonomial ? undefined : await weighOuters(w, targets, clips, screenProposals);
    // (Not of one input: there a ratio of powers imitates any smooth law, Padé's, and noise hides which.)
    if (settings.ratio && ctx.within === undefined && ctx.data.inputs.length > 1 && !shortMonomial) {
      const ratio = await weighRatio(w, Math.min(best?.score ?? Infinity, bestMonomial?.score ?? Infinity));
      if (ratio) return ratio;
    }
    if (bestMonomial && (!best || bestMonomial.score < best.score)) return monomialForm(w, bestMonomial);
    return best && outerForm(w, best, clips.get(best.name));
  };
  if (plain <= 10 * estimate().nrmse) return noisyOrDerived();
  // Products of three factors (y² = a·b·c + 4; y⁻² = a⁻² − a⁻²·b²·c⁻²), where the search's sizes
  // hold them: a larger library, asked only where no pair sum fitted y or any g⁻¹(y); y first, so
  // that y = 1.5·a·b·c + 2·c² stays a sum (its y² is a sum of three-factor products too).
  const widest = Math.max(...sizes.map((s) => s.maxFactors));
  // Both the three-factor library and the monomial candidates grow as the cube of the inputs (a
  // flow's nine inputs: 40 s of screens before a search of 0.1 s; five inputs, feynman-I.12.11:
  // 5 s of search CPU more, measured): up to FORM_INPUTS.
  if (widest >= OUTER_FACTORS && narrow) {
    if ((await screen(y, "y", OUTER_FACTORS)) <= EXACT_SCREEN) return undefined;
    if (settings.outer)
      for (const [name, transformed] of targets)
        if ((await screen(transformed, `outer:${name}`, OUTER_FACTORS)) <= OUTER_EXACT) return { kind: "outer", name };
  }
  if (ctx.within !== undefined) return noisyForm();
  if (settings.ratio) {
    const steps = ratioScreenSteps(firstScreenInput(ctx, settings, sizes, y, cache));
    const proposal = await driveSteps(timedSteps(steps, timer, "screening"), clock);
    if (proposal) {
      return { kind: "ratio", denominator: denominatorTerms(ctx, proposal.denominator) };
    }
  }
  // (On noisy data the monomials are weighed as a noisy form, which starts their search where it can.)
  if (settings.monomial && !(estimate().nrmse > settings.stopNrmse)) {
    const choice = await monomialChoice(false);
    if (choice) return { kind: "monomial", choice };
  }
  return noisyOrDerived();
}

/** What the noisy weighing of the forms shares (screenForms' noisy part). */
interface Weighing {
  ctx: SearchContext;
  settings: SearchSettings;
  sizes: readonly Size[];
  clock: Clock;
  timer: PhaseTimer;
  cache: ScreenCache;
  y: Float64Array;
  /** The NRMSE on y a form's fit must reach, and the most terms a form's sum may have. */
  reach: number;
  most: number;
  /** The parameter a fitted constant adds (1 where the search fits one). */
  own: number;
  /** y's noise estimate over the inputs (NRMSE). */
  estimate: number;
  /** The selection score on the screening rows (selectedScore), and the best sum of y's. */
  scoreOf: (nrmse: number, parameters: number) => number;
  plainScore: number;
}

/** A noise estimate over the monomials below this share of the inputs' one takes the latter for approximation error. */
const OVERESTIMATED = 0.5;
/** One-product proposals of the monomials' screen whose inner weights are fitted on y (weighMonomials). */
const REFINED = 4;

interface BestMonomial {
  choice: MonomialChoice;
  start: LinearProposal;
  score: number;
  data: SearchContext["data"];
}

/**
 * The monomials weighed: the whole cheap screen of y over the monomials and the kept inputs (its
 * pursuit writes sin(w·u)·d + e on the few inputs left), and exp(w·u)·Π x^p; the best that reaches
 * y's floor and beats the sums of y by more than one parameter's price (on a sum of products,
 * 2·a·b + c², the monomials' screen only ties them, on rows the noise makes a little kinder).
 */
async function weighMonomials(w: Weighing, monomial: MonomialChoice): Promise<BestMonomial | undefined> {
  const { ctx, settings, y } = w;
  const margin = w.scoreOf(1, 1) - w.scoreOf(1, 0);
  const data = { ...ctx.data, ...monomialColumns(ctx.data.inputs, ctx.data.x, monomial) };
  const reduced = { ...ctx, data };
  const input = firstScreenInput(reduced, settings, w.sizes, y, new ScreenCache());
  const steps = cheapProposalsSteps({ ...input, tag: "monomial", factors: CHEAP_FACTORS });
  const { proposals: powers } = await driveSteps(timedSteps(steps, w.timer, "screening"), w.clock);
  const exponentials = exponentialProducts(reduced, monomial.monomials.length, y, settings.constant);
  let best: BestMonomial | undefined;
  // The best few one-product proposals with their inner weights fitted on y (refinedProduct).
  const onY = (p: LinearProposal) => nrmseOnY(reduced, p, y, settings.constant);
  const refined = [...powers, ...exponentials]
    .filter((p) => p.products.length === 1 && p.weights?.[0]?.some((v) => v !== 1))
    .sort((p, q) => onY(p) - onY(q))
    .slice(0, REFINED)
    .map((p) => refinedProduct(reduced, p, y, settings.constant).proposal);
  // Among those that beat the sums, the choice also prices each inner weight: a factor whose weight
  // the noise set (exp(−0.007·a·b·f) beside exp(−0.98·c/(d·e))·a·b·f at 20 dB) is no part of the law.
  const weights = (p: LinearProposal) =>
    p.products.flat().filter((neuron) => ctx.symbols.get(ctx.pool[neuron % ctx.pool.length]!).innerWeight).length;
  let chosen = Number.POSITIVE_INFINITY;
  for (const p of [...powers, ...exponentials, ...refined]) {
    if (termsOf(p) >= w.most) continue;
    const nrmse = onY(p);
    const score = w.scoreOf(nrmse, termsOf(p) + w.own);
    const priced = w.scoreOf(nrmse, termsOf(p) + w.own + weights(p));
    if (nrmse <= w.reach && score < w.plainScore - margin && priced < chosen) {
      best = { choice: monomial, start: p, score, data };
      chosen = priced;
    }
  }
  return best;
}

/** The outer functions weighed: each g⁻¹(y)'s sums fitted so that g of them fits y, the best by score. */
async function weighOuters(
  w: Weighing,
  targets: readonly [OuterName, Float64Array][],
  clips: ReadonlyMap<OuterName, number>,
  screenProposals: (target: Float64Array, tag: string) => Promise<LinearProposal[]>,
): Promise<{ name: OuterName; start: LinearProposal; score: number } | undefined> {
  const { ctx, settings, y } = w;
  let best: { name: OuterName; start: LinearProposal; score: number } | undefined;
  for (const [name, transformed] of targets)
    for (const p of await screenProposals(transformed, `outer:${name}`)) {
      if (termsOf(p) >= w.most) continue;
      const fit = outerFitOnY(ctx, p, name, y, clips.get(name), settings.constant);
      // One product under a power (√, 1/y, y², y^(-1/2): a product of the factors' powers) or one
      // that g makes a monomial (exp of a log) is a product of y: the plain search's.
      const g = outerOf(name);
      if (termsOf(p) === 1 && (homogeneous(g) || productOfY(ctx, p, g))) continue;
      const score = w.scoreOf(fit.nrmse, termsOf(p) + w.own);
      if (fit.nrmse <= w.reach && score < w.plainScore && (!best || score < best.score))
        best = { name, start: p, score };
    }
  return best;
}

/** The noisy ratio screen's form, where it beats the sums of y and `rival` (the other forms' best score). */
async function weighRatio(w: Weighing, rival: number): Promise<Form | undefined> {
  const { ctx, settings } = w;
  const input = firstScreenInput(ctx, settings, w.sizes, w.y, w.cache);
  const steps = noisyRatioScreenSteps(input, w.reach, w.most);
  const ratio = await driveSteps(timedSteps(steps, w.timer, "screening"), w.clock);
  if (!ratio) return undefined;
  const score = w.scoreOf(ratio.nrmse, ratio.parameters);
  // A constant over a sum is the reciprocal of a sum, the outer functions' own writing with as many
  // coefficients (1/(e + a·b + c·d) at 1 % as 0.9964/(e + 0.9942·a·b + 0.9967·c·d), whose search
  // then bought a 3e-4·b⁻¹·e⁻¹ above): left to them.
  const reciprocal = ratio.numerator.every((p) => p.neurons.length === 0);
  if (reciprocal || !(score < w.plainScore) || !(score < rival)) return undefined;
  const form = noisyRatioForm(ctx, settings, ratio);
  // A denominator that hardly changes over the rows is a constant the noise bent (8.3·a·b/c at
  // 20 dB as 1200·a/(c·(1 − 0.0017·b))): refused.
  return spanOf(denominatorValues(ctx, form.denominator)) >= DENOMINATOR_SPAN ? { ...form, reach: w.reach } : undefined;
}

/**
 * A function of the monomials starts their search at the floor (exp(w·u)·a, sin(w·u)·d + e); a sum
 * of powers of u stands for a function the screen did not write (at 20 dB, cos(a/b)·c·d), which the
 * search of the monomials looks for.
 */
function monomialForm(w: Weighing, { choice, data, start: proposal }: BestMonomial): Form {
  const { ctx, settings, y } = w;
  const start = writesFunction(ctx, proposal) ? startOf({ ...ctx, data }, settings, proposal, y) : undefined;
  return { kind: "monomial", choice, reach: w.reach, ...(start ? { start } : {}) };
}

/**
 * Whether y's noise estimate over the monomials and the kept inputs is below OVERESTIMATED of its
 * estimate over the inputs: the latter was then the estimator's approximation error, not noise (its
 * models do not hold y over the inputs; over fewer features they do; any feature set's estimate
 * bounds the noise from above, and one that lost what y depends on reads higher, not lower). The
 * monomials' search then runs whole, held to its own estimate, without the weighing's start at the
 * inputs' floor. Measured on noiseless a·exp(−b/c)·sin(d·e): 1.4e-2 over the five inputs, 1.1e-5
 * over b/c, d·e and a; that start had ended the search at once on v·cos(0.53·v)·exp(−u)·a.
 */
function monomialOverestimated(ctx: SearchContext, choice: MonomialChoice, y: Float64Array, estimate: number) {
  const { x } = monomialColumns(ctx.data.inputs, ctx.data.x, choice);
  return estimateNoise(x, y).nrmse < OVERESTIMATED * estimate;
}

/** The outer form of the weighing's best, its start's noise what it leaves on every row of g⁻¹(y). */
function outerForm(w: Weighing, best: { name: OuterName; start: LinearProposal }, clip: number | undefined): Form {
  const { ctx, settings, y } = w;
  // (Every row: the noise of g⁻¹(y), uneven, the strided rows may misjudge.)
  const left = outerFitOnY(ctx, best.start, best.name, y, clip, settings.constant, ctx.data.rows).transformed;
  const noise = { nrmse: left, method: "residual of the forms screen's answer, at y's noise floor" };
  const start = { proposal: best.start, noise };
  return { kind: "outer", name: best.name, start, reach: w.reach, ...(clip ? { clip } : {}) };
}

/** The ratio screen's denominator as terms (denominator factors with their inner weights), normalised. */
function denominatorTerms(ctx: SearchContext, denominator: RatioProposal["denominator"]): Term[] {
  const terms = denominator.map(
    (p): Term => ({
      coefficient: p.coefficient,
      factors: p.neurons.map((n, k) => {
        const symbol = ctx.pool[n % ctx.pool.length]!;
        const input = ctx.data.inputs[Math.floor(n / ctx.pool.length)]!;
        return ctx.symbols.get(symbol).innerWeight ? { symbol, input, weight: p.weights[k]! } : { symbol, input };
      }),
    }),
  );
  return normalised(terms);
}

/**
 * The ratio form of a noisy screen's ratio: its denominator, and its numerator as the start of the
 * search of y·Q, with the NRMSE its least-squares fit leaves on every row of y·Q as the floor there.
 */
function noisyRatioForm(ctx: SearchContext, settings: SearchSettings, ratio: NoisyRatio): Form & { kind: "ratio" } {
  const denominator = denominatorTerms(ctx, ratio.denominator);
  const q = denominatorValues(ctx, denominator);
  const yq = columnOf(ctx.data, ctx.target).map((v, r) => v * q[r]!);
  const products = ratio.numerator.filter((p) => p.neurons.length > 0);
  const proposal: LinearProposal = {
    products: products.map((p) => p.neurons),
    weights: products.map((p) => p.weights),
    score: ratio.nrmse,
    expected: ratio.nrmse,
    source: "sparse-sum",
  };
  const start = startOf(ctx, settings, proposal, yq);
  return { kind: "ratio", denominator, ...(start ? { start } : {}) };
}

/**
 * A screen's proposal as the start of a reformulated target's search: with the NRMSE its
 * least-squares fit leaves on every row of that target as the floor there; undefined: no fit.
 */
function startOf(
  ctx: SearchContext,
  settings: SearchSettings,
  proposal: LinearProposal,
  target: Float64Array,
): SearchContext["start"] {
  const columns = proposalColumns(ctx, proposal, settings.constant, ctx.data.rows);
  const fitted = weightedCoefficients(columns, target, undefined);
  const left = fitted ? nrmseOf(target, combination(columns, fitted)) : Number.POSITIVE_INFINITY;
  if (!Number.isFinite(left)) return undefined;
  return { proposal, noise: { nrmse: left, method: "residual of the forms screen's answer, at y's noise floor" } };
}

/**
 * Products exp(w·u)·Π x_k^p_k of a monomial u (the first `monomials` inputs of `reduced`) and powers
 * of the other inputs, one per monomial: log|y| is linear in u and in log x_k, so one least-squares
 * solve on the screen's rows gives w and the powers, each rounded to a power the pool writes (one
 * under 1/4 leaves its input out), w refitted with them. Nothing where y changes sign or the pool
 * has no exponential or an input is not positive where its power is asked.
 */
function exponentialProducts(
  reduced: Pick<SearchContext, "data" | "pool" | "symbols">,
  monomials: number,
  y: Float64Array,
  constant: boolean,
): LinearProposal[] {
  const { pool, symbols, data } = reduced;
  const e = pool.findIndex((name) => isExponential(symbols.get(name)));
  const powers = powerSymbolsOf(reduced);
  const ys = strided(y, SCREEN_ROWS);
  const sign = ys[0]! > 0 ? 1 : -1;
  if (e < 0 || !ys.every((v) => sign * v > 0)) return [];
  const target = Float64Array.from(ys, (v) => log(sign * v));
  const xs = data.x.map((c) => strided(c, SCREEN_ROWS));
  const logs = xs.map((c) => (c.every((v) => v > 0) ? Float64Array.from(c, log) : undefined));
  const ones = new Float64Array(ys.length).fill(1);
  const out: LinearProposal[] = [];
  for (let m = 0; m < monomials; m++) {
    const others = xs.flatMap((_, k) => (k !== m && logs[k] ? [k] : []));
    const c = leastSquares([ones, xs[m]!, ...others.map((k) => logs[k]!)], target);
    if (!c) continue;
    const factors: { input: number; symbol: number; p: number }[] = [];
    others.forEach((k, j) => {
      const p = c[j + 2]!;
      if (Math.abs(p) < 0.25) return;
      const nearest = [...powers.keys()].reduce((a, b) => (Math.abs(b - p) < Math.abs(a - p) ? b : a));
      factors.push({ input: k, symbol: pool.indexOf(powers.get(nearest)!), p: nearest });
    });
    const rest = Float64Array.from(target, (t, r) => factors.reduce((v, f) => v - f.p * logs[f.input]![r]!, t));
    const w = leastSquares([ones, xs[m]!], rest)?.[1];
    if (w === undefined || !Number.isFinite(w) || w === 0) continue;
    const neurons = [m * pool.length + e, ...factors.map((f) => f.input * pool.length + f.symbol)];
    const proposal = (weight: number): LinearProposal => ({
      products: [neurons],
      weights: [[weight, ...factors.map(() => 1)]],
      score: Number.POSITIVE_INFINITY,
      expected: Number.POSITIVE_INFINITY,
      source: "log-product",
    });
    // w refined on y's own scale (log|y| weighs the rows unevenly under noise): golden-section
    // search within ±30 % of the log-space estimate.
    const fitted = (weight: number) => productNrmse(reduced, proposal(weight), y, constant);
    out.push(proposal(goldenMinimum(fitted, 0.7 * w, 1.3 * w)));
  }
  return out;
}

/** The minimum of a unimodal f on [a, b] by golden-section search (GOLDEN_STEPS steps). */
function goldenMinimum(f: (v: number) => number, a: number, b: number): number {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let [lo, hi] = a < b ? [a, b] : [b, a];
  let c = hi - ratio * (hi - lo);
  let d = lo + ratio * (hi - lo);
  let fc = f(c);
  let fd = f(d);
  for (let k = 0; k < GOLDEN_STEPS; k++) {
    if (fc <= fd) {
      hi = d;
      d = c;
      fd = fc;
      c = hi - ratio * (hi - lo);
      fc = f(c);
    } else {
      lo = c;
      c = d;
      fc = fd;
      d = lo + ratio * (hi - lo);
      fd = f(d);
    }
  }
  return (lo + hi) / 2;
}

const GOLDEN_STEPS = 24;

/** Whether a proposal holds a factor that is no power of its input (sin(w·u), exp(w·u), log). */
function writesFunction(ctx: Pick<SearchContext, "pool" | "symbols">, p: LinearProposal): boolean {
  return p.products.some((product) =>
    product.some((n) => powerOf(ctx.symbols.get(ctx.pool[n % ctx.pool.length]!)) === undefined),
  );
}

/** p where the symbol is x^p with no inner weight of its own (one folded to 1 counts: sqrt). */
function plainPowerOf(symbol: SymbolPlugin): number | undefined {
  return symbol.innerWeight && !symbol.fold ? undefined : powerOf(symbol);
}

/** The pool's first symbol of each plain power (plainPowerOf): power → symbol name. */
function powerSymbolsOf(ctx: Pick<SearchContext, "pool" | "symbols">): Map<number, string> {
  const out = new Map<number, string>();
  for (const name of ctx.pool) {
    const p = plainPowerOf(ctx.symbols.get(name));
    if (p !== undefined && !out.has(p)) out.set(p, name);
  }
  return out;
}

/** A symbol with an inner weight that is exp (e^0 = 1, e^1, e^2 to 1e-12). */
function isExponential(symbol: { innerWeight?: boolean; evaluate: (x: number) => number }): boolean {
  if (!symbol.innerWeight) return false;
  return [0, 1, 2].every((x) => Math.abs(symbol.evaluate(x) - exp(x)) <= 1e-12 * exp(x));
}

/** A noisy ratio's denominator must change by at least this factor over the rows (max |Q| / min |Q|). */
const DENOMINATOR_SPAN = 1.1;

/** max |v| / min |v| (infinite where v reaches 0). */
function spanOf(values: Float64Array): number {
  let [low, high] = [Number.POSITIVE_INFINITY, 0];
  for (const v of values) {
    low = Math.min(low, Math.abs(v));
    high = Math.max(high, Math.abs(v));
  }
  return low > 0 ? high / low : Number.POSITIVE_INFINITY;
}

/** A denominator's values on every row. */
function denominatorValues(ctx: SearchContext, denominator: Term[]): Float64Array {
  const columns = (input: string) => ctx.data.x[ctx.data.inputs.indexOf(input)]!;
  return evaluateEquation(
    { target: ctx.target, terms: denominator },
    (s) => ctx.symbols.get(s),
    columns,
    ctx.data.rows,
  );
}

/** A denominator with its constant at 1 where it has one (else its first term's coefficient at 1). */
function normalised(terms: readonly Term[]): Term[] {
  const constant = terms.find((t) => t.factors.length === 0);
  const scale = constant ? constant.coefficient : terms[0]!.coefficient;
  // The constant last, as simplifyEquation orders a sum.
  const ordered = [...terms.filter((t) => t.factors.length > 0), ...(constant ? [constant] : [])];
  return ordered.map((t) => ({ ...t, coefficient: t.coefficient / scale }));
}

/**
 * A search of a reformulated problem answered on y's own scale: every candidate's equation
 * mapped back (`map`), its NRMSE on y and its complexity plus `cost` of it. (The front's scores
 * stay those of the inner search.)
 */
function answerOnY(
  ctx: SearchContext,
  inner: OutputSearchResult,
  map: (e: Equation) => Equation,
  cost: (e: Equation) => number,
  noiseOf: string | undefined,
): OutputSearchResult {
  const y = columnOf(ctx.data, ctx.target);
  const columns = (input: string) => ctx.data.x[ctx.data.inputs.indexOf(input)]!;
  // One mapped candidate per candidate: the answer stays the front's own entry (its `chosen` mark).
  const mapped = new Map<Candidate, Candidate>();
  const onY = (c: Candidate): Candidate => {
    const known = mapped.get(c);
    if (known) return known;
    const equation = map(c.equation);
    const predicted = evaluateEquation(equation, (s) => ctx.symbols.get(s), columns, ctx.data.rows);
    const nrmse = nrmseOf(y, predicted);
    const out = {
      ...c,
      equation,
      nrmse: Number.isFinite(nrmse) ? nrmse : Number.POSITIVE_INFINITY,
      complexity: c.complexity + cost(c.equation),
      ...(c.plain ? { plain: onY(c.plain) } : {}),
    };
    mapped.set(c, out);
    return out;
  };
  return {
    ...inner,
    best: inner.best && onY(inner.best),
    front: inner.front.map(onY),
    // The rival, like the front, as a law of y (its gap was weighed on the target the search fitted).
    ...(inner.ambiguous ? { ambiguous: { rival: onY(inner.ambiguous.rival), gap: inner.ambiguous.gap } } : {}),
    noise: noiseOf ? { nrmse: inner.noise.nrmse, method: `${inner.noise.method} (${noiseOf})` } : inner.noise,
  };
}

/** The data with the target's column replaced. */
function withTarget(ctx: SearchContext, values: Float64Array) {
  const index = ctx.data.targets.indexOf(ctx.target);
  return { ...ctx.data, y: ctx.data.y.map((column, k) => (k === index ? values : column)) };
}

/**
 * The search on g⁻¹(y), answered on y's scale: every candidate gets the outer function, its NRMSE
 * on y and the outer function's complexity.
 */
async function outerSearch(
  ctx: SearchContext,
  settings: SearchSettings,
  name: OuterName,
  start: SearchContext["start"],
  clip: number | undefined,
  inner: InnerSearch,
): Promise<OutputSearchResult> {
  const g = outerOf(name);
  const y = columnOf(ctx.data, ctx.target);
  const data = withTarget(ctx, outerTarget(g, y, clip));
  const found = await inner({ ...ctx, data, outer: name, ...(start ? { start } : {}) }, settings);
  return answerOnY(
    ctx,
    found,
    (e) => (start ? refittedOnY(ctx, { ...e, outer: name }, y, clip) : { ...e, outer: name }),
    () => g.cost,
    "of the transformed target",
  );
}

/**
 * The search on y·Q(x) for the denominator Q the ratio screen proposed, answered as P/Q on y's
 * scale; a ratio costs its denominator's terms and 1 for the division (docs/design.md#ratio).
 */
async function ratioSearch(
  ctx: SearchContext,
  settings: SearchSettings,
  denominator: Term[],
  start: SearchContext["start"],
  inner: InnerSearch,
) {
  const q = denominatorValues(ctx, denominator);
  const y = columnOf(ctx.data, ctx.target);
  const data = withTarget(
    ctx,
    y.map((v, r) => v * q[r]!),
  );
  const found = await inner({ ...ctx, data, within: "ratio", ...(start ? { start } : {}) }, settings);
  const cost = 1 + complexityOf({ target: ctx.target, terms: denominator }, ctx.symbols);
  return answerOnY(
    ctx,
    found,
    (e) => ({ ...e, denominator }),
    () => cost,
    "of y times the denominator",
  );
}

/**
 * The search with the monomials as inputs beside the kept inputs, answered with each written out:
 * a factor of a monomial u gets `monomial` and its cost (docs/design.md#monomial), except a power
 * of u that the pool's power symbols write as ordinary factors (u = a·b·c: x(u) is a·b·c), which
 * becomes those factors, so a sum of products stays in the form the search gives it elsewhere.
 */
async function monomialSearch(
  ctx: SearchContext,
  settings: SearchSettings,
  choice: MonomialChoice,
  start: SearchContext["start"],
  inner: InnerSearch,
) {
  const named = choice.monomials.map((parts) => ({ name: monomialText(parts), parts }));
  const { inputs, x } = monomialColumns(ctx.data.inputs, ctx.data.x, choice);
  const data = { ...ctx.data, inputs, x };
  const found = await inner({ ...ctx, data, within: "monomial", ...(start ? { start } : {}) }, settings);
  const plainPower = (name: string) => plainPowerOf(ctx.symbols.get(name));
  const powerSymbols = powerSymbolsOf(ctx);
  /** The factors a factor of a monomial is (one with `monomial`, or its power written out). */
  const written = (f: Factor): Factor[] => {
    const m = named.find((x) => x.name === f.input);
    if (!m) return [f];
    const p = plainPower(f.symbol);
    const unit = f.weight === undefined || f.weight === 1;
    const plain = p !== undefined && unit ? m.parts.map((q) => powerSymbols.get(q.power * p)) : undefined;
    if (plain?.every((name) => name !== undefined))
      return m.parts.map((q, k) => ({ symbol: plain[k]!, input: q.input }));
    return [{ ...f, monomial: m.parts }];
  };
  /**
   * Plain powers of one input merged (h from u = h/d beside h from u' = h·E: h^2; c^-1·c^-2: c^-3), as
   * the search's own answers hold each input once; a sum of 0 leaves the input out.
   */
  const merged = (factors: readonly Factor[]): Factor[] => {
    const out: Factor[] = [];
    const sums = new Map<string, number>();
    for (const f of factors) {
      const p = f.monomial || (f.weight !== undefined && f.weight !== 1) ? undefined : plainPower(f.symbol);
      if (p === undefined) out.push(f);
      else sums.set(f.input, (sums.get(f.input) ?? 0) + p);
    }
    for (const [input, p] of sums) {
      if (p === 0) continue;
      // The pool's symbol of that power, else the derived one (x^-3: the registry makes it on demand).
      const symbol = powerSymbols.get(p) ?? (p === 1 ? undefined : powerName(p));
      if (symbol) out.push({ symbol, input });
      else
        out.push(
          ...factors.filter((f) => f.input === input && !f.monomial && (f.weight === undefined || f.weight === 1)),
        );
    }
    return out;
  };
  // Written-out factors take the canonical order (by input, then symbol) the search gives them elsewhere.
  const order = { inputOrder: ctx.data.inputs, symbolOrder: ctx.pool };
  const rewrite = (terms: readonly Term[]) =>
    terms.map((t) => ({
      ...t,
      factors: merged(t.factors.flatMap(written)).sort((f, g) => compareFactors(f, g, order)),
    }));
  const map = (e: Equation): Equation => ({
    ...e,
    terms: rewrite(e.terms),
    ...(e.denominator ? { denominator: rewrite(e.denominator) } : {}),
  });
  // What the written equation costs beyond the inner one's.
  const cost = (e: Equation) => complexityOf(map(e), ctx.symbols) - complexityOf(e, ctx.symbols);
  return answerOnY(ctx, found, map, cost, undefined);
}

/**
 * The search with derived inputs (derivedScreen.ts), answered on y's scale: a candidate that reads a
 * derived input becomes an expression of the inputs (the derived inputs' own written in), costing
 * each derived input's nodes beyond the one input it stood for.
 */
async function derivedSearch(ctx: SearchContext, settings: SearchSettings, choice: DerivedChoice, inner: InnerSearch) {
  const { inputs, x } = derivedColumns(ctx.data.inputs, ctx.data.x, choice);
  const found = await inner({ ...ctx, data: { ...ctx.data, inputs, x }, derived: true }, settings);
  const lookup = (name: string) => ctx.symbols.get(name);
  const byName = new Map(choice.features.map((f) => [f.name, f.expression]));
  const extra = new Map(choice.features.map((f) => [f.name, expressionComplexity(f.expression).nodes - 1]));
  const written = (e: Equation) => {
    try {
      return equationExpression(e, lookup);
    } catch {
      // (An outer-function plugin has no expression: such a candidate cannot be answered on y's scale.)
      return Number.NaN;
    }
  };
  const reads = (e: Equation) => expressionInputs(written(e)).filter((name) => byName.has(name));
  const map = (e: Equation): Equation => {
    const w = written(e);
    if (typeof w === "number" && Number.isNaN(w)) return { target: e.target, terms: [], expression: w };
    return reads(e).length === 0
      ? e
      : { target: e.target, terms: [], expression: substituteInputs(w, (name) => byName.get(name)) };
  };
  const cost = (e: Equation) => reads(e).reduce((sum, name) => sum + extra.get(name)!, 0);
  return answerOnY(ctx, found, map, cost, undefined);
}

/**
 * The search of y in the form its screens found. A form whose search did not end on an exact fit,
 * at the noise floor (nor on the clock, a stop from outside or an error) gives way to the search of
 * y itself (no form inside), and the better of the two answers. At the floor the form's answer is as
 * good as the data tell: the search of y could only tie it, at the price of a second whole search.
 */
export async function searchWithForm(
  ctx: SearchContext,
  settings: SearchSettings,
  form: Form,
  inner: InnerSearch,
): Promise<OutputSearchResult> {
  const found =
    form.kind === "outer"
      ? await outerSearch(ctx, settings, form.name, form.start, form.clip, inner)
      : form.kind === "ratio"
        ? await ratioSearch(ctx, settings, form.denominator, form.start, inner)
        : form.kind === "monomial"
          ? await monomialSearch(ctx, settings, form.choice, form.start, inner)
          : await derivedSearch(ctx, settings, form.choice, inner);
  // A noisy form's answer must hold y's floor on y's own scale, as its screen found (its search fitted
  // another target): else it gives way as one that did not end at the floor.
  const noisy = "start" in form && form.start !== undefined && form.reach !== undefined;
  const holds = !noisy || (found.best?.nrmse ?? Infinity) <= form.reach!;
  // On one or two inputs a ratio or a power series under √ or y² imitates smooth laws
  // (sin(1.5·a)·cos(0.5·b) ≈ (1.49·a − 0.51·a³)/(1 + 0.13·b²) at 20 dB, Padé's): a noisy form of
  // more than a few coefficients is weighed there against the search of y itself, by the score.
  const weighed =
    noisy && holds && ctx.data.inputs.length <= LOW_DIMENSION && found.best !== undefined
      ? formParameters(found.best.equation) > SHORT_FORM
      : false;
  if (
    !weighed &&
    holds &&
    ["reward-threshold", "noise-floor", "time-limit", "aborted", "error"].includes(found.stopReason)
  )
    return found;
  const plain = await inner({ ...ctx, within: "none" }, settings);
  if (weighed) {
    const score = (r: OutputSearchResult) =>
      r.best ? frontScoreOf(r.best.nrmse, formParameters(r.best.equation), ctx.data.rows) : Number.POSITIVE_INFINITY;
    return score(plain) <= score(found) ? plain : found;
  }
  return plain.best && (!found.best || plain.best.nrmse < found.best.nrmse) ? plain : found;
}

/**
 * Inputs at most where a noisy form of more than SHORT_FORM coefficients is weighed against the
 * search of y itself (searchWithForm): the approximants measured had 4–5 (the noise suite's sin·cos
 * laws), the forms family's laws of two inputs 2–3.
 */
const LOW_DIMENSION = 2;
const SHORT_FORM = 3;

/** An equation's coefficients and inner weights, a denominator's beside its first term's too. */
const formParameters = (e: Equation): number =>
  parametersOf(e) + (e.denominator ? parametersOf({ ...e, terms: e.denominator }) - 1 : 0);

/** A proposal's terms: its products, and the constant where the search fits one. */
const termsOf = (p: LinearProposal) => p.products.length;

/**
 * Products of a noisy sum at its floor that no noisy form can shorten: a form must hold fewer
 * parameters than the sum it replaces, and every form but a bare exp of one product holds two
 * (a coefficient and an inner weight, or one above and one below a ratio).
 */
export const SHORT_AT_FLOOR = 2;

/** The columns of a proposal's products (and the constant where the search fits one) on strided rows. */
export function proposalColumns(
  ctx: Pick<SearchContext, "data" | "pool" | "symbols">,
  p: LinearProposal,
  constant: boolean,
  rows: number,
): Float64Array[] {
  // (strided keeps every row up to 2·rows − 1 rows: the columns take its count.)
  const n = strided(ctx.data.x[0]!, rows).length;
  const columns = p.products.map((product, k) => {
    const column = new Float64Array(n).fill(1);
    product.forEach((neuron, j) => {
      const symbol = ctx.symbols.get(ctx.pool[neuron % ctx.pool.length]!);
      const weight = p.weights?.[k]?.[j] ?? 1;
      const x = strided(ctx.data.x[Math.floor(neuron / ctx.pool.length)]!, rows);
      for (let r = 0; r < n; r++) column[r]! *= symbol.evaluate(symbol.innerWeight ? weight * x[r]! : x[r]!);
    });
    return column;
  });
  if (constant) columns.push(new Float64Array(n).fill(1));
  return columns;
}

/** Least-squares coefficients of t on the columns, each row weighted by w; undefined where not finite. */
function weightedCoefficients(
  columns: readonly Float64Array[],
  t: Float64Array,
  w: Float64Array | undefined,
): Float64Array | undefined {
  const root = w && Float64Array.from(w, Math.sqrt);
  const scaled = root ? columns.map((c) => c.map((v, r) => v * root[r]!)) : columns;
  const target = root ? t.map((v, r) => v * root[r]!) : t;
  const c = leastSquares(scaled, target);
  return c && c.every(Number.isFinite) ? c : undefined;
}

/** Σ c_k · column_k. */
function combination(columns: readonly Float64Array[], c: ArrayLike<number>): Float64Array {
  const out = new Float64Array(columns[0]?.length ?? 0);
  columns.forEach((column, k) => {
    for (let r = 0; r < out.length; r++) out[r]! += c[k]! * column[r]!;
  });
  return out;
}

/** g'(v)², by a central difference (0 where not finite). */
function slopeSquared(g: (v: number) => number, v: number): number {
  const h = 1e-6 * Math.max(1, Math.abs(v));
  const slope = (g(v + h) - g(v - h)) / (2 * h);
  return Number.isFinite(slope) ? slope * slope : 0;
}

/**
 * g applied to the sum of the columns fitted to t = g⁻¹(y) so that it fits y: least squares on t,
 * then REWEIGHTED more passes each with the rows weighted by g'(fit)² (the Gauss–Newton steps of
 * y = g(Σ c_k·column_k)); undefined where a fit is not finite.
 */
function fittedThrough(
  g: (v: number) => number,
  columns: readonly Float64Array[],
  t: Float64Array,
): { coefficients: Float64Array; predicted: Float64Array } | undefined {
  // The first pass weighted by the data's own slope (a y that noise took near g's edge counts little).
  let coefficients = weightedCoefficients(
    columns,
    t,
    t.map((v) => slopeSquared(g, v)),
  );
  for (let pass = 0; pass < REWEIGHTED && coefficients; pass++) {
    const fitted = combination(columns, coefficients);
    coefficients = weightedCoefficients(
      columns,
      t,
      fitted.map((v) => slopeSquared(g, v)),
    );
  }
  return coefficients && { coefficients, predicted: combination(columns, coefficients).map(g) };
}

/** Reweighted passes of fittedThrough. */
const REWEIGHTED = 3;

/**
 * A proposal for T(y) = g⁻¹(y) fitted so that g of it fits y (fittedThrough): its NRMSE on y, and
 * the NRMSE of its plain least-squares fit of T(y), on `rows` strided rows.
 */
function outerFitOnY(
  ctx: Pick<SearchContext, "data" | "pool" | "symbols">,
  p: LinearProposal,
  name: OuterName,
  y: Float64Array,
  clip: number | undefined,
  constant: boolean,
  rows = SCREEN_ROWS,
): { nrmse: number; transformed: number; predicted?: Float64Array } {
  const g = outerOf(name);
  const ys = strided(y, rows);
  const t = outerTarget(g, ys, clip);
  const none = { nrmse: Number.POSITIVE_INFINITY, transformed: Number.POSITIVE_INFINITY };
  if (!t.every(Number.isFinite)) return none;
  const columns = proposalColumns(ctx, p, constant, ys.length);
  const plain = weightedCoefficients(columns, t, undefined);
  const fit = fittedThrough(g.apply, columns, t);
  if (!plain || !fit) return none;
  const finite = (e: number) => (Number.isFinite(e) ? e : Number.POSITIVE_INFINITY);
  return {
    nrmse: finite(nrmseOf(ys, fit.predicted)),
    transformed: finite(nrmseOf(t, combination(columns, plain))),
    predicted: fit.predicted,
  };
}

/**
 * An outer function's equation with its coefficients refitted so that g of the sum fits y itself
 * (iteratively reweighted least squares on g⁻¹(y), each row weighted by g'(fit)²: Gauss–Newton's
 * steps for y = g(Σ c_k·φ_k)); the search fitted them on g⁻¹(y), whose noise grows where g' is small
 * (1/y of a y over two decades). Kept only where it fits y better.
 */
function refittedOnY(ctx: SearchContext, e: Equation, y: Float64Array, clip: number | undefined): Equation {
  const g = outerOf(e.outer!);
  const columns = (input: string) => ctx.data.x[ctx.data.inputs.indexOf(input)]!;
  const evaluate = (terms: Term[], outer?: OuterName) =>
    evaluateEquation(
      { target: e.target, terms, ...(outer ? { outer } : {}) },
      (s) => ctx.symbols.get(s),
      columns,
      ctx.data.rows,
    );
  const termColumns = e.terms.map((t) => evaluate([{ ...t, coefficient: 1 }]));
  const t = outerTarget(g, y, clip);
  if (!t.every(Number.isFinite) || termColumns.some((c) => !c.every(Number.isFinite))) return e;
  const fit = fittedThrough(g.apply, termColumns, t);
  if (!fit) return e;
  const refitted = { ...e, terms: e.terms.map((term, k) => ({ ...term, coefficient: fit.coefficients[k]! })) };
  const before = nrmseOf(y, evaluate(e.terms, e.outer));
  const after = nrmseOf(y, evaluate(refitted.terms, e.outer));
  return after < before ? refitted : e;
}

/** Noise's standard deviations at most that it may take a y below 0 (clipOf). */
const CLIP_SIGMAS = 4;
/**
 * A noisy form's NRMSE on y may be this share of the noise estimate at most (above the stop rule's
 * reach where that is lower): a y that changes steeply makes the nearest-neighbour estimate a little
 * low (4.2·a/(1 + 0.8·b) at 1 %: the law fits y to 1.07 of it).
 */
const FORM_REACH = 1.15;
/** Rows of y at most that noise may take out of an outer function's domain (clipOf). */
const OUT_OF_DOMAIN = 0.1;

/**
 * Under noise, the level y is clipped to for g⁻¹ (an outer function of positive y: sqrt, log, 1/y)
 * where noise took at most OUT_OF_DOMAIN of the rows to 0 or below: the noise's standard deviation
 * (a row there says only that y is small; g⁻¹ of it stays bounded, and the fit on y's scale weighs
 * it by g'²). Undefined: no clip makes y fit g, more rows are out, or one lies more than CLIP_SIGMAS below 0.
 */
function clipOf(g: ReturnType<typeof outerOf>, y: Float64Array, nrmse: number): number | undefined {
  const sigma = nrmse * std(y);
  if (!(sigma > 0) || !Number.isFinite(sigma)) return undefined;
  let out = 0;
  for (const v of y) {
    if (!(v > 0)) out++;
    // A y far below 0 is no noisy positive law's.
    if (v < -CLIP_SIGMAS * sigma) return undefined;
  }
  if (out === 0 || out > OUT_OF_DOMAIN * y.length) return undefined;
  return g.fits(y.map((v) => Math.max(v, sigma))) ? sigma : undefined;
}

/** Whether g(c·v) = h(c)·g(v) (a power of v, up to a factor): g of one product is a product. */
function homogeneous(g: ReturnType<typeof outerOf>): boolean {
  const ratios = [0.7, 1.3, 2.9].map((v) => g.apply(2 * v) / g.apply(v));
  return ratios.every((r) => Number.isFinite(r) && Math.abs(r - ratios[0]!) <= 1e-9 * Math.abs(ratios[0]!));
}

/** Whether g of a one-product proposal (its coefficient 1) is a product of powers of the inputs. */
function productOfY(ctx: SearchContext, p: LinearProposal, g: ReturnType<typeof outerOf>): boolean {
  const [column] = proposalColumns(ctx, p, false, SCREEN_ROWS);
  return monomialOfInputs(column!.map(g.apply), ctx.data.x);
}

/** Whether positive values on the strided rows are a product of powers of positive inputs (log-linear to 1e-9). */
function monomialOfInputs(values: Float64Array, x: readonly Float64Array[]): boolean {
  const rows = values.length;
  const columns = [new Float64Array(rows).fill(1), ...x.map((c) => strided(c, rows).map(Math.log))];
  const t = values.map(Math.log);
  if (!t.every(Number.isFinite) || !columns.every((c) => c.every(Number.isFinite))) return false;
  const c = leastSquares(columns, t);
  if (!c) return false;
  return nrmseOf(t, combination(columns, c)) <= 1e-9;
}

/** g⁻¹(y), with y clipped below at `clip` where one is given. */
const outerTarget = (g: ReturnType<typeof outerOf>, y: Float64Array, clip: number | undefined) =>
  y.map((v) => g.transform(clip === undefined ? v : Math.max(v, clip)));
