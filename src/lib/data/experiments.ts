/**
 * The paper's datasets (§5.1): syn1, syn2, the toy of §5.2, pow and mas. syn1, syn2 and the toy draw
 * inputs ~ U(1,2) for training and U(3,4) for testing (extrapolation), 2000 rows each, and the
 * true equations generate the targets; pow and mas generate their data themselves (the `data`
 * hook: a power flow, see pow/index.ts; mass-damper trajectories, see mas/index.ts). The truth
 * scores the results; no search code reads it.
 */
import type { Equation } from "../equation/index.js";
import { evaluateEquation, type SymbolLookup } from "../equation/index.js";
import type { Rng } from "../core/index.js";
import type { Dataset } from "./dataset.js";
import { addNoise } from "./noise.js";
import { masExperiment } from "./mas/index.js";
import { powExperiment } from "./pow/index.js";

export { addNoise };

/** What an experiment's own data generator gets (Experiment.data). */
export interface ExperimentDataOptions {
  /** The run's generator (createRng(seed)); the search's seed is drawn from it afterwards. */
  rng: Rng;
  symbols: SymbolLookup;
  /** Training rows (already within the experiment's maxRows when resolved by the pipeline). */
  rows: number;
  /** Gaussian noise on the training targets at this SNR (dB); none when omitted. */
  snrDb?: number;
}

export interface Experiment {
  name: string;
  description: string;
  inputs: string[];
  /** The symbol pool the paper searches with. */
  symbols: string[];
  truth: Equation[];
  /** The forms `run --given-form` fits (default: the truth's). */
  forms?: Equation[];
  /** Input ranges of the U(range) draw; for an experiment with `data`, what its sets span (pow: hours). */
  trainRange: [number, number];
  testRange: [number, number];
  /** Default training rows. */
  rows: number;
  /** Most training rows the experiment has (pow: one year, 8760); `rowsMessage` words the error. */
  maxRows?: number;
  rowsMessage?: (rows: number) => string;
  /** Search settings the experiment runs with (products per output, symbols per product, proposals). */
  search?: { terms?: number; maxFactors?: number; proposal?: "linear" | "wide" | "operators" | "argmin" };
  /** Fit defaults the experiment runs with (a flag overrides them). */
  fit?: { polish?: "lm" | "none" | "lsq" | "bfgs" };
  /** The experiment's own data (train, then a noiseless test set) instead of the U(range) draw. */
  data?: (options: ExperimentDataOptions) => { train: Dataset; test: Dataset };
  /** Extra lines the CLI prints after the evaluation, from the learned (simplified) equations. */
  report?: (equations: readonly Equation[]) => string[];
}

const x = (input: string) => ({ symbol: "x", input });
const sq = (input: string) => ({ symbol: "x^2", input });
const f = (symbol: string, input: string, weight = 1) => ({ symbol, input, weight });

export const experiments: Record<string, Experiment> = {
  syn1: {
    name: "syn1",
    description: "y1 = 3·x1²·cos(2.5·x2), y2 = 4·x1·x3, y3 = 3·x3²",
    inputs: ["x1", "x2", "x3"],
    symbols: ["x", "x^2", "cos"],
    truth: [
      { target: "y1", terms: [{ coefficient: 3, factors: [sq("x1"), f("cos", "x2", 2.5)] }] },
      { target: "y2", terms: [{ coefficient: 4, factors: [x("x1"), x("x3")] }] },
      { target: "y3", terms: [{ coefficient: 3, factors: [sq("x3")] }] },
    ],
    trainRange: [1, 2],
    testRange: [3, 4],
    rows: 2000,
    search: { terms: 2, maxFactors: 2 },
  },
  syn2: {
    name: "syn2",
    description:
      "y1 = sqrt(2.2·x1)·x2 + x1·x2², y2 = sin(1.8·x1)·(log(3·x2) + sqrt(x3)), y3 = sqrt(3.7·x3)·log(1.6·x1) + x1²",
    inputs: ["x1", "x2", "x3"],
    symbols: ["sqrt", "x", "x^2", "log", "sin"],
    truth: [
      {
        target: "y1",
        terms: [
          { coefficient: 1, factors: [f("sqrt", "x1", 2.2), x("x2")] },
          { coefficient: 1, factors: [x("x1"), sq("x2")] },
        ],
      },
      {
        target: "y2",
        terms: [
          { coefficient: 1, factors: [f("sin", "x1", 1.8), f("log", "x2", 3)] },
          { coefficient: 1, factors: [f("sin", "x1", 1.8), f("sqrt", "x3", 1)] },
        ],
      },
      {
        target: "y3",
        terms: [
          { coefficient: 1, factors: [f("sqrt", "x3", 3.7), f("log", "x1", 1.6)] },
          { coefficient: 1, factors: [sq("x1")] },
        ],
      },
    ],
    trainRange: [1, 2],
    testRange: [3, 4],
    rows: 2000,
    search: { terms: 2, maxFactors: 2 },
  },
  toy: {
    name: "toy",
    description: "y = 3·x1²·cos(2.5·x2), the 4-layer LoCaL of §5.2",
    inputs: ["x1", "x2"],
    symbols: ["x^2", "cos"],
    truth: [{ target: "y", terms: [{ coefficient: 3, factors: [sq("x1"), f("cos", "x2", 2.5)] }] }],
    trainRange: [1, 2],
    testRange: [3, 4],
    rows: 2000,
    search: { terms: 1, maxFactors: 2 },
  },
  pow: powExperiment,
  mas: masExperiment,
};

export interface GenerateOptions {
  rng: Rng;
  symbols: SymbolLookup;
  rows?: number;
  range?: [number, number];
  /** Gaussian noise on the targets at this signal-to-noise ratio in dB; none when omitted. */
  snrDb?: number;
}

/** Draws inputs ~ U(range) row by row, evaluates the equations, then adds noise at the SNR. */
export function generateDataset(
  inputs: readonly string[],
  equations: readonly Equation[],
  options: GenerateOptions,
): Dataset {
  const rows = options.rows ?? 2000;
  const [lo, hi] = options.range ?? [1, 2];
  const x = inputs.map(() => new Float64Array(rows));
  for (let i = 0; i < rows; i++) for (const column of x) column[i] = options.rng.uniform(lo, hi);
  const lookup = (name: string) => x[inputs.indexOf(name)]!;
  const y = equations.map((e) => evaluateEquation(e, options.symbols, lookup, rows));
  if (options.snrDb !== undefined) for (const column of y) addNoise(column, options.snrDb, options.rng);
  return { inputs: [...inputs], targets: equations.map((e) => e.target), x, y, rows };
}

/**
 * Train (U(1,2)) and test (U(3,4)) sets of an experiment, train drawn first from `rng`; or, for an
 * experiment with its own generator (`data`), what that generator makes from `rng`.
 */
export function experimentData(
  experiment: Experiment,
  options: Omit<GenerateOptions, "range">,
): { train: Dataset; test: Dataset } {
  const rows = options.rows ?? experiment.rows;
  if (experiment.data)
    return experiment.data({ rng: options.rng, symbols: options.symbols, rows, snrDb: options.snrDb });
  const train = generateDataset(experiment.inputs, experiment.truth, {
    ...options,
    rows,
    range: experiment.trainRange,
  });
  const test = generateDataset(experiment.inputs, experiment.truth, {
    ...options,
    rows,
    range: experiment.testRange,
    snrDb: undefined,
  });
  return { train, test };
}
