/**
 * Hardening of plugin code run by the CLI (rows of the hardening issue): a plugin call or a
 * plugin file's top-level code that never returns is stopped by the watchdog of the worker that
 * runs every command with plugin files (exit 2, naming the plugin or the file); a symbol whose
 * evaluate gives NaN or a Promise is an error, not an answer; SIGTERM stops a search like Ctrl-C
 * (best so far printed and written, exit 143), in-process and under the worker; a reward outside
 * its declared range is a plugin error.
 *
 * Every run has a time limit, so a regression fails instead of hanging the test run; the hanging
 * plugins use `--plugin-timeout 2`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli, cliSignalled } from "../helpers/cli.js";
import { fileIn, productCsv, testDir } from "../helpers/data.js";

const dir = testDir("plugin-faults");

const file = fileIn(dir);

/** base.csv: 200 rows of x1, x2 in [1, 2] and y = 2·x1·x2. */
const base = file("base.csv", productCsv());

/** A symbol plugin `myfn` (the identity, for tfjs) whose evaluate is the given source text. */
const symbol = (evaluate: string) =>
  `export default { kind: "symbol", name: "myfn", complexity: 1, innerWeight: false, ` +
  `text: (a) => \`myfn(\${a})\`, latex: (a) => \`\\\\mathrm{myfn}(\${a})\`, ` +
  `evaluate: ${evaluate}, apply: (x, tf) => tf.mul(x, 1) };\n`;

const plugins = {
  evaluateLoop: file("evaluate-loop.mjs", symbol("(x) => { while (true) {} }")),
  checkLoop: file(
    "check-loop.mjs",
    `export default { kind: "constraint", name: "spin", describe: () => "spins", check: () => { while (true) {} } };\n`,
  ),
  scoreLoop: file(
    "score-loop.mjs",
    `export default { kind: "reward", name: "spin", range: [0, 1], score: () => { while (true) {} } };\n`,
  ),
  topLevelLoop: file(
    "top-level-loop.mjs",
    `while (true) {}\nexport default { kind: "reward", name: "never", range: [0, 1], score: () => 1 };\n`,
  ),
  neverSettles: file(
    "never-settles.mjs",
    `await new Promise(() => {});\nexport default { kind: "reward", name: "never", range: [0, 1], score: () => 1 };\n`,
  ),
  neverSettlesAlive: file(
    "never-settles-alive.mjs",
    `await new Promise(() => { setInterval(() => {}, 1000); });\n` +
      `export default { kind: "reward", name: "never", range: [0, 1], score: () => 1 };\n`,
  ),
  nan: file("nan.mjs", symbol("(x) => NaN")),
  async: file("async.mjs", symbol("async (x) => x")),
  promise: file("promise.mjs", symbol("(x) => Promise.resolve(x)")),
  outOfRange: file(
    "out-of-range.mjs",
    `export default { kind: "reward", name: "big", range: [0, 1], score: ({ nrmse }) => 5 + 1 / (1 + nrmse) };\n`,
  ),
  benign: file(
    "benign.mjs",
    `export default { kind: "reward", name: "benign", range: [0, 1], score: ({ nrmse }) => 1 / (1 + nrmse) };\n`,
  ),
};

const FORM = ["fit", base, "--target", "y", "--form", "y = myfn(x1)*x2"];
const HANG = { timeoutMs: 30_000 };

describe("plugin code that hangs, fails or lies, run by the CLI", () => {
  test(
    "a symbol's evaluate that never returns is stopped after --plugin-timeout, " +
      "naming the file and the plugin (exit 2)",
    async () => {
      const run = await cli([...FORM, "--plugin", plugins.evaluateLoop, "--plugin-timeout", "2", "--quiet"], HANG);
      const line = assertInputError(
        run,
        `plugin file ${plugins.evaluateLoop}: `,
        'symbol "myfn"',
        "evaluate did not return within 2 s (stopped)",
      );
      assert.doesNotMatch(line, /internal/);
    },
  );

  test("a constraint's check and a reward's score that never return are stopped the same way", async () => {
    const check = await cli(
      [
        "fit",
        base,
        "--target",
        "y",
        "--symbols",
        "x",
        "--plugin",
        plugins.checkLoop,
        "--constraints",
        "static,spin",
        "--plugin-timeout",
        "2",
        "--quiet",
      ],
      HANG,
    );
    assertInputError(
      check,
      `plugin file ${plugins.checkLoop}: `,
      'constraint "spin"',
      "check did not return within 2 s",
    );
    const score = await cli(
      [
        "fit",
        base,
        "--target",
        "y",
        "--symbols",
        "x",
        "--plugin",
        plugins.scoreLoop,
        "--reward",
        "spin",
        "--plugin-timeout",
        "2",
        "--quiet",
      ],
      HANG,
    );
    assertInputError(score, `plugin file ${plugins.scoreLoop}: `, 'reward "spin"', "score did not return within 2 s");
  });

  test("check-plugin on a file whose evaluate never returns stops it and names it (exit 2)", async () => {
    const run = await cli(["check-plugin", plugins.evaluateLoop, "--plugin-timeout", "2"], HANG);
    assertInputError(run, `plugin file ${plugins.evaluateLoop}: `, 'symbol "myfn"', "did not return within 2 s");
  });

  test("a plugin file whose top-level code never ends is stopped, naming the file (exit 2)", async () => {
    const run = await cli(["plugins", "--plugin", plugins.topLevelLoop, "--plugin-timeout", "2"], HANG);
    assertInputError(run, `plugin file ${plugins.topLevelLoop}: `, "top-level code did not finish within 2 s");
  });

  test(
    "Ctrl-C while a constraint's check hangs mid-search " + "stops the command at once, naming the plugin (exit 130)",
    async () => {
      // No --plugin-timeout: the default limit (10 s) is far away; SIGINT must not wait for it.
      const args = [
        "fit",
        base,
        "--target",
        "y",
        "--symbols",
        "x",
        "--plugin",
        plugins.checkLoop,
        "--constraints",
        "static,spin",
      ];
      const run = await cliSignalled(args, /^searching y/m, "SIGINT", { delayMs: 1500, timeoutMs: 30_000 });
      const context = JSON.stringify(run);
      assert.equal(run.code, 130, context);
      // At once: the check is stopped 1 s after SIGINT (the message below), not at the plugin timeout (10 s).
      assert.match(
        run.stderr.trimEnd().split("\n").at(-1)!,
        new RegExp(
          /^error: plugin file .*check-loop\.mjs: constraint "spin": /.source +
            /check was still running 1 s after SIGINT \(stopped\)$/.source,
        ),
        context,
      );
    },
  );

  test(
    "a plugin file with a top-level await that never " + "settles is one error line naming the file (exit 2)",
    async () => {
      const idle = await cli(["plugins", "--plugin", plugins.neverSettles, "--plugin-timeout", "2"], HANG);
      assertInputError(idle, `plugin file ${plugins.neverSettles}: `, "top-level await");
      // The same with a timer keeping the thread alive: the time limit ends it.
      const alive = await cli(["plugins", "--plugin", plugins.neverSettlesAlive, "--plugin-timeout", "2"], HANG);
      assertInputError(alive, `plugin file ${plugins.neverSettlesAlive}: `, "top-level code did not finish within 2 s");
    },
  );

  test(
    "a symbol whose evaluate returns NaN (or a Promise, " +
      "or is async) is an error naming it, never an answer (exit 2)",
    async () => {
      const nan = await cli([...FORM, "--plugin", plugins.nan, "--quiet"], HANG);
      assertInputError(nan, "plugin myfn: ", "evaluate(", "returned NaN");
      const promise = await cli([...FORM, "--plugin", plugins.promise, "--quiet"], HANG);
      assertInputError(promise, "plugin myfn: ", "evaluate(", "a Promise", "synchronous");
      const async = await cli([...FORM, "--plugin", plugins.async, "--quiet"], HANG);
      assertInputError(async, `plugin file ${plugins.async}: `, "plugin myfn: ", 'field "evaluate"', "synchronous");
    },
  );

  test(
    "SIGTERM during run syn2 prints the best so far, " + "writes --out with stopReason aborted, exits 143",
    async () => {
      const out = join(dir, "sigterm.json");
      const run = await cliSignalled(["run", "syn2", "--out", out], /^y2 episode/m, "SIGTERM");
      const context = JSON.stringify(run);
      assert.equal(run.code, 143, context);
      assert.match(run.stdout, /^y1 = .+\n/, context);
      const json = JSON.parse(readFileSync(out, "utf8"));
      assert.equal(json.search.stopReason, "aborted");
    },
  );

  test(
    "under the plugin worker, SIGTERM and SIGINT reach " + "the search (143 and 130, best so far printed and written)",
    async () => {
      for (const [signal, code] of [
        ["SIGTERM", 143],
        ["SIGINT", 130],
      ] as const) {
        const out = join(dir, `${signal}-worker.json`);
        const run = await cliSignalled(
          ["run", "syn2", "--plugin", plugins.benign, "--out", out],
          /^y2 episode/m,
          signal,
        );
        const context = JSON.stringify(run);
        assert.equal(run.code, code, context);
        assert.match(run.stdout, /^y1 = .+\n/, context);
        assert.equal(JSON.parse(readFileSync(out, "utf8")).search.stopReason, "aborted", context);
      }
    },
  );

  test("a reward that scores outside its declared range is a plugin error naming it (exit 2)", async () => {
    const run = await cli(
      ["fit", base, "--target", "y", "--symbols", "x", "--plugin", plugins.outOfRange, "--reward", "big", "--quiet"],
      HANG,
    );
    const context = JSON.stringify(run);
    assert.equal(run.code, 2, context);
    assert.match(
      run.stderr.trimEnd().split("\n").at(-1)!,
      /^error: plugin big: score returned [\d.e+-]+ for NRMSE [\d.e+-]+, outside its declared range \[0, 1\]$/,
      context,
    );
  });
});
