/**
 * Driving the playground page in headless Chromium (playwright-core), shared by test/browser/playground.test.ts,
 * reproduce.test.ts and the browser bench: its run log, waiting for a run, its controls,
 * its calibration table and its "Download JSON" button.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { repo, WAIT_MS } from "./site.js";

/** Where the browser tests leave their downloads, CSVs and screenshots (git-ignored). */
export const artifacts = join(repo, "artifacts");

export interface RunRow {
  id: number;
  status: string;
  episodes: number;
  /** What the run fitted on: "js" or "tfjs" (the row's data-engine; its "fit on" column shows it). */
  engine: string;
  /** The live tfjs backend (the row's data-backend). */
  backend: string;
  seconds: number;
  label: string;
}

/** The run log as the page shows it (newest first). */
export function runLog(page: Page): Promise<RunRow[]> {
  return page.$$eval(".pg-log tbody tr", (rows) =>
    rows.map((row) => {
      const cells = [...row.querySelectorAll("td")].map((td) => td.textContent ?? "");
      return {
        id: Number(row.getAttribute("data-run")),
        status: row.getAttribute("data-status") ?? "",
        episodes: Number(row.getAttribute("data-episodes")),
        seconds: Number(cells[3]),
        engine: row.getAttribute("data-engine") ?? "",
        backend: row.getAttribute("data-backend") ?? "",
        label: row.lastElementChild?.textContent ?? "",
      };
    }),
  );
}

/** Polls the run log until `accept` picks a run, or fails after `timeoutMs`. */
export async function waitForRun(
  page: Page,
  what: string,
  accept: (row: RunRow, log: RunRow[]) => boolean,
  timeoutMs = 240_000,
): Promise<RunRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = await runLog(page);
    const found = log.find((row) => accept(row, log));
    if (found) return found;
    const failed = log.find((row) => row.status === "error");
    if (failed) {
      const error = await page
        .locator(".pg-error, .pg-no-result")
        .first()
        .textContent()
        .catch(() => "");
      assert.fail(`run #${failed.id} failed: ${error}`);
    }
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}; runs: ${JSON.stringify(log)}`);
    await page.waitForTimeout(100);
  }
}

/** Collects a tab's thrown errors and console errors into `errors`, each with the tab's label. */
export function watchErrors(page: Page, label: string, errors: string[]): void {
  page.on("pageerror", (error) => errors.push(`${label}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${label}: console: ${message.text()}`);
  });
}

/** A checkbox group of the page (Inputs.checkbox) by its label. */
export const checkboxes = (page: Page, label: string) =>
  page.locator("form", { has: page.locator(":scope > label", { hasText: new RegExp(`^${label}$`) }) });

/** The options of a checkbox group and whether each is ticked, in order. */
export function ticked(page: Page, label: string): Promise<[string, boolean][]> {
  return checkboxes(page, label).evaluate((form) =>
    [...form.querySelectorAll("div > label")].map((option): [string, boolean] => [
      option.textContent ?? "",
      (option.querySelector("input") as HTMLInputElement).checked,
    ]),
  );
}

/** Ticks exactly `names` in a checkbox group. */
export async function tick(page: Page, label: string, names: string[]): Promise<void> {
  for (const [name] of await ticked(page, label))
    await checkboxes(page, label).getByLabel(name, { exact: true }).setChecked(names.includes(name));
}

/** The text of a select's chosen option. */
export const selected = (page: Page, label: string) =>
  page
    .getByLabel(label, { exact: true })
    .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");

/** Clicks "Download JSON" and saves the result as artifacts/`name`. */
export async function download(page: Page, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.locator(".pg-download").click()]);
  const path = join(artifacts, name);
  await file.saveAs(path);
  return path;
}

/** One row of the page's calibration table: an engine's median fit and warm-up (seconds; null: it did not run). */
export interface CalibrationRow {
  engine: string;
  backend: string;
  seconds: number | null;
  warmup: number | null;
  note: string;
}

export interface PageCalibration {
  /** The chosen engine ("js" or "tfjs") and the backend it leaves live. */
  choice: { engine: string; backend: string };
  /** Wall-clock seconds of the whole calibration. */
  seconds: number;
  rows: CalibrationRow[];
}

/** The page's calibration once it is done (it runs before the first run of a visit). */
export async function readCalibration(page: Page, timeoutMs = 120_000): Promise<PageCalibration> {
  const table = page.locator(".pg-calibration[data-status='done']");
  await table.waitFor({ timeout: timeoutMs });
  // Plain attribute reads in the page (a named helper inside would need tsx's __name there).
  const raw = await table.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({
      engine: tr.getAttribute("data-engine") ?? "",
      backend: tr.getAttribute("data-backend") ?? "",
      seconds: tr.getAttribute("data-seconds") ?? "",
      warmup: tr.getAttribute("data-warmup") ?? "",
      note: tr.lastElementChild?.textContent?.trim() ?? "",
    })),
  );
  const number = (text: string) => (text === "" ? null : Number(text));
  const rows = raw.map((r) => ({ ...r, seconds: number(r.seconds), warmup: number(r.warmup) }));
  return {
    choice: {
      engine: (await table.getAttribute("data-choice")) ?? "",
      backend: (await table.getAttribute("data-backend")) ?? "",
    },
    seconds: Number(await table.getAttribute("data-seconds")),
    rows,
  };
}

/**
 * The calibration as one line: "js 3.1 ms (warm-up …), tfjs cpu 95.0 ms (…), …; choice js
 * (backend cpu), 6.1 s in all".
 */
export function calibrationLine(calibration: PageCalibration): string {
  const ms = (s: number | null) => (s === null ? "—" : `${(s * 1000).toFixed(1)} ms`);
  const rows = calibration.rows.map(
    (r) =>
      `${r.engine === "js" ? "js" : `tfjs ${r.backend}`} ${ms(r.seconds)} (warm-up ${ms(r.warmup)})` +
      (r.seconds === null && r.note ? ` [${r.note}]` : ""),
  );
  const { engine, backend } = calibration.choice;
  return `${rows.join(", ")}; choice ${engine} (backend ${backend}), ${calibration.seconds.toFixed(1)} s in all`;
}

/**
 * Probes of the page's main thread, installed once per page: a fixed button whose click handler
 * records its latency (handler time minus the event's timestamp), the longest main-thread task
 * since the last reset (PerformanceObserver "longtask"), and the delay from a click on a Stop
 * button (`.pg-stop`, `.rerun-stop`) to the first status (`[data-status]`) that says the run ended.
 * Plain DOM code in the page (no named helpers inside: tsx's __name is not defined there).
 */
export async function installProbes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __probe?: Record<string, number> };
    if (w.__probe) return;
    const probe = { clicks: 0, latency: -1, longest: 0, stopAt: -1, stopDelay: -1 };
    w.__probe = probe;
    const button = document.createElement("button");
    button.id = "click-probe";
    button.textContent = "probe";
    button.style.cssText = "position: fixed; right: 0; bottom: 0; z-index: 1000; font-size: 10px;";
    button.addEventListener("click", (event) => {
      probe.clicks++;
      probe.latency = performance.now() - event.timeStamp;
    });
    document.body.append(button);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longest = Math.max(probe.longest, entry.duration);
    }).observe({ type: "longtask", buffered: false });
    document.addEventListener(
      "click",
      (event) => {
        const target = event.target as Element | null;
        if (target?.closest(".pg-stop, .rerun-stop")) {
          probe.stopAt = event.timeStamp;
          probe.stopDelay = -1;
        }
      },
      true,
    );
    // The playground redraws its status (a new element), a form changes its attribute: watch both.
    new MutationObserver(() => {
      if (probe.stopAt < 0 || probe.stopDelay >= 0) return;
      for (const element of document.querySelectorAll(".pg-bar .pg-status[data-status], .rerun-status[data-status]")) {
        const status = element.getAttribute("data-status");
        if (status === "stopped" || status === "cancelled" || status === "done" || status === "error") {
          probe.stopDelay = performance.now() - probe.stopAt;
          return;
        }
      }
    }).observe(document.body, { attributes: true, attributeFilter: ["data-status"], childList: true, subtree: true });
  });
}

/** Clicks the probe button; its handler's latency in ms, and the click's round trip from Node in ms. */
export async function clickProbe(page: Page): Promise<{ latency: number; roundTrip: number }> {
  const before = await page.evaluate(() => (window as unknown as { __probe: { clicks: number } }).__probe.clicks);
  const started = performance.now();
  await page.locator("#click-probe").click({ timeout: WAIT_MS });
  await page.waitForFunction((n) => (window as unknown as { __probe: { clicks: number } }).__probe.clicks > n, before, {
    timeout: WAIT_MS,
    polling: 10,
  });
  const roundTrip = performance.now() - started;
  const latency = await page.evaluate(() => (window as unknown as { __probe: { latency: number } }).__probe.latency);
  return { latency, roundTrip };
}

/** The longest main-thread task (ms) since the last call, and resets it. */
export function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => {
    const probe = (window as unknown as { __probe: { longest: number } }).__probe;
    const longest = probe.longest;
    probe.longest = 0;
    return longest;
  });
}

/** The delay (ms) from the last Stop click to the status that said the run ended (-1: not yet). */
export function stopDelay(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __probe: { stopDelay: number } }).__probe.stopDelay);
}

/**
 * The Comparison form's methods as the responsiveness checks run them: a structure search that
 * runs long (Algorithm 2 on syn2), and each baseline.
 */
export const FORM_METHODS = [
  ["paper", "syn2"],
  ["dsr", "syn1"],
  ["eql", "syn1"],
  ["mlp", "syn1"],
  ["vpg", "syn1"],
] as const;

/** One method's run on the Comparison form, then Stop: what the page said and how fast it answered. */
export interface FormStop {
  /** The status while it ran (before the click) and its text. */
  running: { status: string | null; text: string };
  click: { latency: number; roundTrip: number };
  /** The longest main-thread task (ms) from 1 s before the click to it. */
  longest: number;
  /** The status just before Stop was clicked. */
  beforeStop: string | null;
  /** The status after Stop and its text, and the delay (ms) from Stop to it. */
  ended: { status: string | null; text: string };
  delay: number;
}

/**
 * On the Comparison page's form (probes installed): runs `method` on `experiment`, waits until its
 * progress line names the output and the episode (epoch, sample), lets it run 1 s, clicks the
 * probe, then Stop, and waits up to `stopTimeoutMs` for the status to leave "running".
 */
export async function formRunThenStop(
  page: Page,
  method: string,
  experiment: string,
  stopTimeoutMs: number,
): Promise<FormStop> {
  const section = page.locator('.rerun[data-experiment="comparison"]');
  const status = section.locator(".rerun-status");
  await section.getByLabel("experiment").selectOption({ label: experiment });
  await section.getByLabel("method").selectOption({ label: method });
  await section.locator(".rerun-run").click();
  await page.waitForFunction(
    () =>
      /output \d+ of \d+ \(\w+\), (episode|epoch|sample) \d+/.test(
        document.querySelector('.rerun[data-experiment="comparison"] .rerun-status')?.textContent ?? "",
      ),
    null,
    { timeout: 120_000, polling: 50 },
  );
  const running = { status: await status.getAttribute("data-status"), text: (await status.textContent()) ?? "" };
  await longestTask(page);
  await page.waitForTimeout(1000);
  const click = await clickProbe(page);
  const longest = await longestTask(page);
  const beforeStop = await status.getAttribute("data-status");
  await section.locator(".rerun-stop").click();
  await section.locator('.rerun-status:not([data-status="running"])').waitFor({ timeout: stopTimeoutMs });
  const ended = { status: await status.getAttribute("data-status"), text: (await status.textContent()) ?? "" };
  return { running, click, longest, beforeStop, ended, delay: await stopDelay(page) };
}
