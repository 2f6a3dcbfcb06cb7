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
 * box and the rows, attained at the returned a. The search rounds the answer at 0.5 (binary
 * actions would make it a MILP: 0.6–2.9 s on untrained nets, docs/design.md#milp-cost, against milliseconds
 * for the LP; the MILP solver that nothing called was removed).
 *
 * HiGHS (npm `highs`, HiGHS compiled to WebAssembly) solves it. The model is passed as sparse
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
import type { Icnn, IcnnLayer } from "./icnn.js";

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
  /** The minimum found: the solver's objective (it equals `forward` up to the solver's tolerances). */
  value: number;
  /** The net's forward value at the returned action. */
  forward: number;
  /** "lp": the LP relaxation over the box (the only solver; the search rounds its answer at 0.5). */
  method: "lp";
  /** Entries of the solver's answer not in {0, 1} up to 1e-6 (before any rounding). */
  fractional: number;
  /** The solver proved optimality (within its tolerances). */
  optimal: boolean;
}

export interface ArgminSolver {
  /** LP relaxation over the box (exact for a ReLU ICNN via the epigraph form). */
  lp(net: Icnn, state: ArrayLike<number>, c?: ActionConstraints): ArgminResult;
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

const SNAP_TOL = 1e-9;
/** An entry farther than this from 0 and 1 counts as fractional. */
const INTEGRAL_TOL = 1e-6;

let defaultRuntime: Promise<Highs> | null = null;

/** Loads HiGHS (once per process for the default options) and returns the LP argmin. */
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
    memoryBytes: () => highs.memoryBytes,
  };
}

/** Resolved bounds of the action; validates the constraints. */
function actionBounds(nA: number, c: ActionConstraints | undefined): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(nA),
    hi = new Float64Array(nA).fill(1);
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
      throw new RangeError(
        `argmin: action ${j} has bounds [${lo[j]}, ${hi[j]}], which are not within [0, 1] or are empty`,
      );
    }
  }
  return { lo, hi };
}

/** Rows with merged duplicate indices and validated entries. */
function actionRows(
  nA: number,
  c: ActionConstraints | undefined,
): { index: number[]; coef: number[]; lo: number; hi: number }[] {
  return (c?.rows ?? []).map((r, q) => {
    if (r.index.length !== r.coef.length)
      throw new RangeError(`argmin: row ${q} has ${r.index.length} indices but ${r.coef.length} coefficients`);
    if (Number.isNaN(r.lo) || Number.isNaN(r.hi) || r.lo > r.hi)
      throw new RangeError(`argmin: row ${q} has bounds [${r.lo}, ${r.hi}]`);
    const merged = new Map<number, number>();
    r.index.forEach((j, t) => {
      if (!Number.isInteger(j) || j < 0 || j >= nA)
        throw new RangeError(`argmin: row ${q} refers to action ${j} (there are ${nA})`);
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
  if (state.length !== net.shape.state)
    throw new RangeError(`argmin: state has length ${state.length}, expected ${net.shape.state}`);
  for (let j = 0; j < state.length; j++)
    if (!Number.isFinite(state[j]!)) throw new RangeError(`argmin: state entry ${j} is not finite`);
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
function buildModel(highs: Highs, net: Icnn, state: ArrayLike<number>, p: Problem) {
  const { nS, nA } = p;
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
  const colLower = new Float64Array(numCols),
    colUpper = new Float64Array(numCols).fill(inf);
  colLower.set(p.lo);
  colUpper.set(p.hi);
  const colCost = new Float64Array(numCols);
  const csr: CsrRows = { starts: [0], indices: [], values: [], rowLower: [], rowUpper: [] };
  addLayerRows(csr, hidden, zCol, state, p, inf);
  addConstraintRows(csr, p.rows, inf);
  const out = layers[K]!;
  for (let j = 0; j < nA; j++) colCost[j] = out.wx[nS + j]!;
  if (out.wz && K > 0) for (let j = 0; j < out.in; j++) colCost[zCol[K - 1]! + j] = out.wz[j]!;
  const { starts, indices, values, rowLower, rowUpper } = csr;
  const numRows = rowLower.length;
  return {
    numCols,
    numRows,
    offset: out.b[0]! + stateDot(out.wx, 0, state, nS, nS + nA),
    colCost,
    colLower,
    colUpper,
    rowLower,
    rowUpper,
    matrix: { format: "csr" as const, numRows, numCols, starts, indices, values },
  };
}

/** The LP's rows, built one at a time: the matrix in compressed sparse rows and each row's bounds. */
interface CsrRows {
  starts: number[];
  indices: number[];
  values: number[];
  rowLower: number[];
  rowUpper: number[];
}

/** Σ_j wx[i, j]·state[j] over the state's columns of row i of a layer's input weights (n columns). */
function stateDot(wx: Float64Array, i: number, state: ArrayLike<number>, nS: number, n: number): number {
  let v = 0;
  for (let j = 0; j < nS; j++) v += wx[i * n + j]! * state[j]!;
  return v;
}

/**
 * The epigraph rows of the hidden layers: z_k[i] − Wx·a − Wz·z_{k−1} ≥ b + Wx·s for each unit,
 * zCol[k] being layer k's first z column.
 */
function addLayerRows(
  csr: CsrRows,
  hidden: readonly IcnnLayer[],
  zCol: readonly number[],
  state: ArrayLike<number>,
  p: Problem,
  inf: number,
): void {
  const { nS, nA } = p;
  const n = nS + nA;
  const { starts, indices, values, rowLower, rowUpper } = csr;
  hidden.forEach((l, k) => {
    for (let i = 0; i < l.out; i++) {
      // Entries in increasing column order: a, then z_{k−1}, then z_k[i].
      for (let j = 0; j < nA; j++) {
        const w = l.wx[i * n + nS + j]!;
        if (w !== 0) {
          indices.push(j);
          values.push(-w);
        }
      }
      if (l.wz && k > 0) {
        for (let j = 0; j < l.in; j++) {
          const w = l.wz[i * l.in + j]!;
          if (w !== 0) {
            indices.push(zCol[k - 1]! + j);
            values.push(-w);
          }
        }
      }
      indices.push(zCol[k]! + i);
      values.push(1);
      starts.push(indices.length);
      rowLower.push(l.b[i]! + stateDot(l.wx, i, state, nS, n));
      rowUpper.push(inf);
    }
  });
}

/** The action constraints' rows (a bound of ±Infinity becomes HiGHS's infinity). */
function addConstraintRows(csr: CsrRows, rows: Problem["rows"], inf: number): void {
  const { starts, indices, values, rowLower, rowUpper } = csr;
  for (const r of rows) {
    r.index.forEach((j, t) => {
      if (r.coef[t] !== 0) {
        indices.push(j);
        values.push(r.coef[t]!);
      }
    });
    starts.push(indices.length);
    rowLower.push(r.lo === -Infinity ? -inf : r.lo);
    rowUpper.push(r.hi === Infinity ? inf : r.hi);
  }
}

function solveLp(highs: Highs, net: Icnn, state: ArrayLike<number>, p: Problem): ArgminResult {
  const out = runModel(highs, buildModel(highs, net, state, p));
  return finish(net, state, p, out.colValue, out.objective, out.optimal);
}

function runModel(
  highs: Highs,
  modelData: ReturnType<typeof buildModel>,
): { colValue: Float64Array; objective: number; optimal: boolean } {
  const status = highs.constants.modelStatus;
  const model = highs.createModel(modelData);
  try {
    model.options.set({ output_flag: false });
    model.run();
    const ms = model.getModelStatus();
    const hasPoint = model.info.get("primal_solution_status") === highs.constants.solutionStatus.feasible;
    if (ms === status.infeasible) throw new Error("argmin: the action constraints are infeasible");
    if (ms === status.unbounded || ms === status.unboundedOrInfeasible)
      throw new Error("argmin: HiGHS reports the model unbounded or infeasible");
    if (!hasPoint) throw new Error(`argmin: HiGHS ended with model status ${ms} and no solution`);
    return {
      colValue: model.getSolution().colValue,
      objective: model.getObjectiveValue(),
      optimal: ms === status.optimal,
    };
  } finally {
    model.dispose();
  }
}

function finish(
  net: Icnn,
  state: ArrayLike<number>,
  p: Problem,
  colValue: Float64Array,
  objective: number,
  optimal: boolean,
): ArgminResult {
  const raw = colValue.subarray(0, p.nA);
  const fractional = countFractional(raw);
  const action = new Float64Array(p.nA);
  for (let j = 0; j < p.nA; j++) {
    let v = Math.min(p.hi[j]!, Math.max(p.lo[j]!, raw[j]!));
    if (Math.abs(v) < SNAP_TOL) v = 0;
    else if (Math.abs(1 - v) < SNAP_TOL) v = 1;
    action[j] = v;
  }
  return { action, value: objective, forward: net.value(state, action), method: "lp", fractional, optimal };
}

/** Rounds at 0.5: entries ≥ 0.5 become 1, the others 0. */
export function roundAction(action: ArrayLike<number>): Float64Array {
  const out = new Float64Array(action.length);
  for (let j = 0; j < action.length; j++) out[j] = action[j]! >= 0.5 ? 1 : 0;
  return out;
}

const solvers = new Map<string, Promise<ArgminSolver>>();

/**
 * The search's argmin solver with HiGHS loaded from `highsWasmUrl`, one per URL per page. The URL
 * goes in through `locateFile`: highs 1.15's ESM build never reads a `wasmBinary` option (its
 * Emscripten glue declares the variable but does not take it from the module argument), so bytes
 * passed that way are ignored and it falls back to `highs.wasm` beside its own module.
 */
export function browserArgmin(highsWasmUrl: string): Promise<ArgminSolver> {
  let solver = solvers.get(highsWasmUrl);
  if (!solver) {
    solver = createArgminSolver({ locateFile: () => highsWasmUrl });
    solver.catch(() => solvers.delete(highsWasmUrl));
    solvers.set(highsWasmUrl, solver);
  }
  return solver;
}
