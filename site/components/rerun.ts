// "Re-run with…": the form and the live run every report page shares. The page's published result
// (committed, or made at build time) is shown first; the form (bounded inputs and an explicit Run
// button) runs one configuration live in this browser, in a Web Worker (searchWorker.ts, through
// searchClient.ts: the page answers clicks while it runs), through the library's runtime module (the
// module `consolesr reproduce` runs headless: src/lib/api/runtime.ts), and the equations (KaTeX), the
// comparison table and the charts update in place, published beside yours. Stop ends the run at its
// next episode, epoch or batch and keeps its best so far, shown and downloadable. The worker (and
// the library, and tfjs) is started only when Run is pressed, so a page that is only read stays light.
//
// Hooks for readers and tests: .rerun[data-experiment], .rerun-run, .rerun-stop,
// .rerun-status[data-status], .rerun-equation[data-which="published"|"yours"][data-target],
// .rerun-download[data-which], .rerun-playground.
import { html } from "htl";
import { convergenceChart, nrmseChart } from "./experimentCharts.js";
import { ecText, nrmseText } from "./format.js";
import { tex } from "./katex.js";
import { chartWidth, scrollX } from "./layout.js";
import { saveJson } from "./playgroundView.js";
import { progressLine } from "./progressLine.js";
import { SearchWorker, type WorkerRun } from "./searchClient.js";
import { playgroundLink } from "./playgroundLink.js";

/** The SNRs the forms offer (dB; null: noiseless, the published runs' setting). */
export const SNR_CHOICES = [null, 60, 40, 20];
/** Seeds are 32-bit (src/lib/core/rng.ts). */
export const SEED_MAX = 4294967295;

const snrName = (v) => (v === null ? "none" : `${v} dB`);

/** The fields a form can have; each page picks its own, with its own defaults and caps. */
export const field = {
  seed: (value = 0) => ({ name: "seed", label: "seed", kind: "integer", min: 0, max: SEED_MAX, value }),
  rows: (value, max, min = 10) => ({ name: "rows", label: "rows", kind: "integer", min, max, value }),
  snr: (value = null) => ({
    name: "snr",
    label: "noise SNR",
    kind: "choice",
    choices: SNR_CHOICES,
    format: snrName,
    value,
  }),
  method: (methods, value = "consolesr") => ({
    name: "method",
    label: "method",
    kind: "choice",
    choices: methods,
    value,
  }),
  episodes: (value, max) => ({ name: "episodes", label: "episodes per output", kind: "integer", min: 1, max, value }),
  budget: (value, max, min = 0) => ({
    name: "budget",
    label: min === 0 ? "budget (structures, 0: none)" : "budget (structures)",
    kind: "integer",
    min,
    max,
    value,
  }),
  choice: (name, label, choices, value, format: (value: any) => string = String) => ({
    name,
    label,
    kind: "choice",
    choices,
    value,
    format,
  }),
};

const texTarget = (name) => name.replace(/^([A-Za-z]+)_?(\d+)$/, "$1_{$2}");
const sci = nrmseText;
const percent = ecText;
const yesNo = (v) => (v === undefined || v === null ? "—" : v ? "yes" : "no");

/** Per output of a version-1 result: its equation, evaluation and search, the row the table shows. */
export function outputsOf(result) {
  if (!result) return [];
  return result.equations.map((e) => {
    const evaluation = result.evaluation?.find((q) => q.target === e.target);
    const search = result.search?.targets?.find((q) => q.target === e.target);
    return {
      target: e.target,
      latex: e.latex,
      text: e.text,
      trainNrmse: e.trainNrmse,
      testNrmse: evaluation?.testNrmse,
      exact: evaluation?.exact,
      coefficientError: evaluation?.coefficientError,
      episodes: search?.episodes,
      structures: search?.structures,
      stopReason: search?.stopReason,
    };
  });
}

/** A bounded input: a number with min, max and step 1, or a select. */
function control(f) {
  if (f.kind === "integer") {
    const input = html`<input type="number" name=${f.name} min=${f.min} max=${f.max} step="1"
      value=${f.value} required>`;
    return { element: html`<label>${f.label}${input}</label>`, input };
  }
  const input = html`<select name=${f.name}>${f.choices.map(
    (c, i) =>
      html`<option value=${i} selected=${JSON.stringify(c) === JSON.stringify(f.value)}>${(f.format ?? String)(
        c,
      )}</option>`,
  )}</select>`;
  return { element: html`<label>${f.label}${input}</label>`, input };
}

/** The form's values, or the first problem as "field: rule". */
function readValues(fields, controls) {
  const values = {};
  for (const f of fields) {
    const input = controls[f.name].input;
    if (f.kind === "integer") {
      const v = Number(input.value);
      if (input.value.trim() === "" || !Number.isInteger(v) || v < f.min || v > f.max)
        return { error: `${f.label}: an integer from ${f.min} to ${f.max} (got "${input.value}")` };
      values[f.name] = v;
    } else values[f.name] = f.choices[Number(input.value)];
  }
  return { values };
}

/** What a live run was: its seed, rows, noise and method (from its manifest), and the engine it ran on. */
function yoursLabel({ seed, config }, engine: string) {
  const noise = config.snrDb === null || config.snrDb === undefined ? "" : `, ${config.snrDb} dB`;
  return `seed ${seed}, ${config.rows} rows${noise}, ${config.method}${engine ? `, ${engine}` : ""}`;
}

/** The comparison table: per output, the published and your equation and numbers. */
function comparisonTable(published, yours, engine = "") {
  const pub = outputsOf(published?.result);
  const mine = outputsOf(yours);
  const targets = [...new Set([...pub.map((o) => o.target), ...mine.map((o) => o.target)])];
  const pair = (f, target) => {
    const a = pub.find((o) => o.target === target);
    const b = mine.find((o) => o.target === target);
    return `${a ? f(a) : "—"} / ${b ? f(b) : "—"}`;
  };
  const equation = (o, which, target) =>
    html`<td class="rerun-equation" data-which=${which} data-target=${target}>${
      o ? (o.latex ? tex(o.latex) : html`<code>${o.text}</code>`) : "—"
    }</td>`;
  return html`<table class="rerun-table" style="font-size: 13px;">
<thead><tr><th>output</th><th>published${published ? html`<br><small>${published.label}</small>` : ""}</th>
<th>yours${yours ? html`<br><small>${yoursLabel(yours.manifest, engine)}</small>` : ""}</th>
<th>exact</th><th>E_c (%)</th><th>test NRMSE</th><th>train NRMSE</th><th>episodes · structures</th></tr>
<tr><th></th><th></th><th></th><th colspan="5"><small>published / yours</small></th></tr></thead>
<tbody>${targets.map(
    (t) => html`<tr data-target=${t}><td>${tex(texTarget(t))}</td>
${equation(
  pub.find((o) => o.target === t),
  "published",
  t,
)}${equation(
  mine.find((o) => o.target === t),
  "yours",
  t,
)}
<td class="pair">${pair((o) => yesNo(o.exact), t)}</td>
<td class="pair">${pair((o) => percent(o.coefficientError), t)}</td>
<td class="pair">${pair((o) => sci(o.testNrmse), t)}</td><td class="pair">${pair((o) => sci(o.trainNrmse), t)}</td>
<td class="pair">${pair((o) => (o.episodes === undefined ? "—" : `${o.episodes} · ${o.structures}`), t)}</td></tr>`,
  )}</tbody></table>`;
}

/**
 * The section. `spec`: experiment (a name for data-experiment), fields (from `field`), options(values)
 * → the pipeline's options (resolvePipelineConfig), command(values) → the equivalent CLI line,
 * playground(values) → the playground's parameters by its names (playgroundLink), published(values) → {label, result,
 * text, filename} or null (the committed or build-time result for those values), filename(values)
 * → the live result's download name, git (recorded in the live run's manifest), note (what the live
 * run caps, and why).
 */
export function rerun(spec) {
  const controls = Object.fromEntries(spec.fields.map((f) => [f.name, control(f)]));
  const runButton = html`<button type="submit" class="rerun-run">Run</button>`;
  const stopButton = html`<button type="button" class="rerun-stop" disabled>Stop</button>`;
  const form = html`<form>${spec.fields.map((f) => controls[f.name].element)}${runButton}${stopButton}</form>`;
  const status = html`<p class="rerun-status" data-status="idle" aria-live="polite">
    Not run yet: the table shows the published result.</p>`;
  const command = html`<code class="rerun-command"></code>`;
  const playground = html`<a class="rerun-playground" href="./playground">open in playground</a>`;
  const downloadPublished = html`<button type="button" class="rerun-download" data-which="published">
    download published JSON</button>`;
  const downloadYours = html`<button type="button" class="rerun-download" data-which="yours" disabled>
    download your JSON</button>`;
  const table = html`<div class="scroll-x rerun-comparison"></div>`;
  const charts = html`<div class="rerun-charts"></div>`;
  const root = html`<section class="rerun" data-experiment=${spec.experiment}>
<h3 style="margin-top: 0;">Re-run with…</h3>
${form}
${spec.note ? html`<p class="rerun-note">${spec.note}</p>` : ""}
<p class="rerun-note">Command line: ${command}</p>
<div class="rerun-actions">${playground}${downloadPublished}${downloadYours}</div>
${status}${table}${charts}</section>`;

  let yours: import("../lib/index.js").ResultJson | null = null;
  let yoursText: string | null = null;
  let yoursValues = null;
  let progress: { target: string; episode: number; nrmse: number }[] = [];
  let yoursEngine = "";
  let current: { handle: WorkerRun | null; done: Promise<void> | null } | null = null;

  const valuesNow = () => readValues(spec.fields, controls).values ?? null;
  const publishedNow = () => {
    const values = valuesNow();
    return values ? spec.published(values) : null;
  };
  const width = () => chartWidth((root.clientWidth || 700) - 40, { min: 300, max: 460 });

  function redraw() {
    const published = publishedNow();
    table.replaceChildren(comparisonTable(published, yours, yoursEngine));
    const parts = [nrmseChart(outputsOf(published?.result), outputsOf(yours), { width: width() })];
    if (progress.length) parts.push(convergenceChart(progress, { width: width() }));
    charts.replaceChildren(...parts.map(scrollX));
    downloadPublished.disabled = !published?.text;
  }

  function describeInputs() {
    const values = valuesNow();
    if (!values) return;
    command.textContent = spec.command(values);
    playground.href = playgroundLink(spec.playground(values));
  }

  function setStatus(state, text) {
    status.dataset.status = state;
    status.textContent = text;
  }

  /** The form's search worker, started at the first Run (a page that is only read loads no library). */
  let worker: SearchWorker | null = null;

  async function run(values) {
    const previous = current;
    previous?.handle?.stop();
    const job: { handle: WorkerRun | null; done: Promise<void> | null } = { handle: null, done: null };
    current = job;
    job.done = (async () => {
      await previous?.done;
      if (current !== job) return;
      progress = [];
      setStatus("running", "Starting the search worker (it loads the library)…");
      stopButton.disabled = false;
      let engine = "";
      let last = 0;
      worker ??= new SearchWorker();
      const handle = worker.run(
        { kind: "options", options: spec.options(values), backend: "cpu", plugins: [], git: spec.git, fits: false },
        {
          onStarted: (m) => {
            engine = m.engine === "js" ? "js (float64)" : `tfjs ${m.backend}`;
            setStatus("running", `Running in a worker on ${engine}…`);
          },
          onEpisode: (e) => {
            progress.push({ target: e.target, episode: e.episode, nrmse: e.bestNrmse });
          },
          onProgress: (m) => {
            const now = performance.now();
            if (now - last < 250) return;
            last = now;
            setStatus("running", `Running in a worker on ${engine}: ${progressLine(m.progress, m.seconds)}`);
            if (progress.length) redraw();
          },
        },
      );
      job.handle = handle;
      const outcome = await handle.done;
      const seconds = outcome.seconds.toFixed(1);
      if (outcome.result && (outcome.status === "done" || outcome.status === "stopped")) {
        yours = outcome.result;
        yoursText = outcome.text ?? null;
        yoursValues = values;
        yoursEngine = engine;
        downloadYours.disabled = yoursText === null;
      }
      if (outcome.status === "done") setStatus("done", `Done in ${seconds} s on ${engine}: ${spec.command(values)}`);
      else if (outcome.status === "stopped")
        setStatus("stopped", `Stopped after ${seconds} s on ${engine}: the table shows the best found so far.`);
      else if (outcome.status === "cancelled")
        setStatus("cancelled", `Stopped after ${seconds} s before a result; the table keeps your previous run.`);
      else {
        // A bad setting is the library's one-line message; anything else says it is ours.
        const kind = outcome.input || outcome.error?.startsWith("internal error") ? "" : "internal error: ";
        setStatus("error", `error: ${kind}${outcome.error}`);
      }
      if (current === job) stopButton.disabled = true;
      redraw();
    })();
    return job.done;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const { values, error } = readValues(spec.fields, controls);
    if (error) {
      setStatus("error", `error: ${error}`);
      return;
    }
    void run(values);
  });
  form.addEventListener("input", () => {
    describeInputs();
    redraw();
  });
  stopButton.addEventListener("click", () => current?.handle?.stop());
  downloadPublished.addEventListener("click", () => {
    const published = publishedNow();
    if (published?.text) saveJson(published.text, published.filename);
  });
  downloadYours.addEventListener("click", () => {
    if (yoursText) saveJson(yoursText, spec.filename(yoursValues));
  });
  describeInputs();
  redraw();
  // Charts are sized from the section's width once it is in the page.
  requestAnimationFrame(redraw);
  return root;
}

/** `npx consolesr run …` with the flags a form sets (the CLI's names: the same run in a terminal). */
export function runCommand(experiment, v) {
  const flags = [
    `--seed ${v.seed}`,
    v.rows === undefined ? "" : `--rows ${v.rows}`,
    v.snr === null || v.snr === undefined ? "" : `--snr ${v.snr}`,
    v.symbols ? `--symbols ${v.symbols.join(",")}` : "",
    `--method ${v.method}`,
    `--episodes ${v.episodes}`,
    `--budget ${v.budget}`,
  ].filter(Boolean);
  return `npx consolesr run ${experiment} ${flags.join(" ")} --out ${experiment}.json`;
}

/**
 * The section for one of the paper's experiments (toy, syn1, syn2, pow, mas): seed, noise, rows,
 * method, episodes and budget (and, with `pools`, the symbol pool), defaulting to the published
 * run's settings; `caps` bound rows, episodes and budget ({rows, episodes, budget, minBudget}: a
 * slow experiment caps them lower than the CLI and demands a budget, and `note` says so).
 * `published` is {label, text, filename} of the published run's
 * version-1 JSON (committed, or made at build time), or a function of the chosen pool giving one.
 */
export function experimentRerun({
  experiment,
  published,
  methods,
  git,
  caps,
  defaults = {} as Record<string, any>,
  pools,
  note,
}) {
  const parsed = new Map();
  const parse = (p) => {
    if (!p) return null;
    if (!parsed.has(p.text)) parsed.set(p.text, { ...p, result: JSON.parse(p.text) });
    return parsed.get(p.text);
  };
  const publishedFor = typeof published === "function" ? (pool) => parse(published(pool)) : () => parse(published);
  const base = publishedFor(pools?.value)?.result.manifest;
  const config: Record<string, any> = base?.config ?? {};
  const fields = [
    field.seed(defaults.seed ?? base?.seed ?? 0),
    field.snr(defaults.snr ?? config.snrDb ?? null),
    field.rows(Math.min(defaults.rows ?? config.rows ?? caps.rows, caps.rows), caps.rows),
    ...(pools ? [field.choice("symbols", "pool", pools.choices, pools.value, (p) => `{${p.join(", ")}}`)] : []),
    field.method(methods, defaults.method ?? config.method ?? "consolesr"),
    field.episodes(Math.min(defaults.episodes ?? config.episodes ?? 600, caps.episodes), caps.episodes),
    field.budget(
      Math.max(caps.minBudget ?? 0, Math.min(defaults.budget ?? config.budget ?? 0, caps.budget)),
      caps.budget,
      caps.minBudget ?? 0,
    ),
  ];
  return rerun({
    experiment,
    fields,
    note,
    git,
    options: (v) => ({
      experiment,
      seed: v.seed,
      rows: v.rows,
      snrDb: v.snr ?? undefined,
      symbols: v.symbols,
      method: v.method,
      search: { episodes: v.episodes, budget: v.budget },
    }),
    command: (v) => runCommand(experiment, v),
    playground: (v) => ({
      dataset: experiment,
      seed: v.seed,
      snr: v.snr,
      rows: v.rows,
      method: v.method,
      budget: v.budget,
      episodes: v.episodes,
      symbols: v.symbols,
    }),
    published: (v) => publishedFor(v.symbols),
    filename: (v) => `${experiment}-seed${v.seed}-live.json`,
  });
}

/** A search-benchmark run record (bench/searchSuite.ts) as the parts of a version-1 result the table reads. */
function recordAsResult(r) {
  return {
    equations: [{ target: "y", text: r.learned, latex: null, trainNrmse: r.trainNrmse }],
    evaluation: [{ target: "y", exact: r.exact, coefficientError: r.coefficientError, testNrmse: r.testNrmse }],
    search: { targets: [{ target: "y", episodes: r.episodes, structures: r.structures, stopReason: r.stopReason }] },
  };
}

/**
 * The search benchmark's section: one cell (equation × method × seed, at one noise level) of the
 * benchmark files `suites` (bench/searchSuite.ts output, all of one mode and row count), re-run
 * live through the pipeline (`consolesr run <id>`: the entry's pool and size, the same data draw,
 * stop rule and budget) beside the published run of that cell.
 */
export function benchmarkRerun({ suites, git }) {
  const [first] = suites;
  const m = first.manifest;
  const noises = suites.flatMap((s) => s.manifest.noise);
  const recordOf = (v) =>
    suites
      .flatMap((s) => s.runs)
      .find((r) => r.equation === v.equation && r.method === v.method && r.seed === v.seed && r.snrDb === v.snr) ??
    null;
  // The stop rule of a noise level, as the benchmark ran it (every record carries its own).
  const stopOf = (snr) => suites.flatMap((s) => s.runs).find((r) => r.snrDb === snr)?.stopNrmse ?? 1e-6;
  const fields = [
    field.choice(
      "equation",
      "equation",
      first.equations.map((e) => e.id),
      first.equations[0].id,
      (id) => first.equations.find((e) => e.id === id)?.name ?? id,
    ),
    field.choice("snr", "noise SNR", noises, noises[0], snrName),
    field.method(m.methods, m.methods[0]),
    field.seed(m.seeds[0]),
    field.budget(m.budget, m.budget, 1),
  ];
  const options = (v) => ({
    experiment: v.equation,
    seed: v.seed,
    rows: m.rows,
    snrDb: v.snr ?? undefined,
    method: v.method,
    search: { episodes: m.episodes, budget: v.budget, stopNrmse: stopOf(v.snr) },
  });
  return rerun({
    experiment: "search-benchmark",
    fields,
    git,
    note: html`One cell of the benchmark: the entry's pool, number of products and factors, ${m.rows} rows (the same
      draw as the benchmark's for that seed), its stop rule and a budget of at most ${m.budget} structures. The
      benchmark seeds each job's search from a hash of (seed, equation); a run through the pipeline seeds it from
      the data's generator, as <code>consolesr run</code> does, so the search can take another path than the
      published run even when the code is the same.`,
    options,
    command: (v) =>
      `npx consolesr run ${v.equation} --seed ${v.seed} --rows ${m.rows}${v.snr === null ? "" : ` --snr ${v.snr}`} ` +
      `--method ${v.method} --episodes ${m.episodes} --budget ${v.budget} --stop-nrmse ${stopOf(v.snr)} ` +
      `--out ${v.equation}.json`,
    playground: (v) => ({
      dataset: v.equation,
      seed: v.seed,
      snr: v.snr,
      rows: m.rows,
      method: v.method,
      budget: v.budget,
      episodes: m.episodes,
    }),
    published: (v) => {
      const r = recordOf(v);
      return r
        ? {
            label: `${r.equation}, ${r.method}, seed ${r.seed}: ${r.recovered ? "recovered" : "not recovered"}`,
            result: recordAsResult(r),
            text: `${JSON.stringify(r, null, 1)}\n`,
            filename:
              `benchmark-${r.equation}-${r.method}-seed${r.seed}` + `${r.snrDb === null ? "" : `-snr${r.snrDb}`}.json`,
          }
        : null;
    },
    filename: (v) => `${v.equation}-${v.method}-seed${v.seed}-live.json`,
  });
}
