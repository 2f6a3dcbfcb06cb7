/** The CLI commands: fit, run, plugins, check-plugin (DESIGN "CLI contract"). */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { checkBackendName } from "../../lib/core/index.js";
import type { Table } from "../../lib/data/index.js";
import { experiments } from "../../lib/data/index.js";
import { equationText, formatNumber } from "../../lib/equation/index.js";
import { InputError } from "../../lib/core/index.js";
import type { PluginCheckReport } from "../../lib/conformance/index.js";
import {
  FORM_FIT,
  isFormConfig,
  isModelConfig,
  lookupExperiment,
  pipelineData,
  resolvePipelineConfig,
  runPipeline,
  searchSettingsOf,
  SEARCH_FIT,
  usesTfjs,
  type CsvFormConfig,
  type CsvSearchConfig,
  type PipelineConfig,
  type PipelineInput,
  type PipelineOptions,
  type PipelineOutput,
} from "../../lib/run/index.js";
import { resultToJson, type ModelResult, type ResultJson } from "../../lib/result/index.js";
import { runtimeFacts } from "../../lib/core/index.js";
import {
  isModelMethod,
  type EpisodeEvent,
  type OutputSearchResult,
  type SearchSettings,
} from "../../lib/search/index.js";
import { Interrupted } from "../../lib/core/index.js";
import { builtinConstraints, builtinRewards, builtinSymbols } from "../../lib/plugins/index.js";
import { BOUNDS } from "../../lib/search/index.js";
import {
  addFitFlags,
  addModelFlags,
  addSearchFlags,
  fitSettings,
  listOption,
  numberOption,
  searchOverrides,
  type FitFlags,
  type SearchFlags,
} from "./fitOptions.js";
import {
  checkOutPath,
  gitSha,
  readCsvFile,
  readCsvFileDriven,
  reporter,
  stderrStream,
  writeText,
  type Reporter,
} from "../io.js";
import { addPluginTimeoutFlag, collect, importPluginFile, loadRegistries, TRUST_NOTE } from "../sandbox/plugins.js";
import { searchProgress } from "./progress.js";
import { registerReproduce } from "./reproduce.js";
import { registerSweep } from "../sweep/sweep.js";

interface CommonFlags extends FitFlags, SearchFlags {
  seed: number;
  plugin?: string[];
  out?: string;
  quiet?: boolean;
  timings?: boolean;
}

const PLUGIN_HELP =
  `load plugins from a .js, .mjs or .ts file whose default ` +
  `export is a plugin or an array (repeatable); ${TRUST_NOTE}`;
const addPluginFlag = (command: Command, help = PLUGIN_HELP): Command =>
  addPluginTimeoutFlag(command.option("--plugin <file>", help, collect));

/**
 * Set when Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) stopped a search: the CLI
 * exits 128 + the signal's number (130, 143, 129) after printing the best so far.
 */
export const interrupted: { value: boolean; signal?: StopSignal; before?: string } = { value: false };

/** A file's size in MB (0 where it cannot be read: the read names the problem). */
function fileMegabytes(file: string): number {
  try {
    return statSync(file).size / 2 ** 20;
  } catch {
    return 0;
  }
}

/**
 * Until a search's own handler takes over (searchWithProgress): a stop signal aborts `signal`, and
 * the command ends with one line saying no equation was found yet (program.ts), 128 + the signal.
 */
function earlySignals(): { signal: AbortSignal; stopped: () => StopSignal | undefined; release: () => void } {
  const controller = new AbortController();
  let which: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    // A second signal: the default action, as during a search.
    release();
    which = signal;
    controller.abort();
  };
  const release = () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return { signal: controller.signal, stopped: () => which, release };
}

/**
 * The signals that stop a search and keep its best so far (in the plugin worker, main.ts emits them on `process` when
 * the supervisor forwards them).
 */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

type FitProgress = NonNullable<PipelineInput["onFit"]>;

function fitProgress(log: Reporter): FitProgress {
  return ({ target, done, total, fit }) => {
    log.info(
      `[${done}/${total}] ${target}: train NRMSE ${fit.trainNrmse[0]!.toExponential(2)} after ${fit.steps} Adam steps` +
        ` + ${fit.polishIterations} LM iterations (${(fit.ms / 1000).toFixed(2)} s, ${fit.engine})`,
    );
  };
}

/** One line per trained model (a model method): what it is and how well it fits. */
function modelLine(m: ModelResult): string {
  const test = m.testNrmse === undefined ? "" : `, test NRMSE ${m.testNrmse.toExponential(2)}`;
  return (
    `${m.target} = ${m.model}(${m.inputs.join(", ")})  [${m.layers.join("-")} ${m.activation}, ${m.parameters} ` +
    `parameters; train NRMSE ${m.trainNrmse.toExponential(2)}${test}]`
  );
}

function emit(result: ResultJson, flags: CommonFlags, seconds: number, log: Reporter): void {
  if (flags.timings) {
    result.search.seconds = Number(seconds.toFixed(3));
    result.manifest.runtime = runtimeFacts(availableParallelism());
  }
  // The file first: after SIGHUP (the terminal closed) printing may fail, the result must not be lost.
  if (flags.out) writeText(flags.out, resultToJson(result));
  for (const e of result.equations) process.stdout.write(`${e.target} = ${e.text}\n`);
  if (flags.front) process.stdout.write(frontTable(result));
  for (const m of result.models ?? []) {
    // EQL's expression where it did not expand into an equation (its equations are printed above).
    if (m.expression && !m.expression.expanded) process.stdout.write(`${m.target} = ${m.expression.text}\n`);
    process.stdout.write(`${modelLine(m)}\n`);
  }
  log.info(`done in ${seconds.toFixed(2)} s`);
  if (flags.out) log.info(`wrote ${flags.out}`);
}

/** `--front`: each target's Pareto front as a table, the answer marked `*` (empty for a form fit or a model). */
export function frontTable(result: ResultJson): string {
  const front = result.search.front ?? [];
  const noise = result.search.noise;
  const noiseOf = (target: string) =>
    Array.isArray(noise) ? noise.find((n) => n.target === target) : result.equations.length === 1 ? noise : undefined;
  let out = "";
  for (const target of [...new Set(front.map((f) => f.target))]) {
    const rows = front.filter((f) => f.target === target);
    const estimate = noiseOf(target);
    out +=
      `\nPareto front of ${target}` +
      (estimate ? ` (noise NRMSE estimated ${formatNumber(estimate.nrmse, 3)} by ${estimate.method})` : "") +
      "\n  complexity  train NRMSE     score  equation\n";
    for (const f of rows) {
      const score = f.score === undefined ? "—" : f.score.toFixed(1);
      out +=
        `${f.chosen ? "*" : " "} ${String(f.complexity).padStart(10)}  ${f.nrmse.toExponential(3).padStart(11)}  ` +
        `${score.padStart(8)}  ${target} = ${f.text}\n`;
    }
  }
  return out;
}

/** The fit and search flags as pipeline options (flag problems are reported here, naming the flag). */
function flagOptions(
  flags: CommonFlags,
  form: boolean,
): Partial<Pick<PipelineOptions, "fit" | "method" | "search" | "constraints" | "reward">> {
  const fit = fitSettings(
    flags,
    form ? { steps: FORM_FIT.steps, engine: FORM_FIT.engine } : { steps: SEARCH_FIT.steps, engine: SEARCH_FIT.engine },
  );
  if (form) return { fit };
  const { method, settings, constraints } = searchOverrides(flags);
  // A model method's --lr is its own Adam learning rate; it fits no equation.
  if (isModelMethod(method) && flags.lr !== undefined) settings.learningRate = flags.lr;
  return { fit, method, search: settings, constraints, reward: flags.reward };
}

/**
 * Runs a resolved config through the pipeline with the CLI's progress on stderr (a search's is a
 * bar per target on a terminal and plain lines elsewhere, progress.ts; the bar is cleared before
 * anything else is printed). A search can be stopped with Ctrl-C or SIGTERM (the best so far is
 * kept, and written by --out; the CLI exits 130 or 143). A second signal gets the default action
 * (the process ends at once).
 */
async function runWithProgress(
  input: Omit<PipelineInput, "signal" | "onEpisode" | "onFit">,
  log: Reporter,
  quiet: boolean,
): Promise<PipelineOutput> {
  if (isFormConfig(input.config)) return runPipeline({ ...input, onFit: fitProgress(log) });
  if (isModelConfig(input.config))
    return runPipeline({
      ...input,
      onModel: (m) => {
        const t = m.training;
        if ("phases" in t) {
          const mse = t.phases.map((p) => `${p.phase} ${p.mse.toExponential(2)}`).join(", ");
          log.info(
            `${m.target}: ${m.model} trained ${t.phases.length} phases (MSE ${mse}), ` +
              `${t.active} of ${t.weights} weights kept: ${m.expression?.text ?? ""}`,
          );
          return;
        }
        if ("samples" in t) {
          log.info(
            `${m.target}: ${m.model} sampled ${t.samples} expressions (${t.distinct} distinct) in ${t.iterations} ` +
              `iterations (${t.stopReason}), best reward ${t.reward.toFixed(6)}: ${m.expression?.text ?? ""}`,
          );
          return;
        }
        log.info(
          `${m.target}: ${m.model} trained ${t.epochs} epochs (${t.stopReason}; kept epoch ${t.bestEpoch}), ` +
            `validation NRMSE ${t.validationNrmse.toExponential(2)} on ${t.validationRows} rows`,
        );
      },
    });
  const symbols = input.registries.symbols;
  const progress = searchProgress<EpisodeEvent>({
    stream: stderrStream(),
    log,
    quiet,
    episodes: searchSettingsOf(input.config).episodes,
    equation: ({ best }) => (best.equation.terms.length ? equationText(best.equation, (n) => symbols.get(n)) : "—"),
  });
  const controller = new AbortController();
  const stop = () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  const onSignal = (signal: StopSignal) => {
    stop();
    void progress.stop();
    interrupted.value = true;
    interrupted.signal = signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const output = await runPipeline({ ...input, signal: controller.signal, onEpisode: (e) => progress.episode(e) });
    // A signal that came during a step that did not yield (a fit on a very large data set) is
    // still queued: one turn of the event loop hands it to onSignal before the listeners go, so
    // the run ends as stopped (130, 143, 129) with its answer rather than dropping the signal.
    await new Promise((resolve) => setImmediate(resolve));
    await progress.stop();
    const settings = output.search!.settings;
    for (const o of output.search!.outputs) {
      log.info(
        `${o.target}: ${o.stopReason} after ${o.episodes} episodes, ${o.structures} structures ` +
          `fitted${o.screened ? `, ${o.screened} library columns screened` : ""} (greedy ${o.actions.greedy}, ` +
          `random ${o.actions.random}, rejected ${o.actions.rejected}); ` +
          `size ${o.size.terms} terms × ${o.size.maxFactors} factors`,
      );
      const missed = ["episodes", "budget", "exhausted"].includes(o.stopReason);
      if (missed) log.warn(stopAdvice(o, settings));
    }
    if (output.search!.stopReason === "time-limit") log.warn(timeLimitWarning(output.search!.outputs, settings));
    return output;
  } finally {
    void progress.stop();
    stop();
  }
}

/** The one line a time-limited search prints (stderr, even with --quiet). */
function timeLimitWarning(outputs: readonly OutputSearchResult[], settings: SearchSettings): string {
  const stopped = outputs.filter((o) => o.stopReason === "time-limit");
  const unreached = stopped.filter((o) => o.episodes === 0).map((o) => o.target);
  return (
    `warning: the time limit (--time-limit ${settings.timeLimit}) stopped the search of ` +
    `${stopped.map((o) => o.target).join(", ")}; the best so far is printed` +
    (unreached.length ? ` (${unreached.join(", ")}: a linear fit over the inputs, before any search)` : "")
  );
}

/** What to raise when a search ended without meeting its stop rule (stderr, even with --quiet). */
function stopAdvice(o: OutputSearchResult, settings: SearchSettings): string {
  const nrmse = o.best ? formatNumber(o.best.nrmse, 3) : "—";
  const flags: string[] = [];
  if (o.stopReason === "exhausted" || o.stopReason === "budget" || o.stopReason === "episodes") {
    if (settings.terms > 0 && o.size.terms === settings.terms) flags.push(`--terms (now ${settings.terms})`);
    if (settings.maxFactors > 0 && o.size.maxFactors === settings.maxFactors)
      flags.push(`--max-factors (now ${settings.maxFactors})`);
    if (o.stopReason === "budget") flags.push(`--budget (now ${settings.budget})`);
    if (o.stopReason === "episodes") flags.push(`--episodes (now ${settings.episodes})`);
    if (o.stopReason === "exhausted" && flags.length === 0) flags.push("--symbols (a wider pool)");
  }
  const rule =
    o.floor === undefined
      ? `the stop rule (train NRMSE ≤ ${settings.stopNrmse})`
      : `the noise floor (train NRMSE ≤ ${formatNumber(o.reach ?? o.floor, 3)}, ` +
        `${formatNumber((o.reach ?? o.floor) / o.floor, 3)}× the estimated noise)`;
  return (
    `warning: ${o.target}: ${rule} ` +
    `was not met (best ${nrmse}, ${o.stopReason} at ${o.size.terms} terms × ${o.size.maxFactors} factors); ` +
    `the equation may be wrong: raise ${flags.join(" or ")}`
  );
}

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
  ).action(
    async (
      file: string,
      flags: CommonFlags & { target?: string[]; inputs?: string[]; symbols?: string[]; form?: string },
    ) => {
      const log = reporter(Boolean(flags.quiet));
      const seed = flags.seed;
      if (flags.out) checkOutPath(flags.out, [file, ...(flags.plugin ?? [])]);
      const { registries } = await loadRegistries(flags.plugin);
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
        return;
      }
      const config = resolvePipelineConfig(
        {
          csv: { name: file, table: () => (table ??= readCsvFile(file)) },
          targets: flags.target,
          inputs: flags.inputs,
          symbols: flags.symbols,
          form: flags.form,
          seed,
          ...flagOptions(flags, flags.form !== undefined),
        },
        registries,
      ) as CsvFormConfig | CsvSearchConfig;
      const backend = await backendFor(config, flags.backend);
      const data = pipelineData(config, { registries, table });
      early.release();
      if (early.stopped()) {
        Object.assign(interrupted, { value: true, signal: early.stopped(), before: `preparing the data of ${file}` });
        return;
      }
      const started = performance.now();
      const { train } = data;
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
      const { result, search: found } = await runWithProgress(
        { data, config, registries, git: gitSha(), backend },
        log,
        Boolean(flags.quiet),
      );
      emit(result, flags, (performance.now() - started) / 1000, log);
      if (found?.error) throw found.error;
    },
  );

  addPluginFlag(
    addModelFlags(
      addSearchFlags(
        addFitFlags(
          program
            .command("run")
            .description(`reproduce one of the paper's experiments (${Object.keys(experiments).join(", ")})`)
            .argument(
              "<experiment>",
              `${Object.keys(experiments).join(" | ")}, or a search-benchmark id (nguyen-1, feynman-I.12.4, …)`,
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
      flags: CommonFlags & { snr?: number; rows?: number; givenForm?: boolean; symbols?: string[] },
    ) => {
      const log = reporter(Boolean(flags.quiet));
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
      const config = resolvePipelineConfig(
        {
          experiment: name,
          seed,
          rows,
          snrDb,
          symbols: flags.symbols,
          givenForm: Boolean(flags.givenForm),
          ...flagOptions(flags, Boolean(flags.givenForm)),
        },
        registries,
      );
      const backend = await backendFor(config, flags.backend);
      const data = pipelineData(config, { registries });
      const started = performance.now();
      const pool = "symbols" in config && config.symbols.length ? `, symbols ${config.symbols.join(", ")}` : "";
      log.info(
        `${experiment.name}: ${experiment.description}; ${data.train.rows} training rows, ${data.test?.rows ?? 0} ` +
          `test rows, seed ${seed}${snrDb === undefined ? "" : `, SNR ${snrDb} dB`}${pool}, ` +
          engineText(config, backend),
      );
      const { result, search: found } = await runWithProgress(
        { data, config, registries, git: gitSha(), backend },
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
      if (experiment.report) for (const line of experiment.report(result.equations)) log.info(line);
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
  });

  addPluginFlag(
    program
      .command("check-plugin")
      .description(
        `conformance checks for plugin files: symbols against tfjs, KaTeX and their domain; constraints; ` +
          `rewards. The checks run the plugins' code (${TRUST_NOTE}): check only files you would run`,
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
 * The tfjs backend a run records: for a run that uses tfjs (usesTfjs), the flag's backend, loaded
 * and initialised here (tfjs is loaded on first use); for one that does not (a search fitted on
 * the float64 engine), the flag's name, checked, and tfjs is never loaded.
 */
async function backendFor(config: PipelineConfig, name: string): Promise<string> {
  if (!usesTfjs(config)) {
    checkBackendName(name);
    return name;
  }
  const { useBackend } = await import("../../lib/engine/index.js");
  return useBackend(name);
}

/** What fits a run's equations, for its first log line. */
const engineText = (config: PipelineConfig, backend: string) =>
  usesTfjs(config) ? `tfjs ${backend}` : "float64 engine";
