/**
 * The site's searches in headless Chromium, as a reader meets them:
 *
 * 1. First answer: a first visit of the playground (a fresh browser profile) runs its default, the
 *    toy run (y = 3·x1²·cos(2.5·x2), 500 rows, 20 Adam steps per structure, LM polish), at once on
 *    js, and then calibrates in its own worker (at most 2 s once loaded); a second visit finds the
 *    calibration kept and measures nothing. Seconds from navigation to the run's result, against 3 s.
 * 2. A page that never blocks: on the Comparison page's form, a structure search (Algorithm 2 on
 *    syn2) and each baseline (DSR, EQL, MLP, VPG on syn1) run in the search worker; while each runs,
 *    the latency of a click's handler and the longest main-thread task, then the delay from Stop to
 *    the status that says "stopped" (best so far kept), against 200 ms and 1 s.
 * 3. The toy run on each tfjs backend (webgl, wasm, cpu), on the float64 js engine (no tfjs fits),
 *    and at the page's defaults (engine and backend auto), each on a fresh page: seed 0 cold (the
 *    backend's start-up, shader compilation on webgl, included), then seed 1 and seed 0 warm; and
 *    the calibration as the auto page showed it.
 *
 * The built site is served as a static host serves it (test/helpers/site.ts serveStatic: the hashed
 * assets cacheable, the pages not), so a worker's imports and a second visit come from the cache.
 *
 * Figures, never assertions. Here WebGL is SwiftShader (software rendering on the CPU): a real
 * GPU would differ, and for models this small per-op overhead dominates either way.
 *
 * Uses dist/ if it holds the playground (else builds the site once, as the tests do):
 * `npm run build && node --import tsx bench/browser.ts`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import {
  FORM_METHODS,
  formRunThenStop,
  installProbes,
  readCalibration,
  runLog,
  type PageCalibration,
  type RunRow,
} from "../test/helpers/playground.js";
import { buildSite, dist, ensureChromium, launchChromium, serveStatic } from "../test/helpers/site.js";

async function finished(page: Page, id: number): Promise<RunRow> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const row = (await runLog(page))[0];
    if (row && row.id === id && ["done", "error", "cancelled"].includes(row.status)) {
      if (row.status !== "done")
        throw new Error(`run #${id} ended ${row.status}: ${await page.locator(".pg-status").textContent()}`);
      return row;
    }
    if (Date.now() > deadline) throw new Error(`run #${id} did not finish in 10 minutes`);
    await page.waitForTimeout(100);
  }
}

/** Seconds from navigation to the first run's result, and the calibration the page then shows. */
async function firstAnswer(
  page: Page,
  url: string,
): Promise<{ seconds: number; calibration: PageCalibration; cached: boolean }> {
  const started = performance.now();
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector(".pg-status")?.getAttribute("data-status") === "done", null, {
    timeout: 600_000,
    polling: 20,
  });
  const seconds = (performance.now() - started) / 1000;
  const calibration = await readCalibration(page, 600_000);
  const cached = (await page.locator(".pg-calibration").getAttribute("data-cached")) === "true";
  return { seconds, calibration, cached };
}

/** The Comparison form's method runs: click latency, longest main-thread task, Stop delay. */
async function responsiveness(page: Page, origin: string): Promise<void> {
  process.stdout.write(
    "\nA page that never blocks (the Comparison page's form; each run 1 s in, then a click, then Stop):\n\n" +
      "| method (data) | click handled, ms | click round trip, ms | longest main-thread task, ms | " +
      "Stop → stopped, ms | click ≤ 200 ms | Stop ≤ 1 s |\n|---|---|---|---|---|---|---|\n",
  );
  await page.goto(`${origin}/comparison`, { waitUntil: "networkidle" });
  await installProbes(page);
  for (const [method, experiment] of FORM_METHODS) {
    const { click, longest, ended: end, delay } = await formRunThenStop(page, method, experiment, 60_000);
    const ended = end.status;
    const yes = (ok: boolean) => (ok ? "yes" : "no");
    process.stdout.write(
      `| ${method} (${experiment}) | ${click.latency.toFixed(0)} | ${click.roundTrip.toFixed(0)} | ` +
        `${longest.toFixed(0)} | ${delay.toFixed(0)}${ended === "stopped" ? "" : ` (${ended})`} | ` +
        `${yes(click.latency <= 200)} | ${yes(delay >= 0 && delay <= 1000)} |\n`,
    );
  }
}

async function main(): Promise<void> {
  const install = ensureChromium();
  if (install) throw new Error(install);
  if (!existsSync(join(dist, "playground.html"))) {
    process.stderr.write("bench:browser: building the site (dist/ has no playground)\n");
    const build = await buildSite();
    if (build.status !== 0) throw new Error(`site build failed:\n${build.output}`);
  }
  const server = await serveStatic(dist);
  // 1. First answer: a fresh profile, two visits.
  const fresh = await launchChromium();
  try {
    const version = fresh.context.browser()?.version() ?? "";
    process.stdout.write(
      `Playground default (the toy, 500 rows, 20 Adam steps per structure + LM, seed 0) in headless Chromium ` +
        `${version}: seconds from navigation to the first result (goal ≤ 3 s).\n\n` +
        "| visit | first answer, s | ≤ 3 s | calibration | calibration, s (its worker's load included) |\n" +
        "|---|---|---|---|---|\n",
    );
    for (const visit of [1, 2]) {
      const page = await fresh.context.newPage();
      const { seconds, calibration, cached } = await firstAnswer(page, `${server.origin}/playground`);
      const choice = calibration.choice.engine === "js" ? "js" : `tfjs ${calibration.choice.backend}`;
      process.stdout.write(
        `| ${visit === 1 ? "first (nothing kept)" : "second (same browser)"} | ${seconds.toFixed(2)} | ` +
          `${seconds <= 3 ? "yes" : "no"} | ` +
          `${cached ? "kept from the first visit, not measured" : "measured after the run"}: ` +
          `${choice} | ${cached ? "0 (kept)" : calibration.seconds.toFixed(2)} |\n`,
      );
      if (visit === 2) await responsiveness(page, server.origin);
      await page.close();
    }
  } finally {
    await fresh.close();
  }
  process.stdout.write("\n");

  // 3. Per engine.
  const browser = await launchChromium();
  const version = browser.context.browser()?.version() ?? "";
  process.stdout.write(
    `Playground toy run in headless Chromium ${version} (500 rows, 20 Adam steps per structure + LM, seed 0); ` +
      `seconds of search from the page's run log.\n`,
  );
  process.stdout.write("WebGL here is SwiftShader (software, on the CPU): a real GPU would differ.\n\n");
  process.stdout.write(
    "| engine / backend | seed 0 cold, s | seed 1 warm, s | seed 0 warm, s | episodes (seed 0 / 1) |\n" +
      "|---|---|---|---|---|\n",
  );
  let calibration: PageCalibration | undefined;
  try {
    for (const [label, engine, backend] of [
      ["tfjs webgl", "tfjs", "webgl"],
      ["tfjs wasm", "tfjs", "wasm"],
      ["tfjs cpu", "tfjs", "cpu"],
      ["float64 js (no tfjs fits)", "js", "auto"],
      ["auto (the calibration's choice)", "auto", "auto"],
    ] as const) {
      const page = await browser.context.newPage();
      // The address sets the engine and backend (and then the page waits for Run); the toy is the default.
      const query = new URLSearchParams({ engine, backend });
      await page.goto(`${server.origin}/playground?${query}`);
      await page.locator(".pg-data-note[data-dataset='toy']").waitFor({ timeout: 120_000 });
      const run = async (id: number) => {
        await page.locator(".pg-run").click();
        return finished(page, id);
      };
      const cold = await run(1);
      if (engine === "tfjs" && (cold.engine !== "tfjs" || cold.backend !== backend))
        throw new Error(`asked for tfjs ${backend}, the page ran on ${cold.engine} ${cold.backend}`);
      if (engine === "js" && cold.engine !== "js") throw new Error(`asked for js, the page ran on ${cold.engine}`);
      if (engine === "auto") calibration = await readCalibration(page);
      await page.getByLabel("seed", { exact: true }).fill("1");
      const seed1 = await run(2);
      await page.getByLabel("seed", { exact: true }).fill("0");
      const warm = await run(3);
      const episodes = (row: RunRow) => String(row.episodes);
      const ran = engine === "auto" ? `: ${cold.engine === "js" ? "js" : `tfjs ${cold.backend}`}` : "";
      process.stdout.write(
        `| ${label}${ran} | ${cold.seconds.toFixed(1)} | ${seed1.seconds.toFixed(1)} | ${warm.seconds.toFixed(1)} ` +
          `| ${episodes(cold)} / ${episodes(seed1)} |\n`,
      );
      await page.close();
    }
    if (calibration) {
      const { engine, backend } = calibration.choice;
      process.stdout.write(
        `\nThe playground's calibration (one fit of the search's kind timed per engine in a worker of its own, ` +
          `at most 2 s once loaded; ${calibration.seconds.toFixed(1)} s in all, the load included). ` +
          `Choice: ${engine === "js" ? "js" : `tfjs ${backend}`}.\n\n` +
          "| engine | one fit (median), ms | warm-up, ms | note |\n|---|---|---|---|\n",
      );
      const ms = (s: number | null) => (s === null ? "—" : (s * 1000).toFixed(1));
      for (const row of calibration.rows)
        process.stdout.write(
          `| ${row.engine === "js" ? "js (float64)" : `tfjs ${row.backend}`} | ${ms(row.seconds)} | ` +
            `${ms(row.warmup)} | ${row.note} |\n`,
        );
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  process.stderr.write(`bench:browser: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
