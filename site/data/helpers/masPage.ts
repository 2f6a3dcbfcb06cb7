/**
 * What site/data/mas.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/mas.md (paper §5.1 (3), Mas: a 10-node mass-damper network).
 * Reads the committed result
 *   npx consolesr run mas --seed 0 --timings --out data/results/mas-seed0.json
 * validates it, regenerates its data from the manifest (the same seeded trajectories), recomputes
 * the evaluation against the truth and reads the matrix −D R Dᵀ M⁻¹ back from the learned
 * equations (learnedMatrix). It uses the library's public entry only, as a user's report would.
 * Reproduce: `npx tsx site/data/mas.json.ts > mas.json` (about a second: no search runs here).
 */
import {
  learnedMatrix,
  MAS_DAMPING_RANGE,
  MAS_DT,
  MAS_MASS_RANGE,
  MAS_NETWORK,
  MAS_NETWORK_SEED,
} from "../../../src/lib/inspect.js";
import { committedRun, round } from "./committedRun.js";

export async function masPage(): Promise<string> {
  const started = performance.now();
  const file = "data/results/mas-seed0.json";
  const { result, text, data, learned, evaluation, evaluationReproduced, truthLatex } = committedRun("mas", file);
  if (!data.test) throw new Error(`${file}: the regenerated data has no test set`);
  const matrix = learnedMatrix(learned);
  const outputs = result.search.targets ?? [];
  return JSON.stringify({
    file,
    seed: result.manifest.seed,
    seconds: result.search.seconds ?? null,
    episodes: result.search.episodes,
    structures: result.search.structures,
    trainRows: data.train.rows,
    testRows: data.test.rows,
    dt: MAS_DT,
    networkSeed: MAS_NETWORK_SEED,
    massRange: MAS_MASS_RANGE,
    dampingRange: MAS_DAMPING_RANGE,
    masses: Array.from(MAS_NETWORK.masses, (m) => round(m, 4)),
    dampers: MAS_NETWORK.dampers.map((d) => ({ from: d.from, to: d.to, r: round(d.r, 4) })),
    evaluationReproduced,
    command: `npx consolesr run mas --seed ${result.manifest.seed} --timings --out ${file}`,
    reproduce: `npx consolesr reproduce ${file}`,
    outputs: evaluation.map((e) => {
      const equation = result.equations.find((q) => q.target === e.target)!;
      const search = outputs.find((o) => o.target === e.target);
      return {
        target: e.target,
        latex: equation.latex,
        truthLatex: truthLatex[e.target] ?? e.truth,
        exact: e.exact,
        reason: e.reason,
        coefficientError: round(e.coefficientError, 4),
        testNrmse: round(e.testNrmse, 4),
        terms: equation.terms.length + (equation.constant === undefined ? 0 : 1),
        episodes: search?.episodes ?? null,
      };
    }),
    matrix: {
      n: matrix.n,
      learned: Array.from(matrix.learned, (v) => round(v, 8)),
      truth: Array.from(matrix.truth, (v) => round(v, 8)),
      found: matrix.found,
      missed: matrix.missed.length,
      spurious: matrix.spurious.length,
      unexplained: matrix.unexplained.length,
      worstRelative: matrix.worstRelative,
    },
    // The committed file's bytes: the page's download and the "published" side of its re-run form.
    resultText: text,
    loaderMs: Math.round(performance.now() - started),
  });
}
