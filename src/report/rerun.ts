/// <reference path="./htl.d.ts" />
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
import { tex, texName } from "./katex.js";
import { chartWidth, scrollX } from "./layout.js";
import { saveJson } from "./download.js";
import { withReportStyles } from "./styles.js";
import { progressLine } from "./progressLine.js";
import type { PipelineOptions, ResultJson } from "../lib/index.js";
import { SearchWorker, type RunRequest, type WorkerRun } from "./searchClient.js";

/** The SNRs the forms offer (dB; null: noiseless, the published runs' setting). */
export const SNR_CHOICES = [null, 60, 40, 20];
/** Seeds are 32-bit (src/lib/core/rng.ts). */
export const SEED_MAX = 4294967295;

const snrName = (v: number | null) => (v === null ? "none" : `${v} dB`);

/** A bounded integer input of a form. */
export interface IntegerField {
  name: string;
  label: string;
  kind: "integer";
  min: number;
  max: number;
  value: number;
}

/** A select of a form: one of `choices`, shown by `format`. */
export interface ChoiceField {
  name: string;
  label: string;
  kind: "choice";
  choices: readonly unknown[];
  value: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: a field's choices are of the page's own types.
  format?: (value: any) => string;
}

export type Field = IntegerField | ChoiceField;

/** A form's values by field name. */
// biome-ignore lint/suspicious/noExplicitAny: each page reads its own fields' values.
export type FormValues = Record<string, any>;

/** The fields a form can have; each page picks its own, with its own defaults and caps. */
export const field = {
  seed: (value = 0): IntegerField => ({ name: "seed", label: "seed", kind: "integer", min: 0, max: SEED_MAX, value }),
  rows: (value: number, max: number, min = 10): IntegerField => ({
    name: "rows",
    label: "rows",
    kind: "integer",
    min,
    max,
    value,
  }),
  snr: (value: number | null = null): ChoiceField => ({
    name: "snr",
    label: "noise SNR",
    kind: "choice",
    choices: SNR_CHOICES,
    format: snrName,
    value,
  }),
  method: (methods: readonly string[], value = "consolesr"): ChoiceField => ({
    name: "method",
    label: "method",
    kind: "choice",
    choices: methods,
    value,
  }),
  episodes: (value: number, max: number): IntegerField => ({
    name: "episodes",
    label: "episodes per output",
    kind: "integer",
    min: 1,
    max,
    value,
  }),
  budget: (value: number, max: number, min = 0): IntegerField => ({
    name: "budget",
    label: min === 0 ? "budget (structures, 0: none)" : "budget (structures)",
    kind: "integer",
    min,
    max,
    value,
  }),
  choice: (
    name: string,
    label: string,
    choices: readonly unknown[],
    value: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: a field's choices are of the page's own types.
    format: (value: any) => string = String,
  ): ChoiceField => ({
    name,
    label,
    kind: "choice",
    choices,
    value,
    format,
  }),
};

const sci = nrmseText;
const percent = ecText;
const yesNo = (v: boolean | null | undefined) => (v === undefined || v === null ? "—" : v ? "yes" : "no");

/** One output's row of the comparison table. */
export interface OutputRow {
  target: string;
  latex?: string | null;
  text: string;
  trainNrmse?: number | null;
  testNrmse?: number | null;
  exact?: boolean | null;
  coefficientError?: number | null;
  episodes?: number;
  structures?: number;
  stopReason?: string;
}

/** The parts of a version-1 result the table reads (a benchmark record gives only these). */
export interface ResultLike {
  equations: { target: string; latex?: string | null; text: string; trainNrmse?: number | null }[];
  evaluation?: {
    target: string;
    testNrmse?: number | null;
    exact?: boolean | null;
    coefficientError?: number | null;
  }[];
  search?: { targets?: { target: string; episodes?: number; structures?: number; stopReason?: string }[] };
  /** A model method's outputs (mlp, eql, dsr, vpg): EQL's expression, each model's NRMSEs. */
  models?: {
    target: string;
    trainNrmse?: number | null;
    testNrmse?: number | null;
    expression?: { text: string } | null;
  }[];
}

/** Per output of a version-1 result: its equation, evaluation and search, the row the table shows. */
export function outputsOf(result: ResultLike | null | undefined): OutputRow[] {
  if (!result) return [];
  // A model method's run stopped early (Stop) holds its trained outputs in `models` (EQL's expression,
  // the NRMSEs) and may hold no equation for them: they are its best so far, rows of the table too.
  const targets = [...new Set([...result.equations, ...(result.models ?? [])].map((o) => o.target))];
  return targets.map((target) => {
    const model = result.models?.find((m) => m.target === target);
    const e = result.equations.find((q) => q.target === target) ?? {
      target,
      latex: null,
      text: model?.expression?.text ?? "(a model, no equation)",
      trainNrmse: model?.trainNrmse,
    };
    const evaluation = result.evaluation?.find((q) => q.target === e.target);
    const search = result.search?.targets?.find((q) => q.target === e.target);
    return {
      target: e.target,
      latex: e.latex,
      text: e.text,
      trainNrmse: e.trainNrmse ?? model?.trainNrmse,
      testNrmse: evaluation?.testNrmse ?? model?.testNrmse,
      exact: evaluation?.exact,
      coefficientError: evaluation?.coefficientError,
      episodes: search?.episodes,
      structures: search?.structures,
      stopReason: search?.stopReason,
    };
  });
}

/** A bounded input: a number with min, max and step 1, or a select. */
interface Control {
  element: HTMLElement;
  input: HTMLInputElement | HTMLSelectElement;
}

function control(f: Field): Control {
  if (f.kind === "integer") {
    const input = html`<input type="number" name=${f.name} min=${f.min} max=${f.max} step="1"
      value=${f.value} required>`;
    return { element: html`<label>${f.label}${input}</label>`, input };
  }
  const input = html`<select name=${f.name}>${f.choices.map(
    (c: unknown, i: number) =>
      html`<option value=${i} selected=${JSON.stringify(c) === JSON.stringify(f.value)}>${(f.format ?? String)(
        c,
      )}</option>`,
  )}</select>`;
  return { element: html`<label>${f.label}${input}</label>`, input };
}

/** The form's values, or the first problem as "field: rule". */
function readValues(
  fields: readonly Field[],
  controls: Record<string, Control>,
): { values: FormValues; error?: undefined } | { values?: undefined; error: string } {
  const values: FormValues = {};
  for (const f of fields) {
    const input = controls[f.name]!.input;
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
function yoursLabel({ seed, config }: { seed: number; config: Record<string, unknown> }, engine: string) {
  const noise = config.snrDb === null || config.snrDb === undefined ? "" : `, ${config.snrDb} dB`;
  const rows = config.rows === undefined ? "" : `, ${config.rows} rows`;
  return `seed ${seed}${rows}${noise}, ${config.method}${engine ? `, ${engine}` : ""}`;
}

/** The comparison table: per output, the published and your equation and numbers. */
function comparisonTable(published: Published | null, yours: ResultJson | null, engine = "") {
  const pub = outputsOf(published?.result);
  const mine = outputsOf(yours);
  const targets = [...new Set([...pub.map((o) => o.target), ...mine.map((o) => o.target)])];
  // Exact recovery, E_c and the test NRMSE need a truth and a test set (an experiment's): a CSV's
  // results have neither, and their columns would be "—" throughout.
  const truth = [...pub, ...mine].some((o) =>
    [o.exact, o.coefficientError, o.testNrmse].some((v) => v !== undefined && v !== null),
  );
  // Published over yours in one cell (side by side, "a / b", the table needed 750–765 px where a
  // page's text column at 1280 px leaves 670: it scrolled, its last columns hidden).
  const pair = (f: (o: OutputRow) => string, target: string) => {
    const a = pub.find((o) => o.target === target);
    const b = mine.find((o) => o.target === target);
    // (A space before the break: the cell's text reads "a b", not "ab", to a screen reader or a copy.)
    return html`<span data-which="published">${a ? f(a) : "—"}</span> <br><span data-which="yours">${
      b ? f(b) : "—"
    }</span>`;
  };
  const equation = (o: OutputRow | undefined, which: string, target: string) =>
    html`<td class="rerun-equation" data-which=${which} data-target=${target}>${
      o ? (o.latex ? tex(o.latex) : html`<code>${o.text}</code>`) : "—"
    }</td>`;
  return html`<table class="rerun-table" style="font-size: 13px;">
<thead><tr><th>output</th><th>published${published ? html`<br><small>${published.label}</small>` : ""}</th>
<th>yours${yours ? html`<br><small>${yoursLabel(yours.manifest as never, engine)}</small>` : ""}</th>
${truth ? html`<th>exact</th><th>E_c (%)</th><th>test NRMSE</th>` : ""}<th>train NRMSE</th><th>episodes · structures</th></tr>
<tr><th></th><th></th><th></th><th colspan=${truth ? 5 : 2}><small>published, then yours</small></th></tr></thead>
<tbody>${targets.map(
    (t) => html`<tr data-target=${t}><td>${tex(texName(t))}</td>
${equation(
  pub.find((o) => o.target === t),
  "published",
  t,
)}${equation(
  mine.find((o) => o.target === t),
  "yours",
  t,
)}
${
  truth
    ? html`<td class="pair">${pair((o) => yesNo(o.exact), t)}</td>
<td class="pair">${pair((o) => percent(o.coefficientError), t)}</td>
<td class="pair">${pair((o) => sci(o.testNrmse), t)}</td>`
    : ""
}<td class="pair">${pair((o) => sci(o.trainNrmse), t)}</td>
<td class="pair">${pair((o) => (o.episodes === undefined ? "—" : `${o.episodes} · ${o.structures}`), t)}</td></tr>`,
  )}</tbody></table>`;
}

/** A published run beside which the form shows yours: its label, result and JSON text. */
export interface Published {
  label: string;
  result: ResultLike | null;
  text?: string;
  filename: string;
}

/** What a form sends to the worker (a RunRequest without the fields every form sets alike). */
export type RunBody = DistributiveOmit<RunRequest, "backend" | "plugins" | "git" | "fits">;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A "Re-run with…" section: see `rerun`. */
export interface RerunSpec<V extends FormValues = FormValues> {
  experiment: string;
  fields: Field[];
  note?: unknown;
  git: string;
  options?: (values: V) => PipelineOptions;
  request?: (values: V) => RunBody;
  command: (values: V) => string;
  /** The same run's playground address; null where the playground cannot hold it (no link then). */
  playground?: (values: V) => string | null;
  published: (values: V) => Published | null;
  filename: (values: V) => string;
  /** Its own "Re-run with…" heading (default true; false where the page has one). */
  heading?: boolean;
}

/**
 * The section. `spec`: experiment (a name for data-experiment), fields (from `field`), options(values)
 * → the pipeline's options (resolvePipelineConfig), or request(values) → the worker's run request
 * (RunRequest without its common fields), command(values) → the equivalent CLI line,
 * playground(values) → the address of the same run in the playground (optional), published(values) → {label, result,
 * text, filename} or null (the committed or build-time result for those values), filename(values)
 * → the live result's download name, git (recorded in the live run's manifest), note (what the live
 * run caps, and why).
 */
export function rerun<V extends FormValues = FormValues>(spec: RerunSpec<V>): HTMLElement {
  const controls: Record<string, Control> = Object.fromEntries(spec.fields.map((f) => [f.name, control(f)]));
  const runButton = html`<button type="submit" class="rerun-run">Run</button>`;
  const stopButton = html`<button type="button" class="rerun-stop" disabled>Stop</button>`;
  const form = html`<form>${spec.fields.map((f) => controls[f.name]!.element)}${runButton}${stopButton}</form>`;
  const status = html`<p class="rerun-status" data-status="idle" aria-live="polite">
    Not run yet: the table shows the published result.</p>`;
  const command = html`<code class="rerun-command"></code>`;
  const playground = spec.playground
    ? html`<a class="rerun-playground" href="./playground">open in playground</a>`
    : null;
  const downloadPublished = html`<button type="button" class="rerun-download" data-which="published">
    download published JSON</button>`;
  const downloadYours = html`<button type="button" class="rerun-download" data-which="yours" disabled>
    download your JSON</button>`;
  const table = html`<div class="scroll-x rerun-comparison"></div>`;
  const charts = html`<div class="rerun-charts"></div>`;
  const root = html`<section class="rerun" data-experiment=${spec.experiment}>
${spec.heading === false ? "" : html`<h3 style="margin-top: 0;">Re-run with…</h3>`}
${form}
${spec.note ? html`<p class="rerun-note">${spec.note}</p>` : ""}
<p class="rerun-note">Command line: ${command}</p>
<div class="rerun-actions">${playground}${downloadPublished}${downloadYours}</div>
${status}${table}${charts}</section>`;

  let yours: ResultJson | null = null;
  let yoursText: string | null = null;
  let yoursValues: V | null = null;
  let progress: { target: string; episode: number; nrmse: number }[] = [];
  let yoursEngine = "";
  let current: { handle: WorkerRun | null; done: Promise<void> | null } | null = null;

  const valuesNow = () => (readValues(spec.fields, controls).values as V | undefined) ?? null;
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
    if (playground && spec.playground) {
      const href = spec.playground(values);
      playground.hidden = href === null;
      if (href !== null) playground.href = href;
    }
  }

  function setStatus(state: string, text: string) {
    status.dataset.status = state;
    status.textContent = text;
  }

  /** The form's search worker, started at the first Run (a page that is only read loads no library). */
  let worker: SearchWorker | null = null;

  async function run(values: V) {
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
        {
          ...(spec.request ? spec.request(values) : { kind: "options" as const, options: spec.options!(values) }),
          backend: "cpu",
          plugins: [],
          git: spec.git,
          fits: false,
        },
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

  form.addEventListener("submit", (event: Event) => {
    event.preventDefault();
    const { values, error } = readValues(spec.fields, controls);
    if (error) {
      setStatus("error", `error: ${error}`);
      return;
    }
    void run(values as V);
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
    if (yoursText && yoursValues) saveJson(yoursText, spec.filename(yoursValues));
  });
  describeInputs();
  redraw();
  // Charts are sized from the section's width once it is in the page.
  requestAnimationFrame(redraw);
  return withReportStyles(root);
}

/** The settings of a user's report form: its published run's, changed by the form. */
export interface CsvRerunValues {
  seed: number;
  episodes: number;
  budget: number;
  timeLimit: number;
}

/**
 * `npx consolesr fit …` for a CSV result with the form's values: the targets and inputs it
 * recorded, and the settings the form changes (the rest are the defaults the result was made with).
 */
export function fitCommand(result: ResultJson, v: CsvRerunValues, { out = "result.json" } = {}): string {
  const config = result.manifest.config as Record<string, any>;
  const flags = [
    `--target ${config.targets.join(",")}`,
    `--inputs ${config.inputs.join(",")}`,
    config.method && config.method !== "consolesr" ? `--method ${config.method}` : "",
    `--seed ${v.seed}`,
    `--episodes ${v.episodes}`,
    `--budget ${v.budget}`,
    v.timeLimit > 0 ? `--time-limit ${v.timeLimit}` : "",
    `--out ${out}`,
  ].filter(Boolean);
  return `npx consolesr fit ${config.data} ${flags.join(" ")}`;
}

/**
 * The "Re-run with…" form of a report on a CSV (the pages `consolesr report` writes): the published
 * result's own run (its manifest, on the CSV it was made from, as `consolesr reproduce` reads them)
 * with another seed, episode limit, budget or time limit, in the search worker. With the published
 * values it repeats the published search; its JSON, downloaded, is what `consolesr fit` writes for
 * those flags (so `consolesr reproduce` takes it).
 *
 * `published`: {label, text, filename} of the result JSON; `csv`: {name, bytes} of the CSV file it
 * was made from (the bytes: its SHA-256 is checked and recorded); `git`: recorded in the manifest.
 */
export function csvRerun({
  published,
  csv,
  git = "unknown",
  caps = {},
  note,
  heading = true,
}: {
  published: { label: string; text: string; filename: string };
  csv: { name: string; bytes: ArrayBuffer };
  git?: string;
  caps?: { episodes?: number; budget?: number; timeLimit?: number };
  note?: unknown;
  /** Its own "Re-run with…" heading (false where the page has one, as `consolesr report`'s page does). */
  heading?: boolean;
}): HTMLElement {
  const result = JSON.parse(published.text) as ResultJson;
  const config = result.manifest.config as Record<string, any>;
  const maxEpisodes = Math.max(caps.episodes ?? 5000, config.episodes ?? 600);
  const maxBudget = Math.max(caps.budget ?? 1_000_000, config.budget ?? 0);
  const maxTime = Math.max(caps.timeLimit ?? 3600, config.timeLimit ?? 0);
  const fields: Field[] = [
    field.seed(result.manifest.seed),
    field.episodes(config.episodes ?? 600, maxEpisodes),
    field.budget(config.budget ?? 0, maxBudget),
    {
      name: "timeLimit",
      label: "time limit (s, 0: none)",
      kind: "integer" as const,
      min: 0,
      max: maxTime,
      value: config.timeLimit ?? 0,
    },
  ];
  const stem = published.filename.replace(/\.json$/, "");
  return rerun({
    experiment: csv.name,
    fields,
    git,
    note,
    heading,
    request: (v: CsvRerunValues) => ({
      kind: "result",
      result,
      csv,
      overrides: { seed: v.seed, episodes: v.episodes, budget: v.budget, timeLimit: v.timeLimit },
    }),
    command: (v: CsvRerunValues) => fitCommand(result, v, { out: `${stem}-seed${v.seed}.json` }),
    published: () => ({ label: published.label, result, text: published.text, filename: published.filename }),
    filename: (v: CsvRerunValues) => `${stem}-seed${v.seed}.json`,
  });
}
