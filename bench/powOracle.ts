/**
 * `node --import tsx bench/powOracle.ts [SNR]`: which Pow outputs (pool {x, x^2}) noise at SNR dB
 * (default 60) leaves identifiable. The noise benchmark's oracle (bench/searchSuite.ts) for the
 * power flow: each output's reduced truth, fitted with its form, against the same form with one
 * term dropped, by the answer rule's score (hallOfFame.ts, leave-one-out NRMSE); identifiable when
 * every drop scores worse. The truth is used for this judgement only; no search runs.
 */
import { pipelineData, resolvePipelineConfig } from "../src/lib/pipeline.js";
import { createRegistries } from "../src/plugins/index.js";
import { columnOf } from "../src/lib/data/dataset.js";
import { fitForm } from "../src/lib/fitForm.js";
import { formOf } from "../src/lib/equation/extract.js";
import { equationLeaveOneOut } from "../src/lib/metrics/leaveOneOut.js";
import { frontScoreOf, parametersOf } from "../src/lib/search/hallOfFame.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
import { experiments } from "../src/lib/data/experiments.js";
import type { Equation } from "../src/lib/equation/types.js";
const registries = createRegistries();
const snr = Number(process.argv[2] ?? 60);
const config = resolvePipelineConfig({ experiment: "pow", snrDb: snr, symbols: ["x", "x^2"] }, registries);
const { train } = pipelineData(config, { registries });
const lookup = (n: string) => registries.symbols.get(n);
const exp = experiments.pow!;
const order = {
  symbols: lookup,
  inputOrder: train.inputs,
  symbolOrder: registries.symbols.names(),
  columns: (n: string) => columnOf(train, n),
  rows: train.rows,
};
const columns = (n: string) => columnOf(train, n);
let ok = 0;
for (const raw of exp.truth) {
  const truth = simplifyEquation(raw, order);
  const fitScore = (form: Equation) => {
    const fitted = fitForm(train, [formOf(form)], { symbols: registries.symbols, engine: "js", polish: "lsq" })
      .simplified[0]!;
    return frontScoreOf(equationLeaveOneOut(fitted, lookup, columns, train.rows), parametersOf(form), train.rows);
  };
  const own = fitScore(truth);
  const worse = truth.terms.map((_, j) => fitScore({ ...truth, terms: truth.terms.filter((_, k) => k !== j) }) - own);
  const wins = worse.every((d) => d > 0);
  ok += wins ? 1 : 0;
  console.log(
    truth.target,
    wins ? "identifiable" : "NOT",
    "min Δscore dropping a term:",
    Math.min(...worse).toFixed(1),
    truth.terms.length,
    "terms",
  );
}
console.log(`${ok}/10 identifiable at ${snr} dB`);
