// Charts for the experiment pages (syn1, …): reward per episode and the Pareto front per output.
// Explicit imports only: the implicit globals would be fetched from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";

/** The floor under NRMSE on a log axis: an exact fit has NRMSE 0. */
export const NRMSE_FLOOR = 1e-17;

/** Reward per episode, one line per output; the last point of each line is labelled. */
export function rewardChart(data, { width = 640 } = {}) {
  const points = data.outputs.flatMap((o) =>
    o.rewards.map((reward, i) => ({ target: o.target, episode: i + 1, reward })),
  );
  const ends = data.outputs.map((o) => ({
    target: o.target,
    episode: o.rewards.length,
    reward: o.rewards[o.rewards.length - 1],
  }));
  return Plot.plot({
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
      Plot.line(points, { x: "episode", y: "reward", stroke: "target", strokeWidth: 1.5 }),
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
          title: (d) => `${d.target}, episode ${d.episode}\nreward ${d.reward}`,
        }),
      ),
    ],
  });
}

/** The Pareto front of one output: complexity vs train NRMSE (log y, NRMSE floored). */
export function frontChart(data, target, { width = 300 } = {}) {
  const front = data.front.filter((f) => f.target === target).map((f) => ({ ...f, y: Math.max(f.nrmse, NRMSE_FLOOR) }));
  const maxC = Math.max(...front.map((f) => f.complexity));
  return Plot.plot({
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
          title: (d) => `${d.text}\ncomplexity ${d.complexity}\nNRMSE ${d.nrmse}`,
        }),
      ),
    ],
  });
}

/** A small manifest line under a figure. */
export function manifestLine(data, extra = {}) {
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
