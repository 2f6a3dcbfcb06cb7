/**
 * Where a search's time goes, by phase: what the speed benchmark prints (`npm run bench`). Each
 * phase counts its own time only: a phase entered inside another (an LP argmin inside ICNN
 * training) is taken out of the outer one, so the phases add up to the time they cover.
 * Wall-clock milliseconds (performance.now, in Node and in a browser); a single-threaded search
 * on an idle core spends as much CPU. Timings never enter a result's JSON (one seed gives
 * byte-identical JSON).
 */

export const PHASES = [
  /** The episode loop's own work: sizes, constraints, the networks' set-up, the hall of fame. */
  "loop",
  /** The noise estimate, the any-moment baseline and the cheap first screen. */
  "preparation",
  /** Library construction and sparse selection (the linear-algebra proposals). */
  "screening",
  /** LoCaL structure fits, their simplification and their evidence. */
  "fits",
  /** Proposals (rollouts, edits, −R scoring of candidates) outside the LP. */
  "proposals",
  /** −Q and −R training. */
  "icnn",
  /** The LP argmin of −Q (greedy actions and TD targets). */
  "argmin",
] as const;

export type Phase = (typeof PHASES)[number];

export type PhaseSeconds = Record<Phase, number>;

export const noPhases = (): PhaseSeconds => Object.fromEntries(PHASES.map((phase) => [phase, 0])) as PhaseSeconds;

/** Self time per phase; nested phases are subtracted from the one they run in. */
export class PhaseTimer {
  readonly #ms: Record<Phase, number> = Object.fromEntries(PHASES.map((phase) => [phase, 0])) as Record<Phase, number>;
  /** Per open phase, the time its nested phases took so far. */
  readonly #stack: number[] = [];

  /** Runs fn, counting its time (less nested phases) to `phase`. */
  time<T>(phase: Phase, fn: () => T): T {
    const end = this.begin(phase);
    try {
      return fn();
    } finally {
      end();
    }
  }

  /** Opens a phase (an async span: nothing else may time phases on this timer meanwhile); returns its end. */
  begin(phase: Phase): () => void {
    const started = performance.now();
    this.#stack.push(0);
    return () => {
      const nested = this.#stack.pop()!;
      const spent = performance.now() - started;
      this.#ms[phase] += spent - nested;
      if (this.#stack.length > 0) this.#stack[this.#stack.length - 1]! += spent;
    };
  }

  /** Seconds per phase so far. */
  seconds(): PhaseSeconds {
    return Object.fromEntries(PHASES.map((phase) => [phase, this.#ms[phase] / 1000])) as PhaseSeconds;
  }
}

/** Adds phase seconds (a search's outputs into the whole). */
export function addPhases(total: PhaseSeconds, more: PhaseSeconds): PhaseSeconds {
  return Object.fromEntries(PHASES.map((phase) => [phase, total[phase] + more[phase]])) as PhaseSeconds;
}
