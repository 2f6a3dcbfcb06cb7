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
import type { Experiment, ExperimentDataOptions } from "../experiments.js";
import { addNoise } from "../noise.js";
import { InputError } from "../../core/index.js";
import { createRng } from "../../core/index.js";
import { CASE5 } from "./case5.js";
import { makeGrid, type Grid } from "./grid.js";
import { HOURS_PER_YEAR, operatingPoints, type OperatingPoints } from "./profiles.js";
import { learnedTopology, pName, qName, reducedTruth, topologySummary, uName, vName } from "./truth.js";
import type { Equation } from "../../equation/index.js";

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
export { reducedTruth, learnedTopology, topologySummary, type LearnedTopology, type LearnedLine } from "./truth.js";

/** case5's grid (Y, bus types, setpoints). */
export const POW_GRID: Grid = makeGrid(CASE5);

const inputsOf = (grid: Grid) => grid.power.buses.flatMap((_, a) => [uName(grid, a), vName(grid, a)]);
const targetsOf = (grid: Grid) => grid.power.buses.flatMap((_, a) => [pName(grid, a), qName(grid, a)]);

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
  const { grid } = points;
  const x = grid.power.buses.flatMap((_, a) => [points.u[a]!.slice(from, to), points.v[a]!.slice(from, to)]);
  const y = grid.power.buses.flatMap((_, a) => [points.p[a]!.slice(from, to), points.q[a]!.slice(from, to)]);
  return { inputs: inputsOf(grid), targets: targetsOf(grid), x, y, rows: to - from };
}

function powData(options: ExperimentDataOptions): { train: Dataset; test: Dataset } {
  const rows = options.rows;
  if (rows > HOURS_PER_YEAR) throw new InputError(powRowsMessage(rows));
  const dataSeed = Math.floor(options.rng.next() * 4294967296);
  const points = powOperatingPoints(dataSeed);
  const train = powDataset(points, 0, rows);
  const test = powDataset(points, HOURS_PER_YEAR, 2 * HOURS_PER_YEAR);
  if (options.snrDb !== undefined) for (const column of train.y) addNoise(column, options.snrDb, options.rng);
  return { train, test };
}

const powRowsMessage = (rows: number) =>
  `pow: \`rows\` ${rows} is more than the training year's ${HOURS_PER_YEAR} hourly points; ` +
  `give \`rows\` ${HOURS_PER_YEAR} or fewer`;

/**
 * The forms `run pow --given-form` fits: the truth's, with a
 * constant term written c·u_s (the slack's u, constant on the data).
 */
function givenForms(grid: Grid, truth: readonly Equation[]): Equation[] {
  const us = uName(grid, grid.slack);
  return truth.map((e) => ({
    target: e.target,
    terms: e.terms.map((t) =>
      t.factors.length > 0 ? t : { coefficient: t.coefficient, factors: [{ symbol: "x", input: us }] },
    ),
  }));
}

const truth = reducedTruth(POW_GRID);

export const powExperiment: Experiment = {
  name: "pow",
  description: "AC power flow of the PJM 5-bus system (MATPOWER case5): p_i, q_i from u_i, v_i, two years hourly",
  inputs: inputsOf(POW_GRID),
  symbols: ["x"],
  truth,
  forms: givenForms(POW_GRID, truth),
  // Hours, not input ranges: the data come from `data`, not from U(range).
  trainRange: [0, HOURS_PER_YEAR],
  testRange: [HOURS_PER_YEAR, 2 * HOURS_PER_YEAR],
  rows: HOURS_PER_YEAR,
  maxRows: HOURS_PER_YEAR,
  rowsMessage: powRowsMessage,
  // p1 has 11 reduced terms (the most); every product has at most 2 factors. The outputs are
  // sums of many products of nearly collinear columns (u ≈ 1): backward elimination proposes
  // them ("wide") and QR least squares fits them ("lsq"); see the Pow page (site/pow.md).
  search: { terms: 12, maxFactors: 2, proposal: "wide" },
  fit: { polish: "lsq" },
  data: powData,
  report: (equations) => topologySummary(learnedTopology(POW_GRID, equations)),
};
