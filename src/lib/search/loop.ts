/**
 * One output's search, as a list of named phases over one state object (OutputSearch): the
 * forms' screens (forms.ts), the cheap first screen (firstScreen.ts), the noise floor, the sizes'
 * episode loops, the answer's pruning under noise, the answer. In an episode a method's strategy
 * proposes, the fit cache fits, the hall of fame and the stop rules judge, the strategy learns.
 * Shared by every structure-search method. An auto-sized search runs its episodes over growing
 * sizes (growth.ts), sharing the fit cache, the hall of fame and the constraints' evidence; each
 * size gets a fresh space and strategy.
 */
import { Clock, driveSteps, InputError, Interrupted } from "../core/index.js";
import { columnOf } from "../data/index.js";
import type { LocalStructure } from "../local/index.js";
import type { Product } from "../plugins/index.js";
import { baselineCandidate } from "./baseline.js";
import { createSpace, type Limits } from "./cmp.js";
import { allowedNeurons, ConstraintGate, type Evidence } from "./constraints.js";
import { createEvaluator, type Candidate, type Evaluator } from "./evaluator.js";
import {
  cheapStart,
  type CheapStart,
  EXACT_SCREEN,
  exactFirstScreen,
  firstScreenInput,
  nrmseOnY,
} from "./firstScreen.js";
import { type Form, proposalColumns, screenForms, searchWithForm, SHORT_AT_FLOOR } from "./forms.js";
import { sizesOf, STAGE_PATIENCE, type Size } from "./growth.js";
import { AMBIGUOUS_GAP, frontScoreOf, frontScores, HallOfFame, parametersOf } from "./hallOfFame.js";
import { shapeReward } from "./learner.js";
import {
  cheapProposalsSteps,
  parametersOfProducts,
  type LinearProposal,
  ScreenCache,
  strided,
  warmStart,
} from "./linear/proposer.js";
import { structureSearchRow, type StructureSearchRow } from "./methods.js";
import { estimateNoise, floorReach, type NoiseEstimate, splitLevel } from "./noise.js";
import { PhaseTimer, timedArgmin, timedSteps } from "./phases.js";
import { POLY_ROWS, polynomialDegree } from "./linear/polynomial.js";
import {
  basicRelations,
  identityText,
  polynomialStartSteps,
  type PolynomialStart,
  splitStatisticOf,
  unwritableSteps,
} from "./polynomialQuestion.js";
import type { SearchSettings, StopReason } from "./settings.js";
import { type StopRule, stopRules } from "./stop.js";
import type { OutputSearchResult, ProposalStrategy, SearchContext, SearchRun } from "./strategy.js";
import { Trajectories, type Tally, type Trajectory } from "./trajectory.js";

export { floorReach };

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
 * Under a noise floor, new structures in a row without a 1 % better NRMSE after which the last
 * size stops ("exhausted") although the floor was not reached.
 */
export const PLATEAU_PATIENCE = 50;

/** Lets Ctrl-C and a page's cancel through once per episode. */
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** How one output's search stands: still going, stopped from outside, or ended by a plugin failure. */
class SearchStatus {
  reason: StopReason = "episodes";
  /** Stopped from outside (an abort, the time limit, a replay's end): the state after the last whole episode counts. */
  interrupted = false;
  /** A plugin failure that stopped the search (the best found before it is kept). */
  error: InputError | undefined;

  get going(): boolean {
    return !this.interrupted && !this.error;
  }

  interrupt(reason: StopReason): void {
    this.reason = reason;
    this.interrupted = true;
  }

  fail(error: InputError): void {
    this.error = error;
    this.reason = "error";
  }

  /** Ends the search on a stop from outside or a plugin failure; rethrows anything else. */
  stopOn(cause: unknown): void {
    if (cause instanceof Interrupted) this.interrupt(cause.reason);
    else if (cause instanceof InputError) this.fail(cause);
    else throw cause;
  }
}

/** What the phases of one output's search share. */
interface OutputSearch {
  readonly ctx: SearchContext;
  readonly settings: SearchSettings;
  readonly method: StructureSearchRow;
  /** Where the time goes (phases.ts): for the speed benchmark, never in the JSON. */
  readonly timer: PhaseTimer;
  /** Ends the "loop" phase opened at the start. */
  readonly endLoop: () => void;
  readonly clock: Clock;
  /** A time-limited run replayed (reproduce): its completed episodes of this target, and no clock of its own. */
  readonly replay: number | undefined;
  readonly evaluator: Evaluator;
  readonly evidence: Evidence[];
  readonly hall: HallOfFame;
  readonly shape: (reward: number) => number;
  /** The sizes the search visits (the polynomial question may add one that holds its answer). */
  sizes: readonly Size[];
  /** The polynomial question's answer (polynomialQuestion.ts), where it gave one. */
  polynomial?: PolynomialStart;
  /**
   * Under noise, a screen's answer that reaches the noise floor (the polynomial question's, or the
   * forms screen's for a reformulated target: ctx.start): the costly screens are skipped, the
   * answer is fitted first and its rivals after it, then the search ends where it holds the floor.
   */
  atFloor?: LinearProposal;
  /** Whether the search started from the forms screen's answer (ctx.start). */
  readonly started: boolean;
  /** The monomials of an exact polynomial of y the pool cannot write (unwritableSteps). */
  unwritable?: string[];
  /** The first screen's best proposals, fitted after the polynomial answer where it reached the floor. */
  rivals?: LinearProposal[];
  /** The bests whose neighbours (one factor's symbol swapped) were queued. */
  neighboured: Set<string>;
  /** The linear-algebra screens' libraries and selections, shared by the first screen and the sizes. */
  readonly screens: ScreenCache;
  /** The noise estimate of y (noise.ts), made once where it is asked. */
  readonly estimate: () => NoiseEstimate;
  /** Whether the method screens linearly before it fits (the first screen, a size's screen first). */
  readonly linear: boolean;
  readonly status: SearchStatus;
  /** The cheap first screen's proposals and the library columns it screened. */
  first: { proposals: LinearProposal[]; columns: number };
  /** A search of one size (given by the flags) screens that size first: its run and strategy, made early. */
  early?: { run: SearchRun; strategy: ProposalStrategy };
  /** The residual of an exact linear fit, which stands for the noise estimate where there is one. */
  exactScreen?: NoiseEstimate;
  noise?: NoiseEstimate;
  /** The noise floor the search stops at (undefined: noiseless, or the noise floor turned off). */
  floor?: number;
  /** The cheap first screen's start: skipped sizes, a proposal fitted first. */
  cheap?: CheapStart;
  /**
   * Set once the best fit reached the noise floor: from then on a stall ends the size, and a wider
   * size is entered only where it promises a better score (enterSize).
   */
  floorReached: boolean;
  /** The answer's score when the search entered its last size past the noise floor. */
  pastFloorScore?: number;
  rewards: number[];
  counts: Tally;
  best?: Candidate;
  episode: number;
  runs: SearchRun[];
  /** The size the search reached. */
  reached: Size;
  strategy?: ProposalStrategy;
  /** What the result reports of a run stopped from outside: the state after its last completed episode. */
  mark: { reached: Size; screened: number };
}

/** One size's episodes: its run, strategy and stop rules, and what they count. */
interface SizeRun {
  readonly run: SearchRun;
  readonly strategy: ProposalStrategy;
  readonly rules: StopRule[];
  readonly last: boolean;
  /** New structures in a row without a 1 % better NRMSE. */
  stalled: number;
  /** The cheap first screen's proposal, fitted first at its size. */
  inject?: number[][];
  /** Proposals fitted next at that size (the first screen's, where the polynomial question reached the floor). */
  queue?: LinearProposal[];
  /** The best's neighbours not yet fitted (neighboursOf), one every other episode. */
  neighbours?: LinearProposal[];
}

/** An episode's fitted proposal. */
interface Fitted {
  trajectory: Trajectory;
  candidate: Candidate;
  cached: boolean;
}

export async function searchOutput(outer: SearchContext, settings: SearchSettings): Promise<OutputSearchResult> {
  const s = startSearch(outer, settings);
  // Is y a sparse polynomial of the inputs: asked first, since an exact answer ends the screens.
  await askPolynomial(s);
  // An outer function, a ratio or a monomial argument (forms.ts): asked before the first screen's
  // costly part (product pursuit), which a y that is no sum would spend in vain.
  const form = await screenFormsFirst(s);
  if (form !== undefined) {
    s.endLoop();
    const found = await searchWithForm(s.ctx, settings, form, searchOutput);
    // The form's search's phases, and this search's before it (the polynomial question, the forms screen).
    const before = s.timer.seconds();
    // A noisy form's search estimated the noise of the target it searched (y·Q, g⁻¹(y)): the result
    // states y's own, the floor its answer was held to (a ratio at 1 %: 3.6 % of y·Q, 2.2 % of y).
    const own =
      !("reach" in form) || form.reach === undefined
        ? {}
        : { noise: s.estimate(), ...floorOf(s.estimate().nrmse, s.ctx.data.rows) };
    return { ...found, phases: mergedPhases(before, found.phases), ...own };
  }
  await screenFirst(s);
  await screenOnlySize(s);
  setNoiseFloor(s);
  await searchSizes(s);
  await pruneAnswer(s);
  return answerOf(s);
}

/** A noise floor and the stop rule's reach of it on these rows. */
const floorOf = (floor: number, rows: number) => ({ floor, reach: floorReach(rows) * floor });

/** The search's state before its first phase. */
function startSearch(outer: SearchContext, settings: SearchSettings): OutputSearch {
  const method = structureSearchRow(settings.method);
  const timer = new PhaseTimer();
  const endLoop = timer.begin("loop");
  const { start, ...rest } = outer;
  const ctx: SearchContext = { ...rest, argmin: timedArgmin(outer.argmin, timer) };
  const evaluator = createEvaluator(ctx.data, ctx.target, ctx.symbols, ctx.reward, settings.fit, settings.constant);
  const sizes = sizesOf(settings);
  let estimated: NoiseEstimate | undefined;
  const estimate = () =>
    (estimated ??=
      start?.noise ?? timer.time("preparation", () => estimateNoise(ctx.data.x, columnOf(ctx.data, ctx.target))));
  const linear = method.cheapFirst === true && (settings.proposal === "linear" || settings.proposal === "wide");
  return {
    ctx,
    settings,
    method,
    timer,
    endLoop,
    clock: ctx.clock ?? new Clock(0, ctx.signal),
    replay: settings.replay?.[ctx.target],
    evaluator,
    evidence: [],
    hall: new HallOfFame(ctx.data.rows),
    shape: shapeReward(settings.shaping, ctx.reward.range),
    sizes,
    screens: new ScreenCache(),
    estimate,
    linear,
    status: new SearchStatus(),
    first: { proposals: [], columns: 0 },
    neighboured: new Set(),
    floorReached: false,
    rewards: [],
    counts: { greedy: 0, random: 0, rejected: 0 },
    episode: 0,
    runs: [],
    reached: sizes[0]!,
    mark: { reached: sizes[0]!, screened: 0 },
    started: start !== undefined,
    ...(start ? { atFloor: start.proposal } : {}),
  };
}

/** Drives a strategy's preparation (its size's screening) on the clock. */
async function prepare(s: OutputSearch, strategy: ProposalStrategy, need: "promise" | "propose") {
  if (strategy.prepare) await driveSteps(timedSteps(strategy.prepare(need), s.timer, "screening"), s.clock);
}

/** Library columns screened so far: the first screen's and every size's. */
const screenedSoFar = (s: OutputSearch) => s.runs.reduce((sum, run) => sum + run.screened, s.first.columns);

/**
 * Phase 0, the polynomial question (polynomialQuestion.ts), in a growing search that screens: an
 * exact sparse polynomial (the noiseless question) stands for the first screen and ends the forms';
 * under noise (the estimate above the NRMSE stop rule), the best subset by the score joins the
 * first screen's proposals. A size that holds a longer answer is added where the terms grow by
 * themselves.
 */
async function askPolynomial(s: OutputSearch): Promise<void> {
  const { ctx, settings, status } = s;
  // (Not asked where the forms screen's answer for this target starts the search at the floor.)
  if (!settings.polynomial || s.replay === 0 || s.sizes.length <= 1 || !s.linear || ctx.outer !== undefined) return;
  if (s.atFloor) return;
  const widest = Math.max(...s.sizes.map((size) => size.maxFactors));
  const degree = polynomialDegree(ctx.data.inputs.length, ctx.data.rows);
  if (degree > 0)
    ctx.onPhase?.({ target: ctx.target, phase: `asking whether it is a sparse polynomial of degree ≤ ${degree}` });
  const ask = (noisy: boolean) =>
    driveSteps(timedSteps(polynomialStartSteps(ctx, settings, widest, noisy), s.timer, "screening"), s.clock);
  try {
    // The noise estimate only where no exact answer came (an exact one ends the screens without it).
    s.polynomial = await ask(false);
    const noisy = !s.polynomial && s.estimate().nrmse > settings.stopNrmse;
    if (noisy) s.polynomial = await ask(true);
    // Clean, and no sum of the pool's monomials is y: is it one the pool cannot write (u² without x²)?
    else if (!s.polynomial)
      s.unwritable = await driveSteps(timedSteps(unwritableSteps(ctx, settings), s.timer, "screening"), s.clock);
  } catch (cause) {
    status.stopOn(cause);
    return;
  }
  const found = s.polynomial;
  if (!found) return;
  const terms = found.proposal.products.length;
  if (settings.terms === 0 && !s.sizes.some((size) => size.terms >= terms && size.maxFactors >= found.factors))
    s.sizes = [...s.sizes, { terms, maxFactors: widest }];
  if (
    !found.answer.exact &&
    found.stable &&
    found.holds &&
    found.answer.nrmse <= floorReach(ctx.data.rows) * s.estimate().nrmse
  )
    s.atFloor = found.proposal;
  if (found.answer.exact) {
    s.first = { proposals: [found.proposal], columns: found.answer.columns };
    s.exactScreen = {
      nrmse: found.answer.nrmse,
      method: `residual of an exact polynomial fit (${terms} terms, the polynomial question)`,
    };
  }
}

/** Two searches' phase seconds added. */
function mergedPhases(a: OutputSearchResult["phases"], b: OutputSearchResult["phases"]): OutputSearchResult["phases"] {
  return Object.fromEntries(
    Object.entries(a).map(([phase, seconds]) => [phase, seconds + (b[phase as keyof typeof b] ?? 0)]),
  ) as OutputSearchResult["phases"];
}

/**
 * Phase 1, the forms: where no short sum fits y to its noise but a form does (an outer function
 * whose g⁻¹(y) a sum fits exactly, a ratio, a function of a monomial), that form; undefined: none,
 * or a search that asks no form (a growing size, a linear method; not inside a form's own search).
 */
async function screenFormsFirst(s: OutputSearch): Promise<Form | undefined> {
  const { ctx, settings } = s;
  const forms =
    ctx.within !== "none" &&
    ((settings.outer && ctx.within !== "ratio") || (ctx.within === undefined && (settings.ratio || settings.monomial)));
  const cheapFirst = s.sizes.length > 1 && s.linear;
  // (A start from the forms screen is its chosen sum for this target: no other form is asked.)
  if (s.replay === 0 || ctx.outer !== undefined || s.started || !forms || !cheapFirst || s.exactScreen)
    return undefined;
  // Under noise, a sum of y at its floor of two products or fewer: no form is shorter (SHORT_AT_FLOOR;
  // a²·b + c·d at 1 %: 4 s of screens saved).
  if (s.atFloor && s.atFloor.products.length <= SHORT_AT_FLOOR) return undefined;
  ctx.onPhase?.({ target: ctx.target, phase: "screening forms: an outer function, a ratio, a monomial argument" });
  try {
    // The polynomial question's answer is one of y's own sums that a noisy form must beat.
    const known = s.polynomial
      ? [{ terms: s.polynomial.proposal.products.length, nrmse: s.polynomial.answer.nrmse }]
      : [];
    return await screenForms(ctx, settings, s.sizes, s.clock, s.timer, s.screens, s.estimate, known);
  } catch (cause) {
    s.status.stopOn(cause);
    return undefined;
  }
}

/**
 * Phase 2, the cheap first screen (a growing size, a method that asks it): its proposals, before
 * any size, and the exact fit among them. A replay of a run stopped before its first episode stops here.
 */
async function screenFirst(s: OutputSearch): Promise<void> {
  const { ctx, status } = s;
  if (s.replay === 0) status.interrupt(s.settings.replayStop ?? "time-limit");
  else if (s.exactScreen) return;
  else if (status.going && s.sizes.length > 1 && s.linear) {
    ctx.onPhase?.({ target: ctx.target, phase: "the first screen: products in log space, sparse sums, pursuit" });
    try {
      const y = columnOf(ctx.data, ctx.target);
      // Where the polynomial question's answer reaches the noise floor, the cheap part alone.
      const input = firstScreenInput(ctx, s.settings, s.sizes, y, s.screens);
      let product: LinearProposal | undefined;
      if (s.atFloor === undefined && noisy(s)) {
        // Under noise, one product that reaches the floor is the answer the search starts from, as the
        // polynomial question's: nothing is shorter (a·b·c/d at 1 %: the pursuit's 4 s saved).
        const steps = cheapProposalsSteps({ ...input, quick: true });
        s.first = await driveSteps(timedSteps(steps, s.timer, "screening"), s.clock);
        product = productAtFloor(s, s.first.proposals, y);
        s.atFloor = product;
      }
      if (product === undefined) {
        const steps = cheapProposalsSteps({ ...input, quick: s.atFloor !== undefined });
        s.first = await driveSteps(timedSteps(steps, s.timer, "screening"), s.clock);
      }
    } catch (cause) {
      status.stopOn(cause);
    }
  }
  if (s.polynomial) s.first.proposals.push(s.polynomial.proposal);
  else if (s.atFloor) s.first.proposals.push(s.atFloor);
  s.exactScreen = exactFirstScreen(s.first.proposals);
}

/** Whether the search stops at a noise floor it estimated above the stop rule's NRMSE. */
const noisy = (s: OutputSearch) => s.settings.noiseFloor && s.estimate().nrmse > s.settings.stopNrmse;

/**
 * The single product of the proposals that fits y (least squares) to the stop rule's reach of its
 * floor, the best by the front's score (sin(0.12·c) for c earns no inner weight).
 */
function productAtFloor(
  s: OutputSearch,
  proposals: readonly LinearProposal[],
  y: Float64Array,
): LinearProposal | undefined {
  const { ctx, settings } = s;
  const reach = floorReach(ctx.data.rows) * s.estimate().nrmse;
  const lookup = (name: string) => ctx.symbols.get(name);
  let best: { p: LinearProposal; score: number } | undefined;
  for (const p of proposals) {
    if (p.products.length !== 1) continue;
    const nrmse = nrmseOnY(ctx, p, y, settings.constant);
    const score = frontScoreOf(nrmse, parametersOfProducts(p.products, ctx.pool, lookup), ctx.data.rows);
    // (Its expectation on y's scale: the start is chosen by it, cheapStart.)
    if (nrmse <= reach && (!best || score < best.score)) best = { p: { ...p, expected: nrmse }, score };
  }
  return best?.p;
}

/** Phase 3, a search of one size (given by the flags): that size's screen first, its run and strategy made early. */
async function screenOnlySize(s: OutputSearch): Promise<void> {
  if (!s.status.going || s.sizes.length !== 1 || !s.linear) return;
  const run = createRun(s.ctx, { ...s.settings, ...s.sizes[0]! }, s.evaluator, s.evidence, false, s.screens);
  s.early = { run, strategy: s.method.strategy(run) };
  try {
    await prepare(s, s.early.strategy, "promise");
    const promised = s.early.strategy.promise?.();
    if (promised !== undefined && promised <= EXACT_SCREEN)
      s.exactScreen = { nrmse: promised, method: "residual of an exact linear fit (the size's screen)" };
  } catch (cause) {
    s.status.stopOn(cause);
  }
}

/**
 * Phase 4, the noise floor: what NRMSE noise alone leaves, estimated from the data (noise.ts);
 * where a screen fitted the data exactly, its residual (noise is at most that). Below the NRMSE
 * stop rule (1e-6 by default) the data count as noiseless and that rule alone applies. Then the
 * cheap first screen's start (cheapStart) on the stop rule's reach.
 */
function setNoiseFloor(s: OutputSearch): void {
  const { ctx, settings } = s;
  const noise = s.exactScreen ?? s.estimate();
  const floor = settings.noiseFloor && noise.nrmse > settings.stopNrmse ? noise.nrmse : undefined;
  const lookup = (name: string) => ctx.symbols.get(name);
  s.noise = noise;
  s.floor = floor;
  const poly = s.atFloor;
  if (poly) s.rivals = rivalsOf(s, poly);
  s.cheap = cheapStart(
    poly ? [poly] : s.first.proposals,
    s.sizes,
    floor === undefined ? settings.stopNrmse : floorReach(ctx.data.rows) * floor,
    floor === undefined
      ? undefined
      : (p) => frontScoreOf(p.expected, parametersOfProducts(p.products, ctx.pool, lookup), ctx.data.rows),
  );
  // Under noise a first screen's start at the floor of at most two products is fitted as the
  // polynomial question's answer is: its rivals after it, then the search ends where it holds the
  // floor (feynman-I.12.11 at 40 dB held the law at episode 1, then spent 11 s of episodes and sizes
  // that found nothing better). Not a longer one: a Taylor sum of 2·sin(x)·cos(y) at 1 % noise is
  // nine terms at the floor, and the search finds the law after it.
  // Three products at the floor end it too where one law holds across the range (Chow's split test, as
  // for the polynomial question's answer): I1 + I2 + 2·√(I1·I2)·cos δ at 40 dB held the law at episode
  // 1 and spent 12 s of sizes' screens after it. A Taylor sum takes other coefficients on each half.
  const start = s.cheap?.proposal;
  const short =
    start !== undefined &&
    (start.products.length <= SHORT_AT_FLOOR || (start.products.length <= HELD_AT_FLOOR && holdsAcross(s, start)));
  if (!poly && floor !== undefined && s.cheap && short) {
    s.atFloor = s.cheap.proposal;
    s.rivals = rivalsOf(s, s.cheap.proposal);
  } else if (!poly && floor !== undefined && s.cheap) {
    // A longer start at the floor: its rivals of at most two products are fitted after it all the
    // same, and the search goes on (4·sin(0.5·u)·d + e at 20 dB: a six-term power sum fits the
    // screening rows a little closer than sin(0.49·u)·d + e, which the episodes did not propose in
    // 30 s). Not longer ones: a²·b + c³ at 1 % took a three-term rival, a²·b + 0.06·b⁻¹·c³ + 0.99·c³,
    // 15 nats closer to the noise of its rows than the law, one sum picked among thousands.
    s.rivals = rivalsOf(s, s.cheap.proposal, (p) => p.products.length <= SHORT_AT_FLOOR);
  }
}

/** Products at most of a first-screen start at the floor that ends the search where it holds across the range. */
const HELD_AT_FLOOR = 3;

/** Whether a proposal's products, their inner weights held, fit y with one set of coefficients across the range. */
function holdsAcross(s: OutputSearch, p: LinearProposal): boolean {
  const { ctx, settings } = s;
  const xs = ctx.data.x.map((v) => strided(v, POLY_ROWS));
  const ys = strided(columnOf(ctx.data, ctx.target), POLY_ROWS);
  const split = splitStatisticOf(xs, ys, proposalColumns(ctx, p, settings.constant, POLY_ROWS));
  return split.statistic <= splitLevel(split.parameters, split.tests);
}

/** Rivals fitted beside the polynomial answer: the first screen's RIVALS best others by the score. */
const RIVALS = 4;

function rivalsOf(
  s: OutputSearch,
  poly: LinearProposal,
  among: (p: LinearProposal) => boolean = () => true,
): LinearProposal[] {
  const lookup = (name: string) => s.ctx.symbols.get(name);
  const y = columnOf(s.ctx.data, s.ctx.target);
  const expected = (p: LinearProposal) => nrmseOnY(s.ctx, p, y, s.settings.constant);
  const score = (p: LinearProposal) =>
    frontScoreOf(expected(p), parametersOfProducts(p.products, s.ctx.pool, lookup), s.ctx.data.rows);
  return s.first.proposals
    .filter((p) => p !== poly && among(p))
    .sort((p, q) => score(p) - score(q))
    .slice(0, RIVALS);
}

/** Phase 5, the sizes: each size's episodes, until a stop rule, the episode cap or a stop from outside. */
async function searchSizes(s: OutputSearch): Promise<void> {
  if (!s.status.going) return;
  for (const [stage, size] of s.sizes.entries()) {
    // The sizes before the cheap first screen's start are skipped (cheapStart).
    if (s.cheap && stage < s.cheap.stage) continue;
    const current = openSize(s, stage, size);
    const entry = await enterSize(s, current);
    if (entry === "skip") continue;
    if (entry === "stop") return;
    if ((await searchEpisodes(s, current)) === "search") return;
    if (s.episode >= s.settings.episodes) return;
  }
}

/** A size's run, strategy and stop rules. */
function openSize(s: OutputSearch, stage: number, size: Size): SizeRun {
  const last = stage === s.sizes.length - 1;
  const early = s.early && stage === 0 ? s.early : undefined;
  const run = early
    ? early.run
    : createRun(s.ctx, { ...s.settings, ...size }, s.evaluator, s.evidence, !last, s.screens);
  s.runs.push(run);
  const rules = stopRules(s.method.threshold, s.settings);
  const strategy = early ? early.strategy : s.method.strategy(run);
  s.strategy = strategy;
  s.reached = size;
  const inject = s.cheap && stage === s.cheap.stage ? s.cheap.products : undefined;
  const queue = inject && s.rivals ? rivalsWithin(s.rivals, size) : undefined;
  return { run, strategy, rules, last, stalled: 0, inject, queue };
}

/** Most neighbours of one best that are fitted (a larger neighbourhood is left to the strategy). */
const NEIGHBOURS_MOST = 40;

/**
 * The best's neighbours, fitted every other episode, once per best (a method that screens linearly, short of its
 * stop rule and of the noise floor): the best with one factor's symbol swapped for another of the
 * pool on the same input, the inner weights the best found kept as the fit's start. A proposal
 * one symbol off the law (sin(1.8·x1)·√x2 for sin(1.8·x1)·log(3·x2): NRMSE 0.017) is the
 * commonest near miss, which a strategy's random moves took a hundred episodes to leave.
 */
function neighboursOf(s: OutputSearch, size: SizeRun): LinearProposal[] | undefined {
  const best = s.best;
  if (!s.linear || !best || s.floorReached || best.nrmse <= s.settings.stopNrmse || s.neighboured.has(best.key))
    return undefined;
  s.neighboured.add(best.key);
  const { pool, data } = s.ctx;
  const P = pool.length;
  const warm = new Map<string, number>();
  for (const term of best.equation.terms)
    for (const f of term.factors)
      if (f.weight !== undefined && !f.monomial) warm.set(`${f.symbol}@${f.input}`, f.weight);
  const weightOf = (neuron: number) => warm.get(`${pool[neuron % P]}@${data.inputs[Math.floor(neuron / P)]}`) ?? 1;
  const allowed = size.run.space.allowed;
  const products = best.structure.products;
  const out: LinearProposal[] = [];
  for (const [j, product] of products.entries())
    for (const [f, neuron] of product.entries())
      for (let k = 0; k < P; k++) {
        const swapped = Math.floor(neuron / P) * P + k;
        if (swapped === neuron || !allowed[swapped] || product.includes(swapped)) continue;
        const next = products.map((p, q) => (q === j ? p.map((n, g) => (g === f ? swapped : n)) : [...p]));
        out.push({
          products: next,
          weights: next.map((p) => p.map(weightOf)),
          score: best.nrmse,
          expected: best.nrmse,
          source: "pursuit",
        });
      }
  return out.length <= NEIGHBOURS_MOST ? out : undefined;
}

/** The rivals a size holds. */
const rivalsWithin = (rivals: readonly LinearProposal[], size: Size) =>
  rivals.filter((p) => p.products.length <= size.terms && p.products.every((q) => q.length <= size.maxFactors));

/** The part of an NRMSE that noise does not explain (all of it without a floor): what a wider size must halve. */
const excess = (s: OutputSearch, nrmse: number) =>
  s.floor === undefined ? nrmse : Math.sqrt(Math.max(0, nrmse ** 2 - s.floor ** 2));

/**
 * Whether a size is searched: a size whose screening promises no real gain over the best so far is
 * passed over ("skip"); past the noise floor, a size that promises no better score ends the search.
 */
async function enterSize(s: OutputSearch, size: SizeRun): Promise<"enter" | "skip" | "stop"> {
  const { strategy } = size;
  try {
    if (s.floorReached && s.atFloor) {
      // The polynomial question (or the forms screen) chose its sum over a whole library by the score already.
      s.status.reason = "noise-floor";
      return "stop";
    } else if (s.floorReached) {
      // Past the noise floor a wider size is worth its fits only where it promises a better
      // score than the answer so far, and only while the sizes visited past it improved the
      // answer (screening scores overfit the noise a little: a promise alone is not enough).
      const answer = s.hall.chooseByScore()!;
      const score = frontScoreOf(answer.nrmse, parametersOf(answer.equation), s.ctx.data.rows);
      const improved = s.pastFloorScore === undefined || score < s.pastFloorScore;
      s.pastFloorScore = score;
      if (improved && strategy.promisedScore) await prepare(s, strategy, "promise");
      if (!improved || !strategy.promisedScore || !(strategy.promisedScore(s.ctx.data.rows) < score)) {
        s.status.reason = "noise-floor";
        return "stop";
      }
    } else if (!size.last && s.best && strategy.promise) {
      await prepare(s, strategy, "promise");
      if (!(excess(s, strategy.promise()) < 0.5 * excess(s, s.best.nrmse))) return "skip";
    }
  } catch (cause) {
    if (!(cause instanceof Interrupted)) throw cause;
    s.status.interrupt(cause.reason);
    return "stop";
  }
  return "enter";
}

/** A size's episodes: "size" where the size ends (a wider one may follow), "search" where the search does. */
async function searchEpisodes(s: OutputSearch, size: SizeRun): Promise<"size" | "search"> {
  while (s.episode < s.settings.episodes) {
    s.episode++;
    await nextTick();
    const why = s.clock.expired();
    if (why) {
      s.episode--;
      s.status.interrupt(why);
      return "search";
    }
    try {
      const end = await runEpisode(s, size);
      if (end !== undefined) return end;
    } catch (cause) {
      if (cause instanceof Interrupted) {
        s.episode--;
        s.status.interrupt(cause.reason);
        return "search";
      }
      if (!(cause instanceof InputError)) throw cause;
      s.status.fail(cause);
      return "search";
    }
  }
  return "size";
}

/** One episode: propose and fit, record, judge, learn, tell the listener. */
async function runEpisode(s: OutputSearch, size: SizeRun): Promise<"size" | "search" | undefined> {
  const fitted = await proposeAndFit(s, size);
  if (!fitted) {
    s.episode--;
    if (!size.last) return "size";
    s.status.reason = s.floorReached ? "noise-floor" : "exhausted";
    return "search";
  }
  const { trajectory, candidate, cached } = fitted;
  record(s, size, fitted);
  const reward = s.shape(candidate.reward);
  s.rewards.push(candidate.reward);
  const stop = size.rules.find((rule) => rule.check({ candidate, reward, cached, structures: s.evaluator.size }));
  s.floorReached ||= s.floor !== undefined && s.best!.nrmse <= floorReach(s.ctx.data.rows) * s.floor;
  const verdict = verdictOf(s, size, stop);
  // Learning from the episode that ends the search changes nothing: it is skipped.
  if (typeof verdict !== "object" && s.episode < s.settings.episodes)
    s.timer.time("icnn", () => size.strategy.observe?.({ episode: s.episode, trajectory, candidate, cached, reward }));
  announce(s, size.strategy, fitted);
  s.mark = { reached: s.reached, screened: screenedSoFar(s) };
  if (typeof verdict !== "object") return verdict;
  if (verdict.replayed) s.status.interrupt(verdict.search);
  else s.status.reason = verdict.search;
  return "search";
}

/**
 * The episode's proposal fitted through the cache: the cheap start's proposal first (where the
 * constraints accept it), before any screening; then the strategy's. Undefined: nothing left.
 */
async function proposeAndFit(s: OutputSearch, size: SizeRun): Promise<Fitted | undefined> {
  const { evaluator, timer, clock } = s;
  const inject = size.inject;
  const first = inject && timer.time("proposals", () => size.run.trajectories.fromProducts(inject));
  size.inject = undefined;
  if (first) {
    evaluator.hint(first.structure, s.cheap!.warm);
    return { trajectory: first, ...(await fitDriven(evaluator, first.structure, timer, clock)) };
  }
  // A best's neighbours take every other episode (the strategy's proposals the others).
  if (!size.queue?.length) size.neighbours = neighboursOf(s, size) ?? size.neighbours;
  if (!size.queue?.length && size.neighbours?.length && s.episode % 2 === 0) size.queue = [size.neighbours.shift()!];
  for (let rival = size.queue?.shift(); rival; rival = size.queue?.shift()) {
    const trajectory = timer.time("proposals", () => size.run.trajectories.fromProducts(rival!.products));
    if (!trajectory) continue;
    evaluator.hint(trajectory.structure, warmStart(rival));
    return { trajectory, ...(await fitDriven(evaluator, trajectory.structure, timer, clock)) };
  }
  await prepare(s, size.strategy, "propose");
  // (The products the dynamic constraint keeps change only between episodes.)
  return fitNext(size.strategy, evaluator, size.run.gate.kept(), s.settings.avoidRepeats, timer, clock);
}

/** The episode's counts, the hall of fame, the constraints' evidence, the stall count and the best so far. */
function record(s: OutputSearch, size: SizeRun, { trajectory, candidate, cached }: Fitted): void {
  for (const key of ["greedy", "random", "rejected"] as const) s.counts[key] += trajectory.tally[key];
  s.hall.add(candidate);
  const best = s.best;
  if (!cached) {
    size.run.gate.record(candidate);
    size.run.trajectories.record(trajectory, candidate.nrmse);
    size.stalled = best && !(candidate.nrmse < 0.99 * best.nrmse) ? size.stalled + 1 : 0;
  }
  if (
    !best ||
    candidate.nrmse < best.nrmse ||
    (candidate.nrmse === best.nrmse && candidate.complexity < best.complexity)
  )
    s.best = candidate;
}

/** What an episode ends: the search (with its stop reason), its size, or nothing. */
function verdictOf(
  s: OutputSearch,
  size: SizeRun,
  stop: StopRule | undefined,
): { search: StopReason; replayed?: true } | "size" | undefined {
  const { last, stalled } = size;
  if (stop && (last || stop.reason !== "exhausted"))
    return { search: s.floorReached && stop.reason === "exhausted" ? "noise-floor" : stop.reason };
  // The polynomial question's answer reached the floor, and its rivals are fitted: the search ends.
  if (s.atFloor && s.floorReached && !size.queue?.length && s.replay === undefined) return { search: "noise-floor" };
  // At the noise floor, a stall or a used-up size ends the size; the last size ends the
  // search (a wider one is visited only where it promises a better score: enterSize).
  if (s.floorReached && (stop || stalled >= STAGE_PATIENCE)) return last ? { search: "noise-floor" } : "size";
  // A replay stops where the time limit stopped the original: after the same episode.
  if (s.replay !== undefined && s.rewards.length >= s.replay)
    return { search: s.settings.replayStop ?? "time-limit", replayed: true };
  // Under noise, the last size ends on a long plateau even short of the floor: more
  // structures there have stopped paying (the noiseless search runs on to its episodes).
  if (last && s.floor !== undefined && stalled >= PLATEAU_PATIENCE) return { search: "exhausted" };
  // A used-up or stalled size widens (the last size runs to a stop rule).
  if (!last && (stop || stalled >= STAGE_PATIENCE)) return "size";
  return undefined;
}

/** Tells the listener (a progress line, a page) of the episode. */
function announce(s: OutputSearch, strategy: ProposalStrategy, { trajectory, candidate, cached }: Fitted): void {
  s.ctx.onEpisode?.({
    target: s.ctx.target,
    episode: s.episode,
    reward: candidate.reward,
    structures: s.evaluator.size,
    best: s.best!,
    candidate,
    cached,
    ...trajectory.tally,
    // Read when a listener asks (the strategy makes its nets on first use).
    get nets() {
      return strategy.nets;
    },
  });
}

/**
 * Phase 6, under noise: a search that ended by itself fits its answer's sub-structures (a term
 * dropped) before it chooses: the episodes add terms, and an answer with one term fitted to the
 * noise (a spike at one row, a trace of a higher power) may never have met the same sum without
 * it, which its score would prefer. Repeated while the answer shrinks. A handful of fits, run
 * whatever the clock says (a time-limited run and its replay both skip it, so they agree); an
 * abort stops it.
 */
async function pruneAnswer(s: OutputSearch): Promise<void> {
  if (s.floor === undefined || !s.status.going || s.method.answer === "best" || s.runs.length === 0) return;
  const trajectories = s.runs[s.runs.length - 1]!.trajectories;
  let answer = s.hall.chooseByScore();
  // A long answer is not pruned: its fits without each term cost as many fits of its size (a 40-term
  // cubic at 20 dB: 19 s past the search's end, and past its time limit, which the prune does not
  // see, so that a replay prunes alike).
  if (answer && answer.structure.products.length > PRUNE_MOST) return;
  const seen = new Set<string>();
  // Driven on a clock without the time limit: only an abort stops these fits.
  const abortOnly = new Clock(0, s.ctx.signal);
  while (answer && answer.structure.products.length > 1 && !seen.has(answer.key)) {
    seen.add(answer.key);
    if (!(await fitWithoutEachTerm(s, trajectories, answer, abortOnly))) return;
    answer = s.hall.chooseByScore();
  }
}

/** Terms at most of an answer the prune refits without each of them. */
const PRUNE_MOST = 16;

/** Fits the answer without each of its products in turn (into the hall of fame); false: a stop or failure ended it. */
async function fitWithoutEachTerm(
  s: OutputSearch,
  trajectories: Trajectories,
  answer: Candidate,
  abortOnly: Clock,
): Promise<boolean> {
  const products = answer.structure.products;
  for (let j = 0; j < products.length; j++) {
    if (s.clock.expired() === "aborted") {
      s.status.interrupt("aborted");
      return false;
    }
    const sub = trajectories.fromProducts(products.filter((_, k) => k !== j));
    if (!sub) continue;
    try {
      s.hall.add((await fitDriven(s.evaluator, sub.structure, s.timer, abortOnly)).candidate);
    } catch (cause) {
      s.status.stopOn(cause);
      return false;
    }
  }
  return true;
}

/**
 * Phase 7, the answer: under noise the score's choice and front, noiseless the NRMSE's; stopped
 * before its first fit, the any-moment baseline (fitted only then: it is the same answer whenever
 * it is fitted). A run stopped from outside reports the state after its last completed episode.
 */
function answerOf(s: OutputSearch): OutputSearchResult {
  const { ctx, status, hall, floor } = s;
  if (status.interrupted) s.reached = s.mark.reached;
  const screened = status.interrupted ? s.mark.screened : screenedSoFar(s);
  const chosen =
    s.method.answer === "best" ? s.best : ((floor !== undefined ? hall.chooseByScore() : hall.choose()) ?? s.best);
  const front = floor !== undefined ? hall.scoreFront() : hall.front();
  const poly = s.polynomial;
  const identities = poly
    ? basicRelations(poly.answer.relations, poly.monomials).map((r) => identityText(r, poly.monomials, ctx.data.inputs))
    : [];
  const answer = chosen ?? s.timer.time("preparation", () => baselineCandidate(ctx, s.settings));
  const rival = floor !== undefined && chosen ? hall.rivalOf(chosen) : undefined;
  s.endLoop();
  const strategy = s.strategy;
  return {
    target: ctx.target,
    best: answer,
    front,
    scores: frontScores(front, ctx.data.rows, floor !== undefined),
    noise: s.noise!,
    ...(rival && rival.gap < AMBIGUOUS_GAP ? { ambiguous: rival } : {}),
    floor,
    reach: floor === undefined ? undefined : floorReach(ctx.data.rows) * floor,
    episodes: s.rewards.length,
    structures: s.evaluator.size,
    stopReason: status.reason,
    error: status.error,
    rewards: s.rewards,
    actions: s.counts,
    fitSeconds: s.evaluator.seconds,
    screened,
    size: s.reached,
    ...(identities.length > 0 ? { identities } : {}),
    ...(s.unwritable ? { unwritable: s.unwritable } : {}),
    // Read when asked (the strategy makes its nets on first use).
    get nets() {
      return strategy?.nets;
    },
    phases: s.timer.seconds(),
  };
}
