/**
 * `consolesr run powerflow --grid FILE` (issue 55, part 4): a bad or missing grid file is one
 * error line and exit 2; a good one runs Pow's pipeline on that grid, one seed gives the same JSON,
 * and `reproduce --grid` re-runs it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "consolesr-powerflow-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

test("run powerflow names a grid file's bad field on one line and exits 2", async () => {
  const grid = JSON.parse(readFileSync("data/grids/ring5.json", "utf8"));
  grid.lines[3].to = 9;
  const bad = write("bad.json", JSON.stringify(grid));
  assertInputError(
    await cli(["run", "powerflow", "--grid", bad, "--quiet"]),
    `${bad}: lines[3].to: bus 9 is not in buses`,
  );
  assertInputError(await cli(["run", "powerflow", "--grid", write("text.json", "buses: 3")]), "not JSON");
  assertInputError(await cli(["run", "powerflow", "--grid", join(dir, "missing.json")]), "missing.json: no such file");
  assertInputError(await cli(["run", "powerflow"]), "--grid <file> is required");
  assertInputError(
    await cli(["run", "pow", "--grid", "data/grids/ring5.json"]),
    "--grid: applies to `run powerflow` only",
  );
});

test("run powerflow learns ring5's laws, records the grid's experiment, and one seed gives the same JSON", async () => {
  const outs = [join(dir, "a.json"), join(dir, "b.json")];
  for (const out of outs) {
    const run = await cli(
      ["run", "powerflow", "--grid", "data/grids/ring5.json", "--symbols", "x,x^2", "--rows", "400", "--out", out],
      { timeoutMs: 300_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /powerflow:ring5: A 5-bus ring/);
    assert.match(run.stdout, /^p1 = /m);
  }
  const [a, b] = outs.map((out) => readFileSync(out, "utf8"));
  assert.equal(a, b);
  const result = JSON.parse(a!);
  assert.equal(result.manifest.config.experiment, "powerflow:ring5");
  assert.equal(result.equations.length, 10);
  // p2 (bus 2 is PV: u2² + v2² is its setpoint squared) is a sum of products of two voltage components.
  const p2 = result.evaluation.find((e: { target: string }) => e.target === "p2");
  assert.equal(p2.exact, true, JSON.stringify(p2));
  // reproduce needs the grid: without it one line says so; with it, the same equations.
  assertInputError(await cli(["reproduce", outs[0]!]), '"powerflow:ring5" is the power flow of a grid file');
  const again = await cli(["reproduce", outs[0]!, "--grid", "data/grids/ring5.json"], { timeoutMs: 300_000 });
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /reproduced exactly: all 10 equations/);
});
