/**
 * The CLI's finish: `consolesr` without a command prints the help (exit 2); an unusable
 * --backend is one error line; no command prints tfjs's "install tfjs-node" banner.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli } from "./helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "consolesr-polish-"));
after(() => rmSync(dir, { recursive: true, force: true }));

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
});
