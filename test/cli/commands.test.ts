/**
 * The CLI contract (docs/design.md#cli-contract), end to end: the CLI is spawned as a child process
 * on CSV files generated into a temporary folder. Bad input must give exit 2 and exactly one
 * `error: …` line on stderr naming the problem; a good fit prints its equation on stdout and
 * writes a version-1 JSON that is byte-identical across runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli, root } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("cli");

/**
 * Fails unless the two files hold the same bytes, showing the first line that differs. The
 * manifest's git commit alone may differ: a commit can land in the checkout between the runs.
 */
function assertSameBytes(a: string, b: string): void {
  const [x, y] = [readFileSync(a), readFileSync(b)];
  if (x.equals(y)) return;
  const gitless = (bytes: Buffer) => bytes.toString("utf8").replace(/"git": "[^"]*"/, '"git": "…"');
  if (gitless(x) === gitless(y)) return;
  const [xs, ys] = [gitless(x).split("\n"), gitless(y).split("\n")];
  const k = Math.max(
    0,
    xs.findIndex((line, i) => line !== ys[i]),
  );
  assert.fail(`${a} and ${b} differ at line ${k + 1}:\n  ${xs[k]}\n  ${ys[k]}`);
}

/** Deterministic uniform [0, 1) numbers (32-bit LCG, Numerical Recipes constants). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Rows of x1, x2 ~ U[1, 2] and y = 3*x1^2*cos(2.5*x2), as number[] per row. */
function synthRows(n = 200, seed = 7): number[][] {
  const rand = lcg(seed);
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    const x1 = 1 + rand();
    const x2 = 1 + rand();
    rows.push([x1, x2, 3 * x1 ** 2 * Math.cos(2.5 * x2)]);
  }
  return rows;
}

/** Writes a CSV into the temp folder; `rows` cells are written verbatim. */
function writeCsv(name: string, rows: (string | number)[][], header = "x1,x2,y"): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header, ...rows.map((r) => r.join(","))].join("\n")}\n`);
  return path;
}

/** The good data with one cell (1-based data row, 0-based column) replaced. */
function withCell(name: string, row: number, column: number, cell: string): string {
  const rows: (string | number)[][] = synthRows(20);
  rows[row - 1]![column] = cell;
  return writeCsv(name, rows);
}

const FORM = "y = x1^2*cos(x2)";
const good = writeCsv("data.csv", synthRows());
const expectedVersion = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

// Each CLI start costs ~1.5 s, so the cases run a few at a time.
describe("consolesr CLI", { concurrency: Math.min(4, Math.max(2, availableParallelism())) }, () => {
  test("fit rejects a missing file, naming it", async () => {
    const missing = join(dir, "no-such-file.csv");
    assertInputError(await cli(["fit", missing, "--target", "y", "--form", FORM]), missing);
  });

  test("fit rejects an empty file and a header-only file, naming the file", async () => {
    const empty = join(dir, "empty.csv");
    writeFileSync(empty, "");
    assertInputError(await cli(["fit", empty, "--target", "y", "--form", FORM]), empty, /empty/);
    const headerOnly = writeCsv("header-only.csv", []);
    assertInputError(await cli(["fit", headerOnly, "--target", "y", "--form", FORM]), headerOnly, /no data rows/);
  });

  test("fit rejects an unknown target column, naming it and the columns", async () => {
    const line = assertInputError(await cli(["fit", good, "--target", "z", "--form", "z = x1"]), good, '"z"');
    assert.match(line, /x1, x2, y/);
  });

  test("fit rejects a non-numeric cell with its row number and column name", async () => {
    const file = withCell("text-cell.csv", 5, 1, "abc");
    assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, /\brow 5\b/, '"x2"', '"abc"');
  });

  test("fit rejects a NaN cell and an Inf cell with row number and column name", async () => {
    const nan = withCell("nan-cell.csv", 3, 0, "NaN");
    assertInputError(await cli(["fit", nan, "--target", "y", "--form", FORM]), nan, /\brow 3\b/, '"x1"', "NaN");
    const inf = withCell("inf-cell.csv", 8, 2, "Inf");
    assertInputError(await cli(["fit", inf, "--target", "y", "--form", FORM]), inf, /\brow 8\b/, '"y"', "Inf");
    const infinity = withCell("infinity-cell.csv", 11, 1, "-Infinity");
    assertInputError(
      await cli(["fit", infinity, "--target", "y", "--form", FORM]),
      infinity,
      /\brow 11\b/,
      '"x2"',
      "-Infinity",
    );
  });

  test("fit rejects a ragged row with its row number", async () => {
    const rows: (string | number)[][] = synthRows(20);
    rows[5] = rows[5]!.slice(0, 2); // data row 6 has two cells
    const file = writeCsv("ragged.csv", rows);
    assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, /\brow 6\b/, /2 cells/);
  });

  test("fit rejects fewer than 10 data rows", async () => {
    const file = writeCsv("few-rows.csv", synthRows(5));
    assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, /\b5 data rows\b/, /\b10\b/);
  });

  test("fit rejects a constant target column, naming it", async () => {
    const file = writeCsv(
      "constant.csv",
      synthRows(20).map(([x1, x2]) => [x1!, x2!, 4]),
    );
    assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, '"y"', /constant/);
  });

  test("fit rejects a --form with an unknown symbol, naming the symbol", async () => {
    assertInputError(
      await cli(["fit", good, "--target", "y", "--form", "y = tanh(x1)"]),
      "--form",
      /unknown symbol "tanh"/,
    );
  });

  test("fit rejects a --form with an unknown column, naming the column", async () => {
    assertInputError(
      await cli(["fit", good, "--target", "y", "--form", "y = x1*cos(x9)"]),
      "--form",
      /unknown column "x9"/,
    );
  });

  test("fit rejects log and sqrt on a column with values ≤ 0, naming symbol, column and row", async () => {
    const rows: (string | number)[][] = synthRows(20);
    rows[6]![0] = 0; // x1 = 0 at data row 7
    rows[3]![1] = -0.5; // x2 < 0 at data row 4
    const file = writeCsv("nonpositive.csv", rows);
    assertInputError(
      await cli(["fit", file, "--target", "y", "--form", "y = x2*log(x1)"]),
      /\blog\b/,
      '"x1"',
      /\brow 7\b/,
    );
    assertInputError(
      await cli(["fit", file, "--target", "y", "--form", "y = x1*sqrt(x2)"]),
      /\bsqrt\b/,
      '"x2"',
      /\brow 4\b/,
    );
  });

  test("fit recovers y = 3*x1^2*cos(2.5*x2) from a given form and writes the version-1 JSON", async () => {
    const out = join(dir, "r.json");
    const run = await cli(["fit", good, "--target", "y", "--form", FORM, "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "y = 3*x1^2*cos(2.5*x2)\n");
    const json = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(json.version, 1);
    assert.equal(json.equations.length, 1);
    const [equation] = json.equations;
    assert.equal(equation.target, "y");
    assert.equal(equation.text, "3*x1^2*cos(2.5*x2)");
    assert.equal(equation.terms.length, 1);
    const [term] = equation.terms;
    assert.ok(Math.abs(term.coefficient - 3) <= 0.03, `coefficient ${term.coefficient}`);
    const square = term.factors.find((f: { symbol: string }) => f.symbol === "x^2");
    assert.equal(square?.input, "x1");
    const cos = term.factors.find((f: { symbol: string }) => f.symbol === "cos");
    assert.equal(cos?.input, "x2");
    assert.ok(Math.abs(cos.weight - 2.5) <= 0.025, `cos weight ${cos.weight}`);
    assert.ok(equation.trainNrmse < 1e-6, `train NRMSE ${equation.trainNrmse}`);
    assert.equal(json.manifest.seed, 0);
    assert.equal(json.manifest.version, expectedVersion);
    assert.match(json.manifest.git, /^([0-9a-f]{40}|unknown)$/);
    assert.equal(json.manifest.backend, "cpu");
  });

  test("fit writes byte-identical JSON on two runs", async () => {
    const a = join(dir, "fit-a.json");
    const b = join(dir, "fit-b.json");
    for (const out of [a, b]) {
      const run = await cli([
        "fit",
        good,
        "--target",
        "y",
        "--form",
        FORM,
        "--backend",
        "cpu",
        "--quiet",
        "--out",
        out,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, "", "--quiet prints nothing on stderr");
    }
    assertSameBytes(a, b);
  });

  test("run syn1 --seed 3 writes byte-identical JSON on two runs", async () => {
    const a = join(dir, "syn1-a.json");
    const b = join(dir, "syn1-b.json");
    for (const out of [a, b]) {
      const run = await cli(["run", "syn1", "--seed", "3", "--out", out]);
      assert.equal(run.code, 0, run.stderr);
    }
    assertSameBytes(a, b);
    const json = JSON.parse(readFileSync(a, "utf8"));
    assert.equal(json.version, 1);
    assert.equal(json.manifest.seed, 3);
  });

  test("fit without --form searches and finds y = 3*x1^2*cos(2.5*x2), listing the Pareto front", async () => {
    const out = join(dir, "search.json");
    const run = await cli(["fit", good, "--target", "y", "--symbols", "x,x^2,cos", "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "y = 3*x1^2*cos(2.5*x2)\n");
    assert.match(run.stderr, /y episode \d+: reward/);
    const json = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(json.search.method, "consolesr");
    assert.equal(json.search.stopReason, "reward-threshold");
    assert.ok(
      json.search.front.length >= 1 &&
        json.search.front.every((f: { complexity: number; nrmse: number; text: string }) => f.text && f.complexity > 0),
    );
  });

  test("fit --symbols rejects an unknown symbol, naming it", async () => {
    assertInputError(await cli(["fit", good, "--target", "y", "--symbols", "x,tanh"]), /unknown symbol "tanh"/);
  });

  test("fit --symbols rejects a symbol whose domain a column violates, naming symbol and column", async () => {
    const rows: (string | number)[][] = synthRows(20);
    rows[2]![1] = -1; // x2 < 0 at data row 3
    const file = writeCsv("negative-x2.csv", rows);
    assertInputError(
      await cli(["fit", file, "--target", "y", "--symbols", "x,log"]),
      /symbol log/,
      '"x2"',
      /\brow 3\b/,
    );
  });

  test("fit rejects an unknown search method and an unknown reward plugin", async () => {
    assertInputError(await cli(["fit", good, "--target", "y", "--method", "magic"]), /--method/);
    assertInputError(await cli(["fit", good, "--target", "y", "--reward", "nope"]), /unknown reward "nope"/);
  });

  test("fit rejects an unknown option and a missing --target with one error line", async () => {
    assertInputError(await cli(["fit", good, "--target", "y", "--form", FORM, "--bogus"]), "--bogus");
    assertInputError(await cli(["fit", good]), "--target");
  });

  test("plugins lists the 10 built-in symbols", async () => {
    const run = await cli(["plugins"]);
    assert.equal(run.code, 0, run.stderr);
    const names = run.stdout
      .trim()
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .filter(([kind]) => kind === "symbol")
      .map(([, name]) => name);
    assert.deepEqual(
      [...names].sort(),
      ["cos", "exp", "log", "sin", "sqrt", "x", "x^-1", "x^-2", "x^2", "x^3"],
      run.stdout,
    );
  });
});
