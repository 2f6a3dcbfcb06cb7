// Tables and charts of the search benchmark page (data: bench/searchSuite.ts's JSON).
// Explicit imports only: the implicit globals would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";
import { scrollX, withLegend } from "../report/index.js";

export const noiseName = (snrDb) => (snrDb === null ? "noiseless" : `${snrDb} dB`);

/** Plot's default categorical palette (observable10), given explicitly so that it is one mapping for every chart. */
const PALETTE = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5"];

/**
 * The colour of each method, the same on every chart of the page: the data's method list (in its
 * order) mapped onto one palette. Without it each chart ordered its own domain (one by the data's
 * order, one alphabetically) and random and enumerate swapped colours between sections.
 */
export function methodColors(data): Plot.ScaleOptions {
  return { type: "ordinal", domain: data.manifest.methods, range: PALETTE.slice(0, data.manifest.methods.length) };
}
const fixed = (v, digits = 1) => (v === null || v === undefined ? "—" : v.toFixed(digits));

/** Per method and noise level: recovered runs, rate, median structures to recovery, median seconds. */
export function methodTable(data) {
  return scrollX(html`<table style="max-width: 900px; font-size: 14px;">
<thead><tr><th>noise</th><th>method</th><th>recovered / runs</th><th>rate</th><th>sums (2+ products)</th>
<th>single products</th><th>exact at the end</th><th>median structures to recovery</th><th>median s (all runs)</th>
<th>median s (recovered)</th></tr></thead>
<tbody>${data.summary.map(
    (s) => html`<tr>
  <td>${noiseName(s.snrDb)}</td><td><b>${s.method}</b></td><td>${s.recovered} / ${s.runs}</td>
  <td>${(100 * s.rate).toFixed(0)} %</td>
  <td>${shapeCell(s.sums)}</td><td>${shapeCell(s.products)}</td>
  <td>${s.exactAtEnd}</td><td>${fixed(s.medianStructures)}</td><td>${fixed(s.medianSeconds, 2)}</td>
  <td>${fixed(s.medianSecondsRecovered, 2)}</td>
</tr>`,
  )}</tbody>
</table>`);
}

/**
 * The unannounced-noise runs (npm run bench:noise): per method and SNR, how many ended by
 * themselves, were recovered, were identifiable by the oracle and recovered among those, and the
 * seconds per run.
 */
export function noiseTable(data) {
  const share = (a, b) => `${a} / ${b} (${b ? ((100 * a) / b).toFixed(0) : "—"} %)`;
  return scrollX(html`<table style="max-width: 1000px; font-size: 14px;">
<thead><tr><th>noise</th><th>method</th><th>ended by itself</th><th>recovered</th><th>oracle-identifiable</th>
<th>recovered of those</th><th>median s</th><th>max s</th><th>stop reasons</th></tr></thead>
<tbody>${data.summary.map(
    (s) => html`<tr>
  <td>${noiseName(s.snrDb)}</td><td><b>${s.method}</b></td><td>${share(s.endedByItself, s.runs)}</td>
  <td>${share(s.recovered, s.runs)}</td><td>${s.oracleIdentifiable}</td>
  <td>${share(s.recoveredOfIdentifiable, s.oracleIdentifiable)}</td>
  <td>${fixed(s.medianSeconds, 2)}</td><td>${fixed(s.maxSeconds, 1)}</td>
  <td>${Object.entries(s.stopReasons)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}</td>
</tr>`,
  )}</tbody>
</table>`);
}

/**
 * The stress families (src/lib/data/stress.ts), per family: recovered runs, search CPU per run
 * (median, max) against the family's target, and how the runs stopped. `targets`: CPU seconds per
 * run by family ({Products: 5, …}).
 */
export function familyTable(data, targets) {
  const families: string[] = [...new Set<string>(data.equations.map((e) => e.family))];
  const familyOf = new Map(data.equations.map((e) => [e.id, e.family]));
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
  };
  return scrollX(html`<table style="max-width: 1000px; font-size: 14px;">
<thead><tr><th>family</th><th>laws</th><th>recovered / runs</th><th>median CPU s</th><th>max CPU s</th>
<th>runs over the target</th><th>stop reasons</th></tr></thead>
<tbody>${families.map((family) => {
    const runs = data.runs.filter((r) => familyOf.get(r.equation) === family);
    const cpu = runs.map((r) => r.cpuSeconds ?? r.seconds);
    const recovered = runs.filter((r) => r.recovered).length;
    const reasons: Record<string, number> = {};
    for (const r of runs) reasons[String(r.stopReason)] = (reasons[String(r.stopReason)] ?? 0) + 1;
    const target = targets[family];
    return html`<tr><td><b>${family}</b></td><td>${data.equations.filter((e) => e.family === family).length}</td>
  <td>${recovered} / ${runs.length} (${runs.length ? ((100 * recovered) / runs.length).toFixed(0) : "—"} %)</td>
  <td>${fixed(median(cpu), 2)}</td><td>${fixed(Math.max(...cpu), 1)}</td>
  <td>${target === undefined ? "—" : `${cpu.filter((c) => c > target).length} (target ≤ ${target} s)`}</td>
  <td>${Object.entries(reasons)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}</td></tr>`;
  })}</tbody>
</table>`);
}

/** Recovered / runs on sums or on single products ("—" for data files from before the split). */
function shapeCell(shape) {
  if (!shape) return "—";
  const percent = shape.runs ? ((100 * shape.recovered) / shape.runs).toFixed(0) : "—";
  return `${shape.recovered} / ${shape.runs} (${percent} %)`;
}

/** baseline/consolesr structures to recovery, per noise level. */
export function ratioTable(data) {
  if (data.ratios.length === 0) return html`<p><i>consolesr was not run: no ratio.</i></p>`;
  return scrollX(html`<table style="max-width: 760px; font-size: 14px;">
<thead><tr><th>noise</th><th>ratio</th><th>ratio of the medians</th><th>median of the paired ratios</th>
<th>pairs (both recovered)</th></tr></thead>
<tbody>${data.ratios.map(
    (r) => html`<tr><td>${noiseName(r.snrDb)}</td><td>${r.baseline} / consolesr</td>
<td>${fixed(r.ratioOfMedians, 2)}</td><td>${fixed(r.medianPairedRatio, 2)}</td><td>${r.pairs}</td></tr>`,
  )}</tbody>
</table>`);
}

/** One cell per equation × method (faceted by noise): the share of seeds recovered. */
export function recoveryGrid(data, { width = 900 } = {}) {
  const cells = data.perEquation.flatMap((row) =>
    row.cells.map((c) => ({
      equation: row.equation,
      noise: noiseName(row.snrDb),
      method: c.method,
      share: c.runs ? c.recovered / c.runs : 0,
      label: `${c.recovered}/${c.runs}`,
      median: c.medianStructures,
    })),
  );
  const equations = data.equations.map((e) => e.id);
  const noises = data.manifest.noise.map(noiseName);
  const recovered = cells.reduce((sum, c) => sum + (c.share === 1 ? 1 : 0), 0);
  return Plot.plot({
    ariaLabel:
      `Share of seeds recovered per equation and method (${equations.length} equations, ${noises.join(", ")}): ` +
      `${recovered} of ${cells.length} cells recovered on every seed`,
    // Below this the 150-pixel margin leaves the facets negative widths; the page scrolls the chart in its box.
    width: Math.max(width, 480),
    height: 90 + 20 * equations.length,
    marginLeft: 150,
    marginTop: 30,
    marginBottom: 30,
    fx: { label: null, domain: data.manifest.methods, axis: "top" },
    x: { label: null, domain: noises, axis: "bottom" },
    y: { label: null, domain: equations },
    color: withLegend({
      type: "linear",
      domain: [0, 1],
      range: ["#f4f4f4", "#1a7f37"],
      legend: true,
      marginLeft: 12,
      label: "share of seeds recovered",
    }),
    marks: [
      Plot.cell(cells, { x: "noise", y: "equation", fx: "method", fill: "share", inset: 0.5 }),
      Plot.text(cells, {
        x: "noise",
        y: "equation",
        fx: "method",
        text: "label",
        fontSize: 10,
        fill: (d) => (d.share > 0.6 ? "white" : "black"),
      }),
      Plot.tip(
        cells,
        Plot.pointer({
          x: "noise",
          y: "equation",
          fx: "method",
          title: (d) =>
            `${d.equation} (${d.noise}), ${d.method}\nrecovered ${d.label} seeds\n` +
            `median structures to recovery ${d.median ?? "—"}`,
        }),
      ),
    ],
  });
}

/** Structures fitted until recovery, per method (log scale), recovered runs only. */
export function structuresChart(data, { width = 760 } = {}) {
  const runs = data.runs.filter((r) => r.recovered).map((r) => ({ ...r, noise: noiseName(r.snrDb) }));
  return Plot.plot({
    ariaLabel: `Structures fitted until recovery per method (log scale), ${runs.length} recovered runs`,
    width: Math.max(width, 400),
    height: 90 + 60 * data.manifest.methods.length * data.manifest.noise.length,
    marginLeft: 90,
    marginRight: 80,
    x: { type: "log", label: "distinct structures fitted until the recovered equation →", grid: true },
    y: { label: null, domain: data.manifest.methods },
    fy: { label: null, domain: data.manifest.noise.map(noiseName) },
    color: methodColors(data),
    marks: [
      Plot.boxX(runs, { x: "structuresToRecovery", y: "method", fy: "noise", stroke: "gray", fill: "#ddd" }),
      Plot.dot(runs, {
        x: "structuresToRecovery",
        y: "method",
        fy: "noise",
        r: 3,
        fill: "method",
        fillOpacity: 0.6,
        title: (d) => `${d.method}, ${d.equation}, seed ${d.seed}: ${d.structuresToRecovery} structures`,
      }),
      Plot.ruleX([data.manifest.budget], { stroke: "crimson", strokeDasharray: "4,3" }),
      Plot.text([data.manifest.budget], {
        x: (d) => d,
        frameAnchor: "top",
        dy: 4,
        dx: 4,
        textAnchor: "start",
        text: () => "budget",
        fill: "crimson",
      }),
    ],
  });
}

/** The equations no method recovered at a noise level, with the reason. */
export function unrecoveredTable(data) {
  if (data.unrecovered.length === 0)
    return html`<p>Every equation was recovered by at least one method at every noise level.</p>`;
  return scrollX(html`<table style="max-width: 1000px; font-size: 13px;">
<thead><tr><th>equation</th><th>noise</th><th>truth</th><th>reason</th></tr></thead>
<tbody>${data.unrecovered.map(
    (u) => html`<tr><td>${u.equation}</td><td>${noiseName(u.snrDb)}</td>
<td><code>${data.equations.find((e) => e.id === u.equation)?.truth ?? ""}</code></td>
<td>${u.reason}</td></tr>`,
  )}</tbody>
</table>`);
}

/** The suite: one row per equation with its source formula, LoCaL truth, pool and block size. */
export function equationTable(data) {
  return scrollX(html`<table style="max-width: 1100px; font-size: 12px;">
<thead><tr><th>id</th><th>as published</th><th>as one LoCaL block (truth)</th><th>inputs</th><th>pool</th>
<th>terms × factors</th></tr></thead>
<tbody>${data.equations.map(
    (e) => html`<tr>
  <td title=${e.source}>${e.id}</td><td>${e.original}</td>
  <td><code>${e.truth}</code>${
    e.knownFitFailure
      ? html`<br><small style="color: crimson">fit from all-ones fails: ${e.knownFitFailure}</small>`
      : ""
  }</td>
  <td>${e.inputs.map((i) => `${i.name} ∈ [${i.range.join(", ")}]`).join(", ")}</td><td>${e.pool.join(", ")}</td>
  <td>${e.terms} × ${e.maxFactors}</td>
</tr>`,
  )}</tbody>
</table>`);
}

/** Literature equations left out, and why. */
export function excludedTable(data) {
  return scrollX(html`<table style="max-width: 1000px; font-size: 12px;">
<thead><tr><th>equation</th><th>as published</th><th>one block?</th><th>why it is left out</th></tr></thead>
<tbody>${data.excluded.map(
    (x) => html`<tr><td>${x.name}</td><td>${x.original}</td>
<td>${x.expressible ? "yes" : "no"}</td><td>${x.reason}</td></tr>`,
  )}</tbody>
</table>`);
}

/** A small manifest line under a figure. */
export function benchmarkManifest(data) {
  const m = data.manifest;
  const items = {
    version: m.version,
    git: `${m.git.slice(0, 10)}${m.dirty ? " (dirty)" : ""}`,
    date: m.date.slice(0, 10),
    budget: m.budget,
    episodes: m.episodes,
    seeds: m.seeds.join(","),
    rows: m.rows,
    jobs: m.jobs,
    cpus: m.machine.cpus,
    "wall s": m.wallSeconds,
    "CPU s in jobs": m.cpuSeconds,
    fit: JSON.stringify(m.settings.fit),
    constraints: m.settings.constraints.join("+"),
    reward: m.settings.reward,
  };
  return html`<p class="manifest"
    style="font: 12px var(--monospace); color: var(--theme-foreground-muted); margin-top: 0.3rem;">${Object.entries(
      items,
    )
      .map(([k, v]) => `${k}: ${v}`)
      .join(" · ")}</p>`;
}

/**
 * Share of runs recovered within k fitted structures, for every k up to the budget: the recovery
 * rate at every equal structure budget at once (a run that never recovers stays out of the share).
 */
export function recoveryCurve(data, { width = 760, snrDb = null } = {}) {
  const budget = data.manifest.budget;
  const points = data.manifest.methods.flatMap((method) => {
    const runs = data.runs.filter((r) => r.method === method && r.snrDb === snrDb);
    const hits = runs
      .filter((r) => r.recovered)
      .map((r) => r.structuresToRecovery)
      .sort((a, b) => a - b);
    const out = [{ method, k: 1, share: 0 }];
    hits.forEach((k, i) => {
      out.push({ method, k, share: (i + 1) / runs.length });
    });
    out.push({ method, k: budget, share: hits.length / runs.length });
    return out;
  });
  const finals = points.filter((p) => p.k === budget);
  return Plot.plot({
    ariaLabel:
      `Share of runs recovered within k structures, up to ${budget}: ` +
      finals.map((p) => `${p.method} ${(100 * p.share).toFixed(0)} %`).join(", "),
    width: Math.max(width, 320),
    height: 320,
    x: { type: "log", label: "structures fitted (equal budget for every method) →", domain: [1, budget], grid: true },
    y: { label: "↑ share of runs recovered", domain: [0, 1], grid: true, tickFormat: "%" },
    color: { ...methodColors(data), legend: true },
    marks: [
      Plot.line(points, { x: "k", y: "share", stroke: "method", curve: "step-after", strokeWidth: 2 }),
      Plot.ruleY([0]),
    ],
  });
}

/**
 * Median structures to recovery over every run, a run that does not recover counting as more
 * than the budget (so a method that misses most runs has a median "> budget"), and the recovery
 * rate at a few equal budgets.
 */
export function budgetTable(data, { snrDb = null, budgets = [25, 50, 100, 200] } = {}) {
  const budget = data.manifest.budget;
  const shown = budgets.filter((b) => b <= budget);
  const rows = data.manifest.methods.map((method) => {
    const runs = data.runs.filter((r) => r.method === method && r.snrDb === snrDb);
    const values = runs.map((r) => (r.recovered ? r.structuresToRecovery : Infinity)).sort((a, b) => a - b);
    const mid = values.length ? values[Math.floor((values.length - 1) / 2)] : null;
    return {
      method,
      runs: runs.length,
      median: mid,
      within: shown.map((b) => runs.filter((r) => r.recovered && r.structuresToRecovery <= b).length),
    };
  });
  return scrollX(html`<table style="max-width: 860px; font-size: 14px;">
<thead><tr><th>method</th>
<th>median structures, misses counted as &gt; ${budget}</th>${shown.map(
    (b) => html`<th>recovered within ${b}</th>`,
  )}</tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td><b>${r.method}</b></td>
<td>${r.median === null ? "—" : Number.isFinite(r.median) ? r.median : `> ${budget}`}</td>${r.within.map(
      (n) => html`<td>${n} / ${r.runs} (${((100 * n) / Math.max(1, r.runs)).toFixed(0)} %)</td>`,
    )}</tr>`,
  )}</tbody>
</table>`);
}

/** Share of exact runs as "k / n (p %)". */
const exactShare = (s) => `${s.exact} / ${s.runs} (${s.runs ? ((100 * s.exact) / s.runs).toFixed(0) : "—"} %)`;

/**
 * The beyond family (bench/beyondSuite.ts): exact runs per kind before its implementation and now,
 * with the median search CPU now; then each law, its exact seeds now and seed 0's answer.
 */
export function beyondTables(before, now) {
  const kinds = Object.keys(now.summary);
  const summary = scrollX(html`<table style="max-width: 760px; font-size: 14px;">
<thead><tr><th>kind</th><th>exact before (${before.manifest.git})</th><th>exact now (${now.manifest.git})</th>
<th>median CPU s now</th></tr></thead>
<tbody>${kinds.map(
    (kind) => html`<tr><td>${kind}</td><td>${before.summary[kind] ? exactShare(before.summary[kind]) : "—"}</td>
<td>${exactShare(now.summary[kind])}</td><td>${now.summary[kind].medianCpuSeconds.toFixed(2)}</td></tr>`,
  )}</tbody></table>`);
  const laws = scrollX(html`<table style="max-width: 1100px; font-size: 13px;">
<thead><tr><th>law</th><th>truth</th><th>exact seeds now</th><th>seed 0's answer</th></tr></thead>
<tbody>${now.entries.map((e) => {
    const runs = now.runs.filter((r) => r.id === e.id);
    const first = runs.find((r) => r.seed === 0);
    return html`<tr><td>${e.id}</td><td><code>${e.truth}</code></td>
<td>${runs.filter((r) => r.exact).length} / ${runs.length}</td><td><code>y = ${first?.learned ?? "—"}</code></td></tr>`;
  })}</tbody></table>`);
  return html`${summary}${laws}`;
}
