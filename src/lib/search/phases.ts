/**
 * Where a search's time goes, by phase: what the speed benchmark prints (`npm run bench`). Each
 * phase counts its own time only: a phase entered inside another (an LP argmin inside ICNN
 * training) is taken out of the outer one, so the phases add up to the time they cover.
 * In Node the clock is the process's CPU time (process.cpuUsage: every thread, so the compiler's
 * and the garbage collector's work lands in the phase that caused it, and the phases add up to
 * the search's CPU); in a browser, wall-clock time (performance.now). Timings never enter a
 * result's JSON (one seed gives byte-identical JSON).
 */

import type { Steps } from "../core/index.js";
import type { ArgminSolver } from "./argmin.js";

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

/** Milliseconds of the process's CPU time (Node), or of wall-clock time where that is not known. */
const clock: () => number = (() => {
  const usage = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process?.cpuUsage;
  if (typeof usage !== "function") return () => performance.now();
  return () => {
    const u = usage();
    return (u.user + u.system) / 1000;
  };
})();

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
    const started = clock();
    this.#stack.push(0);
    return () => {
      const nested = this.#stack.pop()!;
      const spent = clock() - started;
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

/**
 * Steps counted to `phase` from their first step to their end, the pauses between them included
 * (the loop only waits there: nothing else is timed meanwhile, and a clock read per step would
 * cost more than the pauses).
 */
export function* timedSteps<T>(steps: Steps<T>, timer: PhaseTimer, phase: Phase): Steps<T> {
  const end = timer.begin(phase);
  try {
    for (;;) {
      const next = steps.next();
      if (next.done) return next.value;
      yield;
    }
  } finally {
    end();
  }
}

/** The LP argmin, its time counted to the "argmin" phase. */
export function timedArgmin(argmin: ArgminSolver, timer: PhaseTimer): ArgminSolver {
  return {
    lp: (net, state, c) => timer.time("argmin", () => argmin.lp(net, state, c)),
    memoryBytes: () => argmin.memoryBytes(),
  };
}
