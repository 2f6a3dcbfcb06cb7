// Tables and charts of the Ablation and Sensitivity pages (data: src/docs/data/sweepGrid.ts).
// A cell not run yet is shown as missing, never as a number.
// Explicit imports only: the implicit globals would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";

/** One fixed colour per method, shared by every chart of these pages. */
export const METHOD_COLORS = { domain: ["paper", "consolesr"], range: ["#e15759", "#4e79a7"] };

/** E_c (%) for a table: "—" when absent, small values in exponent form. */
export const ecText = (v) =>
  v === null || v === undefined ? "—" : v === 0 ? "0" : v < 1e-3 ? v.toExponential(1) : v.toPrecision(3);

/** A group's cell: exact / ran, mean E_c with its range, median seconds, and what is missing. */
export function groupCell(g) {
  if (g.ran === 0) return html`<span style="color: #888;">missing (0 of ${g.planned} run)</span>`;
  const spread = g.ran > 1 ? html` <span style="color: #666;">[${ecText(g.ecMin)}–${ecText(g.ecMax)}]</span>` : "";
  const missing =
    g.ran < g.planned ? html`<br><span style="color: #888;">${g.planned - g.ran} of ${g.planned} missing</span>` : "";
  const seconds =
    g.secondsMedian === null ? "" : html`<br><span style="color: #666;">${g.secondsMedian.toFixed(1)} s median</span>`;
  const budget = g.outOfBudget
    ? html`<br><span style="color: #b35c00;">${g.outOfBudget} of ${g.ran} used the whole budget</span>`
    : "";
  return html`<b>${g.exact}/${g.ran}</b> exact · E_c ${ecText(g.ecMean)} %${spread}${seconds}${budget}${missing}`;
}

/**
 * E_c (%) of every run that has a result, one dot per seed, on a symlog axis (E_c = 0 is a
 * perfect recovery): x the case (or the swept value), facets per experiment, colour per method.
 */
export function ecDots(cells, { x, xLabel, width, domain }) {
  const ran = cells.filter((c) => c.present && c.ec !== null);
  if (ran.length === 0) return html`<p style="color: #888;"><i>No run of this grid has a result yet.</i></p>`;
  return Plot.plot({
    width: Math.max(320, Math.min(width, 900)),
    height: 300,
    marginBottom: 70,
    x: { label: xLabel, domain, tickRotate: domain.length > 5 ? -25 : 0, type: "band" },
    y: { label: "E_c (%)", type: "symlog", grid: true },
    color: { ...METHOD_COLORS, legend: true },
    fx: { label: null },
    marks: [
      ...METHOD_COLORS.domain.map((method, i) =>
        Plot.dot(
          ran.filter((c) => c.method === method),
          {
            fx: "experiment",
            x: (c) => String(c[x]),
            y: "ec",
            stroke: "method",
            dx: i === 0 ? -6 : 6,
            r: 3.5,
            title: (c) => `${c.experiment}, ${c.method}, ${c.variant}, seed ${c.seed}: E_c ${ecText(c.ec)} %`,
            tip: true,
          },
        ),
      ),
      Plot.ruleY([0]),
    ],
  });
}

/** Wraps a wide element so that it scrolls inside its own box on narrow screens. */
export const scrollBox = (content) => html`<div style="overflow-x: auto; max-width: 100%;">${content}</div>`;

/** The comparison's methods, in the paper's order, with one fixed colour each. */
export const COMPARISON_COLORS = {
  domain: ["consolesr", "paper", "dsr", "vpg", "eql", "mlp"],
  range: ["#4e79a7", "#e15759", "#59a14f", "#edc948", "#b07aa1", "#9c755f"],
};

/**
 * One dot per run (seed) of `value` (E_c or test NRMSE) per method, facets per experiment, and
 * each method's mean as a tick; runs with no value (not run, or no E_c for a model) are left out
 * and listed under the chart.
 */
export function methodDots(cells, { value, label, width, log }) {
  const ran = cells.filter((c) => c.present && c[value] !== null && c[value] !== undefined);
  if (ran.length === 0) return html`<p style="color: #888;"><i>No run of this grid has a result yet.</i></p>`;
  const methods = COMPARISON_COLORS.domain.filter((m) => cells.some((c) => c.method === m));
  const format = (v) => (value === "ec" ? `${ecText(v)} %` : v.toExponential(2));
  return Plot.plot({
    width: Math.max(320, Math.min(width, 900)),
    height: 300,
    x: { label: null, domain: methods, type: "band", padding: 0.3 },
    y: { label, type: log ? "log" : "symlog", grid: true },
    color: COMPARISON_COLORS,
    fx: { label: null },
    marks: [
      Plot.dot(ran, {
        fx: "experiment",
        x: "method",
        y: (c) => (log ? Math.max(c[value], 1e-16) : c[value]),
        stroke: "method",
        r: 3.5,
        title: (c) => `${c.experiment}, ${c.method}, seed ${c.seed}: ${label} ${format(c[value])}`,
        tip: true,
      }),
      Plot.tickY(
        ran,
        Plot.groupX(
          { y: "mean" },
          {
            fx: "experiment",
            x: "method",
            y: (c) => (log ? Math.max(c[value], 1e-16) : c[value]),
            stroke: "method",
            strokeWidth: 2,
          },
        ),
      ),
    ],
  });
}
