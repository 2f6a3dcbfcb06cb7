/**
 * The mass-damper network of the Mas experiment (paper §5.1 (3)): q̇ = −D R Dᵀ M⁻¹ q, with q the
 * node momenta, D the incidence matrix (one column per damper: +1 at its first node, −1 at its
 * second; a damper to ground has the +1 only), R the diagonal matrix of dampings and M the
 * diagonal matrix of node masses. The paper gives no topology; this one is ours:
 *
 * - 10 nodes on a ring 1–2–…–10–1, two chords 1–6 and 3–8 (nodes 1, 3, 6, 8 have three
 *   neighbours, the others two), and one damper from node 1 to ground (so that D R Dᵀ is
 *   positive definite and every momentum decays);
 * - masses m_i ~ U(1, 2) kg and dampings r ~ U(0.1, 0.5) N·s/m (the 12 lines, then the ground
 *   damper), drawn from createRng(MAS_NETWORK_SEED): the network is one and the same for every
 *   run; a run's seed draws only its initial momenta.
 */
import { createRng } from "../../core/index.js";
import { log2 } from "../../core/index.js";

export const MAS_NETWORK_SEED = 2022;
export const MAS_MASS_RANGE: [number, number] = [1, 2];
export const MAS_DAMPING_RANGE: [number, number] = [0.1, 0.5];

/** Lines between nodes (1-based ids): the ring, then the chords. */
export const MAS_LINES: readonly [number, number][] = [
  [1, 2],
  [2, 3],
  [3, 4],
  [4, 5],
  [5, 6],
  [6, 7],
  [7, 8],
  [8, 9],
  [9, 10],
  [10, 1],
  [1, 6],
  [3, 8],
];
/** Nodes (1-based) with a damper to ground. */
export const MAS_GROUNDED: readonly number[] = [1];

export interface Damper {
  /** 1-based node ids; `to` is 0 for a damper to ground. */
  from: number;
  to: number;
  /** Damping, N·s/m. */
  r: number;
}

export interface MassDamperNetwork {
  /** Nodes. */
  n: number;
  /** Node masses (kg), index i for node i + 1. */
  masses: Float64Array;
  /** The dampers: the lines, then those to ground (the columns of D, in order). */
  dampers: Damper[];
  /** Incidence matrix, n × dampers.length, row-major. */
  D: Float64Array;
  /** A = −D R Dᵀ M⁻¹, n × n, row-major: q̇ = A q. */
  A: Float64Array;
}

/** −D R Dᵀ M⁻¹ from the masses and the dampers, by the matrix products as written. */
export function massDamperMatrix(n: number, masses: ArrayLike<number>, dampers: readonly Damper[]): Float64Array {
  const e = dampers.length;
  const D = incidence(n, dampers);
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < e; k++) s += D[i * e + k]! * dampers[k]!.r * D[j * e + k]!;
      A[i * n + j] = -s / masses[j]!;
    }
  return A;
}

function incidence(n: number, dampers: readonly Damper[]): Float64Array {
  const e = dampers.length;
  const D = new Float64Array(n * e);
  dampers.forEach((d, k) => {
    D[(d.from - 1) * e + k] = 1;
    if (d.to > 0) D[(d.to - 1) * e + k] = -1;
  });
  return D;
}

/** The network of MAS_LINES and MAS_GROUNDED with masses and dampings drawn from `seed`. */
export function massDamperNetwork(seed = MAS_NETWORK_SEED): MassDamperNetwork {
  const rng = createRng(seed);
  const n = 10;
  const masses = Float64Array.from({ length: n }, () => rng.uniform(...MAS_MASS_RANGE));
  const dampers: Damper[] = [
    ...MAS_LINES.map(([from, to]) => ({ from, to, r: rng.uniform(...MAS_DAMPING_RANGE) })),
    ...MAS_GROUNDED.map((from) => ({ from, to: 0, r: rng.uniform(...MAS_DAMPING_RANGE) })),
  ];
  return { n, masses, dampers, D: incidence(n, dampers), A: massDamperMatrix(n, masses, dampers) };
}

/** C = A·B for n × n row-major matrices. */
function multiply(n: number, A: Float64Array, B: Float64Array): Float64Array {
  const C = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const a = A[i * n + k]!;
      if (a === 0) continue;
      for (let j = 0; j < n; j++) C[i * n + j]! += a * B[k * n + j]!;
    }
  return C;
}

/**
 * exp(A·t) by scaling and squaring: the Taylor series of exp(A·t/2^s) to 20 terms with
 * ‖A·t/2^s‖₁ ≤ 1/2 (a truncation below 1e-25), then s squarings.
 */
export function matrixExponential(n: number, A: Float64Array, t: number): Float64Array {
  let norm = 0;
  for (let j = 0; j < n; j++) {
    let col = 0;
    for (let i = 0; i < n; i++) col += Math.abs(A[i * n + j]! * t);
    norm = Math.max(norm, col);
  }
  const s = norm > 0.5 ? Math.ceil(log2(norm / 0.5)) : 0;
  const scaled = A.map((a) => (a * t) / 2 ** s);
  let E: Float64Array = new Float64Array(n * n);
  let term: Float64Array = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    E[i * n + i] = 1;
    term[i * n + i] = 1;
  }
  for (let k = 1; k <= 20; k++) {
    term = multiply(n, term, scaled).map((v) => v / k);
    for (let i = 0; i < n * n; i++) E[i]! += term[i]!;
  }
  for (let k = 0; k < s; k++) E = multiply(n, E, E);
  return E;
}

export interface MasTrajectories {
  network: MassDamperNetwork;
  /** Momenta q_i over time, one column per node (trajectories concatenated). */
  q: Float64Array[];
  /** q̇_i = (A q)_i at the same points. */
  dq: Float64Array[];
  /** Points per trajectory and trajectories. */
  steps: number;
  trajectories: number;
  dt: number;
}

export const MAS_DT = 0.01;
export const MAS_STEPS = 600;
export const MAS_TRAJECTORIES = 10;

/**
 * `trajectories` runs of `steps` points at dt apart, each from momenta q(0) ~ N(0, 1) drawn from
 * `rng` (node by node, trajectory by trajectory), stepped exactly: q(t + dt) = exp(A·dt) q(t).
 * The targets are A q at each point (the model, not a difference quotient).
 */
export function masTrajectories(
  network: MassDamperNetwork,
  rng: { normal(): number },
  options: { steps?: number; trajectories?: number; dt?: number } = {},
): MasTrajectories {
  const { n, A } = network;
  const steps = options.steps ?? MAS_STEPS;
  const trajectories = options.trajectories ?? MAS_TRAJECTORIES;
  const dt = options.dt ?? MAS_DT;
  const E = matrixExponential(n, A, dt);
  const total = steps * trajectories;
  const q = Array.from({ length: n }, () => new Float64Array(total));
  const dq = Array.from({ length: n }, () => new Float64Array(total));
  let state = new Float64Array(n);
  for (let r = 0; r < trajectories; r++) {
    for (let i = 0; i < n; i++) state[i] = rng.normal();
    for (let k = 0; k < steps; k++) {
      const t = r * steps + k;
      for (let i = 0; i < n; i++) {
        q[i]![t] = state[i]!;
        let s = 0;
        for (let j = 0; j < n; j++) s += A[i * n + j]! * state[j]!;
        dq[i]![t] = s;
      }
      const next = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) s += E[i * n + j]! * state[j]!;
        next[i] = s;
      }
      state = next;
    }
  }
  return { network, q, dq, steps, trajectories, dt };
}
