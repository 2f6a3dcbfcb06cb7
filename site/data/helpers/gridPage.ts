/**
 * What site/data/grid.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/grid.md: the power flow of a grid of our own making, data/grids/ring5.json (a
 * 5-bus ring with a chord, not the PJM case), through the pipeline `npx consolesr run powerflow --grid
 * data/grids/ring5.json --symbols x,x^2 --seed 0` runs: the same config, data draw and search (a few
 * seconds with the pool {x, x²}). It uses the library's public entry only, as a user's report would.
 * Reproduce: `npx tsx site/data/grid.json.ts > grid.json`.
 */
import { readFileSync } from "node:fs";
import {
  createRegistries,
  parseGrid,
  powerFlowExperiment,
  prepareRun,
  registerExperiment,
  resultEquation,
  resultToJson,
  runPrepared,
} from "../../../src/lib/index.js";
import { gitSha } from "../../../src/cli/git.js";
import { round } from "./committedRun.js";

export const GRID_FILE = "data/grids/ring5.json";

export async function gridPage(): Promise<string> {
  const started = performance.now();
  const grid = parseGrid(readFileSync(GRID_FILE, "utf8"), GRID_FILE);
  const experiment = registerExperiment(powerFlowExperiment(grid));
  const registries = createRegistries();
  const SEED = 0;
  const prepared = prepareRun({ experiment: experiment.name, seed: SEED, symbols: ["x", "x^2"] }, { registries });
  const { result } = await runPrepared(prepared, { git: gitSha(), backend: "js" });
  // The grid read back from the learned laws (learnedTopology's summary, as `run` prints it).
  const topology = experiment.report?.(result.equations.map(resultEquation)) ?? [];
  return JSON.stringify({
    file: GRID_FILE,
    name: grid.name,
    description: grid.description ?? "",
    baseMVA: grid.baseMVA,
    loads: grid.loads,
    buses: grid.buses.map((b) => ({ id: b.id, type: b.type, pd: b.pd, qd: b.qd, vm: b.vm, pg: b.pg, bs: b.bs })),
    lines: grid.lines.map((l) => ({ from: l.from, to: l.to, r: l.r, x: l.x, b: l.b })),
    command: `npx consolesr run powerflow --grid ${GRID_FILE} --symbols x,x^2 --seed ${SEED}`,
    trainRows: prepared.data.train.rows,
    testRows: prepared.data.test?.rows ?? 0,
    resultText: resultToJson(result),
    outputs: (result.evaluation ?? []).map((e) => {
      const equation = result.equations.find((q) => q.target === e.target)!;
      return {
        target: e.target,
        latex: equation.latex,
        text: equation.text,
        truth: e.truth,
        exact: e.exact,
        coefficientError: e.coefficientError === null ? null : round(e.coefficientError, 4),
        testNrmse: round(e.testNrmse, 4),
      };
    }),
    topology,
    seconds: round((performance.now() - started) / 1000, 1),
  });
}
