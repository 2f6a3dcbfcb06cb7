/**
 * `consolesr reproduce <result.json>`: reads the config back from the result's manifest
 * (configFromManifest), runs the reactive module of src/lib/api/runtime.ts headless on it (the same
 * pipeline `fit` and `run` use), and compares the equations term by term (src/lib/result/reproduce.ts).
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join } from "node:path";
import { Option, type Command } from "commander";
import type { Table } from "../../lib/data/index.js";
import { InputError } from "../../lib/core/index.js";
import {
  configFromManifest,
  isExperimentConfig,
  isFormConfig,
  isModelConfig,
  pipelinePlugins,
  prepareRun,
  type CsvSearchConfig,
  type PipelineConfig,
} from "../../lib/run/index.js";
import { MAX_RESULT_BYTES, parseResult, type Comparison } from "../../lib/result/index.js";
import type { EquationResult, ResultJson } from "../../lib/result/index.js";
import { shown } from "../../lib/core/index.js";
import { VERSION } from "../../lib/core/index.js";
import { fileSha256, readBytes, readCsvFile, registerGridFile, reporter, type Reporter } from "../io.js";
import { addPluginTimeoutFlag, collect, loadRegistries, TRUST_NOTE } from "../sandbox/plugins.js";
import { stopWithLine } from "./running.js";

export interface ReproduceOptions {
  backend?: string;
  /** The CSV of a `fit` result, named explicitly (default: looked up from manifest.config.data, see csvPath). */
  data?: string;
  /** Demand an exact match (1e-9, every field) even where a float32 backend would allow 1e-4. */
  exact?: boolean;
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

/** Reads a result JSON file; a missing, bad or oversized (MAX_RESULT_BYTES) file is one InputError naming it. */
export function readResult(file: string): ResultJson {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // Missing, unreadable: readBytes names the problem.
  }
  if (size > MAX_RESULT_BYTES)
    throw new InputError(
      `${file}: ${(size / 2 ** 20).toFixed(1)} MB; a result JSON is at most ${MAX_RESULT_BYTES / 2 ** 20} MB ` +
        `(consolesr writes kilobytes), so this is not one`,
    );
  return parseResult(readBytes(file, "result JSON").toString("utf8"), file);
}

/**
 * The CSV of a `fit` result. A path read from a result file is not trusted: only a relative
 * path that stays inside (no "..") is looked up, in the result's folder and then in the current
 * folder, and otherwise its bare file name is, in the same two folders; never anywhere else.
 * `reproduce --data FILE` names the file explicitly.
 */
function csvPath(file: string, recorded: string): string {
  const parts = recorded.split(/[\\/]+/);
  const inside = !isAbsolute(recorded) && !/^[A-Za-z]:/.test(recorded) && !parts.includes("..");
  const names = [...(inside ? [recorded] : []), basename(recorded)];
  const folders = [dirname(file), "."];
  for (const name of names) {
    for (const folder of folders) {
      const path = join(folder, name);
      if (existsSync(path) && statSync(path).isFile()) return path;
    }
  }
  throw new InputError(
    `${file}: its data file ${basename(recorded)} is missing: ` +
      `it is in neither the result's folder nor the current folder; name it with --data FILE`,
  );
}

/**
 * Reads the data of a CSV result and checks it is the file the result was made from: the SHA-256
 * and row count of manifest.data, before anything is parsed. Messages never quote the file's
 * contents (a result file could point anywhere).
 */
function readRecordedCsv(file: string, path: string, manifest: ResultJson["manifest"]): Table {
  // The digest is checked before the bytes are parsed: a pass that only hashes, then one that parses
  // (both a megabyte at a time: a file of any size, never held whole).
  const digest = fileSha256(path, "CSV");
  if (manifest.data) {
    if (digest !== manifest.data.sha256) {
      throw new InputError(
        `${file}: data file ${path} is not the file this result was made from (SHA-256 ${digest.slice(0, 12)}…, ` +
          `recorded ${manifest.data.sha256.slice(0, 12)}…); name the right one with --data FILE`,
      );
    }
  }
  let table: Table;
  try {
    table = readCsvFile(path);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(`${file}: data file ${path} cannot be read as the CSV this result was made from`);
  }
  if (manifest.data && table.rows !== manifest.data.rows)
    throw new InputError(`${file}: data file ${path} has ${table.rows} rows, the result records ${manifest.data.rows}`);
  return table;
}

/** The progress line of a re-run. */
function describe(file: string, config: PipelineConfig, backend: string, csv?: { path: string; rows: number }): string {
  if (isExperimentConfig(config)) {
    const how = isFormConfig(config) ? "given forms" : `search (${config.method})`;
    return (
      `reproducing ${file}: ${config.experiment}, ${config.rows} rows, ` +
      `seed ${config.seed}${config.snrDb === null ? "" : `, SNR ${config.snrDb} dB`}, ${how}, tfjs ${backend}`
    );
  }
  const where = `${csv!.rows} rows of ${csv!.path}`;
  if (isModelConfig(config)) {
    const method = (config as CsvSearchConfig).method;
    return `reproducing ${file}: training ${method} for ${config.targets.join(", ")} on ${where}, tfjs ${backend}`;
  }
  return isFormConfig(config)
    ? `reproducing ${file}: fitting ${config.form} on ${where}, tfjs ${backend}`
    : `reproducing ${file}: searching ${config.targets.join(", ")} on ${where}, seed ${config.seed}, tfjs ${backend}`;
}

/**
 * Re-runs `file`'s manifest in-process (through the runtime module) and compares the equations with the recorded ones.
 */
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
      if (error instanceof InputError)
        throw new InputError(`${file}: ${error.message} (was it made with --plugin? pass the same file to reproduce)`);
      throw error;
    }
  };
  if (manifest.version !== VERSION)
    log.info(`note: ${file} was made by consolesr ${shown(manifest.version)}; this is ${VERSION}`);
  withPlugin(() => pipelinePlugins(config, registries));
  let table: Table | undefined;
  let csv: { path: string; rows: number } | undefined;
  if (options.data !== undefined && isExperimentConfig(config))
    throw new InputError(`--data: ${file} is a run of the experiment ${config.experiment}, which draws its own data`);
  if (!isExperimentConfig(config)) {
    // Problems with the table or the form are reported before any progress line.
    const path = options.data ?? csvPath(file, config.data);
    if (options.data !== undefined && !existsSync(options.data))
      throw new InputError(`--data ${options.data}: no such file`);
    table = readRecordedCsv(file, path, manifest);
    const { train } = prepareRun({ config }, { registries, table, file: path }).data;
    csv = { path, rows: train.rows };
  }
  const { useBackend } = await import("../../lib/engine/index.js");
  const backend = await useBackend(options.backend ?? "cpu");
  log.info(describe(file, config, backend, csv));
  const { reproduceResult } = await import("../../lib/api/index.js");
  // A stop signal ends a search's reproduction with a line saying so (a form's fit is synchronous
  // here: there the signal keeps its default action).
  const release = isFormConfig(config)
    ? () => {}
    : stopWithLine(`the reproduction of ${file} did not finish: nothing was compared`);
  let reproduced: Awaited<ReturnType<typeof reproduceResult>>;
  try {
    reproduced = await reproduceResult(original, {
      backend,
      registries,
      table,
      file: csv?.path,
      exact: options.exact,
      name: file,
    });
  } finally {
    release();
  }
  const { result, comparison, lines } = reproduced;
  return { original, equations: result.equations, backend: result.manifest.backend, result, comparison, lines };
}

export function registerReproduce(program: Command): void {
  const command = program
    .command("reproduce")
    .description(
      "re-run a result JSON from its manifest and compare every stored field the re-run yields (equations term by " +
        "term, text, metrics, the search block); " +
        "exit 0 when they match (exactly, 1e-9, on the same float64 backend; within float32 tolerance, 1e-4, " +
        "on the equations when a float32 backend is involved), " +
        "1 when they differ, 2 for a bad file, data that is not the file the result was made from, or a result " +
        "that cannot be re-run to the same point (a model's training stopped mid-epoch); a search stopped by " +
        "the clock or from outside is replayed to its episodes, one that ended by itself without the clock",
    )
    .argument("<result.json>", "a version-1 JSON written by fit or run with --out")
    .option(
      "--data <file>",
      "the CSV a fit result was made from (default: its recorded file name, in the result's folder or the current one)",
    )
    .option("--grid <file>", "the grid file a `run powerflow` result was made from (data/grids/README.md)")
    .option("--exact", "demand an exact match (1e-9, every field) even when a float32 backend allows 1e-4")
    .addOption(new Option("--backend <name>", "tfjs backend of the re-run").choices(["cpu", "wasm"]).default("cpu"))
    .option("--plugin <file>", `load the plugin file the result was made with (repeatable); ${TRUST_NOTE}`, collect)
    .option("--quiet", "no progress on stderr");
  addPluginTimeoutFlag(command).action(
    async (
      file: string,
      flags: { backend: string; data?: string; exact?: boolean; plugin?: string[]; quiet?: boolean; grid?: string },
    ) => {
      const log = reporter(Boolean(flags.quiet));
      // A grid's experiment is registered under its name before the manifest names it.
      if (flags.grid !== undefined) registerGridFile(flags.grid);
      const started = performance.now();
      const { comparison, lines } = await reproduce(file, {
        backend: flags.backend,
        data: flags.data,
        exact: flags.exact,
        plugins: flags.plugin,
        log,
      });
      for (const line of lines) process.stdout.write(`${line}\n`);
      log.info(`done in ${((performance.now() - started) / 1000).toFixed(2)} s`);
      // Differences are a result, not an input error: exit 1.
      if (!comparison.match) process.exitCode = 1;
    },
  );
}
