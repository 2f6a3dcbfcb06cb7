/**
 * The hall of fame: the best candidate per complexity, the Pareto front, and the answer rules.
 *
 * Noiseless (no noise floor): the simplest front member whose NRMSE is within 5 % of the best
 * (plus 1e-9 for fits at machine precision). Under noise (an estimated noise floor): the
 * simplest front member whose score is within SCORE_SLACK (2 nats) of the lowest, the score a
 * Bayesian information criterion in nats on the leave-one-out NRMSE,
 *   score = n·ln(NRMSE_loo²) + k·ln(n),
 * n the rows, k the fitted parameters (coefficients and inner weights) and NRMSE_loo each row
 * predicted by the fit without it (metrics/leaveOneOut.ts). A difference below 2 is weak evidence
 * (Kass and Raftery), so within it the simpler form wins: x·cos(0.57·x) does not replace sin(x) by
 * fitting the noise a hair better. An extra term fitted to noise lowers n·ln(NRMSE²) by about 1
 * (a χ²₁ draw) and costs ln(n) (6.2 at 500 rows), so it does not win; a missing real term raises
 * it by far more. The train NRMSE alone let a term win that fits one row's noise: x⁻¹ at a row
 * where x is 0.002 took 12 nats off n·ln(NRMSE²) for its 6.2 (Nguyen-1 at 40 dB, seed 3); left
 * out, that row's residual comes back. With the sub-structures fitted (loop.ts), answers with an
 * x⁻¹ or x⁻² term the truth lacks fell from 13 to 5 of the noise benchmark's 385 runs at 40 dB
 * (14 to 3 at 20 dB); those left, such as 10⁻⁵·x1⁻²·x2⁻¹, also predict left-out rows better:
 * a term picked from tens of thousands screened can match the noise of several rows.
 * Scores are reported relative to the front's lowest (0 is the lowest; lower is better).
 */
import { expressionComplexity, type Equation, type Factor, type Term } from "../equation/index.js";
import { log } from "../core/index.js";
import type { Candidate } from "./evaluator.js";

/**
 * The best candidate per complexity; the front keeps those no simpler candidate beats. By train
 * NRMSE (`front`), and, given the rows, also by the score under noise (`scoreFront`): at equal
 * complexity a fit with an extra inner weight can beat the truth's NRMSE by a hair and lose on the
 * score (x³ + e^x·sin(0.8·x) against x + x² + x³ at 20 dB), so the NRMSE front alone can hide
 * the answer the score would choose.
 */
export class HallOfFame {
  readonly #best = new Map<number, Candidate>();
  readonly #scored = new Map<number, { candidate: Candidate; score: number }>();
  /** Every candidate scored, by key (under noise): the rivals an answer is weighed against (rivalOf). */
  readonly #all = new Map<string, { candidate: Candidate; score: number }>();
  /** @param rows the data's rows, for the score (frontScoreOf); without them there is no score front. */
  constructor(readonly rows?: number) {}
  /** Adds a candidate, and its rival without the additive constant where it has one (Candidate.plain). */
  add(candidate: Candidate): void {
    if (candidate.plain) this.add(candidate.plain);
    const current = this.#best.get(candidate.complexity);
    if (!current || candidate.nrmse < current.nrmse) this.#best.set(candidate.complexity, candidate);
    if (this.rows === undefined) return;
    const score = frontScoreOf(candidate.loo, parametersOf(candidate.equation), this.rows);
    if (Number.isFinite(score) && !this.#all.has(candidate.key)) this.#all.set(candidate.key, { candidate, score });
    const scored = this.#scored.get(candidate.complexity);
    if (!scored || score < scored.score) this.#scored.set(candidate.complexity, { candidate, score });
  }
  /** Pareto front by (complexity ↑, NRMSE ↓). */
  front(): Candidate[] {
    const out: Candidate[] = [];
    for (const c of [...this.#best.values()].sort((a, b) => a.complexity - b.complexity)) {
      if (out.length === 0 || c.nrmse < out[out.length - 1]!.nrmse) out.push(c);
    }
    return out;
  }
  /** Pareto front by (complexity ↑, score ↓): the front under noise (empty without rows). */
  scoreFront(): Candidate[] {
    const out: Candidate[] = [];
    let low = Number.POSITIVE_INFINITY;
    for (const { candidate, score } of [...this.#scored.values()].sort(
      (a, b) => a.candidate.complexity - b.candidate.complexity,
    )) {
      if (out.length === 0 || score < low) {
        out.push(candidate);
        low = score;
      }
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
  /**
   * The closest rival of an answer under noise (`chosen`, chooseByScore's): among every candidate
   * scored, the one whose score is nearest above (or below) the answer's, not counting the answer's
   * own sub- and super-structures (the answer less a term or a factor, or with one more: the answer
   * rule weighs those, and a parameter fitted to noise costs ln n). Its score minus the answer's, in the score's
   * units (a BIC: under 6 is less than strong evidence, Kass and Raftery); undefined without rows
   * or rivals.
   */
  rivalOf(chosen: Candidate): { rival: Candidate; gap: number } | undefined {
    if (this.rows === undefined) return undefined;
    const own = frontScoreOf(chosen.loo, parametersOf(chosen.equation), this.rows);
    const mine = shapeOf(chosen.equation);
    let out: { rival: Candidate; gap: number } | undefined;
    for (const { candidate, score } of this.#all.values()) {
      if (candidate.key === chosen.key || nested(mine, shapeOf(candidate.equation))) continue;
      const gap = score - own;
      if (out === undefined || gap < out.gap) out = { rival: candidate, gap };
    }
    return out;
  }
  /** The answer under noise: the simplest member of the score front within SCORE_SLACK of the lowest score. */
  chooseByScore(): Candidate | undefined {
    if (this.rows === undefined) throw new Error("HallOfFame: the score needs the rows (new HallOfFame(rows))");
    const front = this.scoreFront();
    const scores = frontScores(front, this.rows);
    return front.find((_, i) => scores[i]! <= SCORE_SLACK);
  }
}

/** Fitted parameters of an equation: a coefficient per term and an inner weight per weighted factor. */
export const parametersOf = (equation: Equation): number =>
  equation.expression !== undefined
    ? expressionComplexity(equation.expression).parameters
    : equation.terms.reduce((sum, t) => sum + 1 + t.factors.filter((f) => f.weight !== undefined).length, 0);

/**
 * An answer whose closest rival (rivalOf) scores less than this above it is not clearly better
 * than that rival: the search says so (a warning, `ambiguous` in the result). 6 is where a BIC
 * difference becomes strong evidence (Kass and Raftery: 2–6 positive, 6–10 strong).
 */
export const AMBIGUOUS_GAP = 6;

/** Scores within this many nats of the lowest count as equally supported (the simplest of them is chosen). */
export const SCORE_SLACK = 2;

/** NRMSEs below this count as equal (float64 round-off of exact fits). */
const NRMSE_FLOOR = 1e-9;

/** The score of a fit (module comment), not yet relative to a front. */
export const frontScoreOf = (nrmse: number, parameters: number, rows: number): number =>
  2 * rows * log(Math.max(nrmse, NRMSE_FLOOR)) + parameters * log(Math.max(rows, 2));

/**
 * Each front member's score (module comment), relative to the lowest: on its left-out NRMSE, the
 * answer rule's under noise; `leftOut` false scores the train NRMSE instead (a noiseless front,
 * whose answer is chosen by NRMSE: its scores are for reading only, and stay as they were).
 */
export function frontScores(front: readonly Candidate[], rows: number, leftOut = true): number[] {
  const raw = front.map((c) => frontScoreOf(leftOut ? c.loo : c.nrmse, parametersOf(c.equation), rows));
  const low = Math.min(...raw);
  return raw.map((s) => s - low);
}

/**
 * An equation's structure for nesting: what wraps its sum, and its terms as sets of factor keys
 * (coefficients and inner weights left out).
 */
interface Shape {
  wrap: string;
  terms: Set<string>[];
}

const factorKey = (f: Factor) =>
  `${f.symbol}(${f.monomial ? f.monomial.map((m) => `${m.input}^${m.power}`).join("*") : f.input})`;
const termKey = (t: Term) => t.factors.map(factorKey).sort().join("*");

function shapeOf(equation: Equation): Shape {
  if (equation.expression !== undefined)
    // An expression tree is one whole: its text without numbers.
    return {
      wrap: `expression ${JSON.stringify(equation.expression).replace(/-?\d+(\.\d+)?(e-?\d+)?/g, "#")}`,
      terms: [],
    };
  const denominator = equation.denominator ? equation.denominator.map(termKey).sort().join("+") : "";
  return {
    wrap: `${equation.outer ?? ""}/${denominator}`,
    terms: equation.terms.map((t) => new Set(t.factors.map(factorKey))),
  };
}

/** Whether every term of `a` is, factor for factor, inside a term of `b` of its own (greedily matched). */
function within(a: Shape, b: Shape): boolean {
  const free = [...b.terms];
  for (const term of [...a.terms].sort((x, y) => y.size - x.size)) {
    const at = free.findIndex((other) => [...term].every((f) => other.has(f)));
    if (at < 0) return false;
    free.splice(at, 1);
  }
  return true;
}

/**
 * Whether one shape is the other with terms or factors added (or the same): one wrap, and each term
 * of the smaller inside a term of the larger (the answer with a term more, or with a factor near 1
 * more, exp(−0.007·q)·…, is its own refinement, not a rival).
 */
function nested(a: Shape, b: Shape): boolean {
  return a.wrap === b.wrap && (within(a, b) || within(b, a));
}
