/**
 * Interruptible work: the search's long synchronous steps (library construction and screening)
 * are written as generators that yield every few hundred microseconds of work. `driveSteps`
 * runs one on the event loop, handing control back about every SLICE_MS so that a signal
 * (Ctrl-C, SIGTERM), a page's Stop or the time limit gets through inside a step; `runSteps` runs
 * one to its end synchronously (tests, callers without a clock). The results are the same bits
 * either way: yielding changes when the work runs, never what it computes.
 */

/** A step of work that yields between pieces and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** Why a search was stopped from outside its own rules. */
export type InterruptReason = "time-limit" | "aborted";

/** Thrown by a clock check when the time limit has passed or the search was aborted. */
export class Interrupted extends Error {
  constructor(readonly reason: InterruptReason) {
    super(reason === "time-limit" ? "the time limit was reached" : "the search was aborted");
    this.name = "Interrupted";
  }
}

/** About how often (ms) a driven step hands control back to the event loop and checks the clock. */
export const SLICE_MS = 50;

/** The run's wall-clock deadline and its abort signal. */
export class Clock {
  readonly #deadline: number;
  readonly #signal?: AbortSignal;
  readonly started: number;
  /** @param seconds the time limit (0: none) */
  constructor(seconds: number, signal?: AbortSignal, now = performance.now()) {
    this.started = now;
    this.#deadline = seconds > 0 ? now + seconds * 1000 : Number.POSITIVE_INFINITY;
    this.#signal = signal;
  }
  /** Why the run must stop now, or undefined. An abort wins over the time limit. */
  expired(): InterruptReason | undefined {
    if (this.#signal?.aborted) return "aborted";
    return performance.now() >= this.#deadline ? "time-limit" : undefined;
  }
  /** Throws Interrupted when the run must stop. */
  check(): void {
    const reason = this.expired();
    if (reason) throw new Interrupted(reason);
  }
}

/** Runs steps to the end without yielding to the event loop. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs steps on the event loop: about every SLICE_MS it lets other work (signals, a page's
 * Stop) run and checks the clock, throwing Interrupted (and abandoning the steps) when the run
 * must stop.
 */
export function driveSteps<T>(steps: Steps<T>, clock: Clock): Promise<T> {
  return paceSteps(steps, () => clock.check());
}

/**
 * Runs steps on the event loop to their end, handing control back about every SLICE_MS and then
 * calling `afterYield` (driveSteps's clock check, which may throw and abandon them). Without it the
 * steps are never abandoned: steps that stop themselves (the baselines' training, which asks its
 * pace at each epoch and keeps its best so far) need the event loop only so that a signal gets through.
 */
export async function paceSteps<T>(steps: Steps<T>, afterYield?: () => void): Promise<T> {
  let slice = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - slice < SLICE_MS) continue;
    await macrotask();
    afterYield?.();
    slice = performance.now();
  }
}
