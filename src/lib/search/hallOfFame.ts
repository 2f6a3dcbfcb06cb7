/**
 * The hall of fame: the best candidate per complexity, the Pareto front, and the answer rule
 * (the simplest candidate that fits about as well as the best).
 */
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
   * The answer: the simplest candidate whose NRMSE is within `slack` of the best seen (plus
   * `floor` for noiseless fits at machine precision). Extra terms fitted to noise lower the
   * NRMSE a little; they should not win.
   */
  choose(slack = 1.05, floor = 1e-9): Candidate | undefined {
    const front = this.front();
    if (front.length === 0) return undefined;
    const best = Math.min(...front.map((c) => c.nrmse));
    return front.find((c) => c.nrmse <= best * slack + floor);
  }
}
