/**
 * Trust: the ways a run could do harm, hang or mislead that the Trust issue listed, each tried as
 * a user or an attacker would (the row in a comment). Writing --out through a link or into
 * a FIFO, a result file that floods or forges the terminal, plugins that print, allocate without
 * end or throw from a getter, the terminal closing mid-run, a byte-order mark, a form written with
 * a symbol's name, a CSV with another separator, progress in a pipe, and the privilege-dropping
 * tests on a checkout other users cannot read. The queue's rows live in sweep-queue.test.ts.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { searchProgress } from "../../src/cli/commands/progress.js";
import { assertInputError, bin, cli, cliSignalled, setprivWorks } from "../helpers/cli.js";
import { fileIn, productCsv, testDir } from "../helpers/data.js";

const dir = testDir("trust");

const file = fileIn(dir);

/** base.csv: 200 rows of x1, x2 in [1, 2] and y = 2·x1·x2. */
const base = file("base.csv", productCsv());
const FIT = ["fit", base, "--target", "y", "--form", "y = x1*x2", "--quiet"];

/** A result of FIT, written once. */
let result = "";
before(async () => {
  result = join(dir, "result.json");
  const run = await cli([...FIT, "--out", result]);
  assert.equal(run.code, 0, run.stderr);
});

/** A copy of the result with `change` applied, under `name`. */
// biome-ignore lint/suspicious/noExplicitAny: a result JSON edited field by field, as an attacker would
const edited = (name: string, change: (r: Record<string, any>) => void, prefix = ""): string => {
  const json = JSON.parse(readFileSync(result, "utf8"));
  change(json);
  return file(name, `${prefix}${JSON.stringify(json, null, 2)}\n`);
};

describe("--out is written through links and special files, never replacing them", () => {
  // Row 1.
  test("a symbolic link is written through to its file, and the link is kept (a dangling one too)", async () => {
    const target = file("target.json", "old\n");
    const link = join(dir, "link.json");
    symlinkSync(target, link);
    const run = await cli([...FIT, "--out", link]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), "the link was replaced by a file");
    assert.equal(JSON.parse(readFileSync(target, "utf8")).version, 1);
    const dangling = join(dir, "dangling.json");
    symlinkSync("made-by-the-run.json", dangling);
    const again = await cli([...FIT, "--out", dangling]);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(lstatSync(dangling).isSymbolicLink());
    assert.equal(readlinkSync(dangling), "made-by-the-run.json");
    assert.equal(JSON.parse(readFileSync(join(dir, "made-by-the-run.json"), "utf8")).version, 1);
  });

  test("a FIFO gets the result written into it and stays a FIFO", { skip: process.platform === "win32" }, async () => {
    const fifo = join(dir, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    // A reader on the FIFO, as `cat` in a pipeline would be.
    const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
    let read = "";
    reader.stdout.setEncoding("utf8").on("data", (s: string) => (read += s));
    const closed = new Promise((resolve) => reader.on("close", resolve));
    const run = await cli([...FIT, "--out", fifo]);
    // A FIFO replaced by a file leaves its reader waiting for a writer: stop it, and fail below.
    const waited = setTimeout(() => reader.kill(), 5000);
    await closed;
    clearTimeout(waited);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(lstatSync(fifo).isFIFO(), "the FIFO was replaced by a file");
    assert.equal(JSON.parse(read).version, 1);
  });
});

test("a FIFO nobody reads yet: the answer is printed before the write waits for a reader (Trust II probe)", {
  skip: process.platform === "win32",
  timeout: 120_000,
}, async () => {
  const fifo = join(dir, "unread.fifo");
  execFileSync("mkfifo", [fifo]);
  const child = spawn(process.execPath, [bin, ...FIT, "--out", fifo], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  // The equation reaches stdout while the FIFO has no reader (a Ctrl-C there lost it).
  const printed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("\n")) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
  const reader = spawn("cat", [fifo], { stdio: ["ignore", "pipe", "inherit"] });
  const readerClosed = new Promise((resolve) => reader.on("close", resolve));
  let read = "";
  reader.stdout.setEncoding("utf8").on("data", (chunk: string) => (read += chunk));
  const code = await closed;
  await readerClosed;
  assert.ok(printed, `nothing printed while the FIFO waited for its reader; stderr: ${stderr}`);
  assert.equal(code, 0, stderr);
  assert.equal(stdout, "y = 2*x1*x2\n");
  assert.equal(JSON.parse(read).version, 1);
});

describe("--out /dev/stdout and a failed write (Trust II, rows 1 and 2)", () => {
  const command = [process.execPath, bin, ...FIT].map((a) => JSON.stringify(a)).join(" ");

  test("into a pipe: stdout is the JSON alone (a pipe reads it), the equation goes to stderr", async () => {
    const run = await cli([], { wrap: ["sh", "-c", `${command} --out /dev/stdout | cat`], bare: true });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).version, 1);
    assert.match(run.stderr, /^y = 2\*x1\*x2$/m);
  });

  test("into a redirected file (> and >>): written in place, what the file held is kept", async () => {
    const log = file("log.txt", "earlier line\n");
    const appended = await cli([], {
      wrap: ["sh", "-c", `${command} --out /dev/stdout >> ${JSON.stringify(log)}`],
      bare: true,
    });
    assert.equal(appended.code, 0, appended.stderr);
    const held = readFileSync(log, "utf8");
    assert.ok(held.startsWith("earlier line\n"), "the file's earlier content was lost");
    assert.equal(JSON.parse(held.slice("earlier line\n".length)).version, 1);
    assert.match(appended.stderr, /^y = 2\*x1\*x2$/m);
    // The same file named twice (--out f > f): one JSON document, written through the stream.
    const same = join(dir, "same.json");
    const twice = await cli([], {
      wrap: ["sh", "-c", `${command} --out ${JSON.stringify(same)} > ${JSON.stringify(same)}`],
      bare: true,
    });
    assert.equal(twice.code, 0, twice.stderr);
    assert.equal(JSON.parse(readFileSync(same, "utf8")).version, 1);
  });

  test("a full disk: the equation is printed all the same, then one error line, exit 2", {
    skip: process.platform !== "linux",
  }, async () => {
    const run = await cli([...FIT, "--out", "/dev/full"]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, "y = 2*x1*x2\n");
    assert.equal(run.stderr, "error: /dev/full: cannot write (ENOSPC); the result above was not saved\n");
  });
});

describe("stdout that fails (the Trust II probe)", () => {
  const search = [base, "--target", "y", "--symbols", "x", "--front"].map((a) => JSON.stringify(a)).join(" ");
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} fit ${search}`;

  test("a reader that went away (| true): exit 0, no stack trace", async () => {
    const run = await cli([], { wrap: ["bash", "-c", `${command} | true; exit \${PIPESTATUS[0]}`], bare: true });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "a stack trace");
  });

  test("a full disk on stdout (> /dev/full): one error line, exit 2", {
    skip: process.platform !== "linux",
  }, async () => {
    const run = await cli([], { wrap: ["bash", "-c", `${command} > /dev/full`], bare: true });
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.endsWith("error: stdout: cannot write (ENOSPC)\n"), run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, "a stack trace");
  });
});

test("a file name with a line break and a terminal escape cannot forge an error line (Trust II probe)", async () => {
  const evil = file("evil\nerror: forged\u001b[31m.csv", productCsv());
  const line = assertInputError(await cli(["fit", evil, "--target", "zz"]), 'no target column "zz"');
  assert.doesNotMatch(line, /\u001b/, "a raw escape reached the terminal");
  assert.match(line, /evil\\nerror: forged\\u001b\[31m\.csv/);
});

describe("reproduce bounds what it reads and shows", () => {
  // Row 5.
  test("a result file above the documented size is refused with one line, before it is read", async () => {
    const big = edited("big.json", (r) => {
      r.manifest.padding = "x".repeat(17 * 2 ** 20);
    });
    assertInputError(await cli(["reproduce", big]), big, "MB", "at most 16 MB");
  });

  test("terminal escapes and line breaks in a result's fields are escaped, and long values cut", async () => {
    const forged = edited("forged.json", (r) => {
      r.equations[0].text = "\u001b[2J\r\nreproduce: same, exact match\u009b31m";
      r.manifest.version = `9.9.9${"\u001b]0;title\u0007".repeat(5000)}`;
    });
    const run = await cli(["reproduce", forged]);
    const all = run.stdout + run.stderr;
    assert.doesNotMatch(
      all,
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/,
      "a raw control character reached the terminal",
    );
    assert.doesNotMatch(run.stdout, /^reproduce: same, exact match/m, "a forged line");
    const note = run.stderr.split("\n").find((line) => line.startsWith("note:"));
    assert.ok(note, run.stderr);
    assert.ok(note.length < 400, `the version was echoed in full (${note.length} characters)`);
    assert.match(all, /\\u001b\[2J\\r\\n/);
  });

  // Row 10.
  test("a result file starting with a byte-order mark is read like one without", async () => {
    const bom = edited("bom.json", () => {}, "\uFEFF");
    const run = await cli(["reproduce", bom, "--quiet"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /exact match/);
  });
});

describe("plugins speak on stderr, within memory, and a throwing getter is their fault", () => {
  const symbol = (name: string, text: string, extra = "") =>
    `export default { kind: "symbol", name: ${JSON.stringify(name)}, complexity: 1, innerWeight: false, ` +
    `text: (a) => \`${text}\`, latex: (a) => \`${text}\`, evaluate: (x) => x, ` +
    `apply: (x, tf) => tf.mul(x, 1)${extra} };\n`;

  // Row 6.
  test("a plugin's console.log goes to stderr, prefixed with the plugin; stdout holds the equations", async () => {
    const chatty = file(
      "chatty.mjs",
      symbol("myfn", "myfn(${a})").replace(
        "evaluate: (x) => x",
        `evaluate: (x) => { if (!globalThis.said) { globalThis.said = 1; console.log("hello from myfn"); } return x; }`,
      ),
    );
    const run = await cli(["fit", base, "--target", "y", "--form", "y = myfn(x1)*x2", "--plugin", chatty, "--quiet"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim().split("\n").length, 1, run.stdout);
    assert.match(run.stdout, /^y = /);
    assert.match(run.stderr, /^\[plugin file .*chatty\.mjs: symbol "myfn"\] hello from myfn$/m);
  });

  // Row 7.
  test("a plugin that allocates without end is stopped at the worker's memory limit, named", async () => {
    const hungry = file(
      "hungry.mjs",
      symbol("myfn", "myfn(${a})").replace(
        "evaluate: (x) => x",
        `evaluate: (x) => { const hoard = []; for (;;) hoard.push(new Array(1e5).fill(Math.random())); }`,
      ),
    );
    const run = await cli(
      [
        "fit",
        base,
        "--target",
        "y",
        "--form",
        "y = myfn(x1)*x2",
        "--plugin",
        hungry,
        "--plugin-memory",
        "128",
        "--quiet",
      ],
      { timeoutMs: 60_000 },
    );
    assertInputError(run, `plugin file ${hungry}`, 'symbol "myfn"', "memory limit of 128 MB", "--plugin-memory");
  });

  // Row 8.
  test("a plugin whose name getter throws is exit 2 naming the file", async () => {
    const getter = file(
      "getter.mjs",
      `export default { kind: "reward", get name() { throw new Error("no name today"); }, range: [0, 1], ` +
        `score: () => 1 };\n`,
    );
    const run = await cli(["fit", base, "--target", "y", "--form", "y = x1*x2", "--plugin", getter]);
    assertInputError(run, `plugin file ${getter}`, "no name today");
  });

  // Row 11.
  test("a form naming a symbol by its name, not as it prints, is told how to write it", async () => {
    const logistic = file("logistic.mjs", symbol("logistic", "σ(${a})"));
    const run = await cli([
      "fit",
      base,
      "--target",
      "y",
      "--form",
      "y = logistic(x1)*x2",
      "--symbols",
      "x,logistic",
      "--plugin",
      logistic,
    ]);
    assertInputError(run, 'the symbol "logistic" is written as it prints', '"σ(x1)"');
  });
});

// Row 9.
test("SIGHUP (the terminal closed) during a search writes --out with the best so far and exits 129", async () => {
  const out = join(dir, "sighup.json");
  const run = await cliSignalled(["run", "syn2", "--out", out], /^y2 episode/m, "SIGHUP");
  const context = JSON.stringify(run);
  assert.equal(run.code, 129, context);
  assert.match(run.stdout, /^y1 = .+\n/, context);
  assert.equal(JSON.parse(readFileSync(out, "utf8")).search.stopReason, "aborted", context);
  assert.match(run.stderr, /stopped by SIGHUP/);
});

// Row 12.
test("a CSV separated by semicolons or tabs is refused with a message naming the separator", async () => {
  const semi = file("semi.csv", "x1;x2;y\n1,5;2;3\n2;3;6\n3;4;12\n4;5;20\n5;6;30\n");
  assertInputError(await cli(["fit", semi, "--target", "y"]), semi, "semicolons", "comma-separated");
  const tabs = file("tabs.csv", "x1\tx2\ty\n1\t2\t3\n2\t3\t6\n3\t4\t12\n4\t5\t20\n5\t6\t30\n");
  assertInputError(await cli(["fit", tabs, "--target", "y"]), tabs, "tabs");
});

// Row 13.
test("progress in a pipe: a line at least every heartbeat while no episode ends", async () => {
  const lines: string[] = [];
  const progress = searchProgress({
    stream: { isTTY: false, write: () => true },
    log: { info: (line: string) => lines.push(line), warn: () => {} },
    quiet: false,
    episodes: 10,
    equation: () => "x1",
    heartbeatMs: 60,
  });
  await new Promise((resolve) => setTimeout(resolve, 400));
  const before = lines.length;
  assert.ok(before >= 3, `${before} lines in 400 ms of silence`);
  assert.match(lines[0]!, /still searching after \d+ s \(screening before the first episode\)/);
  progress.episode({ target: "y", episode: 1, reward: 0.5, structures: 3, best: { key: "a", nrmse: 0.1 } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.match(lines.at(-1)!, /^y: still searching after \d+ s, episode 1; best x1 \(NRMSE 0\.1\); 3 structures$/);
  await progress.stop();
  const stopped = lines.length;
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(lines.length, stopped, "lines after stop()");
});

// Row 15.
test("the privilege-dropping tests see a checkout nobody can read, and skip instead of failing", {
  skip: process.getuid?.() !== 0 ? "not root: nothing to drop" : undefined,
}, () => {
  const hidden = join(dir, "hidden");
  mkdirSync(hidden, { mode: 0o700 });
  const inside = file("hidden/bin.js", "");
  chmodSync(hidden, 0o700);
  assert.equal(setprivWorks(process.env, inside), false, "nobody read a file in a 0700 folder");
  chmodSync(hidden, 0o755);
  chmodSync(inside, 0o644);
  assert.equal(setprivWorks(process.env, inside), true, "nobody could not read a readable file");
});

// Row 2.
test("a stop signal while a large CSV is parsed ends the command there, saying no equation was found yet", async () => {
  const big = join(dir, "big.csv");
  const lines = ["x1,x2,y"];
  for (let i = 0; i < 1_000_000; i++) {
    const x1 = 1 + (i % 997) / 997;
    const x2 = 1 + (i % 991) / 991;
    // sin(3·x1) needs an inner weight: its fits take Adam and LM steps over every row, so the search
    // below is still running when its signal comes (a product of powers is one solve and done).
    lines.push(`${x1},${x2},${2 * x1 * x2 + Math.sin(3 * x1)}`);
  }
  writeFileSync(big, `${lines.join("\n")}\n`);
  lines.length = 0;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    const out = join(dir, `big-${signal}.json`);
    const run = await cliSignalled(["fit", big, "--target", "y", "--out", out], /^reading .*big\.csv/m, signal, {
      delayMs: 300,
    });
    const context = JSON.stringify({ ...run, stdout: run.stdout.slice(0, 200) });
    assert.equal(run.code, code, context);
    assert.match(run.stderr, /while reading .*big\.csv: no equation was found yet, nothing written/, context);
    assert.equal(run.stdout, "", context);
  }
  // Once the search runs, a signal is not dropped, even where the screening or a fit of a million
  // rows holds the event loop when it comes: the run ends as stopped (130), its best so far printed
  // and written (the baseline's where no structure was fitted yet).
  const out = join(dir, "big-search.json");
  const run = await cliSignalled(["fit", big, "--target", "y", "--out", out], /^searching /m, "SIGINT", {
    delayMs: 1500,
  });
  const context = JSON.stringify(run);
  assert.equal(run.code, 130, context);
  assert.match(run.stdout, /^y = /, context);
  assert.match(run.stderr, /^interrupted: printed the best equations found so far$/m, context);
  assert.equal(JSON.parse(readFileSync(out, "utf8")).equations[0].target, "y");
  rmSync(big);
});

// Row 2, many columns: the log-space screen of 300 inputs (thousands of candidate factors) yields.
// y is unrelated to every input, so the input screen (src/lib/run/screen.ts) keeps all 300: a law
// of three of them would be found in a second, with 3 inputs left to the search.
test("a stop signal while 300 columns are screened ends the search promptly with its best so far", async () => {
  const wide = join(dir, "wide.csv");
  const columns = 300;
  const lines = [[...Array.from({ length: columns }, (_, i) => `x${i + 1}`), "y"].join(",")];
  let s = 12345;
  for (let r = 0; r < 500; r++) {
    const x = Array.from({ length: columns }, (_, i) => 1 + ((r * (i + 7) * 37) % 1000) / 1000);
    s = (s * 16807) % 2147483647;
    lines.push([...x, 1 + s / 2147483647].join(","));
  }
  writeFileSync(wide, `${lines.join("\n")}\n`);
  const out = join(dir, "wide.json");
  const run = await cliSignalled(["fit", wide, "--target", "y", "--out", out], /^searching /m, "SIGINT", {
    delayMs: 3000,
    timeoutMs: 120_000,
  });
  const context = JSON.stringify({ ...run, stdout: run.stdout.slice(0, 200) });
  assert.equal(run.code, 130, context);
  assert.match(run.stdout, /^y = /, context);
  // Promptly, by the rule rather than the clock: the signal ended the screen itself (no episode
  // had completed), it did not wait for the screen to finish.
  const result = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(result.search.stopReason, "aborted", context);
  assert.equal(
    result.search.episodes,
    0,
    `${result.search.episodes} episodes, ${run.afterSignalMs} ms after the signal`,
  );
});

test("a list flag given twice adds to the list: a second --target no longer replaces the first", async () => {
  // --target y --target y is --target y,y: a column named twice, one line, exit 2 (it ran on y alone).
  assertInputError(await cli(["fit", base, "--target", "y", "--target", "y", "--quiet"]), "--target", "named twice");
  // --inputs x1 --inputs x2 keeps both: the form's x2 is an input (it was not, with x2 replaced by nothing).
  const both = await cli(["fit", base, "--target", "y", "--inputs", "x1", "--inputs", "x2", "--form", "y = x1*x2"]);
  assert.equal(both.code, 0, both.stderr);
  assert.match(both.stdout, /^y = 2\*x1\*x2$/m);
});
