/** The CLI commands: fit, run, plugins (DESIGN "CLI contract"). */
import type { Command } from "commander";
import { useBackend } from "../lib/backend.js";
import { datasetFromTable } from "../lib/data/csv.js";
import { experimentData, experiments } from "../lib/data/experiments.js";
import { InputError } from "../lib/errors.js";
import { evaluateExperiment } from "../lib/evaluate.js";
import { checkDomains, fitForm, type FitFormResult } from "../lib/fitForm.js";
import { parseForm } from "../lib/equation/parse.js";
import { Registry, type SymbolPlugin } from "../lib/plugins.js";
import { resultToJson, type EvaluationResult, type ResultJson } from "../lib/result.js";
import { createRng } from "../lib/rng.js";
import { tf } from "../lib/tf.js";
import { VERSION } from "../lib/version.js";
import { createSymbolRegistry } from "../plugins/index.js";
import { addFitFlags, fitSettings, type FitFlags } from "./fitOptions.js";
import { gitSha, list, parseInteger, parseNumber, readCsvFile, reporter, writeText, type Reporter } from "./io.js";

interface CommonFlags extends FitFlags {
  seed: string;
  out?: string;
  quiet?: boolean;
  timings?: boolean;
}

function fitWithProgress(
  run: (onProgress: NonNullable<Parameters<typeof fitForm>[2]["onProgress"]>) => FitFormResult,
  log: Reporter,
): FitFormResult {
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

export function registerCommands(program: Command): void {
  addFitFlags(
    program
      .command("fit")
      .description("fit equations to a CSV file")
      .argument("<data.csv>", "CSV with a header row of column names")
      .option("--target <names>", "target column(s), comma-separated")
      .option("--inputs <names>", "input columns (default: every column that is not a target)")
      .option("--symbols <names>", "symbol pool, comma-separated (default: all registered)")
      .option("--form <equations>", 'structure to fit, e.g. "y1 = x1^2*cos(x2); y2 = x1*x3"')
      .option("--seed <n>", "random seed", "0")
      .option("--out <file>", "write the version-1 JSON result")
      .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
      .option("--quiet", "no progress on stderr"),
  ).action(async (file: string, flags: CommonFlags & { target?: string; inputs?: string; symbols?: string; form?: string }) => {
    const log = reporter(Boolean(flags.quiet));
    const seed = parseInteger(flags.seed, "--seed");
    const settings = fitSettings(flags);
    const registry = createSymbolRegistry();
    const pool = checkSymbols(registry, flags.symbols ? list(flags.symbols) : undefined);
    const targets = flags.target ? list(flags.target) : flags.form ? formTargets(flags.form) : [];
    if (targets.length === 0) throw new InputError("--target is required (the column(s) to explain)");
    const table = readCsvFile(file);
    const data = datasetFromTable(table, targets, flags.inputs ? list(flags.inputs) : undefined, file);
    if (!flags.form) {
      throw new InputError("fit without --form needs the structure search, which this version does not have yet; give --form \"y = …\"");
    }
    const form = flags.form;
    const restricted = new Registry<SymbolPlugin>("symbol", pool.map((name) => registry.get(name)));
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

  addFitFlags(
    program
      .command("run")
      .description(`reproduce one of the paper's experiments (${Object.keys(experiments).join(", ")})`)
      .argument("<experiment>", Object.keys(experiments).join(" | "))
      .option("--seed <n>", "random seed of the generated data", "0")
      .option("--snr <dB>", "Gaussian noise on the training targets at this SNR")
      .option("--rows <n>", "rows of train and of test data", "2000")
      .option("--out <file>", "write the version-1 JSON result")
      .option("--timings", "include wall-clock seconds in the JSON (breaks byte-identity)")
      .option("--quiet", "no progress on stderr"),
  ).action(async (name: string, flags: CommonFlags & { snr?: string; rows: string }) => {
    const log = reporter(Boolean(flags.quiet));
    const experiment = experiments[name];
    if (!experiment) throw new InputError(`unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")})`);
    const seed = parseInteger(flags.seed, "--seed");
    const rows = parseInteger(flags.rows, "--rows", 10);
    const snrDb = flags.snr === undefined ? undefined : parseNumber(flags.snr, "--snr");
    const settings = fitSettings(flags);
    const registry = createSymbolRegistry();
    const backend = await useBackend(flags.backend);
    const data = experimentData(experiment, { rng: createRng(seed), symbols: (n) => registry.get(n), rows, snrDb });
    const started = performance.now();
    log.info(`${experiment.name}: ${experiment.description}; ${rows} rows, seed ${seed}${snrDb === undefined ? "" : `, SNR ${snrDb} dB`}, tfjs ${backend}`);
    // Until the structure search lands, `run` fits the experiment's known forms (structure only,
    // every weight from 1): the coefficient-estimation half of CoNSoLe.
    const forms = experiment.truth.map((e) => ({ target: e.target, terms: e.terms.map((t) => ({ coefficient: 1, factors: t.factors.map(({ symbol, input }) => ({ symbol, input })) })) }));
    const fitted = fitWithProgress((onProgress) => fitForm(data.train, forms, { symbols: registry, ...settings, onProgress }), log);
    const evaluation: EvaluationResult[] = evaluateExperiment(experiment, fitted.simplified, data, registry);
    for (const e of evaluation) {
      log.info(
        `${e.target}: ${e.exact ? "exact" : `not exact (${e.reason})`}, E_c ${e.coefficientError.toPrecision(3)} %, test NRMSE ${e.testNrmse.toExponential(2)}; truth ${e.truth}`,
      );
    }
    const result: ResultJson = {
      version: 1,
      equations: fitted.equations,
      search: { method: "form", episodes: 0, structures: fitted.equations.length, stopReason: "form-given" },
      evaluation,
      manifest: {
        seed,
        config: { experiment: name, rows, snrDb: snrDb ?? null, ...settings },
        version: VERSION,
        git: gitSha(),
        backend: settings.engine === "js" ? "js" : tf.getBackend(),
      },
    };
    emit(result, flags, (performance.now() - started) / 1000, log);
  });

  program
    .command("plugins")
    .description("list the registered plugins")
    .action(() => {
      for (const s of createSymbolRegistry().values()) {
        process.stdout.write(`symbol  ${s.name.padEnd(6)} complexity ${s.complexity}${s.innerWeight ? ", inner weight" : ""}${s.description ? ` — ${s.description}` : ""}\n`);
      }
    });
}
