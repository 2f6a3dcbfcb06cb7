/**
 * What site/data/syn2.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/syn2.md (paper §5.1, syn2). syn2's search takes minutes, too long for a
 * build, so this loader reads a committed result of
 *   npx consolesr run syn2 --seed 0 --timings --out data/results/syn2-seed0.json
 * validates it (src/lib/result/reproduce.ts parseResult), regenerates the run's data from its manifest
 * (src/lib/run/manifest.ts configFromManifest, run/pipeline.ts pipelineData: the same train and U(3,4) test draw) and
 * recomputes the evaluation against the truth with the library (src/lib/run/evaluate.ts, the function
 * runPipeline calls). It also scores the equations the paper prints for CoNSoLe on syn2 with the
 * same metric. Prints one JSON on stdout in experimentPage.ts's shape (syn1.json's, without the
 * per-episode rewards, which a result JSON does not hold).
 * Reproduce: `npx tsx site/data/syn2.json.ts > syn2.json` (seconds: no search runs here).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  columnOf,
  configFromManifest,
  createRegistries,
  evaluateEquation,
  evaluateExperiment,
  experiments,
  isExperimentConfig,
  nrmse,
  parseResult,
  resultEquation,
  parseWrittenEquations,
  pipelineData,
  simplifyEquation,
} from "../../../src/lib/index.js";
import { experimentPageJson, simplifyOptionsOf, truthLatexOf } from "./experimentPage.js";

export async function syn2Page(): Promise<string> {
  const started = performance.now();

  /** The committed run, relative to the repository root (resolved from this file, so any cwd works). */
  const RESULT_FILE = "data/results/syn2-seed0.json";
  const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
  // CONSOLESR_SYN2_RESULT (a path, absolute or from the repository root) reads another result file
  // instead: test/unit/syn2-page.test.ts uses it to check that the evaluation is recomputed, not copied.
  const file = process.env.CONSOLESR_SYN2_RESULT || RESULT_FILE;
  const resultText = readFileSync(resolve(repoRoot, file), "utf8");
  const result = parseResult(resultText, file);

  const config = configFromManifest(result, file);
  if (!isExperimentConfig(config) || config.experiment !== "syn2") throw new Error(`${file}: not a syn2 run`);
  const experiment = experiments.syn2!;
  const registries = createRegistries();
  const symbols = registries.symbols;
  const lookup = (name: string) => symbols.get(name);

  // The run's data, regenerated from the manifest (seed, rows, snr): the draw the CLI made.
  const data = pipelineData(config, { registries });
  if (!data.test) throw new Error(`${file}: the regenerated data has no test set`);
  const sets = { train: data.train, test: data.test };

  // The result's equations are already simplified (they are what the search printed); the terms
  // are float64 numbers written by JSON.stringify, so they read back bit for bit.
  const learned = result.equations.map(resultEquation);
  const evaluation = evaluateExperiment(experiment, learned, sets, symbols);

  // Checks that the data are the run's: the train NRMSE recomputed on the regenerated train set
  // equals the recorded one, and the recomputed evaluation equals the file's evaluation block.
  const trainCheck = result.equations.map((e, k) => {
    const recomputed = nrmse(
      columnOf(data.train, e.target),
      evaluateEquation(learned[k]!, lookup, (name) => columnOf(data.train, name), data.train.rows),
    );
    return { target: e.target, recorded: e.trainNrmse, recomputed, identical: recomputed === e.trainNrmse };
  });
  const recorded = result.evaluation ?? [];
  const evaluationCheck = evaluation.map((e) => {
    const r = recorded.find((q) => q.target === e.target);
    return {
      target: e.target,
      inFile: r !== undefined,
      identical:
        r !== undefined &&
        r.exact === e.exact &&
        r.coefficientError === e.coefficientError &&
        r.testNrmse === e.testNrmse &&
        r.reason === e.reason,
    };
  });

  // The paper's CoNSoLe equations for syn2 (learned-equations table, §5.1), as printed (rounded
  // coefficients; y2 expanded: sin(1.8x1)(log(2.999x2) + 0.999 sqrt(x3)) is a sum of two products),
  // scored with the same metric on the same test draw.
  const PAPER_TEXT = [
    "y1 = 1.48*sqrt(x1)*x2 + 1.00*x1*x2^2",
    "y2 = sin(1.8*x1)*log(2.999*x2) + 0.999*sin(1.8*x1)*sqrt(x3)",
    "y3 = 1.933*sqrt(x3)*log(1.598*x1) + 1.002*x1^2",
  ];
  const PAPER_LATEX: Record<string, string> = {
    y1: String.raw`1.48\sqrt{x_1}\,x_2 + 1.00\,x_1 x_2^2`,
    y2: String.raw`\sin(1.8x_1)\big(\log(2.999x_2) + 0.999\sqrt{x_3}\big)`,
    y3: String.raw`1.933\sqrt{x_3}\log(1.598x_1) + 1.002\,x_1^2`,
  };
  const simplifyOptions = simplifyOptionsOf(data, symbols);
  const paperEquations = parseWrittenEquations(PAPER_TEXT.join("; "), {
    symbols: symbols.values(),
    inputs: data.train.inputs,
    targets: data.train.targets,
  }).map((e) => simplifyEquation(e, simplifyOptions));
  const paperEvaluation = evaluateExperiment(experiment, paperEquations, sets, symbols);

  const seconds = result.search.seconds;
  const page = experimentPageJson({
    experiment,
    result,
    evaluation,
    truthLatex: truthLatexOf(experiment, data, symbols),
    searchMs: seconds === undefined ? Number.NaN : seconds * 1000,
    totalMs: performance.now() - started,
    // Per output: episodes, structures fitted and why it stopped (a result JSON has no per-episode rewards).
    outputs: (result.search.targets ?? []).map((t) => ({
      target: t.target,
      episodes: t.episodes,
      structures: t.structures,
      stopReason: t.stopReason,
    })),
  });
  return JSON.stringify({
    ...page,
    source: {
      file,
      seconds: seconds ?? null,
      method: result.search.method,
      command: `npx consolesr run syn2 --seed ${result.manifest.seed} --out syn2.json`,
      reproduce: `npx consolesr reproduce ${file}`,
    },
    checks: { train: trainCheck, evaluation: evaluationCheck },
    // The committed file's bytes: the page's download and the "published" side of its re-run form.
    resultText,
    paper: paperEvaluation.map((e) => ({
      ...e,
      text: PAPER_TEXT.find((t) => t.startsWith(`${e.target} =`)),
      latex: PAPER_LATEX[e.target],
    })),
  });
}
