/**
 * One grid's power flow as an experiment: the path every grid takes, Pow's case5 (index.ts) and a
 * user's grid file (network.ts, sampling.ts) alike.
 *
 * - x = [u_a, v_a for every bus a] (real and imaginary parts of the bus voltages, pu), y = [p_a, q_a
 *   for every bus a] (net injections, pu on the grid's base): every bus, slack and PV buses
 *   included, as Pow has always done. Columns are named after the bus ids (u7, v7, p7, q7).
 * - The truth is each output's reduced form on the data (truth.ts), a sum of products of two
 *   voltage components with coefficients from the admittance matrix; it scores, it never searches.
 * - The data of one seed: the run's generator gives one 32-bit data seed (drawn first), the grid's
 *   own generator makes the train and test sets from it, then the training noise at `snrDb`.
 * - The search: sums of products of at most two factors, as many products as the longest true law
 *   plus one (at most 12, the LoCaL's cap: a bus with many neighbours has a longer law than that),
 *   proposed by backward elimination ("wide") and fitted by QR least squares ("lsq"): the columns
 *   are nearly collinear (u ≈ 1), see site/pow.md.
 */
import type { Dataset } from "../dataset.js";
import type { Experiment, ExperimentDataOptions } from "../experiments.js";
import { addNoise } from "../noise.js";
import { InputError, TERMS_CAP } from "../../core/index.js";
import type { Equation } from "../../equation/index.js";
import type { Grid } from "./grid.js";
import type { OperatingPoints } from "./flows.js";
import { learnedTopology, pName, qName, reducedTruth, topologySummary, uName, vName } from "./truth.js";

/** What makes a grid's power flow an experiment (see powerFlowExperimentOf). */
export interface PowerFlowSource {
  name: string;
  description: string;
  grid: Grid;
  /** Default training rows; `maxRows` caps them, `rowsMessage` words the error. */
  rows: number;
  maxRows?: number;
  rowsMessage?: (rows: number) => string;
  /** What the train and test sets span (Pow: hours; a grid file: its load scale ranges). */
  trainRange: [number, number];
  testRange: [number, number];
  /** The train set (`rows` rows) and the noiseless test set of one data seed (fresh arrays). */
  sets: (dataSeed: number, rows: number) => { train: Dataset; test: Dataset };
  /**
   * The paper's configuration (Pow): the size given, as the paper gives it (the longest true law's
   * terms, two factors), proposals "wide". Otherwise (a user's grid) the search sizes itself, as for
   * a user's CSV: the polynomial question answers a law of any length, and nothing reads the truth.
   */
  paperSize?: boolean;
  /** The default pool (Pow: the paper's {x}). */
  symbols?: string[];
}

export const gridInputs = (grid: Grid): string[] =>
  grid.power.buses.flatMap((_, a) => [uName(grid, a), vName(grid, a)]);
export const gridTargets = (grid: Grid): string[] =>
  grid.power.buses.flatMap((_, a) => [pName(grid, a), qName(grid, a)]);

/** Points [from, to) as a dataset (fresh arrays: callers may add noise). */
export function pointsDataset(points: OperatingPoints, from: number, to: number): Dataset {
  const { grid } = points;
  const x = grid.power.buses.flatMap((_, a) => [points.u[a]!.slice(from, to), points.v[a]!.slice(from, to)]);
  const y = grid.power.buses.flatMap((_, a) => [points.p[a]!.slice(from, to), points.q[a]!.slice(from, to)]);
  return { inputs: gridInputs(grid), targets: gridTargets(grid), x, y, rows: to - from };
}

/**
 * The forms `run … --given-form` fits: the truth's, with a constant term written c·u_s (the
 * slack's u, constant on the data).
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

/** The experiment of a grid's power flow (see the module comment). */
export function powerFlowExperimentOf(source: PowerFlowSource): Experiment {
  const { grid, maxRows, rowsMessage } = source;
  const truth = reducedTruth(grid);
  const data = (options: ExperimentDataOptions): { train: Dataset; test: Dataset } => {
    const rows = options.rows;
    if (maxRows !== undefined && rows > maxRows)
      throw new InputError(rowsMessage?.(rows) ?? `${source.name}: \`rows\` ${rows} is more than its ${maxRows}`);
    const dataSeed = Math.floor(options.rng.next() * 4294967296);
    const { train, test } = source.sets(dataSeed, rows);
    if (options.snrDb !== undefined) for (const column of train.y) addNoise(column, options.snrDb, options.rng);
    return { train, test };
  };
  const longest = Math.max(...truth.map((e) => e.terms.length));
  return {
    name: source.name,
    description: source.description,
    inputs: gridInputs(grid),
    symbols: source.symbols ?? ["x"],
    truth,
    forms: givenForms(grid, truth),
    trainRange: source.trainRange,
    testRange: source.testRange,
    rows: source.rows,
    ...(maxRows === undefined ? {} : { maxRows }),
    ...(rowsMessage === undefined ? {} : { rowsMessage }),
    // Pow: every product has at most 2 factors, p1 has 11 terms → 12 (TERMS_CAP).
    search: source.paperSize ? { terms: Math.min(longest + 1, TERMS_CAP), maxFactors: 2, proposal: "wide" } : {},
    fit: { polish: "lsq" },
    data,
    report: (equations) => topologySummary(learnedTopology(grid, equations)),
  };
}
