/**
 * The CLI's finish: `consolesr` without a command prints the help (exit 2); an unusable
 * --backend is one error line; no command prints tfjs's "install tfjs-node" banner; a search's
 * progress is a bar per target on a terminal (progress.ts, tested on a stand-in TTY stream, and
 * on a real pseudo-terminal through `script` where it exists) and the plain lines elsewhere.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  searchProgress,
  showsBar,
  type EpisodeProgress,
  type ProgressStream,
} from "../../src/cli/commands/progress.js";
import type { Reporter } from "../../src/cli/io.js";
import { assertInputError, bin, cli, root } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("polish");

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

/** A stand-in for a terminal's stderr: what is written, kept. */
function fakeTty(columns = 100, isTTY = true): ProgressStream & { text: string } {
  return {
    isTTY,
    columns,
    text: "",
    write(chunk: string, callback?: (error?: Error | null) => void) {
      this.text += chunk;
      callback?.();
      return true;
    },
  };
}

/** A Reporter that keeps its lines. */
function lines(): Reporter & { info: (line: string) => void; lines: string[] } {
  const kept: string[] = [];
  return { lines: kept, info: (line) => void kept.push(line), warn: (line) => void kept.push(line) };
}

/** The events of a search: target y over 7 episodes (a new best at 1, 3 and 6), then z over 2. */
const EVENTS: EpisodeProgress[] = [
  ...[1, 2, 3, 4, 5, 6, 7].map((episode) => ({
    target: "y",
    episode,
    reward: 1 - 1 / (episode + 1),
    structures: episode + 1,
    best:
      episode < 3 ? { key: "a", nrmse: 0.5 } : episode < 6 ? { key: "b", nrmse: 0.0123 } : { key: "c", nrmse: 4.5e-16 },
  })),
  ...[1, 2].map((episode) => ({
    target: "z",
    episode,
    reward: 0.9,
    structures: episode,
    best: { key: "d", nrmse: 0.25 },
  })),
];
const EQUATIONS: Record<string, string> = { a: "x1", b: "3*x1^2", c: "3*x1^2*cos(2.5*x2)", d: "x2" };
const equation = (e: EpisodeProgress) => EQUATIONS[e.best.key]!;
/** The bar's frames: each drawing starts at column 1 (ESC [1G) and ends by clearing to the right (ESC [0K). */
const frames = (text: string) => [...text.matchAll(/\x1b\[1G([^\x1b]*)\x1b\[0K/g)].map((m) => m[1]!);

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
    for (const args of [
      ["run", "syn1"],
      ["fit", join(dir, "any.csv"), "--target", "y"],
      ["reproduce", join(dir, "any.json")],
    ]) {
      const line = assertInputError(await cli([...args, "--backend", "webgl"]), "--backend", "webgl");
      assert.match(line, /cpu, wasm/);
    }
  });

  test(
    'no command prints tfjs\'s "install tfjs-node" banner: fit (search, ' +
      "--form), run, reproduce, check-plugin, and under the plugin worker",
    async () => {
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
    },
  );

  test(
    "progress on a terminal: a bar per target with episodes, " + "best NRMSE, structures and ETA, cleared at the end",
    async () => {
      const stream = fakeTty(100);
      const log = lines();
      const progress = searchProgress({ stream, log, quiet: false, episodes: 600, equation, env: {} });
      for (const event of EVENTS) progress.episode(event);
      await progress.stop();
      assert.deepEqual(log.lines, [], "no plain lines on a terminal");
      const drawn = frames(stream.text);
      assert.ok(drawn.length >= 3, JSON.stringify(stream.text));
      // y's last frame (drawn when z starts) and z's (drawn by stop).
      const y = drawn.find((f) => f.startsWith("y ") && f.includes("7/600 episodes"));
      assert.ok(y, `no frame of y at 7/600: ${JSON.stringify(drawn)}`);
      assert.match(y, /\| NRMSE 4\.5e-16 \| 8 structures \| ETA [^|]+ \| 3\*x1\^2\*cos\(2\.5\*x2\)$/);
      assert.ok(
        drawn.some((f) => f.startsWith("z ") && /\b2\/600 episodes \| NRMSE 0\.25 \| 2 structures \| ETA /.test(f)),
        JSON.stringify(drawn),
      );
      assert.match(drawn[0]!, /^y .* 0\/600 episodes \| NRMSE — \| 0 structures \| ETA \? \| —$/);
      for (const frame of drawn) assert.ok([...frame].length <= 99, `a frame wider than the terminal: ${frame}`);
      // Cleared: the last thing written erases the line, and nothing ever ended a line.
      assert.ok(stream.text.endsWith("\x1b[1G\x1b[2K"), JSON.stringify(stream.text.slice(-40)));
      assert.ok(!stream.text.includes("\n"), "the bar wrote a newline");
      // No terminal modes (hidden cursor, line wrapping) switched; nothing drawn after the stop.
      assert.ok(!/\x1b\[\?(25|7)[hl]/.test(stream.text), JSON.stringify(stream.text));
      const after = stream.text.length;
      await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal(stream.text.length, after, "the bar drew after stop()");
      await progress.stop(); // idempotent
      assert.equal(stream.text.length, after);
    },
  );

  test("progress bar frames fit a narrow terminal", async () => {
    const stream = fakeTty(40);
    const progress = searchProgress({ stream, log: lines(), quiet: false, episodes: 600, equation, env: {} });
    for (const event of EVENTS.slice(0, 7)) progress.episode(event);
    await progress.stop();
    const drawn = frames(stream.text);
    assert.ok(drawn.length >= 2);
    for (const frame of drawn) assert.ok([...frame].length <= 39, `a frame wider than 40 columns: ${frame}`);
  });

  test("no progress bar in a pipe, with --quiet or with TERM=dumb; a bar on a terminal that can draw one", async () => {
    assert.equal(showsBar(fakeTty(80, false), false, {}), false);
    assert.equal(showsBar(fakeTty(80, true), true, {}), false, "--quiet");
    assert.equal(showsBar(fakeTty(80, true), false, { TERM: "dumb" }), false, "TERM=dumb");
    assert.equal(showsBar(fakeTty(80, true), false, { TERM: "xterm-256color" }), true);
    const expected = [
      "y episode 1: reward 0.500000; best x1 (NRMSE 0.5); 2 structures",
      "y episode 3: reward 0.750000; best 3*x1^2 (NRMSE 0.0123); 4 structures",
      "y episode 6: reward 0.857143; best 3*x1^2*cos(2.5*x2) (NRMSE 4.5e-16); 7 structures",
      "z episode 1: reward 0.900000; best x2 (NRMSE 0.25); 1 structures",
    ];
    for (const [stream, env] of [
      [fakeTty(80, false), {}],
      [fakeTty(80, true), { TERM: "dumb" }],
    ] as const) {
      const log = lines();
      const progress = searchProgress({ stream, log, quiet: false, episodes: 600, equation, env });
      for (const event of EVENTS) progress.episode(event);
      await progress.stop();
      assert.deepEqual(log.lines, expected);
      assert.equal(stream.text, "", "nothing drawn");
    }
    // Every 50th episode is a line too, even without a new best.
    const log = lines();
    const progress = searchProgress({
      stream: fakeTty(80, false),
      log,
      quiet: false,
      episodes: 600,
      equation,
      env: {},
    });
    for (let episode = 1; episode <= 100; episode++)
      progress.episode({ target: "y", episode, reward: 0.5, structures: episode, best: { key: "a", nrmse: 0.5 } });
    assert.deepEqual(
      log.lines.map((line) => line.split(":")[0]),
      ["y episode 1", "y episode 50", "y episode 100"],
    );
  });

  test("the CLI's search progress on stderr that is not a terminal: plain episode lines, no escape codes", async () => {
    const run = await cli(["fit", data, "--target", "y", "--symbols", "x,x^2,cos", "--seed", "1"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "y = 3*x1^2*cos(2.5*x2)\n");
    assert.match(run.stderr, /^y episode \d+: reward \d\.\d{6}; best .+ \(NRMSE [^)]+\); \d+ structures$/m);
    assert.ok(!run.stderr.includes("\x1b"), JSON.stringify(run.stderr));
  });

  const script = (() => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

  test("on a real terminal (script): the bar, cleared before the summary, and the equation on stdout", {
    skip: !script && "no `script` command (util-linux)",
  }, async () => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    for (const plugin of [[], ["--plugin", TANH]]) {
      const command = [
        process.execPath,
        bin,
        "fit",
        data,
        "--target",
        "y",
        "--symbols",
        "x,x^2,cos",
        "--seed",
        "1",
        ...plugin,
      ]
        .map(quote)
        .join(" ");
      // script runs the command on a pseudo-terminal: its stdout
      // and stderr both come back here, as the terminal shows them.
      const run = await cli([], {
        wrap: ["script", "-qec", `stty cols 100 2>/dev/null; exec ${command}`, "/dev/null"],
        env: { TERM: "xterm" },
        bare: true,
      });
      const text = run.stdout.replace(/\r/g, "");
      assert.equal(run.code, 0, `${text}${run.stderr}`);
      assert.match(text, /\x1b\[1Gy \S+ \d+\/600 episodes \| NRMSE /, JSON.stringify(text));
      assert.ok(!/^y episode \d+: reward/m.test(text), "plain lines on a terminal");
      // The bar's line is cleared, then the summary line, the equation and "done" follow.
      assert.match(
        text,
        /\x1b\[2Ky: reward-threshold after \d+ episodes[^\n]*\n(.*\n)*y = 3\*x1\^2\*cos\(2\.5\*x2\)\n/,
        JSON.stringify(text.slice(-600)),
      );
      assert.ok(!text.includes(BANNER));
    }
  });
});
