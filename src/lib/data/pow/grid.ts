/**
 * AC power flow on a MATPOWER-style case: the bus admittance matrix Y = G + jB (per unit on the
 * case's base), the net injections S = V ⊙ conj(Y·V) in complex arithmetic and in the written
 * real form of the paper (§5.1, with its q_i typo corrected), and a Newton–Raphson power flow in
 * polar coordinates with slack, PV and PQ buses. Plain float64; no randomness.
 */
import { PQ, PV, SLACK, type BusType, type PowerCase } from "./case5.js";
import { cos, sin } from "../../core/index.js";
import { solveSquare } from "../../numeric/index.js";

export interface Grid {
  power: PowerCase;
  /** Buses, in the case's order (index a ↔ power.buses[a]). */
  n: number;
  /** Y = G + jB, row-major n×n, per unit. */
  G: Float64Array;
  B: Float64Array;
  types: BusType[];
  slack: number;
  /** Non-slack buses (θ unknown) and PQ buses (|V| unknown), as indices. */
  pvpq: number[];
  pq: number[];
  /** |V| setpoints: the generators' Vg at PV and slack buses, the case's Vm elsewhere. */
  vset: Float64Array;
}

/**
 * Y from the branch data as MATPOWER's makeYbus builds it: series admittance y_s = 1/(r + jx),
 * half the line charging jb/2 at each end, a tap t = ratio·e^{j·shift} on the from side
 * (Y_ff = (y_s + jb/2)/|t|², Y_ft = −y_s/conj(t), Y_tf = −y_s/t, Y_tt = y_s + jb/2), and bus
 * shunts (Gs + jBs)/baseMVA on the diagonal. Branches out of service are left out.
 */
export function admittanceMatrix(power: PowerCase): { G: Float64Array; B: Float64Array } {
  const n = power.buses.length;
  const index = busIndex(power);
  const G = new Float64Array(n * n);
  const B = new Float64Array(n * n);
  const add = (i: number, k: number, re: number, im: number) => {
    G[i * n + k] = G[i * n + k]! + re;
    B[i * n + k] = B[i * n + k]! + im;
  };
  for (const branch of power.branches) {
    if (!branch.status) continue;
    const f = index(branch.from);
    const t = index(branch.to);
    const d = branch.r * branch.r + branch.x * branch.x;
    const gs = branch.r / d;
    const bs = -branch.x / d;
    const tap = branch.ratio === 0 ? 1 : branch.ratio;
    const shift = (branch.angle * Math.PI) / 180;
    const tr = tap * cos(shift);
    const ti = tap * sin(shift);
    // Y_tt = y_s + jb/2; Y_ff = Y_tt/|t|²
    add(t, t, gs, bs + branch.b / 2);
    add(f, f, gs / (tap * tap), (bs + branch.b / 2) / (tap * tap));
    // Y_ft = −y_s/conj(t) = −y_s·t/|t|²; Y_tf = −y_s/t = −y_s·conj(t)/|t|²
    const t2 = tap * tap;
    add(f, t, -(gs * tr - bs * ti) / t2, -(gs * ti + bs * tr) / t2);
    add(t, f, -(gs * tr + bs * ti) / t2, -(bs * tr - gs * ti) / t2);
  }
  power.buses.forEach((bus, a) => {
    add(a, a, bus.gs / power.baseMVA, bus.bs / power.baseMVA);
  });
  return { G, B };
}

/** Bus id → index in the case's bus list. */
export function busIndex(power: PowerCase): (id: number) => number {
  const map = new Map(power.buses.map((bus, a) => [bus.id, a]));
  return (id) => {
    const a = map.get(id);
    if (a === undefined) throw new RangeError(`${power.name}: no bus ${id}`);
    return a;
  };
}

export function makeGrid(power: PowerCase): Grid {
  const { G, B } = admittanceMatrix(power);
  const n = power.buses.length;
  const types = power.buses.map((bus) => bus.type);
  const slack = types.indexOf(SLACK);
  if (slack < 0 || types.lastIndexOf(SLACK) !== slack)
    throw new RangeError(`${power.name}: needs exactly one slack bus`);
  const vset = Float64Array.from(power.buses, (bus) => bus.vm);
  const index = busIndex(power);
  for (const g of power.generators) {
    const a = index(g.bus);
    if (g.status && types[a] !== PQ) vset[a] = g.vg;
  }
  const pvpq = types.flatMap((type, a) => (type === PV || type === PQ ? [a] : []));
  const pq = types.flatMap((type, a) => (type === PQ ? [a] : []));
  return { power, n, G, B, types, slack, pvpq, pq, vset };
}

/** S = V ⊙ conj(Y·V) in complex arithmetic: net injections p + jq (pu) from V = u + jv. */
export function injections(
  grid: Pick<Grid, "n" | "G" | "B">,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
): { p: Float64Array; q: Float64Array } {
  const { n, G, B } = grid;
  const p = new Float64Array(n);
  const q = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // I_i = Σ_k Y_ik·V_k
    let ir = 0;
    let ii = 0;
    for (let k = 0; k < n; k++) {
      const g = G[i * n + k]!;
      const b = B[i * n + k]!;
      ir += g * u[k]! - b * v[k]!;
      ii += g * v[k]! + b * u[k]!;
    }
    // S_i = V_i·conj(I_i)
    p[i] = u[i]! * ir + v[i]! * ii;
    q[i] = v[i]! * ir - u[i]! * ii;
  }
  return { p, q };
}

/**
 * The paper's written form (§5.1), with q_i corrected:
 * p_i = Σ_m G_im(u_i·u_m + v_i·v_m) + B_im(v_i·u_m − u_i·v_m),
 * q_i = Σ_m G_im(v_i·u_m − u_i·v_m) − B_im(u_i·u_m + v_i·v_m).
 * (The paper prints −B_im(v_i·u_m − u_i·v_m) as q_i's last bracket, a typo.)
 */
export function writtenInjections(
  grid: Pick<Grid, "n" | "G" | "B">,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
): { p: Float64Array; q: Float64Array } {
  const { n, G, B } = grid;
  const p = new Float64Array(n);
  const q = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < n; m++) {
      const g = G[i * n + m]!;
      const b = B[i * n + m]!;
      p[i] = p[i]! + g * (u[i]! * u[m]! + v[i]! * v[m]!) + b * (v[i]! * u[m]! - u[i]! * v[m]!);
      q[i] = q[i]! + g * (v[i]! * u[m]! - u[i]! * v[m]!) - b * (u[i]! * u[m]! + v[i]! * v[m]!);
    }
  }
  return { p, q };
}

export interface PowerFlowSolution {
  vm: Float64Array;
  /** Angles in radians. */
  va: Float64Array;
  iterations: number;
  /** Largest |mismatch| (pu) of the specified injections at the solution. */
  mismatch: number;
}

/** P_i and Q_i in polar form. */
function polarInjections(grid: Grid, vm: Float64Array, va: Float64Array, p: Float64Array, q: Float64Array): void {
  const { n, G, B } = grid;
  for (let i = 0; i < n; i++) {
    let pi = 0;
    let qi = 0;
    for (let k = 0; k < n; k++) {
      const g = G[i * n + k]!;
      const b = B[i * n + k]!;
      if (g === 0 && b === 0) continue;
      const t = va[i]! - va[k]!;
      const c = cos(t);
      const s = sin(t);
      pi += vm[k]! * (g * c + b * s);
      qi += vm[k]! * (g * s - b * c);
    }
    p[i] = vm[i]! * pi;
    q[i] = vm[i]! * qi;
  }
}

/** Stop once every mismatch is below this (pu); the float64 floor of these sums is ~1e-13. */
const TARGET = 1e-12;
/** A solution whose mismatch is above this is an error, never data. */
export const POWER_FLOW_TOLERANCE = 1e-10;

/**
 * Newton–Raphson AC power flow in polar coordinates. Unknowns: θ at PV and PQ buses, |V| at PQ
 * buses; the slack holds its |V| setpoint and θ = 0 (the case's Va), PV buses their |V| setpoint.
 * `pSpec` (PV and PQ buses) and `qSpec` (PQ buses) are net injections in pu. Reactive limits are
 * not enforced (a PV bus stays PV). Iterates until every mismatch is ≤ 1e-12 pu or a step stops
 * improving it; throws when the result is not below POWER_FLOW_TOLERANCE (1e-10 pu).
 */
export function powerFlow(
  grid: Grid,
  pSpec: ArrayLike<number>,
  qSpec: ArrayLike<number>,
  start?: { vm: ArrayLike<number>; va: ArrayLike<number> },
): PowerFlowSolution {
  const { n, G, B, pvpq, pq } = grid;
  const vm = Float64Array.from(start?.vm ?? grid.vset);
  const va = Float64Array.from(start?.va ?? new Float64Array(n));
  // Setpoints win over the start.
  grid.types.forEach((type, a) => {
    if (type !== PQ) vm[a] = grid.vset[a]!;
  });
  va[grid.slack] = (grid.power.buses[grid.slack]!.va * Math.PI) / 180;
  const np = pvpq.length;
  const m = np + pq.length;
  const p = new Float64Array(n);
  const q = new Float64Array(n);
  const F = new Float64Array(m);
  const mismatch = () => {
    polarInjections(grid, vm, va, p, q);
    let worst = 0;
    pvpq.forEach((a, r) => {
      F[r] = p[a]! - pSpec[a]!;
      worst = Math.max(worst, Math.abs(F[r]!));
    });
    pq.forEach((a, r) => {
      F[np + r] = q[a]! - qSpec[a]!;
      worst = Math.max(worst, Math.abs(F[np + r]!));
    });
    return worst;
  };
  let worst = mismatch();
  let iterations = 0;
  const J = new Float64Array(m * m);
  while (worst > TARGET && iterations < 30) {
    iterations++;
    J.fill(0);
    // Rows: ∂P_i (i ∈ pvpq), ∂Q_i (i ∈ pq); columns: θ_k (k ∈ pvpq), |V|_k (k ∈ pq).
    const rowsOf = [...pvpq.map((a) => ({ a, kind: "p" as const })), ...pq.map((a) => ({ a, kind: "q" as const }))];
    const colsOf = [...pvpq.map((a) => ({ a, kind: "t" as const })), ...pq.map((a) => ({ a, kind: "v" as const }))];
    rowsOf.forEach(({ a: i, kind }, r) => {
      colsOf.forEach(({ a: k, kind: wrt }, c) => {
        const g = G[i * n + k]!;
        const b = B[i * n + k]!;
        let value: number;
        if (i !== k) {
          const t = va[i]! - va[k]!;
          const cs = cos(t);
          const sn = sin(t);
          if (kind === "p") value = wrt === "t" ? vm[i]! * vm[k]! * (g * sn - b * cs) : vm[i]! * (g * cs + b * sn);
          else value = wrt === "t" ? -vm[i]! * vm[k]! * (g * cs + b * sn) : vm[i]! * (g * sn - b * cs);
        } else if (kind === "p") value = wrt === "t" ? -q[i]! - b * vm[i]! * vm[i]! : p[i]! / vm[i]! + g * vm[i]!;
        else value = wrt === "t" ? p[i]! - g * vm[i]! * vm[i]! : q[i]! / vm[i]! - b * vm[i]!;
        J[r * m + c] = value;
      });
    });
    const dx = solveSquare(
      Float64Array.from(J),
      F.map((f) => -f),
      m,
    );
    if (!dx) throw new RangeError("power flow: singular Jacobian");
    const saved = { vm: Float64Array.from(vm), va: Float64Array.from(va) };
    pvpq.forEach((a, c) => {
      va[a] = va[a]! + dx[c]!;
    });
    pq.forEach((a, c) => {
      vm[a] = vm[a]! + dx[np + c]!;
    });
    const next = mismatch();
    if (!(next < worst)) {
      // At the float64 floor a step no longer helps: keep the better point.
      if (!(next <= worst)) {
        vm.set(saved.vm);
        va.set(saved.va);
        worst = mismatch();
      }
      break;
    }
    worst = next;
  }
  if (!(worst <= POWER_FLOW_TOLERANCE))
    throw new RangeError(`power flow did not converge: mismatch ${worst} pu after ${iterations} iterations`);
  return { vm, va, iterations, mismatch: worst };
}

/** Largest |mismatch| of the specified injections at V = u + jv, from S = V ⊙ conj(Y·V). */
export function powerFlowResidual(
  grid: Grid,
  u: ArrayLike<number>,
  v: ArrayLike<number>,
  pSpec: ArrayLike<number>,
  qSpec: ArrayLike<number>,
): number {
  const { p, q } = injections(grid, u, v);
  let worst = 0;
  for (const a of grid.pvpq) worst = Math.max(worst, Math.abs(p[a]! - pSpec[a]!));
  for (const a of grid.pq) worst = Math.max(worst, Math.abs(q[a]! - qSpec[a]!));
  return worst;
}
