/**
 * argmin over the action of a trained ICNN for a fixed state.
 *
 * LP (epigraph form). Variables: the action a (nA, bounds from the constraints) and one z per
 * hidden unit (z ≥ 0). For every hidden unit i of layer k
 *
 *   z_k[i] − Σ_j Wz_k[i, j]·z_{k−1}[j] − Σ_j Wx_k[i, action j]·a_j  ≥  b_k[i] + Wx_k[i, state]·s
 *
 * (the state part is a constant, moved to the row bound) and the objective is the output layer's
 * linear form wz_K·z_{K−1} + wx_K[action]·a, with the constant b_K + wx_K[state]·s as offset.
 * Every feasible z is ≥ the forward activations at its a (induction with Wz ≥ 0), and the
 * objective is non-decreasing in z (wz_K ≥ 0), so the LP optimum equals min_a f(s, a) over the
 * box and the rows, attained at the returned a. Binary actions make it a MILP.
 *
 * HiGHS (npm `highs`, HiGHS compiled to WebAssembly) solves both. The model is passed as sparse
 * arrays through the persistent-model API (`createModel(modelData)`), not as CPLEX LP text: no
 * number formatting or parsing, exact float64 coefficients. Each model is disposed in a
 * `finally` (Wasm memory is not garbage-collected; an undisposed model leaks for the life of the
 * runtime).
 *
 * Loading the Wasm: `createArgminSolver()` imports `highs` on first use (a dynamic import, so
 * code that never searches never loads the 3.5 MB Wasm). In Node (and under tsx) that resolves to
 * the package's ESM build, which finds `highs.wasm` beside itself: nothing to configure. In a
 * browser:
 *   - serve `node_modules/highs/build/highs.wasm` as a static asset and pass its URL,
 *     `createArgminSolver({ locateFile: (file) => new URL("/assets/" + file, location.href).href })`,
 *     or pass the bytes as `wasmBinary` or a compiled `wasmModule`;
 *   - the bundler must leave `node:module` alone: highs.mjs imports it only when running under
 *     Node, but esbuild stops on it unless told `--external:node:module` (Vite and Rollup
 *     externalise it with a warning);
 *   - or pass `loader`, a function returning the loaded runtime however the page obtains it;
 *   - HiGHS runs synchronously on the calling thread, so run the search in a Web Worker.
 */
import type { Highs, InitOptions } from "highs";
import type { Rng } from "../rng.js";
import type { Icnn } from "./icnn.js";

export interface ActionConstraints {
  /** Per action entry: a lower bound in [0, 1] (1 fixes the entry to 1). Default all 0. */
  lower?: ArrayLike<number>;
  /** Per action entry: an upper bound in [0, 1] (0 fixes the entry to 0). Default all 1. */
  upper?: ArrayLike<number>;
  /** Linear rows: lo ≤ Σ coef[j]·a[index[j]] ≤ hi (e.g. at most 2 factors per product). ±Infinity for no bound. */
  rows?: { index: number[]; coef: number[]; lo: number; hi: number }[];
}

export interface ArgminResult {
  action: Float64Array;
  /**
   * The minimum found: the solver's objective for "lp" and "milp" (it equals `forward` up to the
   * solver's tolerances), the net's value at the action otherwise.
   */
  value: number;
  /** The net's forward value at the returned action. */
  forward: number;
  /**
   * "lp": LP relaxation over the box; "milp": binary actions; "lp-rounded": the MILP found no
   * integer point in its time limit, so this is the LP answer rounded at 0.5 (it may violate
   * `rows`); "pgd": projected gradient.
   */
  method: "lp" | "milp" | "lp-rounded" | "pgd";
  /** Entries of the solver's answer not in {0, 1} up to 1e-6 (before any rounding). */
  fractional: number;
  /** The solver proved optimality (within its tolerances); false after a time limit or for pgd. */
  optimal: boolean;
}

export interface ArgminSolver {
  /** LP relaxation over the box (exact for a ReLU ICNN via the epigraph form). */
  lp(net: Icnn, state: ArrayLike<number>, c?: ActionConstraints): ArgminResult;
  /**
   * Same with binary actions (MILP) and a time limit in seconds (default 1). With an integer
   * point but no proof of optimality in time, returns it with optimal = false; with none, falls
   * back to the LP answer rounded at 0.5 (method "lp-rounded").
   */
  milp(net: Icnn, state: ArrayLike<number>, c?: ActionConstraints, timeLimit?: number): ArgminResult;
  /** The HiGHS runtime's Wasm linear memory in bytes (it only grows; for leak checks). */
  memoryBytes(): number;
}

/** How to load HiGHS: needed in a browser only (where `highs.wasm` is served). See the module comment. */
export interface HighsLoadOptions {
  locateFile?: (file: string) => string;
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  wasmModule?: WebAssembly.Module;
  /** Replaces `import("highs")`: receives the three options above and returns the loaded runtime. */
  loader?: (options: InitOptions) => Promise<Highs>;
}

const MIP_REL_GAP = 1e-6;
const INTEGRAL_TOL = 1e-6;
const SNAP_TOL = 1e-9;

let defaultRuntime: Promise<Highs> | null = null;

/** Loads HiGHS (once per process for the default options) and returns the LP/MILP argmin. */
export async function createArgminSolver(options?: HighsLoadOptions): Promise<ArgminSolver> {
  let highs: Highs;
  if (options && (options.locateFile || options.wasmBinary || options.wasmModule || options.loader)) {
    const { loader, ...init } = options;
    highs = await (loader ?? (async (o: InitOptions) => (await import("highs")).default(o)))(init);
  } else {
    defaultRuntime ??= import("highs").then((m) => m.default());
    try {
      highs = await defaultRuntime;
    } catch (error) {
      defaultRuntime = null;
      throw error;
    }
  }
  return {
    lp: (net, state, c) => solveLp(highs, net, state, problemOf(net, state, c)),
    milp: (net, state, c, timeLimit = 1) => solveMilp(highs, net, state, problemOf(net, state, c), timeLimit),
    memoryBytes: () => highs.memoryBytes,
  };
}

/** Resolved bounds of the action; validates the constraints. */
function actionBounds(nA: number, c: ActionConstraints | undefined): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(nA), hi = new Float64Array(nA).fill(1);
  if (c?.lower) {
    if (c.lower.length !== nA) throw new RangeError(`argmin: lower has length ${c.lower.length}, expected ${nA}`);
    for (let j = 0; j < nA; j++) lo[j] = c.lower[j]!;
  }
  if (c?.upper) {
    if (c.upper.length !== nA) throw new RangeError(`argmin: upper has length ${c.upper.length}, expected ${nA}`);
    for (let j = 0; j < nA; j++) hi[j] = c.upper[j]!;
  }
  for (let j = 0; j < nA; j++) {
    if (!(lo[j]! >= 0 && hi[j]! <= 1 && lo[j]! <= hi[j]!)) {
      throw new RangeError(`argmin: action ${j} has bounds [${lo[j]}, ${hi[j]}], which are not within [0, 1] or are empty`);
    }
  }
  return { lo, hi };
}

/** Rows with merged duplicate indices and validated entries. */
function actionRows(nA: number, c: ActionConstraints | undefined): { index: number[]; coef: number[]; lo: number; hi: number }[] {
  return (c?.rows ?? []).map((r, q) => {
    if (r.index.length !== r.coef.length) throw new RangeError(`argmin: row ${q} has ${r.index.length} indices but ${r.coef.length} coefficients`);
    if (Number.isNaN(r.lo) || Number.isNaN(r.hi) || r.lo > r.hi) throw new RangeError(`argmin: row ${q} has bounds [${r.lo}, ${r.hi}]`);
    const merged = new Map<number, number>();
    r.index.forEach((j, t) => {
      if (!Number.isInteger(j) || j < 0 || j >= nA) throw new RangeError(`argmin: row ${q} refers to action ${j} (there are ${nA})`);
      const v = r.coef[t]!;
      if (!Number.isFinite(v)) throw new RangeError(`argmin: row ${q} has a non-finite coefficient`);
      merged.set(j, (merged.get(j) ?? 0) + v);
    });
    const index = [...merged.keys()].sort((a, b) => a - b);
    return { index, coef: index.map((j) => merged.get(j)!), lo: r.lo, hi: r.hi };
  });
}

function countFractional(a: ArrayLike<number>): number {
  let n = 0;
  for (let j = 0; j < a.length; j++) if (Math.min(Math.abs(a[j]!), Math.abs(1 - a[j]!)) > INTEGRAL_TOL) n++;
  return n;
}

function checkState(net: Icnn, state: ArrayLike<number>): void {
  if (state.length !== net.shape.state) throw new RangeError(`argmin: state has length ${state.length}, expected ${net.shape.state}`);
  for (let j = 0; j < state.length; j++) if (!Number.isFinite(state[j]!)) throw new RangeError(`argmin: state entry ${j} is not finite`);
}

interface Problem {
  nS: number;
  nA: number;
  lo: Float64Array;
  hi: Float64Array;
  rows: { index: number[]; coef: number[]; lo: number; hi: number }[];
}

function problemOf(net: Icnn, state: ArrayLike<number>, c: ActionConstraints | undefined): Problem {
  checkState(net, state);
  const nA = net.shape.action;
  return { nS: net.shape.state, nA, ...actionBounds(nA, c), rows: actionRows(nA, c) };
}

/** The epigraph model (see the module comment); columns are a, then each hidden layer's z. */
function buildModel(highs: Highs, net: Icnn, state: ArrayLike<number>, p: Problem, lo: Float64Array, hi: Float64Array, integer: boolean) {
  const { nS, nA, rows } = p;
  const n = nS + nA;
  const layers = net.layers();
  const K = layers.length - 1;
  const hidden = layers.slice(0, K);
  const zCol: number[] = [];
  let numCols = nA;
  for (const l of hidden) {
    zCol.push(numCols);
    numCols += l.out;
  }
  const inf = highs.infinity;
  const colLower = new Float64Array(numCols), colUpper = new Float64Array(numCols).fill(inf);
  colLower.set(lo);
  colUpper.set(hi);
  const colCost = new Float64Array(numCols);
  const starts: number[] = [0], indices: number[] = [], values: number[] = [];
  const rowLower: number[] = [], rowUpper: number[] = [];
  const stateDot = (wx: Float64Array, i: number) => {
    let v = 0;
    for (let j = 0; j < nS; j++) v += wx[i * n + j]! * state[j]!;
    return v;
  };
  hidden.forEach((l, k) => {
    for (let i = 0; i < l.out; i++) {
      // Entries in increasing column order: a, then z_{k−1}, then z_k[i].
      for (let j = 0; j < nA; j++) {
        const w = l.wx[i * n + nS + j]!;
        if (w !== 0) indices.push(j), values.push(-w);
      }
      if (l.wz && k > 0) {
        for (let j = 0; j < l.in; j++) {
          const w = l.wz[i * l.in + j]!;
          if (w !== 0) indices.push(zCol[k - 1]! + j), values.push(-w);
        }
      }
      indices.push(zCol[k]! + i), values.push(1);
      starts.push(indices.length);
      rowLower.push(l.b[i]! + stateDot(l.wx, i));
      rowUpper.push(inf);
    }
  });
  for (const r of rows) {
    r.index.forEach((j, t) => {
      if (r.coef[t] !== 0) indices.push(j), values.push(r.coef[t]!);
    });
    starts.push(indices.length);
    rowLower.push(r.lo === -Infinity ? -inf : r.lo);
    rowUpper.push(r.hi === Infinity ? inf : r.hi);
  }
  const out = layers[K]!;
  for (let j = 0; j < nA; j++) colCost[j] = out.wx[nS + j]!;
  if (out.wz && K > 0) for (let j = 0; j < out.in; j++) colCost[zCol[K - 1]! + j] = out.wz[j]!;
  const numRows = rowLower.length;
  return {
    numCols,
    numRows,
    offset: out.b[0]! + stateDot(out.wx, 0),
    colCost,
    colLower,
    colUpper,
    rowLower,
    rowUpper,
    matrix: { format: "csr" as const, numRows, numCols, starts, indices, values },
    ...(integer
      ? {
          integrality: Int32Array.from({ length: numCols }, (_, j) =>
            j < nA ? highs.constants.variableType.integer : highs.constants.variableType.continuous,
          ),
        }
      : {}),
  };
}

/** Column values [a; z(a)] with z the forward activations: a complete MIP start. */
function startColumns(net: Icnn, state: ArrayLike<number>, a: Float64Array): Float64Array {
  const { state: nS, action: nA } = net.shape;
  const n = nS + nA;
  const layers = net.layers();
  const cols: number[] = Array.from(a);
  let prev: number[] = [];
  for (let k = 0; k < layers.length - 1; k++) {
    const l = layers[k]!;
    const z: number[] = [];
    for (let i = 0; i < l.out; i++) {
      let v = l.b[i]!;
      for (let j = 0; j < nS; j++) v += l.wx[i * n + j]! * state[j]!;
      for (let j = 0; j < nA; j++) v += l.wx[i * n + nS + j]! * a[j]!;
      if (l.wz) for (let j = 0; j < l.in; j++) v += l.wz[i * l.in + j]! * prev[j]!;
      z.push(v > 0 ? v : 0);
    }
    cols.push(...z);
    prev = z;
  }
  return Float64Array.from(cols);
}

function rowsHold(p: Problem, a: ArrayLike<number>, tol = 1e-9): boolean {
  for (const r of p.rows) {
    let dot = 0;
    r.index.forEach((j, t) => (dot += r.coef[t]! * a[j]!));
    if (dot < r.lo - tol || dot > r.hi + tol) return false;
  }
  return true;
}

/**
 * A binary point near the LP answer: rounded at 0.5 (within the bounds), then improved by
 * single flips while the net's value drops and the rows hold (or while it gets no further from
 * holding them). Used as the MILP's starting incumbent and as its fallback.
 */
function roundedIncumbent(net: Icnn, state: ArrayLike<number>, p: Problem, lo: Float64Array, hi: Float64Array, relaxed: ArrayLike<number>): { action: Float64Array; value: number; feasible: boolean } {
  const a = roundAction(relaxed);
  for (let j = 0; j < p.nA; j++) a[j] = Math.min(hi[j]!, Math.max(lo[j]!, a[j]!));
  let feasible = rowsHold(p, a);
  let value = net.value(state, a);
  if (!feasible) return { action: a, value, feasible };
  for (let sweep = 0; sweep < 20; sweep++) {
    let improved = false;
    for (let j = 0; j < p.nA; j++) {
      if (lo[j] === hi[j]) continue;
      a[j] = 1 - a[j]!;
      const v = rowsHold(p, a) ? net.value(state, a) : Infinity;
      if (v < value - 1e-12 * Math.max(1, Math.abs(value))) {
        value = v;
        improved = true;
      } else a[j] = 1 - a[j]!;
    }
    if (!improved) break;
  }
  return { action: a, value, feasible };
}

function solveLp(highs: Highs, net: Icnn, state: ArrayLike<number>, p: Problem): ArgminResult {
  const out = runModel(highs, buildModel(highs, net, state, p, p.lo, p.hi, false), false, Infinity, null);
  if (!out) throw new Error("argmin: HiGHS returned no LP solution");
  return finish(net, state, p, p.lo, p.hi, out.colValue, out.objective, out.optimal, "lp");
}

function solveMilp(highs: Highs, net: Icnn, state: ArrayLike<number>, p: Problem, timeLimit: number): ArgminResult {
  // Binary bounds: an entry may be 1 only if upper ≥ 1, 0 only if lower ≤ 0.
  const lo = p.lo.map((v) => Math.ceil(v - INTEGRAL_TOL));
  const hi = p.hi.map((v) => Math.floor(v + INTEGRAL_TOL));
  for (let j = 0; j < p.nA; j++) {
    if (lo[j]! > hi[j]!) throw new Error(`argmin: action ${j} admits no binary value within [${p.lo[j]}, ${p.hi[j]}]`);
  }
  const started = performance.now();
  const relaxed = solveLp(highs, net, state, { ...p, lo, hi });
  const start = roundedIncumbent(net, state, p, lo, hi, relaxed.action);
  const remaining = Math.max(0, timeLimit - (performance.now() - started) / 1000);
  const out = runModel(highs, buildModel(highs, net, state, p, lo, hi, true), true, remaining, start.feasible ? startColumns(net, state, start.action) : null);
  if (!out) {
    // No integer point in time: the rounded (and flip-improved) LP answer.
    return { action: start.action, value: start.value, forward: start.value, method: "lp-rounded", fractional: relaxed.fractional, optimal: false };
  }
  return finish(net, state, p, lo, hi, out.colValue, out.objective, out.optimal, "milp");
}

/** Solves; returns null only for a MILP that hit its time limit without an integer point. */
function runModel(highs: Highs, modelData: ReturnType<typeof buildModel>, integer: boolean, timeLimit: number, start: Float64Array | null): { colValue: Float64Array; objective: number; optimal: boolean } | null {
  const status = highs.constants.modelStatus;
  const model = highs.createModel(modelData);
  try {
    model.options.set({ output_flag: false });
    if (integer) model.options.set({ mip_rel_gap: MIP_REL_GAP, time_limit: Number.isFinite(timeLimit) ? Math.max(1e-3, timeLimit) : highs.infinity });
    if (start) model.setSolution({ colValue: start });
    model.run();
    const ms = model.getModelStatus();
    const hasPoint = model.info.get("primal_solution_status") === highs.constants.solutionStatus.feasible;
    if (ms === status.infeasible) throw new Error(`argmin: the action constraints are infeasible${integer ? " for binary actions" : ""}`);
    if (ms === status.unbounded || ms === status.unboundedOrInfeasible) throw new Error("argmin: HiGHS reports the model unbounded or infeasible");
    if (!hasPoint) {
      if (integer && (ms === status.timeLimit || ms === status.interrupted)) return null;
      throw new Error(`argmin: HiGHS ended with model status ${ms} and no solution`);
    }
    return { colValue: model.getSolution().colValue, objective: model.getObjectiveValue(), optimal: ms === status.optimal };
  } finally {
    model.dispose();
  }
}

function finish(net: Icnn, state: ArrayLike<number>, p: Problem, lo: Float64Array, hi: Float64Array, colValue: Float64Array, objective: number, optimal: boolean, method: "lp" | "milp"): ArgminResult {
  const raw = colValue.subarray(0, p.nA);
  const fractional = countFractional(raw);
  const action = new Float64Array(p.nA);
  for (let j = 0; j < p.nA; j++) {
    let v = Math.min(hi[j]!, Math.max(lo[j]!, raw[j]!));
    if (method === "milp") v = Math.round(v);
    else if (Math.abs(v) < SNAP_TOL) v = 0;
    else if (Math.abs(1 - v) < SNAP_TOL) v = 1;
    action[j] = v;
  }
  return { action, value: objective, forward: net.value(state, action), method, fractional, optimal };
}

/** Rounds at 0.5: entries ≥ 0.5 become 1, the others 0. */
export function roundAction(action: ArrayLike<number>): Float64Array {
  const out = new Float64Array(action.length);
  for (let j = 0; j < action.length; j++) out[j] = action[j]! >= 0.5 ? 1 : 0;
  return out;
}

export interface ProjectedGradientOptions {
  /** Gradient steps per start. */
  steps: number;
  /** Random restarts beyond the first start (the box centre). Default 0. */
  restarts?: number;
  /** Draws the random starts. */
  rng: Rng;
}

/**
 * Fallback argmin without a solver: projected gradient descent on a smoothed copy of the net
 * (relu → τ·softplus(x/τ), convex and smooth, within τ·log 2 per unit of the true net), with τ
 * lowered geometrically over the steps and an Armijo backtracking step size. The true f is
 * evaluated at every iterate and the best one is returned.
 *
 * Constraints: the box and fixed entries (lower = upper) are projected onto exactly. `rows` are
 * handled approximately: after the box projection, a few sweeps of alternating projections onto
 * each violated row's slab (then the box again). That finds a point of the intersection when the
 * sweeps converge but not the Euclidean projection, and a row can stay violated by a small
 * amount; iterates that satisfy every row within 1e-7 are preferred when choosing the best.
 */
export function projectedGradientArgmin(net: Icnn, state: ArrayLike<number>, c: ActionConstraints | undefined, opts: ProjectedGradientOptions): ArgminResult {
  if (!Number.isInteger(opts.steps) || opts.steps < 1) throw new RangeError(`projectedGradientArgmin: steps must be an integer ≥ 1 (got ${opts.steps})`);
  const restarts = opts.restarts ?? 0;
  const { nA, lo, hi, rows } = problemOf(net, state, c);
  const smooth = smoothedNet(net, state);

  const project = (a: Float64Array) => {
    for (let j = 0; j < nA; j++) a[j] = Math.min(hi[j]!, Math.max(lo[j]!, a[j]!));
    if (rows.length === 0) return;
    for (let sweep = 0; sweep < 50; sweep++) {
      let worst = 0;
      for (const r of rows) {
        let dot = 0, norm = 0;
        r.index.forEach((j, t) => {
          dot += r.coef[t]! * a[j]!;
          if (lo[j]! < hi[j]!) norm += r.coef[t]! ** 2;
        });
        const target = dot < r.lo ? r.lo : dot > r.hi ? r.hi : dot;
        if (target === dot || norm === 0) continue;
        worst = Math.max(worst, Math.abs(target - dot));
        const step = (target - dot) / norm;
        r.index.forEach((j, t) => {
          if (lo[j]! < hi[j]!) a[j] = a[j]! + step * r.coef[t]!;
        });
      }
      for (let j = 0; j < nA; j++) a[j] = Math.min(hi[j]!, Math.max(lo[j]!, a[j]!));
      if (worst < 1e-12) break;
    }
  };
  const violation = (a: Float64Array) => {
    let worst = 0;
    for (const r of rows) {
      let dot = 0;
      r.index.forEach((j, t) => (dot += r.coef[t]! * a[j]!));
      worst = Math.max(worst, r.lo - dot, dot - r.hi);
    }
    return worst;
  };

  let best: Float64Array | null = null;
  let bestValue = Infinity, bestViolation = Infinity;
  const consider = (a: Float64Array) => {
    const v = net.value(state, a);
    const bad = Math.max(0, violation(a) - 1e-7);
    if (bad < bestViolation || (bad === bestViolation && v < bestValue)) {
      best = a.slice();
      bestValue = v;
      bestViolation = bad;
    }
  };

  const grad = new Float64Array(nA);
  const trial = new Float64Array(nA);
  // τ from tau0 down to tau1, geometric over the steps.
  const tau0 = 0.1, tau1 = 1e-7;
  for (let start = 0; start <= restarts; start++) {
    const a = new Float64Array(nA);
    for (let j = 0; j < nA; j++) a[j] = start === 0 ? (lo[j]! + hi[j]!) / 2 : opts.rng.uniform(lo[j]!, hi[j]!);
    project(a);
    consider(a);
    let eta = 1;
    for (let t = 0; t < opts.steps; t++) {
      const tau = tau0 * Math.pow(tau1 / tau0, opts.steps > 1 ? t / (opts.steps - 1) : 1);
      const f0 = smooth.valueGrad(a, tau, grad);
      let accepted = false;
      for (let tries = 0; tries < 40; tries++) {
        for (let j = 0; j < nA; j++) trial[j] = a[j]! - eta * grad[j]!;
        project(trial);
        let lin = 0, sq = 0;
        for (let j = 0; j < nA; j++) {
          const d = trial[j]! - a[j]!;
          lin += grad[j]! * d;
          sq += d * d;
        }
        if (sq === 0) break;
        const f1 = smooth.valueGrad(trial, tau, null);
        if (f1 <= f0 + lin + sq / (2 * eta) + 1e-15 * Math.abs(f0)) {
          accepted = true;
          break;
        }
        eta *= 0.5;
      }
      if (!accepted) {
        eta = Math.max(eta, 1e-3);
        continue;
      }
      a.set(trial);
      consider(a);
      eta *= 1.5;
    }
  }
  const action = best ?? new Float64Array(nA);
  return { action, value: bestValue, forward: bestValue, method: "pgd", fractional: countFractional(action), optimal: false };
}

/** The net with relu replaced by τ·softplus(x/τ), for a fixed state; value and ∂/∂action. */
function smoothedNet(net: Icnn, state: ArrayLike<number>) {
  const nS = net.shape.state, nA = net.shape.action, n = nS + nA;
  const layers = net.layers();
  const K = layers.length - 1;
  // Constant part of each unit: b + Wx[state]·s.
  const base = layers.map((l) => {
    const c = new Float64Array(l.out);
    for (let i = 0; i < l.out; i++) {
      let v = l.b[i]!;
      for (let j = 0; j < nS; j++) v += l.wx[i * n + j]! * state[j]!;
      c[i] = v;
    }
    return c;
  });
  const pre = layers.map((l) => new Float64Array(l.out));
  const z = layers.map((l) => new Float64Array(l.out));
  const gz = layers.map((l) => new Float64Array(l.out));
  const softplus = (x: number, tau: number) => {
    const u = x / tau;
    return u > 0 ? x + tau * Math.log1p(Math.exp(-u)) : tau * Math.log1p(Math.exp(u));
  };
  const sigmoid = (x: number, tau: number) => {
    const u = x / tau;
    return u >= 0 ? 1 / (1 + Math.exp(-u)) : Math.exp(u) / (1 + Math.exp(u));
  };
  return {
    /** Smoothed value at a; fills grad with ∂/∂a when given. */
    valueGrad(a: ArrayLike<number>, tau: number, grad: Float64Array | null): number {
      for (let k = 0; k <= K; k++) {
        const l = layers[k]!;
        for (let i = 0; i < l.out; i++) {
          let v = base[k]![i]!;
          for (let j = 0; j < nA; j++) v += l.wx[i * n + nS + j]! * a[j]!;
          if (l.wz) for (let j = 0; j < l.in; j++) v += l.wz[i * l.in + j]! * z[k - 1]![j]!;
          pre[k]![i] = v;
          z[k]![i] = k < K ? softplus(v, tau) : v;
        }
      }
      const value = z[K]![0]!;
      if (!grad) return value;
      grad.fill(0);
      gz[K]![0] = 1;
      for (let k = K; k >= 0; k--) {
        const l = layers[k]!;
        if (k > 0) gz[k - 1]!.fill(0);
        for (let i = 0; i < l.out; i++) {
          const g = k < K ? gz[k]![i]! * sigmoid(pre[k]![i]!, tau) : gz[k]![i]!;
          if (g === 0) continue;
          for (let j = 0; j < nA; j++) grad[j]! += g * l.wx[i * n + nS + j]!;
          if (l.wz) for (let j = 0; j < l.in; j++) gz[k - 1]![j]! += g * l.wz[i * l.in + j]!;
        }
      }
      return value;
    },
  };
}
