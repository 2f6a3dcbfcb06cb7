/**
 * `consolesr reproduce <result.json>`: reads the config back from the result's manifest
 * (configFromManifest), runs the reactive module of src/lib/runtime.ts headless on it (the same
 * pipeline `fit` and `run` use), and compares the equations term by term (src/lib/reproduce.ts).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { Command } from "commander";
import { useBackend } from "../lib/backend.js";
import type { Table } from "../lib/data/csv.js";
import { InputError } from "../lib/errors.js";
import { configFromManifest, formEquations, isExperimentConfig, isFormConfig, pipelineData, pipelinePlugins, type PipelineConfig } from "../lib/pipeline.js";
import { compareEquations, formatComparison, parseResult, toleranceFor, type Comparison } from "../lib/reproduce.js";
import type { EquationResult, ResultJson } from "../lib/result.js";
import { runModule } from "../lib/runtime.js";
import { VERSION } from "../lib/version.js";
import { readCsvFile, reporter, type Reporter } from "./io.js";
import { addPluginTimeoutFlag, collect, loadRegistries, TRUST_NOTE } from "./plugins.js";

export interface ReproduceOptions {
  backend?: string;
  plugins?: string[];
  log?: Reporter;
}

export interface Reproduction {
  original: ResultJson;
  equations: EquationResult[];
  /** The backend the re-run's manifest records. */
  backend: string;
  /** The re-run's full result. */
  result: ResultJson;
  comparison: Comparison;
  lines: string[];
}

/** Reads a result JSON file; a missing or bad file is one InputError naming it. */
export function readResult(file: string): ResultJson {
  if (!existsSync(file)) throw new InputError(`${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(`${file}: is a directory, not a result JSON`);
  return parseResult(readFileSync(file, "utf8"), file);
}

/** The CSV of a `fit` result: its recorded path, else the same path next to the result JSON. */
function csvPath(file: string, recorded: string): string {
  if (existsSync(recorded)) return recorded;
  const beside = isAbsolute(recorded) ? recorded : join(dirname(file), recorded);
  if (existsSync(beside)) return beside;
  throw new InputError(`${file}: its data file ${recorded} is missing (neither in the current folder nor next to the result); cannot re-run it`);
}

/** The progress line of a re-run. */
function describe(file: string, config: PipelineConfig, backend: string, csv?: { path: string; rows: number }): string {
  if (isExperimentConfig(config)) {
    const how = isFormConfig(config) ? "given forms" : `search (${config.method})`;
    return `reproducing ${file}: ${config.experiment}, ${config.rows} rows, seed ${config.seed}${config.snrDb === null ? "" : `, SNR ${config.snrDb} dB`}, ${how}, tfjs ${backend}`;
  }
  const where = `${csv!.rows} rows of ${csv!.path}`;
  return isFormConfig(config)
    ? `reproducing ${file}: fitting ${config.form} on ${where}, tfjs ${backend}`
    : `reproducing ${file}: searching ${config.targets.join(", ")} on ${where}, seed ${config.seed}, tfjs ${backend}`;
}

/** Re-runs `file`'s manifest in-process (through the runtime module) and compares the equations with the recorded ones. */
export async function reproduce(file: string, options: ReproduceOptions = {}): Promise<Reproduction> {
  const log = options.log ?? reporter(true);
  const original = readResult(file);
  const { manifest } = original;
  const config = configFromManifest(original, file);
  const { registries } = await loadRegistries(options.plugins);
  const withPlugin = <T>(what: () => T): T => {
    try {
      return what();
    } catch (error) {
      if (error instanceof InputError) throw new InputError(`${file}: ${error.message} (was it made with --plugin? pass the same file to reproduce)`);
      throw error;
    }
  };
  if (manifest.version !== VERSION) log.info(`note: ${file} was made by consolesr ${manifest.version}; this is ${VERSION}`);
  withPlugin(() => pipelinePlugins(config, registries));
  let table: Table | undefined;
  let csv: { path: string; rows: number } | undefined;
  if (!isExperimentConfig(config)) {
    // Problems with the table or the form are reported before any progress line.
    const path = csvPath(file, config.data);
    table = readCsvFile(path);
    const { train } = pipelineData(config, { registries, table, file: path });
    if (isFormConfig(config)) formEquations(config, train, registries);
    csv = { path, rows: train.rows };
  }
  const backend = await useBackend(options.backend ?? "cpu");
  log.info(describe(file, config, backend, csv));
  const result = await runModule(config, { backend, registries, table, file: csv?.path });
  const equations = result.equations;
  const comparison = compareEquations(original.equations, equations, toleranceFor(manifest.backend, result.manifest.backend));
  const lines = formatComparison(comparison, { old: manifest.backend, new: result.manifest.backend });
  return { original, equations, backend: result.manifest.backend, result, comparison, lines };
}

export function registerReproduce(program: Command): void {
  const command = program
    .command("reproduce")
    .description(
      "re-run a result JSON from its manifest and compare the equations term by term; exit 0 when all match " +
        "(relative tolerance 1e-9 on cpu/js, 1e-4 when float32 backends are involved), 1 when they differ, 2 for a bad file",
    )
    .argument("<result.json>", "a version-1 JSON written by fit or run with --out")
    .option("--backend <name>", "tfjs backend of the re-run: cpu | wasm", "cpu")
    .option("--plugin <file>", `load the plugin file the result was made with (repeatable); ${TRUST_NOTE}`, collect)
    .option("--quiet", "no progress on stderr");
  addPluginTimeoutFlag(command).action(async (file: string, flags: { backend: string; plugin?: string[]; quiet?: boolean }) => {
    const log = reporter(Boolean(flags.quiet));
    const started = performance.now();
    const { comparison, lines } = await reproduce(file, { backend: flags.backend, plugins: flags.plugin, log });
    for (const line of lines) process.stdout.write(`${line}\n`);
    log.info(`done in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    // Differences are a result, not an input error: exit 1.
    if (!comparison.match) process.exitCode = 1;
  });
}
