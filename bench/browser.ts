/**
 * The playground's toy run (its default: y = 3·x1²·cos(2.5·x2), 500 rows, 20 Adam steps per
 * structure, LM polish) in headless Chromium on each tfjs backend (webgl, wasm, cpu), on the
 * float64 js engine (no tfjs fits), and at the page's defaults (engine and backend auto: the
 * calibration's choice). Prints seconds of search as the page reports them (its run log): per
 * engine a fresh page, so that the first (cold) run includes the backend's start-up (shader
 * compilation on webgl), then seed 1 and seed 0 again (warm; seed 0 warm is the cold run's exact
 * config). The page's address sets the engine and the backend; each run is started with the
 * page's Run button. Then the page's calibration (src/lib/api/calibrate.ts, measured before each
 * page's first run) as the auto page showed it: each engine's median fit and warm-up, and the choice.
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
import { readCalibration, runLog, type PageCalibration, type RunRow } from "../test/helpers/playground.js";
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

async function main(): Promise<void> {
  const install = ensureChromium();
  if (install) throw new Error(install);
  if (!existsSync(join(dist, "playground.html"))) {
    process.stderr.write("bench:browser: building the site (dist/ has no playground)\n");
    const build = await buildSite();
    if (build.status !== 0) throw new Error(`site build failed:\n${build.output}`);
  }
  const server = await serveStatic(dist);
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
        `\nThe playground's calibration (one fit of the search's kind timed per engine before the first run; ` +
          `${calibration.seconds.toFixed(1)} s in all). Choice: ${engine === "js" ? "js" : `tfjs ${backend}`}.\n\n` +
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
