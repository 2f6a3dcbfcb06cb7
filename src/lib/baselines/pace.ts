/**
 * How a baseline's training is paced from outside: a clock it asks at each epoch (MLP, EQL) or
 * batch of samples (DSR, VPG) whether to stop, keeping its best so far, and a callback that is told
 * each step. The trainers are generators (core/clock.ts `Steps`) that yield inside an epoch, so a
 * page's Stop or Ctrl-C gets through while they run (`paceSteps`); `runSteps` runs them through.
 */
export interface TrainingStep {
  /** The output being trained, its index among the run's outputs and their number. */
  target: string;
  targetIndex: number;
  targets: number;
  /** Epochs done (MLP, EQL: all phases together) or expressions sampled (DSR, VPG), of `steps`. */
  step: number;
  steps: number;
  unit: "epoch" | "sample";
  /** EQL's phase (plain, l1, l0). */
  phase?: string;
  /**
   * The best NRMSE so far: the MLP's validation NRMSE at its best epoch (on standardised rows),
   * the best expression's train NRMSE for DSR and VPG; absent for EQL (scored at its phases' ends).
   */
  nrmse?: number;
}

export interface TrainingPace {
  /** True when the training must end now; it then keeps its best so far (stopReason "aborted"). */
  stopped(): boolean;
  onStep?(step: Omit<TrainingStep, "target" | "targetIndex" | "targets">): void;
}

/** A pace that never stops and reports nothing. */
export const UNPACED: TrainingPace = { stopped: () => false };
