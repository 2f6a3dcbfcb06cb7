/**
 * Running one pipeline from the command line: the early stop signals, the progress bars, the
 * backend, and the flags as pipeline options.
 */
import { statSync } from "node:fs";
import { constants } from "node:os";
import { checkBackendName, Interrupted } from "../../lib/core/index.js";
import { equationText } from "../../lib/equation/index.js";
import {
  FORM_FIT,
  isFormConfig,
  isModelConfig,
  runPrepared,
  SEARCH_FIT,
  usesTfjs,
  type PipelineConfig,
  type PipelineOptions,
  type PipelineOutput,
  type PreparedRun,
  type RunHooks,
} from "../../lib/run/index.js";
import { isModelMethod, type EpisodeEvent } from "../../lib/search/index.js";
import type { ModelResult } from "../../lib/result/index.js";
import { fitSettings, searchOverrides, type FitFlags, type SearchFlags } from "./fitOptions.js";
import { stderrStream, type Reporter } from "../io.js";
import { searchProgress } from "./progress.js";

import { ambiguityWarning, fitProgress, timeLimitWarning, stopAdvice } from "./output.js";

export interface CommonFlags extends FitFlags, SearchFlags {
  seed: number;
  plugin?: string[];
  out?: string;
  quiet?: boolean;
  timings?: boolean;
}

/**
 * Set when Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed) stopped a search: the CLI
 * exits 128 + the signal's number (130, 143, 129) after printing the best so far.
 */
export const interrupted: { value: boolean; signal?: StopSignal; before?: string } = { value: false };

/** A file's size in MB (0 where it cannot be read: the read names the problem). */
export function fileMegabytes(file: string): number {
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
export function earlySignals(): { signal: AbortSignal; stopped: () => StopSignal | undefined; release: () => void } {
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

/** The fit and search flags as pipeline options (flag problems are reported here, naming the flag). */
export function flagOptions(
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

/** What the CLI gives a run besides its progress: the manifest's git commit and the tfjs backend. */
type CliHooks = Pick<RunHooks, "git" | "backend">;

/**
 * Runs a prepared run (prepareRun) with the CLI's progress on stderr (a search's is a
 * bar per target on a terminal and plain lines elsewhere, progress.ts; the bar is cleared before
 * anything else is printed). A search can be stopped with Ctrl-C or SIGTERM (the best so far is
 * kept, and written by --out; the CLI exits 130 or 143). A second signal gets the default action
 * (the process ends at once).
 */
export async function runWithProgress(
  prepared: PreparedRun,
  hooks: CliHooks,
  log: Reporter,
  quiet: boolean,
): Promise<PipelineOutput> {
  if (isFormConfig(prepared.config)) return runFormWithSignals(prepared, hooks, log);
  if (isModelConfig(prepared.config)) return runModelsWithSignals(prepared, hooks, log);
  const symbols = prepared.registries.symbols;
  const progress = searchProgress<EpisodeEvent>({
    stream: stderrStream(),
    log,
    quiet,
    episodes: prepared.plugins.settings!.episodes,
    equation: ({ best }) =>
      best.equation.terms.length || best.equation.expression !== undefined
        ? equationText(best.equation, (n) => symbols.get(n))
        : "—",
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
    const output = await runPrepared(prepared, {
      ...hooks,
      signal: controller.signal,
      onEpisode: (e) => progress.episode(e),
      onPhase: (e) => progress.phase(e),
    });
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
    // Exact relations among the inputs' monomials, once for the targets that share them.
    const identities = new Map<string, string[]>();
    for (const o of output.search!.outputs)
      if (o.identities)
        identities.set(o.identities.join("; "), [...(identities.get(o.identities.join("; ")) ?? []), o.target]);
    for (const [text, targets] of identities)
      log.info(
        `note: on these rows the inputs satisfy ${text} exactly, so laws of ${targets.join(", ")} have ` +
          "several writings; the sparsest is given",
      );
    // Laws the pool cannot write: which monomials, and the power symbol that would write them.
    for (const o of output.search!.outputs)
      if (o.unwritable) {
        const power = Math.max(...o.unwritable.flatMap((m) => m.split("*").map((f) => Number(f.split("^")[1] ?? 1))));
        log.warn(
          `warning: ${o.target} is an exact polynomial holding ${o.unwritable.join(", ")}, which the pool ` +
            `cannot write (a product uses each input once): add x^${power} to --symbols`,
        );
      }
    // Answers under noise that a rival nearly matches: one line each, pointing at the front.
    for (const a of output.search!.ambiguous) log.warn(ambiguityWarning(a));
    if (output.search!.stopReason === "time-limit") log.warn(timeLimitWarning(output.search!.outputs, settings));
    return output;
  } finally {
    void progress.stop();
    stop();
  }
}

/**
 * The tfjs backend a run records: for a run that uses tfjs (usesTfjs), the flag's backend, loaded
 * and initialised here (tfjs is loaded on first use); for one that does not (a search fitted on
 * the float64 engine), the flag's name, checked, and tfjs is never loaded.
 */
export async function backendFor(config: PipelineConfig, name: string): Promise<string> {
  if (!usesTfjs(config)) {
    checkBackendName(name);
    return name;
  }
  const { useBackend } = await import("../../lib/engine/index.js");
  return useBackend(name);
}

/** What fits a run's equations, for its first log line. */
export const engineText = (config: PipelineConfig, backend: string) =>
  usesTfjs(config) ? `tfjs ${backend}` : "float64 engine";

/** A model method's log line after each output's model is trained. */
function modelLine(log: Reporter) {
  return (m: ModelResult) => {
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
  };
}

/**
 * Until the returned release: a stop signal ends the command at once with one line,
 * `interrupted: <what>` (`stopped by SIGTERM: …`), and 128 + the signal (a command with nothing to
 * keep, such as a reproduction: it ended with nothing after the last progress line).
 */
export function stopWithLine(what: string): () => void {
  const release = () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  const onSignal = (signal: StopSignal) => {
    release();
    const how = signal === "SIGINT" ? "interrupted" : `stopped by ${signal}`;
    process.stderr.write(`${how}: ${what}\n`, () => process.exit(128 + constants.signals[signal]));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return release;
}

/**
 * A given form's fit with the stop signals: Ctrl-C, SIGTERM or SIGHUP stops the fit within about
 * 50 ms (it runs on the event loop) and the run rejects with Interrupted, `interrupted` set (a form
 * has no best so far: nothing is printed or written; the caller says so). A second signal gets the
 * default action. It ended the process with nothing after the last progress line.
 */
async function runFormWithSignals(prepared: PreparedRun, hooks: CliHooks, log: Reporter): Promise<PipelineOutput> {
  const controller = new AbortController();
  const release = () => {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  };
  const onSignal = (signal: StopSignal) => {
    release();
    interrupted.value = true;
    interrupted.signal = signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const output = await runPrepared(prepared, { ...hooks, onFit: fitProgress(log), formSignal: controller.signal });
    // A signal queued during the last synchronous stretch still counts: the run ends as stopped.
    await new Promise((resolve) => setImmediate(resolve));
    if (controller.signal.aborted) throw new Interrupted("aborted");
    return output;
  } finally {
    release();
  }
}

/**
 * A model method (MLP, EQL, DSR, VPG) with the stop signals of a search: Ctrl-C or SIGTERM ends its
 * training at the next epoch or expression, keeping its best so far (its outputs not yet trained
 * get no model), and the CLI exits 130 or 143 after printing and writing it.
 */
async function runModelsWithSignals(prepared: PreparedRun, hooks: CliHooks, log: Reporter): Promise<PipelineOutput> {
  const controller = new AbortController();
  const onSignal = (signal: StopSignal) => {
    for (const s of STOP_SIGNALS) process.removeListener(s, onSignal);
    interrupted.value = true;
    interrupted.signal = signal;
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const method = (prepared.config as { method?: string }).method ?? "the model";
  log.info(`training ${method}: ${prepared.data.train.targets.join(", ")} (Ctrl-C stops it and keeps the best so far)`);
  try {
    const output = await runPrepared(prepared, { ...hooks, signal: controller.signal, onModel: modelLine(log) });
    await new Promise((resolve) => setImmediate(resolve));
    return output;
  } finally {
    for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
}
