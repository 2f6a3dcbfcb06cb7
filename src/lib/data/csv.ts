/**
 * CSV loading (d3-dsv) with validation at the boundary: every problem is an InputError of one
 * line that names the file and, where there is one, the row and the column.
 */
import { csvParseRows } from "d3-dsv";
import { InputError } from "../errors.js";
import { std } from "../metrics/nrmse.js";
import type { Dataset } from "./dataset.js";

export interface Table {
  columns: string[];
  values: Float64Array[];
  rows: number;
  /** SHA-256 (hex) of the bytes the table was read from, where known: recorded in the manifest, checked by `reproduce`. */
  sha256?: string;
}

/** Fewest data rows a fit accepts: below this NRMSE and a 1 % coefficient check mean little. */
export const MIN_ROWS = 10;

export function parseCsv(text: string, file = "data"): Table {
  const lines = csvParseRows(text.replace(/^\uFEFF/, "")).filter((row) => !(row.length === 1 && row[0]!.trim() === ""));
  if (lines.length === 0) throw new InputError(`${file}: the file is empty`);
  const columns = lines[0]!.map((c) => c.trim());
  columns.forEach((name, j) => {
    if (!name) throw new InputError(`${file}: header cell ${j + 1} is empty; every column needs a name`);
    if (columns.indexOf(name) !== j) throw new InputError(`${file}: column "${name}" appears twice in the header`);
  });
  const body = lines.slice(1);
  if (body.length === 0) throw new InputError(`${file}: the file has a header but no data rows`);
  const values = columns.map(() => new Float64Array(body.length));
  body.forEach((cells, r) => {
    const row = r + 1;
    if (cells.length !== columns.length) {
      throw new InputError(`${file}: row ${row} (line ${row + 1}) has ${cells.length} cells, the header has ${columns.length}`);
    }
    cells.forEach((cell, j) => {
      const trimmed = cell.trim();
      const value = trimmed === "" ? Number.NaN : Number(trimmed);
      if (Number.isNaN(value) && !/^[+-]?nan$/i.test(trimmed)) {
        const shown = trimmed === "" ? "an empty cell" : `"${trimmed}"`;
        throw new InputError(`${file}: row ${row} (line ${row + 1}), column "${columns[j]}": ${shown} is not a number`);
      }
      if (!Number.isFinite(value)) {
        throw new InputError(`${file}: row ${row} (line ${row + 1}), column "${columns[j]}": ${trimmed} is not a finite number`);
      }
      values[j]![r] = value;
    });
  });
  if (body.length < MIN_ROWS) throw new InputError(`${file}: ${body.length} data rows; at least ${MIN_ROWS} are needed`);
  return { columns, values, rows: body.length };
}

/**
 * Splits a table into targets and inputs. Columns not named as targets are inputs unless
 * `inputs` is given (DESIGN CLI contract).
 */
export function datasetFromTable(table: Table, targets: readonly string[], inputs?: readonly string[], file = "data"): Dataset {
  if (targets.length === 0) throw new InputError("no target column given (--target)");
  const find = (name: string, role: string) => {
    const j = table.columns.indexOf(name);
    if (j < 0) throw new InputError(`${file}: no ${role} column "${name}" (columns: ${table.columns.join(", ")})`);
    return j;
  };
  const targetIdx = targets.map((t) => find(t, "target"));
  if (new Set(targets).size !== targets.length) throw new InputError(`--target names a column twice`);
  const inputNames = inputs ? [...inputs] : table.columns.filter((c) => !targets.includes(c));
  const inputIdx = inputNames.map((name) => find(name, "input"));
  const overlap = inputNames.find((name) => targets.includes(name));
  if (overlap) throw new InputError(`column "${overlap}" is both an input and a target`);
  if (inputNames.length === 0) throw new InputError(`${file}: no input column left after taking the targets`);
  targetIdx.forEach((j, k) => {
    if (std(table.values[j]!) === 0) {
      throw new InputError(`${file}: target column "${targets[k]}" is constant (every value ${table.values[j]![0]}); there is nothing to fit`);
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
  return lines.join("\n") + "\n";
}
