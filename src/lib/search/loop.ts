/**
 * The episode loop of one output: a method's strategy proposes, the fit cache fits, the hall of
 * fame and the stop rules judge, the strategy learns. Shared by every structure-search method.
 * An auto-sized search runs it over growing sizes (growth.ts), sharing the fit cache, the hall
 * of fame and the constraints' evidence; each size gets a fresh space and strategy.
 */
import { InputError } from "../core/index.js";
import { Clock, driveSteps, Interrupted } from "../core/index.js";
import { allowedNeurons, ConstraintGate, type Evidence } from "./constraints.js";
import { createSpace, type Limits } from "./cmp.js";
import { complexityOf, createEvaluator, type Candidate, type Evaluator } from "./evaluator.js";
import type { LocalStructure } from "../local/index.js";
import { sizesOf, STAGE_PATIENCE, type Size } from "./growth.js";
import { frontScoreOf, frontScores, HallOfFame, parametersOf } from "./hallOfFame.js";
import { estimateNoise, type NoiseEstimate } from "./noise.js";
import { columnOf } from "../data/index.js";
import { shapeReward } from "./learner.js";
import { structureSearchRow } from "./methods.js";
import type { SearchSettings, StopReason } from "./settings.js";
import { stopRules } from "./stop.js";
import type { OutputSearchResult, ProposalStrategy, SearchContext, SearchRun } from "./strategy.js";
import type { Product, RewardPlugin } from "../plugins/index.js";
import { Trajectories, type Tally } from "./trajectory.js";
import { PhaseTimer, type Phase } from "./phases.js";
import {
  CHEAP_FACTORS,
  cheapProposalsSteps,
  ratioScreenSteps,
  parametersOfProducts,
  ScreenCache,
  warmStart,
  type LinearInput,
  type LinearProposal,
} from "./linear/proposer.js";
import type { Steps } from "../core/index.js";
import type { ArgminSolver } from "./argmin.js";
import {
  compareFactors,
  evaluateEquation,
  monomialText,
  OUTER_NAMES,
  outerOf,
  type Equation,
  type Factor,
  type OuterName,
  type Term,
} from "../equation/index.js";
import { monomialColumns, screenMonomialSteps, type MonomialChoice } from "./monomialScreen.js";
import { powerOf } from "./linear/monomial.js";
import { nrmse as nrmseOf } from "../numeric/index.js";

/** Creates what every strategy shares at one size. */
function createRun(
  ctx: SearchContext,
  settings: SearchSettings,
  evaluator: Evaluator,
  evidence: Evidence[],
  widening: boolean,
  screens: ScreenCache,
): SearchRun {
  const space = createSpace(
    ctx.data.inputs,
    ctx.pool,
    settings.terms,
    settings.encoding,
    allowedNeurons(ctx.data, ctx.pool, ctx.symbols),
  );
  const limits: Limits = { maxFactors: settings.maxFactors, maxTerms: settings.terms, pearson: settings.pearson };
  const gate = new ConstraintGate(ctx.constraints, space, limits, evidence);
  const nets = { r: ctx.rng.fork(), q: ctx.rng.fork() };
  const trajectories = new Trajectories(space, limits, gate, ctx.rng, ctx.target, settings.explore);
  return {
    ctx,
    settings,
    space,
    limits,
    gate,
    evaluator,
    trajectories,
    rng: ctx.rng,
    nets,
    screened: 0,
    widening,
    screens,
  };
}

/**
 * The strategy's next proposal fitted through the cache, a repeat redrawn (up to 20 times) when
 * avoidRepeats; undefined when the strategy has nothing left.
 */
async function fitNext(
  strategy: ProposalStrategy,
  evaluator: Evaluator,
  keep: readonly Product[],
  avoidRepeats: boolean,
  timer: PhaseTimer,
  clock: Clock,
) {
  let trajectory = timer.time("proposals", () => strategy.propose(keep));
  if (!trajectory) return undefined;
  const evaluate = () => fitDriven(evaluator, trajectory!.structure, timer, clock);
  let fitted = await evaluate();
  for (let attempt = 0; avoidRepeats && strategy.redraw && fitted.cached && attempt < 20; attempt++) {
    trajectory = timer.time("proposals", () => strategy.redraw!(attempt, keep));
    fitted = await evaluate();
  }
  return { trajectory, ...fitted };
}

/** A structure fitted through the cache on the event loop: a long fit (a million rows) lets a stop through. */
function fitDriven(evaluator: Evaluator, structure: LocalStructure, timer: PhaseTimer, clock: Clock) {
  return driveSteps(timedSteps(evaluator.evaluateSteps(structure), timer, "fits"), clock);
}

/**
 * Steps counted to `phase` from their first step to their end, the pauses between them included
 * (the loop only waits there: nothing else is timed meanwhile, and a clock read per step would
 * cost more than the pauses).
 */
function* timedSteps<T>(steps: Steps<T>, timer: PhaseTimer, phase: Phase): Steps<T> {
  const end = timer.begin(phase);
  try {
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      yield;
    }
  } finally {
    end();
  }
}

/** The LP argmin, its time counted to the "argmin" phase. */
function timedArgmin(argmin: ArgminSolver, timer: PhaseTimer): ArgminSolver {
  return {
    lp: (net, state, c) => timer.time("argmin", () => argmin.lp(net, state, c)),
    memoryBytes: () => argmin.memoryBytes(),
  };
}

/**
 * A fit "reaches" the noise floor at this many times the estimate: 1 + 2/√rows, within [1.05, 1.25]
 * (1.09 at 500 rows). An exact law scores about the noise's NRMSE, and the estimate, a residual
 * variance, is off by about 1/√(2·rows) of it (3 % at 500 rows; on the noise benchmark the exact
 * law's NRMSE was at most 1.013 times the estimate in 99 % of the runs at 20 and 40 dB), so the
 * reach is about three such errors. A looser reach (1.25 before) let approximations 10–20 % above
 * the noise, such as √χ·e^(0.08·χ) for 1 + χ, end the search.
 */
export const floorReach = (rows: number): number => Math.min(1.25, Math.max(1.05, 1 + 2 / Math.sqrt(rows)));

/**
 * Under a noise floor, new structures in a row without a 1 % better NRMSE after which the last
 * size stops ("exhausted") although the floor was not reached.
 */
export const PLATEAU_PATIENCE = 50;

/** Lets Ctrl-C and a page's cancel through once per episode. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

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

function baselineCandidate(ctx: SearchContext, settings: SearchSettings): Candidate | undefined {
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

/**
 * Below this NRMSE, a linear fit of the cheap first screen is exact: its residual then stands
 * for the noise estimate (noise at most that), and the data count as noiseless.
 */
const EXACT_SCREEN = 1e-6;
/**
 * At or below this NRMSE a sum fits an outer function's g⁻¹(y) exactly (float64 rounding, 1e-15 on
 * the laws measured): far below EXACT_SCREEN, which a six-term sum can reach on a smooth y² or 1/y
 * of a narrow range without being its law (x1 + 2·log x1 + 2.2: a six-term y² under 1e-6, not 1e-10).
 */
const OUTER_EXACT = 1e-10;
/** Inputs at most for the three-factor screens and the monomial screen (docs/design.md#monomial). */
const FORM_INPUTS = 4;
/** Factors per product of an outer function's second screen. */
const OUTER_FACTORS = 3;

/**
 * Where a growing search starts (Speed I: the cheap questions first): the cheap first screen's
 * best proposal that reaches `reach` (the stop rule noiseless: the fewest products, then the
 * lowest NRMSE; the noise floor: the lowest score, hallOfFame.ts), and the first size that
 * holds it. The search skips the sizes before it and fits that proposal first.
 */
function cheapStart(
  proposals: readonly LinearProposal[],
  sizes: readonly Size[],
  reach: number,
  score: ((p: LinearProposal) => number) | undefined,
): { products: number[][]; warm?: Map<number, number>; stage: number } | undefined {
  const hits = proposals.filter((p) => p.expected <= reach);
  if (hits.length === 0) return undefined;
  const rank = score ?? ((p: LinearProposal) => p.products.length + p.expected);
  const chosen = hits.reduce((best, p) => (rank(p) < rank(best) ? p : best));
  const factors = Math.max(...chosen.products.map((p) => p.length));
  const stage = sizes.findIndex((s) => s.terms >= chosen.products.length && s.maxFactors >= factors);
  return stage < 0 ? undefined : { products: chosen.products, warm: warmStart(chosen), stage };
}

/** The first screen's input for a target vector: the data's inputs, the pool, the widest size. */
function firstScreenInput(
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

/** A form beyond one sum of products that the first screens found for y (docs/design.md#outer, #ratio, #monomial). */
type Form =
  | { kind: "outer"; name: OuterName }
  | { kind: "ratio"; denominator: Term[] }
  | { kind: "monomial"; choice: MonomialChoice };

/**
 * The form of y the cheap screens find, where the first screen's cheap part (log-space products,
 * sums of singles and pairs) fits y itself neither exactly nor to ten times its noise estimate;
 * undefined: none. In order: an outer function whose g⁻¹(y) a short sum fits exactly
 * (OUTER_EXACT), a ratio whose exact linear relation y·Q = P the ratio screen finds (ratio.ts),
 * a monomial argument y is a function of (monomialScreen.ts).
 */
async function screenForms(
  ctx: SearchContext,
  settings: SearchSettings,
  sizes: readonly Size[],
  clock: Clock,
  timer: PhaseTimer,
  cache: ScreenCache,
  estimate: () => NoiseEstimate,
): Promise<Form | undefined> {
  const y = columnOf(ctx.data, ctx.target);
  const screen = async (target: Float64Array, tag: string, factors = CHEAP_FACTORS) => {
    const input = firstScreenInput(ctx, settings, sizes, target, cache);
    const steps = cheapProposalsSteps({ ...input, tag, quick: true, factors });
    const { proposals } = await driveSteps(timedSteps(steps, timer, "screening"), clock);
    return Math.min(...proposals.map((p) => p.expected));
  };
  // y itself first: a short exact sum, or one to the noise, needs no other form.
  const plain = await screen(y, "y");
  if (plain <= EXACT_SCREEN) return undefined;
  if (plain <= 10 * estimate().nrmse) return undefined;
  const targets: [OuterName, Float64Array][] = [];
  if (settings.outer) {
    // The first outer function whose g⁻¹(y) a short sum fits exactly (tried simplest first).
    for (const name of [...OUTER_NAMES, ...ctx.symbols.outers]) {
      const g = outerOf(name);
      if (!g.fits(y)) continue;
      const transformed = y.map(g.transform);
      if (transformed.every(Number.isFinite)) targets.push([name, transformed]);
    }
    for (const [name, transformed] of targets)
      if ((await screen(transformed, `outer:${name}`)) <= OUTER_EXACT) return { kind: "outer", name };
  }
  // Products of three factors (y² = a·b·c + 4; y⁻² = a⁻² − a⁻²·b²·c⁻²), where the search's sizes
  // hold them: a larger library, asked only where no pair sum fitted y or any g⁻¹(y); y first, so
  // that y = 1.5·a·b·c + 2·c² stays a sum (its y² is a sum of three-factor products too).
  const widest = Math.max(...sizes.map((s) => s.maxFactors));
  // Both the three-factor library and the monomial candidates grow as the cube of the inputs (a
  // flow's nine inputs: 40 s of screens before a search of 0.1 s; five inputs, feynman-I.12.11:
  // 5 s of search CPU more, measured): up to FORM_INPUTS.
  const narrow = ctx.data.inputs.length <= FORM_INPUTS;
  if (widest >= OUTER_FACTORS && narrow) {
    if ((await screen(y, "y", OUTER_FACTORS)) <= EXACT_SCREEN) return undefined;
    if (settings.outer)
      for (const [name, transformed] of targets)
        if ((await screen(transformed, `outer:${name}`, OUTER_FACTORS)) <= OUTER_EXACT) return { kind: "outer", name };
  }
  if (ctx.within !== undefined) return undefined;
  if (settings.ratio) {
    const steps = ratioScreenSteps(firstScreenInput(ctx, settings, sizes, y, cache));
    const proposal = await driveSteps(timedSteps(steps, timer, "screening"), clock);
    if (proposal) {
      const terms = proposal.denominator.map(
        (p): Term => ({
          coefficient: p.coefficient,
          factors: p.neurons.map((n, k) => {
            const symbol = ctx.pool[n % ctx.pool.length]!;
            const input = ctx.data.inputs[Math.floor(n / ctx.pool.length)]!;
            return ctx.symbols.get(symbol).innerWeight ? { symbol, input, weight: p.weights[k]! } : { symbol, input };
          }),
        }),
      );
      return { kind: "ratio", denominator: normalised(terms) };
    }
  }
  if (settings.monomial && narrow) {
    const steps = screenMonomialSteps(ctx.data.inputs, ctx.data.x, y, estimate().nrmse);
    const choice = await driveSteps(timedSteps(steps, timer, "screening"), clock);
    if (choice && !choice.monomials.some((parts) => ctx.data.inputs.includes(monomialText(parts))))
      return { kind: "monomial", choice };
  }
  return undefined;
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
  const onY = (c: Candidate): Candidate => {
    const equation = map(c.equation);
    const predicted = evaluateEquation(equation, (s) => ctx.symbols.get(s), columns, ctx.data.rows);
    const nrmse = nrmseOf(y, predicted);
    return {
      ...c,
      equation,
      nrmse: Number.isFinite(nrmse) ? nrmse : Number.POSITIVE_INFINITY,
      complexity: c.complexity + cost(c.equation),
      ...(c.plain ? { plain: onY(c.plain) } : {}),
    };
  };
  return {
    ...inner,
    best: inner.best && onY(inner.best),
    front: inner.front.map(onY),
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
async function outerSearch(ctx: SearchContext, settings: SearchSettings, name: OuterName): Promise<OutputSearchResult> {
  const g = outerOf(name);
  const data = withTarget(ctx, columnOf(ctx.data, ctx.target).map(g.transform));
  const inner = await searchOutput({ ...ctx, data, outer: name }, settings);
  return answerOnY(
    ctx,
    inner,
    (e) => ({ ...e, outer: name }),
    () => g.cost,
    "of the transformed target",
  );
}

/**
 * The search on y·Q(x) for the denominator Q the ratio screen proposed, answered as P/Q on y's
 * scale; a ratio costs its denominator's terms and 1 for the division (docs/design.md#ratio).
 */
async function ratioSearch(ctx: SearchContext, settings: SearchSettings, denominator: Term[]) {
  const columns = (input: string) => ctx.data.x[ctx.data.inputs.indexOf(input)]!;
  const q = evaluateEquation(
    { target: ctx.target, terms: denominator },
    (s) => ctx.symbols.get(s),
    columns,
    ctx.data.rows,
  );
  const y = columnOf(ctx.data, ctx.target);
  const data = withTarget(
    ctx,
    y.map((v, r) => v * q[r]!),
  );
  const inner = await searchOutput({ ...ctx, data, within: "ratio" }, settings);
  const cost = 1 + complexityOf({ target: ctx.target, terms: denominator }, ctx.symbols);
  return answerOnY(
    ctx,
    inner,
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
async function monomialSearch(ctx: SearchContext, settings: SearchSettings, choice: MonomialChoice) {
  const named = choice.monomials.map((parts) => ({ name: monomialText(parts), parts }));
  const { inputs, x } = monomialColumns(ctx.data.inputs, ctx.data.x, choice);
  const data = { ...ctx.data, inputs, x };
  const inner = await searchOutput({ ...ctx, data, within: "monomial" }, settings);
  const lookup = (name: string) => ctx.symbols.get(name);
  /** p where the symbol is x^p with no inner weight of its own (one folded to 1 counts: sqrt). */
  const plainPower = (name: string) => {
    const symbol = lookup(name);
    return symbol.innerWeight && !symbol.fold ? undefined : powerOf(symbol);
  };
  const powerSymbols = new Map<number, string>();
  for (const name of ctx.pool) {
    const p = plainPower(name);
    if (p !== undefined && !powerSymbols.has(p)) powerSymbols.set(p, name);
  }
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
  // Written-out factors take the canonical order (by input, then symbol) the search gives them elsewhere.
  const order = { inputOrder: ctx.data.inputs, symbolOrder: ctx.pool };
  const rewrite = (terms: readonly Term[]) =>
    terms.map((t) => ({ ...t, factors: t.factors.flatMap(written).sort((f, g) => compareFactors(f, g, order)) }));
  const map = (e: Equation): Equation => ({
    ...e,
    terms: rewrite(e.terms),
    ...(e.denominator ? { denominator: rewrite(e.denominator) } : {}),
  });
  // What the written equation costs beyond the inner one's.
  const cost = (e: Equation) => complexityOf(map(e), ctx.symbols) - complexityOf(e, ctx.symbols);
  return answerOnY(ctx, inner, map, cost, undefined);
}

export async function searchOutput(outer: SearchContext, settings: SearchSettings): Promise<OutputSearchResult> {
  const method = structureSearchRow(settings.method);
  /** Where the time goes (phases.ts): for the speed benchmark, never in the JSON. */
  const timer = new PhaseTimer();
  const endLoop = timer.begin("loop");
  const ctx: SearchContext = { ...outer, argmin: timedArgmin(outer.argmin, timer) };
  const clock = ctx.clock ?? new Clock(0, ctx.signal);
  /** A time-limited run replayed (reproduce): its completed episodes of this target, and no clock of its own. */
  const replay = settings.replay?.[ctx.target];
  const evaluator = createEvaluator(ctx.data, ctx.target, ctx.symbols, ctx.reward, settings.fit, settings.constant);
  const evidence: Evidence[] = [];
  const hall = new HallOfFame(ctx.data.rows);
  const shape = shapeReward(settings.shaping, ctx.reward.range);
  const sizes = sizesOf(settings);
  /** The linear-algebra screens' libraries and selections, shared by the first screen and the sizes. */
  const screens = new ScreenCache();
  let interrupted = false;
  let stopReason: StopReason = "episodes";
  /** A plugin failure that stopped the search (the best found before it is kept). */
  let error: InputError | undefined;
  /** Stops the search before its sizes on a stop from outside or a plugin failure; rethrows the rest. */
  const stopEarly = (cause: unknown) => {
    if (cause instanceof Interrupted) interrupt(cause.reason);
    else if (cause instanceof InputError) {
      error = cause;
      stopReason = "error";
    } else throw cause;
  };
  const interrupt = (reason: StopReason) => {
    stopReason = reason;
    interrupted = true;
  };
  /** The noise estimate of y (noise.ts), made once where it is asked. */
  let estimated: NoiseEstimate | undefined;
  const estimate = () =>
    (estimated ??= timer.time("preparation", () => estimateNoise(ctx.data.x, columnOf(ctx.data, ctx.target))));
  const cheapFirst =
    sizes.length > 1 && method.cheapFirst && (settings.proposal === "linear" || settings.proposal === "wide");
  // An outer function (equation/outer.ts): where no short sum fits y to its noise but one fits
  // g⁻¹(y) exactly for an outer g, the search runs on g⁻¹(y) and answers y = g(L). Asked before the
  // first screen's costly part (product pursuit), which a y that is no sum would spend in vain.
  const forms =
    ctx.within !== "none" &&
    ((settings.outer && ctx.within !== "ratio") || (ctx.within === undefined && (settings.ratio || settings.monomial)));
  if (replay !== 0 && ctx.outer === undefined && forms && cheapFirst) {
    let chosen: Form | undefined;
    try {
      chosen = await screenForms(ctx, settings, sizes, clock, timer, screens, estimate);
    } catch (cause) {
      stopEarly(cause);
    }
    if (chosen !== undefined && !interrupted && !error) {
      endLoop();
      const found =
        chosen.kind === "outer"
          ? await outerSearch(ctx, settings, chosen.name)
          : chosen.kind === "ratio"
            ? await ratioSearch(ctx, settings, chosen.denominator)
            : await monomialSearch(ctx, settings, chosen.choice);
      // A form whose search did not end on an exact fit (nor on the clock, a stop from outside or
      // an error) gives way to the search of y itself, and the better of the two answers.
      if (["reward-threshold", "time-limit", "aborted", "error"].includes(found.stopReason)) return found;
      const plain = await searchOutput({ ...ctx, within: "none" }, settings);
      return plain.best && (!found.best || plain.best.nrmse < found.best.nrmse) ? plain : found;
    }
  }
  // The cheap first screen (a growing size, a method that asks it): its proposals, before any size.
  let cheapProposals: LinearProposal[] = [];
  let cheapColumns = 0;
  if (replay === 0) interrupt("time-limit");
  else if (!interrupted && !error && cheapFirst) {
    try {
      const steps = cheapProposalsSteps(
        firstScreenInput(ctx, settings, sizes, columnOf(ctx.data, ctx.target), screens),
      );
      ({ proposals: cheapProposals, columns: cheapColumns } = await driveSteps(
        timedSteps(steps, timer, "screening"),
        clock,
      ));
    } catch (cause) {
      stopEarly(cause);
    }
  }
  const prepare = async (s: ProposalStrategy, need: "promise" | "propose") => {
    if (s.prepare) await driveSteps(timedSteps(s.prepare(need), timer, "screening"), clock);
  };
  // The noise floor: what NRMSE noise alone leaves, estimated from the data (noise.ts); where a
  // first screen fitted the data exactly, its residual (noise is at most that). Below the NRMSE
  // stop rule (1e-6 by default) the data count as noiseless and that rule alone applies.
  const exact = cheapProposals
    .filter((p) => p.expected <= EXACT_SCREEN)
    .reduce<LinearProposal | undefined>(
      (m, p) =>
        m &&
        (m.products.length < p.products.length || (m.products.length === p.products.length && m.expected <= p.expected))
          ? m
          : p,
      undefined,
    );
  let exactScreen: NoiseEstimate | undefined = exact && {
    nrmse: exact.expected,
    method: `residual of an exact linear fit (${exact.products.length} terms, the first screen)`,
  };
  /** A search of one size (given by the flags) screens that size first: its run and strategy, made early. */
  let early: { run: SearchRun; strategy: ProposalStrategy } | undefined;
  if (
    !interrupted &&
    !error &&
    sizes.length === 1 &&
    method.cheapFirst &&
    (settings.proposal === "linear" || settings.proposal === "wide")
  ) {
    const run = createRun(ctx, { ...settings, ...sizes[0]! }, evaluator, evidence, false, screens);
    early = { run, strategy: method.strategy(run) };
    try {
      await prepare(early.strategy, "promise");
      const promised = early.strategy.promise?.();
      if (promised !== undefined && promised <= EXACT_SCREEN)
        exactScreen = { nrmse: promised, method: "residual of an exact linear fit (the size's screen)" };
    } catch (cause) {
      stopEarly(cause);
    }
  }
  const noise: NoiseEstimate = exactScreen ?? estimate();
  const floor = settings.noiseFloor && noise.nrmse > settings.stopNrmse ? noise.nrmse : undefined;
  /** The cheap first screen's start (cheapStart): skipped sizes, a proposal fitted first. */
  const lookup = (name: string) => ctx.symbols.get(name);
  const cheap = cheapStart(
    cheapProposals,
    sizes,
    floor === undefined ? settings.stopNrmse : floorReach(ctx.data.rows) * floor,
    floor === undefined
      ? undefined
      : (p) => frontScoreOf(p.expected, parametersOfProducts(p.products, ctx.pool, lookup), ctx.data.rows),
  );
  /** The part of an NRMSE that noise does not explain (all of it without a floor): what a wider size must halve. */
  const excess = (nrmse: number) => (floor === undefined ? nrmse : Math.sqrt(Math.max(0, nrmse ** 2 - floor ** 2)));
  /**
   * Set once the best fit reached the noise floor: from then on a stall ends the size, and a wider
   * size is entered only where it promises a better score (below).
   */
  let floorReached = false;
  /** The answer's score when the search entered its last size past the noise floor. */
  let pastFloorScore: number | undefined;
  const rewards: number[] = [];
  const counts: Tally = { greedy: 0, random: 0, rejected: 0 };
  let best: Candidate | undefined;
  let episode = 0;
  const runs: SearchRun[] = [];
  let reached: Size = sizes[0]!;
  let strategy: ProposalStrategy | undefined;
  // (A replay's clock has no time limit: search() gives it none.)
  const expired = () => clock.expired();
  /** What the result reports of a run stopped from outside: the state after its last completed episode. */
  let mark = { reached, screened: 0 };
  const screenedSoFar = () => runs.reduce((sum, run) => sum + run.screened, cheapColumns);
  if (!interrupted && !error)
    stages: for (const [stage, size] of sizes.entries()) {
      // The sizes before the cheap first screen's start are skipped (cheapStart).
      if (cheap && stage < cheap.stage) continue;
      const last = stage === sizes.length - 1;
      const run =
        early && stage === 0
          ? early.run
          : createRun(ctx, { ...settings, ...size }, evaluator, evidence, !last, screens);
      runs.push(run);
      const rules = stopRules(method.threshold, settings);
      strategy = early && stage === 0 ? early.strategy : method.strategy(run);
      reached = size;
      try {
        // A size whose screening promises no real gain over the best so far is passed over.
        if (floorReached) {
          // Past the noise floor a wider size is worth its fits only where it promises a better
          // score than the answer so far, and only while the sizes visited past it improved the
          // answer (screening scores overfit the noise a little: a promise alone is not enough).
          const answer = hall.chooseByScore()!;
          const score = frontScoreOf(answer.nrmse, parametersOf(answer.equation), ctx.data.rows);
          const improved = pastFloorScore === undefined || score < pastFloorScore;
          pastFloorScore = score;
          if (improved && strategy.promisedScore) await prepare(strategy, "promise");
          if (!improved || !strategy.promisedScore || !(strategy.promisedScore(ctx.data.rows) < score)) {
            stopReason = "noise-floor";
            break;
          }
        } else if (!last && best && strategy.promise) {
          await prepare(strategy, "promise");
          if (!(excess(strategy.promise()) < 0.5 * excess(best.nrmse))) continue;
        }
      } catch (cause) {
        if (!(cause instanceof Interrupted)) throw cause;
        interrupt(cause.reason);
        break;
      }
      let stalled = 0;
      /** The cheap first screen's proposal, fitted first at its size. */
      let inject = cheap && stage === cheap.stage ? cheap.products : undefined;
      while (episode < settings.episodes) {
        episode++;
        await nextTick();
        const why = expired();
        if (why) {
          episode--;
          interrupt(why);
          break stages;
        }
        try {
          // The cheap start's proposal first (where the constraints accept it), before any screening.
          const first = inject && timer.time("proposals", () => run.trajectories.fromProducts(inject!));
          inject = undefined;
          if (first) evaluator.hint(first.structure, cheap!.warm);
          if (!first) await prepare(strategy, "propose");
          // (The products the dynamic constraint keeps change only between episodes.)
          const fitted = first
            ? { trajectory: first, ...(await fitDriven(evaluator, first.structure, timer, clock)) }
            : await fitNext(strategy, evaluator, run.gate.kept(), settings.avoidRepeats, timer, clock);
          if (!fitted) {
            episode--;
            if (!last) break;
            if (floorReached) {
              stopReason = "noise-floor";
              break stages;
            }
            stopReason = "exhausted";
            break stages;
          }
          const { trajectory, candidate, cached } = fitted;
          for (const key of ["greedy", "random", "rejected"] as const) counts[key] += trajectory.tally[key];
          hall.add(candidate);
          if (!cached) {
            run.gate.record(candidate);
            run.trajectories.record(trajectory, candidate.nrmse);
            stalled = best && !(candidate.nrmse < 0.99 * best.nrmse) ? stalled + 1 : 0;
          }
          if (
            !best ||
            candidate.nrmse < best.nrmse ||
            (candidate.nrmse === best.nrmse && candidate.complexity < best.complexity)
          )
            best = candidate;
          const reward = shape(candidate.reward);
          rewards.push(candidate.reward);
          const stop = rules.find((rule) => rule.check({ candidate, reward, cached, structures: evaluator.size }));
          floorReached ||= floor !== undefined && best.nrmse <= floorReach(ctx.data.rows) * floor;
          /** What this episode ends: the search (with its stop reason), its size, or nothing. */
          const verdict = ((): { search: StopReason; replayed?: true } | "size" | undefined => {
            if (stop && (last || stop.reason !== "exhausted"))
              return { search: floorReached && stop.reason === "exhausted" ? "noise-floor" : stop.reason };
            // At the noise floor, a stall or a used-up size ends the size; the last size ends the
            // search (a wider one is visited only where it promises a better score: above).
            if (floorReached && (stop || stalled >= STAGE_PATIENCE)) return last ? { search: "noise-floor" } : "size";
            // A replay stops where the time limit stopped the original: after the same episode.
            if (replay !== undefined && rewards.length >= replay) return { search: "time-limit", replayed: true };
            // Under noise, the last size ends on a long plateau even short of the floor: more
            // structures there have stopped paying (the noiseless search runs on to its episodes).
            if (last && floor !== undefined && stalled >= PLATEAU_PATIENCE) return { search: "exhausted" };
            // A used-up or stalled size widens (the last size runs to a stop rule).
            if (!last && (stop || stalled >= STAGE_PATIENCE)) return "size";
            return undefined;
          })();
          // Learning from the episode that ends the search changes nothing: it is skipped.
          if (typeof verdict !== "object" && episode < settings.episodes)
            timer.time("icnn", () => strategy!.observe?.({ episode, trajectory, candidate, cached, reward }));
          const episodeStrategy = strategy;
          ctx.onEpisode?.({
            target: ctx.target,
            episode,
            reward: candidate.reward,
            structures: evaluator.size,
            best,
            candidate,
            cached,
            ...trajectory.tally,
            // Read when a listener asks (the strategy makes its nets on first use).
            get nets() {
              return episodeStrategy.nets;
            },
          });
          mark = { reached, screened: screenedSoFar() };
          if (typeof verdict === "object") {
            if (verdict.replayed) interrupt(verdict.search);
            else stopReason = verdict.search;
            break stages;
          }
          if (verdict === "size") break;
        } catch (cause) {
          if (cause instanceof Interrupted) {
            episode--;
            interrupt(cause.reason);
            break stages;
          }
          if (!(cause instanceof InputError)) throw cause;
          error = cause;
          stopReason = "error";
          break stages;
        }
      }
      if (episode >= settings.episodes) break;
    }
  // Under noise, a search that ended by itself fits its answer's sub-structures (a term dropped)
  // before it chooses: the episodes add terms, and an answer with one term fitted to the noise
  // (a spike at one row, a trace of a higher power) may never have met the same sum without it,
  // which its score would prefer. Repeated while the answer shrinks. A handful of fits, run
  // whatever the clock says (a time-limited run and its replay both skip it, so they agree);
  // an abort stops it.
  if (floor !== undefined && !interrupted && !error && method.answer !== "best" && runs.length > 0) {
    const trajectories = runs[runs.length - 1]!.trajectories;
    let answer = hall.chooseByScore();
    const seen = new Set<string>();
    // Driven on a clock without the time limit: only an abort stops these fits.
    const abortOnly = new Clock(0, ctx.signal);
    prune: while (answer && answer.structure.products.length > 1 && !seen.has(answer.key)) {
      seen.add(answer.key);
      const products = answer.structure.products;
      for (let j = 0; j < products.length; j++) {
        if (clock.expired() === "aborted") {
          interrupt("aborted");
          break prune;
        }
        const sub = trajectories.fromProducts(products.filter((_, k) => k !== j));
        if (!sub) continue;
        try {
          hall.add((await fitDriven(evaluator, sub.structure, timer, abortOnly)).candidate);
        } catch (cause) {
          if (cause instanceof Interrupted) {
            interrupt(cause.reason);
            break prune;
          }
          if (!(cause instanceof InputError)) throw cause;
          error = cause;
          stopReason = "error";
          break prune;
        }
      }
      answer = hall.chooseByScore();
    }
  }
  if (interrupted) reached = mark.reached;
  const screened = interrupted ? mark.screened : screenedSoFar();
  const chosen =
    method.answer === "best" ? best : ((floor !== undefined ? hall.chooseByScore() : hall.choose()) ?? best);
  // Under noise the front is the score's (the answer is its member); noiseless, the NRMSE's.
  const front = floor !== undefined ? hall.scoreFront() : hall.front();
  // Stopped before its first fit, a search answers with the baseline (fitted only then: it is the
  // same answer whenever it is fitted).
  const answer = chosen ?? timer.time("preparation", () => baselineCandidate(ctx, settings));
  endLoop();
  const finalStrategy = strategy;
  return {
    target: ctx.target,
    best: answer,
    front,
    scores: frontScores(front, ctx.data.rows, floor !== undefined),
    noise,
    floor,
    reach: floor === undefined ? undefined : floorReach(ctx.data.rows) * floor,
    episodes: rewards.length,
    structures: evaluator.size,
    stopReason,
    error,
    rewards,
    actions: counts,
    fitSeconds: evaluator.seconds,
    screened,
    size: reached,
    // Read when asked (the strategy makes its nets on first use).
    get nets() {
      return finalStrategy?.nets;
    },
    phases: timer.seconds(),
  };
}
