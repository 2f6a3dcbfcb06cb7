/**
 * `consolesr reproduce <result.json>`: re-runs a result from its manifest (the same experiment
 * or CSV, seed, rows, SNR, form or search settings) in-process, mirroring `fit` and `run` in
 * commands.ts, and compares the equations term by term (src/lib/reproduce.ts).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Command } from "commander";
import { useBackend } from "../lib/backend.js";
import { datasetFromTable } from "../lib/data/csv.js";
import { experimentData, experiments } from "../lib/data/experiments.js";
import { formOf } from "../lib/equation/extract.js";
import { parseForm } from "../lib/equation/parse.js";
import { InputError } from "../lib/errors.js";
import { checkDomains, fitForm } from "../lib/fitForm.js";
import type { FitOptions } from "../lib/local/fit.js";
import { Registry, type SymbolPlugin } from "../lib/plugins.js";
import { compareEquations, formatComparison, parseResult, toleranceFor, type Comparison } from "../lib/reproduce.js";
import type { EquationResult, ResultJson } from "../lib/result.js";
import { createRng } from "../lib/rng.js";
import { search } from "../lib/search/index.js";
import type { SearchMethod, SearchSettings } from "../lib/search/qlearning.js";
import { tf } from "../lib/tf.js";
import { VERSION } from "../lib/version.js";
import { readCsvFile, reporter, type Reporter } from "./io.js";
import { collect, loadRegistries } from "./plugins.js";

export interface ReproduceOptions {
  backend?: string;
  plugins?: string[];
  log?: Reporter;
}

export interface Reproduction {
  original: ResultJson;
  equations: EquationResult[];
  /** The backend the re-run's manifest would record. */
  backend: string;
  comparison: Comparison;
  lines: string[];
}

/** Keys of manifest.config that are not search settings. */
const NOT_SETTINGS = new Set(["experiment", "rows", "snrDb", "givenForm", "symbols", "constraints", "reward", "data", "targets", "inputs", "form"]);

/** Reads a result JSON file; a missing or bad file is one InputError naming it. */
export function readResult(file: string): ResultJson {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${file}: is a directory, not a result JSON`);
  return parseResult(readFileSync(file, "utf8"), file);
}

function configReader(file: string, config: Record<string, unknown>) {
  const bad = (key: string, what: string) => new InputError(`${file}: manifest.config.${key} must be ${what} (got ${JSON.stringify(config[key])})`);
  return {
    string(key: string): string {
      if (typeof config[key] !== "string") throw bad(key, "a string");
      return config[key] as string;
    },
    strings(key: string): string[] {
      const v = config[key];
      if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) throw bad(key, "an array of strings");
      return v as string[];
    },
    integer(key: string): number {
      const v = config[key];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw bad(key, "a positive integer");
      return v;
    },
    fit(source: Record<string, unknown>, key: string): Pick<FitOptions, "steps" | "learningRate" | "polish" | "engine"> {
      const { steps, learningRate, polish, engine } = source;
      if (typeof steps !== "number" || typeof learningRate !== "number" || (polish !== "lm" && polish !== "none") || (engine !== "tfjs" && engine !== "js")) {
        throw new InputError(`${file}: manifest.config${key} needs steps, learningRate, polish (lm | none) and engine (tfjs | js)`);
      }
      return { steps, learningRate, polish, engine };
    },
  };
}

/** The CSV of a `fit` result: its recorded path, else the same path next to the result JSON. */
function csvPath(file: string, recorded: string): string {
  if (existsSync(recorded)) return recorded;
  const beside = isAbsolute(recorded) ? recorded : join(dirname(file), recorded);
  if (existsSync(beside)) return beside;
  throw new InputError(`${file}: its data file ${recorded} is missing (neither in the current folder nor next to the result); cannot re-run it`);
}

/** Re-runs `file`'s manifest in-process and compares the equations with the recorded ones. */
export async function reproduce(file: string, options: ReproduceOptions = {}): Promise<Reproduction> {
  const log = options.log ?? reporter(true);
  const original = readResult(file);
  const { manifest } = original;
  const config = manifest.config;
  const read = configReader(file, config);
  const { registries } = await loadRegistries(options.plugins);
  const registry = registries.symbols;
  const withPlugin = <T>(what: () => T): T => {
    try {
      return what();
    } catch (error) {
      if (error instanceof InputError) throw new InputError(`${file}: ${error.message} (was it made with --plugin? pass the same file to reproduce)`);
      throw error;
    }
  };
  const searchPlan = () => {
    const settings = Object.fromEntries(Object.entries(config).filter(([key]) => !NOT_SETTINGS.has(key))) as Partial<SearchSettings>;
    const method = (config.method ?? "consolesr") as SearchMethod;
    if (method !== "consolesr" && method !== "paper") throw new InputError(`${file}: manifest.config.method must be consolesr or paper (got ${JSON.stringify(method)})`);
    if (typeof settings.fit !== "object" || settings.fit === null) throw new InputError(`${file}: manifest.config.fit is missing`);
    const constraints = withPlugin(() => read.strings("constraints").map((name) => registries.constraints.get(name)));
    const reward = withPlugin(() => registries.rewards.get(read.string("reward")));
    return { method, settings, constraints, reward };
  };
  if (manifest.version !== VERSION) log.info(`note: ${file} was made by consolesr ${manifest.version}; this is ${VERSION}`);

  let equations: EquationResult[];
  let backend: string;
  if (typeof config.experiment === "string") {
    const name = config.experiment;
    const experiment = experiments[name];
    if (!experiment) throw new InputError(`${file}: unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")})`);
    const rows = read.integer("rows");
    const snrDb = config.snrDb === null || config.snrDb === undefined ? undefined : Number(config.snrDb);
    if (snrDb !== undefined && !Number.isFinite(snrDb)) throw new InputError(`${file}: manifest.config.snrDb must be a number or null`);
    const plan = config.givenForm === true ? undefined : searchPlan();
    const fit = plan ? undefined : read.fit(config, "");
    backend = await useBackend(options.backend ?? "cpu");
    const rng = createRng(manifest.seed);
    const data = experimentData(experiment, { rng, symbols: (n) => registry.get(n), rows, snrDb });
    log.info(`reproducing ${file}: ${name}, ${rows} rows, seed ${manifest.seed}${snrDb === undefined ? "" : `, SNR ${snrDb} dB`}, ${plan ? `search (${plan.method})` : "given forms"}, tfjs ${backend}`);
    if (!plan) {
      equations = fitForm(data.train, experiment.truth.map(formOf), { symbols: registry, ...fit! }).equations;
    } else {
      const pool = config.symbols === undefined ? experiment.symbols : read.strings("symbols");
      withPlugin(() => pool.forEach((s) => registry.get(s)));
      equations = (await search(data.train, { symbols: registry, pool, constraints: plan.constraints, reward: plan.reward, rng: rng.fork(), method: plan.method, settings: plan.settings })).equations;
    }
    backend = tf.getBackend();
  } else if (typeof config.data === "string") {
    const path = csvPath(file, config.data);
    const targets = read.strings("targets");
    const inputs = read.strings("inputs");
    const pool = read.strings("symbols");
    withPlugin(() => pool.forEach((s) => registry.get(s)));
    const data = datasetFromTable(readCsvFile(path), targets, inputs, path);
    if (typeof config.form === "string") {
      const fit = read.fit(config, "");
      const restricted = new Registry<SymbolPlugin>("symbol", pool.map((name) => registry.get(name)));
      const forms = parseForm(config.form, { symbols: restricted.values(), inputs: data.inputs, targets: data.targets });
      checkDomains(forms, data, restricted);
      const now = await useBackend(options.backend ?? "cpu");
      log.info(`reproducing ${file}: fitting ${config.form} on ${data.rows} rows of ${path}, tfjs ${now}`);
      equations = fitForm(data, forms, { symbols: restricted, ...fit }).equations;
      backend = fit.engine === "js" ? "js" : tf.getBackend();
    } else {
      const plan = searchPlan();
      read.fit(plan.settings.fit as Record<string, unknown>, ".fit");
      const now = await useBackend(options.backend ?? "cpu");
      log.info(`reproducing ${file}: searching ${data.targets.join(", ")} on ${data.rows} rows of ${path}, seed ${manifest.seed}, tfjs ${now}`);
      const found = await search(data, { symbols: registry, pool, constraints: plan.constraints, reward: plan.reward, rng: createRng(manifest.seed), method: plan.method, settings: plan.settings });
      equations = found.equations;
      backend = found.settings.fit.engine === "js" ? "js" : tf.getBackend();
    }
  } else {
    throw new InputError(`${file}: manifest.config names neither an experiment nor a data file; cannot re-run it`);
  }
  const comparison = compareEquations(original.equations, equations, toleranceFor(manifest.backend, backend));
  const lines = formatComparison(comparison, { old: manifest.backend, new: backend });
  return { original, equations, backend, comparison, lines };
}

export function registerReproduce(program: Command): void {
  program
    .command("reproduce")
    .description(
      "re-run a result JSON from its manifest and compare the equations term by term; exit 0 when all match " +
        "(relative tolerance 1e-9 on cpu/js, 1e-4 when float32 backends are involved), 1 when they differ, 2 for a bad file",
    )
    .argument("<result.json>", "a version-1 JSON written by fit or run with --out")
    .option("--backend <name>", "tfjs backend of the re-run: cpu | wasm", "cpu")
    .option("--plugin <file>", "load the plugin file the result was made with (repeatable)", collect)
    .option("--quiet", "no progress on stderr")
    .action(async (file: string, flags: { backend: string; plugin?: string[]; quiet?: boolean }) => {
      const log = reporter(Boolean(flags.quiet));
      const started = performance.now();
      const { comparison, lines } = await reproduce(file, { backend: flags.backend, plugins: flags.plugin, log });
      for (const line of lines) process.stdout.write(`${line}\n`);
      log.info(`done in ${((performance.now() - started) / 1000).toFixed(2)} s`);
      // Differences are a result, not an input error: exit 1.
      if (!comparison.match) process.exitCode = 1;
    });
}
