/**
 * The DSR and VPG baselines (Petersen et al. 2021, "Deep symbolic regression"): an RNN policy
 * (dsrPolicy.ts) samples batches of expressions token by token under in-situ constraints
 * (dsrPrior.ts); each expression's constants are fitted in float64 (dsrExpression.ts) and it is
 * rewarded 1/(1 + NRMSE) on the training rows; the policy learns from the rewards:
 *
 * - "dsr", the risk-seeking policy gradient: only the samples at or above the batch's (1 − ε)
 *   quantile of rewards train it, with that quantile as the baseline, plus the entropy bonus;
 * - "vpg", the standard REINFORCE gradient over the whole batch with an exponential moving
 *   average of the batch's mean reward as the baseline (decay 0.5), plus the same bonus.
 *
 * The budget counts sampled expressions (a repeat is scored from a cache, the same numbers its
 * fit gave); the run stops when it is spent or when an expression's train NRMSE is at or below
 * `stopNrmse`. The answer is the best expression found (highest reward; the first on a tie).
 */
import type { Dataset } from "../data/index.js";
import { std } from "../numeric/index.js";
import { runSteps, type Rng, type Steps } from "../core/index.js";
import { tf } from "../engine/tf.js";
import { UNPACED, type TrainingPace } from "./pace.js";
import { fitExpression, rewardOf } from "./dsrExpression.js";
import type { TokenLibrary } from "./dsrLibrary.js";
import { createPolicy, disposePolicy, policyGradientStep, sampleBatch } from "./dsrPolicy.js";

export type DsrVariant = "dsr" | "vpg";

export interface DsrSettings {
  /** Sampled expressions per target. */
  budget: number;
  /** Expressions per iteration. */
  batch: number;
  /** The policy's Adam learning rate. */
  learningRate: number;
  /** DSR's risk level: the top ε of each batch trains the policy. */
  epsilon: number;
  /** Weight of the entropy bonus. */
  entropy: number;
  /** The LSTM cell's units: `[units]`. */
  hidden: readonly number[];
  minLength: number;
  maxLength: number;
  /** Stop at a train NRMSE at or below this (−1: never). */
  stopNrmse: number;
}

export interface DsrBest {
  tokens: number[];
  constants: Float64Array;
  nrmse: number;
  reward: number;
}

export interface DsrTraining {
  best: DsrBest;
  iterations: number;
  /** Expressions sampled (the budget spent), and how many of them were distinct (fitted). */
  samples: number;
  distinct: number;
  /** The samples drawn up to and including the best expression's first draw. */
  bestAt: number;
  /** The best reward of each iteration's batch. */
  batchBest: number[];
  /** "aborted": stopped from outside between batches, with the best expression so far. */
  stopReason: "reward-threshold" | "budget" | "aborted";
}

/** Samples between two progress reports (pace.onStep). */
const PROGRESS_EVERY = 10;

/** VPG's moving-average baseline: b ← DECAY·b + (1 − DECAY)·mean(R). */
const BASELINE_DECAY = 0.5;

/**
 * The (1 − ε) quantile of `values`, the higher of the two values around it (numpy's "higher"):
 * sorted[⌈(1 − ε)·(n − 1)⌉].
 */
export function upperQuantile(values: readonly number[], epsilon: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((1 - epsilon) * (sorted.length - 1)));
  return sorted[index]!;
}

/** Which samples of a batch train the policy, and their advantages R − b. */
type Learner = (rewards: readonly number[]) => { selected: number[]; advantages: number[] };

/** DSR: the samples at or above the (1 − ε) quantile, the quantile as the baseline. */
const riskSeeking =
  (epsilon: number): Learner =>
  (rewards) => {
    const quantile = upperQuantile(rewards, epsilon);
    const selected = rewards.flatMap((r, i) => (r >= quantile ? [i] : []));
    return { selected, advantages: selected.map((i) => rewards[i]! - quantile) };
  };

/** VPG: every sample, an exponential moving average of the batches' mean rewards as the baseline. */
function movingAverage(): Learner {
  let baseline: number | undefined;
  return (rewards) => {
    const mean = rewards.reduce((sum, r) => sum + r, 0) / rewards.length;
    const b = baseline === undefined ? mean : BASELINE_DECAY * baseline + (1 - BASELINE_DECAY) * mean;
    baseline = b;
    return { selected: rewards.map((_, i) => i), advantages: rewards.map((r) => r - b) };
  };
}

/**
 * Runs DSR or VPG on one target of `data` with the token `library` (its inputs are the data's,
 * in order). `rng` draws the policy's initial weights, then every token.
 */
export function trainDsr(
  data: Dataset,
  target: string,
  library: TokenLibrary,
  settings: DsrSettings,
  variant: DsrVariant,
  rng: Rng,
): DsrTraining {
  return runSteps(trainDsrSteps(data, target, library, settings, variant, rng));
}

/** trainDsr in steps (one per expression sampled), asking `pace` before each batch whether to stop. */
export function* trainDsrSteps(
  data: Dataset,
  target: string,
  library: TokenLibrary,
  settings: DsrSettings,
  variant: DsrVariant,
  rng: Rng,
  pace: TrainingPace = UNPACED,
): Steps<DsrTraining> {
  const y = data.y[data.targets.indexOf(target)]!;
  const spread = std(y);
  const limits = { minLength: settings.minLength, maxLength: settings.maxLength };
  const cache = new Map<string, { constants: Float64Array; nrmse: number; reward: number }>();
  const policy = createPolicy(library.tokens.length, settings.hidden[0]!, rng);
  const optimizer = tf.train.adam(settings.learningRate);
  let best: DsrBest | undefined;
  let bestAt = 0;
  let samples = 0;
  const learner = variant === "dsr" ? riskSeeking(settings.epsilon) : movingAverage();
  const batchBest: number[] = [];
  let stopReason: DsrTraining["stopReason"] = "budget";
  // A stop keeps the best expression so far, once there is one with a finite NRMSE (an answer at
  // any moment: a stop that came before it lets the sampling go on until it is found).
  const answered = () => best !== undefined && Number.isFinite(best.nrmse);
  try {
    while (samples < settings.budget) {
      if (answered() && pace.stopped()) {
        stopReason = "aborted";
        break;
      }
      const size = Math.min(settings.batch, settings.budget - samples);
      const batch = sampleBatch(policy, library, limits, size, rng);
      const rewards: number[] = [];
      for (const tokens of batch.expressions) {
        // Mid-batch too (each fit can take milliseconds).
        if (answered() && pace.stopped()) {
          stopReason = "aborted";
          break;
        }
        samples++;
        const key = tokens.join(",");
        let scored = cache.get(key);
        if (!scored) {
          const fitted = fitExpression(library, tokens, data.x, y, data.rows, spread);
          scored = { ...fitted, reward: rewardOf(fitted.nrmse) };
          cache.set(key, scored);
        }
        if (!best || scored.reward > best.reward) {
          best = { tokens, ...scored };
          bestAt = samples;
        }
        rewards.push(scored.reward);
        if (samples % PROGRESS_EVERY === 0)
          pace.onStep?.({ step: samples, steps: settings.budget, unit: "sample", nrmse: best?.nrmse });
        yield;
      }
      if (rewards.length > 0) batchBest.push(Math.max(...rewards));
      if (stopReason === "aborted") break;
      if (best && best.nrmse <= settings.stopNrmse) {
        stopReason = "reward-threshold";
        break;
      }
      if (samples >= settings.budget) break;
      const { selected, advantages } = learner(rewards);
      policyGradientStep(policy, optimizer, batch, selected, advantages, settings.entropy);
    }
  } finally {
    optimizer.dispose();
    disposePolicy(policy);
  }
  return {
    best: best!,
    iterations: batchBest.length,
    samples,
    distinct: cache.size,
    bestAt,
    batchBest,
    stopReason,
  };
}
