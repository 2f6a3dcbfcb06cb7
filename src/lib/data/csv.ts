/**
 * CSV loading (d3-dsv) with validation at the boundary: every problem is an InputError of one
 * line that names the file and, where there is one, the row and the column. Cells are decimal
 * numbers (no 0x/0b/0o, Infinity or NaN); the columns a dataset uses are named like identifiers
 * (COLUMN_NAME, the names `--form` reads) and hold magnitudes float64 can fit (up to
 * MAX_MAGNITUDE; a column whose values differ must reach MIN_MAGNITUDE).
 */
import { csvParseRows } from "d3-dsv";
import { InputError, MIN_ROWS } from "../core/index.js";
export { MIN_ROWS };
import { runSteps, type Steps } from "../core/index.js";
import { std } from "../numeric/index.js";
import { COLUMN_NAME, DECIMAL, escapedLine, quote, shown } from "../core/index.js";
import type { Dataset } from "./dataset.js";
import { GrowingColumn } from "./columns.js";

export interface Table {
  columns: string[];
  values: Float64Array[];
  rows: number;
  /**
   * SHA-256 (hex) of the bytes the table was read from, where known: recorded in the manifest, checked by `reproduce`.
   */
  sha256?: string;
}

/** Largest magnitude a used column may hold: beyond it the squares and products a fit forms overflow float64. */
export const MAX_MAGNITUDE = 1e100;
/** Below this largest magnitude a column's spread underflows float64 (its squares vanish). */
export const MIN_MAGNITUDE = 1e-100;

const NOT_FINITE = /^[+-]?(nan|inf|infinity)$/i;

/** Whether a decimal that is not zero reads as 0 (1e-400: below float64's smallest number). */
const underflows = (text: string, value: number): boolean => value === 0 && /[1-9]/.test(text.split(/[eE]/)[0]!);

/** A cell's number (decimal notation only); `at` names the file, row and column in the error it throws. */
function cellValue(cell: string, at: () => string): number {
  const text = cell.trim();
  if (text === "") throw new InputError(`${at()}: an empty cell is not a number`);
  if (DECIMAL.test(text)) {
    const value = Number(text);
    if (!Number.isFinite(value))
      throw new InputError(`${at()}: ${quote(text)} is not a finite number (beyond the float64 range)`);
    if (underflows(text, value))
      throw new InputError(`${at()}: ${quote(text)} is below the float64 range (it would read as 0)`);
    return value;
  }
  if (NOT_FINITE.test(text)) throw new InputError(`${at()}: ${quote(text)} is not a finite number`);
  const read = Number(text);
  if (Number.isFinite(read) || /^[+-]?0[xbo]/i.test(text)) {
    // 0x1f, 0b101, 0o7: JavaScript would read them, a CSV of measurements should not hold them.
    const hint = Number.isFinite(read) ? `write it in decimal (${read})` : "write it in decimal";
    throw new InputError(
      `${at()}: ${quote(text)} is not a decimal number (hexadecimal, binary and octal are not read); ${hint}`,
    );
  }
  throw new InputError(`${at()}: ${quote(text)} is not a number`);
}

/** Separators other than a comma that a header may hold, with their names in messages. */
const SEPARATORS: readonly (readonly [string, string])[] = [
  [";", "semicolons"],
  ["\t", "tabs"],
  ["|", "vertical bars"],
];

/** Characters of a CSV given to the reader between yields (parseCsvSteps). */
const CHUNK_CHARS = 1 << 20;

export function parseCsv(text: string, file = "data"): Table {
  return runSteps(parseCsvSteps(text, file));
}

/**
 * Parses a CSV (see parseCsv) in steps that yield between chunks, so that a driven parse of a
 * large file lets a signal or a time limit through (clock.ts driveSteps).
 */
export function* parseCsvSteps(text: string, file = "data"): Steps<Table> {
  const reader = new CsvReader(file);
  for (let from = 0; from < text.length; from += CHUNK_CHARS) {
    reader.push(text.slice(from, from + CHUNK_CHARS));
    yield;
  }
  return reader.end();
}

/**
 * A CSV read a piece of text at a time, with the rules and messages of parseCsv: `push` takes
 * any cut of the text (a chunk of a file, a line, half a line), parses the rows it completes into
 * float64 columns and keeps the rest; `end` parses what is left and returns the table. Memory is
 * the columns (8 bytes a cell) and one piece of text, never the whole file or its rows as strings:
 * the CLI streams a file through it, and `readCsv` takes any (async) iterable of text or bytes.
 * A row ends at a line break outside quotes (a quoted cell may hold one); a problem is an
 * InputError naming the file, row and column as soon as the row that has it arrives.
 */
/**
 * Refuses text that is UTF-16 read as UTF-8: its ASCII characters come with a NUL byte each (after
 * them, little-endian; before them, big-endian), and its byte-order mark is two bytes UTF-8 cannot
 * read. Checked on the first characters of the file, with a one-line way to convert.
 */
function refuseUtf16(text: string, file: string): void {
  const start = text.slice(0, 256);
  let nul = 0;
  for (let i = 0; i < start.length; i++) if (start.charCodeAt(i) === 0) nul++;
  if (nul === 0 || nul < start.length / 4) return;
  throw new InputError(
    `${file}: is UTF-16 text (a NUL byte beside each character), and CSVs are read as UTF-8: ` +
      `save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 ${file} > ${file.replace(/\.csv$/i, "")}-utf8.csv)`,
  );
}

/**
 * Refuses a file that is not text: a gzip or zip file (by its first bytes, 1f 8b and PK 03 04, as
 * UTF-8 reads them) is named with the way to decompress it, and any other with a NUL byte, or with
 * many bytes UTF-8 cannot read or control characters, in its first KiB is named as binary. They
 * read as replacement characters: a header of garbage, or "row 1 has 1 cells".
 */
function refuseBinary(text: string, file: string): void {
  if (/^\u001f[\u008b\uFFFD]/.test(text))
    throw new InputError(`${file}: is gzip-compressed, not a CSV text: decompress it first (gunzip ${file})`);
  if (text.startsWith("PK\u0003\u0004"))
    throw new InputError(`${file}: is a zip archive, not a CSV text: extract the CSV from it first (unzip ${file})`);
  const start = text.slice(0, 1024);
  let odd = 0;
  for (let i = 0; i < start.length; i++) {
    const code = start.charCodeAt(i);
    if (code === 0) {
      odd = start.length;
      break;
    }
    // U+FFFD: a byte UTF-8 cannot read; C0 controls but tab, line feed, form feed and carriage return.
    if (code === 0xfffd || (code < 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) || code === 127)
      odd++;
  }
  if (odd > 0 && odd >= start.length / 10)
    throw new InputError(`${file}: is not text (binary bytes in its first KiB): give a CSV file`);
}

export class CsvReader {
  private pending = "";
  /** Whether `pending` ends inside a quoted cell (it always starts at the start of a row). */
  private quoted = false;
  private started = false;
  private columns: string[] | undefined;
  private values: GrowingColumn[] = [];
  private count = 0;

  constructor(readonly file = "data") {}

  /** Data rows read so far (the header not counted). */
  get rows(): number {
    return this.count;
  }

  /** Takes the next piece of the text; parses every row it completes. */
  push(text: string): void {
    if (!this.started) {
      text = text.replace(/^\uFEFF/, "");
      if (text === "") return;
      this.started = true;
      refuseUtf16(text, this.file);
      refuseBinary(text, this.file);
    }
    const buffer = this.pending + text;
    let cut: number;
    if (!this.quoted && !text.includes('"')) {
      // pending holds no line break outside quotes: the last one of the new text ends the last row
      const at = text.lastIndexOf("\n");
      cut = at < 0 ? 0 : this.pending.length + at + 1;
    } else {
      let quoted = this.quoted;
      cut = -1;
      for (let i = this.pending.length; i < buffer.length; i++) {
        const code = buffer.charCodeAt(i);
        if (code === 34) quoted = !quoted;
        else if (code === 10 && !quoted) cut = i + 1;
      }
      this.quoted = quoted;
      cut = Math.max(cut, 0);
    }
    if (cut === 0) {
      this.pending = buffer;
      return;
    }
    this.pending = buffer.slice(cut);
    this.parse(buffer.slice(0, cut));
  }

  /** Parses what is left and returns the table (an InputError when it has no header, no rows or too few). */
  end(): Table {
    if (this.pending !== "") this.parse(this.pending);
    this.pending = "";
    const file = this.file;
    if (this.columns === undefined) throw new InputError(`${file}: the file is empty`);
    if (this.count === 0) throw new InputError(`${file}: the file has a header but no data rows`);
    if (this.count < MIN_ROWS)
      throw new InputError(`${file}: ${this.count} data rows; at least ${MIN_ROWS} are needed`);
    return { columns: this.columns, values: this.values.map((column) => column.done()), rows: this.count };
  }

  private parse(text: string): void {
    for (const cells of csvParseRows(text)) {
      if (cells.length === 1 && cells[0]!.trim() === "") continue;
      if (this.columns === undefined) this.header(cells);
      else this.row(cells);
    }
  }

  private header(cells: string[]): void {
    const file = this.file;
    const columns = cells.map((c) => c.trim());
    // A file separated by something else reads as one column: name the separator seen.
    const separator = columns.length === 1 ? SEPARATORS.find(([mark]) => columns[0]!.includes(mark)) : undefined;
    if (separator)
      throw new InputError(
        `${file}: the header is one column separated by ${separator[1]} (${quote(escapedLine(columns[0]!, 60))}); ` +
          `consolesr reads comma-separated files: write the columns separated by commas (and decimals with a point)`,
      );
    columns.forEach((name, j) => {
      if (!name) throw new InputError(`${file}: header cell ${j + 1} is empty; every column needs a name`);
      if (columns.indexOf(name) !== j)
        throw new InputError(`${file}: column ${quote(name)} appears twice in the header`);
    });
    this.columns = columns;
    this.values = columns.map(() => new GrowingColumn());
  }

  private row(cells: string[]): void {
    const columns = this.columns!;
    const row = this.count + 1;
    if (cells.length !== columns.length) {
      throw new InputError(
        `${this.file}: row ${row} (line ${row + 1}) has ${cells.length} cells, the header has ${columns.length}`,
      );
    }
    for (let j = 0; j < cells.length; j++) {
      // The common case without a closure (a million rows of cells); cellValue says what is wrong.
      const text = cells[j]!.trim();
      const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
      if (Number.isFinite(value) && (value !== 0 || !underflows(text, value))) this.values[j]!.push(value);
      else cellValue(text, () => `${this.file}: row ${row} (line ${row + 1}), column ${quote(columns[j]!)}`);
    }
    this.count = row;
  }
}

/** What `readCsv` reads: pieces of text, or bytes (UTF-8, decoded across piece boundaries). */
export type CsvSource = Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

export interface ReadCsvOptions {
  /** The name in messages (default "data"). */
  file?: string;
  /** Checked between pieces: an abort ends the read with the signal's reason. */
  signal?: AbortSignal;
  /** After each piece, with the data rows read so far (a progress line). */
  onRows?: (rows: number) => void;
}

/**
 * Reads a CSV from pieces as they come (a file stream, `Response.body`, `File.stream()`, an array
 * of lines), holding only the float64 columns and one piece: see CsvReader. Bytes are decoded as
 * UTF-8 (a character split between two pieces is joined).
 */
export async function readCsv(source: CsvSource, options: ReadCsvOptions = {}): Promise<Table> {
  const file = options.file ?? "data";
  const reader = new CsvReader(file);
  const decoder = new TextDecoder("utf-8");
  options.signal?.throwIfAborted();
  const iterable = source as unknown as Record<symbol, unknown> | null | undefined;
  if (typeof iterable?.[Symbol.asyncIterator] !== "function" && typeof iterable?.[Symbol.iterator] !== "function")
    throw new InputError(`readCsv: ${file} is ${shown(source)}, not an iterable of text or bytes`);
  let index = 0;
  for await (const piece of source) {
    options.signal?.throwIfAborted();
    if (typeof piece !== "string" && !(piece instanceof Uint8Array))
      throw new InputError(`readCsv: piece ${index} of ${file} is ${shown(piece)}, not text or bytes`);
    index++;
    reader.push(typeof piece === "string" ? piece : decoder.decode(piece, { stream: true }));
    options.onRows?.(reader.rows);
  }
  reader.push(decoder.decode());
  options.signal?.throwIfAborted();
  return reader.end();
}

/** The power of ten of |value| (1e300 for 2.5e300, 1e-300 for 5e-300), as text. */
const powerOfTen = (value: number) => `1e${Math.floor(Math.log10(Math.abs(value)))}`;

/**
 * Refuses a used column whose magnitudes float64 arithmetic cannot fit: too large (squares and
 * products overflow) or, when its values differ, too small (its spread underflows).
 */
function checkMagnitudes(name: string, column: Float64Array, file: string): void {
  let largest = 0;
  let at = 0;
  for (let i = 0; i < column.length; i++) {
    const size = Math.abs(column[i]!);
    if (size > largest) [largest, at] = [size, i];
  }
  if (largest > MAX_MAGNITUDE) {
    throw new InputError(
      `${file}: column ${quote(name)} holds ${column[at]} (row ${at + 1}); magnitudes beyond 1e100 overflow float64 ` +
        `in the squares and products of a fit: scale the column (e.g. divide it by ${powerOfTen(largest)})`,
    );
  }
  if (largest > 0 && largest < MIN_MAGNITUDE && column.some((v) => v !== column[0])) {
    throw new InputError(
      `${file}: column ${quote(name)} has values that differ but are tiny (largest magnitude ${largest}, ` +
        `row ${at + 1}); below 1e-100 their spread underflows float64: ` +
        `scale the column (e.g. multiply it by 1e${-Math.floor(Math.log10(largest))})`,
    );
  }
}

/**
 * Splits a table into targets and inputs. Columns not named as targets are inputs unless
 * `inputs` is given (docs/design.md#cli-contract).
 */
export function datasetFromTable(
  table: Table,
  targets: readonly string[],
  inputs?: readonly string[],
  file = "data",
): Dataset {
  if (targets.length === 0) throw new InputError("targets: no target column given", { field: "targets" });
  const find = (name: string, role: string) => {
    const j = table.columns.indexOf(name);
    if (j < 0)
      throw new InputError(
        `${file}: no ${role} column ${quote(name)} (columns: ${escapedLine(table.columns.join(", "), 200)})`,
      );
    return j;
  };
  const targetIdx = targets.map((t) => find(t, "target"));
  if (new Set(targets).size !== targets.length)
    throw new InputError("targets: a column is named twice", { field: "targets" });
  const inputNames = inputs ? [...inputs] : table.columns.filter((c) => !targets.includes(c));
  const inputIdx = inputNames.map((name) => find(name, "input"));
  if (new Set(inputNames).size !== inputNames.length)
    throw new InputError("inputs: a column is named twice", { field: "inputs" });
  const overlap = inputNames.find((name) => targets.includes(name));
  if (overlap) throw new InputError(`column ${quote(overlap)} is both an input and a target`);
  if (inputNames.length === 0) throw new InputError(`${file}: no input column left after taking the targets`);
  // The columns used, in the table's order: each problem below names the first column that has it.
  const used = table.columns.filter((name) => targets.includes(name) || inputNames.includes(name));
  const badName = used.find((name) => !COLUMN_NAME.test(name));
  if (badName !== undefined) {
    throw new InputError(
      `${file}: column ${quote(badName)} is not a name an equation can use; rename it in the header to a letter or _ ` +
        `followed by letters, digits, _ or . (or leave it out of \`inputs\`)`,
    );
  }
  targetIdx.forEach((j, k) => {
    const column = table.values[j]!;
    if (column.every((v) => v === column[0])) {
      throw new InputError(
        `${file}: target column ${quote(targets[k]!)} is constant (every value ${column[0]}); there is nothing to fit`,
      );
    }
  });
  for (const name of used) checkMagnitudes(name, table.values[table.columns.indexOf(name)]!, file);
  targetIdx.forEach((j, k) => {
    const spread = std(table.values[j]!);
    if (!(spread > 0 && Number.isFinite(spread))) {
      throw new InputError(
        `${file}: the spread of target column ${quote(targets[k]!)} ` +
          `is ${spread} in float64 arithmetic; scale the column`,
      );
    }
  });
  return {
    inputs: inputNames,
    targets: [...targets],
    x: inputIdx.map((j) => table.values[j]!),
    y: targetIdx.map((j) => table.values[j]!),
    rows: table.rows,
  };
}

/** A dataset as CSV text (inputs then targets), full float64 precision. */
export function datasetToCsv(data: Dataset): string {
  const header = [...data.inputs, ...data.targets].join(",");
  const columns = [...data.x, ...data.y];
  const lines = [header];
  for (let i = 0; i < data.rows; i++) lines.push(columns.map((c) => String(c[i])).join(","));
  return `${lines.join("\n")}\n`;
}
