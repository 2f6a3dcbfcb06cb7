// A browser result reproduces in Node: the playground at its defaults (fit engine auto, tfjs
// backend auto) in headless Chromium, on two seeded CSVs of the user's kind and on syn1; each
// "Download JSON" goes to `consolesr reproduce … --quiet` in Node, which must exit 0 with
// "reproduced exactly" (tolerance 1e-9, every stored field).
//
// That needs the page to fit on the float64 js engine (auto means js until the calibration has
// measured, and the calibration picks js here: headless Chromium without a GPU, WebGL is
// SwiftShader) and every decision of the search to compute the same bits in Chromium's V8 and
// Node's (src/lib/core/math.ts). The page's calibration table, each run's seconds and
// the CSVs' data go to the test's diagnostics and to artifacts/ (git-ignored), where reproduce finds
// each CSV beside its JSON.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseResult } from "../../src/lib/result/reproduce.js";
import { JS_MARGIN } from "../../src/lib/api/calibrate.js";
import { exp, sin } from "../../src/lib/core/math.js";
import { createRng } from "../../src/lib/core/rng.js";
import { cli } from "../helpers/cli.js";
import {
  artifacts,
  calibrationLine,
  download,
  readCalibration,
  selected,
  tick,
  waitForRun,
} from "../helpers/playground.js";
import { openBuiltSite, WAIT_MS } from "../helpers/site.js";

/** `rows` rows of `inputs` columns ~ U(lo, hi) (seeded, column by column) and the targets `f` gives, as a CSV. */
function seededCsv(
  seed: number,
  rows: number,
  inputs: number,
  [lo, hi]: [number, number],
  targets: Record<string, (x: number[]) => number>,
): string {
  const rng = createRng(seed);
  const columns = Array.from({ length: inputs }, () => Array.from({ length: rows }, () => rng.uniform(lo, hi)));
  const names = [...columns.map((_, j) => `x${j + 1}`), ...Object.keys(targets)];
  const lines = Array.from({ length: rows }, (_, i) => {
    const x = columns.map((c) => c[i]!);
    return [...x, ...Object.values(targets).map((f) => f(x))].join(",");
  });
  return `${names.join(",")}\n${lines.join("\n")}\n`;
}

const CSVS = {
  // y = 2·x1·x2 + x3², x1..x3 ~ U(0.5, 3)
  "reproduce-product.csv": () => seededCsv(11, 200, 3, [0.5, 3], { y: ([x1, x2, x3]) => 2 * x1! * x2! + x3! * x3! }),
  // two targets: y1 = 1.5·sin(2·x1)·x2 − x2 and y2 = 0.5·exp(x1)·x2 + x1, x1, x2 ~ U(−2, 2)
  "reproduce-trig.csv": () =>
    seededCsv(12, 200, 2, [-2, 2], {
      y1: ([x1, x2]) => 1.5 * sin(2 * x1!) * x2! - x2!,
      y2: ([x1, x2]) => 0.5 * exp(x1!) * x2! + x1!,
    }),
  // an outer function: y = √(x1² + 2·x2²), x1, x2 ~ U(0.5, 2)
  "reproduce-outer.csv": () =>
    seededCsv(13, 200, 2, [0.5, 2], { y: ([x1, x2]) => Math.sqrt(x1! * x1! + 2 * x2! * x2!) }),
  // a ratio: y = (x1 + 2·x2)/(1 + x1·x2), x1, x2 ~ U(0.5, 2)
  "reproduce-ratio.csv": () => seededCsv(14, 200, 2, [0.5, 2], { y: ([x1, x2]) => (x1! + 2 * x2!) / (1 + x1! * x2!) }),
  // a function of a monomial: y = 2·sin(0.7·x1·x2), x1, x2 ~ U(0.5, 2)
  "reproduce-monomial.csv": () => seededCsv(15, 200, 2, [0.5, 2], { y: ([x1, x2]) => 2 * sin(0.7 * x1! * x2!) }),
};

test("a playground run at the defaults reproduces bit for bit in Node: five CSVs (outer, ratio, monomial) and syn1", {
  timeout: 900_000,
}, async (t) => {
  const { server, browser } = await openBuiltSite(t);
  mkdirSync(artifacts, { recursive: true });
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.location().url.endsWith("/favicon.ico"))
      errors.push(`console: ${message.text()}`);
  });

  // An address with a parameter waits for Run (no first-visit toy run); it sets only the dataset.
  await page.goto(`${server.origin}/playground?dataset=csv`);
  await page.locator(".pg-data-note[data-dataset='csv']").waitFor({ timeout: 120_000 });
  assert.equal(await selected(page, "fit engine"), "auto (measured)");
  assert.equal(await selected(page, "tfjs backend"), "auto (measured)");
  // With the engine on auto and no first-visit run, the calibration measures at once, in its own worker.
  assert.match((await page.locator(".pg-calibration").getAttribute("data-status")) ?? "", /^(running|done)$/);

  const runs: { name: string; path: string; targets: number; seconds: number; episodes: number }[] = [];
  /** Run with the controls as they are, wait for it, download its JSON. */
  const runAndDownload = async (name: string, id: number, targets: number) => {
    await page.locator(".pg-run").click();
    const row = await waitForRun(page, `${name} to finish`, (r) => r.id === id && r.status === "done", 300_000);
    assert.equal(row.engine, "js", `${name} did not fit on the js engine`);
    const path = await download(page, `${name.replace(/\.csv$/, "")}.json`);
    runs.push({ name, path, targets, seconds: row.seconds, episodes: row.episodes });
    t.diagnostic(`${name}: ${row.seconds.toFixed(1)} s of search in Chromium, ${row.episodes} episodes`);
  };

  // 1. The CSVs: choose the file (and for the second, both of its targets), Run.
  let id = 0;
  for (const [name, make] of Object.entries(CSVS)) {
    const file = join(artifacts, name);
    writeFileSync(file, make());
    await page.getByLabel("CSV file").setInputFiles(file);
    await page.locator(".pg-data-note", { hasText: `${name}: columns` }).waitFor({ timeout: WAIT_MS });
    const targets = name === "reproduce-trig.csv" ? ["y1", "y2"] : ["y"];
    await tick(page, "targets", targets);
    await runAndDownload(name, ++id, targets.length);
    if (name === "reproduce-outer.csv") {
      // The outer function is in the page's KaTeX and in the download, which requires it.
      const shown = page.locator(".pg-equation[data-target='y']").last();
      assert.match((await shown.getAttribute("data-latex")) ?? "", /^\\sqrt\{/);
      assert.ok((await shown.locator(".katex .sqrt").count()) >= 1, "KaTeX drew no square root");
      const outer = parseResult(readFileSync(runs.at(-1)!.path, "utf8"), "outer.json");
      assert.equal(outer.equations[0]!.outer, "sqrt");
      assert.deepEqual(outer.requires, ["outer"]);
    }
    if (name === "reproduce-ratio.csv") {
      // A ratio: KaTeX draws the fraction, and the download carries its denominator.
      const shown = page.locator(".pg-equation[data-target='y']").last();
      assert.match((await shown.getAttribute("data-latex")) ?? "", /^\\frac\{/);
      assert.ok((await shown.locator(".katex .mfrac").count()) >= 1, "KaTeX drew no fraction");
      const ratio = parseResult(readFileSync(runs.at(-1)!.path, "utf8"), "ratio.json");
      assert.ok(ratio.equations[0]!.denominator, ratio.equations[0]!.text);
      assert.deepEqual(ratio.requires, ["denominator"]);
    }
    if (name === "reproduce-monomial.csv") {
      // A function of a monomial: sin of x1·x2 in KaTeX, and `monomial` in the download.
      const shown = page.locator(".pg-equation[data-target='y']").last();
      assert.match((await shown.getAttribute("data-latex")) ?? "", /\\sin\\left\(.*x_\{1\} x_\{2\}/);
      assert.ok((await shown.locator(".katex").count()) >= 1, "KaTeX drew nothing");
      const monomial = parseResult(readFileSync(runs.at(-1)!.path, "utf8"), "monomial.json");
      assert.deepEqual(monomial.requires, ["monomial"], monomial.equations[0]!.text);
    }
    if (id === 1) {
      // The calibration (at most 2 s once its worker has loaded): js measured, every tfjs backend
      // measured or listed with why (how many fit in the budget depends on the machine's load: the
      // rule is checked, not the count), js chosen (no tfjs backend is JS_MARGIN times faster here:
      // without a GPU, js fits about five times faster than the fastest of them).
      const calibration = await readCalibration(page);
      t.diagnostic(`calibration in Chromium: ${calibrationLine(calibration)}`);
      assert.deepEqual(calibration.choice, { engine: "js", backend: "cpu" }, "the calibration did not choose js");
      assert.equal(await page.locator(".pg-calibration").getAttribute("data-choice"), "js");
      const js = calibration.rows.find((r) => r.engine === "js");
      assert.ok(js && js.seconds !== null && js.seconds > 0, "no timing for the js engine");
      const tfjs = calibration.rows.filter((r) => r.engine === "tfjs");
      assert.deepEqual(
        tfjs.map((r) => r.backend),
        ["cpu", "wasm", "webgl"],
        "the calibration does not list every tfjs backend",
      );
      for (const r of tfjs) assert.ok(r.seconds !== null || r.note, `tfjs ${r.backend}: neither a timing nor why`);
      // the rule (chooseEngine): no tfjs backend JS_MARGIN times faster than js, which the choice above needs
      for (const r of tfjs)
        if (r.seconds !== null) assert.ok(r.seconds * JS_MARGIN >= js.seconds!, `${r.backend} beat js by the margin`);
      assert.equal(await page.locator(".pg-backend").getAttribute("data-engine"), "js");
      assert.equal(await page.locator(".pg-backend").getAttribute("data-backend"), "cpu");
      // The address keeps what was chosen: auto.
      const address = new URL(page.url()).searchParams;
      assert.deepEqual([address.get("engine"), address.get("backend")], ["auto", "auto"]);
    }
  }

  // 2. syn1 (three outputs; its preset: 2000 rows, 50 Adam steps), everything else as it was.
  await page.getByLabel("dataset", { exact: true }).selectOption({ label: "syn1" });
  await page.locator(".pg-data-note[data-dataset='syn1']").waitFor({ timeout: WAIT_MS });
  await runAndDownload("syn1", ++id, 3);
  assert.equal(await page.locator(".pg-calibration").getAttribute("data-status"), "done");
  assert.deepEqual(errors, [], "errors thrown or logged in the page");

  // 3. Each download: engine js and Chromium's runtime facts in its manifest; `consolesr reproduce`
  // exits 0, bit for bit.
  for (const run of runs) {
    const result = parseResult(readFileSync(run.path, "utf8"), run.path);
    const fit = result.manifest.config.fit as { engine?: string };
    assert.equal(fit.engine, "js", `${run.name}: the manifest's config.fit.engine`);
    assert.equal(result.manifest.backend, run.name === "syn1" ? "cpu" : "js", `${run.name}: manifest.backend`);
    assert.match(
      result.manifest.runtime?.engine ?? "",
      /Chrom/,
      `${run.name}: manifest.runtime does not name Chromium`,
    );
    assert.ok(result.manifest.runtime!.os.length > 0);
    assert.equal(typeof result.search.seconds, "number", `${run.name}: no search.seconds`);
    assert.equal(result.equations.length, run.targets);
    const started = performance.now();
    const rerun = await cli(["reproduce", run.path, "--quiet"], { timeoutMs: 300_000 });
    const nodeSeconds = (performance.now() - started) / 1000;
    const equations = `${run.targets} equation${run.targets === 1 ? "" : "s"}`;
    const backend = result.manifest.backend;
    t.diagnostic(
      `${run.name}: ${result.equations.map((e) => `${e.target} = ${e.text}`).join("; ")}; ` +
        `Chromium ${result.search.seconds} s (${result.manifest.runtime!.engine}), ` +
        `reproduce in Node ${nodeSeconds.toFixed(1)} s: ${rerun.stdout.trim().split("\n").at(-1)}`,
    );
    assert.equal(rerun.code, 0, `${run.name}: consolesr reproduce failed:\n${rerun.stdout}${rerun.stderr}`);
    assert.match(
      rerun.stdout,
      new RegExp(
        `reproduced exactly: all ${equations} and every stored field match \\(exact match, tolerance 1e-9; ` +
          `both runs on ${backend}, a float64 backend; backend ${backend} → ${backend}\\)`,
      ),
      `${run.name}: not reproduced bit for bit`,
    );
  }
});
