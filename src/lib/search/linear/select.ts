/**
 * Sparse selection over library columns: which k columns (k = 1…maxTerms) explain y best by
 * least squares. Forward selection by exact residual reduction (orthogonal least squares) as a
 * beam, then an exchange pass (swap a member for any column while the residual drops), so that
 * an early impostor does not fix the rest (docs/design.md#greedy-selection).
 * Subsets are scored in coefficient space (Columns, below): rows are touched once per column
 * that enters a subset, not once per subset scored. Decisions are made on float64 values, so a
 * result is the same on every engine. The work is written as steps (clock.ts) that yield
 * between subsets, so a search can be stopped inside it.
 */
import { runSteps, type Steps } from "../../core/index.js";
import { dot } from "../../numeric/index.js";

export interface Subset {
  /** Column indices, ascending. */
  members: number[];
  /** Train NRMSE of the least-squares fit on the screening rows. */
  nrmse: number;
}

export interface SelectOptions {
  maxTerms: number;
  /** Nodes kept per depth (default 12). */
  beam?: number;
  /** Rows used for screening, evenly strided (default 400). */
  rows?: number;
  /**
   * Every subset holds an additive constant (default false): y and the columns are centred on
   * the screening rows, so a subset of k columns is the least-squares fit y ≈ c + Σ β_j·a_j, as
   * the search fits every structure with a constant. Centring also keeps the coefficient-space
   * scores exact where columns are close to constant (x ≈ 1 beside x², x·z …): uncentred, such
   * columns are nearly collinear with each other and the scores cancel catastrophically.
   */
  center?: boolean;
}

/** Subsets of one size are enumerated exhaustively when there are at most this many. */
const EXHAUSTIVE = 20000;

/** A centred column with less than this share of its norm left holds one value (up to rounding): zero. */
const CONSTANT_COLUMN = 1e-9;

/** Strided rows, columns scaled to unit norm (zero columns stay zero); centred first with `center`. */
function screening(columns: readonly Float64Array[], y: Float64Array, rows: number, center: boolean) {
  const n = y.length;
  const step = Math.max(1, Math.floor(n / rows));
  const m = Math.ceil(n / step);
  const take = (v: Float64Array) => {
    const out = new Float64Array(m);
    for (let i = 0; i < m; i++) out[i] = v[i * step]!;
    return out;
  };
  const centred = (v: Float64Array) => {
    let mean = 0;
    for (let r = 0; r < v.length; r++) mean += v[r]!;
    mean /= v.length;
    for (let r = 0; r < v.length; r++) v[r]! -= mean;
    return v;
  };
  const a = columns.map((c) => {
    const v = take(c);
    const before = center ? Math.sqrt(dot(v, v)) : 0;
    if (center) centred(v);
    const norm = Math.sqrt(dot(v, v));
    if (center && !(norm > CONSTANT_COLUMN * before)) v.fill(0);
    else if (norm > 0) for (let r = 0; r < v.length; r++) v[r]! /= norm;
    return v;
  });
  const ys = take(y);
  if (center) centred(ys);
  let mean = 0;
  for (const v of ys) mean += v;
  mean /= ys.length;
  let variance = 0;
  for (const v of ys) variance += (v - mean) ** 2;
  return { a, y: ys, scale: Math.sqrt(variance) || 1 };
}

/**
 * The screening columns as the selection sees them: unit-norm columns a_j, y, b = Aᵀy and the
 * Gram columns Aᵀa_j, each computed once when a subset first takes column j. Every subset is
 * then scored in coefficient space (K numbers per basis vector, not rows): the orthonormal basis
 * q_i of a subset's columns is held as P_i = Aᵀq_i, and adding column j leaves the RSS
 * rss − c_j²/room_j, with room_j = 1 − Σ_i P_i[j]² and c_j = a_jᵀr = b_j − Σ_i P_i[j]·(q_iᵀy).
 * A subset's recorded NRMSE is recomputed from its columns' rows (recordedRss): the coefficient
 * space ranks, the rows decide.
 */
class Columns {
  readonly a: readonly Float64Array[];
  readonly y: Float64Array;
  readonly b: Float64Array;
  readonly yy: number;
  readonly #gram = new Map<number, Float64Array>();

  constructor(a: readonly Float64Array[], y: Float64Array) {
    this.a = a;
    this.y = y;
    this.b = Float64Array.from(a, (column) => dot(column, y));
    this.yy = dot(y, y);
  }

  get size(): number {
    return this.a.length;
  }

  /** Aᵀa_j (K inner products of n rows; kept). */
  gram(j: number): Float64Array {
    let g = this.#gram.get(j);
    if (!g) {
      const aj = this.a[j]!;
      g = new Float64Array(this.a.length);
      for (let k = 0; k < this.a.length; k++) g[k] = dot(this.a[k]!, aj);
      this.#gram.set(j, g);
    }
    return g;
  }

  /** The subset without columns. */
  root(): Node {
    return {
      members: [],
      basis: [],
      weights: [],
      rss: this.yy,
      // A zero column (one value on every row, centred) counts as collinear with everything.
      projected: Float64Array.from(this.a, (column) => (column.every((v) => v === 0) ? 1 : 0)),
      correlation: Float64Array.from(this.b),
    };
  }
}

interface Node {
  /** Column indices, ascending. */
  members: number[];
  /** P_i = Aᵀq_i per orthonormal basis vector q_i of the members' columns. */
  basis: Float64Array[];
  /** q_iᵀy per basis vector. */
  weights: number[];
  /** The least-squares RSS of y on the members. */
  rss: number;
  /** Σ_i P_i[j]² for every column j (columns are unit-norm: 1 − this is what j adds). */
  projected: Float64Array;
  /** a_jᵀr for every column j, r the members' residual. */
  correlation: Float64Array;
}

/** Below this share of a unit column outside a subset's span, the column counts as collinear with it. */
const ROOM = 1e-12;

/** The RSS of the node's members with column j added (NaN when j is collinear with them). */
function trialRss(node: Node, j: number): number {
  const room = 1 - node.projected[j]!;
  if (!(room > ROOM)) return Number.NaN;
  const c = node.correlation[j]!;
  return node.rss - (c * c) / room;
}

/**
 * The child of a node with column j added (null when j is collinear with the members). Only the
 * entries of columns `from` on are computed (the others are left 0): the exhaustive walk's
 * descendants of a child look at later columns only.
 */
function extend(node: Node, j: number, columns: Columns, from = 0, into?: Scratch): Node | null {
  const room = 1 - node.projected[j]!;
  if (!(room > ROOM)) return null;
  const norm = Math.sqrt(room);
  const g = columns.gram(j);
  const k = columns.size;
  const p = into?.p ?? new Float64Array(k);
  for (let i = from; i < k; i++) p[i] = g[i]!;
  for (const q of node.basis) {
    const c = q[j]!;
    for (let i = from; i < k; i++) p[i]! -= c * q[i]!;
  }
  for (let i = from; i < k; i++) p[i]! /= norm;
  const w = node.correlation[j]! / norm;
  const projected = into?.projected ?? new Float64Array(k);
  const correlation = into?.correlation ?? new Float64Array(k);
  for (let i = from; i < k; i++) {
    projected[i] = node.projected[i]! + p[i]! * p[i]!;
    correlation[i] = node.correlation[i]! - w * p[i]!;
  }
  return {
    members: into ? [...node.members, j] : [...node.members, j].sort((x, z) => x - z),
    basis: [...node.basis, p],
    weights: [...node.weights, w],
    rss: Math.max(0, node.rss - w * w),
    projected,
    correlation,
  };
}

/**
 * Arrays a node's vectors are written into instead of fresh ones: the exhaustive walk holds one
 * per depth, as a depth-first walk needs a node only until its next sibling is built. Entries
 * before `from` keep what an earlier node left there; no descendant reads them.
 */
interface Scratch {
  p: Float64Array;
  projected: Float64Array;
  correlation: Float64Array;
}

/** The node of a set of columns (null when they are collinear). */
function nodeOf(members: readonly number[], columns: Columns): Node | null {
  let node: Node | null = columns.root();
  for (const j of members) node = node && extend(node, j, columns);
  return node;
}

/**
 * The RSS of y on a set of columns from their rows: modified Gram–Schmidt with the residual
 * carried as a vector, so an exact fit reads as exact (no yᵀy − Σ(qᵀy)² cancellation).
 */
function recordedRss(members: readonly number[], a: readonly Float64Array[], y: Float64Array): number {
  const basis: Float64Array[] = [];
  const residual = Float64Array.from(y);
  for (const j of members) {
    const v = Float64Array.from(a[j]!);
    for (const q of basis) {
      const c = dot(q, v);
      for (let r = 0; r < v.length; r++) v[r]! -= c * q[r]!;
    }
    const norm = Math.sqrt(dot(v, v));
    if (!(norm > 1e-7)) continue;
    for (let r = 0; r < v.length; r++) v[r]! /= norm;
    basis.push(v);
    const c = dot(v, residual);
    for (let r = 0; r < residual.length; r++) residual[r]! -= c * v[r]!;
  }
  return dot(residual, residual);
}

/**
 * Swaps one member at a time for the column that lowers the RSS most, while it drops: for each
 * slot the other members' subset is built once, and every column is scored by its exact RSS
 * drop against it.
 */
function* exchange(
  members: number[],
  rss: number,
  columns: Columns,
  passes = 3,
): Steps<{ members: number[]; rss: number }> {
  let best = { members: [...members], rss };
  for (let pass = 0; pass < passes; pass++) {
    let improved = false;
    for (let slot = 0; slot < best.members.length; slot++) {
      yield;
      const others = best.members.filter((_, s) => s !== slot);
      const base = nodeOf(others, columns);
      if (!base) continue;
      let choice = -1;
      let value = best.rss * (1 - 1e-9);
      for (let j = 0; j < columns.size; j++) {
        if (best.members.includes(j)) continue;
        const trial = trialRss(base, j);
        if (trial < value) {
          value = trial;
          choice = j;
        }
      }
      if (choice >= 0) {
        best = { members: [...others, choice], rss: Math.max(0, value) };
        improved = true;
      }
    }
    if (!improved) break;
  }
  return { members: [...best.members].sort((x, z) => x - z), rss: best.rss };
}

/**
 * Every k-subset by its RSS (depth-first, sharing each prefix's basis; the last column scored
 * without building its node); the `keep` best.
 */
function* exhaustive(columns: Columns, k: number, keep: number): Steps<{ members: number[]; rss: number }[]> {
  const out: { members: number[]; rss: number }[] = [];
  let visited = 0;
  // Once the list was cut to the best `keep`, a subset no better than the last kept would be cut
  // again (the sort is stable, so a tie with it sorts after it): it is not listed.
  let cut = Number.POSITIVE_INFINITY;
  const scratch: Scratch[] = [];
  const walk = function* (start: number, node: Node): Steps<void> {
    if ((++visited & 15) === 0) yield;
    if (node.members.length === k - 1) {
      for (let j = start; j < columns.size; j++) {
        const rss = trialRss(node, j);
        if (Number.isNaN(rss) || !(Math.max(0, rss) < cut)) continue;
        out.push({ members: [...node.members, j], rss: Math.max(0, rss) });
      }
      if (out.length > 4 * keep) {
        out.sort((p, q) => p.rss - q.rss);
        out.length = keep;
        cut = out[keep - 1]!.rss;
      }
      return;
    }
    const depth = node.members.length;
    scratch[depth] ??= {
      p: new Float64Array(columns.size),
      projected: new Float64Array(columns.size),
      correlation: new Float64Array(columns.size),
    };
    for (let j = start; j < columns.size; j++) {
      // Members stay ascending without a sort: j only grows down the walk.
      const child = extend(node, j, columns, j + 1, scratch[depth]);
      if (child) yield* walk(j + 1, child);
    }
  };
  yield* walk(0, columns.root());
  out.sort((p, q) => p.rss - q.rss);
  return out.slice(0, keep);
}

/** C(n, k), or cap + 1 when it is larger. */
function choose(n: number, k: number, cap: number): number {
  let c = 1;
  for (let i = 0; i < k; i++) {
    c = (c * (n - i)) / (i + 1);
    if (c > cap) return cap + 1;
  }
  return Math.round(c);
}

/**
 * Candidate subsets of 1…maxTerms columns, each depth's beam plus the exchanged best of each
 * depth, best first by NRMSE; duplicates removed.
 */
export function selectSubsets(columns: readonly Float64Array[], y: Float64Array, options: SelectOptions): Subset[] {
  return runSteps(selectSubsetsSteps(columns, y, options));
}

/** selectSubsets as interruptible steps. */
export function* selectSubsetsSteps(
  columns: readonly Float64Array[],
  y: Float64Array,
  options: SelectOptions,
): Steps<Subset[]> {
  return yield* new Selection(columns, y, options).upTo(options.maxTerms);
}

/**
 * A selection that can go deeper later: the subsets of up to k columns do not depend on how deep
 * the selection goes, so a search whose size grows asks the same library for more terms without
 * redoing the smaller ones (upTo(3) after upTo(2) returns what upTo(3) alone would).
 */
export class Selection {
  readonly #a: readonly Float64Array[];
  readonly #y: Float64Array;
  readonly #scale: number;
  readonly #library: Columns;
  readonly #beamWidth: number;
  readonly #out = new Map<string, Subset>();
  #beam: Node[];
  #depth = 0;

  constructor(columns: readonly Float64Array[], y: Float64Array, options: Omit<SelectOptions, "maxTerms">) {
    this.#beamWidth = options.beam ?? 12;
    const { a, y: ys, scale } = screening(columns, y, options.rows ?? 400, options.center ?? false);
    this.#a = a;
    this.#y = ys;
    this.#scale = scale;
    this.#library = new Columns(a, ys);
    this.#beam = [this.#library.root()];
  }

  #record(members: number[]): void {
    const key = members.join(",");
    if (this.#out.has(key)) return;
    const rss = recordedRss(members, this.#a, this.#y);
    this.#out.set(key, { members, nrmse: Math.sqrt(Math.max(0, rss)) / this.#scale });
  }

  /** Subsets of 1…maxTerms columns, best first by NRMSE (then fewer columns). */
  *upTo(maxTerms: number): Steps<Subset[]> {
    const a = this.#a;
    const library = this.#library;
    for (let depth = this.#depth + 1; depth <= maxTerms && this.#beam.length > 0; depth++) {
      // Score every (node, column) by its exact RSS drop, then build the best children only.
      const scored: { node: Node; j: number; rss: number }[] = [];
      for (const node of this.#beam) {
        yield;
        for (let j = 0; j < a.length; j++) {
          if (node.members.includes(j)) continue;
          const rss = trialRss(node, j);
          if (!Number.isNaN(rss)) scored.push({ node, j, rss });
        }
      }
      scored.sort((p, q) => p.rss - q.rss);
      const next: Node[] = [];
      const keys = new Set<string>();
      for (const s of scored) {
        if (next.length >= this.#beamWidth) break;
        const key = [...s.node.members, s.j].sort((x, z) => x - z).join(",");
        if (keys.has(key)) continue;
        yield;
        const child = extend(s.node, s.j, library);
        if (!child) continue;
        keys.add(key);
        next.push(child);
      }
      this.#beam = next;
      for (const node of next) this.#record(node.members);
      for (const node of next.slice(0, 3)) this.#record((yield* exchange(node.members, node.rss, library)).members);
      if (choose(a.length, depth, EXHAUSTIVE) <= EXHAUSTIVE)
        for (const s of yield* exhaustive(library, depth, this.#beamWidth)) this.#record(s.members);
      this.#depth = depth;
    }
    return [...this.#out.values()]
      .filter((subset) => subset.members.length <= maxTerms)
      .sort((p, q) => p.nrmse - q.nrmse || p.members.length - q.members.length);
  }
}
