/**
 * The Pow experiment (paper §5.1): learn the AC power-flow equations of a 5-bus system from two
 * years of hourly operating points. The grid is MATPOWER's case5, the PJM 5-bus system
 * (case5.ts); the operating points come from seeded load profiles and a Newton–Raphson power
 * flow (profiles.ts, grid.ts).
 *
 * - x = [u1, v1, …, u5, v5] (real and imaginary parts of the bus voltages, pu),
 *   y = [p1, q1, …, p5, q5] (net injections, pu on 100 MVA).
 * - Train: the first year (hours 0…8759), or its first `rows` hours; test: the whole second year
 *   (8760 hours, 2 % more load: a mild extrapolation), never noisy. `--snr` adds noise to the
 *   training targets as for the other experiments.
 * - The truth is each output's reduced form on the data (truth.ts): slack terms with v_s vanish,
 *   u_s is the number |V_s| = 1, |V_i|² at PV buses and the slack is the constant |V_i|² = 1, so
 *   p1, q1, p3, q3, p5, q5, p4, q4 have a constant term and p2, q2 (bus 2 is the only PQ bus)
 *   have u2², v2² terms. The paper's pool {x} is the default; only `--symbols x,x^2` can express
 *   p2 and q2. A constant is c·u4 in {x} (u4 ≡ 1 on the data) and reads c after simplification.
 *
 * The data of one seed: createRng(seed) gives one 32-bit seed for the operating points (cached
 * per seed: the 17,520 power flows take ~0.3 s), then the training noise, then the search's seed.
 */
import type { Dataset } from "../dataset.js";
import { createRng } from "../../core/index.js";
import { CASE5 } from "./case5.js";
import { makeGrid, type Grid } from "./grid.js";
import { HOURS_PER_YEAR, operatingPoints, type OperatingPoints } from "./profiles.js";
import { pointsDataset, powerFlowExperimentOf } from "./experiment.js";

export { CASE5, PQ, PV, SLACK, type PowerCase, type Bus, type Branch, type Generator } from "./case5.js";
export {
  admittanceMatrix,
  injections,
  writtenInjections,
  makeGrid,
  powerFlow,
  powerFlowResidual,
  POWER_FLOW_TOLERANCE,
  type Grid,
  type PowerFlowSolution,
} from "./grid.js";
export {
  operatingPoints,
  HOURS_PER_YEAR,
  LOAD_SHAPES,
  CASE5_SHAPES,
  type OperatingPoints,
  type LoadShape,
} from "./profiles.js";
export { parseGrid, gridCase, gridSchema, type GridSpec, type GridBus, type GridLine } from "./network.js";
export {
  powerFlowExperiment,
  powerFlowDataset,
  powerFlowName,
  gridOperatingPoints,
  GRID_ROWS,
  type GridPointOptions,
} from "./sampling.js";
export { powerFlowExperimentOf, type PowerFlowSource } from "./experiment.js";
export { solveFlows, FlowFailure, type BusPowers } from "./flows.js";
export { reducedTruth, learnedTopology, topologySummary, type LearnedTopology, type LearnedLine } from "./truth.js";

/** case5's grid (Y, bus types, setpoints). */
export const POW_GRID: Grid = makeGrid(CASE5);

const cache = new Map<number, OperatingPoints>();
const CACHE_SIZE = 4;

/** The two years of operating points of one data seed (cached: the last few seeds). */
export function powOperatingPoints(dataSeed: number): OperatingPoints {
  const hit = cache.get(dataSeed);
  if (hit) return hit;
  const points = operatingPoints(CASE5, { rng: createRng(dataSeed), hours: 2 * HOURS_PER_YEAR });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(dataSeed, points);
  return points;
}

/** Hours [from, to) of the operating points as a dataset (fresh arrays: callers may add noise). */
export function powDataset(points: OperatingPoints, from: number, to: number): Dataset {
  return pointsDataset(points, from, to);
}

const powRowsMessage = (rows: number) =>
  `pow: \`rows\` ${rows} is more than the training year's ${HOURS_PER_YEAR} hourly points; ` +
  `give \`rows\` ${HOURS_PER_YEAR} or fewer`;

/** Pow: case5 through the path of every grid (experiment.ts), its sets two years of hourly profiles. */
export const powExperiment = powerFlowExperimentOf({
  name: "pow",
  description: "AC power flow of the PJM 5-bus system (MATPOWER case5): p_i, q_i from u_i, v_i, two years hourly",
  grid: POW_GRID,
  paperSize: true,
  rows: HOURS_PER_YEAR,
  maxRows: HOURS_PER_YEAR,
  rowsMessage: powRowsMessage,
  // Hours, not input ranges: the train set is the first year, the test set the second.
  trainRange: [0, HOURS_PER_YEAR],
  testRange: [HOURS_PER_YEAR, 2 * HOURS_PER_YEAR],
  sets: (dataSeed, rows) => {
    const points = powOperatingPoints(dataSeed);
    return { train: powDataset(points, 0, rows), test: powDataset(points, HOURS_PER_YEAR, 2 * HOURS_PER_YEAR) };
  },
});
