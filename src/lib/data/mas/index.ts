/**
 * The Mas experiment (paper §5.1 (3)): learn q̇ = −D R Dᵀ M⁻¹ q of a 10-node mass-damper network
 * from simulated momenta (network.ts: our topology, masses and dampings, the paper gives none).
 *
 * - x = [q1, …, q10] (node momenta), y = [dq1, …, dq10] (their time derivatives from the model).
 * - 6,000 points at dt = 0.01 s (the paper's minute): 10 trajectories of 600 points, each from
 *   seeded random momenta, stepped by the exact matrix exponential. Train: the first 3,000 points
 *   (trajectories 1–5), or the first `rows` of them; test: the last 3,000 (trajectories 6–10),
 *   never noisy. `--snr` adds noise to the training targets as for the other experiments.
 * - The truth: dq_i = Σ_j A_ij·q_j over node i and its neighbours (3 or 4 terms), A = −D R Dᵀ M⁻¹.
 *   The paper's pool {x}: every term is one factor x(q_j).
 *
 * The data of one seed: createRng(seed) gives one 32-bit seed for the momenta (a fresh generator,
 * so the trajectories do not depend on anything else drawn), then the training noise, then the
 * search's seed.
 */
import type { Dataset } from "../dataset.js";
import type { Experiment, ExperimentDataOptions } from "../experiments.js";
import { addNoise } from "../noise.js";
import { InputError } from "../../core/index.js";
import { createRng } from "../../core/index.js";
import type { Equation } from "../../equation/index.js";
import { masTrajectories, massDamperNetwork, MAS_STEPS, MAS_TRAJECTORIES, type MassDamperNetwork } from "./network.js";

export {
  massDamperNetwork,
  massDamperMatrix,
  matrixExponential,
  masTrajectories,
  MAS_NETWORK_SEED,
  MAS_MASS_RANGE,
  MAS_DAMPING_RANGE,
  MAS_LINES,
  MAS_GROUNDED,
  MAS_DT,
  MAS_STEPS,
  MAS_TRAJECTORIES,
  type Damper,
  type MassDamperNetwork,
  type MasTrajectories,
} from "./network.js";

/** The network every Mas run uses. */
export const MAS_NETWORK: MassDamperNetwork = massDamperNetwork();

/** Training points: the first half of the 6,000. */
export const MAS_TRAIN_ROWS = (MAS_STEPS * MAS_TRAJECTORIES) / 2;

const qName = (i: number) => `q${i + 1}`;
const dqName = (i: number) => `dq${i + 1}`;
const inputs = Array.from({ length: MAS_NETWORK.n }, (_, i) => qName(i));
const targets = Array.from({ length: MAS_NETWORK.n }, (_, i) => dqName(i));

/** dq_i = Σ_j A_ij·q_j over the nonzero entries of row i of A. */
export function masTruth(network: MassDamperNetwork = MAS_NETWORK): Equation[] {
  const { n, A } = network;
  return Array.from({ length: n }, (_, i) => ({
    target: dqName(i),
    terms: Array.from({ length: n }, (_, j) => j)
      .filter((j) => A[i * n + j] !== 0)
      .map((j) => ({ coefficient: A[i * n + j]!, factors: [{ symbol: "x", input: qName(j) }] })),
  }));
}

/** Points [from, to) of the trajectories as a dataset (fresh arrays: callers may add noise). */
function masDataset(q: Float64Array[], dq: Float64Array[], from: number, to: number): Dataset {
  return {
    inputs: [...inputs],
    targets: [...targets],
    x: q.map((c) => c.slice(from, to)),
    y: dq.map((c) => c.slice(from, to)),
    rows: to - from,
  };
}

const masRowsMessage = (rows: number) =>
  `mas: \`rows\` ${rows} is more than the ${MAS_TRAIN_ROWS} training points; give \`rows\` ${MAS_TRAIN_ROWS} or fewer`;

function masData(options: ExperimentDataOptions): { train: Dataset; test: Dataset } {
  const rows = options.rows;
  if (rows > MAS_TRAIN_ROWS) throw new InputError(masRowsMessage(rows));
  const dataSeed = Math.floor(options.rng.next() * 4294967296);
  const { q, dq } = masTrajectories(MAS_NETWORK, createRng(dataSeed));
  const train = masDataset(q, dq, 0, rows);
  const test = masDataset(q, dq, MAS_TRAIN_ROWS, 2 * MAS_TRAIN_ROWS);
  if (options.snrDb !== undefined) for (const column of train.y) addNoise(column, options.snrDb, options.rng);
  return { train, test };
}

export interface LearnedMatrix {
  n: number;
  /** The learned A (n × n, row-major) read from the terms c·x(q_j) of each dq_i; 0 where none. */
  learned: Float64Array;
  /** The true A = −D R Dᵀ M⁻¹. */
  truth: Float64Array;
  /** Nonzero entries of the truth that a learned term estimates, that none does, and learned entries off it. */
  found: number;
  missed: { row: number; col: number }[];
  spurious: { row: number; col: number; value: number }[];
  /** Largest |learned − true| over the found entries, relative to |true|. */
  worstRelative: number;
  /** Learned terms that are not c·x(q_j) (products, other symbols, constants). */
  unexplained: { target: string; coefficient: number; product: string }[];
}

/**
 * The matrix A read back from learned equations dq_i = Σ c·x(w·q_j): entry (i, j) is the sum of
 * c·w over the terms of dq_i on q_j. Equations should be simplified (as the CLI's are).
 */
export function learnedMatrix(equations: readonly Equation[], network: MassDamperNetwork = MAS_NETWORK): LearnedMatrix {
  const { n, A } = network;
  const learned = new Float64Array(n * n);
  const named = new Uint8Array(n * n);
  const unexplained: LearnedMatrix["unexplained"] = [];
  for (const equation of equations) {
    const i = targets.indexOf(equation.target);
    if (i < 0) continue;
    for (const term of equation.terms) {
      const [factor] = term.factors;
      const j = factor ? inputs.indexOf(factor.input) : -1;
      if (term.factors.length !== 1 || factor!.symbol !== "x" || j < 0) {
        const product = term.factors.map((f) => `${f.symbol}(${f.weight ?? 1}·${f.input})`).join("·") || "1";
        unexplained.push({ target: equation.target, coefficient: term.coefficient, product });
        continue;
      }
      learned[i * n + j]! += term.coefficient * (factor!.weight ?? 1);
      named[i * n + j] = 1;
    }
  }
  let found = 0;
  let worstRelative = 0;
  const missed: LearnedMatrix["missed"] = [];
  const spurious: LearnedMatrix["spurious"] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const t = A[i * n + j]!;
      const k = i * n + j;
      if (t !== 0 && named[k]) {
        found++;
        worstRelative = Math.max(worstRelative, Math.abs(learned[k]! - t) / Math.abs(t));
      } else if (t !== 0) missed.push({ row: i, col: j });
      else if (named[k]) spurious.push({ row: i, col: j, value: learned[k]! });
    }
  return { n, learned, truth: A.slice(), found, missed, spurious, worstRelative, unexplained };
}

const num = (x: number) => (x === 0 ? "0" : x.toPrecision(5));

/** A few lines of text on learnedMatrix: entries found, missed, spurious, the largest error, row by row. */
export function matrixSummary(m: LearnedMatrix): string[] {
  const { n } = m;
  const nonzero = m.found + m.missed.length;
  const out = [
    `learned matrix −D R Dᵀ M⁻¹: ${m.found} of ${nonzero} nonzero entries found, ${m.missed.length} missed, ` +
      `${m.spurious.length} spurious; largest relative error of a found entry ${m.worstRelative.toExponential(2)}`,
  ];
  for (let i = 0; i < n; i++) {
    const cells: string[] = [];
    for (let j = 0; j < n; j++) {
      const l = m.learned[i * n + j]!;
      const t = m.truth[i * n + j]!;
      if (l !== 0 || t !== 0) cells.push(`${qName(j)} ${num(l)} vs ${num(t)}`);
    }
    out.push(`  ${dqName(i)}: ${cells.join(", ")}`);
  }
  for (const e of m.missed) out.push(`  MISSED ${dqName(e.row)} on ${qName(e.col)}`);
  for (const e of m.spurious) out.push(`  SPURIOUS ${dqName(e.row)} on ${qName(e.col)}: ${num(e.value)}`);
  if (m.unexplained.length > 0)
    out.push(
      `  ${m.unexplained.length} learned term(s) are not c·q_j: ${m.unexplained
        .slice(0, 6)
        .map((t) => `${t.target}: ${num(t.coefficient)}·${t.product}`)
        .join("; ")}${m.unexplained.length > 6 ? "; …" : ""}`,
    );
  return out;
}

export const masExperiment: Experiment = {
  name: "mas",
  description: "10-node mass-damper network q̇ = −D R Dᵀ M⁻¹ q: dq_i from the momenta q_i, 6000 points at 0.01 s",
  inputs: [...inputs],
  symbols: ["x"],
  truth: masTruth(),
  // Points, not input ranges: the data come from `data`, not from U(range).
  trainRange: [0, MAS_TRAIN_ROWS],
  testRange: [MAS_TRAIN_ROWS, 2 * MAS_TRAIN_ROWS],
  rows: MAS_TRAIN_ROWS,
  maxRows: MAS_TRAIN_ROWS,
  rowsMessage: masRowsMessage,
  // Every output is a sum of 3 or 4 single momenta (node 1, 3, 6 and 8 have three neighbours).
  // No size is set: the search grows it by itself, as for a CSV (site/mas.md).
  data: masData,
  report: (equations) => matrixSummary(learnedMatrix(equations)),
};
