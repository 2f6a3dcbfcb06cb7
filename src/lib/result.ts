/**
 * The version-1 result JSON of DESIGN "CLI contract", shared by the CLI, the pages and
 * `reproduce`. Wall-clock times are kept out of it unless asked for, so that one seed gives
 * byte-identical JSON (they go to stderr instead).
 */
import type { Term } from "./equation/types.js";

export interface EquationResult {
  target: string;
  text: string;
  latex: string;
  terms: Term[];
  trainNrmse: number;
}

export interface EvaluationResult {
  target: string;
  truth: string;
  exact: boolean;
  coefficientError: number;
  testNrmse: number;
  reason: string;
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
}

export interface ResultJson {
  version: 1;
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
    }[];
    /** The Pareto front of the hall of fame, per target. */
    front?: { target: string; complexity: number; nrmse: number; text: string }[];
  };
  /** Present for the paper's experiments, where the truth is known: metrics only. */
  evaluation?: EvaluationResult[];
  manifest: Manifest;
}

/** Stable JSON: keys in insertion order, numbers as JavaScript prints them, two-space indent. */
export function resultToJson(result: ResultJson): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
