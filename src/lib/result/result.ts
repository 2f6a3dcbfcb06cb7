/**
 * The version-1 result JSON of docs/design.md#cli-contract, shared by the CLI, the pages and
 * `reproduce`. Wall-clock times are kept out of it unless asked for, so that one seed gives
 * byte-identical JSON (they go to stderr instead).
 */
import type { Equation, Expression, OuterName, SymbolLookup, Term } from "../equation/index.js";
import { equationLatex, equationText } from "../equation/index.js";
import type { RuntimeFacts } from "../core/index.js";

export interface EquationResult {
  target: string;
  /** The whole law (its constant included), in the text grammar (docs/design.md#text-grammar). */
  text: string;
  latex: string;
  /** The LoCaL part: each product with its coefficient (no term without factors). */
  terms: Term[];
  /**
   * The additive constant, where the law has one (absent: none). Results written before it
   * existed may hold their constant as a term without factors; resultEquation reads both.
   */
  constant?: number;
  /**
   * The outer function of the law, y = outer(Σ terms + constant) (equation/outer.ts); absent: y is
   * the sum. A result with one lists "outer" in `requires`.
   */
  outer?: OuterName;
  /**
   * The law's denominator, y = outer((Σ terms + constant) / (Σ denominator.terms +
   * denominator.constant)) (docs/design.md#ratio); absent: none. A result with one lists
   * "denominator" in `requires`.
   */
  denominator?: { terms: Term[]; constant?: number };
  /**
   * A law that is no LoCaL, its outer function or ratio, as an expression tree (equation/expression.ts;
   * docs/design.md#expression): y = expression, `terms` then empty. A result with one lists
   * "expression" in `requires`.
   */
  expression?: Expression;
  trainNrmse: number;
}

type EquationParts = Pick<EquationResult, "terms" | "constant" | "outer" | "denominator" | "expression">;

/** A sum's products and its constant apart (the constant absent where it has none). */
function split(all: readonly Term[]): { terms: Term[]; constant?: number } {
  const terms = all.filter((t) => t.factors.length > 0);
  const constants = all.filter((t) => t.factors.length === 0);
  if (constants.length === 0) return { terms };
  return { terms, constant: constants.reduce((sum, t) => sum + t.coefficient, 0) };
}

/** A sum's terms with its constant as a term without factors (older results' constant terms join it). */
function joined(e: { terms: readonly Term[]; constant?: number }): Term[] {
  const products = e.terms.filter((t) => t.factors.length > 0);
  let constant = e.constant ?? 0;
  let has = e.constant !== undefined;
  for (const t of e.terms)
    if (t.factors.length === 0) {
      constant += t.coefficient;
      has = true;
    }
  return has ? [...products, { coefficient: constant, factors: [] }] : products;
}

/** An equation's `terms` and `constant` as the result JSON writes them (the constant apart). */
export function resultTerms(equation: Equation): EquationParts {
  return {
    ...split(equation.terms),
    ...(equation.outer ? { outer: equation.outer } : {}),
    ...(equation.denominator ? { denominator: split(equation.denominator) } : {}),
    ...(equation.expression !== undefined ? { expression: equation.expression } : {}),
  };
}

/** An equation as a result writes it: its text, LaTeX, terms and constant, and its NRMSE on the training rows. */
export function equationResult(equation: Equation, symbols: SymbolLookup, trainNrmse: number): EquationResult {
  return {
    target: equation.target,
    text: equationText(equation, symbols),
    latex: equationLatex(equation, symbols),
    ...resultTerms(equation),
    trainNrmse,
  };
}

/**
 * A result's equation as the library evaluates it: its terms, then its constant as a term
 * without factors (a term without factors that an older result kept among its terms joins it).
 */
export function resultEquation(e: Pick<EquationResult, "target"> & EquationParts): Equation {
  return {
    target: e.target,
    terms: joined(e),
    ...(e.outer ? { outer: e.outer } : {}),
    ...(e.denominator ? { denominator: joined(e.denominator) } : {}),
    ...(e.expression !== undefined ? { expression: e.expression } : {}),
  };
}

export interface EvaluationResult {
  target: string;
  truth: string;
  exact: boolean;
  /** E_c in %; null where it does not apply (a model method has no coefficients: see `reason`). */
  coefficientError: number | null;
  testNrmse: number;
  reason: string;
}

/**
 * A model method's answer for one target (the MLP baseline): what it is, how it trained, and how
 * well it predicts. The weights are not stored; `reproduce` re-trains from the manifest and
 * compares these numbers, `predictions` among them.
 */
export interface ModelResult {
  target: string;
  /** The method ("mlp"). */
  model: string;
  inputs: string[];
  /** Widths from the input to the output, e.g. [3, 64, 64, 1], and the hidden layers' activation. */
  layers: number[];
  activation: string;
  parameters: number;
  training: MlpTrainingRecord | EqlTrainingRecord | DsrTrainingRecord;
  /** NRMSE on every training row (its validation rows included). */
  trainNrmse: number;
  /** NRMSE on an experiment's test set (the extrapolation range); absent for a CSV. */
  testNrmse?: number;
  /** A fingerprint of its predictions on the test set (an experiment) or the training set (a CSV). */
  predictions: { set: "test" | "train"; rows: number; mean: number; rms: number; head: number[] };
  /**
   * EQL: the network's expression after training; DSR and VPG: the best expression found, with
   * its fitted constants (text and LaTeX, unexpanded). And whether it expanded into a sum of
   * products of the project's factors (then `equations` holds it), or why not.
   */
  expression?: { text: string; latex: string; expanded: boolean; reason?: string };
}

/** How an MLP trained. */
export interface MlpTrainingRecord {
  /** Rows it trained on and rows held out for early stopping (the seed draws the split). */
  rows: number;
  validationRows: number;
  epochs: number;
  /** The epoch whose weights were kept (lowest validation loss). */
  bestEpoch: number;
  /** aborted: stopped from outside, the best epoch so far kept. */
  stopReason: "patience" | "epochs" | "aborted";
  validationNrmse: number;
}

/** How EQL trained: its three phases (no regularisation, L1, L0 with the mask fixed). */
export interface EqlTrainingRecord {
  rows: number;
  /** Each phase's epochs and its mean squared error on the training rows at its end. */
  phases: { phase: "plain" | "l1" | "l0"; epochs: number; mse: number }[];
  /** Weights (biases included) left after thresholding, of all of them. */
  active: number;
  weights: number;
  /** Present when stopped from outside: the phases run so far, the network as it was. */
  stopReason?: "aborted";
}

/** How DSR or VPG searched: the token library, the expressions sampled, the rewards. */
export interface DsrTrainingRecord {
  rows: number;
  /** The token library: the operators, the pool's unary symbols, the inputs and "const". */
  tokens: string[];
  /** Batches sampled (each but the last trained the policy). */
  iterations: number;
  /** Expressions sampled (the budget spent) and how many were distinct (each fitted once). */
  samples: number;
  distinct: number;
  /** Samples drawn up to the best expression's first draw. */
  bestAt: number;
  /** The best reward 1/(1 + NRMSE) of each iteration's batch. */
  batchBest: number[];
  /** The best expression's reward as sampled (before its negligible addends were dropped). */
  reward: number;
  /** aborted: stopped from outside, the best expression so far kept. */
  stopReason: "reward-threshold" | "budget" | "aborted";
}

export interface Manifest {
  seed: number;
  config: Record<string, unknown>;
  /**
   * A CSV run's data file: its SHA-256 (hex) and data rows
   * (absent for experiments, and where the bytes were not known).
   */
  data?: { sha256: string; rows: number };
  version: string;
  git: string;
  backend: string;
  /**
   * What it ran on (JS engine, OS, cores): only beside wall-clock seconds (`--timings`, a page's
   * download), outside the byte-identical part; never compared by `reproduce`.
   */
  runtime?: RuntimeFacts;
}

/** How noisy a target is: the estimated noise-only NRMSE and the estimator that gave it. */
export interface NoiseRecord {
  nrmse: number;
  method: string;
}

export interface ResultJson {
  version: 1;
  /**
   * Parts of the format beyond the first version-1 readers (KNOWN_REQUIREMENTS): a reader that does
   * not know one refuses the file with one line rather than predict wrongly in silence. Absent: none.
   */
  requires?: string[];
  equations: EquationResult[];
  search: {
    method: string;
    episodes: number;
    structures: number;
    seconds?: number;
    stopReason: string;
    /** Per target, for a structure search: episodes, distinct structures fitted, why it stopped. */
    targets?: {
      target: string;
      episodes: number;
      /** Distinct structures whose coefficients were fitted (LoCaL fits). */
      structures: number;
      /** Library columns screened by the linear-algebra proposals (evaluated, not fitted). */
      columnsScreened?: number;
      /** The size the search reached: products per output and factors per product. */
      terms?: number;
      maxFactors?: number;
      stopReason: string;
      /** Exact linear relations among the inputs' monomials on the rows: the answer is the sparsest writing. */
      identities?: string[];
      /** Monomials of an exact polynomial of y the pool cannot write (u3^2 without x^2). */
      unwritable?: string[];
      /**
       * Under noise, where the answer is not clearly better than a rival that is not its sub- or
       * super-structure: the rival (as text) and how far its score lies above the answer's (the
       * front's score units; below 6; negative: the rival scores lower but is more complex).
       * Absent: noiseless, or the answer is clearly the best.
       */
      ambiguous?: { rival: string; gap: number };
    }[];
    /**
     * The noise estimate: the NRMSE noise alone leaves, and how it was made. One object for one
     * target; per target ({target, nrmse, method}) for several. Absent: not estimated (older results).
     */
    noise?: NoiseRecord | (NoiseRecord & { target: string })[];
    /**
     * The Pareto front of the hall of fame, per target: `score` is the answer rule's (relative to
     * the lowest, in nats; lower is better) and `chosen` marks the answer (both absent in older results).
     */
    front?: { target: string; complexity: number; nrmse: number; text: string; score?: number; chosen?: boolean }[];
    /**
     * A large table's search ran on a sample of its rows (docs/design.md#sample): how many, of how
     * many, the sampling generator's seed and the method. The equations' coefficients and train
     * NRMSE are then all rows'; the front, the noise estimate and the episodes are the sample's.
     * Absent: the search saw every row.
     */
    sample?: { rows: number; of: number; seed: number; method: string };
    /**
     * Many inputs (docs/design.md#screen): the inputs the search got (kept), those a screen left out
     * (dropped) and how it chose. Absent: the search got every input.
     */
    inputs?: { kept: string[]; dropped: string[]; reason: string };
  };
  /** A model method's answer, one per target (the MLP baseline); `equations` is then empty. */
  models?: ModelResult[];
  /** Present for the paper's experiments, where the truth is known: metrics only. */
  evaluation?: EvaluationResult[];
  manifest: Manifest;
}

/**
 * The requirements this version reads (ResultJson.requires): "outer", an equation's outer function
 * (`equations[].outer`); "denominator", a ratio's denominator (`equations[].denominator`);
 * "monomial", a factor whose argument is a product of powers of inputs
 * (`terms[].factors[].monomial`); "expression", a law written as an expression tree
 * (`equations[].expression`). A reader meets a result's requirement only if it knows it.
 */
export const KNOWN_REQUIREMENTS: readonly string[] = ["denominator", "expression", "monomial", "outer"];

/** What a result's equations require of a reader beyond the first version-1 format, sorted. */
export function requirementsOf(equations: readonly EquationParts[]): string[] {
  const factors = (e: EquationParts) => [...e.terms, ...(e.denominator?.terms ?? [])].flatMap((t) => t.factors);
  const out: string[] = [];
  if (equations.some((e) => e.denominator !== undefined)) out.push("denominator");
  if (equations.some((e) => e.expression !== undefined)) out.push("expression");
  if (equations.some((e) => factors(e).some((f) => f.monomial !== undefined))) out.push("monomial");
  if (equations.some((e) => e.outer !== undefined)) out.push("outer");
  return out;
}

/** Stable JSON: keys in insertion order, numbers as JavaScript prints them, two-space indent. */
export function resultToJson(result: ResultJson): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
