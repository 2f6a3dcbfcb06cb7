/**
 * Operating points of a user's grid (network.ts): independent draws of the loads over the file's
 * ranges, each solved by the same Newton–Raphson flow as Pow's hours (flows.ts), and the grid's
 * power-flow experiment built from them (experiment.ts).
 *
 * Row r: a system multiplier s_r ~ U(loads.scale) (test rows: U(loads.testScale)); then, bus by bus
 * in the file's order, a multiplier m_b = s_r · U(1 − spread, 1 + spread), or m_b ~ U(range) for a
 * bus with its own `range`, then its power-factor factor f_b ~ U(1 − spread, 1 + spread). Load
 * P_b = pd_b · m_b, Q_b = qd_b · m_b · f_b (a fixed power factor would make q_b/p_b constant);
 * a PV bus generates pg_b · m_b (generation follows the load); the slack balances (losses included).
 * Every bus draws its multiplier whether or not it has load, so a seed gives the same bytes. Each
 * flow starts flat (the setpoints, zero angles): rows are independent.
 */
import { createRng, InputError, type Rng } from "../../core/index.js";
import type { Dataset } from "../dataset.js";
import type { Experiment } from "../experiments.js";
import { PV } from "./case5.js";
import { makeGrid, type Grid } from "./grid.js";
import { FlowFailure, solveFlows, type OperatingPoints } from "./flows.js";
import { gridCase, type GridSpec } from "./network.js";
import { pointsDataset, powerFlowExperimentOf } from "./experiment.js";

/** Default training (and test) rows of a grid's experiment. */
export const GRID_ROWS = 2000;

export interface GridPointOptions {
  rng: Rng;
  rows: number;
  /** The system multiplier's range (default: the grid's loads.scale). */
  scale?: [number, number];
  /** The grid's admittance and bus types, when the caller has them (default: built from the spec). */
  grid?: Grid;
}

/** `rows` operating points of a grid, loads drawn over its ranges (see the module comment). */
export function gridOperatingPoints(spec: GridSpec, options: GridPointOptions): OperatingPoints {
  const grid = options.grid ?? makeGrid(gridCase(spec));
  const { rng, rows } = options;
  const [lo, hi] = options.scale ?? spec.loads.scale;
  const { spread } = spec.loads;
  const n = spec.buses.length;
  const pLoad = Array.from({ length: n }, () => new Float64Array(rows));
  const qLoad = Array.from({ length: n }, () => new Float64Array(rows));
  const pGen = Array.from({ length: n }, () => new Float64Array(rows));
  const system = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const s = rng.uniform(lo, hi);
    system[r] = s;
    spec.buses.forEach((bus, a) => {
      const m = bus.range ? rng.uniform(bus.range[0], bus.range[1]) : s * rng.uniform(1 - spread, 1 + spread);
      // The power factor moves too: with q_b/p_b fixed, qd·p_b − pd·q_b would be a sum of products
      // that is 0 on every row, and any multiple of it could join a learned law.
      const power = rng.uniform(1 - spread, 1 + spread);
      pLoad[a]![r] = bus.pd * m;
      qLoad[a]![r] = bus.qd * m * power;
      if (grid.types[a] === PV) pGen[a]![r] = bus.pg * m;
    });
  }
  try {
    return { grid, hours: rows, ...solveFlows(grid, { pLoad, qLoad, pGen }, { warmStart: false }) };
  } catch (error) {
    if (!(error instanceof FlowFailure)) throw error;
    throw new InputError(
      `grid ${spec.name}: the power flow fails at a load multiplier of ${system[error.point]!.toPrecision(4)} ` +
        `(${error.reason}); narrow loads.scale or lighten the loads`,
    );
  }
}

/** A grid's train set (`rows` rows over loads.scale, drawn first) and test set (as many, over loads.testScale). */
export function powerFlowDataset(
  spec: GridSpec,
  options: { rng: Rng; rows?: number; grid?: Grid },
): { train: Dataset; test: Dataset } {
  const grid = options.grid ?? makeGrid(gridCase(spec));
  const rows = options.rows ?? GRID_ROWS;
  const train = gridOperatingPoints(spec, { rng: options.rng, rows, grid, scale: spec.loads.scale });
  const test = gridOperatingPoints(spec, { rng: options.rng, rows, grid, scale: spec.loads.testScale });
  return { train: pointsDataset(train, 0, rows), test: pointsDataset(test, 0, rows) };
}

/** The name a grid's experiment runs (and its results record) under. */
export const powerFlowName = (spec: GridSpec): string => `powerflow:${spec.name}`;

/**
 * The power-flow experiment of a grid (named `powerflow:<grid name>`): inputs u, v and outputs p, q
 * of every bus, the reduced truth, the pool {x}; its data from powerFlowDataset with the data seed
 * the run draws first (experiment.ts). Run it through the pipeline after registerExperiment.
 */
export function powerFlowExperiment(spec: GridSpec): Experiment {
  const grid = makeGrid(gridCase(spec));
  const buses = spec.buses.length;
  const lines = spec.lines.length;
  return powerFlowExperimentOf({
    name: powerFlowName(spec),
    description:
      spec.description ??
      `AC power flow of grid ${spec.name} (${buses} buses, ${lines} lines): p_i, q_i from u_i, v_i, ` +
        `load multiplier ~ U(${spec.loads.scale.join(", ")})`,
    grid,
    rows: GRID_ROWS,
    trainRange: [...spec.loads.scale],
    testRange: [...spec.loads.testScale],
    sets: (dataSeed, rows) => powerFlowDataset(spec, { rng: createRng(dataSeed), rows, grid }),
    // A PQ bus's laws hold u_i² and v_i² (its |V_i|² is not a constant), which a LoCaL product writes
    // only with x² (it uses a neuron once): the default pool is the one that can write every law.
    symbols: spec.buses.some((bus) => bus.type === "PQ") ? ["x", "x^2"] : ["x"],
  });
}
