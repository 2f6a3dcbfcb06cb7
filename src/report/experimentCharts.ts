/// <reference path="./htl.d.ts" />
// Charts for the experiment pages (syn1, …): reward per episode and the Pareto front per output.
// Explicit imports only: the implicit globals would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";
import { nrmseText } from "./format.js";

/** The floor under NRMSE on a log axis: an exact fit has NRMSE 0. */
export const NRMSE_FLOOR = 1e-17;

/** An NRMSE as every page writes it (format.ts). */
export { nrmseText };

/** A point of a Pareto front (the result's search.front): the best equation at one complexity. */
export interface FrontPoint {
  target: string;
  complexity: number;
  nrmse: number;
  text: string;
  chosen?: boolean;
}

/** One output's NRMSEs (rerun.ts outputsOf rows). */
export interface NrmseRow {
  target: string;
  trainNrmse?: number | null;
  testNrmse?: number | null;
}

/** Published and live series, in the same colours on every chart of the re-run section. */
export const RUN_COLORS = { domain: ["published", "yours"], range: ["#8a8a8a", "#d6336c"] };

/** Reward per episode, one line per output; the last point of each line is labelled. */
export function rewardChart(
  data: { outputs: { target: string; rewards: (number | null)[] }[] },
  { width = 640 } = {},
): SVGSVGElement | HTMLElement {
  const points = data.outputs.flatMap((o) =>
    o.rewards.map((reward, i) => ({ target: o.target, episode: i + 1, reward })),
  );
  const ends = data.outputs.map((o) => ({
    target: o.target,
    episode: o.rewards.length,
    reward: o.rewards[o.rewards.length - 1],
  }));
  return Plot.plot({
    ariaLabel:
      "Reward per episode, one line per output: " +
      ends
        .map((e) => `${e.target} ends at ${e.reward == null ? "—" : e.reward.toFixed(3)} after ${e.episode} episodes`)
        .join("; "),
    width,
    height: 340,
    marginLeft: 50,
    marginRight: 50,
    marginBottom: 42,
    x: { label: "episode →", domain: [0, Math.max(...ends.map((e) => e.episode)) + 2] },
    y: { label: "↑ reward 1/(1 + NRMSE)", domain: [0, 1.08], grid: true },
    color: { legend: true, label: "output" },
    marks: [
      Plot.ruleY([0]),
      // z named explicitly: an output found in its first episode is a one-point series, and Plot
      // warns about an implicit z with as many series as points.
      Plot.line(points, { x: "episode", y: "reward", z: "target", stroke: "target", strokeWidth: 1.5 }),
      Plot.dot(points, { x: "episode", y: "reward", fill: "target", r: 2 }),
      Plot.text(ends, {
        x: "episode",
        y: "reward",
        text: (d) => `${d.target}: ep. ${d.episode}`,
        fill: "target",
        dx: 4,
        dy: -8 - 0,
        textAnchor: "start",
        fontWeight: "bold",
        lineAnchor: "bottom",
      }),
      Plot.tip(
        points,
        Plot.pointer({
          x: "episode",
          y: "reward",
          title: (d) => `${d.target}, episode ${d.episode}\nreward ${d.reward === null ? "—" : d.reward.toFixed(6)}`,
        }),
      ),
    ],
  });
}

/** The Pareto front of one output: complexity vs train NRMSE (log y, NRMSE floored). */
export function frontChart(
  data: { front?: FrontPoint[] },
  target: string,
  { width = 300 } = {},
): SVGSVGElement | HTMLElement {
  const front = (data.front ?? [])
    .filter((f) => f.target === target)
    .map((f) => ({ ...f, y: Math.max(f.nrmse, NRMSE_FLOOR) }));
  const maxC = Math.max(...front.map((f) => f.complexity));
  return Plot.plot({
    ariaLabel:
      `Pareto front of ${target}, complexity against train NRMSE: ` +
      front.map((f) => `${f.complexity}: ${nrmseText(f.nrmse)}${f.chosen ? " (chosen)" : ""}`).join(", "),
    width,
    height: 300,
    marginLeft: 50,
    marginRight: 20,
    marginTop: 30,
    marginBottom: 42,
    title: target,
    x: { label: "complexity →", domain: [0, maxC + 1], ticks: maxC + 1, tickFormat: "d" },
    y: {
      type: "log",
      label: "↑ train NRMSE",
      domain: [NRMSE_FLOOR / 10, 10],
      ticks: 6,
      tickFormat: (d) => `1e${Math.round(Math.log10(d))}`,
    },
    marks: [
      Plot.ruleY([NRMSE_FLOOR], { stroke: "gray", strokeDasharray: "4,3" }),
      Plot.line(front, { x: "complexity", y: "y", curve: "step-after", stroke: "currentColor", strokeOpacity: 0.4 }),
      Plot.dot(front, {
        x: "complexity",
        y: "y",
        r: 4.5,
        fill: (d) => (d.nrmse === 0 ? "green" : "steelblue"),
        stroke: "white",
      }),
      Plot.tip(
        front,
        Plot.pointer({
          x: "complexity",
          y: "y",
          title: (d) => `${d.text}\ncomplexity ${d.complexity}\nNRMSE ${nrmseText(d.nrmse)}`,
          // Long equations are cut with an ellipsis at about the chart's width (the full text is in the table below).
          lineWidth: Math.max(12, Math.floor(width / 11)),
        }),
      ),
    ],
  });
}

/** A small manifest line under a figure. */
export function manifestLine(
  data: { manifest: Record<string, unknown> & { git: string } },
  extra: Record<string, unknown> = {},
): HTMLElement {
  const m = data.manifest;
  const items = {
    seed: m.seed,
    experiment: m.experiment,
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

/**
 * Train and test NRMSE per output, the published run beside yours (log scale, an exact fit drawn
 * at the floor): `published` and `yours` are components/rerun.js outputsOf rows.
 */
export function nrmseChart(
  published: readonly NrmseRow[],
  yours: readonly NrmseRow[],
  { width = 420 } = {},
): SVGSVGElement | HTMLElement {
  const points = [
    ...published.map((o) => ({ ...o, run: "published" })),
    ...yours.map((o) => ({ ...o, run: "yours" })),
  ].flatMap((o) =>
    [
      { set: "train", value: o.trainNrmse },
      { set: "test", value: o.testNrmse },
    ]
      .filter((p): p is { set: string; value: number } => typeof p.value === "number" && Number.isFinite(p.value))
      .map((p) => ({ target: o.target, run: o.run, set: p.set, value: p.value, y: Math.max(p.value, NRMSE_FLOOR) })),
  );
  const targets = [...new Set(points.map((p) => p.target))];
  return Plot.plot({
    ariaLabel:
      "Train and test NRMSE per output, the published run and yours: " +
      points.map((p) => `${p.target} ${p.run} ${p.set} ${nrmseText(p.value)}`).join("; "),
    width,
    height: 70 + 26 * Math.max(1, targets.length) * 2,
    marginLeft: 44,
    marginRight: 44,
    caption: "NRMSE per output: the published run (circles) and yours (diamonds), on the training and the test set.",
    x: {
      type: "log",
      label: "NRMSE (exact fits at the floor) →",
      domain: [NRMSE_FLOOR / 10, 10],
      ticks: 4,
      tickFormat: (d) => `1e${Math.round(Math.log10(d))}`,
      grid: true,
    },
    y: { label: null, domain: targets },
    fy: { label: null, domain: ["train", "test"] },
    color: { ...RUN_COLORS, legend: true },
    symbol: { domain: ["published", "yours"], range: ["circle", "diamond2"] },
    marks: [
      Plot.frame({ stroke: "currentColor", strokeOpacity: 0.1 }),
      // Published a little above, yours a little below the output's line: equal values stay visible.
      Plot.dot(
        points.filter((p) => p.run === "published"),
        { x: "y", y: "target", fy: "set", stroke: "run", symbol: "run", r: 5, strokeWidth: 1.8, dy: -4 },
      ),
      Plot.dot(
        points.filter((p) => p.run === "yours"),
        { x: "y", y: "target", fy: "set", stroke: "run", symbol: "run", r: 5, strokeWidth: 1.8, dy: 4 },
      ),
      Plot.tip(
        points,
        Plot.pointer({
          x: "y",
          y: "target",
          fy: "set",
          title: (d) => `${d.target}, ${d.set} NRMSE (${d.run}): ${nrmseText(d.value)}`,
          lineWidth: Math.max(12, Math.floor(width / 11)),
        }),
      ),
    ],
  });
}

/** Your run's best train NRMSE after each episode, one line per output (drawn as the run goes). */
export function convergenceChart(
  progress: readonly { target: string; episode: number; nrmse: number }[],
  { width = 420 } = {},
): SVGSVGElement | HTMLElement {
  const points = progress.map((p) => ({ ...p, y: Math.max(Number.isFinite(p.nrmse) ? p.nrmse : 10, NRMSE_FLOOR) }));
  const last = Math.max(1, ...points.map((p) => p.episode));
  const lastOf = (t: string) => points.filter((p) => p.target === t).at(-1)!;
  return Plot.plot({
    ariaLabel:
      "Your run's best train NRMSE after each episode: " +
      [...new Set(points.map((p) => p.target))]
        .map((t) => `${t} ${nrmseText(lastOf(t).nrmse)} at episode ${lastOf(t).episode}`)
        .join("; "),
    width,
    height: 240,
    marginLeft: 50,
    marginRight: 16,
    caption: "Your run: the best train NRMSE after each episode, per output (drawn as the search goes).",
    x: { label: "episode →", domain: [1, Math.max(2, last)], tickFormat: "d", ticks: Math.min(6, last) },
    y: {
      type: "log",
      label: "↑ best train NRMSE",
      domain: [NRMSE_FLOOR / 10, 10],
      ticks: 5,
      tickFormat: (d) => `1e${Math.round(Math.log10(d))}`,
      grid: true,
    },
    color: { legend: true, label: "output" },
    marks: [
      Plot.line(points, { x: "episode", y: "y", z: "target", stroke: "target", curve: "step-after" }),
      Plot.dot(points, { x: "episode", y: "y", fill: "target", r: 2.5 }),
      Plot.tip(
        points,
        Plot.pointer({
          x: "episode",
          y: "y",
          title: (d) => `${d.target}, episode ${d.episode}: best ${nrmseText(d.nrmse)}`,
          lineWidth: Math.max(12, Math.floor(width / 11)),
        }),
      ),
    ],
  });
}
