/**
 * Driving the playground page in headless Chromium (playwright-core), shared by test/browser/playground.test.ts,
 * reproduce.test.ts and the browser bench: its run log, waiting for a run, its controls,
 * its calibration table and its "Download JSON" button.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { repo } from "./site.js";

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
