/**
 * The CLI's finish: `consolesr` without a command prints the help (exit 2); an unusable
 * --backend is one error line; no command prints tfjs's "install tfjs-node" banner.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli, root } from "./helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "consolesr-polish-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const TANH = join(root, "examples", "plugins", "tanh.ts");
const BANNER = "looks like you are running";

/** 100 rows of x1, x2 on a grid in [1, 2] and y = 3*x1^2*cos(2.5*x2). */
function dataCsv(): string {
  const lines = ["x1,x2,y"];
  for (let i = 0; i < 100; i++) {
    const x1 = 1 + (i % 10) / 9;
    const x2 = 1 + Math.floor(i / 10) / 9;
    lines.push(`${x1},${x2},${3 * x1 ** 2 * Math.cos(2.5 * x2)}`);
  }
  const path = join(dir, "data.csv");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}
const data = dataCsv();

describe("consolesr CLI polish", { concurrency: 2 }, () => {
  test("no arguments: the help, naming the commands, and exit 2", async () => {
    const run = await cli([]);
    assert.equal(run.code, 2, run.stderr);
    const output = run.stdout + run.stderr;
    for (const command of ["fit", "run", "reproduce", "plugins", "check-plugin"]) {
      assert.match(output, new RegExp(`^\\s+${command}\\b`, "m"), `the help does not list ${command}:\n${output}`);
    }
    assert.match(output, /^Usage: consolesr/m);
    assert.ok(!output.includes("(outputHelp)"), output);
    assert.ok(!/^error:/m.test(output), output);
  });

  test("--backend webgl in Node is one error line naming --backend and the choices", async () => {
    for (const args of [["run", "syn1"], ["fit", join(dir, "any.csv"), "--target", "y"], ["reproduce", join(dir, "any.json")]]) {
      const line = assertInputError(await cli([...args, "--backend", "webgl"]), "--backend", "webgl");
      assert.match(line, /cpu, wasm/);
    }
  });

  test("no command prints tfjs's \"install tfjs-node\" banner: fit (search, --form), run, reproduce, check-plugin, and under the plugin worker", async () => {
    const json = join(dir, "search.json");
    const search = ["fit", data, "--target", "y", "--symbols", "x,x^2,cos", "--episodes", "5"];
    const first = await cli([...search, "--out", json]);
    assert.equal(first.code, 0, first.stderr);
    const runs = [first];
    for (const args of [
      ["fit", data, "--target", "y", "--form", "y = x1^2*cos(x2)"],
      ["run", "syn1", "--given-form", "--rows", "50"],
      ["reproduce", json],
      ["check-plugin", TANH],
      ["run", "syn1", "--given-form", "--rows", "50", "--plugin", TANH],
      [...search, "--plugin", TANH],
    ]) {
      const run = await cli(args);
      assert.equal(run.code, 0, `consolesr ${args.join(" ")}: ${run.stderr}`);
      runs.push(run);
    }
    for (const run of runs) assert.ok(!run.stderr.includes(BANNER) && !run.stdout.includes(BANNER), run.stderr);
  });
});
