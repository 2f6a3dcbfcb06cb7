/**
 * From loads and generation to operating points: one Newton–Raphson power flow per point, the
 * voltages as u + jv and the injections S = V ⊙ conj(Y·V) the data record. Shared by Pow's hourly
 * profiles (profiles.ts) and a user grid's sampled loads (sampling.ts), so that every grid goes
 * through the same flow.
 */
import { PQ, SLACK } from "./case5.js";
import { injections, powerFlow, powerFlowResidual, type Grid } from "./grid.js";
import { cos, sin } from "../../core/index.js";

export interface OperatingPoints {
  grid: Grid;
  /** Operating points (Pow: hours; a sampled grid: rows). */
  hours: number;
  /** Per bus (case order), per point: voltage real and imaginary parts, net injections (pu). */
  u: Float64Array[];
  v: Float64Array[];
  p: Float64Array[];
  q: Float64Array[];
  /** The specified injections the power flow matched (pu; PV and PQ buses' p, PQ buses' q). */
  pSpec: Float64Array[];
  qSpec: Float64Array[];
  /** Largest power-flow mismatch (pu) per point, from S = V ⊙ conj(Y·V) at the stored u, v. */
  residual: Float64Array;
  /** Newton–Raphson iterations per point. */
  iterations: Uint8Array;
}

/** Per bus (case order), per point: real load (MW), reactive load (MVAr), real generation (MW). */
export interface BusPowers {
  pLoad: readonly Float64Array[];
  qLoad: readonly Float64Array[];
  pGen: readonly Float64Array[];
}

/** A point whose power flow failed: which one, and why (the flow's own message). */
export class FlowFailure extends RangeError {
  override name = "FlowFailure";
  constructor(
    readonly point: number,
    readonly reason: string,
  ) {
    super(`operating point ${point}: ${reason}`);
  }
}

/**
 * The power flow of every point, with its injections and residual. `warmStart`: each flow starts
 * from the point before's solution (hourly profiles, where neighbours are close); otherwise from
 * the setpoints and zero angles (independent draws). Throws a FlowFailure naming the point that
 * did not converge.
 */
export function solveFlows(
  grid: Grid,
  powers: BusPowers,
  options: { warmStart: boolean },
): Omit<OperatingPoints, "grid" | "hours"> {
  const { n } = grid;
  const base = grid.power.baseMVA;
  const { pLoad, qLoad, pGen } = powers;
  const hours = pLoad[0]?.length ?? 0;
  const u = Array.from({ length: n }, () => new Float64Array(hours));
  const v = Array.from({ length: n }, () => new Float64Array(hours));
  const p = Array.from({ length: n }, () => new Float64Array(hours));
  const q = Array.from({ length: n }, () => new Float64Array(hours));
  const pSpec = Array.from({ length: n }, () => new Float64Array(hours));
  const qSpec = Array.from({ length: n }, () => new Float64Array(hours));
  const residual = new Float64Array(hours);
  const iterations = new Uint8Array(hours);
  const ps = new Float64Array(n);
  const qs = new Float64Array(n);
  const ut = new Float64Array(n);
  const vt = new Float64Array(n);
  let start: { vm: Float64Array; va: Float64Array } | undefined;
  for (let t = 0; t < hours; t++) {
    for (let a = 0; a < n; a++) {
      // Shunts are in Y; the slack's spec is unused.
      ps[a] = grid.types[a] === SLACK ? 0 : (pGen[a]![t]! - pLoad[a]![t]!) / base;
      qs[a] = grid.types[a] === PQ ? -qLoad[a]![t]! / base : 0;
    }
    let solution: ReturnType<typeof powerFlow>;
    try {
      solution = powerFlow(grid, ps, qs, start);
    } catch (error) {
      throw new FlowFailure(t, error instanceof Error ? error.message : String(error));
    }
    if (options.warmStart) start = solution;
    for (let a = 0; a < n; a++) {
      ut[a] = solution.vm[a]! * cos(solution.va[a]!);
      vt[a] = solution.vm[a]! * sin(solution.va[a]!);
    }
    const s = injections(grid, ut, vt);
    for (let a = 0; a < n; a++) {
      u[a]![t] = ut[a]!;
      v[a]![t] = vt[a]!;
      p[a]![t] = s.p[a]!;
      q[a]![t] = s.q[a]!;
      pSpec[a]![t] = ps[a]!;
      qSpec[a]![t] = qs[a]!;
    }
    residual[t] = powerFlowResidual(grid, ut, vt, ps, qs);
    iterations[t] = solution.iterations;
  }
  return { u, v, p, q, pSpec, qSpec, residual, iterations };
}
