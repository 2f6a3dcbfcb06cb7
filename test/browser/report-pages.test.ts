// The report pages (toy, syn1, syn2, pow, mas, search benchmark) in headless Chromium, served from
// the built site (test/helpers/site.ts: one build per `npm test`, shared with site-build.test.ts and
// playground.test.ts):
//
// - syn1's "Re-run with…" form: another seed and fewer rows, Run, and the equations the page then
//   renders in KaTeX are the ones the library gives in Node for that configuration (the same
//   runtime module, run here with runModule); the JSON download is that run's version-1 result;
// - every page of the site, at 1280, 390 and 200 px: no console error, no uncaught exception, no
//   request to another origin or for a missing file (the favicon included); at 1280 px nothing in
//   the text column reaches into the table of contents and every table fits the text column, at
//   390 px the page does not scroll sideways and a table wider than the column scrolls in its own
//   box; no table is cut by a box that hides its overflow; every NRMSE and E_c in a table is
//   written in the site's one format (src/report/format.ts);
// - a full-page screenshot of every page at 1280 px goes to artifacts/ (git-ignored);
// - each committed result a page shows carries its freshness line, in the state that
//   data/results/freshness.json and the code digest give;
// - the search benchmark draws each method in one colour on every chart.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { createRegistries, parseResult, resolvePipelineConfig, runModule, useBackend } from "../../src/lib/index.js";
import { codeDigest, readFreshness } from "../../site/data/helpers/freshnessCode.js";
import {
  buildSite,
  dist,
  ensureChromium,
  launchChromium,
  openBuiltSite,
  serveStatic,
  WAIT_MS,
} from "../helpers/site.js";
import { artifacts } from "../helpers/playground.js";

/** The site's pages as URL paths ("/", "/syn1", …), from the built HTML files. */
function sitePages(): string[] {
  return readdirSync(dist, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html") && !file.startsWith("_") && file !== "404.html")
    .map(
      (file) =>
        `/${relative(dist, join(dist, file))
          .replace(/\.html$/, "")
          .replace(/(^|\/)index$/, "")}`,
    )
    .sort();
}

/** What a page's own problems look like from outside: console errors, exceptions, foreign or missing requests. */
interface Watch {
  problems: string[];
}

function watch(page: Page, origin: string, label: string): Watch {
  const w: Watch = { problems: [] };
  page.on("console", (message) => {
    if (message.type() === "error") w.problems.push(`${label}: console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => w.problems.push(`${label}: uncaught: ${error.message}`));
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !/^(data|blob):/.test(url)) w.problems.push(`${label}: request to ${url}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) w.problems.push(`${label}: ${response.status()} for ${response.url()}`);
  });
  return w;
}

/**
 * Elements of the text column that reach into the table of contents (none inside a box that
 * scrolls or clips). Passed as source text: tsx would wrap named inner functions in a helper
 * that does not exist in the page.
 */
function overlapsToc(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const toc = document.querySelector("#observablehq-toc");
    if (!toc || getComputedStyle(toc).display === "none") return [];
    const edge = toc.getBoundingClientRect().left;
    const found = [];
    for (const element of document.querySelectorAll("#observablehq-main *")) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= edge + 1) continue;
      let contained = false;
      for (let p = element.parentElement; p && p.id !== "observablehq-main"; p = p.parentElement)
        if (getComputedStyle(p).overflowX !== "visible") contained = true;
      const name = element.tagName.toLowerCase();
      if (!contained) found.push("<" + name + ' class="' + (element.getAttribute("class") ?? "") + '">');
    }
    return found.slice(0, 5);
  })()`);
}

/**
 * Tables a reader cannot read whole: cut by a box that hides its overflow, wider than the text
 * column at 1280 px or than the box that scrolls it there (it must fit), or at 390 px reaching past
 * the column outside a box that scrolls sideways. Source text, as overlapsToc.
 */
function clippedTables(page: Page, width: number): Promise<string[]> {
  return page.evaluate(`(() => {
    const main = document.querySelector("#observablehq-main");
    if (!main) return [];
    const edge = main.getBoundingClientRect().right + 1;
    const found = [];
    [...main.querySelectorAll("table")].forEach((table, k) => {
      const rect = table.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) return;
      let scroller = null;
      let clipper = null;
      for (let p = table.parentElement; p && p !== main; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if ((overflow === "auto" || overflow === "scroll") && !scroller) scroller = p;
        const hides = overflow === "hidden" || overflow === "clip";
        if (hides && !scroller && p.clientWidth < table.offsetWidth - 1) clipper = p;
      }
      const name = "table " + (k + 1) + " (" + (table.querySelector("th")?.textContent ?? "").trim().slice(0, 30) + ")";
      if (clipper) found.push(name + ": cut by a box that hides its overflow");
      // At 1280 px a table fits its column, also in a box that would scroll (a Re-run form's table
      // hid 80–95 px of its columns there: issue 59).
      else if (${width} >= 1280 && scroller && scroller.scrollWidth > scroller.clientWidth + 1)
        found.push(name + ": " + (scroller.scrollWidth - scroller.clientWidth) + " px hidden in its scrolling box");
      else if (${width} >= 1280 && rect.right > edge)
        found.push(name + ": " + Math.round(rect.width) + " px, wider than the text column");
      else if ((scroller ?? table).getBoundingClientRect().right > edge)
        found.push(name + ": reaches past the text column without a box that scrolls");
    });
    return found;
  })()`);
}

/**
 * NRMSE and E_c as the site writes them (src/report/format.ts): in every table, the cells of
 * a column headed NRMSE or E_c, and any "NRMSE x" or "E_c x" in a cell, must print their number
 * exactly as the one format would (three significant digits; NRMSE in exponent form, E_c in
 * exponent form below 0.001; 0 as 0). "1e-15", "0.00e+0" or "100a" fail.
 */
function badNumbers(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const canon = {
      nrmse: (v) => (v === 0 ? "0" : v.toExponential(2)),
      ec: (v) => (v === 0 ? "0" : Math.abs(v) < 1e-3 ? v.toExponential(2) : v.toPrecision(3)),
    };
    const bad = [];
    const check = (kind, token, where) => {
      const text = token.replace(/%$/, "");
      const value = Number(text);
      if (!Number.isFinite(value) || canon[kind](value) !== text)
        bad.push(where + ": " + kind + " " + JSON.stringify(token));
    };
    const main = document.querySelector("#observablehq-main");
    if (!main) return bad;
    [...main.querySelectorAll("table")].forEach((table, k) => {
      const head = table.querySelector("thead tr") ?? table.querySelector("tr");
      const kinds = [];
      for (const th of head ? head.children : []) {
        const label = th.textContent ?? "";
        const kind =
          /ranking/.test(label) ? null : /NRMSE/.test(label) ? "nrmse" : /\\bE_c\\b/.test(label) ? "ec" : null;
        for (let c = 0; c < (th.colSpan || 1); c++) kinds.push(kind);
      }
      for (const row of table.querySelectorAll("tbody tr")) {
        let column = 0;
        for (const cell of row.children) {
          const span = cell.colSpan || 1;
          const where = "table " + (k + 1) + ", " + (head?.children[0]?.textContent ?? "").trim().slice(0, 20);
          // Equations (KaTeX) aside: their numbers are coefficients.
          const copy = cell.cloneNode(true);
          for (const katex of copy.querySelectorAll(".katex")) katex.remove();
          const text = copy.textContent ?? "";
          const kind = span === 1 ? kinds[column] : null;
          if (kind)
            for (const token of text.split(/[\\s\\/\\[\\]–(),·:;]+/))
              if (/^-?\\d/.test(token)) check(kind, token, where);
          for (const m of text.matchAll(/\\b(NRMSE|E_c)\\s+(-?\\d[\\w.+-]*%?)/g))
            check(m[1] === "E_c" ? "ec" : "nrmse", m[2], where);
          column += span;
        }
      }
    });
    return bad.slice(0, 10);
  })()`);
}

/** Tabs open at once in the sweep over every page (test 1, part 2). */
const VISITS_AT_ONCE = 4;

/** Runs `work` on every item, at most `limit` at a time; the results in the items' order. */
async function inTurn<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      results[k] = await work(items[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** What one visit of one page at one width found (each list empty on a page without faults). */
interface Visit {
  problems: string[];
  overlaps: string[];
  sideways: string[];
  clipped: string[];
  numbers: string[];
  /** Charts without a text alternative (an aria-label a screen reader reads). */
  unlabelled: string[];
  /** The freshness lines at 1280 px: [file, state]. */
  notes: [string, string][];
}

/**
 * Opens `path` at `width` px in a new tab, lets it settle and runs the checks of that width: at
 * 1280 px the tables, the numbers' format, the table of contents and the freshness lines (and a
 * screenshot), at 390 px the tables and sideways scrolling, at 200 px errors only.
 */
async function visitPage(context: BrowserContext, origin: string, path: string, width: number): Promise<Visit> {
  const visit: Visit = {
    problems: [],
    overlaps: [],
    sideways: [],
    clipped: [],
    numbers: [],
    unlabelled: [],
    notes: [],
  };
  const other = await context.newPage();
  await other.setViewportSize({ width, height: 900 });
  const w = watch(other, origin, `${path} at ${width} px`);
  await other.goto(`${origin}${path}`, { waitUntil: "networkidle" });
  await other.waitForTimeout(300);
  visit.problems.push(...w.problems);
  if (width !== 200)
    for (const table of await clippedTables(other, width)) visit.clipped.push(`${path} at ${width} px: ${table}`);
  if (width === 1280) {
    // A picture of every page for a reader of the test run (artifacts/ is git-ignored).
    const name = path === "/" ? "index" : path.slice(1).replace(/\//g, "-");
    await other.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
    for (const number of await badNumbers(other)) visit.numbers.push(`${path}: ${number}`);
    // Plot's charts (an <svg class="plot-…">, its legends apart) each say what they show (issue 59, row 8).
    const unlabelled = await other.$$eval(
      "svg[class]",
      (svgs) =>
        svgs.filter((s) => /^plot-[0-9a-f]+$/.test(s.getAttribute("class")!) && !s.getAttribute("aria-label")).length,
    );
    if (unlabelled > 0) visit.unlabelled.push(`${path}: ${unlabelled} chart(s) without a text alternative`);
    for (const element of await overlapsToc(other)) visit.overlaps.push(`${path}: ${element}`);
    for (const note of await other.$$eval(".freshness[data-file]", (els) =>
      els.map((el) => [el.getAttribute("data-file")!, el.getAttribute("data-state")!]),
    ))
      visit.notes.push([note[0]!, note[1]!]);
  } else if (width === 390) {
    const scrollWidth = await other.evaluate(() => document.scrollingElement!.scrollWidth);
    if (scrollWidth > width) visit.sideways.push(`${path}: scrollWidth ${scrollWidth}`);
  }
  await other.close();
  return visit;
}

test("report pages: syn1 re-run matches Node, no errors or foreign requests, no sideways scroll at 390 px", {
  timeout: 900_000,
}, async (t) => {
  const { server, browser } = await openBuiltSite(t);
  const downloads = mkdtempSync(join(tmpdir(), "consolesr-reports-"));
  t.after(() => rmSync(downloads, { recursive: true, force: true }));

  // 1. syn1: another seed, 300 rows, noise at 20 dB and 2 episodes per output (quick, and the
  // coefficients depend on the seed's noise, so another seed's equations would not match), re-run
  // in the page; the same config through the runtime module in Node gives the equations the page shows.
  const SEED = 7;
  const ROWS = 300;
  const SNR = 20;
  const EPISODES = 2;
  const page = await browser.context.newPage();
  const syn1 = watch(page, server.origin, "/syn1 re-run");
  await page.goto(`${server.origin}/syn1`, { waitUntil: "networkidle" });
  const section = page.locator('.rerun[data-experiment="syn1"]');
  const published = async (target: string) =>
    section
      .locator(`.rerun-equation[data-which="published"][data-target="${target}"] .katex-mathml annotation`)
      .textContent();
  const before = await published("y1");
  await section.getByLabel("seed").fill(String(SEED));
  await section.getByLabel("rows").fill(String(ROWS));
  await section.getByLabel("noise SNR").selectOption({ label: `${SNR} dB` });
  await section.getByLabel("episodes per output").fill(String(EPISODES));
  const link = await section.locator(".rerun-playground").getAttribute("href");
  assert.equal(
    link,
    `./playground?dataset=syn1&rows=${ROWS}&snr=${SNR}&method=consolesr&seed=${SEED}&episodes=${EPISODES}&budget=0`,
    "the playground link does not carry the form's settings",
  );
  // Followed, the link opens the playground on syn1 with the form's settings and no ignored parameter.
  const playground = await browser.context.newPage();
  await playground.goto(new URL(link!, `${server.origin}/syn1`).href, { waitUntil: "networkidle" });
  // Inputs.select's value is the option's index; its text is the data set's name.
  assert.equal((await playground.getByLabel("dataset").locator("option:checked").textContent())?.trim(), "syn1");
  assert.equal(await playground.getByLabel("seed", { exact: true }).inputValue(), String(SEED));
  assert.equal(await playground.getByLabel("rows", { exact: true }).inputValue(), String(ROWS));
  assert.doesNotMatch((await playground.locator("body").textContent()) ?? "", /unknown parameter/);
  await playground.close();
  const started = performance.now();
  await section.locator(".rerun-run").click();
  // The same configuration in Node, run while the page runs its own (started after the click: the
  // Node run holds this process's event loop, through which Playwright talks to the page).
  const inNode = (async () => {
    await useBackend("cpu");
    const registries = createRegistries();
    const config = resolvePipelineConfig(
      { experiment: "syn1", seed: SEED, rows: ROWS, snrDb: SNR, search: { episodes: EPISODES } },
      registries,
    );
    return runModule(config, { backend: "cpu", registries });
  })();
  // Should the page's part fail first, the test reports that failure, not this promise's.
  inNode.catch(() => undefined);
  await section
    .locator('.rerun-status[data-status="done"], .rerun-status[data-status="error"]')
    .waitFor({ timeout: 300_000 });
  const status = (await section.locator(".rerun-status").textContent()) ?? "";
  assert.equal(await section.locator(".rerun-status").getAttribute("data-status"), "done", status);
  t.diagnostic(
    `syn1 seed ${SEED}, ${ROWS} rows, ${SNR} dB, ${EPISODES} episodes re-run in the page: ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const node = await inNode;
  assert.equal(node.equations.length, 3);
  for (const equation of node.equations) {
    const cell = section.locator(`.rerun-equation[data-which="yours"][data-target="${equation.target}"]`);
    assert.equal(
      (await cell.locator(".katex-mathml annotation").textContent())?.trim(),
      equation.latex,
      `${equation.target}: the page's re-run shows another equation than the library in Node`,
    );
  }
  assert.equal(await published("y1"), before, "the published equation changed with the re-run");
  assert.notEqual(node.equations[0]!.latex, before, "the chosen settings give the published equation: a weak check");

  // The live run's JSON: the version-1 result of that configuration (its manifest says so).
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    section.locator('.rerun-download[data-which="yours"]').click(),
  ]);
  const path = join(downloads, "syn1-live.json");
  await download.saveAs(path);
  const live = parseResult(readFileSync(path, "utf8"), path);
  assert.equal(live.manifest.seed, SEED);
  assert.equal(live.manifest.config.rows, ROWS);
  assert.equal(live.manifest.config.snrDb, SNR);
  // With the run's seconds and this browser, as `--timings` writes them (reproduce compares neither).
  assert.ok((live.search.seconds ?? -1) > 0, "the live run's JSON has no search.seconds");
  assert.match(live.manifest.runtime?.engine ?? "", /Chrom/, "the live run's manifest.runtime does not name Chromium");
  assert.deepEqual(
    live.equations.map((e) => e.text),
    node.equations.map((e) => e.text),
  );
  await page.close();
  assert.deepEqual(syn1.problems, [], "problems on the syn1 page during the re-run");

  // 2. Every page, wide and narrow: each visit in its own tab, a few at a time (a visit mostly
  // waits for its page to settle), the findings gathered in the order of the widths and pages.
  const freshness = readFreshness();
  const code = codeDigest();
  const pages = sitePages();
  mkdirSync(artifacts, { recursive: true });
  // 200 px: narrower than any chart's margins, where a chart sized from the page width drew
  // thousands of negative-width rects (each a console error); charts keep a minimum width instead.
  const visits = [1280, 390, 200].flatMap((width) => pages.map((path) => ({ width, path })));
  const found = await inTurn(visits, VISITS_AT_ONCE, ({ width, path }) =>
    visitPage(browser.context, server.origin, path, width),
  );
  const problems = found.flatMap((f) => f.problems);
  const overlaps = found.flatMap((f) => f.overlaps);
  const sideways = found.flatMap((f) => f.sideways);
  const clipped = found.flatMap((f) => f.clipped);
  const numbers = found.flatMap((f) => f.numbers);
  const unlabelled = found.flatMap((f) => f.unlabelled);
  const notes = new Map(found.flatMap((f) => f.notes));
  t.diagnostic(`${pages.length} pages at 1280, 390 and 200 px`);
  assert.deepEqual(problems, [], "console errors, exceptions, foreign or missing requests");
  assert.deepEqual(overlaps, [], "content reaching into the table of contents at 1280 px");
  assert.deepEqual(sideways, [], "pages that scroll sideways at 390 px");
  assert.deepEqual(clipped, [], "tables cut, or wider than the text column at 1280 px");
  assert.deepEqual(numbers, [], "NRMSE or E_c written in another format than the site's one");
  assert.deepEqual(unlabelled, [], "charts without a text alternative");

  // 3. Every committed result in the freshness record is shown with its state.
  for (const entry of freshness.entries) {
    const expected = entry.code !== code ? "stale" : entry.reproduced ? "reproduced" : "differs";
    assert.equal(notes.get(entry.file), expected, `${entry.file}: the page's freshness line`);
  }
});

test("every form's 'open in playground' opens the playground on its experiment, no value ignored (issue 59)", {
  timeout: 900_000,
}, async (t) => {
  const { server, browser } = await openBuiltSite(t);
  const links: string[] = [];
  for (const path of sitePages()) {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}${path}`, { waitUntil: "networkidle" });
    for (const a of await page.locator("a.rerun-playground:not([hidden])").all())
      links.push(new URL((await a.getAttribute("href"))!, page.url()).href);
    await page.close();
  }
  assert.ok(links.length >= 8, `${links.length} links`);
  const wrong: string[] = [];
  for (const link of links) {
    const page = await browser.context.newPage();
    await page.goto(link, { waitUntil: "networkidle" });
    const dataset = page.getByLabel("dataset", { exact: true });
    await dataset.waitFor({ timeout: WAIT_MS });
    const shown = await dataset.evaluate((s: HTMLSelectElement) => s.options[s.selectedIndex]?.textContent ?? "");
    const notice = (await page.locator(".pg-url-notice").allTextContents()).join(" ");
    const wanted = new URL(link).searchParams.get("dataset");
    if (shown !== wanted || notice) wrong.push(`${link}: dataset ${shown}${notice ? `; ${notice}` : ""}`);
    await page.close();
  }
  assert.deepEqual(wrong, [], "links whose playground runs another experiment");
});

test("the search benchmark draws each method in one colour on every chart", { timeout: 600_000 }, async () => {
  const install = ensureChromium();
  assert.equal(install, undefined, install);
  const build = await buildSite();
  assert.equal(build.status, 0, `the site build failed:\n${build.output}`);
  const server = await serveStatic(dist);
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.origin}/search-benchmark`, { waitUntil: "networkidle" });
    // The recovery curve's legend (method → swatch colour) and the structures chart's dots (their
    // <title> starts with the method).
    const legend = await page.$$eval("figure", (figures) => {
      for (const figure of figures) {
        const swatches = Array.from(figure.querySelectorAll("[class$='-swatch']"));
        if (!swatches.length) continue;
        return swatches.map((s) => [
          s.textContent?.trim() ?? "",
          s.querySelector("svg")?.getAttribute("fill") || s.querySelector("rect")?.getAttribute("fill") || "",
        ]);
      }
      return [];
    });
    const dots = await page.$$eval("g[aria-label='dot'] circle", (circles) =>
      circles
        .filter((c) => c.querySelector("title"))
        .map((c) => [c.querySelector("title")!.textContent!.split(",")[0]!, c.getAttribute("fill") ?? ""]),
    );
    assert.ok(legend.length >= 3, `no method legend found: ${JSON.stringify(legend)}`);
    assert.ok(dots.length > 0, "no dots in the structures chart");
    const colour = new Map(legend as [string, string][]);
    for (const [method, fill] of dots)
      assert.equal(fill, colour.get(method!), `${method}: another colour than the legend's`);
    assert.equal(new Set(colour.values()).size, colour.size, "two methods share a colour");
  } finally {
    await browser.close();
    await server.close();
  }
});

test("the report components render on their reference page, from one fit, and its form re-runs it", {
  timeout: 600_000,
}, async (t) => {
  const { server, browser } = await openBuiltSite(t);
  const page = await browser.context.newPage();
  const w = watch(page, server.origin, "/reference/components");
  await page.goto(`${server.origin}/reference/components`, { waitUntil: "networkidle" });
  const card = page.locator('.csr-equation[data-target="y"]');
  assert.equal(await card.getAttribute("data-text"), "2*a*b + 0.5*c^2");
  assert.equal(await card.locator(".katex-mathml annotation").textContent(), "y = 2 a b + 0.5 c^{2}");
  assert.equal(await page.locator('.csr-data tr[data-column="y"] td:nth-child(2)').textContent(), "target");
  assert.equal(await page.locator('.csr-pareto[data-target="y"] svg').count(), 1, "the Pareto chart");
  assert.ok(Number(await page.locator('.csr-diagnostics[data-target="y"]').getAttribute("data-nrmse")) < 1e-8);
  assert.equal(await page.locator('.csr-diagnostics[data-target="y"] svg').count(), 2, "parity and residual charts");
  assert.match((await page.locator(".csr-reproduce").textContent()) ?? "", /npx consolesr reproduce result\.json/);
  // The build check: passed on the fit, failed (in red, with the difference) on the edited copy.
  assert.deepEqual(await page.locator(".csr-check").evaluateAll((els) => els.map((e) => e.dataset.match)), [
    "true",
    "false",
  ]);
  const failed = (await page.locator('.csr-check[data-match="false"]').textContent()) ?? "";
  assert.match(failed, /Not reproduced/);
  assert.match(failed, /coefficient 2\.0199/);
  // The form, with the published settings, finds the published equation again (in its worker).
  const form = page.locator('.rerun[data-experiment="example.csv"]');
  await form.locator(".rerun-run").click();
  await form.locator('.rerun-status[data-status="done"]').waitFor({ timeout: 120_000 });
  const yours = form.locator('.rerun-equation[data-which="yours"][data-target="y"] .katex-mathml annotation');
  assert.equal(await yours.textContent(), "2 a b + 0.5 c^{2}");
  assert.deepEqual(w.problems, []);
});
