/**
 * The data boundary at its edges: the CSV reader, the file reader
 * and the `--form` parser. Each row's test failed before its fix. Bad input must be one
 * `error: …` line (exit 2) naming the file, the column and the row where there is one; the
 * library throws the same InputError. A seeded in-process fuzz of parseCsv + datasetFromTable
 * and of the form parser closes the file: every case returns a valid result or throws a
 * one-line InputError, never another error.
 */
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, bin, cli, root, setprivWorks, type Run } from "../helpers/cli.js";
import { datasetFromTable, MIN_ROWS, parseCsv, type Table } from "../../src/lib/data/csv.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { InputError } from "../../src/lib/core/errors.js";
import {
  formEquations,
  resolvePipelineConfig,
  runPipeline,
  type CsvFormConfig,
  type CsvSearchConfig,
} from "../../src/lib/run/index.js";
import { createRng, type Rng } from "../../src/lib/core/rng.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("data-edges");

/** 200 rows of x1, x2 ~ U[1, 2] and y = 2·x1·x2 ("base.csv" of the issue). */
function baseRows(n = 200, seed = 1): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => {
    const x1 = rng.uniform(1, 2);
    const x2 = rng.uniform(1, 2);
    return [x1, x2, 2 * x1 * x2];
  });
}

const csvText = (rows: (string | number)[][], header = "x1,x2,y") =>
  `${[header, ...rows.map((r) => r.join(","))].join("\n")}\n`;

function writeCsv(name: string, rows: (string | number)[][], header = "x1,x2,y"): string {
  const path = join(dir, name);
  writeFileSync(path, csvText(rows, header));
  return path;
}

/** The base rows with column `column` multiplied by `scale`. */
const scaled = (column: number, scale: number) =>
  baseRows().map((r) => r.map((v, j) => (j === column ? v * scale : v)));

/** Runs `fn`, expecting an InputError of one non-empty line matching every pattern; returns its message. */
function assertThrowsInput(fn: () => unknown, ...patterns: (string | RegExp)[]): string {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(
    caught instanceof InputError,
    `expected an InputError, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`,
  );
  const message = caught.message;
  assert.ok(message.length > 0 && !/[\n\r]/.test(message), `not one line: ${JSON.stringify(message)}`);
  for (const p of patterns) {
    if (typeof p === "string") assert.ok(message.includes(p), `"${p}" not in ${JSON.stringify(message)}`);
    else assert.match(message, p);
  }
  return message;
}

const FORM = "y = x1*x2";

describe("magnitudes that overflow float64", () => {
  test(
    "a column scaled by 1e300 is refused at the data boundary, " +
      "naming file, column and the scale (fit --form, fit search, library)",
    async () => {
      const file = writeCsv("big.csv", scaled(0, 1e300));
      assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, '"x1"', /divide/, /1e\+?300/);
      assertInputError(await cli(["fit", file, "--target", "y", "--episodes", "5", "--quiet"]), file, '"x1"', /divide/);
      assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(scaled(0, 1e300))), ["y"], undefined, "big.csv"),
        "big.csv",
        '"x1"',
        /divide/,
      );
      assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(scaled(2, -1e150))), ["y"], undefined, "big-y.csv"),
        "big-y.csv",
        '"y"',
        /1e\+?150/,
      );
      // Large but safe magnitudes are still read.
      assert.equal(datasetFromTable(parseCsv(csvText(scaled(0, 1e50))), ["y"]).rows, 200);
    },
  );

  test(
    "the pipeline never presents an equation whose " + "train NRMSE is not finite (a one-line InputError instead)",
    async () => {
      const registries = createRegistries();
      const table = parseCsv(csvText(baseRows()), "base.csv");
      const config = resolvePipelineConfig(
        { csv: { name: "base.csv", table }, targets: ["y"], form: FORM, fit: { engine: "js" } },
        registries,
      ) as CsvFormConfig;
      // A dataset built by hand (not through datasetFromTable): the target's spread underflows,
      // so no fit can have a finite NRMSE.
      const good = datasetFromTable(table, ["y"]);
      const train: Dataset = { ...good, y: [good.y[0]!.map((v) => v * 1e-300)] };
      await assert.rejects(
        runPipeline({ data: { train, searchSeed: 0 }, config, registries, backend: "js" }),
        (error: unknown) =>
          error instanceof InputError &&
          /no fit with a finite train NRMSE/.test(error.message) &&
          error.message.includes('"y"') &&
          !error.message.includes("\n"),
      );
      // A good dataset still gives its equation.
      const { result } = await runPipeline({ data: { train: good, searchSeed: 0 }, config, registries, backend: "js" });
      assert.ok(Number.isFinite(result.equations[0]!.trainNrmse) && result.equations[0]!.trainNrmse < 1e-6);
    },
  );

  test(
    "a search whose every structure has a non-finite " + "NRMSE is an InputError, not `y = 0` with NRMSE null",
    async () => {
      const registries = createRegistries();
      const table = parseCsv(csvText(baseRows()), "base.csv");
      const config = resolvePipelineConfig(
        {
          csv: { name: "base.csv", table },
          targets: ["y"],
          symbols: ["x"],
          search: { episodes: 3, terms: 1, maxFactors: 1 },
        },
        registries,
      ) as CsvSearchConfig;
      const good = datasetFromTable(table, ["y"]);
      const train: Dataset = { ...good, y: [good.y[0]!.map((v) => v * 1e-300)] };
      await assert.rejects(
        runPipeline({ data: { train, searchSeed: 0 }, config, registries, backend: "js" }),
        (error: unknown) =>
          error instanceof InputError &&
          /no fit with a finite train NRMSE/.test(error.message) &&
          !error.message.includes("\n"),
      );
    },
  );
});

describe("magnitudes that underflow float64", () => {
  test(
    "a target around 1e-300 is not called constant: " + "its spread underflows, and the error says to scale it",
    async () => {
      const file = writeCsv("tiny.csv", scaled(2, 1e-300));
      const line = assertInputError(
        await cli(["fit", file, "--target", "y", "--form", FORM]),
        file,
        '"y"',
        /multiply/,
        /underflow/,
      );
      assert.doesNotMatch(line, /constant/);
      const message = assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(scaled(2, 1e-300))), ["y"], undefined, "tiny.csv"),
        "tiny.csv",
        '"y"',
        /underflow/,
      );
      assert.doesNotMatch(message, /constant/);
      // An input column too: its products underflow.
      assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(scaled(0, -1e-250)), "tiny-x.csv"), ["y"]),
        '"x1"',
        /underflow/,
      );
      // "Constant" only when every value is equal, whatever their size.
      const constant = baseRows(20).map(([x1, x2]) => [x1!, x2!, 1e-300]);
      assertThrowsInput(() => datasetFromTable(parseCsv(csvText(constant), "c.csv"), ["y"]), '"y"', /constant/);
      // Small but safe magnitudes are still read.
      assert.equal(datasetFromTable(parseCsv(csvText(scaled(2, 1e-50))), ["y"]).rows, 200);
    },
  );
});

/** Whether `user` can run node on this checkout (read the repo and node_modules) through setpriv. */
function which(command: string): boolean {
  return (process.env.PATH ?? "").split(":").some((d) => d && existsSync(join(d, command)));
}

describe("a file the user may not read", () => {
  const isRoot = process.getuid?.() === 0;
  const home = join(dir, "home");
  const env = { ...process.env, HOME: home, TMPDIR: home, CONSOLESR_DEBUG: "" };
  const reason =
    process.platform === "win32"
      ? "no POSIX permissions"
      : isRoot && !which("setpriv")
        ? "running as root without setpriv: cannot drop privileges to test a permission error"
        : undefined;

  test("a CSV without read permission is exit 2 naming the file (permission denied), not an internal error", {
    skip: reason,
  }, (t) => {
    mkdirSync(home, { recursive: true });
    chmodSync(dir, 0o755);
    chmodSync(home, 0o777);
    const file = writeCsv("locked.csv", baseRows(20));
    chmodSync(file, 0o000);
    let run: Run;
    const args = [bin, "fit", file, "--target", "y", "--form", FORM];
    if (isRoot) {
      if (!setprivWorks(env)) {
        t.skip(
          "setpriv cannot run node on this checkout as nobody (the checkout is not readable by an unprivileged user)",
        );
        return;
      }
      const child = spawnSync(
        "setpriv",
        ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, ...args],
        { cwd: root, env, encoding: "utf8", timeout: 120_000 },
      );
      run = { code: child.status, stdout: child.stdout, stderr: child.stderr };
    } else {
      assert.throws(() => accessSync(file, constants.R_OK));
      const child = spawnSync(process.execPath, args, { cwd: root, env, encoding: "utf8", timeout: 120_000 });
      run = { code: child.status, stdout: child.stdout, stderr: child.stderr };
    }
    assertInputError(run, file, /permission denied/);
  });
});

describe("column names that are not identifiers", () => {
  test(
    "a column named a*b is refused with one error line naming it (fit, " + "fit --form, library); x.1 and _a are names",
    async () => {
      const file = writeCsv("star.csv", baseRows(), "a*b,c,y");
      assertInputError(await cli(["fit", file, "--target", "y", "--episodes", "5", "--quiet"]), file, '"a*b"');
      assertInputError(await cli(["fit", file, "--target", "y", "--form", "y = c"]), file, '"a*b"');
      assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(baseRows(), "a*b,c,y")), ["y"], undefined, "star.csv"),
        "star.csv",
        '"a*b"',
      );
      assertThrowsInput(
        () => datasetFromTable(parseCsv(csvText(baseRows(), "x1,x2,y (m)"), "t.csv"), ["y (m)"]),
        '"y (m)"',
      );
      assertThrowsInput(() => datasetFromTable(parseCsv(csvText(baseRows(), "1x,x2,y"), "t.csv"), ["y"]), '"1x"');
      // A column left out by --inputs is not used, so its name does not matter.
      assert.deepEqual(datasetFromTable(parseCsv(csvText(baseRows(), "a*b,c,y")), ["y"], ["c"]).inputs, ["c"]);
      // The names the form parser reads: letters, digits, _ and dots, not starting with a digit.
      const registries = createRegistries();
      const table = parseCsv(csvText(baseRows(), "x.1,_a,y"));
      const config = resolvePipelineConfig(
        { csv: { name: "t.csv", table }, targets: ["y"], form: "y = x.1*_a" },
        registries,
      ) as CsvFormConfig;
      assert.deepEqual(
        formEquations(config, datasetFromTable(table, ["y"]), registries)[0]!.terms[0]!.factors.map((f) => f.input),
        ["x.1", "_a"],
      );
    },
  );
});

describe("numbers JavaScript reads but a CSV should not", () => {
  test("a hexadecimal cell is an error naming the row and the column", async () => {
    const rows: (string | number)[][] = baseRows();
    rows[4]![0] = "0x1f";
    const file = writeCsv("hex.csv", rows);
    assertInputError(await cli(["fit", file, "--target", "y", "--form", FORM]), file, /\brow 5\b/, '"x1"', '"0x1f"');
  });

  test("0x, 0b, 0o, Infinity and blank cells are refused; decimals and exponents are read", () => {
    const withCell = (cell: string) => {
      const rows: (string | number)[][] = baseRows(12);
      rows[6]![1] = cell;
      return csvText(rows);
    };
    for (const cell of ["0x1f", "0X1F", "0b101", "0o7", "-0x10", " 0b1 "]) {
      assertThrowsInput(
        () => parseCsv(withCell(cell), "f.csv"),
        "f.csv",
        /\brow 7\b/,
        '"x2"',
        `"${cell.trim()}"`,
        /not a decimal number/,
      );
    }
    for (const cell of ["Infinity", "-Infinity", "1e400"])
      assertThrowsInput(() => parseCsv(withCell(cell), "f.csv"), /\brow 7\b/, '"x2"', /not a finite number/);
    for (const cell of ["   ", "\t"])
      assertThrowsInput(() => parseCsv(withCell(cell), "f.csv"), /\brow 7\b/, '"x2"', /empty cell/);
    for (const cell of ["nan", "NaN", "-nan"])
      assertThrowsInput(() => parseCsv(withCell(cell), "f.csv"), /\brow 7\b/, '"x2"', /not a finite number/);
    for (const cell of ["1_000", "1,5", "abc", "1e", "e5", ".", "-", "--1", "1.2.3"]) {
      assertThrowsInput(
        () => parseCsv(withCell(cell.includes(",") ? `"${cell}"` : cell), "f.csv"),
        /\brow 7\b/,
        '"x2"',
        /not a (decimal )?number/,
      );
    }
    for (const [cell, value] of [
      ["1e-3", 1e-3],
      [".5", 0.5],
      ["-2", -2],
      ["+3.0", 3],
      ["1E5", 1e5],
      ["5.", 5],
      [" 7 ", 7],
      ["-0.25e+2", -25],
      ["0", 0],
      ["00012", 12],
    ] as const) {
      assert.equal(parseCsv(withCell(cell)).values[1]![6], value, cell);
    }
  });
});

// ─── Fuzz ──────────────────────────────────────────────────────────────────────────────────────

/** Fails unless `error` is an InputError with a non-empty one-line message. */
function assertCleanError(error: unknown, input: string): void {
  if (!(error instanceof InputError)) {
    assert.fail(
      `not an InputError for input ${JSON.stringify(input.slice(0, 300))}: ` +
        `${error instanceof Error ? error.stack : String(error)}`,
    );
  }
  assert.ok(error.message.length > 0, `empty message for ${JSON.stringify(input.slice(0, 300))}`);
  assert.ok(
    !/[\n\r\u2028\u2029]/.test(error.message),
    `a message of several lines for ${JSON.stringify(input.slice(0, 300))}: ${JSON.stringify(error.message)}`,
  );
}

function assertValidTable(table: Table): void {
  assert.ok(table.rows >= MIN_ROWS);
  assert.equal(table.values.length, table.columns.length);
  assert.equal(new Set(table.columns).size, table.columns.length);
  for (const name of table.columns) assert.ok(name.length > 0 && name === name.trim());
  for (const column of table.values) {
    assert.equal(column.length, table.rows);
    assert.ok(column.every(Number.isFinite));
  }
}

function assertValidDataset(data: Dataset, table: Table, targets: readonly string[]): void {
  assert.deepEqual(data.targets, [...targets]);
  assert.ok(data.inputs.length > 0);
  assert.equal(data.x.length, data.inputs.length);
  assert.equal(data.y.length, data.targets.length);
  for (const name of [...data.inputs, ...data.targets]) {
    assert.ok(table.columns.includes(name));
    assert.match(name, /^[A-Za-z_][A-Za-z0-9_.]*$/);
  }
  for (const y of data.y)
    assert.ok(
      y.some((v) => v !== y[0]),
      "a target is not constant",
    );
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[rng.int(items.length)]!;

const CSV_TOKENS = [
  ",",
  "\n",
  "\r\n",
  "\r",
  '"',
  '""',
  " ",
  "\t",
  ";",
  "0x1f",
  "0b1",
  "0o7",
  "Infinity",
  "-inf",
  "nan",
  "1e400",
  "1e-400",
  "1e300",
  "1e-300",
  "1e120",
  "1e-120",
  "",
  "1_0",
  ".",
  "-",
  "+",
  "e",
  "1e",
  "١",
  "½",
  "\u00a0",
  "\uFEFF",
  "\u2028",
  "\ud800",
  "a*b",
  "x1",
  "y",
  "x2",
  "constructor",
  "__proto__",
  "0",
  "-0",
  "+.5e-3",
];

/**
 * A valid CSV, then a few random edits: insertions of bytes and
 * tokens, deletions, duplicated or dropped lines, replaced cells.
 */
function mutatedCsv(rng: Rng): string {
  const rows = baseRows(MIN_ROWS + rng.int(6), rng.int(1000));
  let text = csvText(
    rows.map((r) => r.map((v) => (rng.next() < 0.5 ? v.toPrecision(1 + rng.int(17)) : String(v)))),
    pick(rng, ["x1,x2,y", "x1,x2,y,z", "a,b,y", "x1,y"]),
  );
  const edits = 1 + rng.int(4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(text.length + 1);
    switch (rng.int(6)) {
      case 0:
        text = text.slice(0, at) + String.fromCharCode(rng.int(256)) + text.slice(at);
        break;
      case 1:
        text = text.slice(0, at) + pick(rng, CSV_TOKENS) + text.slice(at);
        break;
      case 2:
        text = text.slice(0, at) + text.slice(at + 1 + rng.int(8));
        break;
      case 3: {
        const lines = text.split("\n");
        const k = rng.int(lines.length);
        if (rng.next() < 0.5) lines.splice(k, 0, lines[k]!);
        else lines.splice(k, 1);
        text = lines.join("\n");
        break;
      }
      case 4: {
        // Replace one cell (found by its commas) with a token.
        const lines = text.split("\n");
        const k = rng.int(lines.length);
        const cells = lines[k]!.split(",");
        cells[rng.int(cells.length)] = pick(rng, CSV_TOKENS);
        lines[k] = cells.join(",");
        text = lines.join("\n");
        break;
      }
      default: {
        // Scale a whole column by a huge or tiny factor, or make it constant.
        const lines = text.split("\n");
        const j = rng.int(3);
        const factor = pick(rng, [1e200, 1e-200, 1e101, 1e-101, 0]);
        text = lines
          .map((line, i) =>
            i === 0
              ? line
              : line
                  .split(",")
                  .map((c, jj) => (jj === j && c.trim() !== "" ? String(Number(c) * factor) : c))
                  .join(","),
          )
          .join("\n");
      }
    }
  }
  return text;
}

/** Random code units: mostly ASCII, some bytes above it, some anywhere in the BMP. */
function randomText(rng: Rng, length: number): string {
  let s = "";
  for (let i = 0; i < length; i++) {
    const r = rng.next();
    s += String.fromCharCode(
      r < 0.7
        ? 32 + rng.int(95)
        : r < 0.85
          ? pick(rng, [10, 13, 9, 34, 44, 44, 44, 10])
          : r < 0.95
            ? rng.int(256)
            : rng.int(65536),
    );
  }
  return s;
}

/** parseCsv + datasetFromTable on one text: a valid dataset or a one-line InputError. */
function csvCase(text: string, rng: Rng): void {
  let table: Table;
  try {
    table = parseCsv(text, "fuzz.csv");
  } catch (error) {
    assertCleanError(error, text);
    return;
  }
  assertValidTable(table);
  const targets =
    rng.next() < 0.8
      ? [table.columns[table.columns.length - 1]!]
      : [pick(rng, table.columns), pick(rng, [...table.columns, "missing"])];
  const inputs = rng.next() < 0.8 ? undefined : table.columns.filter(() => rng.next() < 0.5);
  try {
    assertValidDataset(datasetFromTable(table, targets, inputs, "fuzz.csv"), table, targets);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    assertCleanError(error, text);
  }
}

const FORM_TOKENS = [
  "x1",
  "x2",
  "y",
  "x3",
  "cos(",
  "sin(",
  "exp(",
  "log(",
  "sqrt(",
  "(",
  ")",
  "^2",
  "^3",
  "^(-1)",
  "^(-2)",
  "*",
  "+",
  "-",
  "/",
  "=",
  ";",
  "\n",
  "\r",
  " ",
  "2.5",
  "1e3",
  ".5",
  "e",
  "tanh(",
  "2*",
  ",",
  '"',
  "\u0001",
  "(x1)",
  "x1*x1",
  "y =",
  "= x1",
];

function mutatedForm(rng: Rng): string {
  let form = pick(rng, [
    "y = x1*x2",
    "y = x1^2*cos(2.5*x2)",
    "y = 3*x1 + 2*sqrt(x2) - exp(x1)*x2^(-1)",
    "y = log(x1)*sin(x2); y = x1",
    "y=x1^3+x2^(-2)",
  ]);
  const edits = rng.int(4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(form.length + 1);
    const r = rng.int(3);
    if (r === 0) form = form.slice(0, at) + pick(rng, FORM_TOKENS) + form.slice(at);
    else if (r === 1) form = form.slice(0, at) + form.slice(at + 1 + rng.int(4));
    else form = form.slice(0, at) + String.fromCharCode(rng.int(128)) + form.slice(at);
  }
  return form;
}

/**
 * The CSV form path (resolvePipelineConfig → datasetFromTable →
 * parseForm → domain checks): a parsed form or a one-line InputError.
 */
function formCase(
  form: string,
  table: Table,
  registries: ReturnType<typeof createRegistries>,
  withTargets: boolean,
): void {
  let config: CsvFormConfig;
  try {
    config = resolvePipelineConfig(
      { csv: { name: "fuzz.csv", table }, targets: withTargets ? ["y"] : undefined, form, fit: { engine: "js" } },
      registries,
    ) as CsvFormConfig;
  } catch (error) {
    assertCleanError(error, form);
    return;
  }
  const train = datasetFromTable(table, config.targets, config.inputs, "fuzz.csv");
  const equations = formEquations(config, train, registries);
  assert.ok(equations.length > 0);
  for (const equation of equations) {
    assert.ok(train.targets.includes(equation.target));
    assert.ok(equation.terms.length > 0);
    // At most one term of numbers alone: the additive constant.
    assert.ok(equation.terms.filter((t) => t.factors.length === 0).length <= 1);
    for (const term of equation.terms) {
      for (const factor of term.factors) {
        assert.ok(train.inputs.includes(factor.input), `${factor.input} is an input`);
        registries.symbols.get(factor.symbol);
      }
    }
  }
}

describe("fuzz", () => {
  test(
    "fuzz: parseCsv + datasetFromTable on seeded random bytes " +
      "and mutated CSVs give a dataset or a one-line InputError",
    () => {
      const rng = createRng(20240617);
      for (let k = 0; k < 1500; k++) csvCase(mutatedCsv(rng), rng);
      for (let k = 0; k < 500; k++) csvCase(randomText(rng, rng.int(400)), rng);
      // Random bytes after a valid header and enough rows to get past the row count.
      for (let k = 0; k < 500; k++) csvCase(csvText(baseRows(MIN_ROWS)) + randomText(rng, rng.int(60)), rng);
    },
  );

  test("fuzz: the --form parser on seeded random and mutated forms gives equations or a one-line InputError", () => {
    const rng = createRng(7);
    const registries = createRegistries();
    const table = parseCsv(
      csvText(
        baseRows(40).map(([x1, x2, y]) => [x1!, x2!, x1! * 3, y!]),
        "x1,x2,x3,y",
      ),
      "fuzz.csv",
    );
    for (let k = 0; k < 1500; k++) formCase(mutatedForm(rng), table, registries, rng.next() < 0.5);
    for (let k = 0; k < 500; k++) formCase(randomText(rng, rng.int(60)), table, registries, rng.next() < 0.5);
    for (let k = 0; k < 300; k++) formCase(`y = ${randomText(rng, rng.int(30))}`, table, registries, true);
  });
});
