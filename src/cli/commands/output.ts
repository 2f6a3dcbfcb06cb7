/**
 * What `fit` and `run` print: the equations or models, the front, the progress of fits, and the
 * warnings of a search that stopped early.
 */
import { availableParallelism } from "node:os";
import { formatNumber } from "../../lib/equation/index.js";
import type { PipelineInput } from "../../lib/run/index.js";
import { resultEquation, resultToJson, type ModelResult, type ResultJson } from "../../lib/result/index.js";
import { runtimeFacts } from "../../lib/core/index.js";
import {
  parametersOf,
  type OutputSearchResult,
  type SearchResult,
  type SearchSettings,
} from "../../lib/search/index.js";
import { escapedLine, InputError } from "../../lib/core/index.js";
import { standardStream, writeText, writtenInPlace, type Reporter } from "../io.js";

import type { CommonFlags } from "./running.js";

export type FitProgress = NonNullable<PipelineInput["onFit"]>;

export function fitProgress(log: Reporter): FitProgress {
  return ({ target, done, total, fit }) => {
    log.info(
      `[${done}/${total}] ${target}: train NRMSE ${fit.trainNrmse[0]!.toExponential(2)} after ${fit.steps} Adam steps` +
        ` + ${fit.polishIterations} LM iterations (${(fit.ms / 1000).toFixed(2)} s, ${fit.engine})`,
    );
  };
}

/** One line per trained model (a model method): what it is and how well it fits. */
export function modelLine(m: ModelResult): string {
  const test = m.testNrmse === undefined ? "" : `, test NRMSE ${m.testNrmse.toExponential(2)}`;
  return (
    `${m.target} = ${m.model}(${m.inputs.join(", ")})  [${m.layers.join("-")} ${m.activation}, ${m.parameters} ` +
    `parameters; train NRMSE ${m.trainNrmse.toExponential(2)}${test}]`
  );
}

export function emit(result: ResultJson, flags: CommonFlags, seconds: number, log: Reporter): void {
  if (flags.timings) {
    result.search.seconds = Number(seconds.toFixed(3));
    result.manifest.runtime = runtimeFacts(availableParallelism());
  }
  // With the JSON on stdout (`--out /dev/stdout`), what a person reads goes to stderr: stdout stays
  // one JSON document for a pipe (`| jq`).
  const print = flags.out && standardStream(flags.out) === 1 ? process.stderr : process.stdout;
  const show = () => {
    for (const e of result.equations) print.write(`${e.target} = ${e.text}\n`);
    if (flags.front) print.write(frontTable(result));
    for (const m of result.models ?? []) {
      // EQL's expression where it did not expand into an equation (its equations are printed above).
      if (m.expression && !m.expression.expanded) print.write(`${m.target} = ${m.expression.text}\n`);
      print.write(`${modelLine(m)}\n`);
    }
  };
  // The file first: after SIGHUP (the terminal closed) printing may fail, the result must not be
  // lost. But a FIFO's open waits for its reader: there the answer is printed before. A write that
  // fails (a full disk) must not lose the answer either: the equations are printed all the same,
  // then the error ends the run (exit 2).
  const first = flags.out !== undefined && writtenInPlace(flags.out);
  if (first) show();
  let unwritten: InputError | undefined;
  if (flags.out) {
    try {
      writeText(flags.out, resultToJson(result));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      unwritten = error;
    }
  }
  if (!first) show();
  if (unwritten) throw new InputError(`${unwritten.message}; the result above was not saved`);
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

/**
 * The line for an answer under noise that a rival nearly matches (SearchResult.ambiguous; stderr,
 * even with --quiet): which rival, how close, and where to look.
 */
export function ambiguityWarning(a: SearchResult["ambiguous"][number]): string {
  const gap = formatNumber(a.gap, 3);
  const how = a.gap < 0 ? `scores ${formatNumber(-a.gap, 3)} lower but is more complex` : `scores only ${gap} higher`;
  return (
    `warning: ${a.target}: the noise leaves the answer not clearly better than ${escapedLine(a.rival, 80)}, ` +
    `which ${how} (a gap under 6 is less than strong evidence); look at the front (--front) before trusting either`
  );
}

/** The one line a time-limited search prints (stderr, even with --quiet). */
export function timeLimitWarning(outputs: readonly OutputSearchResult[], settings: SearchSettings): string {
  const stopped = outputs.filter((o) => o.stopReason === "time-limit");
  const unreached = stopped.filter((o) => o.episodes === 0).map((o) => o.target);
  return (
    `warning: the time limit (--time-limit ${settings.timeLimit}) stopped the search of ` +
    `${stopped.map((o) => o.target).join(", ")}; the best so far is printed` +
    (unreached.length ? ` (${unreached.join(", ")}: a linear fit over the inputs, before any search)` : "")
  );
}

/** What to raise when a search ended without meeting its stop rule (stderr, even with --quiet). */
export function stopAdvice(o: OutputSearchResult, settings: SearchSettings): string {
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

/**
 * One line per answer with at least as many fitted parameters as training rows (more input
 * columns than rows, or a long form on few rows): any data fit it, and its train NRMSE says
 * nothing. It was given with no word.
 */
export function underdeterminedWarnings(result: ResultJson, rows: number): string[] {
  return result.equations.flatMap((e) => {
    const equation = resultEquation(e);
    const denominator = equation.denominator ? parametersOf({ ...equation, terms: equation.denominator }) : 0;
    const parameters = parametersOf(equation) + denominator;
    if (parameters < rows) return [];
    return [
      `warning: ${e.target}: the answer has ${parameters} parameters for ${rows} rows: it is underdetermined ` +
        "(any data fit it); give more rows",
    ];
  });
}
