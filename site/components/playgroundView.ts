// DOM pieces of the playground page: the Run and Stop buttons, the backend badge, the live progress
// of the current run, the notices (URL, plugins), the run log, the learned equations (KaTeX) and
// the JSON download. Every element that a test or a reader needs to find carries a data-*
// attribute mirroring what it shows.
import { html } from "htl";
import type { ResultJson } from "../lib/index.js";
import { ecText, nrmseText, progressLine, saveJson, tex, texName, unitName } from "../report/index.js";

export { progressLine };

const fmt = nrmseText;
/** E_c in %, or a dash where it does not apply (a model method has no coefficients). */
const ecPercent = (ec: number | null) => (ec === null ? "—" : `${ecText(ec)} %`);

/** The whole run's share done, as a bar, with the progress line. */
function overall(share, progress, seconds) {
  const outputs = progress?.targets > 1 ? ` ${progress.targets} outputs ×` : "";
  const episodes = progress?.episodes ?? "…";
  const note =
    progress?.unit && progress.unit !== "episode"
      ? ""
      : ` (at most${outputs} ${episodes} episodes; a search stops early once its equation fits)`;
  return html`<div class="pg-overall"><progress max="1" value=${share} style="width: 40%; max-width: 320px;"></progress>
    <small>run ${Math.round(share * 100)} %${note}</small>
    <div class="pg-progress-line"><small>${progressLine(progress, seconds)}</small></div></div>`;
}

/**
 * The Run and Stop buttons. `run()` starts a run of the controls as they are; Run is disabled
 * until `enable()` (the controls have all been built), Stop while no run is going (the runner's
 * subscribe says when). Returns the element, `enable` and the unsubscribe function.
 */
export function runButtons(runner, run) {
  const start = html`<button class="pg-run" type="button" disabled
    title="Run the search with the controls below">Run</button>`;
  const stop = html`<button class="pg-stop" type="button"
    title="Stop at the end of the current episode and keep the best so far">Stop</button>`;
  start.onclick = () => run();
  stop.onclick = () => runner.cancel();
  const unsubscribe = runner.subscribe(() => {
    stop.disabled = !runner.active;
  });
  const enable = () => {
    start.disabled = false;
  };
  return { element: html`<span class="pg-actions">${start} ${stop}</span>`, enable, unsubscribe };
}

/** Whether the controls differ from the newest run's: a reminder that they apply at the next Run. */
export function pendingNote(run, key) {
  if (!run) return html`<span class="pg-pending" data-pending="true"><small>Press <b>Run</b> to search.</small></span>`;
  if (run.key === key) return html`<span class="pg-pending" data-pending="false"></span>`;
  return html`<span class="pg-pending" data-pending="true"><small>The controls have changed since run #${
    run.id
  }: press <b>Run</b> to search with them.</small></span>`;
}

/** One line, or nothing: the URL parameters that were ignored. */
export function urlNotice(text) {
  return text ? html`<p class="pg-url-notice" style="color: darkorange">${text}</p>` : html`<span></span>`;
}

/** The outcome of the last plugin file chosen (its one error line, if it failed), and the plugins loaded so far. */
export function pluginNotice(load, plugins) {
  const error = load?.error ? html`<p class="pg-plugin-error" style="color: crimson">error: ${load.error}</p>` : "";
  const loaded = plugins.length
    ? html`Loaded: ${plugins.map((p, i) => html`${i ? ", " : ""}${p.kind} <code>${p.name}</code>`)}.`
    : "No plugin loaded.";
  const passed =
    load && !load.error
      ? ` ${load.file}: ${load.plugins.length} plugin${load.plugins.length === 1 ? "" : "s"} passed the checks.`
      : "";
  const names = plugins.map((p) => p.name).join(",");
  return html`<div>${error}<p class="pg-plugins" data-plugins=${names}><small>${loaded}${passed}</small></p></div>`;
}

/** What a run fits on, in words: "js (float64)" or "tfjs webgl". */
export const engineName = (run) => (run.engine === "js" ? "js (float64)" : `tfjs ${run.backend}`);

/**
 * What the newest started run fits on (the js engine, or tfjs and its live backend) and, if the
 * preferred backend failed, why. data-engine and data-backend name what ran.
 */
export function backendBadge(run) {
  if (run.error) return html`<p class="pg-backend" data-backend="none" style="color: crimson">tfjs: ${run.error}</p>`;
  const what =
    run.engine === "js"
      ? html`fit engine: <b>js</b> (float64) <small>· tfjs backend ${run.backend}, holding data only</small>`
      : html`fit engine: <b>tfjs</b> · tfjs backend: <b>${run.backend}</b>`;
  return html`<p class="pg-backend" data-engine=${run.engine} data-backend=${run.backend}>${what}${
    run.why ? html` <small>(${run.why})</small>` : ""
  }${
    run.failures.length
      ? html` <small>(${run.failures.map((f) => `${f.backend} failed: ${f.reason}`).join("; ")})</small>`
      : ""
  }</p>`;
}

const ms = (seconds) => (seconds === null ? "—" : `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 1)} ms`);
const entryName = (e) => (e.engine === "js" ? "js (float64)" : `tfjs ${e.backend}`);

/** In the status bar while the calibration runs (before the first run): what the wait is for. */
export function calibratingNote(state) {
  if (state.status !== "running") return html`<span class="pg-calibrating" data-status=${state.status}></span>`;
  const done = state.entries.map((e) => entryName(e)).join(", ");
  return html`<p class="pg-calibrating" data-status="running"><small>Calibrating before the first run: timing one
    fit on js and each tfjs backend${done ? ` (done: ${done})` : ""}…</small></p>`;
}

/**
 * The page's calibration (src/lib/api/calibrate.ts): one fit timed on each engine, the fastest
 * chosen. One row per engine (data-engine, data-backend, data-seconds: the median fit, "" when it
 * did not run); the table's data-choice is the chosen engine ("js" or "tfjs") and data-backend
 * the backend it leaves live.
 */
export function calibrationView(state) {
  if (state.status === "idle")
    return html`<div class="pg-calibration" data-status="idle" data-cached="false"><small>Calibration: measured
      before the first run with the engine on auto (a short fit timed on each engine, at most 2 s), then kept in
      this browser.</small></div>`;
  const choice = state.calibration?.choice;
  const chosen = (e) =>
    choice && e.engine === choice.engine && (e.engine === "js" || e.backend === choice.backend) && e.seconds !== null;
  const rows = state.entries.map(
    (e) => html`<tr data-engine=${e.engine} data-backend=${e.backend} data-seconds=${e.seconds ?? ""}
      data-warmup=${e.warmup ?? ""} style=${chosen(e) ? "font-weight: 600" : ""}>
      <td>${entryName(e)}</td><td>${ms(e.seconds)}</td><td>${ms(e.warmup)}</td>
      <td>${e.error ? html`<small>${e.error}</small>` : chosen(e) ? "chosen" : ""}</td></tr>`,
  );
  const c = state.calibration;
  const setup = c ? `${c.rows} rows, ${c.steps} Adam steps + LM, median of ${c.rounds}` : "";
  const head =
    state.status === "running"
      ? html`<b>Calibrating</b>: timing one fit on js and each tfjs backend…`
      : state.status === "error"
        ? html`<span style="color: crimson">Calibration failed (${state.error}); the fits run on js.</span>`
        : state.cached
          ? html`Calibration kept in this browser (measured ${state.measuredAt?.slice(0, 10)} for this version and
            build, ${setup}; ${state.seconds.toFixed(1)} s then): <b>${entryName(choice)}</b> is fastest here; not
            measured again.`
          : html`Calibration (${setup}; ${state.seconds.toFixed(1)} s in all, at most 2 s once loaded):
            <b>${entryName(choice)}</b> is fastest here.`;
  return html`<div class="pg-calibration" data-status=${state.status} data-cached=${state.cached ? "true" : "false"}
    data-choice=${choice?.engine ?? ""}
    data-backend=${choice?.backend ?? ""} data-seconds=${state.seconds?.toFixed(3) ?? ""}>
    <p style="margin: 0.25rem 0;">${head}</p>
    <table style="font-size: 13px; max-width: 640px;">
      <thead><tr><th>engine</th><th>one fit (median)</th><th>warm-up</th><th></th></tr></thead>
      <tbody>${rows}</tbody>
    </table>
    <p style="margin: 0.25rem 0;"><small>A result of the js engine reproduces bit for bit in Node
      (<code>consolesr reproduce</code>, tolerance 10⁻⁹); one of a tfjs backend, which computes in float32,
      only within float32 tolerance (10⁻⁴).</small></p>
  </div>`;
}

const statusColor = {
  waiting: "gray",
  running: "steelblue",
  done: "green",
  stopped: "darkorange",
  cancelled: "darkorange",
  error: "crimson",
};

function targetRow(t) {
  const { budget } = t;
  const max = t.episodes;
  return html`<div class="pg-target" data-target=${t.target} data-episode=${t.episode}
    data-structures=${t.structures} data-nrmse=${t.bestNrmse}>
    <div class="pg-target-head"><b>${t.target}</b> ${unitName(t.unit, 1)} ${t.episode} of at most ${max}${
      budget ? `, budget ${budget}` : ""
    } ·
      ${
        t.unit && t.unit !== "episode" ? "" : `${t.structures} structure${t.structures === 1 ? "" : "s"} fitted · `
      }best NRMSE ${fmt(t.bestNrmse)}${t.stopReason ? html` · <i>${t.stopReason}</i>` : ""}</div>
    <div class="pg-best"><small>best so far: <code>${t.bestText}</code></small></div>
  </div>`;
}

/**
 * Status and progress of the newest run: the share done from the runtime module's `progress`
 * cell, then one line per target.
 */
export function runStatus(run, progress: { fraction: number } | null = null) {
  if (!run) return html`<div class="pg-status" data-status="idle">No run yet.</div>`;
  const episodes = run.targets.reduce((s, t) => s + t.episode, 0);
  const share =
    run.status === "done"
      ? 1
      : (run.status === "running" || run.status === "stopped") && progress
        ? progress.fraction
        : null;
  return html`<div class="pg-status" data-run=${run.id} data-status=${run.status} data-episodes=${episodes}
    data-seconds=${run.seconds.toFixed(3)}>
    <p><b>Run #${run.id}</b> <span style="color: ${statusColor[run.status]}; font-weight: 600;">${run.status}</span>
      ${run.backend ? `on ${engineName(run)}` : ""} · ${run.seconds.toFixed(1)} s · <small>${run.label}</small></p>
    ${run.error ? html`<p class="pg-error" style="color: crimson">error: ${run.error}</p>` : ""}
    ${share === null ? "" : overall(share, progress, run.seconds)}
    ${run.targets.map((t) => targetRow(t))}
  </div>`;
}

/** Every run of this page visit, newest first. */
export function runLog(runs) {
  return html`<table class="pg-log" style="max-width: 900px; font-size: 13px;">
    <thead><tr><th>run</th><th>status</th><th>episodes</th><th>seconds</th><th>fit on</th><th>config</th></tr></thead>
    <tbody>${runs
      .slice()
      .reverse()
      .map(
        (r) => html`<tr data-run=${r.id} data-status=${r.status}
          data-episodes=${r.targets.reduce((s, t) => s + t.episode, 0)} data-engine=${r.engine}
          data-backend=${r.backend}>
      <td>#${r.id}</td><td style="color: ${statusColor[r.status]}">${r.status}</td>
      <td>${r.targets.map((t) => `${t.target} ${t.episode}`).join(", ") || "—"}</td>
      <td>${r.status === "waiting" ? "" : r.seconds.toFixed(1)}</td>
      <td>${r.backend ? (r.engine === "js" ? "js" : `tfjs ${r.backend}`) : ""}</td><td>${r.label}</td></tr>`,
      )}</tbody>
  </table>`;
}

/** The learned equations of a finished run, rendered with KaTeX, with the evaluation if any. */
export function equationsView(result: ResultJson) {
  const evaluation = new Map((result.evaluation ?? []).map((e) => [e.target, e]));
  // The noise estimate the search stopped at (one record for one target, per target for several).
  const noise = result.search?.noise;
  const noiseOf = (target: string) =>
    Array.isArray(noise) ? noise.find((n) => n.target === target) : result.equations.length === 1 ? noise : undefined;
  return html`<div class="pg-equations">${result.equations.map((e) => {
    const ev = evaluation.get(e.target);
    const floor = noiseOf(e.target);
    return html`<div class="pg-equation" data-target=${e.target} data-latex=${e.latex} data-text=${e.text}
      data-noise=${floor?.nrmse ?? ""}>
      ${tex(`${texName(e.target)} = ${e.latex || "0"}`, { displayMode: true })}
      <p class="pg-equation-meta"><small>train NRMSE ${fmt(e.trainNrmse)}${
        floor ? html` · <span class="pg-noise" title=${floor.method}>noise estimate ${fmt(floor.nrmse)}</span>` : ""
      }${
        ev
          ? html` · truth <code>${ev.truth}</code> · <span style="color: ${ev.exact ? "green" : "crimson"}">${
              ev.exact ? "exact" : `not exact (${ev.reason})`
            }</span> · E_c ${ecPercent(ev.coefficientError)} · test NRMSE ${fmt(ev.testNrmse)}`
          : ""
      }</small></p>
    </div>`;
  })}</div>`;
}

/**
 * Each target's Pareto front of a finished run (the result's search.front), as `consolesr fit
 * --front` prints it: complexity, train NRMSE, score (the answer rule's, relative to the front's
 * lowest; under noise the answer is the simplest within 2 of it) and the equation, the answer's
 * row marked. Empty for a run whose result has no front.
 */
export function frontView(result) {
  const front = result.search?.front ?? [];
  if (front.length === 0) return html`<div class="pg-front-table" data-rows="0"></div>`;
  const targets = [...new Set(front.map((f) => f.target))];
  // Scrolls inside its own box on a narrow screen: long equations never widen the page.
  const box = "overflow-x: auto; max-width: 100%;";
  return html`<div class="pg-front-table" data-rows=${front.length} style=${box}>${targets.map(
    (target) => html`<table style="max-width: 900px; font-size: 13px;" data-target=${target}>
      <caption style="text-align: left"><small>Pareto front of ${target}</small></caption>
      <thead><tr><th></th><th>complexity</th><th>train NRMSE</th><th>score</th><th>equation</th></tr></thead>
      <tbody>${front
        .filter((f) => f.target === target)
        .map(
          (f) => html`<tr class="pg-front-row" data-target=${target} data-complexity=${f.complexity}
            data-chosen=${f.chosen ? "true" : "false"} data-text=${f.text}
            style=${f.chosen ? "font-weight: bold" : ""}>
            <td>${f.chosen ? "answer" : ""}</td><td>${f.complexity}</td><td>${fmt(f.nrmse)}</td>
            <td>${f.score === undefined ? "—" : f.score.toFixed(1)}</td><td><code>${f.text}</code></td></tr>`,
        )}</tbody></table>`,
  )}</div>`;
}

/** A button that saves `text` as `filename` (the version-1 result JSON). */
export function downloadButton(text, filename) {
  const button = html`<button class="pg-download" type="button" data-filename=${filename}>Download JSON</button>`;
  button.onclick = () => saveJson(text, filename);
  return button;
}
