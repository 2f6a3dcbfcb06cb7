/**
 * Sparse selection over library columns: which k columns (k = 1…maxTerms) explain y best by
 * least squares. Forward selection by exact residual reduction (orthogonal least squares) as a
 * beam, then an exchange pass (swap a member for any column while the residual drops), so that
 * an early impostor does not fix the rest (SEARCH-NOTES: greedy selection alone is not enough).
 * Decisions are made on float64 values, so a result is the same on every engine. The work is
 * written as steps (clock.ts) that yield every few dozen columns, so a search can be stopped
 * inside it.
 */
import { runSteps, type Steps } from "../clock.js";

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
}

interface Node {
  members: number[];
  /** Orthonormal basis of the members' columns. */
  basis: Float64Array[];
  residual: Float64Array;
  rss: number;
  /** Σ over the basis of (qᵀ a_j)² for every column j (columns are unit-norm). */
  projected: Float64Array;
}

/** Subsets of one size are enumerated exhaustively when there are at most this many. */
const EXHAUSTIVE = 20000;

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let r = 0; r < a.length; r++) s += a[r]! * b[r]!;
  return s;
};

/** Strided rows, columns scaled to unit norm (zero columns stay zero). */
function screening(columns: readonly Float64Array[], y: Float64Array, rows: number) {
  const n = y.length;
  const step = Math.max(1, Math.floor(n / rows));
  const pick = Array.from({ length: Math.ceil(n / step) }, (_, i) => i * step).filter((r) => r < n);
  const take = (v: Float64Array) => Float64Array.from(pick, (r) => v[r]!);
  const a = columns.map((c) => {
    const v = take(c);
    const norm = Math.sqrt(dot(v, v));
    if (norm > 0) for (let r = 0; r < v.length; r++) v[r]! /= norm;
    return v;
  });
  const ys = take(y);
  let mean = 0;
  for (const v of ys) mean += v;
  mean /= ys.length;
  let variance = 0;
  for (const v of ys) variance += (v - mean) ** 2;
  return { a, y: ys, scale: Math.sqrt(variance) || 1 };
}

/** The child of a node with column j added (null when j is collinear with the members). */
function extend(node: Node, j: number, a: readonly Float64Array[], project = true): Node | null {
  const v = Float64Array.from(a[j]!);
  for (const q of node.basis) {
    const c = dot(q, v);
    for (let r = 0; r < v.length; r++) v[r]! -= c * q[r]!;
  }
  const norm = Math.sqrt(dot(v, v));
  if (!(norm > 1e-7)) return null;
  for (let r = 0; r < v.length; r++) v[r]! /= norm;
  const c = dot(v, node.residual);
  const residual = Float64Array.from(node.residual, (x, r) => x - c * v[r]!);
  const projected = project ? Float64Array.from(node.projected, (p, k) => p + dot(v, a[k]!) ** 2) : node.projected;
  return {
    members: [...node.members, j].sort((x, z) => x - z),
    basis: [...node.basis, v],
    residual,
    rss: Math.max(0, node.rss - c * c),
    projected,
  };
}

/** The node of a set of columns (null when they are collinear); `projected` is left as it was. */
function nodeOf(members: readonly number[], a: readonly Float64Array[], y: Float64Array): Node | null {
  let node: Node | null = { members: [], basis: [], residual: y, rss: dot(y, y), projected: new Float64Array(0) };
  for (const j of members) node = node && extend(node, j, a, false);
  return node;
}

/**
 * Swaps one member at a time for the column that lowers the RSS most, while it drops: for each
 * slot the other members' fit is computed once, and every column is scored by its exact RSS
 * drop against it.
 */
function* exchange(
  members: number[],
  rss: number,
  a: readonly Float64Array[],
  y: Float64Array,
  passes = 3,
): Steps<{ members: number[]; rss: number }> {
  let best = { members: [...members], rss };
  for (let pass = 0; pass < passes; pass++) {
    let improved = false;
    for (let slot = 0; slot < best.members.length; slot++) {
      const others = best.members.filter((_, s) => s !== slot);
      const base = nodeOf(others, a, y);
      if (!base) continue;
      let choice = -1;
      let value = best.rss * (1 - 1e-9);
      for (let j = 0; j < a.length; j++) {
        if ((j & 63) === 63) yield;
        if (best.members.includes(j)) continue;
        let room = 1;
        for (const q of base.basis) room -= dot(q, a[j]!) ** 2;
        if (!(room > 1e-12)) continue;
        const c = dot(a[j]!, base.residual);
        const trial = base.rss - (c * c) / room;
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

/** Every k-subset by its exact RSS (depth-first, sharing each prefix's fit); the `keep` best. */
function* exhaustive(
  a: readonly Float64Array[],
  y: Float64Array,
  k: number,
  keep: number,
): Steps<{ members: number[]; rss: number }[]> {
  const out: { members: number[]; rss: number }[] = [];
  let visited = 0;
  const walk = function* (start: number, node: Node): Steps<void> {
    if ((++visited & 31) === 0) yield;
    if (node.members.length === k) {
      out.push({ members: [...node.members].sort((x, z) => x - z), rss: node.rss });
      if (out.length > 4 * keep) {
        out.sort((p, q) => p.rss - q.rss);
        out.length = keep;
      }
      return;
    }
    for (let j = start; j < a.length; j++) {
      const child = extend(node, j, a, false);
      if (child) yield* walk(j + 1, child);
    }
  };
  yield* walk(0, { members: [], basis: [], residual: y, rss: dot(y, y), projected: new Float64Array(0) });
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
  const beamWidth = options.beam ?? 12;
  const { a, y: ys, scale } = screening(columns, y, options.rows ?? 400);
  const nrmse = (rss: number) => Math.sqrt(Math.max(0, rss)) / scale;
  const out = new Map<string, Subset>();
  const record = (members: number[], rss: number) => {
    const key = members.join(",");
    const value = nrmse(rss);
    const old = out.get(key);
    if (!old || value < old.nrmse) out.set(key, { members, nrmse: value });
  };
  let beam: Node[] = [
    { members: [], basis: [], residual: ys, rss: dot(ys, ys), projected: new Float64Array(a.length) },
  ];
  for (let depth = 1; depth <= options.maxTerms && beam.length > 0; depth++) {
    // Score every (node, column) by its exact RSS drop, then build the best children only.
    const scored: { node: Node; j: number; rss: number }[] = [];
    for (const node of beam) {
      for (let j = 0; j < a.length; j++) {
        if ((j & 255) === 255) yield;
        if (node.members.includes(j)) continue;
        const room = 1 - node.projected[j]!;
        if (!(room > 1e-12)) continue;
        const c = dot(a[j]!, node.residual);
        scored.push({ node, j, rss: node.rss - (c * c) / room });
      }
    }
    scored.sort((p, q) => p.rss - q.rss);
    const next: Node[] = [];
    const keys = new Set<string>();
    for (const s of scored) {
      if (next.length >= beamWidth) break;
      const key = [...s.node.members, s.j].sort((x, z) => x - z).join(",");
      if (keys.has(key)) continue;
      yield;
      const child = extend(s.node, s.j, a);
      if (!child) continue;
      keys.add(key);
      next.push(child);
    }
    beam = next;
    for (const node of beam) record(node.members, node.rss);
    for (const node of beam.slice(0, 3)) {
      const swapped = yield* exchange(node.members, node.rss, a, ys);
      record(swapped.members, swapped.rss);
    }
    if (choose(a.length, depth, EXHAUSTIVE) <= EXHAUSTIVE)
      for (const s of yield* exhaustive(a, ys, depth, beamWidth)) record(s.members, s.rss);
  }
  return [...out.values()].sort((p, q) => p.nrmse - q.nrmse || p.members.length - q.members.length);
}
