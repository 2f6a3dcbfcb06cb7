/**
 * fitLocal: coefficient estimation of a LoCaL structure (paper §3.1, Theorems 3–4). Every
 * trainable weight starts at `init` (1, paper appendix); Adam (lr 1e-2) runs on tfjs — or on
 * the float64 engine — and a Levenberg–Marquardt polish finishes from the convex region Adam
 * reached (docs/design.md#adam-slow-on-log: Adam alone needs thousands of steps where a log has an inner weight).
 * Multi-start (FitOptions.starts): where that start does not fit exactly and a factor's symbol is
 * periodic, a second start from a least-squares frequency scan (periodicStart); the lower loss wins.
 */
import { InputError } from "../core/index.js";
import { pow } from "../core/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import { nrmse, std } from "../numeric/index.js";
import { compileLocal, initialTheta, unpackWeights, type CompiledLocal, type LocalWeights } from "./compiled.js";
import { runSteps, type Steps } from "../core/index.js";
import { bfgs, float64Model, levenbergMarquardtSteps, type Float64Model } from "./float64.js";
import type { LocalStructure } from "./structure.js";

export interface FitData {
  /** Input columns, in the order of `structure.inputs`. */
  x: readonly ArrayLike<number>[];
  /** Target columns, in the order of `structure.outputs`. */
  y: readonly ArrayLike<number>[];
}

export interface FitOptions {
  /** Symbol look-up: a registry or any name → plugin function. */
  symbols: { get(name: string): SymbolPlugin } | ((name: string) => SymbolPlugin);
  /** Adam steps (default 200). */
  steps?: number;
  /** Adam learning rate (default 1e-2, paper). */
  learningRate?: number;
  /**
   * Second-order polish after Adam: "lm" (fitLocal's default, and a given form's), "none" (Adam
   * only, as in the paper), or "lsq" (every search's default): "lm", except that a structure with
   * no inner weight (linear in its coefficients) is solved exactly by QR least squares with one
   * step of iterative refinement, without Adam (one solve for what Adam and LM reach in many; on
   * pow's nearly collinear products LM's normal equations even lose the optimum). "bfgs": no Adam
   * and no LM, BFGS alone from the start (the paper's ablation of the coefficient fit, §5.4).
   */
  polish?: "lm" | "none" | "lsq" | "bfgs";
  /** "tfjs" (default; the active tfjs backend) or "js" (the same Adam in float64 JavaScript). */
  engine?: "tfjs" | "js";
  /** Initial value of every trainable weight (default 1). */
  init?: number;
  /** Adam stops early once the loss is below this (default 1e-12; float32 cannot go much lower). */
  tolerance?: number;
  /**
   * "multi" (default): when the all-ones start does not fit exactly and a factor's symbol is
   * periodic (SymbolPlugin.period), a second start from a frequency scan (see periodicStart);
   * the lower final loss wins. "single": the paper's one start.
   */
  starts?: "multi" | "single";
  /**
   * A warm start: the initial inner weight of layer-1 neurons (by their index in the full layer;
   * the others start at `init`), as a screen proposed them. The fit runs LM from there with
   * least-squares coefficients and keeps the result where it is exact; otherwise the fit is the
   * all-ones start's, as without a warm start.
   */
  warm?: ReadonlyMap<number, number>;
  signal?: AbortSignal;
}

export interface FitResult {
  weights: LocalWeights;
  /** Train NRMSE per output, in float64. */
  trainNrmse: number[];
  /** Adam's loss per step: mean over outputs of MSE / var(y). */
  loss: number[];
  steps: number;
  polishIterations: number;
  /** Starts fitted: 1 unless the multi-start or a warm start that was not exact ran. */
  starts: number;
  /** Which start gave the weights: 0 the all-ones start, 1 the periodic scan, 2 the warm start. */
  bestStart: number;
  engine: string;
  ms: number;
}

/**
 * The tfjs engine (fitTfjs.ts), registered when that module is loaded: the float64 engine ("js")
 * needs no tfjs, so a search that fits on it never loads the library (fitLocal loads it on demand;
 * fitLocalSync needs it loaded, as the library's entry and the pipeline do).
 */
export interface TfjsEngine {
  adam(
    compiled: CompiledLocal,
    data: FitData,
    scale: readonly number[],
    start: Float64Array,
    settings: AdamSettings,
  ): { theta: Float64Array; curve: number[] };
  /** adam in steps (it yields before each step), where the engine has them. */
  adamSteps?(
    compiled: CompiledLocal,
    data: FitData,
    scale: readonly number[],
    start: Float64Array,
    settings: AdamSettings,
  ): Steps<{ theta: Float64Array; curve: number[] }>;
  /** The active tfjs backend's name. */
  backend(): string;
}

let tfjsEngine: TfjsEngine | undefined;

/** Registers the tfjs engine (fitTfjs.ts does, when it is loaded). */
export function setTfjsEngine(engine: TfjsEngine): void {
  tfjsEngine = engine;
}

function tfjs(): TfjsEngine {
  if (!tfjsEngine)
    throw new Error(
      "fitLocalSync: the tfjs engine is not loaded " +
        '(import the library\'s entry or local/fitTfjs.js first, or fit with engine "js")',
    );
  return tfjsEngine;
}

const lookupOf = (symbols: FitOptions["symbols"]) =>
  typeof symbols === "function" ? symbols : (name: string) => symbols.get(name);

function checkData(structure: LocalStructure, data: FitData): number {
  if (data.x.length !== structure.inputs.length)
    throw new InputError(`fitLocal: ${structure.inputs.length} inputs in the structure but ${data.x.length} columns`);
  if (data.y.length !== structure.outputs.length)
    throw new InputError(`fitLocal: ${structure.outputs.length} outputs in the structure but ${data.y.length} targets`);
  const rows = data.y[0]?.length ?? 0;
  for (const column of [...data.x, ...data.y])
    if (column.length !== rows) throw new InputError("fitLocal: columns differ in length");
  if (rows < 2) throw new InputError("fitLocal: need at least 2 rows");
  return rows;
}

export async function fitLocal(structure: LocalStructure, data: FitData, options: FitOptions): Promise<FitResult> {
  if ((options.engine ?? "tfjs") !== "js") await import("./fitTfjs.js");
  return fitLocalSync(structure, data, options);
}

/** The synchronous body of fitLocal (the cpu and wasm backends never need to await). */
export function fitLocalSync(structure: LocalStructure, data: FitData, options: FitOptions): FitResult {
  return runSteps(fitLocalSteps(structure, data, options));
}

/**
 * fitLocalSync in steps: it yields between Adam steps (either engine) and LM iterations, so that
 * a search driving it (clock.ts driveSteps) lets a signal or a time limit through a long fit (a
 * million rows); the same arithmetic, the same bits.
 */
export function* fitLocalSteps(structure: LocalStructure, data: FitData, options: FitOptions): Steps<FitResult> {
  const started = performance.now();
  const rows = checkData(structure, data);
  const fit = prepareFit(structure, data, options, rows);
  const { compiled, model } = fit;
  const linear = options.polish === "lsq" && compiled.inner.length === 0 && compiled.terms.length > 0;
  const warm = linear ? undefined : yield* fitFromWarmStart(fit, options);
  let best =
    warm && warm.loss <= EXACT
      ? warm
      : linear
        ? solveLinear(model, initialTheta(compiled, options.init ?? 1), fit.denominator)
        : yield* fitFrom(fit, initialTheta(compiled, options.init ?? 1), true);
  // A warm start that does not fit exactly is not kept: the fit is then the all-ones start's, as
  // without it. (Kept whenever it fitted better, warm starts at grid weights let sin and exp
  // imitators of x², 1/r … fit noisy data better than before and reach the noise floor first:
  // 9 fewer recoveries at 40 dB on the noise benchmark.)
  let starts = warm && best !== warm ? 2 : 1;
  let bestStart = best === warm ? 2 : 0;
  if (
    !linear &&
    (options.starts ?? "multi") === "multi" &&
    best.loss > EXACT &&
    compiled.terms.length > 0 &&
    !options.signal?.aborted
  ) {
    const second = yield* fitFromPeriodicStart(fit, best);
    if (second) {
      starts++;
      if (second.loss < best.loss) {
        best = second;
        bestStart = 1;
      }
    }
  }
  const yhat = model.predict(best.theta);
  const trainNrmse = data.y.map((column, o) => nrmse(column, yhat[o]!));
  return {
    weights: unpackWeights(compiled, best.theta),
    trainNrmse,
    loss: best.curve,
    steps: best.curve.length,
    polishIterations: best.polishIterations,
    starts,
    bestStart,
    engine: fit.engine === "js" ? "js" : tfjs().backend(),
    ms: performance.now() - started,
  };
}

/** One fit's compiled structure, float64 model and settings, shared by its starts. */
interface PreparedFit {
  compiled: CompiledLocal;
  data: FitData;
  /** 1/std of each target (1 where it is constant). */
  scale: number[];
  model: Float64Model;
  engine: "tfjs" | "js";
  useBfgs: boolean;
  /** Whether LM polishes each start. */
  polish: boolean;
  /** Rows × outputs: the loss is a mean over them. */
  denominator: number;
  settings: AdamSettings;
}

function prepareFit(structure: LocalStructure, data: FitData, options: FitOptions, rows: number): PreparedFit {
  const compiled = compileLocal(structure, lookupOf(options.symbols));
  const scale = data.y.map((column) => {
    const s = std(column);
    return s > 0 ? 1 / s : 1;
  });
  const model = float64Model(compiled, data.x, data.y, scale);
  const steps = options.steps ?? 200;
  const learningRate = options.learningRate ?? 1e-2;
  const tolerance = options.tolerance ?? 1e-12;
  const engine = options.engine ?? "tfjs";
  const useBfgs = options.polish === "bfgs";
  const polish = (options.polish ?? "lm") !== "none" && !useBfgs;
  const denominator = rows * data.y.length;
  const settings = { steps, learningRate, tolerance, signal: options.signal };
  return { compiled, data, scale, model, engine, useBfgs, polish, denominator, settings };
}

/** One start: Adam (unless `adam` is false) then the LM polish (or BFGS alone), from θ. */
function* fitFrom(fit: PreparedFit, start: Float64Array, adam: boolean): Steps<Start> {
  const { compiled, data, model, settings } = fit;
  let theta = start;
  let curve: number[] = [];
  if (adam && !fit.useBfgs && compiled.terms.length > 0 && settings.steps > 0) {
    ({ theta, curve } =
      fit.engine === "js"
        ? yield* adamFloat64Steps(model, data, theta, settings)
        : tfjs().adamSteps
          ? yield* tfjs().adamSteps!(compiled, data, fit.scale, theta, settings)
          : tfjs().adam(compiled, data, fit.scale, theta, settings));
  }
  let polishIterations = 0;
  if (fit.useBfgs && compiled.terms.length > 0) {
    const solved = bfgs(model, theta);
    if (Number.isFinite(solved.loss)) theta = solved.theta;
    polishIterations = solved.iterations;
  }
  if (fit.polish && compiled.terms.length > 0) {
    const polished = yield* levenbergMarquardtSteps(model, theta);
    // Keep Adam's answer if the polish could not start (e.g. Adam left the domain).
    if (Number.isFinite(polished.loss)) theta = polished.theta;
    polishIterations = polished.iterations;
  }
  const loss = model.loss(theta) / fit.denominator;
  return { theta, curve, polishIterations, loss: Number.isFinite(loss) ? loss : Number.POSITIVE_INFINITY };
}

/**
 * A warm start (FitOptions.warm): its inner weights, least-squares coefficients, then LM;
 * undefined when there is none, none of its weights applies, or its coefficients cannot be solved.
 */
function* fitFromWarmStart(fit: PreparedFit, options: FitOptions): Steps<Start | undefined> {
  const { compiled, model } = fit;
  if (!options.warm || compiled.inner.length === 0 || compiled.terms.length === 0) return undefined;
  const theta = initialTheta(compiled, options.init ?? 1);
  let used = false;
  compiled.inner.forEach((k, p) => {
    const w = options.warm!.get(compiled.neurons[k]!.index);
    if (w !== undefined && Number.isFinite(w)) {
      theta[p] = w;
      used = true;
    }
  });
  if (!used) return undefined;
  const start = model.linearFit(theta);
  if (!Number.isFinite(start.loss)) return undefined;
  return yield* fitFrom(fit, start.theta, !fit.polish);
}

/**
 * The multi-start's second start (periodicStart), fitted; undefined where there is none or it
 * does not already beat the first start's end (LM then can only improve on it).
 */
function* fitFromPeriodicStart(fit: PreparedFit, best: Start): Steps<Start | undefined> {
  const start = periodicStart(fit.compiled, fit.model, fit.data, fit.scale, best.theta);
  if (!start || !(start.loss < best.loss)) return undefined;
  // With the polish on, the second start is LM alone: its coefficients are least-squares
  // optimal and its frequency inside the basin, where Adam's steps of ~lr only wander off
  // (as from w = 1 on II.15.4). Without the polish, Adam is the only optimiser.
  return yield* fitFrom(fit, start.theta, !fit.polish);
}

/** polish "lsq" on a structure without inner weights: its least-squares coefficients by QR (refined once); no Adam. */
function solveLinear(model: Float64Model, start: Float64Array, denominator: number): Start {
  const solved = model.leastSquares(start);
  const loss = solved.loss / denominator;
  return {
    theta: solved.theta,
    curve: [],
    polishIterations: 0,
    loss: Number.isFinite(loss) ? loss : Number.POSITIVE_INFINITY,
  };
}

interface Start {
  theta: Float64Array;
  curve: number[];
  polishIterations: number;
  /** Final loss: mean over outputs of MSE / var(y); +∞ when not finite. */
  loss: number;
}

/**
 * A start whose final loss is at most this fits exactly (train NRMSE ≈ 1e-6, the search's stop rule): no further start.
 */
const EXACT = 1e-12;
/** The scan's frequency grid: phase steps of a quarter period at the largest |x| of the input… */
const GRID_STEPS_PER_PERIOD = 4;
/** …up to 8 periods there (Keijzer-3's sin(2π·x) on [−3, 3] has 3). */
const GRID_PERIODS = 8;
/** The scan runs on every ⌊rows/128⌋-th row: it only ranks frequencies (LM then uses every row). */
const SCAN_ROWS = 128;

/**
 * The second start of the multi-start, for a structure with periodic factors
 * (SymbolPlugin.period); null when it has none. From the first start's end, each periodic inner
 * weight in turn is scanned over the grid w = k·period/(4·max|x|), k = 1…32, with the other
 * weights held and the coefficients solved by least squares at every grid point (for fixed
 * inner weights ŷ is linear in them); the best grid point stays for the next periodic weight.
 * The start is the scan's end with its least-squares coefficients on every row, and its loss
 * (mean over outputs of MSE / var(y)). Deterministic, and about 32 linear solves on ≥ 128 rows
 * per periodic weight: a few Adam steps' worth of work.
 */
function periodicStart(
  compiled: CompiledLocal,
  model: Float64Model,
  data: FitData,
  scale: readonly number[],
  from: Float64Array,
): { theta: Float64Array; loss: number } | null {
  const periodic = compiled.inner.flatMap((k, q) => {
    const period = compiled.neurons[k]!.symbol.period;
    if (!period) return [];
    const column = data.x[compiled.neurons[k]!.input]!;
    let extent = 0;
    for (let i = 0; i < column.length; i++) extent = Math.max(extent, Math.abs(column[i]!));
    return extent > 0 && Number.isFinite(extent) ? [{ q, step: period / (GRID_STEPS_PER_PERIOD * extent) }] : [];
  });
  if (periodic.length === 0) return null;
  const rows = data.y[0]!.length;
  const stride = Math.max(1, Math.floor(rows / SCAN_ROWS));
  const every = (column: ArrayLike<number>) =>
    Float64Array.from({ length: Math.floor(rows / stride) }, (_, r) => column[r * stride]!);
  const scanModel = stride > 1 ? float64Model(compiled, data.x.map(every), data.y.map(every), scale) : model;
  const theta = Float64Array.from(from);
  for (const { q, step } of periodic) {
    let bestW = from[q]!;
    let bestLoss = Number.POSITIVE_INFINITY;
    for (let k = 1; k <= GRID_STEPS_PER_PERIOD * GRID_PERIODS; k++) {
      theta[q] = k * step;
      const { loss } = scanModel.linearFit(theta);
      if (loss < bestLoss) {
        bestLoss = loss;
        bestW = theta[q]!;
      }
    }
    theta[q] = bestW;
  }
  const start = model.linearFit(theta);
  const loss = start.loss / (rows * data.y.length);
  return { theta: start.theta, loss: Number.isFinite(loss) ? loss : Number.POSITIVE_INFINITY };
}

export interface AdamSettings {
  steps: number;
  learningRate: number;
  tolerance: number;
  signal: AbortSignal | undefined;
}

export const BETA1 = 0.9;
export const BETA2 = 0.999;
export const EPSILON = 1e-7; // tfjs's default, so both engines take the same steps

/** Adam in float64 with the analytic gradient (the `js` engine), in steps: it yields before each step (clock.ts). */
export function* adamFloat64Steps(
  model: Float64Model,
  data: FitData,
  start: Float64Array,
  settings: AdamSettings,
): Steps<{ theta: Float64Array; curve: number[] }> {
  const denominator = data.y[0]!.length * data.y.length;
  const theta = Float64Array.from(start);
  const m = new Float64Array(theta.length);
  const v = new Float64Array(theta.length);
  const curve: number[] = [];
  let last = Float64Array.from(theta);
  for (let t = 1; t <= settings.steps; t++) {
    yield;
    if (settings.signal?.aborted) break;
    const { loss, jtr } = model.normalEquations(theta, true);
    const value = loss / denominator;
    if (!Number.isFinite(value)) {
      theta.set(last);
      break;
    }
    curve.push(value);
    if (value < settings.tolerance) break;
    last = Float64Array.from(theta);
    const b1 = 1 - pow(BETA1, t);
    const b2 = 1 - pow(BETA2, t);
    for (let u = 0; u < theta.length; u++) {
      const g = (-2 * jtr[u]!) / denominator;
      m[u] = BETA1 * m[u]! + (1 - BETA1) * g;
      v[u] = BETA2 * v[u]! + (1 - BETA2) * g * g;
      theta[u] = theta[u]! - (settings.learningRate * (m[u]! / b1)) / (Math.sqrt(v[u]! / b2) + EPSILON);
    }
  }
  return { theta, curve };
}
