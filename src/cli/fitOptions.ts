/** Flags shared by `fit` and `run`: the LoCaL fit settings, the backend and the search. */
import type { Command } from "commander";
import { InputError } from "../lib/errors.js";
import type { FitOptions } from "../lib/local/fit.js";
import { FACTORS_CAP, METHOD_NAMES, METHODS, TERMS_CAP, isMethod, type SearchMethod, type SearchSettings } from "../lib/search/index.js";
import { list, parseInteger, parseNumber } from "./io.js";

export interface FitFlags {
  steps?: string;
  lr?: string;
  polish?: string;
  engine?: string;
  backend: string;
}

export interface SearchFlags {
  method: string;
  episodes?: string;
  budget?: string;
  terms?: string;
  maxFactors?: string;
  constraints: string;
  reward: string;
  stopNrmse?: string;
  epsilon?: string;
  gamma?: string;
  proposal?: string;
  rank?: string;
}

export function addFitFlags(command: Command): Command {
  return command
    .option("--steps <n>", "Adam steps per fit (default 200 for a form, 50 in the search)")
    .option("--lr <rate>", "Adam learning rate (paper: 1e-2)")
    .option("--polish <kind>", "second-order polish after Adam: lm | none (default lm)")
    .option("--engine <engine>", "where Adam runs: tfjs | js (default tfjs for a form, js in the search)")
    .option("--backend <name>", "tfjs backend: cpu | wasm", "cpu");
}

export function addSearchFlags(command: Command): Command {
  return command
    .option("--method <name>", `search method: ${METHOD_NAMES.map((name) => `${name} (${METHODS[name].description})`).join("; ")}`, "consolesr")
    .option("--episodes <n>", "maximum episodes per output (paper T = 600)")
    .option("--budget <n>", "maximum distinct structures fitted per output (0: no limit)")
    .option("--terms <n>", `products per output (LoCaL n2), 1…${TERMS_CAP}; default: grows by itself`)
    .option("--max-factors <n>", `symbols per product (static constraint), 1…${FACTORS_CAP}; default: grows by itself`)
    .option("--constraints <names>", "constraint plugins, comma-separated (empty: none)", "static,dynamic")
    .option("--reward <name>", "reward plugin", "inv-nrmse")
    .option("--stop-nrmse <x>", "consolesr stop rule: train NRMSE at or below this (default 1e-6)")
    .option("--epsilon <p>", "ε-greedy exploration (paper 0.4)")
    .option("--gamma <g>", "discount factor (paper 0.2)")
    .option("--proposal <kind>", "consolesr's proposals: linear (default: linear-algebra proposals first, then operators) | operators | argmin (the paper's ε-greedy LP rollout)")
    .option("--rank <kind>", "rank proposals by the −R network (reward-net) or not at all (none: the ablation)");
}

export function fitSettings(flags: FitFlags, defaults: Pick<FitOptions, "steps" | "engine">): Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine"> {
  const polish = flags.polish ?? "lm";
  const engine = flags.engine ?? defaults.engine ?? "tfjs";
  if (polish !== "lm" && polish !== "none") throw new InputError(`--polish must be lm or none (got "${polish}")`);
  if (engine !== "tfjs" && engine !== "js") throw new InputError(`--engine must be tfjs or js (got "${engine}")`);
  const learningRate = flags.lr === undefined ? 0.01 : parseNumber(flags.lr, "--lr");
  if (learningRate <= 0) throw new InputError(`--lr must be positive (got "${flags.lr}")`);
  const steps = flags.steps === undefined ? (defaults.steps ?? 200) : parseInteger(flags.steps, "--steps");
  return { steps, learningRate, polish, engine };
}

export function searchOverrides(flags: SearchFlags, defaults: Partial<SearchSettings> = {}): { method: SearchMethod; settings: Partial<SearchSettings>; constraints: string[] } {
  if (!isMethod(flags.method)) throw new InputError(`--method must be one of ${METHOD_NAMES.join(", ")} (got "${flags.method}")`);
  const settings: Partial<SearchSettings> = { ...defaults };
  if (flags.episodes !== undefined) settings.episodes = parseInteger(flags.episodes, "--episodes", 1);
  if (flags.budget !== undefined) settings.budget = parseInteger(flags.budget, "--budget", 0);
  const capped = (text: string, flag: string, cap: number) => {
    const value = parseInteger(text, flag, 1);
    if (value > cap) throw new InputError(`${flag} must be at most ${cap} (got ${value})`);
    return value;
  };
  if (flags.terms !== undefined) settings.terms = capped(flags.terms, "--terms", TERMS_CAP);
  if (flags.maxFactors !== undefined) settings.maxFactors = capped(flags.maxFactors, "--max-factors", FACTORS_CAP);
  if (flags.stopNrmse !== undefined) settings.stopNrmse = parseNumber(flags.stopNrmse, "--stop-nrmse");
  if (flags.epsilon !== undefined) settings.epsilon = parseNumber(flags.epsilon, "--epsilon");
  if (flags.gamma !== undefined) settings.gamma = parseNumber(flags.gamma, "--gamma");
  if (flags.proposal !== undefined) settings.proposal = flags.proposal as SearchSettings["proposal"];
  if (flags.rank !== undefined) settings.rank = flags.rank as SearchSettings["rank"];
  return { method: flags.method, settings, constraints: list(flags.constraints) };
}
