// What the Ablation and Sensitivity loaders share (not a data loader itself: no page asks for
// it): a committed sweep's grid, read from its spec (sweeps/<name>.json) and its output folder
// (data/sweeps/<name>/, one version-1 result per job). Every cell of the spec's grid is listed;
// a cell whose result is not there yet is `missing` (the page shows it as missing, never as a
// number). A result is read with the library's parseResult; its job is named by the sweep's
// file-name scheme `<experiment>-<method>-<variant>-s<seed>-snr<snr|none>-r<rows|default>`.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expandSweepSpec, isInputError, parseResult, parseSweepSpec, type SweepSpec } from "../../../src/lib/index.js";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface SweepCell {
  job: string;
  experiment: string;
  method: string;
  variant: string;
  seed: number;
  snr: number | null;
  rows: number | null;
  /** false: not run yet. */
  present: boolean;
  /** Mean E_c (%) over the experiment's targets; a target's E_c is 100 % when a true term is missing. */
  ec: number | null;
  /** Every target recovered exactly (same terms, every coefficient within 1 %). */
  exact: boolean | null;
  /** Targets recovered exactly, of all targets. */
  exactTargets: number | null;
  targets: number | null;
  /** The worst target's test NRMSE. */
  testNrmse: number | null;
  /** The job's wall-clock seconds as the sweep's summary.json recorded them (null where it has none). */
  seconds: number | null;
  episodes: number | null;
  stopReasons: string[];
  equations: { target: string; text: string; latex: string }[];
  /** Per output: exact, E_c (%) and test NRMSE, as the result's evaluation block has them. */
  outputs: { target: string; exact: boolean; ec: number | null; testNrmse: number | null }[];
  /** Model methods (EQL, DSR, VPG): each output's expression as learned, before any expansion. */
  expressions: { target: string; text: string; latex: string; expanded: boolean }[];
  /** The manifest's commit and version. */
  git: string | null;
  /** The result file's text (for the page's download and its live re-run's comparison), null when missing. */
  text: string | null;
}

const finite = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * The spec, the command that (re-)runs it, and every cell of its grid with its result where there
 * is one. `root`: the repository root (the tests point it at a folder of their own).
 */
export function sweepGrid(name: string, root = repoRoot) {
  const specFile = `sweeps/${name}.json`;
  const outDir = `data/sweeps/${name}`;
  // The CLI's own grammar: the same checks, the same jobs in the same order, the same names.
  let spec: SweepSpec;
  try {
    spec = parseSweepSpec(JSON.parse(readFileSync(resolve(root, specFile), "utf8")), specFile);
  } catch (error) {
    throw isInputError(error) ? new Error(error.message) : error;
  }
  // Seconds are timings, kept outside the byte-identical result: the summary has them.
  const summaryFile = resolve(root, outDir, "summary.json");
  const seconds = new Map<string, number>();
  if (existsSync(summaryFile)) {
    const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as { jobs?: { job: string; seconds: unknown }[] };
    for (const row of summary.jobs ?? []) if (typeof row.seconds === "number") seconds.set(row.job, row.seconds);
  }
  const cells: SweepCell[] = [];
  for (const sweepJob of expandSweepSpec(spec, specFile)) {
    const job = sweepJob.name;
    const file = resolve(root, outDir, `${job}.json`);
    const cell: SweepCell = {
      job,
      experiment: sweepJob.source,
      method: sweepJob.method,
      variant: sweepJob.variant,
      seed: sweepJob.seed,
      snr: sweepJob.snrDb,
      rows: sweepJob.rows,
      present: false,
      ec: null,
      exact: null,
      exactTargets: null,
      targets: null,
      testNrmse: null,
      seconds: null,
      episodes: null,
      stopReasons: [],
      equations: [],
      outputs: [],
      expressions: [],
      git: null,
      text: null,
    };
    if (existsSync(file)) {
      let result: ReturnType<typeof parseResult>;
      const text = readFileSync(file, "utf8");
      cell.text = text;
      try {
        result = parseResult(text, `${outDir}/${job}.json`);
      } catch (error) {
        throw isInputError(error) ? new Error(error.message) : error;
      }
      const evaluation = result.evaluation ?? [];
      const search = result.search as unknown as Record<string, unknown>;
      const perTarget = (search.targets as Record<string, unknown>[] | undefined) ?? [];
      cell.present = true;
      cell.targets = evaluation.length;
      cell.exactTargets = evaluation.filter((e) => e.exact).length;
      cell.exact = evaluation.length > 0 && evaluation.every((e) => e.exact);
      const ecs = evaluation.map((e) => finite(e.coefficientError)).filter((v) => v !== null);
      cell.ec = ecs.length === evaluation.length && ecs.length > 0 ? ecs.reduce((a, b) => a + b, 0) / ecs.length : null;
      const tests = evaluation.map((e) => finite(e.testNrmse)).filter((v) => v !== null);
      cell.testNrmse = tests.length ? Math.max(...tests) : null;
      cell.seconds = seconds.get(job) ?? null;
      cell.episodes = finite(search.episodes);
      cell.stopReasons = [
        ...new Set(
          perTarget
            .map((t) => String(t.stopReason ?? ""))
            .filter(Boolean)
            .concat(typeof search.stopReason === "string" ? [search.stopReason] : []),
        ),
      ];
      cell.equations = result.equations.map((e) => ({ target: e.target, text: e.text, latex: e.latex }));
      cell.outputs = evaluation.map((e) => ({
        target: e.target,
        exact: e.exact,
        ec: finite(e.coefficientError),
        testNrmse: finite(e.testNrmse),
      }));
      cell.expressions = (result.models ?? []).flatMap((m) =>
        m.expression
          ? [
              {
                target: m.target,
                text: m.expression.text,
                latex: m.expression.latex,
                expanded: m.expression.expanded,
              },
            ]
          : [],
      );
      const manifest = result.manifest as unknown as Record<string, unknown>;
      cell.git = typeof manifest.git === "string" ? manifest.git : null;
    }
    cells.push(cell);
  }
  return {
    name,
    spec,
    specFile,
    outDir,
    command: `npx consolesr sweep ${specFile} --out ${outDir}`,
    // The grammar's defaults are applied: every variant has its settings.
    variants: spec.variants.map((v) => ({ name: v.name, settings: v.settings })),
    cells,
    done: cells.filter((c) => c.present).length,
    total: cells.length,
  };
}

/** Summary of a group of cells: how many ran, exact recoveries, mean and spread of E_c, median seconds. */
export function summarise(cells: readonly SweepCell[]) {
  const ran = cells.filter((c) => c.present);
  const ecs = ran.map((c) => c.ec).filter((v): v is number => v !== null);
  const secs = ran
    .map((c) => c.seconds)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const mean = ecs.length ? ecs.reduce((a, b) => a + b, 0) / ecs.length : null;
  return {
    planned: cells.length,
    ran: ran.length,
    /** Runs where some output used its whole budget (episode or structure limit) without meeting the stop rule. */
    outOfBudget: ran.filter((c) => c.stopReasons.some((r) => r === "episodes" || r === "budget")).length,
    exact: ran.filter((c) => c.exact).length,
    ecMean: mean,
    ecMin: ecs.length ? Math.min(...ecs) : null,
    ecMax: ecs.length ? Math.max(...ecs) : null,
    secondsMedian: secs.length ? secs[Math.floor((secs.length - 1) / 2)]! : null,
  };
}
