// Charts of the toy page (site/toy.md, paper §5.2 and Fig. 2). Explicit imports only: the
// implicit Plot global would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";
import { withLegend } from "../report/index.js";

const fmt = (v, digits = 3) =>
  v === null || v === undefined
    ? "—"
    : Math.abs(v) < 1e-3 && v !== 0
      ? v.toExponential(1)
      : Number(v.toPrecision(digits)).toString();

/** Heatmap and contours of the normalised LoCaL loss L(w1, w2), optima as dots. */
export function lossSurface(data, { width = 640 } = {}) {
  const { cells, optima, config } = data.surface;
  const dw1 = (config.w1[1] - config.w1[0]) / (config.w1[2] - 1) / 2;
  const dw2 = (config.w2[1] - config.w2[0]) / (config.w2[2] - 1) / 2;
  const floor = 1e-3;
  return Plot.plot({
    ariaLabel: `The normalised LoCaL loss over (w1, w2) as a heatmap with contours; ${optima.length} optima marked`,
    width,
    height: Math.round(width * 0.72),
    marginLeft: 50,
    marginBottom: 42,
    x: { label: "w1 (coefficient) →", domain: [config.w1[0] - dw1, config.w1[1] + dw1] },
    y: { label: "↑ w2 (inner weight of cos)", domain: [config.w2[0] - dw2, config.w2[1] + dw2] },
    color: withLegend({
      type: "log",
      scheme: "viridis",
      label: "L(w1, w2) (log, floored at 1e-3)",
      legend: true,
      width: Math.min(372, width - 24),
      marginLeft: 12,
      tickFormat: (d) => `1e${Math.round(Math.log10(d))}`,
      ticks: [1e-3, 1e-2, 1e-1, 1, 10],
      domain: [floor, Math.max(...cells.map((d) => d.loss))],
    }),
    marks: [
      Plot.rect(cells, {
        x1: (d) => d.w1 - dw1,
        x2: (d) => d.w1 + dw1,
        y1: (d) => d.w2 - dw2,
        y2: (d) => d.w2 + dw2,
        fill: (d) => Math.max(d.loss, floor),
        stroke: (d) => Math.max(d.loss, floor),
        strokeWidth: 0.6,
      }),
      Plot.contour(cells, {
        x: "w1",
        y: "w2",
        value: (d) => Math.log10(Math.max(d.loss, floor)),
        thresholds: [-2, -1, -0.5, 0, 0.5, 1],
        interpolate: "barycentric",
        stroke: "white",
        strokeOpacity: 0.55,
        strokeWidth: 0.8,
      }),
      Plot.dot(optima, { x: "w1", y: "w2", r: 6, stroke: "red", strokeWidth: 2.5, fill: "white" }),
      Plot.text(optima, {
        x: "w1",
        y: "w2",
        text: (d) => `(${d.w1}, ${d.w2})`,
        dx: 10,
        textAnchor: "start",
        fill: "white",
        stroke: "black",
        strokeWidth: 3,
        paintOrder: "stroke",
        fontSize: 13,
      }),
      Plot.tip(
        cells,
        Plot.pointer({
          x: "w1",
          y: "w2",
          title: (d) => `w1 = ${fmt(d.w1, 3)}, w2 = ${fmt(d.w2, 3)}\nL = ${fmt(d.loss, 4)}`,
        }),
      ),
    ],
  });
}

/** Final loss (log scale) vs the initial weight w0, with the found and the paper's safe ranges. */
export function lossVsInit(data, { width = 640 } = {}) {
  const { runs, threshold } = data.init;
  const floor = 1e-32;
  const safe = runs.filter((r) => r.safe).map((r) => r.w0);
  const bands = [
    { lo: -3, hi: 7, label: "paper: [−3, 7] \\ {0}", y: 1e-12, color: "darkorange" },
    ...(safe.length
      ? [
          {
            lo: Math.min(...safe),
            hi: Math.max(...safe),
            label: `found: [${Math.min(...safe)}, ${Math.max(...safe)}]`,
            y: 1e-18,
            color: "green",
          },
        ]
      : []),
  ];
  return Plot.plot({
    ariaLabel:
      `Final loss against the initial weight w0 for ${runs.length} starts; ` +
      `the safe range found: ${safe.length ? `[${Math.min(...safe)}, ${Math.max(...safe)}]` : "none"}, ` +
      "the paper's [−3, 7]",
    width,
    height: 360,
    marginLeft: 60,
    marginBottom: 42,
    x: { label: "initial weight w0 (every weight starts here) →", domain: [-10.5, 10.5], ticks: 21, tickFormat: "d" },
    y: {
      type: "log",
      label: "↑ final loss MSE / var(y)",
      domain: [floor, 100],
      ticks: 8,
      tickFormat: (d) => `1e${Math.round(Math.log10(d))}`,
    },
    marks: [
      Plot.rectX(bands, {
        x1: (d) => d.lo - 0.4,
        x2: (d) => d.hi + 0.4,
        y1: floor,
        y2: 100,
        fill: "color",
        fillOpacity: 0.12,
      }),
      Plot.text(bands, {
        x: (d) => (d.lo + d.hi) / 2,
        y: "y",
        text: "label",
        fill: "color",
        fontSize: 13,
        fontWeight: "bold",
      }),
      Plot.ruleY([threshold], { stroke: "gray", strokeDasharray: "4,3" }),
      Plot.text([threshold], {
        x: -10.3,
        y: threshold,
        text: () => `threshold ${threshold}`,
        textAnchor: "start",
        dy: -8,
        fill: "gray",
        fontSize: 12,
      }),
      Plot.line(runs, { x: "w0", y: (d) => Math.max(d.loss, floor), stroke: "currentColor", strokeOpacity: 0.4 }),
      Plot.dot(runs, {
        x: "w0",
        y: (d) => Math.max(d.loss, floor),
        r: 4.5,
        fill: (d) => (d.safe ? "green" : "crimson"),
        stroke: "white",
      }),
      Plot.tip(
        runs,
        Plot.pointerX({
          x: "w0",
          y: (d) => Math.max(d.loss, floor),
          title: (d) => `w0 = ${d.w0}\nfinal loss ${fmt(d.loss)}\nw1 → ${fmt(d.w1, 4)}, w2 → ${fmt(d.w2, 4)}`,
        }),
      ),
    ],
  });
}

/** −Q over the 2-D slice of the layer-1 action at one episode, the slice argmin marked. */
export function qSlice(_data, episode, { width = 300 } = {}) {
  const { cells, gridArgmin, lpArgmin } = episode;
  const h = 0.025;
  return Plot.plot({
    ariaLabel: `−Q over a 2-D slice of the layer-1 action, ${cells.length} cells, the slice's argmin marked`,
    width,
    height: width + 40,
    marginLeft: 46,
    marginBottom: 40,
    marginTop: 28,
    title: `episode ${episode.episode}`,
    x: { label: "u = Z1[x²(x1) → p0] →", domain: [-h, 1 + h], ticks: 5 },
    y: { label: "↑ v = Z1[cos(x2) → p0]", domain: [-h, 1 + h], ticks: 5 },
    color: withLegend({ scheme: "magma", reverse: true, label: "−Q(s1, a)", legend: true, width: width - 20 }),
    marks: [
      Plot.rect(cells, {
        x1: (d) => d.u - h,
        x2: (d) => d.u + h,
        y1: (d) => d.v - h,
        y2: (d) => d.v + h,
        fill: "q",
        stroke: "q",
        strokeWidth: 0.6,
      }),
      Plot.dot([lpArgmin], { x: "u", y: "v", r: 7, stroke: "cyan", strokeWidth: 2.5, fill: "none" }),
      Plot.dot([gridArgmin], { x: "u", y: "v", r: 3, fill: "cyan" }),
      Plot.tip(
        cells,
        Plot.pointer({ x: "u", y: "v", title: (d) => `u = ${fmt(d.u, 3)}, v = ${fmt(d.v, 3)}\n−Q = ${fmt(d.q, 4)}` }),
      ),
    ],
  });
}

/** A small manifest line under a figure. */
export function manifestLine(data, extra = {}) {
  const m = data.manifest;
  const items = {
    seed: m.seed,
    rows: m.rows,
    backend: m.backend,
    version: m.version,
    git: m.git.slice(0, 10),
    ...extra,
  };
  return html`<p class="manifest"
    style="font: 12px var(--monospace); color: var(--theme-foreground-muted); margin-top: 0.3rem;">${Object.entries(
      items,
    )
      .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
      .join(" · ")}</p>`;
}
