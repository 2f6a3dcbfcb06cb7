/** The CLI commands: fit, run, plugins, check-plugin (DESIGN "CLI contract"). */
import type { Command } from "commander";
import { useBackend } from "../lib/backend.js";
import { datasetFromTable } from "../lib/data/csv.js";
import type { Dataset } from "../lib/data/dataset.js";
import { experimentData, experiments } from "../lib/data/experiments.js";
import { parseForm } from "../lib/equation/parse.js";
import { equationText, formatNumber } from "../lib/equation/format.js";
import type { Equation } from "../lib/equation/types.js";
import { formOf } from "../lib/equation/extract.js";
import { InputError } from "../lib/errors.js";
import { evaluateExperiment } from "../lib/evaluate.js";
import { checkColumnDomain, checkDomains, fitForm, type FitFormResult } from "../lib/fitForm.js";
import { Registry, type Registries, type SymbolPlugin } from "../lib/plugins.js";
import type { PluginCheckReport } from "../lib/checkPlugin.js";
import { resultToJson, type EvaluationResult, type ResultJson } from "../lib/result.js";
import { createRng, type Rng } from "../lib/rng.js";
import { resolveSettings, search, type SearchResult } from "../lib/search/index.js";
import { tf } from "../lib/tf.js";
import { VERSION } from "../lib/version.js";
import { builtinConstraints, builtinRewards, builtinSymbols } from "../plugins/index.js";
import { addFitFlags, addSearchFlags, fitSettings, searchOverrides, type FitFlags, type SearchFlags } from "./fitOptions.js";
import { gitSha, list, parseInteger, parseNumber, readCsvFile, reporter, writeText, type Reporter } from "./io.js";
import { collect, importPluginFile, loadRegistries } from "./plugins.js";
import { registerReproduce } from "./reproduce.js";

interface CommonFlags extends FitFlags, SearchFlags {
  seed: string;
  plugin?: string[];
  out?: string;
  quiet?: boolean;
  timings?: boolean;
}

const PLUGIN_HELP = "load plugins from a .js, .mjs or .ts file whose default export is a plugin or an array (repeatable)";
const addPluginFlag = (command: Command, help = PLUGIN_HELP): Command => command.option("--plugin <file>", help, collect);

/** Set when Ctrl-C stopped a search: main exits 130 after printing the best so far. */
export const interrupted = { value: false };

function fitWithProgress(run: (onProgress: NonNullable<Parameters<typeof fitForm>[2]["onProgress"]>) => FitFormResult, log: Reporter): FitFormResult {
  return run(({ target, done, total, fit }) => {
    log.info(
      `[${done}/${total}] ${target}: train NRMSE ${fit.trainNrmse[0]!.toExponential(2)} after ${fit.steps} Adam steps` +
        ` + ${fit.polishIterations} LM iterations (${(fit.ms / 1000).toFixed(2)} s, ${fit.engine})`,
    );
  });
}

function emit(result: ResultJson, flags: CommonFlags, seconds: number, log: Reporter): void {
  for (const e of result.equations) process.stdout.write(`${e.target} = ${e.text}\n`);
  log.info(`done in ${seconds.toFixed(2)} s`);
  if (flags.timings) result.search.seconds = Number(seconds.toFixed(3));
  if (flags.out) {
    writeText(flags.out, resultToJson(result));
    log.info(`wrote ${flags.out}`);
  }
}

function checkSymbols(registry: Registry<SymbolPlugin>, names: string[] | undefined): string[] {
  const pool = names ?? registry.names();
  pool.forEach((name) => registry.get(name));
  return pool;
}

/** Left-hand sides of a --form, to default --target. */
const formTargets = (form: string) =>
  form
    .split(/[;\n]/)
    .map((s) => s.split("=")[0]!.trim())
    .filter(Boolean);

/** With an explicit pool, a symbol whose domain an input violates is an error naming both. */
function checkPoolDomains(data: Dataset, pool: readonly string[], symbols: Registry<SymbolPlugin>): void {
  for (const name of pool) {
    data.inputs.forEach((input, i) => checkColumnDomain(symbols.get(name), input, data.x[i]!, `drop ${name} from --symbols or the column from --inputs`));
  }
}

/** Resolves and validates the search flags (before any progress line is printed). */
function prepareSearch(flags: CommonFlags, defaults: Parameters<typeof searchOverrides>[1], registries: Registries) {
  const fit = fitSettings(flags, { steps: 50, engine: "js" });
  const { method, settings, constraints } = searchOverrides(flags, { ...defaults, fit });
  const constraintPlugins = constraints.map((name) => registries.constraints.get(name));
  const reward = registries.rewards.get(flags.reward);
  resolveSettings(method, settings);
  return { method, settings, constraints, constraintPlugins, reward };
}

async function runSearch(data: Dataset, pool: string[], prepared: ReturnType<typeof prepareSearch>, rng: Rng, log: Reporter, symbols: Registry<SymbolPlugin>) {
  const { method, settings, constraints, constraintPlugins, reward } = prepared;
  const controller = new AbortController();
  const onSigint = () => {
    interrupted.value = true;
    controller.abort();
  };
  process.once("SIGINT", onSigint);
  let shown = "";
  try {
    const result = await search(data, {
      symbols,
      pool,
      constraints: constraintPlugins,
      reward,
      rng,
      method,
      settings,
      signal: controller.signal,
      onEpisode: (e) => {
        const text = `${e.best.key}`;
        if (text !== shown || e.episode % 50 === 0) {
          shown = text;
          const best = e.best.equation.terms.length ? formatEquation(e.best.equation, symbols) : "—";
          log.info(`${e.target} episode ${e.episode}: reward ${e.reward.toFixed(6)}; best ${best} (NRMSE ${formatNumber(e.best.nrmse, 3)}); ${e.structures} structures`);
        }
      },
    });
    for (const o of result.outputs) log.info(`${o.target}: ${o.stopReason} after ${o.episodes} episodes, ${o.structures} structures fitted (greedy ${o.actions.greedy}, random ${o.actions.random}, rejected ${o.actions.rejected})`);
    return { result, method, constraints, reward: reward.name };
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

const formatEquation = (e: Equation, symbols: Registry<SymbolPlugin>) => equationText(e, (n) => symbols.get(n));

function searchBlock(found: SearchResult, method: string): ResultJson["search"] {
  return {
    method,
    episodes: found.episodes,
    structures: found.structures,
    stopReason: found.stopReason,
    targets: found.outputs.map((o) => ({ target: o.target, episodes: o.episodes, structures: o.structures, stopReason: o.stopReason })),
    front: found.front,
  };
}

export function registerCommands(program: Command): void {
  addPluginFlag(addSearchFlags(
    addFitFlags(
      program
        .command("fit")
        .description("find (or, with --form, fit) equations for a CSV file")
        .argument("<data.csv>", "CSV with a header row of column names")
        .option("--target <names>", "target column(s), comma-separated")
        .option("--inputs <names>", "input columns (default: every column that is not a target)")
        .option("--symbols <names>", "symbol pool, comma-separated (default: all registered)")
        .option("--form <equations>", 'fit this structure only, e.g. "y1 = x1^2*cos(x2); y2 = x1*x3"')
        .option("--seed <n>", "random seed", "0")
        .option("--out <file>", "write the version-1 JSON result")
        .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
        .option("--quiet", "no progress on stderr"),
    ),
  )).action(async (file: string, flags: CommonFlags & { target?: string; inputs?: string; symbols?: string; form?: string }) => {
    const log = reporter(Boolean(flags.quiet));
    const seed = parseInteger(flags.seed, "--seed");
    const { registries } = await loadRegistries(flags.plugin);
    const registry = registries.symbols;
    const explicitPool = flags.symbols ? list(flags.symbols) : undefined;
    const pool = checkSymbols(registry, explicitPool);
    const targets = flags.target ? list(flags.target) : flags.form ? formTargets(flags.form) : [];
    if (targets.length === 0) throw new InputError("--target is required (the column(s) to explain)");
    const table = readCsvFile(file);
    const data = datasetFromTable(table, targets, flags.inputs ? list(flags.inputs) : undefined, file);
    const restricted = new Registry<SymbolPlugin>("symbol", pool.map((name) => registry.get(name)));
    if (!flags.form) {
      if (explicitPool) checkPoolDomains(data, pool, registry);
      const prepared = prepareSearch(flags, {}, registries);
      const backend = await useBackend(flags.backend);
      const started = performance.now();
      log.info(`searching ${data.targets.join(", ")} from ${data.rows} rows of ${file} with symbols ${pool.join(", ")} (tfjs ${backend})`);
      const { result: found, method, constraints, reward } = await runSearch(data, pool, prepared, createRng(seed), log, registry);
      const result: ResultJson = {
        version: 1,
        equations: found.equations,
        search: searchBlock(found, method),
        manifest: {
          seed,
          config: { data: file, targets: data.targets, inputs: data.inputs, symbols: pool, constraints, reward, ...found.settings },
          version: VERSION,
          git: gitSha(),
          backend: found.settings.fit.engine === "js" ? "js" : tf.getBackend(),
        },
      };
      emit(result, flags, (performance.now() - started) / 1000, log);
      if (found.error) throw found.error;
      return;
    }
    const form = flags.form;
    const settings = fitSettings(flags, { steps: 200, engine: "tfjs" });
    // Reject a bad form before any progress line, so a bad input gives exactly one stderr line.
    const equations = parseForm(form, { symbols: restricted.values(), inputs: data.inputs, targets: data.targets });
    checkDomains(equations, data, restricted);
    const missing = data.targets.find((t) => !equations.some((e) => e.target === t));
    if (missing) throw new InputError(`--form has no equation for target "${missing}"`);
    const backend = await useBackend(flags.backend);
    const started = performance.now();
    log.info(`fitting ${data.targets.join(", ")} from ${data.rows} rows of ${file} on tfjs ${backend}`);
    const fitted = fitWithProgress((onProgress) => fitForm(data, equations, { symbols: restricted, ...settings, onProgress }), log);
    const result: ResultJson = {
      version: 1,
      equations: fitted.equations,
      search: { method: "form", episodes: 0, structures: fitted.equations.length, stopReason: "form-given" },
      manifest: {
        seed,
        config: { data: file, targets: data.targets, inputs: data.inputs, symbols: pool, form, ...settings },
        version: VERSION,
        git: gitSha(),
        backend: settings.engine === "js" ? "js" : tf.getBackend(),
      },
    };
    emit(result, flags, (performance.now() - started) / 1000, log);
  });

  addPluginFlag(addSearchFlags(
    addFitFlags(
      program
        .command("run")
        .description(`reproduce one of the paper's experiments (${Object.keys(experiments).join(", ")})`)
        .argument("<experiment>", Object.keys(experiments).join(" | "))
        .option("--seed <n>", "random seed of the data and the search", "0")
        .option("--snr <dB>", "Gaussian noise on the training targets at this SNR")
        .option("--rows <n>", "rows of train and of test data", "2000")
        .option("--given-form", "fit the experiment's known forms instead of searching (coefficient estimation only)")
        .option("--out <file>", "write the version-1 JSON result")
        .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
        .option("--quiet", "no progress on stderr"),
    ),
  )).action(async (name: string, flags: CommonFlags & { snr?: string; rows: string; givenForm?: boolean }) => {
    const log = reporter(Boolean(flags.quiet));
    const experiment = experiments[name];
    if (!experiment) throw new InputError(`unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")})`);
    const seed = parseInteger(flags.seed, "--seed");
    const rows = parseInteger(flags.rows, "--rows", 10);
    const snrDb = flags.snr === undefined ? undefined : parseNumber(flags.snr, "--snr");
    const { registries } = await loadRegistries(flags.plugin);
    const registry = registries.symbols;
    const prepared = flags.givenForm ? undefined : prepareSearch(flags, experiment.search ?? {}, registries);
    const backend = await useBackend(flags.backend);
    const rng = createRng(seed);
    const data = experimentData(experiment, { rng, symbols: (n) => registry.get(n), rows, snrDb });
    const started = performance.now();
    log.info(`${experiment.name}: ${experiment.description}; ${rows} rows, seed ${seed}${snrDb === undefined ? "" : `, SNR ${snrDb} dB`}, tfjs ${backend}`);
    let equations: ResultJson["equations"];
    let simplified: Equation[];
    let searchJson: ResultJson["search"];
    let config: Record<string, unknown>;
    let error: InputError | undefined;
    if (!prepared) {
      // The experiment's forms, structure only, every weight from 1: coefficient estimation.
      const forms = experiment.truth.map(formOf);
      const settings = fitSettings(flags, { steps: 200, engine: "tfjs" });
      const fitted = fitWithProgress((onProgress) => fitForm(data.train, forms, { symbols: registry, ...settings, onProgress }), log);
      ({ equations, simplified } = fitted);
      searchJson = { method: "form", episodes: 0, structures: fitted.equations.length, stopReason: "form-given" };
      config = { experiment: name, rows, snrDb: snrDb ?? null, givenForm: true, ...settings };
    } else {
      const { result: found, method, constraints, reward } = await runSearch(data.train, experiment.symbols, prepared!, rng.fork(), log, registry);
      ({ equations, simplified } = found);
      searchJson = searchBlock(found, method);
      config = { experiment: name, rows, snrDb: snrDb ?? null, symbols: experiment.symbols, constraints, reward, ...found.settings };
      error = found.error;
    }
    const evaluation: EvaluationResult[] = evaluateExperiment(experiment, simplified, data, registry);
    for (const e of evaluation) {
      log.info(`${e.target}: ${e.exact ? "exact" : `not exact (${e.reason})`}, E_c ${e.coefficientError.toPrecision(3)} %, test NRMSE ${e.testNrmse.toExponential(2)}; truth ${e.truth}`);
    }
    const result: ResultJson = {
      version: 1,
      equations,
      search: searchJson,
      evaluation,
      manifest: { seed, config, version: VERSION, git: gitSha(), backend: tf.getBackend() },
    };
    emit(result, flags, (performance.now() - started) / 1000, log);
    if (error) throw error;
  });

  addPluginFlag(
    program
      .command("plugins")
      .description("list the registered plugins (built-ins and --plugin files)"),
  ).action(async (flags: { plugin?: string[] }) => {
    const { registries, origins } = await loadRegistries(flags.plugin);
    const from = (kind: string, name: string) => {
      const file = origins.get(`${kind}:${name}`);
      return file ? `  [${file}]` : "";
    };
    for (const s of registries.symbols.values()) {
      process.stdout.write(`symbol      ${s.name.padEnd(16)} complexity ${s.complexity}${s.innerWeight ? ", inner weight" : ""}${s.description ? ` — ${s.description}` : ""}${from("symbol", s.name)}\n`);
    }
    for (const c of registries.constraints.values()) process.stdout.write(`constraint  ${c.name.padEnd(16)} ${c.describe()}${from("constraint", c.name)}\n`);
    for (const r of registries.rewards.values()) process.stdout.write(`reward      ${r.name.padEnd(16)} range [${r.range.join(", ")}]${from("reward", r.name)}\n`);
  });

  addPluginFlag(
    program
      .command("check-plugin")
      .description("conformance checks for plugin files: symbols against tfjs, KaTeX and their domain; constraints; rewards")
      .argument("[file]", "plugin file (.js, .mjs, .ts); more with --plugin")
      .option("--builtins", "check the built-in plugins too")
      .option("--seed <n>", "seed of the random points and sample contexts", "0"),
    "another plugin file to check (repeatable)",
  ).action(async (file: string | undefined, flags: { plugin?: string[]; builtins?: boolean; seed: string }) => {
    const seed = parseInteger(flags.seed, "--seed");
    const files = [...(file ? [file] : []), ...(flags.plugin ?? [])];
    if (files.length === 0 && !flags.builtins) throw new InputError("check-plugin needs a plugin file (or --builtins)");
    // Import every file first: a file that cannot be imported is one error line, before any check.
    const groups: { origin: string; candidates: unknown[] }[] = [];
    if (flags.builtins) groups.push({ origin: "built-in", candidates: [...builtinSymbols, ...builtinConstraints, ...builtinRewards] });
    for (const path of files) groups.push({ origin: path, candidates: await importPluginFile(path) });
    await useBackend("cpu");
    // Loaded here only: KaTeX costs every other command ~60 ms of start-up.
    const { checkPlugins, formatFailure } = await import("../lib/checkPlugin.js");
    const registered = {
      symbol: builtinSymbols.map((p) => p.name),
      constraint: builtinConstraints.map((p) => p.name),
      reward: builtinRewards.map((p) => p.name),
    };
    const reports: PluginCheckReport[] = [];
    for (const { origin, candidates } of groups) {
      const group = checkPlugins(candidates, { tf, seed, origin, registered: origin === "built-in" ? {} : registered });
      for (const report of group) {
        if (report.kind !== "unknown") registered[report.kind] = [...registered[report.kind], report.plugin];
        const status = report.failures.length === 0 ? "ok  " : "FAIL";
        const count = report.failures.length === 0 ? `${report.checks.length} checks passed` : `${report.failures.length} of ${report.checks.length} checks failed`;
        process.stdout.write(`${status}  ${report.kind.padEnd(10)} ${report.plugin.padEnd(16)} ${count}  [${origin}]\n`);
        for (const failure of report.failures) process.stderr.write(`error: ${formatFailure(failure)}\n`);
      }
      reports.push(...group);
    }
    const checks = reports.reduce((n, r) => n + r.checks.length, 0);
    const failed = reports.reduce((n, r) => n + r.failures.length, 0);
    if (failed > 0) {
      process.stdout.write(`FAIL: ${failed} of ${checks} checks failed (${reports.filter((r) => r.failures.length).length} of ${reports.length} plugins)\n`);
      process.exitCode = 2;
    } else {
      process.stdout.write(`ok: ${reports.length} plugin${reports.length === 1 ? "" : "s"}, ${checks} checks passed\n`);
    }
  });

  registerReproduce(program);
}
