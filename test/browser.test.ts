// The playground in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core),
// served from the built site (test/helpers/site.ts: one build per `npm test`, shared with
// site.test.ts) by a static server on 127.0.0.1:
//
// - the tfjs backend on the page is webgl (SwiftShader here), and the toy search (the page's
//   default, y = 3·x1²·cos(2.5·x2)) runs to the end and shows the true form with both numbers
//   within 1 %, read from the KaTeX the page rendered;
// - "Download JSON" gives a version-1 result that `consolesr reproduce` accepts and matches;
// - a control changed mid-run stops the run (status cancelled, its episode count frozen) and a new
//   run starts and finishes;
// - a bad CSV is one readable error line;
// - no page requests anything outside the site's origin or throws; a screenshot of every page of
//   the site goes to artifacts/ (git-ignored).
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Page } from "playwright-core";
import { parseResult } from "../src/lib/reproduce.js";
import { cli } from "./helpers/cli.js";
import { buildSite, dist, ensureChromium, launchChromium, repo, serveStatic } from "./helpers/site.js";

const artifacts = join(repo, "artifacts");

interface RunRow {
  id: number;
  status: string;
  episodes: number;
  label: string;
}

/** The run log as the page shows it (newest first). */
function runLog(page: Page): Promise<RunRow[]> {
  return page.$$eval(".pg-log tbody tr", (rows) =>
    rows.map((row) => ({
      id: Number(row.getAttribute("data-run")),
      status: row.getAttribute("data-status") ?? "",
      episodes: Number(row.getAttribute("data-episodes")),
      label: row.lastElementChild?.textContent ?? "",
    })),
  );
}

/** Polls the run log until `accept` picks a run, or fails after `timeoutMs`. */
async function waitForRun(
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

/** The learned equation of `target` as the page renders it: KaTeX's TeX annotation and visible text. */
async function renderedEquation(page: Page, target: string): Promise<{ tex: string; visible: string }> {
  const equation = page.locator(`.pg-equation[data-target="${target}"]`);
  await equation.waitFor({ timeout: 60_000 });
  return {
    tex: (await equation.locator(".katex-mathml annotation").textContent()) ?? "",
    visible: ((await equation.locator(".katex-html").textContent()) ?? "").replace(/\s+/g, ""),
  };
}

/** Asserts the toy's true form with both numbers within 1 %: y = 3 x_1^2 cos(2.5 x_2). */
function assertToy(shown: { tex: string; visible: string }): void {
  const match = /^y=([\d.]+)x_\{1\}\^\{2\}\\cos\\left\(([\d.]+)x_\{2\}\\right\)$/.exec(shown.tex.replace(/\s+/g, ""));
  assert.ok(match, `the rendered equation is not of the form c·x1²·cos(w·x2): ${shown.tex}`);
  const [coefficient, weight] = [Number(match[1]), Number(match[2])];
  assert.ok(Math.abs(coefficient - 3) / 3 <= 0.01, `coefficient ${coefficient} is not within 1 % of 3`);
  assert.ok(Math.abs(weight - 2.5) / 2.5 <= 0.01, `inner weight ${weight} is not within 1 % of 2.5`);
  // What KaTeX drew (its HTML, not only the MathML annotation) shows the same numbers.
  for (const part of ["y=", match[1]!, "cos", match[2]!])
    assert.ok(shown.visible.includes(part), `"${part}" not in the rendered text ${shown.visible}`);
}

test("the playground: toy search on webgl, cancellation, JSON for reproduce, screenshots of every page", {
  timeout: 1_200_000,
}, async (t) => {
  const install = ensureChromium();
  assert.equal(install, undefined, install);
  const build = await buildSite();
  assert.equal(build.status, 0, `the site build failed:\n${build.output}`);
  t.diagnostic(build.reused ? "site build shared with site.test.ts" : `site built in ${build.seconds.toFixed(1)} s`);

  const missing: string[] = [];
  const server = await serveStatic(dist, (path) => {
    if (path !== "/favicon.ico") missing.push(path);
  });
  const browser = await launchChromium();
  t.after(async () => {
    await browser.close();
    await server.close();
  });
  mkdirSync(artifacts, { recursive: true });
  const outside: string[] = [];
  const errors: string[] = [];
  browser.context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url)) outside.push(url);
  });
  const page = await browser.context.newPage();
  page.on("pageerror", (error) => errors.push(`playground: ${error.message}`));

  // 1. The default run: the toy on webgl, to the end.
  const started = performance.now();
  await page.goto(`${server.origin}/docs/playground`);
  await page.locator(".pg-backend[data-backend]:not([data-backend=''])").waitFor({ timeout: 120_000 });
  assert.equal(
    await page.locator(".pg-backend").getAttribute("data-backend"),
    "webgl",
    "the live tfjs backend is not webgl",
  );
  assert.match((await page.locator(".pg-backend").textContent()) ?? "", /tfjs backend: webgl/);
  const first = await waitForRun(page, "the first toy run to finish", (row) => row.id === 1 && row.status === "done");
  const firstSeconds = (performance.now() - started) / 1000;
  const runSeconds = Number(await page.locator(".pg-status").getAttribute("data-seconds"));
  t.diagnostic(
    `toy run on webgl: ${runSeconds.toFixed(1)} s of ` +
      `search, ${firstSeconds.toFixed(1)} s from page load (${first.episodes} episodes)`,
  );
  assertToy(await renderedEquation(page, "y"));
  assert.match((await page.locator(".pg-equation-meta").first().textContent()) ?? "", /exact/);
  await page.screenshot({ path: join(artifacts, "docs-playground.png"), fullPage: true });

  // 2. The JSON download: the CLI's version-1 format, made on webgl.
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator(".pg-download").click()]);
  const jsonPath = join(artifacts, "playground-toy.json");
  await download.saveAs(jsonPath);
  const json = readFileSync(jsonPath, "utf8");
  const result = parseResult(json, jsonPath);
  assert.ok(json.endsWith("}\n") && json.startsWith('{\n  "version": 1,'), "not the CLI's two-space JSON");
  assert.deepEqual(Object.keys(result), ["version", "equations", "search", "evaluation", "manifest"]);
  assert.deepEqual(Object.keys(result.manifest), ["seed", "config", "version", "git", "backend"]);
  assert.equal(result.manifest.backend, "webgl");
  assert.equal(result.manifest.config.experiment, "toy");
  assert.match(result.manifest.git, /^[0-9a-f]{40}$|^unknown$/);
  assert.equal(result.equations[0]!.text, "3*x1^2*cos(2.5*x2)");
  assert.equal(result.evaluation?.[0]?.exact, true);

  // 2b. The same toy on the cpu backend (float64 in the browser; re-run in Node at 1e-9 in step 7),
  // then back to webgl for the rest.
  const log = await runLog(page);
  const newest = Math.max(...log.map((row) => row.id));
  await page.getByLabel("tfjs backend", { exact: true }).selectOption({ label: "cpu" });
  await waitForRun(page, "the toy run on cpu to finish", (row) => row.id > newest && row.status === "done");
  assert.equal(await page.locator(".pg-backend").getAttribute("data-backend"), "cpu");
  const [cpuDownload] = await Promise.all([page.waitForEvent("download"), page.locator(".pg-download").click()]);
  const cpuPath = join(artifacts, "playground-toy-cpu.json");
  await cpuDownload.saveAs(cpuPath);
  assert.equal(parseResult(readFileSync(cpuPath, "utf8"), cpuPath).manifest.backend, "cpu");
  const cpuLast = Math.max(...(await runLog(page)).map((row) => row.id));
  await page.getByLabel("tfjs backend", { exact: true }).selectOption({ label: "webgl" });
  await waitForRun(page, "the toy run back on webgl to finish", (row) => row.id > cpuLast && row.status === "done");
  assert.equal(await page.locator(".pg-backend").getAttribute("data-backend"), "webgl");

  // 3. A control changed mid-run: syn1 (long on software WebGL) starts; changing the seed cancels
  // it; the syn1 run for the new seed starts; going back to the toy cancels that one and the toy
  // (seed 1) runs to the end. The stop rule is off meanwhile ("never"): the linear-algebra
  // proposals find syn1 in one episode per output, too fast to change a control mid-run.
  await page.getByLabel("stop NRMSE", { exact: true }).selectOption({ label: "never" });
  await page.getByLabel("dataset", { exact: true }).selectOption({ label: "syn1" });
  const syn1 = await waitForRun(
    page,
    "a syn1 run past its second episode",
    (row) =>
      row.label.startsWith("syn1 (2000 rows)") &&
      row.label.includes("seed 0,") &&
      row.status === "running" &&
      row.episodes >= 2,
  );
  await page.getByLabel("seed", { exact: true }).fill("1");
  const cancelled = await waitForRun(
    page,
    `run #${syn1.id} to be cancelled`,
    (row) => row.id === syn1.id && row.status === "cancelled",
    120_000,
  );
  await page.waitForTimeout(1500);
  const later = (await runLog(page)).find((row) => row.id === syn1.id)!;
  assert.equal(later.status, "cancelled");
  assert.equal(later.episodes, cancelled.episodes, `run #${syn1.id} kept advancing after it was cancelled`);
  assert.ok(cancelled.episodes >= syn1.episodes, "the cancelled run lost progress");
  const next = await waitForRun(
    page,
    "the syn1 run of seed 1 to start",
    (row) =>
      row.id > syn1.id &&
      row.label.startsWith("syn1 (2000 rows)") &&
      row.label.includes("seed 1,") &&
      row.status === "running" &&
      row.episodes >= 1,
  );
  await page.getByLabel("dataset", { exact: true }).selectOption({ label: "toy" });
  await waitForRun(
    page,
    `run #${next.id} to be cancelled`,
    (row) => row.id === next.id && row.status === "cancelled",
    120_000,
  );
  await page.getByLabel("stop NRMSE", { exact: true }).selectOption({ label: "≤ 1e-6" });
  const toy = await waitForRun(
    page,
    "the toy run of seed 1 to finish",
    (row) =>
      row.id > next.id &&
      row.label.startsWith("toy (500 rows)") &&
      row.label.includes("seed 1,") &&
      row.status === "done",
  );
  assert.equal((await runLog(page)).filter((row) => row.status === "running").length, 0, "a run is still going");
  assertToy(await renderedEquation(page, "y"));
  t.diagnostic(
    `mid-run change: syn1 run #${syn1.id} cancelled after ${cancelled.episodes} episodes (frozen), ` +
      `#${next.id} started, cancelled in turn; toy run #${toy.id} finished`,
  );

  // 4. A bad CSV: one readable line naming the file, row and column.
  await page.getByLabel("CSV file").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      `x1,y\n${Array.from({ length: 12 }, (_, i) => `${i + 1},${i === 4 ? "abc" : 2 * i}`).join("\n")}\n`,
    ),
  });
  const csvError = page.locator(".pg-csv-error");
  await csvError.waitFor({ timeout: 30_000 });
  const line = ((await csvError.textContent()) ?? "").trim();
  assert.equal(line, 'error: bad.csv: row 5 (line 6), column "y": "abc" is not a number');
  assert.equal(
    await page
      .getByLabel("dataset", { exact: true })
      .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent),
    "CSV file",
    "choosing a file did not switch the dataset to it",
  );

  // 5. Every page of the site: no error, nothing from another origin, a screenshot.
  const pages = readdirSync(dist, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html") && !file.startsWith("_") && file !== "404.html")
    .map(
      (file) =>
        `/${relative(dist, join(dist, file))
          .replace(/\.html$/, "")
          .replace(/(^|\/)index$/, "")}`,
    );
  for (const path of pages.filter((p) => p !== "/docs/playground")) {
    const other = await browser.context.newPage();
    other.on("pageerror", (error) => errors.push(`${path}: ${error.message}`));
    await other.goto(`${server.origin}${path}`, { waitUntil: "networkidle" });
    await other.waitForTimeout(500);
    const name = path === "/" ? "index" : path.slice(1).replace(/\//g, "-");
    await other.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
    await other.close();
  }
  t.diagnostic(`screenshots of ${pages.length} pages in ${relative(repo, artifacts)}/`);
  assert.deepEqual(errors, [], "errors thrown in the pages");
  assert.deepEqual(outside, [], "requests outside the site's origin");
  assert.deepEqual(missing, [], "requests for files the site does not have");

  // 6. The downloaded JSON re-runs with the CLI and matches (float32 webgl → cpu: tolerance 1e-4).
  const reproduced = await cli(["reproduce", jsonPath, "--quiet"], { timeoutMs: 300_000 });
  assert.equal(reproduced.code, 0, `consolesr reproduce failed:\n${reproduced.stdout}${reproduced.stderr}`);
  assert.match(
    reproduced.stdout,
    new RegExp(
      /reproduced within float32 tolerance: all 1 equation match /.source +
        /\(float32-tolerance match, tolerance 0\.0001; allowed because the original's manifest names webgl/.source,
    ),
  );

  // 7. The cpu result re-runs in Node bit for bit (tolerance 1e-9).
  const cpuRerun = await cli(["reproduce", cpuPath, "--quiet"], { timeoutMs: 300_000 });
  assert.equal(cpuRerun.code, 0, `consolesr reproduce failed on the cpu result:\n${cpuRerun.stdout}${cpuRerun.stderr}`);
  assert.match(
    cpuRerun.stdout,
    new RegExp(
      /reproduced exactly: all 1 equation and every stored field match \(exact match, tolerance 1e-9; /.source +
        /both runs on cpu, a float64 backend; backend cpu → cpu\)/.source,
    ),
  );
});
