/**
 * What the Comparison, Ablation and Sensitivity pages read (site/data/helpers/sweepGrid.ts): every
 * cell of a spec's grid is listed; a cell with a result carries its E_c, exact recovery, test
 * NRMSE and the seconds the sweep's summary recorded; a cell not run yet carries no number at all;
 * a group's summary counts what ran and what used its whole budget. Uses a folder of its own with
 * a two-seed spec, one result made by `consolesr sweep` and one missing.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { summarise, sweepGrid } from "../../site/data/helpers/sweepGrid.js";
import { cli } from "../helpers/cli.js";

const root = mkdtempSync(join(tmpdir(), "consolesr-sweep-pages-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a sweep's grid: results where they are, missing cells without numbers, summary seconds", async () => {
  mkdirSync(join(root, "sweeps"));
  const spec = {
    experiments: ["syn1"],
    methods: ["consolesr"],
    seeds: [0, 1],
    rows: [200],
    variants: [{ name: "short", settings: { episodes: 3, budget: 3 } }],
  };
  writeFileSync(join(root, "sweeps", "mini.json"), JSON.stringify(spec));
  const out = join(root, "data", "sweeps", "mini");
  const run = await cli(["sweep", join(root, "sweeps", "mini.json"), "--out", out, "--jobs", "1", "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  // Seed 1's result goes away: its cell must read as missing.
  unlinkSync(join(out, "syn1-consolesr-short-s1-snrnone-r200.json"));

  const grid = sweepGrid("mini", root);
  assert.equal(grid.total, 2);
  assert.equal(grid.done, 1);
  assert.equal(grid.command, "npx consolesr sweep sweeps/mini.json --out data/sweeps/mini");
  const [ran, missing] = grid.cells as [(typeof grid.cells)[0], (typeof grid.cells)[0]];
  assert.equal(ran.job, "syn1-consolesr-short-s0-snrnone-r200");
  assert.equal(ran.present, true);
  assert.equal(ran.targets, 3);
  assert.ok(typeof ran.ec === "number" && Number.isFinite(ran.ec), `E_c ${ran.ec}`);
  assert.equal(typeof ran.exact, "boolean");
  assert.ok(typeof ran.testNrmse === "number");
  assert.ok(typeof ran.seconds === "number" && ran.seconds > 0, "the summary's seconds were not read");
  assert.equal(ran.equations.length, 3);
  assert.ok(ran.text?.startsWith("{"));
  assert.ok(ran.stopReasons.length > 0, "no stop reason read");

  assert.equal(missing.present, false);
  for (const key of ["ec", "exact", "testNrmse", "seconds", "targets", "text"] as const)
    assert.equal(missing[key], null, `a missing cell has ${key} = ${String(missing[key])}`);

  const summary = summarise(grid.cells);
  assert.equal(summary.planned, 2);
  assert.equal(summary.ran, 1);
  assert.equal(summary.ecMean, ran.ec);
  assert.equal(summary.outOfBudget, ran.stopReasons.some((r) => r === "episodes" || r === "budget") ? 1 : 0);
  // No result at all: the summary has no number to show.
  const none = summarise([missing]);
  assert.deepEqual([none.ran, none.ecMean, none.secondsMedian], [0, null, null]);
});

test("every committed sweep result is a cell of its grid: the pages and the CLI name jobs by one grammar", () => {
  const repo = new URL("../..", import.meta.url).pathname;
  for (const name of ["ablation", "comparison", "sensitivity-rows", "sensitivity-snr"]) {
    const files = readdirSync(join(repo, "data", "sweeps", name)).filter(
      (f) => f.endsWith(".json") && f !== "summary.json",
    );
    assert.ok(files.length > 0, name);
    const grid = sweepGrid(name);
    const present = new Set(grid.cells.filter((c) => c.present).map((c) => `${c.job}.json`));
    const stray = files.filter((f) => !present.has(f));
    assert.deepEqual(stray, [], `${name}: result files no cell reads`);
  }
});
