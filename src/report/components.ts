/// <reference path="./htl.d.ts" />
/**
 * The report components a page of results is made of, for this site's pages and for the projects
 * `consolesr report` writes (the package's `consolesr/report`): each takes a version-1 result (the
 * JSON `consolesr fit --out` writes) and returns a DOM element. Every number is written by
 * format.ts and every law by KaTeX (katex.ts; a page links the stylesheet with inlined fonts).
 *
 * Hooks for readers and tests: `.csr-equation[data-target][data-text]`, `.csr-pareto[data-target]`,
 * `.csr-diagnostics[data-target]` (with `data-nrmse`), `.csr-reproduce`.
 */
import * as Plot from "@observablehq/plot";
import { html } from "htl";
import { loadResult, type ResultJson, type Table } from "../lib/index.js";
import { saveJson } from "./download.js";
import { frontChart, NRMSE_FLOOR } from "./experimentCharts.js";
import { nrmseText } from "./format.js";
import { tex, texName } from "./katex.js";
import { scrollX } from "./layout.js";
import { withReportStyles } from "./styles.js";

const targetsOf = (result: ResultJson, target?: string): string[] =>
  target === undefined ? result.equations.map((e) => e.target) : [target];

const equationOf = (result: ResultJson, target: string) => {
  const equation = result.equations.find((e) => e.target === target);
  if (!equation)
    throw new Error(
      `the result has no equation for ${JSON.stringify(target)} (it has ${result.equations.map((e) => e.target).join(", ")})`,
    );
  return equation;
};

/** How the search of one output ended: "600 episodes, 1,234 structures, stopped by noise-floor". */
function searchLine(result: ResultJson, target: string): string {
  const s = result.search?.targets?.find((t) => t.target === target);
  if (!s) return "";
  const parts = [
    `${s.episodes} episode${s.episodes === 1 ? "" : "s"}`,
    `${s.structures.toLocaleString("en-US")} structure${s.structures === 1 ? "" : "s"}`,
    `stopped by ${s.stopReason}`,
  ];
  return parts.join(", ");
}

/**
 * The learned law of each output (or of `target`): `y = …` in KaTeX, its train NRMSE, how its
 * search ended, and the law as text (the grammar SymPy and the CLI read).
 */
export function equationCard(result: ResultJson, options: { target?: string } = {}): HTMLElement {
  const cards = targetsOf(result, options.target).map((target) => {
    const e = equationOf(result, target);
    const how = searchLine(result, target);
    return html`<figure class="csr-equation" data-target=${target} data-text=${e.text}>
      <div class="csr-equation-law">${tex(`${texName(target)} = ${e.latex}`, { displayMode: true })}</div>
      <figcaption>train NRMSE ${nrmseText(e.trainNrmse)}${how ? ` · ${how}` : ""}<br>
      <code>${target} = ${e.text}</code></figcaption>
    </figure>` as HTMLElement;
  });
  return html`<div class="csr-equations">${cards}</div>` as HTMLElement;
}

/**
 * The Pareto front of one output: for each complexity, the best equation found that beats every
 * simpler one (train NRMSE, log scale; an exact fit drawn at the floor), with the table of the front
 * and the chosen equation marked.
 */
export function paretoChart(result: ResultJson, target: string, options: { width?: number } = {}): HTMLElement {
  const front = (result.search?.front ?? []).filter((f) => f.target === target);
  if (!front.length)
    return html`<p class="csr-pareto" data-target=${target}>No Pareto front was recorded for ${target}.</p>` as HTMLElement;
  const width = options.width ?? 420;
  const rows = front.map(
    (f) => html`<tr class=${f.chosen ? "csr-chosen" : ""}><td>${f.complexity}</td><td>${nrmseText(f.nrmse)}</td>
      <td>${f.chosen ? "◀ chosen" : ""}</td><td><code>${f.text}</code></td></tr>`,
  );
  return html`<div class="csr-pareto" data-target=${target}>
    ${scrollX(frontChart(result.search, target, { width }))}
    ${scrollX(html`<table style="font-size: 13px;"><thead><tr><th>complexity</th><th>train NRMSE</th><th></th>
      <th>equation</th></tr></thead><tbody>${rows}</tbody></table>`)}
  </div>` as HTMLElement;
}

/** At most `max` indices spread evenly over `n` (a chart of a million points would not draw). */
const spread = (n: number, max: number): number[] =>
  n <= max ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: max }, (_, i) => Math.floor((i * n) / max));

/** What `diagnostics` computes for one output (also returned on the element as `value`). */
export interface Diagnostics {
  target: string;
  rows: number;
  /** sqrt(mean(residual²)) / std(observed), on every row of the table. */
  nrmse: number;
  /** Coefficient of determination 1 − SS_res / SS_tot. */
  r2: number;
  maxAbsResidual: number;
}

/**
 * Fit diagnostics of one output on a table (the CSV the result was made from, or new data with the
 * same columns): predicted against observed with the line y = x, and the residuals against the
 * prediction, plus NRMSE, R² and the largest residual, recomputed here from the equation.
 */
export function diagnostics(
  result: ResultJson,
  table: Table,
  target: string,
  options: { width?: number; maxPoints?: number } = {},
): HTMLElement & { value: Diagnostics } {
  const fitted = loadResult(result).equations.find((e) => e.target === target);
  if (!fitted) equationOf(result, target);
  const inputs = (result.manifest.config as { inputs?: string[] }).inputs ?? [];
  const column = (name: string) => {
    const i = table.columns.indexOf(name);
    if (i < 0) throw new Error(`diagnostics: the table has no column ${JSON.stringify(name)}`);
    return table.values[i]!;
  };
  const observed = column(target);
  const X = inputs.map(column);
  const rowsX = Array.from({ length: table.rows }, (_, r) => X.map((c) => c[r]!));
  const predicted = fitted!.predict(rowsX);
  let mean = 0;
  for (let r = 0; r < table.rows; r++) mean += observed[r]! / table.rows;
  let ssRes = 0;
  let ssTot = 0;
  let maxAbs = 0;
  for (let r = 0; r < table.rows; r++) {
    const residual = observed[r]! - predicted[r]!;
    ssRes += residual * residual;
    ssTot += (observed[r]! - mean) ** 2;
    maxAbs = Math.max(maxAbs, Math.abs(residual));
  }
  const value: Diagnostics = {
    target,
    rows: table.rows,
    nrmse: ssTot > 0 ? Math.sqrt(ssRes / ssTot) : Number.NaN,
    r2: ssTot > 0 ? 1 - ssRes / ssTot : Number.NaN,
    maxAbsResidual: maxAbs,
  };
  const points = spread(table.rows, options.maxPoints ?? 2000).map((r) => ({
    row: r + 1,
    observed: observed[r]!,
    predicted: predicted[r]!,
    residual: observed[r]! - predicted[r]!,
  }));
  const width = Math.max(240, Math.floor((options.width ?? 640) / 2) - 8);
  const lo = Math.min(...points.map((p) => Math.min(p.observed, p.predicted)));
  const hi = Math.max(...points.map((p) => Math.max(p.observed, p.predicted)));
  const tip = (p: (typeof points)[number]) =>
    `row ${p.row}\nobserved ${p.observed.toPrecision(6)}\npredicted ${p.predicted.toPrecision(6)}\n` +
    `residual ${p.residual.toExponential(2)}`;
  const summary = `${table.rows} rows, NRMSE ${nrmseText(value.nrmse)}, largest residual ${maxAbs.toPrecision(3)}`;
  const parity = Plot.plot({
    ariaLabel: `${target}: predicted against observed on ${summary}`,
    width,
    height: width,
    marginLeft: 56,
    grid: true,
    caption: `${target}: predicted against observed (the line is y = x)`,
    x: { label: `observed ${target} →`, domain: [lo, hi] },
    y: { label: `↑ predicted ${target}`, domain: [lo, hi] },
    marks: [
      Plot.line(
        [
          [lo, lo],
          [hi, hi],
        ],
        { stroke: "#999", strokeDasharray: "4,3" },
      ),
      Plot.dot(points, { x: "observed", y: "predicted", r: 2, fill: "#4e79a7", fillOpacity: 0.6 }),
      Plot.tip(points, Plot.pointer({ x: "observed", y: "predicted", title: tip })),
    ],
  });
  const residuals = Plot.plot({
    ariaLabel: `${target}: residual (observed − predicted) against predicted on ${summary}`,
    width,
    height: width,
    marginLeft: 64,
    grid: true,
    caption: `${target}: residual (observed − predicted) against the prediction`,
    x: { label: `predicted ${target} →` },
    y: { label: "↑ residual", tickFormat: (d: number) => (d === 0 ? "0" : d.toExponential(0)) },
    marks: [
      Plot.ruleY([0], { stroke: "#999" }),
      Plot.dot(points, { x: "predicted", y: "residual", r: 2, fill: "#e15759", fillOpacity: 0.6 }),
      Plot.tip(points, Plot.pointer({ x: "predicted", y: "residual", title: tip })),
    ],
  });
  const element = html`<div class="csr-diagnostics" data-target=${target} data-nrmse=${String(value.nrmse)}>
    <p>On all ${value.rows.toLocaleString("en-US")} rows: NRMSE ${nrmseText(value.nrmse)}, R² ${
      Number.isFinite(value.r2) ? value.r2.toFixed(6) : "—"
    }, largest |residual| ${value.maxAbsResidual.toExponential(2)}${
      points.length < value.rows ? ` (the charts show ${points.length} rows spread over the table)` : ""
    }.</p>
    <div style="display: flex; flex-wrap: wrap; gap: 16px;">${parity}${residuals}</div>
  </div>` as HTMLElement & { value: Diagnostics };
  element.value = value;
  return element;
}

/**
 * How to reproduce a result: its manifest (version, git, seed, data digest and rows, backend,
 * method) and the commands: the one that made it and `consolesr reproduce`, which re-runs it from
 * the JSON alone; with a button that downloads the JSON.
 */
export function reproduceBlock(
  result: ResultJson,
  options: { command?: string; file?: string; text?: string } = {},
): HTMLElement {
  const m = result.manifest;
  const config = m.config as Record<string, unknown>;
  const file = options.file ?? "result.json";
  const items: [string, string][] = [
    ["consolesr", String(m.version)],
    ["git", String(m.git ?? "unknown")],
    ["seed", String(m.seed)],
    ...(typeof config.data === "string" ? [["data", String(config.data)] as [string, string]] : []),
    ...(m.data ? [["data SHA-256", `${m.data.sha256} (${m.data.rows} rows)`] as [string, string]] : []),
    ["method", String(config.method ?? "consolesr")],
    ["backend", String(m.backend)],
  ];
  const button = html`<button type="button" class="csr-download">download ${file}</button>` as HTMLButtonElement;
  button.onclick = () => saveJson(options.text ?? `${JSON.stringify(result, null, 2)}\n`, file);
  return withReportStyles(
    html`<div class="csr-reproduce">
    <table style="font-size: 13px;"><tbody>${items.map(
      ([k, v]) => html`<tr><th style="text-align: left;">${k}</th><td><code>${v}</code></td></tr>`,
    )}</tbody></table>
    ${options.command ? html`<p>Made with: <code class="csr-command">${options.command}</code></p>` : ""}
    <p>Re-run and compare, from the JSON alone (exit 0 when every equation and number matches):
      <code class="csr-reproduce-command">npx consolesr reproduce ${file}</code></p>
    <p>${button}</p>
  </div>` as HTMLElement,
  );
}

/**
 * A summary of a table: its rows and, per column, its role (target, input, or not used), range,
 * mean and standard deviation.
 */
export function dataSummary(
  table: Table,
  options: { targets?: readonly string[]; inputs?: readonly string[]; name?: string } = {},
): HTMLElement {
  const role = (c: string) =>
    options.targets?.includes(c) ? "target" : options.inputs?.includes(c) ? "input" : options.inputs ? "not used" : "";
  const g = (v: number) => (Number.isFinite(v) ? v.toPrecision(4) : "—");
  const rows = table.columns.map((c, i) => {
    const x = table.values[i]!;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    let sum = 0;
    for (const v of x) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      sum += v;
    }
    const mean = sum / x.length;
    let ss = 0;
    for (const v of x) ss += (v - mean) ** 2;
    const std = Math.sqrt(ss / Math.max(1, x.length - 1));
    return html`<tr data-column=${c}><td><code>${c}</code></td><td>${role(c)}</td><td>${g(min)}</td><td>${g(max)}</td>
      <td>${g(mean)}</td><td>${g(std)}</td></tr>`;
  });
  return html`<div class="csr-data">
    <p>${options.name ? html`<code>${options.name}</code>: ` : ""}${table.rows.toLocaleString("en-US")} rows,
      ${table.columns.length} columns${table.sha256 ? html` (SHA-256 <code>${table.sha256.slice(0, 16)}…</code>)` : ""}.</p>
    ${scrollX(html`<table style="font-size: 13px;"><thead><tr><th>column</th><th>role</th><th>min</th><th>max</th>
      <th>mean</th><th>std</th></tr></thead><tbody>${rows}</tbody></table>`)}
  </div>` as HTMLElement;
}

/** What a report's build check found (the check loader of a `consolesr report` project prints it). */
export interface BuildCheck {
  /** Whether the re-run matched every stored field. */
  match: boolean;
  /** The comparison, one line per field (reproduceResult's lines). */
  lines: string[];
  /** Why the re-run could not be made, if it could not. */
  error?: string;
  seconds?: number;
  /** The consolesr version that re-ran it. */
  version?: string;
}

/**
 * The build's verdict on a published result: "reproduced" when the re-run at build time matched
 * every stored field, and otherwise, in red, that it did not, with each difference.
 */
export function reproduceCheck(check: BuildCheck): HTMLElement {
  const how = `${check.version ? ` by consolesr ${check.version}` : ""}${
    check.seconds === undefined ? "" : ` in ${check.seconds.toFixed(1)} s`
  }`;
  if (check.match)
    return html`<p class="csr-check" data-match="true">✔ <b>Reproduced at build time</b>: the search was run again${how}
      from the JSON's manifest on the same data, and every equation and stored number matches.</p>` as HTMLElement;
  return html`<div class="csr-check" data-match="false" style="border-left: 4px solid crimson; padding-left: 0.8rem;">
    <p style="color: crimson;">✘ <b>Not reproduced at build time</b>${how}: ${
      check.error ?? "the re-run differs from the published result (below); the page shows the published one."
    }</p>
    ${check.lines.length ? html`<pre style="font-size: 12px;">${check.lines.join("\n")}</pre>` : ""}
  </div>` as HTMLElement;
}

export { NRMSE_FLOOR };
