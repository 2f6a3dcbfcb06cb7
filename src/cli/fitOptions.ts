/**
 * Flags shared by `fit` and `run`: the LoCaL fit settings, the backend and the search. Every
 * flag is validated once, where commander parses it: numbers through the shared bounds
 * (src/lib/search/bounds.ts, which result files go through too), names through `choices`.
 */
import { Option, type Command } from "commander";
import { BOUNDS, CHOICES, FLAG_BOUNDS, HIDDEN_LAYERS_CAP, parseBound, type Bound } from "../lib/search/index.js";
import type { FitOptions } from "../lib/local/index.js";
import {
  METHOD_NAMES,
  METHODS,
  TERMS_CAP,
  FACTORS_CAP,
  type SearchMethod,
  type SearchSettings,
} from "../lib/search/index.js";
import { InputError } from "../lib/core/index.js";
import { list } from "./io.js";

export interface FitFlags {
  steps?: number;
  lr?: number;
  polish?: FitOptions["polish"];
  engine?: FitOptions["engine"];
  backend: string;
}

export interface SearchFlags {
  method: SearchMethod;
  episodes?: number;
  budget?: number;
  timeLimit?: number;
  /** Print each target's Pareto front (complexity, train NRMSE, score, equation; the answer marked). */
  front?: boolean;
  terms?: number;
  maxFactors?: number;
  constraints: string[];
  reward: string;
  stopNrmse?: number;
  epsilon?: number;
  gamma?: number;
  proposal?: SearchSettings["proposal"];
  rank?: SearchSettings["rank"];
  qNetwork?: SearchSettings["qNetwork"];
  hidden?: number[];
  epochs?: number;
  batch?: number;
  patience?: number;
  validation?: number;
  l1?: number;
  threshold?: number;
  entropy?: number;
  minLength?: number;
  maxLength?: number;
}

/** `--flag <value>` parsed into a bounded number (an InputError naming the flag otherwise). */
export function numberOption(flags: string, description: string, bound: Bound, fallback?: number): Option {
  const flag = flags.split(" ")[0]!;
  const option = new Option(flags, description).argParser((text: string) => parseBound(bound, text, flag));
  return fallback === undefined ? option : option.default(fallback);
}

/** `--flag <name>` restricted to `choices` (commander names the flag and the choices). */
export const choiceOption = (
  flags: string,
  description: string,
  choices: readonly string[],
  fallback?: string,
): Option => {
  const option = new Option(flags, description).choices(choices);
  return fallback === undefined ? option : option.default(fallback);
};

/** `--flag <a,b,…>`: a non-empty comma-separated list (an empty one is an InputError naming the flag). */
export function listOption(
  flags: string,
  description: string,
  { allowEmpty = false, fallback }: { allowEmpty?: boolean; fallback?: string } = {},
): Option {
  const flag = flags.split(" ")[0]!;
  const option = new Option(flags, description).argParser((text: string) => {
    const names = list(text);
    if (names.length === 0 && !allowEmpty)
      throw new InputError(
        `${flag} names nothing (got ${JSON.stringify(text)}); give one or more comma-separated names`,
      );
    return names;
  });
  return fallback === undefined ? option : option.default(list(fallback), fallback);
}

export const BACKENDS = ["cpu", "wasm"] as const;

export function addFitFlags(command: Command): Command {
  return command
    .addOption(
      numberOption("--steps <n>", "Adam steps per fit (default 200 for a form, 50 in the search)", BOUNDS.steps),
    )
    .addOption(
      numberOption(
        "--lr <rate>",
        "Adam learning rate (paper: 1e-2; with --method mlp the MLP's, default 3e-3)",
        BOUNDS.learningRate,
      ),
    )
    .addOption(
      choiceOption(
        "--polish <kind>",
        "coefficient fit: lsq (the search's default: lm, except that a structure with no inner weight is solved " +
          "exactly by QR least squares, no Adam) | lm (Adam then Levenberg–Marquardt; a form's default) | " +
          "none (Adam only, the paper) | bfgs (BFGS alone, no Adam: the ablation)",
        CHOICES.polish,
      ),
    )
    .addOption(
      choiceOption("--engine <engine>", "where Adam runs (default tfjs for a form, js in the search)", CHOICES.engine),
    )
    .addOption(choiceOption("--backend <name>", "tfjs backend", BACKENDS, "cpu"));
}

export function addSearchFlags(command: Command): Command {
  return command
    .addOption(
      choiceOption(
        "--method <name>",
        `search method: ${METHOD_NAMES.map((name) => `${name} (${METHODS[name].description})`).join("; ")}`,
        METHOD_NAMES,
        "consolesr",
      ),
    )
    .addOption(numberOption("--episodes <n>", "maximum episodes per output (paper T = 600)", BOUNDS.episodes))
    .addOption(
      numberOption("--budget <n>", "maximum distinct structures fitted per output (0: no limit)", BOUNDS.budget),
    )
    .addOption(
      numberOption(
        "--time-limit <seconds>",
        "wall-clock limit of the search; at it the best so far is printed and written (0: none, the default)",
        BOUNDS.timeLimit,
      ),
    )
    .option(
      "--front",
      "print each target's Pareto front after the equations: complexity, train NRMSE, score (the answer " +
        "rule's, lower is better) and equation, the answer marked *",
    )
    .addOption(
      numberOption(
        "--terms <n>",
        `products per output (LoCaL n2), 1…${TERMS_CAP}; default: grows by itself`,
        FLAG_BOUNDS.terms,
      ),
    )
    .addOption(
      numberOption(
        "--max-factors <n>",
        `symbols per product (static constraint), 1…${FACTORS_CAP}; default: grows by itself`,
        FLAG_BOUNDS.maxFactors,
      ),
    )
    .addOption(
      listOption("--constraints <names>", "constraint plugins, comma-separated (empty: none)", {
        allowEmpty: true,
        fallback: "static,dynamic",
      }),
    )
    .option("--reward <name>", "reward plugin", "inv-nrmse")
    .addOption(
      numberOption(
        "--stop-nrmse <x>",
        "stop rule: train NRMSE at or below this, 0…1 (default 1e-6, or the noise floor estimated from the " +
          "data where it is higher; giving it turns the estimate off)",
        FLAG_BOUNDS.stopNrmse,
      ),
    )
    .addOption(numberOption("--epsilon <p>", "ε-greedy exploration, 0…1 (paper 0.4)", BOUNDS.epsilon))
    .addOption(numberOption("--gamma <g>", "discount factor, 0…1 (paper 0.2)", BOUNDS.gamma))
    .addOption(
      choiceOption(
        "--proposal <kind>",
        "consolesr's proposals: linear (default: linear-algebra proposals first, then operators) | wide (linear, " +
          "plus backward elimination over the whole product library for sums up to --terms products; pow's default) " +
          "| operators | argmin (the paper's ε-greedy LP rollout)",
        CHOICES.proposal,
      ),
    )
    .addOption(
      choiceOption(
        "--rank <kind>",
        "rank proposals by the −R network (reward-net) or not at all (none: the ablation)",
        CHOICES.rank,
      ),
    )
    .addOption(
      choiceOption(
        "--q-network <kind>",
        "the −Q and −R networks: icnn (default: input-convex, LP argmin) | mlp (not convex, the best of 64 " +
          "sampled actions: the paper's non-convex ablation)",
        CHOICES.qNetwork,
      ),
    );
}

/** `--hidden 64,64`: 1 to HIDDEN_LAYERS_CAP layer widths, each a bounded integer. */
function hiddenOption(): Option {
  return new Option(
    "--hidden <widths>",
    "MLP hidden layer widths, comma-separated (mlp default 64,64); EQL: one number, its units of each kind (default 2)",
  ).argParser((text: string) => {
    const parts = text.split(",");
    if (parts.length > HIDDEN_LAYERS_CAP)
      throw new InputError(`--hidden must be 1 to ${HIDDEN_LAYERS_CAP} layer widths (got ${JSON.stringify(text)})`);
    return parts.map((part) => parseBound(BOUNDS.hiddenUnits, part, "--hidden"));
  });
}

/**
 * The model baselines' flags (--method mlp, --method eql); --lr is their Adam learning rate,
 * --hidden EQL's units of each kind, --epochs its epochs per phase.
 */
export function addModelFlags(command: Command): Command {
  return command
    .addOption(hiddenOption())
    .addOption(
      numberOption(
        "--epochs <n>",
        "MLP: most epochs (mlp default 500); EQL: epochs per phase (default 200)",
        BOUNDS.epochs,
      ),
    )
    .addOption(numberOption("--batch <n>", "MLP, EQL: mini-batch rows (default 64)", BOUNDS.batch))
    .addOption(
      numberOption(
        "--patience <n>",
        "MLP: stop after this many epochs without a better validation loss (default 30)",
        BOUNDS.patience,
      ),
    )
    .addOption(
      numberOption(
        "--validation <fraction>",
        "MLP: fraction of the training rows held out for early stopping, above 0 and at most 0.5 (default 0.2)",
        BOUNDS.validation,
      ),
    )
    .addOption(numberOption("--l1 <strength>", "EQL: L1 strength of its second phase, 0…1 (default 1e-2)", BOUNDS.l1))
    .addOption(
      numberOption(
        "--threshold <w>",
        "EQL: weights with |w| below this are fixed at 0 in its last phase, 0…10 (default 0.1)",
        BOUNDS.threshold,
      ),
    )
    .addOption(
      numberOption("--entropy <weight>", "DSR, VPG: weight of the entropy bonus, 0…1 (default 0.005)", BOUNDS.entropy),
    )
    .addOption(
      numberOption(
        "--min-length <tokens>",
        "DSR, VPG: shortest expression sampled, in tokens (default 4)",
        BOUNDS.minLength,
      ),
    )
    .addOption(
      numberOption(
        "--max-length <tokens>",
        "DSR, VPG: longest expression sampled, in tokens (default 30)",
        BOUNDS.maxLength,
      ),
    );
}

export function fitSettings(
  flags: FitFlags,
  defaults: Pick<FitOptions, "steps" | "engine">,
): Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine"> {
  // An unset --polish stays unset: the pipeline's default (lm, or an experiment's own) applies.
  return {
    steps: flags.steps ?? defaults.steps ?? 200,
    learningRate: flags.lr ?? 0.01,
    polish: flags.polish,
    engine: flags.engine ?? defaults.engine ?? "tfjs",
  };
}

export function searchOverrides(
  flags: SearchFlags,
  defaults: Partial<SearchSettings> = {},
): { method: SearchMethod; settings: Partial<SearchSettings>; constraints: string[] } {
  const settings: Partial<SearchSettings> = { ...defaults };
  const keys = [
    "episodes",
    "budget",
    "timeLimit",
    "terms",
    "maxFactors",
    "stopNrmse",
    "epsilon",
    "gamma",
    "proposal",
    "rank",
    "qNetwork",
    "hidden",
    "epochs",
    "batch",
    "patience",
    "validation",
    "l1",
    "threshold",
    "entropy",
    "minLength",
    "maxLength",
  ] as const;
  for (const key of keys) if (flags[key] !== undefined) (settings as Record<string, unknown>)[key] = flags[key];
  return { method: flags.method, settings, constraints: flags.constraints };
}
