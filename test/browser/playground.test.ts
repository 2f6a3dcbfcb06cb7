// The playground in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core),
// served from the built site (test/helpers/site.ts: one build per `npm test`, shared with
// site-build.test.ts) by a static server on 127.0.0.1:
//
// - the first visit runs the default once, at once: the toy (y = 3·x1²·cos(2.5·x2)) on js (auto
//   before any measurement), to the end, showing the true form with both numbers within 1 %, read
//   from the KaTeX the page rendered; the live charts hold that run's rewards and its Pareto front;
//   then the calibration times one fit on js and each tfjs backend (at most 2 s) and picks by its rule;
// - "Download JSON" gives a version-1 result (with the run's seconds and runtime) that
//   `consolesr reproduce` accepts and matches: bit for bit from the js engine, within float32
//   tolerance from tfjs on webgl (chosen explicitly);
// - a changed control starts nothing: Run does, and writes the controls into the address; Stop ends
//   a run (status stopped, its episode count frozen, its best so far shown and downloadable), and
//   the status bar stays on screen while the page scrolls;
// - the address restores the controls without running, and a bad or unknown parameter is one notice;
// - the plugin guide's tanh.js, loaded with the playground's plugin file input (checked in the
//   page, imported again from its source by the search worker, where every run goes), recovers
//   y = 2·tanh(1.5·x1)·x2 from a seeded CSV; the run's address names the CSV, and reloaded, the
//   page asks for that file again; a broken plugin is one error line that changes nothing; a bad
//   CSV is one error line;
// - the playground's tabs request nothing outside the site's origin, throw or log no console error.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { parseResult } from "../../src/lib/result/reproduce.js";
import { createRng } from "../../src/lib/core/rng.js";
import { chooseEngine, type FitEngine } from "../../src/lib/api/calibrate.js";
import { cli } from "../helpers/cli.js";
import {
  artifacts,
  calibrationLine,
  download,
  readCalibration,
  runLog,
  selected,
  tick,
  ticked,
  waitForRun,
} from "../helpers/playground.js";
import { openBuiltSite, repo, WAIT_MS } from "../helpers/site.js";

/** The learned equation of `target` as the page renders it: KaTeX's TeX annotation and visible text. */
async function renderedEquation(page: Page, target: string): Promise<{ tex: string; visible: string }> {
  const equation = page.locator(`.pg-equation[data-target="${target}"]`);
  await equation.waitFor({ timeout: WAIT_MS });
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

/** The live charts of run `id`: its rewards per episode, and its Pareto front (complexity, NRMSE). */
async function charts(page: Page, id: number): Promise<{ rewards: number[]; front: [number, number][] }> {
  const rewards = page.locator(`.pg-rewards[data-run="${id}"]`);
  const front = page.locator(`.pg-front[data-run="${id}"]`);
  await rewards.waitFor({ timeout: WAIT_MS });
  await front.waitFor({ timeout: WAIT_MS });
  return {
    rewards: JSON.parse((await rewards.getAttribute("data-rewards")) ?? "[]"),
    front: JSON.parse((await front.getAttribute("data-front")) ?? "[]").map(
      (f: { complexity: number; nrmse: number }) => [f.complexity, f.nrmse],
    ),
  };
}

/** y = 2·tanh(1.5·x1)·x2 on 200 rows of x1, x2 ~ U(1, 2) (seeded), as a CSV. */
function tanhCsv(): string {
  const rng = createRng(7);
  const x1 = Array.from({ length: 200 }, () => rng.uniform(1, 2));
  const x2 = Array.from({ length: 200 }, () => rng.uniform(1, 2));
  return `x1,x2,y\n${x1.map((a, i) => `${a},${x2[i]},${2 * Math.tanh(1.5 * a) * x2[i]!}`).join("\n")}\n`;
}

test("the playground: Run and Stop, the address, live charts, plugin files, JSON for reproduce", {
  timeout: 1_200_000,
}, async (t) => {
  const missing: string[] = [];
  const { server, browser } = await openBuiltSite(t, (path) => {
    if (path !== "/favicon.ico") missing.push(path);
  });
  mkdirSync(artifacts, { recursive: true });
  const outside: string[] = [];
  const errors: string[] = [];
  browser.context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url)) outside.push(url);
  });
  /** A new tab whose thrown errors and console errors are collected (the site has no favicon: its 404 is not one). */
  const open = async (name: string) => {
    const tab = await browser.context.newPage();
    tab.on("pageerror", (error) => errors.push(`${name}: ${error.message}`));
    tab.on("console", (message) => {
      if (message.type() !== "error" || message.location().url === `${server.origin}/favicon.ico`) return;
      errors.push(`${name}: console: ${message.text()}`);
    });
    return tab;
  };
  const playground = `${server.origin}/playground`;
  const page = await open("playground");

  // 1. The first visit runs the default once, at once: the toy on js (auto before any measurement,
  // and the badge says why), to the end; then the calibration measures, in its own worker.
  const started = performance.now();
  await page.goto(playground);
  await page.locator(".pg-backend[data-backend]:not([data-backend=''])").waitFor({ timeout: 120_000 });
  const badge = page.locator(".pg-backend");
  assert.equal(await badge.getAttribute("data-engine"), "js", "the first run's engine before any measurement");
  assert.equal(await badge.getAttribute("data-backend"), "cpu");
  assert.match((await badge.textContent()) ?? "", /fit engine: js\b.*not measured yet/s);
  const first = await waitForRun(page, "the first toy run to finish", (row) => row.id === 1 && row.status === "done");
  assert.equal(first.engine, "js");
  const firstSeconds = (performance.now() - started) / 1000;
  const runSeconds = Number(await page.locator(".pg-status").getAttribute("data-seconds"));
  t.diagnostic(
    `toy run on js: ${runSeconds.toFixed(1)} s of search, ${firstSeconds.toFixed(1)} s from page load ` +
      `(${first.episodes} episodes)`,
  );
  const calibration = await readCalibration(page);
  t.diagnostic(`calibration after the first run: ${calibrationLine(calibration)}`);
  assert.deepEqual(
    calibration.rows.map((r) => `${r.engine} ${r.backend}`),
    ["js js", "tfjs cpu", "tfjs wasm", "tfjs webgl"],
    "the calibration does not list js and every tfjs backend",
  );
  assert.ok(calibration.rows[0]!.seconds! > 0, "no timing for the js engine");
  for (const row of calibration.rows)
    if (row.seconds === null) assert.ok(row.note, `${row.engine} ${row.backend}: unmeasured without a reason`);
  // The choice follows chooseEngine's rule on the timings shown (js unless a tfjs backend is
  // JS_MARGIN times faster), whatever those timings are on this machine and its load.
  const entries = calibration.rows.map((r) => ({ ...r, engine: r.engine as FitEngine }));
  assert.deepEqual(calibration.choice, chooseEngine(entries), "the calibration's choice does not follow its rule");
  assertToy(await renderedEquation(page, "y"));
  assert.match((await page.locator(".pg-equation-meta").first().textContent()) ?? "", /exact/);
  // The noise estimate the search stopped at, beside the train NRMSE (the result's search.noise).
  assert.match((await page.locator(".pg-equation .pg-noise").first().textContent()) ?? "", /^noise estimate \S+/);
  const noiseShown = await page.locator('.pg-equation[data-target="y"]').getAttribute("data-noise");
  assert.ok(noiseShown && Number(noiseShown) >= 0, `the equation's noise estimate: "${noiseShown}"`);
  // The front as a table under the equations, the answer's row marked once and showing the answer.
  const chosenRows = page.locator('.pg-front-row[data-target="y"][data-chosen="true"]');
  assert.equal(await chosenRows.count(), 1, "the front table marks one answer row");
  assert.equal(
    await chosenRows.getAttribute("data-text"),
    await page.locator('.pg-equation[data-target="y"]').getAttribute("data-text"),
    "the marked front row is not the learned equation",
  );
  // Run wrote the controls into the address.
  const address = new URL(page.url()).searchParams;
  assert.equal(address.get("dataset"), "toy");
  // The address keeps what was chosen (auto), not what it resolved to.
  assert.equal(address.get("engine"), "auto");
  assert.equal(address.get("backend"), "auto");
  assert.equal(address.get("symbols"), "x^2,cos");
  await page.screenshot({ path: join(artifacts, "docs-playground.png"), fullPage: true });

  // 2. The JSON download: the CLI's version-1 format, with the run's seconds and this browser as
  // `--timings` writes them, made on js; the charts drew this run.
  const jsonPath = await download(page, "playground-toy.json");
  const json = readFileSync(jsonPath, "utf8");
  const result = parseResult(json, jsonPath);
  assert.ok(json.endsWith("}\n") && json.startsWith('{\n  "version": 1,'), "not the CLI's two-space JSON");
  assert.deepEqual(Object.keys(result), ["version", "equations", "search", "evaluation", "manifest"]);
  assert.deepEqual(Object.keys(result.manifest), ["seed", "config", "version", "git", "backend", "runtime"]);
  assert.equal(result.manifest.backend, "cpu");
  assert.equal((result.manifest.config.fit as { engine: string }).engine, "js");
  assert.match(result.manifest.runtime!.engine, /^(HeadlessChrome|Chrom\w*) \d+.* \(V8\)$/);
  assert.ok(result.manifest.runtime!.cores === null || result.manifest.runtime!.cores >= 1);
  assert.ok(
    typeof result.search.seconds === "number" && Math.abs(result.search.seconds - runSeconds) < 0.1,
    `search.seconds ${result.search.seconds} is not the run's ${runSeconds} s`,
  );
  assert.equal(result.manifest.config.experiment, "toy");
  assert.match(result.manifest.git, /^[0-9a-f]{40}$|^unknown$/);
  assert.equal(result.equations[0]!.text, "3*x1^2*cos(2.5*x2)");
  assert.equal(result.evaluation?.[0]?.exact, true);
  const toyCharts = await charts(page, 1);
  assert.equal(toyCharts.rewards.length, result.search.episodes, "the reward chart misses episodes");
  assert.deepEqual(
    toyCharts.front,
    result.search.front!.map((f) => [f.complexity, f.nrmse]),
    "the live Pareto front is not the result's",
  );

  // 3. A changed control starts nothing; Run does. The toy on tfjs, on webgl (SwiftShader here),
  // chosen explicitly over the calibration (float32: re-run in Node within float32 tolerance in step 10).
  await page.getByLabel("fit engine", { exact: true }).selectOption({ label: "tfjs (float32)" });
  await page.getByLabel("tfjs backend", { exact: true }).selectOption({ label: "webgl" });
  await page.getByLabel("seed", { exact: true }).fill("1");
  await page.getByLabel("seed", { exact: true }).fill("0");
  await page.waitForTimeout(1500);
  assert.deepEqual(
    (await runLog(page)).map((row) => row.id),
    [1],
    "changing a control started a run",
  );
  assert.equal(await page.locator(".pg-pending").getAttribute("data-pending"), "true", "no reminder to press Run");
  await page.locator(".pg-run").click();
  const webglRun = await waitForRun(
    page,
    "the toy run on webgl to finish",
    (row) => row.id === 2 && row.status === "done",
  );
  assert.deepEqual([webglRun.engine, webglRun.backend], ["tfjs", "webgl"]);
  assert.equal(await badge.getAttribute("data-engine"), "tfjs");
  assert.equal(await badge.getAttribute("data-backend"), "webgl");
  assert.match((await badge.textContent()) ?? "", /tfjs backend: webgl/);
  const chosen = new URL(page.url()).searchParams;
  assert.deepEqual([chosen.get("engine"), chosen.get("backend")], ["tfjs", "webgl"]);
  assert.equal(await page.locator(".pg-pending").getAttribute("data-pending"), "false");
  t.diagnostic(`toy run on tfjs webgl: ${webglRun.seconds.toFixed(1)} s of search (${webglRun.episodes} episodes)`);
  const webglPath = await download(page, "playground-toy-webgl.json");
  const webglResult = parseResult(readFileSync(webglPath, "utf8"), webglPath);
  assert.equal(webglResult.manifest.backend, "webgl");
  assert.equal((webglResult.manifest.config.fit as { engine: string }).engine, "tfjs");
  assertToy(await renderedEquation(page, "y"));

  // 4. Stop: syn1 with the stop rule off ("never": the linear-algebra proposals find syn1 in one
  // episode per output, too fast to stop mid-run) and seed 2 runs, on the engine auto picks and the
  // backend cpu; meanwhile the status bar stays on screen at the bottom of the page, and a control
  // changed mid-run neither stops it nor starts another; Stop cancels it at the end of its episode.
  await page.getByLabel("fit engine", { exact: true }).selectOption({ label: "auto (measured)" });
  await page.getByLabel("tfjs backend", { exact: true }).selectOption({ label: "cpu" });
  await page.getByLabel("dataset", { exact: true }).selectOption({ label: "syn1" });
  await page.getByLabel("stop NRMSE", { exact: true }).selectOption({ label: "never" });
  await page.getByLabel("seed", { exact: true }).fill("2");
  await page.locator(".pg-run").click();
  const syn1 = await waitForRun(
    page,
    "a syn1 run past its second episode",
    (row) =>
      row.id === 3 &&
      row.label.startsWith("syn1 (2000 rows)") &&
      row.label.includes("seed 2,") &&
      row.status === "running" &&
      row.episodes >= 2,
  );
  const syn1Address = page.url();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.waitForTimeout(300);
  const bar = await page.locator(".pg-bar").evaluate((element) => {
    const { top, bottom } = element.getBoundingClientRect();
    return { top, bottom, height: window.innerHeight, scrolled: window.scrollY };
  });
  assert.ok(bar.scrolled > 1000, `the page did not scroll (${bar.scrolled} px)`);
  assert.ok(bar.top >= 0 && bar.bottom <= bar.height, `the status bar left the screen: ${JSON.stringify(bar)}`);
  assert.equal(await page.locator(".pg-bar .pg-status").getAttribute("data-status"), "running");
  await page.screenshot({ path: join(artifacts, "docs-playground-running.png") });
  await page.getByLabel("seed", { exact: true }).fill("3");
  await page.waitForTimeout(1500);
  const going = await runLog(page);
  assert.deepEqual(
    going.map((row) => [row.id, row.status]),
    [
      [3, "running"],
      [2, "done"],
      [1, "done"],
    ],
    "a control changed mid-run stopped the run or started another",
  );
  await page.locator(".pg-stop").click();
  const stopped = await waitForRun(page, "run #3 to be stopped", (row) => row.id === 3 && row.status === "stopped");
  await page.waitForTimeout(1500);
  const later = await runLog(page);
  assert.equal(later.length, 3, "Stop started a run");
  assert.equal(later[0]!.episodes, stopped.episodes, "run #3 kept advancing after it was stopped");
  assert.ok(stopped.episodes >= syn1.episodes, "the stopped run lost progress");
  assert.equal(await page.locator(".pg-stop").isDisabled(), true, "Stop is enabled with no run going");
  // Stopped, the run keeps its best so far: its equations are shown and downloadable.
  await page.locator(".pg-stopped").waitFor({ timeout: WAIT_MS });
  const shown = await page.locator(".pg-equation").count();
  assert.ok(shown >= 1, "the stopped syn1 run shows no equation");
  const stoppedPath = await download(page, "playground-syn1-stopped.json");
  const stoppedResult = parseResult(readFileSync(stoppedPath, "utf8"), stoppedPath);
  assert.equal(stoppedResult.search.stopReason, "aborted");
  assert.equal(stoppedResult.equations.length, shown, "the page and the download differ");
  t.diagnostic(`Stop: syn1 run #3 stopped after ${stopped.episodes} episodes (frozen), its best so far kept`);

  // 5. The address restores the controls of the last Run (seed 2, not the 3 typed after it) and
  // waits for Run; bad or unknown parameters are one notice, the rest still restored.
  const restored = await open("playground (restored)");
  await restored.goto(syn1Address);
  await restored.locator(".pg-data-note[data-dataset='syn1']").waitFor({ timeout: WAIT_MS });
  assert.equal(await selected(restored, "dataset"), "syn1");
  assert.equal(await restored.getByLabel("seed", { exact: true }).inputValue(), "2");
  assert.equal(await restored.getByLabel("rows", { exact: true }).inputValue(), "2000");
  assert.equal(await selected(restored, "stop NRMSE"), "never");
  assert.equal(await selected(restored, "tfjs backend"), "cpu");
  assert.equal(await selected(restored, "fit engine"), "auto (measured)");
  assert.deepEqual(
    (await ticked(restored, "symbols")).filter(([, on]) => on).map(([name]) => name),
    ["x", "x^2", "cos"],
  );
  assert.equal(await restored.locator(".pg-url-notice").count(), 0, "a notice for a good address");
  await restored.waitForTimeout(1500);
  assert.deepEqual(await runLog(restored), [], "an address with parameters started a run");
  const bad = new URL(syn1Address);
  bad.searchParams.set("seed", "abc");
  bad.searchParams.set("bogus", "1");
  await restored.goto(bad.href);
  await restored.locator(".pg-data-note[data-dataset='syn1']").waitFor({ timeout: WAIT_MS });
  assert.equal(
    ((await restored.locator(".pg-url-notice").textContent()) ?? "").trim(),
    "Ignored in this URL: seed=abc (not a whole number); bogus=1 (unknown parameter).",
  );
  assert.equal(await restored.getByLabel("seed", { exact: true }).inputValue(), "0");
  assert.equal(await selected(restored, "stop NRMSE"), "never");
  await restored.close();

  // 6. The plugin guide's tanh.js (its download link), loaded in the playground, recovers
  // y = 2·tanh(1.5·x1)·x2 from a seeded 200-row CSV with the symbols my.tanh and x, one product of at
  // most two factors, on the engine auto picks (js here; the backend control still says cpu),
  // 8 episodes with the stop rule off (so that the Pareto chart gets several structures).
  const guide = await open("plugins");
  await guide.goto(`${server.origin}/guide/plugins`);
  const href = await guide.locator("a.plugin-download").first().getAttribute("href");
  assert.ok(href, "the plugin guide has no tanh.js link");
  const tanhResponse = await guide.request.get(new URL(href, guide.url()).href);
  assert.equal(tanhResponse.status(), 200, `the guide's tanh.js link ${href} is broken`);
  const tanhSource = (await tanhResponse.body()).toString("utf8");
  const guideCode = (await guide.locator("pre").first().textContent()) ?? "";
  assert.equal(guideCode.trim(), tanhSource.trim(), "tanh.js is not the guide's example");
  await guide.close();

  await page.evaluate(() => window.scrollTo(0, 0));
  const pluginInput = page.getByLabel("plugin file", { exact: true });
  await pluginInput.setInputFiles({ name: "tanh.js", mimeType: "text/javascript", buffer: Buffer.from(tanhSource) });
  await page.locator(".pg-plugins[data-plugins='my.tanh']").waitFor({ timeout: WAIT_MS });
  const tanhData = join(artifacts, "tanh.csv");
  writeFileSync(tanhData, tanhCsv());
  await page.getByLabel("CSV file").setInputFiles(tanhData);
  await page.locator(".pg-data-note", { hasText: "tanh.csv: columns x1, x2, y" }).waitFor({ timeout: WAIT_MS });
  assert.equal(await selected(page, "dataset"), "CSV file", "choosing a file did not switch the dataset to it");
  await tick(page, "symbols", ["my.tanh", "x"]);
  await page.getByLabel("terms", { exact: true }).fill("1");
  await page.getByLabel("max factors", { exact: true }).fill("2");
  await page.getByLabel("episodes", { exact: true }).fill("8");
  await page.locator(".pg-run").click();
  await waitForRun(page, "the tanh run to finish", (row) => row.id === 4 && row.status === "done", 120_000);
  const tanhShown = await renderedEquation(page, "y");
  const tanhForm = /^y=([\d.]+)\\tanh\\left\(([\d.]+)x_\{1\}\\right\)x_\{2\}$/.exec(tanhShown.tex.replace(/\s+/g, ""));
  assert.ok(tanhForm, `the rendered equation is not of the form c·tanh(w·x1)·x2: ${tanhShown.tex}`);
  const [c, w] = [Number(tanhForm[1]), Number(tanhForm[2])];
  assert.ok(Math.abs(c - 2) / 2 <= 0.01, `coefficient ${c} is not within 1 % of 2`);
  assert.ok(Math.abs(w - 1.5) / 1.5 <= 0.01, `inner weight ${w} is not within 1 % of 1.5`);
  const tanhPath = await download(page, "playground-tanh.json");
  const tanhResult = parseResult(readFileSync(tanhPath, "utf8"), tanhPath);
  assert.deepEqual(tanhResult.manifest.config.symbols, ["x", "my.tanh"]);
  const tanhCharts = await charts(page, 4);
  assert.equal(tanhCharts.rewards.length, 8);
  assert.ok(tanhCharts.front.length >= 2, `a front of ${tanhCharts.front.length} point(s) after 8 episodes`);
  assert.deepEqual(
    tanhCharts.front,
    tanhResult.search.front!.map((f) => [f.complexity, f.nrmse]),
    "the live Pareto front is not the result's",
  );
  const params = new URL(page.url()).searchParams;
  assert.equal(params.get("symbols"), "x,my.tanh");
  assert.equal(params.get("targets"), "y");
  assert.equal(params.get("file"), "tanh.csv");
  assert.match(
    (await page.locator(".pg-download").getAttribute("data-filename")) ?? "",
    /^consolesr-tanh-consolesr-seed\d+\.json$/,
    "a CSV run's download is not named by its file",
  );
  // Reloaded, the address names the CSV it ran on (a file cannot be kept in an address).
  const reloaded = await open("playground (CSV address)");
  await reloaded.goto(page.url());
  const missingCsv = reloaded.locator(".pg-csv-missing");
  await missingCsv.waitFor({ timeout: WAIT_MS });
  assert.equal(await missingCsv.getAttribute("data-file"), "tanh.csv");
  assert.match((await missingCsv.textContent()) ?? "", /choose tanh\.csv again/);
  await reloaded.close();
  t.diagnostic(`tanh plugin: y = ${c}·tanh(${w}·x1)·x2, front of ${tanhCharts.front.length} points`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(artifacts, "docs-playground-tanh.png"), fullPage: true });

  // 7. A broken plugin (the guide's wrong derivative) is one error line and changes nothing.
  const before = await ticked(page, "symbols");
  await pluginInput.setInputFiles({
    name: "broken.js",
    mimeType: "text/javascript",
    buffer: Buffer.from(tanhSource.replace('name: "my.tanh"', 'name: "my.tanh2"').replace("** 2", "")),
  });
  const pluginError = page.locator(".pg-plugin-error");
  await pluginError.waitFor({ timeout: WAIT_MS });
  assert.match(
    ((await pluginError.textContent()) ?? "").trim(),
    new RegExp(
      /^error: plugin file broken\.js: plugin my\.tanh2: derivative: derivative\([-\d.]+\) = [-\d.e]+ /.source +
        /but a central difference of evaluate gives [-\d.e]+$/.source,
    ),
  );
  assert.equal(await pluginError.count(), 1);
  assert.deepEqual(await ticked(page, "symbols"), before, "a broken plugin changed the symbols");
  assert.equal(await page.locator(".pg-plugins").getAttribute("data-plugins"), "my.tanh", "a broken plugin was loaded");

  // 8. A bad CSV: one readable line naming the file, row and column.
  await page.getByLabel("CSV file").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      `x1,y\n${Array.from({ length: 12 }, (_, i) => `${i + 1},${i === 4 ? "abc" : 2 * i}`).join("\n")}\n`,
    ),
  });
  const csvError = page.locator(".pg-csv-error");
  await csvError.waitFor({ timeout: WAIT_MS });
  assert.equal(
    ((await csvError.textContent()) ?? "").trim(),
    'error: bad.csv: row 5 (line 6), column "y": "abc" is not a number',
  );

  // 9. No error in the playground's tabs, nothing from another origin, no missing file (every other
  // page is checked, and photographed, by report-pages.test.ts).
  assert.deepEqual(errors, [], "errors thrown or logged in the pages");
  assert.deepEqual(outside, [], "requests outside the site's origin");
  assert.deepEqual(missing, [], "requests for files the site does not have");

  // 10. The webgl download re-runs with the CLI and matches (float32 webgl → cpu: tolerance 1e-4).
  const reproduced = await cli(["reproduce", webglPath, "--quiet"], { timeoutMs: 300_000 });
  assert.equal(reproduced.code, 0, `consolesr reproduce failed:\n${reproduced.stdout}${reproduced.stderr}`);
  assert.match(
    reproduced.stdout,
    new RegExp(
      /reproduced within float32 tolerance: all 1 equation match /.source +
        /\(float32-tolerance match, tolerance 0\.0001; allowed because the original's manifest names webgl/.source,
    ),
  );

  // 11. The first run's result (js fits, tfjs on cpu, both float64) re-runs in Node bit for bit
  // (tolerance 1e-9).
  const firstRerun = await cli(["reproduce", jsonPath, "--quiet"], { timeoutMs: 300_000 });
  assert.equal(
    firstRerun.code,
    0,
    `consolesr reproduce failed on the first result:\n${firstRerun.stdout}${firstRerun.stderr}`,
  );
  assert.match(
    firstRerun.stdout,
    new RegExp(
      /reproduced exactly: all 1 equation and every stored field match \(exact match, tolerance 1e-9; /.source +
        `both runs on cpu, a float64 backend; backend cpu → cpu\\)`,
    ),
  );

  // 12. The tanh result re-runs in Node with the guide's plugin file and its CSV (beside it in artifacts/).
  const tanhRerun = await cli(["reproduce", tanhPath, "--plugin", join(repo, "site/plugins/tanh.js"), "--quiet"], {
    timeoutMs: 300_000,
  });
  assert.equal(
    tanhRerun.code,
    0,
    `consolesr reproduce failed on the tanh result:\n${tanhRerun.stdout}${tanhRerun.stderr}`,
  );
  assert.match(tanhRerun.stdout, /^y: same {2}2\*tanh\(1\.5\*x1\)\*x2$/m);
  assert.match(tanhRerun.stdout, /reproduced exactly: all 1 equation and every stored field match/);

  // 13. The stopped syn1 run re-runs in Node to the point where Stop ended it (its episodes per
  // output, "aborted"), however long Node takes (issue 59: it re-ran the whole search, "NOT reproduced").
  const stoppedRerun = await cli(["reproduce", stoppedPath, "--quiet"], { timeoutMs: 300_000 });
  assert.equal(
    stoppedRerun.code,
    0,
    `the stopped run does not reproduce:\n${stoppedRerun.stdout}${stoppedRerun.stderr}`,
  );
  assert.match(stoppedRerun.stdout, /^reproduced (exactly|within float32 tolerance)/m);
});
