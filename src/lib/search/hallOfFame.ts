/**
 * The hall of fame: the best candidate per complexity, the Pareto front, and the answer rules.
 *
 * Noiseless (no noise floor): the simplest front member whose NRMSE is within 5 % of the best
 * (plus 1e-9 for fits at machine precision). Under noise (an estimated noise floor): the
 * simplest front member whose score is within SCORE_SLACK (2 nats) of the lowest, the score a
 * Bayesian information criterion in nats,
 *   score = n·ln(NRMSE²) + k·ln(n),
 * n the rows and k the fitted parameters (coefficients and inner weights). A difference below 2
 * is weak evidence (Kass and Raftery), so within it the simpler form wins: x·cos(0.57·x) does not
 * replace sin(x) by fitting the noise a hair better. An extra term fitted to noise lowers
 * n·ln(NRMSE²) by about 1 (a χ²₁ draw) and costs ln(n) (6.2 at 500 rows), so it does not win; a
 * missing real term raises it by far more.
 * Scores are reported relative to the front's lowest (0 is the lowest; lower is better).
 */
import type { Equation } from "../equation/types.js";
import { log } from "../math.js";
import type { Candidate } from "./evaluator.js";

/** The best candidate per complexity; the front keeps those no simpler candidate beats. */
export class HallOfFame {
  readonly #best = new Map<number, Candidate>();
  add(candidate: Candidate): void {
    const current = this.#best.get(candidate.complexity);
    if (!current || candidate.nrmse < current.nrmse) this.#best.set(candidate.complexity, candidate);
  }
  /** Pareto front by (complexity ↑, NRMSE ↓). */
  front(): Candidate[] {
    const out: Candidate[] = [];
    for (const c of [...this.#best.values()].sort((a, b) => a.complexity - b.complexity)) {
      if (out.length === 0 || c.nrmse < out[out.length - 1]!.nrmse) out.push(c);
    }
    return out;
  }
  /**
   * The noiseless answer: the simplest candidate whose NRMSE is within `slack` of the best seen
   * (plus `floor` for noiseless fits at machine precision).
   */
  choose(slack = 1.05, floor = 1e-9): Candidate | undefined {
    const front = this.front();
    if (front.length === 0) return undefined;
    const best = Math.min(...front.map((c) => c.nrmse));
    return front.find((c) => c.nrmse <= best * slack + floor);
  }
  /** The answer under noise: the simplest front member within SCORE_SLACK of the lowest score (frontScores). */
  chooseByScore(rows: number): Candidate | undefined {
    const front = this.front();
    const scores = frontScores(front, rows);
    return front.find((_, i) => scores[i]! <= SCORE_SLACK);
  }
}

/** Fitted parameters of an equation: a coefficient per term and an inner weight per weighted factor. */
export const parametersOf = (equation: Equation): number =>
  equation.terms.reduce((sum, t) => sum + 1 + t.factors.filter((f) => f.weight !== undefined).length, 0);

/** Scores within this many nats of the lowest count as equally supported (the simplest of them is chosen). */
export const SCORE_SLACK = 2;

/** NRMSEs below this count as equal (float64 round-off of exact fits). */
const NRMSE_FLOOR = 1e-9;

/** The score of a fit (module comment), not yet relative to a front. */
export const frontScoreOf = (nrmse: number, parameters: number, rows: number): number =>
  2 * rows * log(Math.max(nrmse, NRMSE_FLOOR)) + parameters * log(Math.max(rows, 2));

/** Each front member's score (module comment), relative to the lowest. */
export function frontScores(front: readonly Candidate[], rows: number): number[] {
  const raw = front.map((c) => frontScoreOf(c.nrmse, parametersOf(c.equation), rows));
  const low = Math.min(...raw);
  return raw.map((s) => s - low);
}
