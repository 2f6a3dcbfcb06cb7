/**
 * What site/data/pow.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/pow.md (paper §5.1, Pow: the power-flow equations of a 5-bus grid).
 * Pow's search with the paper's pool {x} takes minutes, too long for a build, so this loader reads
 * two committed results,
 *   npx consolesr run pow --seed 0 --timings --out data/results/pow-x-seed0.json
 *   npx consolesr run pow --seed 0 --symbols x,x^2 --timings --out data/results/pow-x2-seed0.json
 * validates them, regenerates each run's data from its manifest (the same seeded power flows),
 * recomputes the evaluation against the reduced truth and reads the grid back from the learned
 * equations (learnedTopology). It uses the library's public entry only, as a user's report would.
 * Reproduce: `npx tsx site/data/pow.json.ts > pow.json` (seconds: no search runs here).
 */
import { CASE5, learnedTopology, POW_GRID } from "../../../src/lib/inspect.js";
import { committedRun, round } from "./committedRun.js";

export async function powPage(): Promise<string> {
  const started = performance.now();
  const RUNS = [
    { pool: "x", file: "data/results/pow-x-seed0.json" },
    { pool: "x,x^2", file: "data/results/pow-x2-seed0.json" },
  ];

  const runs = RUNS.map(({ pool, file }) => {
    const {
      result,
      text,
      data,
      learned,
      evaluation,
      evaluationReproduced: same,
      truthLatex,
    } = committedRun("pow", file);
    if (!data.test) throw new Error(`${file}: the regenerated data has no test set`);
    const topology = learnedTopology(POW_GRID, learned);
    const outputs = result.search.targets ?? [];
    return {
      pool,
      file,
      seed: result.manifest.seed,
      seconds: result.search.seconds ?? null,
      episodes: result.search.episodes,
      structures: result.search.structures,
      trainRows: data.train.rows,
      testRows: data.test.rows,
      evaluationReproduced: same,
      command:
        `npx consolesr run pow --seed ${result.manifest.seed}` +
        `${pool === "x" ? "" : ` --symbols ${pool}`} --timings --out ${file}`,
      reproduce: `npx consolesr reproduce ${file}`,
      outputs: evaluation.map((e) => {
        const equation = result.equations.find((q) => q.target === e.target)!;
        const search = outputs.find((o) => o.target === e.target);
        return {
          target: e.target,
          latex: equation.latex,
          text: equation.text,
          terms: equation.terms.length + (equation.constant === undefined ? 0 : 1),
          truthLatex: truthLatex[e.target] ?? e.truth,
          exact: e.exact,
          reason: e.reason,
          coefficientError: round(e.coefficientError, 4),
          testNrmse: round(e.testNrmse, 4),
          trainNrmse: round(equation.trainNrmse, 4),
          episodes: search?.episodes ?? null,
          stopReason: search?.stopReason ?? null,
        };
      }),
      lines: topology.lines.map((l) => ({
        from: l.from,
        to: l.to,
        exists: l.exists,
        learned: l.learned,
        g: round(l.g),
        b: round(l.b),
        gTrue: round(l.gTrue),
        bTrue: round(l.bTrue),
        gError: l.exists && l.learned ? round(Math.abs(l.g - l.gTrue) / Math.abs(l.gTrue), 3) : null,
        bError: l.exists && l.learned ? round(Math.abs(l.b - l.bTrue) / Math.abs(l.bTrue), 3) : null,
      })),
      unexplained: topology.unexplained.length,
      // The committed file's bytes: the page's download and the "published" side of its re-run form.
      resultText: text,
    };
  });
  return JSON.stringify({
    buses: CASE5.buses.map((bus) => ({ id: bus.id, type: bus.type })),
    branches: CASE5.branches.map((br) => ({ from: br.from, to: br.to })),
    baseMVA: CASE5.baseMVA,
    runs,
    loaderMs: Math.round(performance.now() - started),
  });
}
