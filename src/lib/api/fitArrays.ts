/**
 * `fit({X, y})`: the one-call API for data already in arrays, like `model.fit(X, y)` elsewhere;
 * `fit({chunks})` takes the same rows as {X, y} pieces from an iterable or async iterable,
 * appended to growing float64 columns (the same result). The arrays become a Table (columns
 * named x1…xd and y or y1…yk by default) and go through the same path as `consolesr fit
 * data.csv`: prepareRun with a CSV-like source named "arrays", then runPrepared, so the CSV
 * reader's rules (identifier names, magnitudes, constant targets, at least
 * MIN_ROWS rows) apply and the result is the version-1 JSON the CLI writes for the same numbers,
 * seed and settings. Each equation also gets `predict(X)`, a non-enumerable plain float64
 * function, so that `resultToJson(result)` (and JSON.stringify) give exactly the version-1 JSON.
 * Browser-safe: no `node:` imports.
 */
import { useBackend } from "../engine/index.js";
import type { BackendName } from "../core/index.js";
import { GrowingColumn, MIN_ROWS, type Table } from "../data/index.js";
import { checkExpression, equationText, evaluateEquation, expressionInputs, factorInputs } from "../equation/index.js";
import { InputError, isInputError } from "../core/index.js";
import { prepareRun, runPrepared, type PipelineOptions } from "../run/index.js";
import type { Registries } from "../plugins/index.js";
import { parseResult } from "../result/index.js";
import { resultEquation, type EquationResult, type ResultJson } from "../result/index.js";
import type { ArgminSolver } from "../search/index.js";
import { settingKeys, type EpisodeEvent, type SearchMethod } from "../search/index.js";
import { COLUMN_NAME, escapedLine, quote } from "../core/index.js";
import { loadTf, tf } from "../engine/tf.js";
import { createRegistries } from "../plugins/index.js";
// Registers fitLocal's tfjs engine (local/fitTfjs.ts).
import "../local/fitTfjs.js";

/**
 * n rows of d numbers, in one of two layouts:
 * - an array of rows: `[[x11, x12], [x21, x22], …]` (each row a number[] or a typed array);
 * - row-major data with its shape: `{ data: Float64Array | Float32Array | number[], shape: [n, d] }`,
 *   row i, column j at `data[i * d + j]`.
 */
export type Matrix = ReadonlyArray<ArrayLike<number>> | TypedMatrix;

/** Row-major numbers with their shape [rows, columns]: row i, column j is `data[i * columns + j]`. */
export interface TypedMatrix {
  data: ArrayLike<number>;
  shape: readonly [number, number];
}

/** The targets: n numbers (one target, a number[] or a typed array), or a Matrix of n rows of k (k targets). */
export type Targets = ArrayLike<number> | Matrix;

/** One piece of the rows for `fit({chunks})`: its rows of X and their targets. */
export interface RowChunk {
  X: Matrix;
  y: Targets;
}

/** The rows whole: X and y. */
export interface ArraysData {
  /** Inputs: n rows × d columns (see Matrix). */
  X: Matrix;
  /** Targets: n values, or n rows × k columns. */
  y: Targets;
  chunks?: undefined;
}

/** The rows a piece at a time, instead of X and y. */
export interface ChunkedData {
  /**
   * An iterable or async iterable (a generator reading a database, a stream) of {X, y}, each in
   * either Matrix layout with the columns of the first. Only float64 columns are kept (8 bytes a
   * value), never the pieces.
   */
  chunks: Iterable<RowChunk> | AsyncIterable<RowChunk>;
  X?: undefined;
  y?: undefined;
}

/** fit's options: the data (X and y, or chunks) and the settings. */
export type FitArraysOptions = (ArraysData | ChunkedData) & FitSettings;

/** fit's settings, beside its data. */
export interface FitSettings {
  /** Input names, one per column of X (default x1…xd): identifiers, the names equations use. */
  names?: readonly string[];
  /** Target names, one per column of y (default y for one target, y1…yk for several). */
  targets?: readonly string[];
  /** Symbol pool (default: every registered symbol minus those whose domain an input violates). */
  symbols?: readonly string[];
  /** Seed of the search (default 0): one seed gives the identical result. */
  seed?: number;
  /** Search method (default consolesr). */
  method?: SearchMethod;
  /**
   * Overrides of the search settings: episodes, budget, terms, maxFactors, stopNrmse, epsilon, gamma, proposal, rank, …
   */
  search?: PipelineOptions["search"];
  /**
   * Overrides of the fit of each structure (steps, learningRate, polish, engine; default 50 float64 Adam steps + LM).
   */
  fit?: PipelineOptions["fit"];
  /** Constraint plugins by name (default static, dynamic). */
  constraints?: readonly string[];
  /** Reward plugin by name (default inv-nrmse). */
  reward?: string;
  /** Extra plugins (symbols, constraints, rewards) registered on top of the built-ins … */
  plugins?: readonly unknown[];
  /** … or the registries to use as they are (createRegistries). Not both. */
  registries?: Registries;
  /** The tfjs backend to switch to first (default: keep the active one; cpu in Node). */
  backend?: BackendName;
  /** The search's LP solver (default: HiGHS loaded the default way; see browserArgmin). */
  argmin?: ArgminSolver;
  /**
   * Wall-clock limit of the search in seconds (0 or absent: none): at the limit the result holds
   * the best found so far, stopReason "time-limit" (the same as `search.timeLimit`).
   */
  timeLimit?: number;
  /**
   * Stops the search within about 50 ms; the result holds the best found so far, stopReason "aborted".
   * A signal already aborted when fit is called rejects at once with its reason (an AbortError).
   */
  signal?: AbortSignal;
  /** After every episode of the search: target, episode, best.nrmse, structures, … */
  onProgress?: (event: EpisodeEvent) => void;
}

/** An equation of the result with its predictor. */
export interface FittedEquation extends EquationResult {
  /**
   * ŷ of this equation on new rows, in float64: X in either Matrix layout, with the columns of
   * the fit (same order). Non-enumerable, so it stays out of the JSON.
   */
  readonly predict: (X: Matrix) => number[];
}

/** The version-1 result (resultToJson writes its JSON) whose equations can predict. */
export type FitArraysResult = Omit<ResultJson, "equations"> & { equations: FittedEquation[] };

/** config.data of a fit on arrays (the CLI records the CSV's path there). */
export const ARRAYS_DATA = "arrays";

const OPTION_KEYS = new Set([
  "X",
  "y",
  "chunks",
  "names",
  "targets",
  "symbols",
  "seed",
  "method",
  "search",
  "fit",
  "constraints",
  "reward",
  "plugins",
  "registries",
  "backend",
  "argmin",
  "timeLimit",
  "signal",
  "onProgress",
]);
const SEARCH_KEYS = new Set(settingKeys().filter((key) => key !== "method" && key !== "fit"));

/** A value as a message shows it: strings quoted, the rest by type or as printed. */
function shown(value: unknown): string {
  if (typeof value === "string") return quote(value, 40);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  return escapedLine(String(value), 40);
}

const isArrayLike = (value: unknown): value is ArrayLike<unknown> =>
  Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));

/** A matrix read for its shape; cells are read and checked later, once the columns have names. */
interface Grid {
  rows: number;
  cols: number;
  cell(i: number, j: number): unknown;
  /** Where cell (i, j) is in the caller's value, e.g. `X[2][1]` or `X.data[7]`. */
  at(i: number, j: number): string;
}

function isTyped(value: unknown): value is { data: unknown; shape: unknown } {
  return typeof value === "object" && value !== null && !isArrayLike(value) && "shape" in value;
}

/**
 * The shape of X or of y (`what`); `vector` allows n plain numbers (one column). Every problem is
 * an InputError of one line.
 */
function gridOf(value: unknown, what: string, prefix: string, vector: boolean): Grid {
  const layouts = vector
    ? "an array of numbers, an array of rows or {data, shape: [n, k]}"
    : "an array of rows or {data, shape: [n, d]}";
  if (isTyped(value)) {
    const { data, shape } = value;
    if (!Array.isArray(shape) || shape.length !== 2 || !shape.every((s) => Number.isInteger(s) && s >= 0)) {
      throw new InputError(
        `${prefix}${what}.shape must be [rows, columns], ` +
          `two integers ≥ 0 (got ${Array.isArray(shape) ? `[${shape.map(shown).join(", ")}]` : shown(shape)})`,
      );
    }
    const [rows, cols] = shape as [number, number];
    if (!isArrayLike(data))
      throw new InputError(`${prefix}${what}.data must be an array or a typed array (got ${shown(data)})`);
    if (data.length !== rows * cols) {
      throw new InputError(
        `${prefix}${what}.data has ${data.length} values but ${what}.shape [${rows}, ${cols}] needs ${rows * cols}`,
      );
    }
    return { rows, cols, cell: (i, j) => data[i * cols + j], at: (i, j) => `${what}.data[${i * cols + j}]` };
  }
  if (!isArrayLike(value)) throw new InputError(`${prefix}${what} must be ${layouts} (got ${shown(value)})`);
  const rows = value.length;
  if (rows === 0) return { rows: 0, cols: 0, cell: () => undefined, at: (i, j) => `${what}[${i}][${j}]` };
  if (!isArrayLike(value[0])) {
    if (!vector) {
      throw new InputError(
        `${prefix}${what}[0] is ${shown(value[0])}, not a row: ${what} must be ${layouts} (for one column write ` +
          `[[v], [v], …] or {data, shape: [n, 1]})`,
      );
    }
    return { rows, cols: 1, cell: (i) => value[i], at: (i) => `${what}[${i}]` };
  }
  const first = value[0] as ArrayLike<unknown>;
  for (let i = 0; i < rows; i++) {
    const row = value[i];
    if (!isArrayLike(row))
      throw new InputError(`${prefix}${what}[${i}] is ${shown(row)}, not a row (${what}[0] is a row)`);
    if (row.length !== first.length) {
      throw new InputError(
        `${prefix}${what}[${i}] (row ${i + 1}) has ${row.length} values, ${what}[0] has ${first.length}: ` +
          `every row needs the same number of columns`,
      );
    }
  }
  return {
    rows,
    cols: first.length,
    cell: (i, j) => (value[i] as ArrayLike<unknown>)[j],
    at: (i, j) => `${what}[${i}][${j}]`,
  };
}

/**
 * The grid's columns as float64 (its rows numbered after `before` others), every cell a finite
 * number (else an InputError naming it, its row and its column).
 */
function columnsOf(grid: Grid, names: readonly string[], prefix: string, before = 0): Float64Array[] {
  const columns = names.map(() => new Float64Array(grid.rows));
  for (let i = 0; i < grid.rows; i++) {
    for (let j = 0; j < grid.cols; j++) {
      const v = grid.cell(i, j);
      const where = `${prefix}${grid.at(i, j)} (row ${before + i + 1}, column ${quote(names[j]!)})`;
      if (typeof v === "bigint")
        throw new InputError(`${where} is the BigInt ${shown(v)}n, not a number: convert it with Number(…)`);
      if (typeof v !== "number") throw new InputError(`${where} is ${shown(v)}, not a number`);
      if (!Number.isFinite(v)) throw new InputError(`${where} is ${v}; every value must be a finite number`);
      columns[j]![i] = v;
    }
  }
  return columns;
}

/** Names given for a grid's columns (or the defaults), checked: their number, identifiers, strings. */
function namesOf(
  given: unknown,
  key: string,
  count: number,
  what: string,
  defaults: string[],
  prefix: string,
): string[] {
  if (given === undefined) return defaults;
  if (!Array.isArray(given)) throw new InputError(`${prefix}${key} must be an array of names (got ${shown(given)})`);
  if (given.length !== count) {
    throw new InputError(
      `${prefix}${key} has ${given.length} name${given.length === 1 ? "" : "s"} ` +
        `but ${what} has ${count} column${count === 1 ? "" : "s"}`,
    );
  }
  given.forEach((name, j) => {
    if (typeof name !== "string") throw new InputError(`${prefix}${key}[${j}] is ${shown(name)}, not a name`);
    if (!COLUMN_NAME.test(name)) {
      throw new InputError(
        `${prefix}${key}[${j}] ${quote(name)} is not a name an equation can use: ` +
          `a letter or _ followed by letters, digits, _ or .`,
      );
    }
  });
  return [...given];
}

/** X (already shaped) as float64 columns under `names`. */
function readInputs(X: unknown, names: readonly string[], prefix: string): { rows: number; columns: Float64Array[] } {
  const grid = gridOf(X, "X", prefix, false);
  // An empty array of rows has no columns to count; [] predicts [].
  if (grid.rows === 0 && isArrayLike(X)) return { rows: 0, columns: names.map(() => new Float64Array(0)) };
  if (grid.cols !== names.length) {
    throw new InputError(
      `${prefix}X has ${grid.cols} column${grid.cols === 1 ? "" : "s"}; ` +
        `the equations read ${names.length} (${names.join(", ")})`,
    );
  }
  return { rows: grid.rows, columns: columnsOf(grid, names, prefix) };
}

/** The equations, each with its `predict` (non-enumerable: the JSON stays the version-1 JSON). */
function withPredictors(
  equations: readonly EquationResult[],
  names: readonly string[],
  registries: Registries,
): FittedEquation[] {
  return equations.map((equation) => {
    const fitted = { ...equation } as FittedEquation;
    Object.defineProperty(fitted, "predict", { value: predictor(equation, names, registries), enumerable: false });
    return fitted;
  });
}

/** The predictor of one equation over the fit's input names, with the fit's symbols. */
function predictor(
  equation: EquationResult,
  names: readonly string[],
  registries: Registries,
): (X: Matrix) => number[] {
  const symbol = (name: string) => registries.symbols.get(name);
  return (X: Matrix) => {
    const { rows, columns } = readInputs(X, names, "predict: ");
    const column = (name: string) => columns[names.indexOf(name)]!;
    return Array.from(evaluateEquation(resultEquation(equation), symbol, column, rows));
  };
}

/** The names of X's and y's columns (given or the defaults), checked, and all different. */
function columnNames(
  options: FitArraysOptions,
  inputs: number,
  outputs: number,
  what: [string, string],
  prefix: string,
) {
  const names = namesOf(
    options.names,
    "names",
    inputs,
    what[0],
    Array.from({ length: inputs }, (_, j) => `x${j + 1}`),
    prefix,
  );
  const targets = namesOf(
    options.targets,
    "targets",
    outputs,
    what[1],
    outputs === 1 ? ["y"] : Array.from({ length: outputs }, (_, j) => `y${j + 1}`),
    prefix,
  );
  const all = [...names, ...targets];
  const twice = all.find((name, j) => all.indexOf(name) !== j);
  if (twice !== undefined)
    throw new InputError(
      `${prefix}${quote(twice)} names two columns; the names of X's and y's columns must all differ`,
    );
  return { names, targets };
}

/** X and y given whole, as a table. */
function arraysTable(options: FitArraysOptions, prefix: string) {
  const x = gridOf(options.X, "X", prefix, false);
  const y = gridOf(options.y, "y", prefix, true);
  if (x.rows === 0) throw new InputError(`${prefix}X has no rows`);
  if (x.cols === 0) throw new InputError(`${prefix}X's rows are empty: there is no input column`);
  if (y.rows !== x.rows)
    throw new InputError(`${prefix}X has ${x.rows} rows but y has ${y.rows}; give one target value per row of X`);
  if (y.cols === 0) throw new InputError(`${prefix}y's rows are empty: there is no target column`);
  if (x.rows < MIN_ROWS) throw new InputError(`${prefix}X has ${x.rows} rows; at least ${MIN_ROWS} are needed`);
  const { names, targets } = columnNames(options, x.cols, y.cols, ["X", "y"], prefix);
  const table: Table = {
    columns: [...names, ...targets],
    values: [...columnsOf(x, names, prefix), ...columnsOf(y, targets, prefix)],
    rows: x.rows,
  };
  return { table, names, targets };
}

const isIterable = (value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> =>
  typeof value === "object" &&
  value !== null &&
  (Symbol.iterator in value || Symbol.asyncIterator in value) &&
  !isArrayLike(value);

/**
 * The rows a chunk at a time ({X, y} from an iterable or async iterable) as a table: each chunk is
 * checked as X and y are (its cells named `chunks[k].X[i][j]`, rows counted across chunks) and
 * appended to growing float64 columns; chunks without rows are skipped. An abort of `signal` ends
 * the read with the signal's reason (there is no data to answer from yet).
 */
async function chunkedTable(options: FitArraysOptions, prefix: string) {
  const { chunks } = options;
  if (options.X !== undefined || options.y !== undefined)
    throw new InputError(`${prefix}give X and y, or chunks, not both`);
  if (!isIterable(chunks) && !Array.isArray(chunks))
    throw new InputError(
      `${prefix}chunks must be an iterable or async iterable of {X, y} (a generator, an array) (got ${shown(chunks)})`,
    );
  let shape: { names: string[]; targets: string[]; first: number } | undefined;
  let columns: GrowingColumn[] = [];
  let rows = 0;
  let k = 0;
  options.signal?.throwIfAborted();
  for await (const chunk of chunks as AsyncIterable<unknown>) {
    // An abort while the rows arrive ends the read with the signal's reason, as readCsv's does.
    options.signal?.throwIfAborted();
    const what = `chunks[${k}]`;
    if (typeof chunk !== "object" || chunk === null || Array.isArray(chunk))
      throw new InputError(`${prefix}${what} must be {X, y} (got ${shown(chunk)})`);
    const { X, y: Y } = chunk as Partial<RowChunk>;
    const x = gridOf(X, `${what}.X`, prefix, false);
    const y = gridOf(Y, `${what}.y`, prefix, true);
    if (y.rows !== x.rows) throw new InputError(`${prefix}${what}.X has ${x.rows} rows but ${what}.y has ${y.rows}`);
    if (x.rows > 0) {
      if (shape === undefined) {
        if (x.cols === 0) throw new InputError(`${prefix}${what}.X's rows are empty: there is no input column`);
        if (y.cols === 0) throw new InputError(`${prefix}${what}.y's rows are empty: there is no target column`);
        shape = { ...columnNames(options, x.cols, y.cols, [`${what}.X`, `${what}.y`], prefix), first: k };
        columns = [...shape.names, ...shape.targets].map(() => new GrowingColumn());
      }
      const { names, targets, first } = shape;
      for (const [grid, expected, side] of [
        [x, names.length, "X"],
        [y, targets.length, "y"],
      ] as const) {
        if (grid.cols !== expected)
          throw new InputError(
            `${prefix}${what}.${side} has ${grid.cols} column${grid.cols === 1 ? "" : "s"}; ` +
              `chunks[${first}].${side} has ${expected}`,
          );
      }
      const values = [...columnsOf(x, names, prefix, rows), ...columnsOf(y, targets, prefix, rows)];
      for (const [j, column] of values.entries()) columns[j]!.append(column);
      rows += x.rows;
    }
    k++;
  }
  if (shape === undefined) throw new InputError(`${prefix}chunks gave no rows (${k} chunk${k === 1 ? "" : "s"})`);
  if (rows < MIN_ROWS) throw new InputError(`${prefix}chunks gave ${rows} rows; at least ${MIN_ROWS} are needed`);
  const table: Table = {
    columns: [...shape.names, ...shape.targets],
    values: columns.map((column) => column.done()),
    rows,
  };
  return { table, names: shape.names, targets: shape.targets };
}

/**
 * Finds the equations behind `y` as functions of the columns of `X`: a structure search per
 * target, on the float64 engine, through the pipeline `consolesr fit` runs. Every problem with
 * the arguments is one InputError of one line naming it, and so is a plugin that throws or returns
 * NaN during the search (`plugin <name>: …`). The result is the version-1 result
 * (`resultToJson(result)` is its JSON, byte-identical for one seed); each equation has
 * `predict(X)`.
 */
export async function fit(options: FitArraysOptions): Promise<FitArraysResult> {
  try {
    return await fitChecked(options);
  } catch (error) {
    throw withField(error, options);
  }
}

/** An AbortSignal, or one of another realm or polyfill (what the search reads of it: aborted, reason, its events). */
const isAbortSignal = (value: unknown): value is AbortSignal =>
  value instanceof AbortSignal ||
  (typeof value === "object" &&
    value !== null &&
    typeof (value as AbortSignal).aborted === "boolean" &&
    typeof (value as AbortSignal).addEventListener === "function");

/** The option an error's message is about, by its opening words (`fit: X[4] …`, `unknown symbol …`). */
const FIELD_OF: readonly [RegExp, (match: RegExpExecArray, options: FitArraysOptions) => string | undefined][] = [
  [/^fit: ([A-Za-z]+)\b/, (m) => (OPTION_KEYS.has(m[1]!) ? m[1] : undefined)],
  [/^fit\./, () => "fit"],
  // A search setting given as its own option (timeLimit) is that option; the others are in `search`.
  [/^search option (\w+)/, (m, o) => (OPTION_KEYS.has(m[1]!) && m[1]! in o ? m[1] : `search.${m[1]}`)],
  [/^unknown symbol /, () => "symbols"],
  [/^unknown search method /, () => "method"],
  [/^unknown constraint /, () => "constraints"],
  [/^unknown reward /, () => "reward"],
  [/^unknown backend /, () => "backend"],
];

/** An InputError about one option, with `field` set to it where the message names one (the guide's promise). */
function withField(error: unknown, options: FitArraysOptions): unknown {
  if (!isInputError(error) || error.field !== undefined || typeof options !== "object" || options === null)
    return error;
  for (const [pattern, field] of FIELD_OF) {
    const match = pattern.exec(error.message);
    const name = match ? field(match, options) : undefined;
    if (name === undefined) continue;
    Object.defineProperty(error, "field", { value: name, enumerable: true });
    break;
  }
  return error;
}

async function fitChecked(options: FitArraysOptions): Promise<FitArraysResult> {
  const prefix = "fit: ";
  if (typeof options !== "object" || options === null)
    throw new InputError(`${prefix}give an options object {X, y, …} (got ${shown(options)})`);
  const unknown = Object.keys(options).find((key) => !OPTION_KEYS.has(key));
  if (unknown !== undefined)
    throw new InputError(`${prefix}unknown option ${quote(unknown)} (known: ${[...OPTION_KEYS].join(", ")})`);
  // A signal aborted before the call rejects with its reason before any work (it threw a TypeError
  // deep inside, or answered no equations); what is not a signal was taken silently.
  const { signal } = options;
  if (signal !== undefined) {
    if (!isAbortSignal(signal)) throw new InputError(`${prefix}signal must be an AbortSignal (got ${shown(signal)})`);
    if (signal.aborted) throw signal.reason ?? new DOMException("This operation was aborted", "AbortError");
  }
  const badSearch = Object.keys(options.search ?? {}).find((key) => !SEARCH_KEYS.has(key));
  if (badSearch !== undefined)
    throw new InputError(`${prefix}unknown search setting ${quote(badSearch)} (known: ${[...SEARCH_KEYS].join(", ")})`);
  if (options.plugins !== undefined && options.registries !== undefined)
    throw new InputError(`${prefix}give plugins or registries, not both`);
  // Lists given as one string ("x,x^2") and a BigInt seed are named as such (the string was read a
  // character at a time; the BigInt failed deep inside with a TypeError).
  for (const key of ["symbols", "constraints"] as const) {
    const value = options[key] as unknown;
    if (value !== undefined && !Array.isArray(value))
      throw new InputError(`${prefix}${key} must be an array of names, e.g. ["x", "x^2"] (got ${shown(value)})`);
  }
  if (typeof (options.seed as unknown) === "bigint")
    throw new InputError(
      `${prefix}seed is the BigInt ${String(options.seed)}n, not a number: convert it with Number(…)`,
    );

  const { table, names, targets } =
    options.chunks !== undefined ? await chunkedTable(options, prefix) : arraysTable(options, prefix);
  const registries = options.registries ?? createRegistries(options.plugins ?? []);
  const prepared = prepareRun(
    {
      csv: { name: ARRAYS_DATA, table },
      targets,
      inputs: names,
      symbols: options.symbols ? [...options.symbols] : undefined,
      seed: options.seed,
      method: options.method,
      constraints: options.constraints ? [...options.constraints] : undefined,
      reward: options.reward,
      search: options.timeLimit === undefined ? options.search : { ...options.search, timeLimit: options.timeLimit },
      fit: options.fit,
    },
    { registries },
  );
  if (options.backend !== undefined) await useBackend(options.backend);
  else await (await loadTf()).ready();
  const { result, search } = await runPrepared(prepared, {
    backend: tf.getBackend(),
    signal: options.signal,
    onEpisode: options.onProgress,
    argmin: options.argmin,
  });
  // A plugin that threw or returned NaN stopped the search: its InputError, as `consolesr fit` exits 2 with it.
  if (search?.error) throw search.error;
  return { ...result, equations: withPredictors(result.equations, names, registries) };
}

/** Where loadResult finds its plugins: extra plugins on top of the built-ins, or the registries as they are. */
export interface LoadResultOptions {
  /** Extra plugins (the symbols the result's equations use beyond the built-ins) … */
  plugins?: readonly unknown[];
  /** … or the registries to use as they are (createRegistries). Not both. */
  registries?: Registries;
  /** The name error messages give the result (default "result"). */
  name?: string;
}

/**
 * A saved result (the version-1 JSON that `consolesr fit --out`, `run --out` and
 * `resultToJson(fit(…))` write, as text or parsed) read back with a predictor on every
 * equation, as `fit` gives them: `loadResult(json).equations[0].predict(X)` predicts what the
 * fit's equation predicted, X holding the fit's inputs in their order (`manifest.config.inputs`;
 * a result without them reads the inputs its equations use, sorted). Read by `parseResult`
 * (the reader `reproduce` uses): a file that is not a version-1 result, or an equation whose
 * symbol is not registered (a plugin's: pass it in `plugins`), is one InputError naming it.
 */
export function loadResult(json: string | object, options: LoadResultOptions = {}): FitArraysResult {
  const file = options.name ?? "result";
  if (options.plugins !== undefined && options.registries !== undefined)
    throw new InputError(`loadResult: give plugins or registries, not both`);
  const text = typeof json === "string" ? json : JSON.stringify(json);
  if (text === undefined) throw new InputError(`${file}: not a consolesr result (expected JSON text or an object)`);
  const result = parseResult(text, file);
  const registries = options.registries ?? createRegistries(options.plugins ?? []);
  const config = result.manifest.config as { inputs?: unknown };
  const factorsOf = (e: EquationResult) => [...e.terms, ...(e.denominator?.terms ?? [])].flatMap((t) => t.factors);
  const used = [
    ...new Set(
      result.equations.flatMap((e) => [
        ...factorsOf(e).flatMap(factorInputs),
        ...(e.expression === undefined ? [] : expressionInputs(e.expression)),
      ]),
    ),
  ];
  const names =
    Array.isArray(config.inputs) && config.inputs.every((n) => typeof n === "string")
      ? (config.inputs as string[])
      : used.sort();
  for (const equation of result.equations) {
    if (equation.expression !== undefined)
      checkExpression(
        equation.expression,
        `${file}: the expression of ${quote(equation.target)}`,
        (name) => registries.symbols.has(name),
        names,
      );
    for (const factor of factorsOf(equation)) {
      if (!registries.symbols.has(factor.symbol))
        throw new InputError(
          `${file}: the equation of ${quote(equation.target)} uses the symbol ${quote(factor.symbol)}, which is not ` +
            `registered (pass its plugin: loadResult(json, { plugins: [...] }))`,
        );
      for (const input of factorInputs(factor))
        if (!names.includes(input))
          throw new InputError(
            `${file}: the equation of ${quote(equation.target)} reads ${quote(input)}, which is not among the ` +
              `result's inputs (${names.join(", ")})`,
          );
    }
  }
  checkTexts(result.equations, registries, file);
  return { ...result, equations: withPredictors(result.equations, names, registries) };
}

/**
 * An equation text with the terms of every sum in one order (the sums of parentheses' contents
 * too), so that results written before the constant moved to the end of its sum compare equal.
 */
function sortedSums(text: string): string {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (depth === 0 && (c === "+" || c === "-") && text[i - 1] === " " && text[i + 1] === " ") {
      terms.push(text.slice(start, i - 1));
      start = i;
    }
  }
  terms.push(text.slice(start));
  const signed = terms.map((t, k) => {
    const body = k === 0 ? t : t.slice(2);
    const sign = k === 0 ? (body.startsWith("-") ? "-" : "+") : t[0]!;
    const unsigned = k === 0 && body.startsWith("-") ? body.slice(1) : body;
    return sign + sortedGroups(unsigned);
  });
  return signed.sort().join(" ");
}

/** A term with the sum inside each of its outermost parentheses in sortedSums' order. */
function sortedGroups(term: string): string {
  let out = "";
  let depth = 0;
  let open = 0;
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    if (c === "(" && depth++ === 0) open = i;
    else if (c === ")" && --depth === 0) out += `(${sortedSums(term.slice(open + 1, i))})`;
    else if (depth === 0) out += c;
  }
  return depth === 0 ? out : term;
}

/**
 * Refuses a result whose equation text says something else than the parts `predict` evaluates
 * (terms, constant, denominator, outer or expression): an edited or damaged file. The text is
 * rendered again from the parts, as the fit wrote it, and compared with each sum's terms in one order.
 */
function checkTexts(equations: readonly EquationResult[], registries: Registries, file: string): void {
  const lookup = (name: string) => registries.symbols.get(name)!;
  for (const e of equations) {
    const parts = equationText(resultEquation(e), lookup);
    if (sortedSums(parts) !== sortedSums(e.text))
      throw new InputError(
        `${file}: the equation of ${quote(e.target)} reads ${quote(e.text, 60)} but its terms say ` +
          `${quote(parts, 60)}: the file was edited or damaged (predict follows the terms)`,
      );
  }
}
