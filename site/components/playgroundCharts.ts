// The playground's live charts, redrawn as a run goes (a run record of playground.ts: `rewards`,
// `fits`, `front`): the reward of each episode, and every fitted structure's complexity against its
// train NRMSE with the Pareto front. Each chart's wrapper carries its data as data-* attributes
// for a reader or a test. Explicit imports only: the implicit globals would come from a CDN.
import * as Plot from "@observablehq/plot";
import { html } from "htl";

/** Where NRMSE 0 (an exact fit) is drawn on the log axis. */
const NRMSE_FLOOR = 1e-16;
const floored = (nrmse) => Math.max(nrmse, NRMSE_FLOOR);

const empty = (text) => html`<p class="pg-chart-empty"><small>${text}</small></p>`;

/** Whole-number ticks from 0 to `max` (about ten of them), for episodes and complexities. */
function wholeTicks(max) {
  const step = Math.max(1, Math.ceil(max / 10));
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
}

/** [lo, hi] around `values` that is never a single point (a run's first episode). */
function spread(values, pad) {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? pad(lo) : [lo, hi];
}

/** Reward per episode, one line per target. */
export function rewardChart(run, { width = 640 } = {}) {
  const points = run?.rewards ?? [];
  const wrapper = html`<div class="pg-chart pg-rewards" data-run=${run?.id ?? ""} data-points=${points.length}
    data-rewards=${JSON.stringify(points.map((p) => p.reward))}></div>`;
  if (points.length === 0) {
    wrapper.append(empty("Reward per episode: no episode yet."));
    return wrapper;
  }
  const targets = new Set(points.map((p) => p.target));
  const last = Math.max(...points.map((p) => p.episode)) + 1;
  wrapper.append(
    Plot.plot({
      ariaLabel: `Reward per episode of ${[...targets].join(", ")}: ${points.length} episodes, last reward ${points
        .at(-1)
        .reward.toFixed(3)}`,
      width,
      height: 260,
      marginLeft: 50,
      x: { label: "episode →", domain: [0, last], ticks: wholeTicks(last), tickFormat: "d" },
      y: {
        label: "↑ reward",
        grid: true,
        nice: true,
        domain: spread(
          points.map((p) => p.reward),
          (r) => [Math.min(0, r), Math.max(1, r)],
        ),
      },
      color: { legend: targets.size > 1, label: "output" },
      marks: [
        Plot.line(points, { x: "episode", y: "reward", stroke: "target", z: "target", strokeWidth: 1.2 }),
        Plot.dot(points, { x: "episode", y: "reward", fill: "target", r: 2, tip: true }),
      ],
    }),
  );
  return wrapper;
}

/** Complexity against train NRMSE: every fitted structure (gray) and the Pareto front per target. */
export function frontChart(run, { width = 640 } = {}) {
  const fits = (run?.fits ?? []).filter((f) => Number.isFinite(f.nrmse));
  const front = (run?.front ?? []).filter((f) => Number.isFinite(f.nrmse));
  const wrapper = html`<div class="pg-chart pg-front" data-run=${run?.id ?? ""} data-fits=${fits.length}
    data-front=${JSON.stringify(run?.front ?? [])}></div>`;
  if (fits.length === 0) {
    wrapper.append(empty("Pareto front: no structure fitted yet."));
    return wrapper;
  }
  const targets = new Set(front.map((f) => f.target));
  const widest = Math.max(...fits.map((f) => f.complexity)) + 1;
  wrapper.append(
    Plot.plot({
      ariaLabel: `Complexity against train NRMSE: ${fits.length} fitted structures, a front of ${front.length}`,
      width,
      height: 260,
      marginLeft: 60,
      x: { label: "complexity →", grid: true, domain: [0, widest], ticks: wholeTicks(widest), tickFormat: "d" },
      y: {
        type: "log",
        label: `↑ train NRMSE (0 drawn at ${NRMSE_FLOOR})`,
        grid: true,
        nice: true,
        domain: spread(
          fits.map((f) => floored(f.nrmse)),
          (v) => [v / 10, v * 10],
        ),
      },
      color: { legend: targets.size > 1, label: "output" },
      marks: [
        Plot.dot(fits, { x: "complexity", y: (f) => floored(f.nrmse), fill: "#bbb", r: 2.5 }),
        Plot.line(front, {
          x: "complexity",
          y: (f) => floored(f.nrmse),
          stroke: "target",
          z: "target",
          curve: "step-after",
        }),
        Plot.dot(front, { x: "complexity", y: (f) => floored(f.nrmse), fill: "target", r: 4, tip: true }),
      ],
    }),
  );
  return wrapper;
}
