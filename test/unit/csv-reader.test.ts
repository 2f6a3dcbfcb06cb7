// The streaming CSV reader (CsvReader, readCsv): any cut of the text or of its bytes gives the
// table of the whole text, quoted cells with line breaks and commas included, and the same
// one-line error, naming the same row, wherever the file is cut; an abort ends a read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { csvParseRows } from "d3-dsv";
import { CsvReader, InputError, MIN_ROWS, parseCsv, readCsv, type Table } from "../../src/lib/index.js";
import { GrowingColumn } from "../../src/lib/data/index.js";
import { createRng } from "../../src/lib/core/rng.js";

/** The table of a valid CSV computed another way: d3's rows of the whole text, numbers by Number. */
function oracle(text: string): Table {
  const rows = csvParseRows(text.replace(/^\uFEFF/, "")).filter((r) => !(r.length === 1 && r[0]!.trim() === ""));
  const columns = rows[0]!.map((c) => c.trim());
  const body = rows.slice(1);
  return {
    columns,
    values: columns.map((_, j) => Float64Array.from(body, (r) => Number(r[j]))),
    rows: body.length,
  };
}

/** The reader fed `text` in pieces cut at `cuts` (sorted offsets). */
function inPieces(text: string, cuts: readonly number[], file = "t.csv"): Table {
  const reader = new CsvReader(file);
  let from = 0;
  for (const at of [...cuts, text.length]) {
    reader.push(text.slice(from, at));
    from = at;
  }
  return reader.end();
}

const errorOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

// A BOM, CRLF and LF line ends, blank lines, a quoted header cell with a comma and a line break,
// quoted numbers (one with a doubled quote in an unused column), exponents, a last row without a line end.
const rowsText = Array.from({ length: MIN_ROWS + 3 }, (_, i) => `${i * 0.5},"${-i}e-3",${i % 3 ? "7" : '"8"'}`);
const TRICKY =
  '\uFEFFx1,"x,2","note\r\nhere"\r\n' + rowsText.slice(0, 4).join("\r\n") + "\r\n\r\n" + rowsText.slice(4).join("\n");

test("CsvReader: every cut of a tricky file gives the whole file's table", () => {
  const whole = parseCsv(TRICKY, "t.csv");
  assert.deepEqual(whole, oracle(TRICKY), "the whole text differs from d3's rows");
  assert.deepEqual(whole.columns, ["x1", "x,2", "note\r\nhere"]);
  assert.equal(whole.rows, MIN_ROWS + 3);
  for (let at = 0; at <= TRICKY.length; at++) assert.deepEqual(inPieces(TRICKY, [at]), whole, `cut at ${at}`);
  // many pieces: one character at a time, and random cuts
  assert.deepEqual(
    inPieces(
      TRICKY,
      Array.from({ length: TRICKY.length }, (_, i) => i),
    ),
    whole,
  );
  const rng = createRng(5);
  for (let trial = 0; trial < 50; trial++) {
    const cuts = Array.from({ length: 6 }, () => Math.floor(rng.uniform(0, TRICKY.length))).sort((a, b) => a - b);
    assert.deepEqual(inPieces(TRICKY, cuts), whole, `cuts ${cuts}`);
  }
});

test("readCsv: bytes split inside a UTF-8 character, async pieces, and the rows so far", async () => {
  const text = `größe,y\n${Array.from({ length: 30 }, (_, i) => `${i},${2 * i + 1}`).join("\n")}\n`;
  const bytes = new TextEncoder().encode(text);
  assert.ok(bytes[3]! >= 0x80, "the header's ö is not where the cut is");
  const seen: number[] = [];
  async function* pieces() {
    yield bytes.subarray(0, 3); // "gr" and half of "ö"
    yield bytes.subarray(3, 40);
    yield bytes.subarray(40);
  }
  const table = await readCsv(pieces(), { file: "u.csv", onRows: (rows) => seen.push(rows) });
  assert.deepEqual(table, parseCsv(text, "u.csv"));
  assert.equal(table.columns[0], "größe");
  assert.equal(seen.length, 3);
  // the header's piece completes no data row, the second some, the last (ending in a line break) all
  assert.ok(seen[0] === 0 && seen[1]! > 0 && seen[1]! < 30 && seen[2] === 30, `rows so far: ${seen}`);
  // a plain array of strings is a source too
  assert.deepEqual(await readCsv(text.split(/(?<=\n)/), { file: "u.csv" }), table);
});

test("CsvReader: a bad row is the same one-line error wherever the file is cut", () => {
  const rows = Array.from({ length: 20 }, (_, i) => `${i},${i + 1}`);
  const cases: [string, RegExp][] = [
    [
      `a,b\n${rows.slice(0, 12).join("\n")}\n1,x\n${rows.slice(12).join("\n")}\n`,
      /^t\.csv: row 13 \(line 14\), column "b": "x" is not a number$/,
    ],
    [
      `a,b\n${rows.slice(0, 7).join("\n")}\n1,2,3\n${rows.join("\n")}`,
      /^t\.csv: row 8 \(line 9\) has 3 cells, the header has 2$/,
    ],
    [`a;b\n${rows.join("\n")}`, /^t\.csv: the header is one column separated by semicolons/],
    [`a,a\n${rows.join("\n")}`, /^t\.csv: column "a" appears twice in the header$/],
    ["\n\n", /^t\.csv: the file is empty$/],
    ["a,b\n", /^t\.csv: the file has a header but no data rows$/],
    [
      `a,b\n${rows.slice(0, MIN_ROWS - 1).join("\n")}`,
      new RegExp(`^t\\.csv: ${MIN_ROWS - 1} data rows; at least ${MIN_ROWS}`),
    ],
  ];
  for (const [text, expected] of cases) {
    const whole = errorOf(() => parseCsv(text, "t.csv"));
    assert.match(whole, expected);
    for (let at = 0; at <= text.length; at += 3)
      assert.equal(
        errorOf(() => inPieces(text, [at])),
        whole,
        `cut at ${at}`,
      );
  }
});

test("readCsv: an aborted signal ends the read with its reason", async () => {
  const controller = new AbortController();
  let served = 0;
  function* pieces() {
    yield "a,b\n";
    for (let i = 0; i < 1000; i++) {
      served++;
      if (i === 5) controller.abort(new Error("stop here"));
      yield `${i},${i}\n`;
    }
  }
  await assert.rejects(readCsv(pieces(), { signal: controller.signal }), /stop here/);
  assert.ok(served <= 7, `the read went on after the abort (${served} pieces)`);
});

test("CsvReader: a UTF-16 file (either byte order, with or without its mark) is named, with a fix", async () => {
  const text = `a,b\n${Array.from({ length: MIN_ROWS }, (_, i) => `${i},${2 * i}`).join("\n")}\n`;
  const le = Buffer.from(`\uFEFF${text}`, "utf16le");
  const be = Buffer.from(le).swap16();
  for (const bytes of [le, be, le.subarray(2), be.subarray(2)]) {
    await assert.rejects(
      readCsv([bytes], { file: "w.csv" }),
      (e: Error) =>
        /^w\.csv: is UTF-16 text .*as UTF-8: save it as UTF-8 /.test(e.message) &&
        e.message.endsWith("(e.g. iconv -f UTF-16 -t UTF-8 w.csv > w-utf8.csv)") &&
        !e.message.includes("\u0000"),
    );
  }
  // UTF-8 with its byte-order mark still reads.
  assert.equal((await readCsv([Buffer.from(`\uFEFF${text}`, "utf8")], { file: "w.csv" })).columns[0], "a");
});

test("CsvReader: a gzip, zip or binary file is named as such, not read as garbage (new-user probe)", async () => {
  const { gzipSync } = await import("node:zlib");
  const text = `a,b,y\n${Array.from({ length: MIN_ROWS }, (_, i) => `${i},${2 * i},${3 * i}`).join("\n")}\n`;
  const rng = createRng(3);
  const random = Uint8Array.from({ length: 3000 }, () => Math.floor(rng.next() * 256));
  const zip = Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), Buffer.from(random.subarray(0, 200))]);
  const cases: [Uint8Array, string, RegExp][] = [
    [
      gzipSync(text),
      "good.csv.gz",
      /^good\.csv\.gz: is gzip-compressed, not a CSV text: decompress it first \(gunzip good\.csv\.gz\)$/,
    ],
    [zip, "t.zip", /^t\.zip: is a zip archive, not a CSV text: extract the CSV from it first \(unzip t\.zip\)$/],
    [random, "rand.bin", /^rand\.bin: is not text \(binary bytes in its first KiB\): give a CSV file$/],
    [Buffer.from(`a,b,y\n1,2,3\n1\u00002,3,4\n${text.slice(6)}`), "nul.csv", /^nul\.csv: is not text /],
  ];
  for (const [bytes, file, message] of cases) {
    await assert.rejects(readCsv([bytes], { file }), (e: Error) => e instanceof InputError && message.test(e.message));
    assert.throws(
      () => parseCsv(new TextDecoder().decode(bytes), file),
      (e: Error) => e instanceof InputError && message.test(e.message),
    );
  }
  // A few bytes UTF-8 cannot read (a Latin-1 "é" in a header) are still text.
  const latin1 = Buffer.from(`temp\u00e9rature,b,y\n${text.slice(6)}`, "latin1");
  assert.equal((await readCsv([latin1], { file: "l.csv" })).rows, MIN_ROWS);
});

test("GrowingColumn: a new column reserves little (a header of 50,000 columns), and grows to any length intact", () => {
  // Each column reserved 512 KiB before its first value: 25 GB for 50,000 columns (the Trust II probe's hang).
  const before = process.memoryUsage().arrayBuffers;
  const many = Array.from({ length: 2000 }, () => new GrowingColumn());
  const reserved = process.memoryUsage().arrayBuffers - before;
  assert.ok(reserved < 16 * 2 ** 20, `2,000 empty columns reserve ${(reserved / 2 ** 20).toFixed(0)} MiB`);
  assert.equal(many.length, 2000);
  // Pushed and appended across every block size, the values come back in order.
  const column = new GrowingColumn();
  const n = 300_000;
  for (let i = 0; i < 1000; i++) column.push(i);
  column.append(Float64Array.from({ length: n - 1000 }, (_, i) => 1000 + i));
  const values = column.done();
  assert.equal(values.length, n);
  assert.ok(values.every((v, i) => v === i));
});

test("readCsv: a source that is not text or bytes is one InputError naming it (the Trust II probe)", async () => {
  const cases: [unknown, RegExp][] = [
    [[1, 2, 3], /^readCsv: piece 0 of data is 1, not text or bytes$/],
    [null, /^readCsv: data is null, not an iterable of text or bytes$/],
    [["a,b\n", 5], /^readCsv: piece 1 of data is 5, not text or bytes$/],
  ];
  for (const [source, message] of cases)
    await assert.rejects(readCsv(source as never), (e: Error) => e instanceof InputError && message.test(e.message));
});

test("CsvReader: a nonzero cell below float64's range is named, not read as 0 (the Trust II probe)", () => {
  // 1e-400 read as 0 put a pole of the answer on its row, without a word.
  const rows = Array.from({ length: MIN_ROWS }, (_, i) => `${i + 1},${2 * (i + 1)}`);
  for (const [cell, ok] of [
    ["1e-400", false],
    ["-2.5E-330", false],
    ["0.000e-400", true],
    ["0", true],
    ["-0.0", true],
  ] as const) {
    const text = `a,b\n${rows.join("\n")}\n${cell},1\n`;
    if (ok) assert.equal(parseCsv(text, "u.csv").rows, MIN_ROWS + 1);
    else
      assert.throws(
        () => parseCsv(text, "u.csv"),
        (e: Error) =>
          e instanceof InputError &&
          e.message.endsWith(`column "a": "${cell}" is below the float64 range (it would read as 0)`),
      );
  }
});
