// Tables and charts of the Ablation and Sensitivity pages (data: site/data/helpers/sweepGrid.ts).
// A cell not run yet is shown as missing, never as a number.
// Explicit imports only: the implicit globals would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";
import { ecText, field, nrmseText, rerun } from "../report/index.js";
import { sweepCellLink } from "./playgroundLink.js";

/** One fixed colour per method, shared by every chart of these pages. */
export const METHOD_COLORS = { domain: ["paper", "consolesr"], range: ["#e15759", "#4e79a7"] };

/** E_c (%) as every page writes it (format.ts). */
export { ecText };

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
    ariaLabel: `E_c (%) of ${ran.length} runs by ${xLabel}, one dot per seed: ${
      ran.filter((c) => c.ec === 0).length
    } exact (E_c 0)`,
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
  const format = (v) => (value === "ec" ? `${ecText(v)} %` : nrmseText(v));
  return Plot.plot({
    ariaLabel: `${label} of ${ran.length} runs per method (${methods.join(", ")}), one dot per seed`,
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

/** `--flag value` for a sweep variant's settings (the CLI's names: the same run in a terminal). */
function variantFlags(settings) {
  const kebab = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const flags: string[] = [];
  for (const [key, value] of Object.entries(settings ?? {})) {
    if (key === "fit") for (const [k, v] of Object.entries(value as object)) flags.push(`--${kebab(k)} ${v}`);
    else if (Array.isArray(value)) flags.push(`--${kebab(key)} ${value.join(",")}`);
    else flags.push(`--${kebab(key)} ${value}`);
  }
  return flags;
}

/**
 * A live re-run of one cell of a committed sweep's grid ("Re-run with…", components/rerun.js):
 * the reader picks the experiment, method, variant, seed and (where the grid sweeps them) SNR
 * and rows; the committed result of that cell, where there is one, is shown beside the live run.
 * `grid`: the loader's sweep (spec, variants, cells with their result `text`).
 */
export function sweepRerun(grid, { git, note, name }) {
  const spec = grid.spec;
  const values = (key) => [...new Set(grid.cells.map((c) => c[key]))].sort((a: any, b: any) => (a ?? -1) - (b ?? -1));
  const fields = [
    field.choice("experiment", "experiment", spec.experiments, spec.experiments[0]),
    field.choice("method", "method", spec.methods ?? ["consolesr"], (spec.methods ?? ["consolesr"])[0]),
    ...(grid.variants.length > 1
      ? [
          field.choice(
            "variant",
            "case",
            grid.variants.map((v) => v.name),
            grid.variants[0].name,
          ),
        ]
      : []),
    field.seed(0),
    ...(spec.snr && spec.snr.some((s) => s !== null)
      ? [field.choice("snr", "noise SNR", values("snr"), values("snr")[0], (v) => (v === null ? "none" : `${v} dB`))]
      : []),
    ...(spec.rows && spec.rows.some((r) => r !== null)
      ? [field.choice("rows", "rows", values("rows"), values("rows")[0], (v) => (v === null ? "default" : String(v)))]
      : []),
  ];
  const variantOf = (v) => grid.variants.find((x) => x.name === (v.variant ?? grid.variants[0].name));
  const cellOf = (v) =>
    grid.cells.find(
      (c) =>
        c.experiment === v.experiment &&
        c.method === v.method &&
        c.variant === (v.variant ?? grid.variants[0].name) &&
        c.seed === v.seed &&
        c.snr === (v.snr ?? null) &&
        c.rows === (v.rows ?? null),
    );
  return rerun({
    experiment: name,
    fields,
    git,
    note,
    options: (v) => {
      const { constraints, fit, ...search } = variantOf(v).settings;
      return {
        experiment: v.experiment,
        seed: v.seed,
        method: v.method,
        ...(v.snr === null || v.snr === undefined ? {} : { snrDb: v.snr }),
        ...(v.rows === null || v.rows === undefined ? {} : { rows: v.rows }),
        ...(constraints ? { constraints } : {}),
        ...(fit ? { fit } : {}),
        search,
      };
    },
    command: (v) =>
      [
        `npx consolesr run ${v.experiment} --method ${v.method} --seed ${v.seed}`,
        v.snr === null || v.snr === undefined ? "" : `--snr ${v.snr}`,
        v.rows === null || v.rows === undefined ? "" : `--rows ${v.rows}`,
        ...variantFlags(variantOf(v).settings),
      ]
        .filter(Boolean)
        .join(" "),
    // The cell's variant settings too (a link without them ran the as-is search); none where the
    // playground has no control for one of them.
    playground: (v) => sweepCellLink(v as Parameters<typeof sweepCellLink>[0], variantOf(v).settings),
    published: (v) => {
      const cell = cellOf(v);
      return cell?.present && cell.text
        ? {
            label: `committed: ${cell.job}`,
            text: cell.text,
            result: JSON.parse(cell.text),
            filename: `${cell.job}.json`,
          }
        : null;
    },
    filename: (v) => `${name}-${v.experiment}-${v.method}-s${v.seed}-live.json`,
  });
}
