/**
 * "Publish your own report", end to end, as the guide page (site/guide/report.md) tells a user:
 * the packed tarball installed in an empty folder, `consolesr report` on a CSV made here, the
 * project's install, and an offline `npm run build` (every network request of the build blocked);
 * the commands are the guide's own, run as written. Then the page in Chromium: the right equation
 * in KaTeX, the build's check says it reproduced, no console error, no request leaving the site,
 * no missing file; the Re-run form finds the equation again in the page, and its downloaded JSON
 * passes `consolesr reproduce` (exit 0). The same install then serves a Redis queue as a worker on
 * "another host" would (only the package and the URL): a sweep submitted from this checkout runs
 * on it. The time of each step is printed (the guide quotes them).
 *
 * A slow test (about a minute and a half: two npm installs and a Framework build), in the browser
 * group that `npm test` runs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { VERSION } from "../../src/lib/index.js";
import { startProcess, startRedis } from "../helpers/processes.js";
import { testDir } from "../helpers/data.js";
import { ensureChromium, launchChromium, networkGuardOption, repo, serveStatic, WAIT_MS } from "../helpers/site.js";

const dir = testDir("own-report");

/** The guide's commands: the lines of the first `sh` block after "## The commands". */
function guideCommands(): string[] {
  const guide = readFileSync(join(repo, "site", "guide", "report.md"), "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf("## The commands")))?.[1];
  assert.ok(block, "site/guide/report.md has no sh block under ## The commands");
  return block
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
}

/** y = 2·a·b + 0.5·c², a, b, c ~ U(1, 3), 300 rows (a seeded generator of its own). */
function lawCsv(): string {
  let s = 7;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return 1 + (2 * s) / 2147483647;
  };
  const rows = ["a,b,c,y"];
  for (let i = 0; i < 300; i++) {
    const [a, b, c] = [r(), r(), r()];
    rows.push([a, b, c, 2 * a * b + 0.5 * c * c].map((v) => v.toPrecision(12)).join(","));
  }
  return `${rows.join("\n")}\n`;
}

test("consolesr report → an offline build of the project → the page, its Re-run and reproduce", {
  timeout: 900_000,
}, async (t) => {
  const install = ensureChromium();
  assert.equal(install, undefined, install);
  const seconds: [string, number][] = [];
  const timed = <T>(what: string, run: () => T): T => {
    const started = performance.now();
    const out = run();
    seconds.push([what, (performance.now() - started) / 1000]);
    return out;
  };

  // The tarball, named as the guide names it, and the user's CSV, in an empty folder.
  const tarball = `consolesr-${VERSION}.tgz`;
  const pack = timed("npm pack", () =>
    spawnSync("npm", ["pack", "--pack-destination", dir], { cwd: repo, encoding: "utf8", timeout: 300_000 }),
  );
  assert.equal(pack.status, 0, pack.stderr);
  assert.ok(existsSync(join(dir, tarball)), `npm pack did not write ${tarball}`);
  const user = join(dir, "user");
  spawnSync("mkdir", ["-p", user]);
  copyFileSync(join(dir, tarball), join(user, tarball));
  writeFileSync(join(user, "data.csv"), lawCsv());

  // The guide's commands, as written (`cd` moves on; the build runs with the network blocked).
  const commands = guideCommands();
  assert.ok(
    commands.some((c) => c.includes(`./${tarball}`)),
    `the guide does not name ${tarball}`,
  );
  assert.ok(commands.some((c) => c.startsWith("npx consolesr report ")) && commands.includes("npm run build"));
  const guard = networkGuardOption(dir);
  let cwd = user;
  let buildOutput = "";
  for (const command of commands) {
    if (command.startsWith("cd ")) {
      cwd = join(cwd, command.slice(3).trim());
      continue;
    }
    const build = command === "npm run build";
    const env = {
      ...process.env,
      npm_config_update_notifier: "false",
      NO_COLOR: "1",
      ...(build ? { NODE_OPTIONS: [process.env.NODE_OPTIONS, guard].filter(Boolean).join(" ") } : {}),
    };
    const run = timed(command, () =>
      spawnSync("sh", ["-c", command], { cwd, env, encoding: "utf8", timeout: 600_000 }),
    );
    assert.equal(run.status, 0, `${command} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    if (command.startsWith("npx consolesr report ")) assert.equal(run.stdout, "y = 2*a*b + 0.5*c^2\n");
    if (build) buildOutput = `${run.stdout}\n${run.stderr}`;
  }
  assert.doesNotMatch(buildOutput, /BLOCKED-NETWORK/, "the build made a network request");
  const alarming = buildOutput
    .split("\n")
    .filter((line) => /non-local|error|warn|unable|not found|unresolved|fail/i.test(line.replace(/[\w./@-]+\b/g, "")));
  assert.deepEqual(alarming, [], "alarming lines in the build output");
  const project = cwd;
  const dist = join(project, "dist");
  assert.ok(existsSync(join(dist, "index.html")), "the build wrote no dist/index.html");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  assert.match(html, /<noscript>/, "no notice for a reader without JavaScript");
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  assert.equal(pkg.dependencies.consolesr, `file:vendor/${tarball}`);

  // The page, served as a static site.
  const missing: string[] = [];
  const server = await serveStatic(dist, (path) => missing.push(path));
  const browser = await launchChromium({ downloads: true });
  t.after(async () => {
    await browser.close();
    await server.close();
  });
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const outside: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => {
    if (!r.url().startsWith(server.origin) && !/^(data|blob):/.test(r.url())) outside.push(r.url());
  });
  const opened = performance.now();
  await page.goto(`${server.origin}/`);
  const card = page.locator('.csr-equation[data-target="y"]');
  await card.waitFor({ timeout: WAIT_MS });
  seconds.push(["the page: first equation on screen", (performance.now() - opened) / 1000]);
  assert.equal(await card.getAttribute("data-text"), "2*a*b + 0.5*c^2");
  assert.ok((await card.locator(".katex-display .katex-html").count()) > 0, "the equation is not KaTeX");
  assert.match((await card.locator(".katex-mathml annotation").textContent()) ?? "", /^y = 2 a b \+ 0\.5 c\^\{2\}$/);
  assert.equal(await page.locator(".csr-check").getAttribute("data-match"), "true", "the build's check failed");
  for (const part of [
    ".csr-data",
    '.csr-pareto[data-target="y"]',
    '.csr-diagnostics[data-target="y"]',
    ".csr-reproduce",
  ])
    assert.equal(await page.locator(part).count(), 1, `the page has no ${part}`);
  assert.ok(Number(await page.locator(".csr-diagnostics").getAttribute("data-nrmse")) < 1e-6);

  // The page looks finished without this site's stylesheet (issue 59, row 3): one "Re-run with…"
  // heading; the form's labels stacked over their inputs (the components carry their rules); a CSV
  // has no truth, so the table shows no exact / E_c / test columns; and at 390 px nothing widens the
  // page (the SHA-256 wraps).
  const headings = await page.locator("h1, h2, h3").evaluateAll((hs) => hs.map((h) => h.textContent?.trim()));
  assert.equal(headings.filter((h) => h === "Re-run with…").length, 1, `headings: ${headings.join(" | ")}`);
  const label = page.locator(".rerun form label").first();
  assert.equal(await label.evaluate((l) => getComputedStyle(l).flexDirection), "column", "the form has no styles");
  const columns = await page.locator(".rerun-table thead th").allTextContents();
  assert.ok(
    columns.some((c) => c.includes("train NRMSE")),
    columns.join(" | "),
  );
  assert.ok(!columns.some((c) => /^(exact|E_c|test NRMSE)/.test(c.trim())), `truth columns for a CSV: ${columns}`);
  const narrow = await browser.context.newPage();
  await narrow.setViewportSize({ width: 390, height: 844 });
  await narrow.goto(`${server.origin}/`);
  await narrow.locator('.csr-equation[data-target="y"]').waitFor({ timeout: WAIT_MS });
  await narrow.locator(".csr-reproduce").waitFor({ timeout: WAIT_MS });
  const overflow = await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls ${overflow} px sideways at 390 px`);
  await narrow.close();

  // Re-run with the published settings: the same equation, found again in this browser.
  const rerunStarted = performance.now();
  await page.locator(".rerun-run").click();
  await page.locator('.rerun-status[data-status="done"]').waitFor({ timeout: 120_000 });
  seconds.push(["the Re-run form: search done in the browser", (performance.now() - rerunStarted) / 1000]);
  const yours = page.locator('.rerun-equation[data-which="yours"][data-target="y"] .katex-mathml annotation');
  assert.equal(await yours.textContent(), "2 a b + 0.5 c^{2}");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.locator('.rerun-download[data-which="yours"]').click(),
  ]);
  const live = join(user, "live.json");
  await download.saveAs(live);
  const result = JSON.parse(readFileSync(live, "utf8")) as { equations: { text: string }[] };
  assert.equal(result.equations[0]!.text, "2*a*b + 0.5*c^2");
  assert.deepEqual(errors, [], "console errors on the page");
  assert.deepEqual(outside, [], "requests that left the site");
  assert.deepEqual(missing, [], "files the page asked for that dist/ does not have");

  // The downloaded JSON, reproduced by the installed CLI beside the CSV it was made from.
  const reproduce = timed("consolesr reproduce live.json", () =>
    spawnSync("npx", ["--no-install", "consolesr", "reproduce", "live.json"], {
      cwd: user,
      encoding: "utf8",
      timeout: 300_000,
    }),
  );
  assert.equal(reproduce.status, 0, reproduce.stdout + reproduce.stderr);
  assert.match(reproduce.stdout, /reproduced exactly/);

  // A hand-edited result (a forged coefficient) fails the project's build with one line, so a
  // deploy never publishes it (issue 59: the build exited 0 under a red box).
  const published = join(project, "src", "data", "result.json");
  const genuine = readFileSync(published, "utf8");
  writeFileSync(published, genuine.replace('"2*a*b + 0.5*c^2"', '"2*a*b + 0.7*c^2"'));
  assert.notEqual(readFileSync(published, "utf8"), genuine, "the forgery changed nothing");
  const forged = timed("npm run build (a forged result)", () =>
    spawnSync("npm", ["run", "build"], { cwd: project, encoding: "utf8", timeout: 600_000 }),
  );
  writeFileSync(published, genuine);
  assert.notEqual(forged.status, 0, `the build published a forged result:\n${forged.stdout}\n${forged.stderr}`);
  assert.match(
    `${forged.stdout}\n${forged.stderr}`,
    /consolesr: src\/data\/result\.json does not reproduce.*DIFFERENT/,
  );

  // The project moved elsewhere still installs: its tarball travels inside it (a `file:../` path broke).
  const moved = join(dir, "elsewhere", "report");
  mkdirSync(join(dir, "elsewhere"), { recursive: true });
  renameSync(project, moved);
  const reinstall = timed("npm install (the project moved)", () =>
    spawnSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: moved,
      encoding: "utf8",
      timeout: 300_000,
    }),
  );
  assert.equal(reinstall.status, 0, `the moved project does not install:\n${reinstall.stderr}`);

  // The same install as a queue worker on "another host": only the package and the Redis URL. A
  // sweep submitted from this checkout's CLI in another folder is run by it.
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0)
    t.diagnostic("queue worker from the tarball not checked: no redis-server on this machine");
  else {
    const redis = await startRedis();
    // The installed command itself (npx would put a shell between: a signal would not reach the worker).
    const installedBin = join(user, "node_modules", "consolesr", "bin", "consolesr.js");
    const worker = startProcess(process.execPath, [installedBin, "worker", "--queue", redis.url], { cwd: user });
    t.after(async () => {
      worker.child.kill("SIGKILL");
      await redis.stop();
    });
    await worker.waitFor(/worker: serving queue/);
    const submitter = join(dir, "submitter");
    spawnSync("mkdir", ["-p", submitter]);
    const spec = join(submitter, "spec.json");
    writeFileSync(
      spec,
      JSON.stringify({
        experiments: ["syn1"],
        seeds: "0..1",
        rows: [200],
        variants: [{ name: "form", settings: { givenForm: true, fit: { steps: 20 } } }],
      }),
    );
    const sweep = timed("a sweep of 2 jobs through Redis to the tarball's worker", () =>
      spawnSync(
        process.execPath,
        [join(repo, "bin", "consolesr.js"), "sweep", spec, "--out", "results", "--queue", redis.url],
        { cwd: submitter, encoding: "utf8", timeout: 300_000 },
      ),
    );
    assert.equal(sweep.status, 0, sweep.stderr);
    assert.match(sweep.stdout, /2 jobs: 2 ran, skipped 0, 0 failed/);
    // SIGTERM: the worker finishes (nothing is left to run) and exits 143, its log complete.
    worker.child.kill("SIGTERM");
    assert.equal(await worker.exited, 143, worker.output());
    assert.equal(worker.output().match(/: done in /g)?.length, 2, `the worker's output: ${worker.output()}`);
  }
  for (const [what, s] of seconds) t.diagnostic(`${s.toFixed(1).padStart(6)} s  ${what}`);
});
