// The playground on a noisy CSV (issue 56), in headless Chromium on the built site: a ratio of
// sums, y = (a + 2·b·c)/(1 + 0.5·d), with Gaussian noise of 1 % of y's RMS nobody announces, run
// with the CSV's defaults (every symbol, the size growing by itself, the noise-floor stop), is
// answered as a ratio with the law's terms above and below, and the page shows the noise estimate
// the search stopped at (near the noise drawn) and the front as a table with the answer marked.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseResult } from "../../src/lib/result/reproduce.js";
import { createRng } from "../../src/lib/core/rng.js";
import { artifacts, download, waitForRun, watchErrors } from "../helpers/playground.js";
import { openBuiltSite, WAIT_MS } from "../helpers/site.js";

/** The law on 800 seeded rows with noise of 1 % of its RMS; also the noise's share of y's std. */
function noisyRatioCsv(): { csv: string; noise: number } {
  const rng = createRng(21);
  const rows = Array.from({ length: 800 }, () => [
    rng.uniform(0.5, 3),
    rng.uniform(0.5, 2),
    rng.uniform(0.5, 2),
    rng.uniform(0, 4),
  ]);
  const clean = rows.map(([a, b, c, d]) => (a! + 2 * b! * c!) / (1 + 0.5 * d!));
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
  const y = clean.map((v) => v + 0.01 * rms * rng.normal());
  const mean = clean.reduce((s, v) => s + v, 0) / clean.length;
  const std = Math.sqrt(clean.reduce((s, v) => s + (v - mean) ** 2, 0) / clean.length);
  const csv = `a,b,c,d,y\n${rows.map((r, i) => `${r.join(",")},${y[i]}`).join("\n")}\n`;
  return { csv, noise: (0.01 * rms) / std };
}

test("the playground: a noisy ratio CSV is answered as a ratio, with its noise estimate and front", {
  timeout: 900_000,
}, async (t) => {
  const { server, browser } = await openBuiltSite(t);
  mkdirSync(artifacts, { recursive: true });
  const errors: string[] = [];
  const page = await browser.context.newPage();
  watchErrors(page, "playground", errors);
  // An address with a dataset restores the controls and runs nothing until Run.
  await page.goto(`${server.origin}/playground?dataset=csv`);
  const { csv, noise } = noisyRatioCsv();
  const path = join(artifacts, "noisy-ratio.csv");
  writeFileSync(path, csv);
  await page.getByLabel("CSV file").setInputFiles(path);
  await page
    .locator(".pg-data-note", { hasText: "noisy-ratio.csv: columns a, b, c, d, y" })
    .waitFor({ timeout: WAIT_MS });
  await page.locator(".pg-run").click();
  const run = await waitForRun(page, "the noisy ratio run to finish", (row) => row.status === "done", 600_000);
  const equation = page.locator('.pg-equation[data-target="y"]');
  await equation.waitFor({ timeout: WAIT_MS });
  const text = (await equation.getAttribute("data-text")) ?? "";
  assert.match(text, /^\([\d.]+\*a \+ [\d.]+\*b\*c\)\/\([\d.]+\*d \+ 1\)$/, `not the ratio's terms: ${text}`);
  // The page rendered it as a fraction.
  const tex = (await equation.locator(".katex-mathml annotation").textContent()) ?? "";
  assert.match(tex, /\\frac/, `no fraction in the rendered equation: ${tex}`);
  // The noise estimate the search stopped at, shown beside the equation, near the noise drawn.
  const shown = Number(await equation.getAttribute("data-noise"));
  assert.ok(shown > noise / 2 && shown < noise * 2, `noise estimate ${shown} against ${noise} drawn`);
  assert.match((await equation.locator(".pg-noise").textContent()) ?? "", /^noise estimate \S+/);
  // The front as a table: several structures, the answer's row marked once and showing the answer.
  const rows = page.locator('.pg-front-row[data-target="y"]');
  assert.ok((await rows.count()) >= 2, `a front of ${await rows.count()} row(s)`);
  const chosen = page.locator('.pg-front-row[data-target="y"][data-chosen="true"]');
  assert.equal(await chosen.count(), 1, "the front table marks one answer row");
  assert.equal(await chosen.getAttribute("data-text"), text, "the marked front row is not the answer");
  // The JSON says the same: a ratio that stopped at the noise floor.
  const result = parseResult(readFileSync(await download(page, "playground-noisy-ratio.json"), "utf8"), "noisy.json");
  assert.deepEqual(result.requires, ["denominator"]);
  assert.equal(result.search.stopReason, "noise-floor");
  assert.deepEqual(errors, [], "the page threw or logged an error");
  const estimate = `noise estimate ${shown.toExponential(2)} (drawn ${noise.toExponential(2)})`;
  t.diagnostic(`noisy ratio in the browser: ${text}, ${estimate}, ${run.seconds} s`);
});
