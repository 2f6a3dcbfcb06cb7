/**
 * `node --import tsx bench/powOracle.ts [SNR]`: which Pow outputs (pool {x, x^2}) noise at SNR dB
 * (default 60) leaves identifiable. The noise benchmark's oracle (bench/searchSuite.ts) for the
 * power flow: each output's reduced truth, fitted with its form, against the same form with one
 * term dropped or one term added, by the answer rule's score (hallOfFame.ts, leave-one-out NRMSE),
 * and against every structure of the same size one swap away: one term replaced by another product of at most two pool
 * factors over the truth's own inputs. Identifiable when every drop, addition and swap scores worse; a
 * swap that scores better means another structure with as many parameters explains the data as
 * well, and no selection rule can prefer the truth. The truth is used for this judgement only; no
 * search runs.
 */
import { prepareRun } from "../src/lib/run/index.js";
import { createRegistries } from "../src/lib/plugins/builtin.js";
import { columnOf } from "../src/lib/data/dataset.js";
import { fitForm } from "../src/lib/run/fitForm.js";
import { formOf } from "../src/lib/local/extract.js";
import { equationLeaveOneOut } from "../src/lib/metrics/leaveOneOut.js";
import { frontScoreOf, parametersOf } from "../src/lib/search/hallOfFame.js";
import { simplifyEquation } from "../src/lib/equation/simplify.js";
import { experiments } from "../src/lib/data/experiments.js";
import type { Equation, Term } from "../src/lib/equation/types.js";
const registries = createRegistries();
const snr = Number(process.argv[2] ?? 60);
const pool = ["x", "x^2"];
const { train } = prepareRun({ experiment: "pow", snrDb: snr, symbols: pool }, { registries }).data;
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
let nested = 0;
for (const raw of exp.truth) {
  const truth = simplifyEquation(raw, order);
  const fitScore = (form: Equation) => {
    const fitted = fitForm(train, [formOf(form)], { symbols: registries.symbols, engine: "js", polish: "lsq" })
      .simplified[0]!;
    return frontScoreOf(equationLeaveOneOut(fitted, lookup, columns, train.rows), parametersOf(form), train.rows);
  };
  const own = fitScore(truth);
  const worse = truth.terms.map((_, j) => fitScore({ ...truth, terms: truth.terms.filter((_, k) => k !== j) }) - own);
  const key = (t: Term) =>
    t.factors
      .map((f) => `${f.symbol}(${f.input})`)
      .sort()
      .join("*");
  const held = new Set(truth.terms.map(key));
  const inputs = [...new Set(truth.terms.flatMap((t) => t.factors.map((f) => f.input)))];
  const products: Term[] = [];
  for (const [i, a] of inputs.entries()) {
    for (const sa of pool) {
      products.push({ coefficient: 1, factors: [{ symbol: sa, input: a }] });
      for (const b of inputs.slice(i + 1))
        for (const sb of pool)
          products.push({
            coefficient: 1,
            factors: [
              { symbol: sa, input: a },
              { symbol: sb, input: b },
            ],
          });
    }
  }
  let swap = { delta: Infinity, label: "" };
  for (const [j, out] of truth.terms.entries()) {
    if (!out.factors.length) continue;
    for (const inTerm of products) {
      if (held.has(key(inTerm))) continue;
      const delta = fitScore({ ...truth, terms: truth.terms.map((t, k) => (k === j ? inTerm : t)) }) - own;
      if (delta < swap.delta) swap = { delta, label: `${key(out)} -> ${key(inTerm)}` };
    }
  }
  let add = { delta: Infinity, label: "" };
  for (const inTerm of products) {
    if (held.has(key(inTerm))) continue;
    const delta = fitScore({ ...truth, terms: [...truth.terms, inTerm] }) - own;
    if (delta < add.delta) add = { delta, label: key(inTerm) };
  }
  const drops = worse.every((d) => d > 0);
  const wins = drops && add.delta > 0 && swap.delta > 0;
  ok += wins ? 1 : 0;
  nested += drops && add.delta > 0 ? 1 : 0;
  console.log(
    truth.target,
    wins ? "identifiable" : "NOT",
    `(${truth.terms.length} terms) min Δscore dropping a term: ${Math.min(...worse).toFixed(1)};`,
    `best added term: ${add.delta.toFixed(1)} (${add.label}); best swap: ${swap.delta.toFixed(1)} (${swap.label})`,
  );
}
console.log(
  `${nested}/10 win against their sub- and super-structures, ${ok}/10 also against every same-size swap, at ${snr} dB`,
);
