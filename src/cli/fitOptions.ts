/** Flags shared by `fit` and `run`: the LoCaL fit settings and the backend. */
import type { Command } from "commander";
import { InputError } from "../lib/errors.js";
import type { FitOptions } from "../lib/local/fit.js";
import { parseInteger, parseNumber } from "./io.js";

export interface FitFlags {
  steps: string;
  lr: string;
  polish: string;
  engine: string;
  backend: string;
}

export function addFitFlags(command: Command): Command {
  return command
    .option("--steps <n>", "Adam steps per fit", "200")
    .option("--lr <rate>", "Adam learning rate (paper: 1e-2)", "0.01")
    .option("--polish <kind>", "second-order polish after Adam: lm | none", "lm")
    .option("--engine <engine>", "where Adam runs: tfjs | js (float64)", "tfjs")
    .option("--backend <name>", "tfjs backend: cpu | wasm", "cpu");
}

export function fitSettings(flags: FitFlags): Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine"> {
  if (flags.polish !== "lm" && flags.polish !== "none") throw new InputError(`--polish must be lm or none (got "${flags.polish}")`);
  if (flags.engine !== "tfjs" && flags.engine !== "js") throw new InputError(`--engine must be tfjs or js (got "${flags.engine}")`);
  const learningRate = parseNumber(flags.lr, "--lr");
  if (learningRate <= 0) throw new InputError(`--lr must be positive (got "${flags.lr}")`);
  return { steps: parseInteger(flags.steps, "--steps"), learningRate, polish: flags.polish, engine: flags.engine };
}
