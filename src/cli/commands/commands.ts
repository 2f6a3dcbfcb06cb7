/**
 * The CLI commands: fit, run, plugins, check-plugin (docs/design.md#cli-contract); what they print is
 * output.ts, how one pipeline runs is running.ts.
 */
import type { Command } from "commander";
import type { Table } from "../../lib/data/index.js";
import { experiments } from "../../lib/data/index.js";
import { InputError } from "../../lib/core/index.js";
import type { PluginCheckReport } from "../../lib/conformance/index.js";
import {
  isFormConfig,
  isModelConfig,
  lookupExperiment,
  prepareRun,
  type CsvFormConfig,
  type CsvSearchConfig,
} from "../../lib/run/index.js";
import { Interrupted } from "../../lib/core/index.js";
import { builtinConstraints, builtinRewards, builtinSymbols } from "../../lib/plugins/index.js";
import { BOUNDS } from "../../lib/search/index.js";
import { resultEquation, type ResultJson } from "../../lib/result/index.js";
import type { Registries } from "../../lib/plugins/index.js";
import { OUTER_NAMES, outerOf } from "../../lib/equation/index.js";
import {
  addFitFlags,
  addModelFlags,
  addSearchFlags,
  ignoredFlagWarnings,
  listOption,
  numberOption,
} from "./fitOptions.js";
import { gitSha } from "../git.js";
import { checkOutPath, readCsvFile, readCsvFileDriven, registerGridFile, reporter, type Reporter } from "../io.js";
import { addPluginTimeoutFlag, collect, importPluginFile, loadRegistries, TRUST_NOTE } from "../sandbox/plugins.js";
import { registerReproduce } from "./reproduce.js";
import { registerSweep } from "../sweep/sweep.js";

import { emit, underdeterminedWarnings } from "./output.js";
import {
  type CommonFlags,
  interrupted,
  fileMegabytes,
  earlySignals,
  flagOptions,
  runWithProgress,
  backendFor,
  engineText,
} from "./running.js";

const PLUGIN_HELP =
  `load plugins from a .js, .mjs or .ts file whose default ` +
  `export is a plugin or an array (repeatable); ${TRUST_NOTE}`;
const addPluginFlag = (command: Command, help = PLUGIN_HELP): Command =>
  addPluginTimeoutFlag(command.option("--plugin <file>", help, collect));

export function registerCommands(program: Command): void {
  addPluginFlag(
    addModelFlags(
      addSearchFlags(
        addFitFlags(
          program
            .command("fit")
            .description("find (or, with --form, fit) equations for a CSV file")
            .argument("<data.csv>", "CSV with a header row of column names")
            .addOption(listOption("--target <names>", "target column(s), comma-separated"))
            .addOption(listOption("--inputs <names>", "input columns (default: every column that is not a target)"))
            .addOption(listOption("--symbols <names>", "symbol pool, comma-separated (default: all registered)"))
            .option("--form <equations>", 'fit this structure only, e.g. "y1 = x1^2*cos(x2); y2 = x1*x3"')
            .addOption(numberOption("--seed <n>", "random seed, 0…2^32−1", BOUNDS.seed, 0))
            .option("--out <file>", "write the version-1 JSON result")
            .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
            .option("--quiet", "no progress on stderr"),
        ),
      ),
    ),
  ).action(async (file: string, flags: FitFlags, command: Command) => {
    const log = reporter(Boolean(flags.quiet));
    if (flags.out) checkOutPath(flags.out, [file, ...(flags.plugin ?? [])]);
    const { registries } = await loadRegistries(flags.plugin);
    const run = await fitCsv(file, flags, registries, log, file, fromCli(command));
    if (!run) return;
    emit(run.result, flags, run.seconds, log);
    if (run.found?.error) throw run.found.error;
  });

  addPluginFlag(
    addModelFlags(
      addSearchFlags(
        addFitFlags(
          program
            .command("run")
            .description(
              `reproduce one of the paper's experiments (${Object.keys(experiments).join(", ")}), ` +
                "or learn the power flow of a grid file (run powerflow --grid FILE)",
            )
            .argument(
              "<experiment>",
              `${Object.keys(experiments).join(" | ")} | powerflow (with --grid), ` +
                "or a search-benchmark id (nguyen-1, feynman-I.12.4, …)",
            )
            .addOption(numberOption("--seed <n>", "random seed of the data and the search, 0…2^32−1", BOUNDS.seed, 0))
            .addOption(numberOption("--snr <dB>", "Gaussian noise on the training targets at this SNR", BOUNDS.snrDb))
            .addOption(
              numberOption(
                "--rows <n>",
                `training rows, ${BOUNDS.rows.rule.replace("an integer from ", "").replace(" to ", "…")} (default: ` +
                  `the experiment's; syn1, syn2, toy: 2000 train and 2000 test; pow: ` +
                  `the first N hours of its 8760-hour training year, at most 8760, tested on the whole second year; ` +
                  `mas: the first N of its 3000 training points, at most 3000, tested on the other 3000)`,
                BOUNDS.rows,
              ),
            )
            .addOption(
              listOption(
                "--symbols <names>",
                "symbol pool, comma-separated (default: the experiment's; pow: x, and x,x^2 can express its PQ bus)",
              ),
            )
            .option(
              "--grid <file>",
              "with `run powerflow`: the grid file (JSON: buses, lines, baseMVA, load ranges; " +
                "see data/grids/README.md)",
            )
            .option(
              "--given-form",
              "fit the experiment's known forms instead of searching (coefficient estimation only)",
            )
            .option("--out <file>", "write the version-1 JSON result")
            .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
            .option("--quiet", "no progress on stderr"),
        ),
      ),
    ),
  ).action(
    async (
      name: string,
      flags: CommonFlags & { snr?: number; rows?: number; givenForm?: boolean; symbols?: string[]; grid?: string },
    ) => {
      const log = reporter(Boolean(flags.quiet));
      if (name === "powerflow" || flags.grid !== undefined) name = powerFlowOf(name, flags.grid);
      const experiment = lookupExperiment(name);
      if (!experiment)
        throw new InputError(
          `unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")}, ` +
            `or a search-benchmark id such as nguyen-1)`,
        );
      const { seed, rows, snr: snrDb } = flags;
      if (flags.out) checkOutPath(flags.out, flags.plugin ?? []);
      const { registries } = await loadRegistries(flags.plugin);
      if (flags.givenForm && flags.symbols)
        throw new InputError(
          "--symbols chooses a search's pool; --given-form fits the experiment's own forms (drop one of them)",
        );
      const prepared = prepareRun(
        {
          experiment: name,
          seed,
          rows,
          snrDb,
          symbols: flags.symbols,
          givenForm: Boolean(flags.givenForm),
          ...flagOptions(flags, Boolean(flags.givenForm)),
        },
        { registries },
      );
      const { config, data } = prepared;
      const backend = await backendFor(config, flags.backend);
      const started = performance.now();
      const pool = "symbols" in config && config.symbols.length ? `, symbols ${config.symbols.join(", ")}` : "";
      log.info(
        `${experiment.name}: ${experiment.description}; ${data.train.rows} training rows, ${data.test?.rows ?? 0} ` +
          `test rows, seed ${seed}${snrDb === undefined ? "" : `, SNR ${snrDb} dB`}${pool}, ` +
          engineText(config, backend),
      );
      const { result, search: found } = await runWithProgress(
        prepared,
        { git: gitSha(), backend },
        log,
        Boolean(flags.quiet),
      );
      for (const e of result.evaluation ?? []) {
        const ec = e.coefficientError === null ? "n/a" : `${e.coefficientError.toPrecision(3)} %`;
        log.info(
          `${e.target}: ${e.exact ? "exact" : `not exact (${e.reason})`}, ` +
            `E_c ${ec}, test NRMSE ${e.testNrmse.toExponential(2)}; truth ${e.truth}`,
        );
      }
      if (experiment.report) for (const line of experiment.report(result.equations.map(resultEquation))) log.info(line);
      emit(result, flags, (performance.now() - started) / 1000, log);
      if (found?.error) throw found.error;
    },
  );

  addPluginFlag(
    program.command("plugins").description("list the registered plugins (built-ins and --plugin files)"),
  ).action(async (flags: { plugin?: string[] }) => {
    const { registries, origins } = await loadRegistries(flags.plugin);
    const from = (kind: string, name: string) => {
      const file = origins.get(`${kind}:${name}`);
      return file ? `  [${file}]` : "";
    };
    for (const s of registries.symbols.values()) {
      process.stdout.write(
        `symbol      ${s.name.padEnd(16)} complexity ${s.complexity}${s.innerWeight ? ", inner weight" : ""}` +
          `${s.description ? ` — ${s.description}` : ""}${from("symbol", s.name)}\n`,
      );
    }
    for (const c of registries.constraints.values())
      process.stdout.write(`constraint  ${c.name.padEnd(16)} ${c.describe()}${from("constraint", c.name)}\n`);
    for (const r of registries.rewards.values())
      process.stdout.write(`reward      ${r.name.padEnd(16)} range [${r.range.join(", ")}]${from("reward", r.name)}\n`);
    for (const name of [...OUTER_NAMES, ...registries.symbols.outers]) {
      const g = outerOf(name);
      process.stdout.write(`outer       ${name.padEnd(16)} cost ${g.cost} — ${g.description}${from("outer", name)}\n`);
    }
  });

  addPluginFlag(
    program
      .command("check-plugin")
      .description(
        `conformance checks for plugin files: symbols against tfjs, KaTeX and their domain; constraints; ` +
          `rewards; outer functions against their inverse and domain. ` +
          `The checks run the plugins' code (${TRUST_NOTE}): check only files you would run`,
      )
      .argument("[file]", "plugin file (.js, .mjs, .ts); more with --plugin")
      .option("--builtins", "check the built-in plugins too")
      .addOption(numberOption("--seed <n>", "seed of the random points and sample contexts", BOUNDS.seed, 0)),
    "another plugin file to check (repeatable)",
  ).action(async (file: string | undefined, flags: { plugin?: string[]; builtins?: boolean; seed: number }) => {
    const { seed } = flags;
    const files = [...(file ? [file] : []), ...(flags.plugin ?? [])];
    if (files.length === 0 && !flags.builtins) throw new InputError("check-plugin needs a plugin file (or --builtins)");
    // Import every file first: a file that cannot be imported is one error line, before any check.
    const groups: { origin: string; candidates: unknown[] }[] = [];
    if (flags.builtins)
      groups.push({ origin: "built-in", candidates: [...builtinSymbols, ...builtinConstraints, ...builtinRewards] });
    for (const path of files) groups.push({ origin: path, candidates: await importPluginFile(path) });
    await (await import("../../lib/engine/index.js")).useBackend("cpu");
    const { tf } = await import("../../lib/engine/tf.js");
    const { checkPlugins, formatFailure } = await import("../../lib/conformance/index.js");
    // KaTeX (an optional peer dependency) renders each symbol's LaTeX where it is installed.
    let renderLatex: ((latex: string) => void) | undefined;
    try {
      const katex = (await import("katex")).default;
      renderLatex = (latex) => void katex.renderToString(latex, { throwOnError: true });
    } catch {
      process.stderr.write(
        "note: KaTeX is not installed, so symbols' LaTeX is not rendered (npm install katex to check it)\n",
      );
    }
    const registered = {
      symbol: builtinSymbols.map((p) => p.name),
      constraint: builtinConstraints.map((p) => p.name),
      reward: builtinRewards.map((p) => p.name),
      outer: [...OUTER_NAMES] as string[],
    };
    const reports: PluginCheckReport[] = [];
    for (const { origin, candidates } of groups) {
      const group = checkPlugins(candidates, {
        tf,
        seed,
        origin,
        renderLatex,
        registered: origin === "built-in" ? {} : registered,
      });
      for (const report of group) {
        if (report.kind !== "unknown") registered[report.kind] = [...registered[report.kind], report.plugin];
        const status = report.failures.length === 0 ? "ok  " : "FAIL";
        const count =
          report.failures.length === 0
            ? `${report.checks.length} checks passed`
            : `${report.failures.length} of ${report.checks.length} checks failed`;
        process.stdout.write(
          `${status}  ${report.kind.padEnd(10)} ${report.plugin.padEnd(16)} ${count}  [${origin}]\n`,
        );
        for (const failure of report.failures) process.stderr.write(`error: ${formatFailure(failure)}\n`);
      }
      reports.push(...group);
    }
    const checks = reports.reduce((n, r) => n + r.checks.length, 0);
    const failed = reports.reduce((n, r) => n + r.failures.length, 0);
    if (failed > 0) {
      process.stdout.write(
        `FAIL: ${failed} of ${checks} checks failed ` +
          `(${reports.filter((r) => r.failures.length).length} of ${reports.length} plugins)\n`,
      );
      process.exitCode = 2;
    } else {
      process.stdout.write(`ok: ${reports.length} plugin${reports.length === 1 ? "" : "s"}, ${checks} checks passed\n`);
    }
  });

  registerReproduce(program);
  registerSweep(program);
}

/**
 * `run powerflow --grid FILE`: the grid's experiment, registered under `powerflow:<grid name>`,
 * whose name the run goes on with (and its result records).
 */
function powerFlowOf(name: string, grid: string | undefined): string {
  if (name !== "powerflow") throw new InputError(`--grid: applies to \`run powerflow\` only (not \`run ${name}\`)`);
  if (grid === undefined)
    throw new InputError("run powerflow: --grid <file> is required (a grid JSON file: see data/grids/README.md)");
  return registerGridFile(grid).name;
}

/** The flags `fit` (and `report`) read. */
/** Whether an option (by commander's attribute name) was given on the command line, not defaulted. */
export const fromCli =
  (command: Command) =>
  (key: string): boolean =>
    command.getOptionValueSource(key) === "cli";

export type FitFlags = CommonFlags & { target?: string[]; inputs?: string[]; symbols?: string[]; form?: string };

/**
 * `fit`'s run on a CSV file: read (a chunk at a time, stoppable), resolved into a config, searched
 * (or fitted, or trained) with progress on stderr. `dataName` is the name the result records as
 * its data (manifest.config.data; default the path given). Undefined when a signal stopped it
 * before the run started (the CLI's `interrupted` says so).
 */
export async function fitCsv(
  file: string,
  flags: FitFlags,
  registries: Registries,
  log: Reporter,
  dataName = file,
  given: (key: string) => boolean = () => false,
): Promise<{ result: ResultJson; found: { error?: unknown } | undefined; seconds: number } | undefined> {
  const seed = flags.seed;
  // A large CSV is parsed a chunk at a time: a stop signal ends the command there, saying so.
  const early = earlySignals();
  let table: Table | undefined;
  const megabytes = fileMegabytes(file);
  if (megabytes >= 8) log.info(`reading ${file} (${megabytes.toFixed(0)} MB)`);
  try {
    table = await readCsvFileDriven(file, early.signal);
  } catch (error) {
    early.release();
    if (!(error instanceof Interrupted)) throw error;
    Object.assign(interrupted, { value: true, signal: early.stopped(), before: `reading ${file}` });
    return undefined;
  }
  const prepared = prepareRun(
    {
      csv: { name: dataName, table: () => (table ??= readCsvFile(file)) },
      targets: flags.target,
      inputs: flags.inputs,
      symbols: flags.symbols,
      form: flags.form,
      seed,
      ...flagOptions(flags, flags.form !== undefined),
    },
    { registries },
  );
  const config = prepared.config as CsvFormConfig | CsvSearchConfig;
  // Search flags the run will not read are said once each (they were ignored without a word).
  for (const line of ignoredFlagWarnings(flags.method, flags.form !== undefined, given)) log.warn(line);
  const backend = await backendFor(config, flags.backend);
  early.release();
  if (early.stopped()) {
    Object.assign(interrupted, { value: true, signal: early.stopped(), before: `preparing the data of ${file}` });
    return undefined;
  }
  const started = performance.now();
  const { train } = prepared.data;
  if (isFormConfig(config))
    log.info(`fitting ${train.targets.join(", ")} from ${train.rows} rows of ${file} on tfjs ${backend}`);
  else if (isModelConfig(config))
    log.info(
      `training ${config.method} for ${train.targets.join(", ")} from ${train.rows} rows of ${file} ` +
        `(tfjs ${backend})`,
    );
  else
    log.info(
      `searching ${train.targets.join(", ")} from ${train.rows} rows of ${file} with ` +
        `symbols ${config.symbols.join(", ")} (${engineText(config, backend)})`,
    );
  let output: Awaited<ReturnType<typeof runWithProgress>>;
  try {
    output = await runWithProgress(prepared, { git: gitSha(), backend }, log, Boolean(flags.quiet));
  } catch (error) {
    // A stop signal during a form's fit: there is no best so far (program.ts says nothing was written).
    if (!(error instanceof Interrupted) || !interrupted.value) throw error;
    interrupted.before = `fitting the form on ${file}`;
    return undefined;
  }
  const { result, search: found } = output;
  for (const line of underdeterminedWarnings(result, train.rows)) log.warn(line);
  return { result, found, seconds: (performance.now() - started) / 1000 };
}
