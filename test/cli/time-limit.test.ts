/**
 * A time limit and an answer at any moment: `--time-limit` (and `timeLimit` in fit()) returns the
 * best so far with stopReason "time-limit" even when the first proposal step alone is long,
 * `reproduce` replays such a run to the same point, a signal inside the first episode keeps an
 * answer, and bad values are one error line.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fit, reproduceResult, resultToJson } from "../../src/lib/index.js";
import { createRng } from "../../src/lib/core/rng.js";
import { assertInputError, cli, cliSignalled } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("time-limit");

/**
 * y = x1·x2·x3·x4 / (1 + 2·x2·x4·x5·x6) on 1000 rows of U(1, 2): a ratio of products, which no
 * sum of products fits, so the search runs on (its screens take seconds on the default pool).
 */
function longSearch(rows = 1000): { X: number[][]; y: number[]; csv: string } {
  const rng = createRng(5);
  const X = Array.from({ length: rows }, () => Array.from({ length: 6 }, () => rng.uniform(1, 2)));
  const y = X.map(([a, b, c, d, e, f]) => (a! * b! * c! * d!) / (1 + 2 * b! * d! * e! * f!));
  const lines = X.map((row, r) => [...row, y[r]!].join(","));
  return { X, y, csv: `x1,x2,x3,x4,x5,x6,y\n${lines.join("\n")}\n` };
}

const data = longSearch();
const csv = join(dir, "sum.csv");
writeFileSync(csv, data.csv);

test("--time-limit stops a long search with its best so far (time-limit); reproduce replays it", async () => {
  const out = join(dir, "limited.json");
  const run = await cli(["fit", csv, "--target", "y", "--time-limit", "2", "--out", out], { timeoutMs: 120_000 });
  assert.equal(run.code, 0, run.stderr);
  // The rule, not the clock (a loaded machine is slower): the limit is what ended the search
  // (stopReason below); the bench prints the real latencies.
  assert.match(run.stdout, /^y = .+/m);
  const warnings = run.stderr.split("\n").filter((line) => line.startsWith("warning:"));
  assert.equal(warnings.length, 1, run.stderr);
  assert.match(warnings[0]!, /time limit \(--time-limit 2\)/);
  const result = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(result.search.stopReason, "time-limit");
  assert.equal(result.search.targets[0].stopReason, "time-limit");
  assert.equal(result.manifest.config.timeLimit, 2);
  assert.ok(result.equations[0].terms.length > 0, "an answer, not an empty equation");
  assert.ok(Number.isFinite(result.equations[0].trainNrmse));
  const again = await cli(["reproduce", out], { timeoutMs: 120_000 });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /reproduced exactly/);
});

test("SIGTERM inside the first episode's screening keeps an answer, writes --out, exits 143", async () => {
  const out = join(dir, "signalled.json");
  // A 4-term size screens for tens of seconds; the signal arrives 1.5 s after the search starts.
  const run = await cliSignalled(
    ["fit", csv, "--target", "y", "--terms", "4", "--max-factors", "4", "--out", out],
    /^searching y/m,
    "SIGTERM",
    { delayMs: 1500, timeoutMs: 60_000 },
  );
  assert.equal(run.code, 143, run.stderr);
  const result = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(result.search.stopReason, "aborted");
  // Inside the screening, not after it: no episode completed (the rule; the time it took depends on the machine).
  assert.equal(
    result.search.episodes,
    0,
    `stopped after ${run.afterSignalMs} ms and ${result.search.episodes} episodes`,
  );
  assert.ok(result.equations[0].terms.length > 0, "a best so far, not an empty equation");
  assert.match(run.stdout, /^y = .*x1/m);
  // Replayed to the same point (no episode, "aborted"), however long the replay takes (issue 59).
  const again = await cli(["reproduce", out], { timeoutMs: 120_000 });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /reproduced exactly/);
});

/** y = tanh(x1·x2) + |x3 − x4|^1.5 on 300 rows: no form of ours, so the episodes run on and on. */
function endless(): string {
  const rng = createRng(3);
  const X = Array.from({ length: 300 }, () => Array.from({ length: 4 }, () => rng.uniform(1, 2)));
  const lines = X.map(([a, b, c, d]) => [a, b, c, d, Math.tanh(a! * b!) + Math.abs(c! - d!) ** 1.5].join(","));
  return `x1,x2,x3,x4,y\n${lines.join("\n")}\n`;
}

test("a run stopped by Ctrl-C after some episodes reproduces exactly: replayed to its episodes (issue 59)", {
  timeout: 240_000,
}, async () => {
  const file = join(dir, "endless.csv");
  writeFileSync(file, endless());
  const out = join(dir, "interrupted.json");
  // The signal arrives once episode 7 is announced: the run stops after 7 or more episodes.
  const run = await cliSignalled(["fit", file, "--target", "y", "--out", out], /^y episode 7:/m, "SIGINT", {
    timeoutMs: 120_000,
  });
  assert.equal(run.code, 130, run.stderr);
  const result = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(result.search.stopReason, "aborted");
  assert.ok(result.search.episodes >= 7, `${result.search.episodes} episodes`);
  // Before: re-run to its own end (or a later point), "NOT reproduced".
  const again = await cli(["reproduce", out], { timeoutMs: 120_000 });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /reproduced exactly/);
});

test("a run that ended by itself under a time limit replays without the clock (issue 59)", async () => {
  // y = 1.5·cos(2·x1)·x2 + x3² at 1 % noise: it ends at the noise floor in a few seconds under a 60 s limit.
  const rng = createRng(4);
  const X = Array.from({ length: 400 }, () => Array.from({ length: 3 }, () => rng.uniform(0.5, 2)));
  const f = X.map(([a, b, c]) => 1.5 * Math.cos(2 * a!) * b! + c! * c!);
  const rms = Math.sqrt(f.reduce((sum, v) => sum + v * v, 0) / f.length);
  const lines = X.map((row, r) => [...row, f[r]! + 0.01 * rms * rng.normal()].join(","));
  const file = join(dir, "noisy-cos.csv");
  writeFileSync(file, `x1,x2,x3,y\n${lines.join("\n")}\n`);
  const out = join(dir, "ended.json");
  const run = await cli(["fit", file, "--target", "y", "--time-limit", "60", "--out", out], { timeoutMs: 120_000 });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(readFileSync(out, "utf8"));
  assert.notEqual(result.search.stopReason, "time-limit");
  // A replaying machine far slower than this one: the same run recorded under a limit of 0.2 s, which
  // the replay's screens alone exceed. Before: cut by that clock, "NOT reproduced".
  result.manifest.config.timeLimit = 0.2;
  const slow = join(dir, "ended-slow.json");
  writeFileSync(slow, JSON.stringify(result, null, 2));
  const again = await cli(["reproduce", slow], { timeoutMs: 120_000 });
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.match(again.stdout, /reproduced exactly/);
});

test("fit({ timeLimit }) returns the best so far (time-limit); without it none is recorded", async () => {
  const limited = await fit({ X: data.X, y: data.y, timeLimit: 0.5, search: { terms: 4, maxFactors: 4 } });
  assert.equal(limited.search.stopReason, "time-limit");
  assert.equal(limited.manifest.config.timeLimit, 0.5);
  const [equation] = limited.equations;
  assert.ok(equation!.terms.length > 0);
  // Its predictor is the printed equation's.
  const predicted = equation!.predict(data.X.slice(0, 3));
  assert.equal(predicted.length, 3);
  assert.ok(predicted.every(Number.isFinite));
  // No time limit recorded when none was given (y = 3·x1·x2, exact at its first structure).
  const X = data.X.slice(0, 200);
  const free = await fit({ X, y: X.map((row) => 3 * row[0]! * row[1]!) });
  assert.equal("timeLimit" in free.manifest.config, false);
  assert.equal(free.search.stopReason, "reward-threshold");
});

for (const bad of ["-1", "abc", "1e9", ""]) {
  test(`--time-limit ${JSON.stringify(bad)} is one error line naming the flag (exit 2)`, async () => {
    assertInputError(await cli(["fit", csv, "--target", "y", "--time-limit", bad]), "--time-limit");
  });
}

test("timeLimit is refused for a model method, which has no structure search to stop", async () => {
  assertInputError(
    await cli(["fit", csv, "--target", "y", "--method", "mlp", "--time-limit", "5"]),
    "--time-limit",
    "mlp",
  );
});

test("a model's training stopped from outside is refused by reproduce in one line, not re-run (issue 59)", async () => {
  const X = Array.from({ length: 40 }, (_, i) => [1 + (i % 17) / 17, 1 + (i % 13) / 13]);
  const trained = JSON.parse(resultToJson(await fit({ X, y: X.map(([a, b]) => a! * b!), method: "mlp" })));
  assert.equal(trained.search.stopReason, "model-trained");
  // As a page's Stop records it: the training ended mid-epoch, which no re-run reaches.
  trained.search.stopReason = "aborted";
  await assert.rejects(reproduceResult(trained), (error: Error) => {
    assert.equal(error.name, "InputError");
    assert.match(error.message, /^result: a run of mlp stopped from outside mid-training cannot be re-run/);
    assert.ok(!error.message.includes("\n"));
    return true;
  });
});
