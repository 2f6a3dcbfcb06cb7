/** Node-side helpers of the CLI: files, git, stderr progress, exit codes. */
import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isMainThread, workerData } from "node:worker_threads";
import { InputError } from "../lib/core/index.js";
import { CsvReader, parseCsv, readCsv, type Table } from "../lib/data/index.js";
import { parseGrid, powerFlowExperiment, type Experiment } from "../lib/data/index.js";
import { registerExperiment } from "../lib/run/index.js";
import { Interrupted } from "../lib/core/index.js";
import { escapedLine } from "../lib/core/index.js";
import type { ProgressStream } from "./commands/progress.js";
import { WORKER_TAG, type WorkerData } from "./sandbox/supervisor.js";

/** SHA-256 of bytes, hex. */
export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** Why a file could not be read, in words, from a Node fs error. */
function readProblem(error: unknown, what: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "ENOTDIR":
      return "no such file (a folder on its path is a file)";
    case "EACCES":
    case "EPERM":
      return "permission denied (the file cannot be read)";
    case "EISDIR":
      return `is a directory, not a ${what} file`;
    case "ELOOP":
      return "cannot be read (too many symbolic links on its path)";
    case "ENAMETOOLONG":
      return "cannot be read (the path is too long)";
    case "ERR_STRING_TOO_LONG":
    case "ERR_FS_FILE_TOO_LARGE":
      return "is too large to read";
    default:
      return `cannot be read (${code ?? escapedLine(error instanceof Error ? error.message : String(error))})`;
  }
}

/** A file's bytes; a file that cannot be read (missing, a directory, no permission, …) is an InputError naming it. */
export function readBytes(path: string, what = "data"): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new InputError(`${path}: ${readProblem(error, what)}`);
  }
}

/**
 * A grid file (`run powerflow --grid`, data/grids/README.md), checked and registered as the
 * experiment `powerflow:<name>`; a missing or invalid file is one InputError naming it and the field.
 */
export function registerGridFile(path: string): Experiment {
  const text = readBytes(path, "grid JSON")
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  return registerExperiment(powerFlowExperiment(parseGrid(text, path)));
}

/** Bytes of a CSV file read (and parsed) at a time. */
const READ_BYTES = 1 << 20;

/** Calls `take` with a file's bytes a megabyte at a time; a file that cannot be read is an InputError naming it. */
function eachPiece(path: string, what: string, take: (bytes: Buffer) => void): void {
  const problem = (error: unknown) => new InputError(`${path}: ${readProblem(error, what)}`);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw problem(error);
  }
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, READ_BYTES, null);
      } catch (error) {
        throw problem(error);
      }
      if (read === 0) break;
      take(buffer.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 (hex) of a file, read a megabyte at a time. */
export function fileSha256(path: string, what = "data"): string {
  const hash = createHash("sha256");
  eachPiece(path, what, (bytes) => hash.update(bytes));
  return hash.digest("hex");
}

/**
 * Reads a CSV file a megabyte at a time through the library's CsvReader, with the SHA-256 of its
 * bytes: memory is the float64 columns and one piece, never the file's text or its rows as
 * strings. A file that cannot be read is an InputError naming it.
 */
export function readCsvFile(path: string): Table {
  const hash = createHash("sha256");
  const reader = new CsvReader(path);
  const decoder = new TextDecoder("utf-8");
  eachPiece(path, "CSV", (bytes) => {
    hash.update(bytes);
    reader.push(decoder.decode(bytes, { stream: true }));
  });
  reader.push(decoder.decode());
  return { ...reader.end(), sha256: hash.digest("hex") };
}

/**
 * Streams a CSV file through the library's readCsv on the event loop, a megabyte at a time, so
 * that memory stays the float64 columns and one piece, and an abort of `signal` (a stop signal)
 * gets through while a large file is read: it throws Interrupted.
 */
export async function readCsvFileDriven(path: string, signal: AbortSignal): Promise<Table> {
  const hash = createHash("sha256");
  const stream = createReadStream(path, { highWaterMark: READ_BYTES });
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      hash.update(piece);
      yield piece;
    }
  }
  let table: Table;
  try {
    table = await readCsv(pieces(), { file: path, signal });
  } catch (error) {
    if (signal.aborted) throw new Interrupted("aborted");
    if (error instanceof InputError || !(error as NodeJS.ErrnoException | undefined)?.code) throw error;
    throw new InputError(`${path}: ${readProblem(error, "CSV")}`);
  } finally {
    stream.destroy();
  }
  return { ...table, sha256: hash.digest("hex") };
}

/** A CSV file's bytes as a table with their SHA-256 (given when the caller has it already). */
export function csvTable(bytes: Buffer, path: string, digest = sha256(bytes)): Table {
  return { ...parseCsv(bytes.toString("utf8"), path), sha256: digest };
}

/**
 * Where a write to `path` lands: a symbolic link is followed to the file it names (which may not
 * exist yet), so the link itself is kept.
 */
function linkTarget(path: string): string {
  let target = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let link: boolean;
    try {
      link = lstatSync(target).isSymbolicLink();
    } catch {
      return target;
    }
    if (!link) return target;
    target = resolve(dirname(target), readlinkSync(target));
  }
  throw new InputError(`${path}: cannot write (too many symbolic links)`);
}

/**
 * Whether `--out path` is written in place rather than replaced: a device, a FIFO or a socket (a
 * FIFO's open waits for its reader), not stdout or stderr.
 */
export function writtenInPlace(path: string): boolean {
  return standardStream(path) === undefined && isSpecial(linkTarget(path));
}

/** Whether `path` is something other than a regular file or a folder: a device, a FIFO, a socket. */
function isSpecial(path: string): boolean {
  try {
    const stat = statSync(path);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}

/** The (device, inode) of a path or an open descriptor, or undefined where it cannot be read. */
function identity(of: () => { dev: number; ino: number }): string | undefined {
  try {
    const stat = of();
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * The standard stream `path` writes to, 1 (stdout) or 2 (stderr), or undefined: /dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N, a link to one of them, or the very file or pipe the
 * stream is (`--out f > f`). Such a path is written through the stream, in order with what the run
 * prints there: never renamed over (a redirected file would lose what it held), never opened by a
 * name that a pipe does not have (/proc/self/fd/1 names `pipe:[…]`).
 */
export function standardStream(path: string): 1 | 2 | undefined {
  const named = /^\/(?:dev\/(?:fd\/([12])|(stdout|stderr))|proc\/(?:self|\d+)\/fd\/([12]))$/.exec(resolve(path));
  if (named) {
    const fd = named[1] ?? named[3];
    if (fd !== undefined) return fd === "1" ? 1 : 2;
    return named[2] === "stdout" ? 1 : 2;
  }
  const self = identity(() => statSync(path));
  if (self === undefined) return undefined;
  if (self === identity(() => fstatSync(1))) return 1;
  if (self === identity(() => fstatSync(2))) return 2;
  return undefined;
}

/**
 * Writes `text` to `path` atomically: into a temporary file in the same folder, flushed, then
 * renamed over `path`. Readers (and a second run writing the same file) see either the old file
 * or the whole new one, never a mix; a failed write (a full disk) leaves the old file as it was.
 * A symbolic link is written through (the file it names is replaced, the link kept); a device, a
 * FIFO or a socket is written to in place, never replaced by a file; stdout or stderr
 * (`--out /dev/stdout`, see standardStream) through the process's own stream.
 */
export function writeText(path: string, text: string): void {
  const stream = standardStream(path);
  if (stream !== undefined) {
    (stream === 1 ? process.stdout : process.stderr).write(text);
    return;
  }
  const target = linkTarget(path);
  if (isSpecial(target)) {
    try {
      writeFileSync(target, text);
    } catch (error) {
      throw new InputError(`${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    return;
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o644);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw new InputError(`${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

const sameFile = (a: string, b: string): boolean => {
  const sa = statSync(a);
  const sb = statSync(b);
  return sa.dev === sb.dev && sa.ino === sb.ino;
};

/**
 * Checks an --out path before any work is done: not one of the run's input files (the CSV, a
 * plugin file), not a folder, and in a folder that exists and that this user may write to.
 */
export function checkOutPath(out: string, inputs: readonly string[]): void {
  if (standardStream(out) !== undefined) return;
  const target = linkTarget(out);
  if (isSpecial(target)) {
    // Written in place (writeText): it must be writable itself; its folder need not be.
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw new InputError(`--out ${out}: is not writable`);
    }
    return;
  }
  if (existsSync(target)) {
    if (statSync(target).isDirectory())
      throw new InputError(`--out ${out}: is a directory; name a file to write the JSON result to`);
    const input = inputs.find((file) => existsSync(file) && sameFile(file, target));
    if (input !== undefined)
      throw new InputError(
        `--out ${out}: is ${input}, an input of this run; it would be overwritten, so write the result elsewhere`,
      );
  }
  // The folder the file is written in: the link's target's where `out` is a symbolic link.
  const folder = dirname(target);
  const named = target === resolve(out) ? dirname(out) : folder;
  if (!existsSync(folder)) throw new InputError(`--out ${out}: the folder ${named} does not exist`);
  if (!statSync(folder).isDirectory()) throw new InputError(`--out ${out}: ${named} is not a folder`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new InputError(`--out ${out}: the folder ${named} is not writable`);
  }
}

export interface Reporter {
  info(line: string): void;
  /** A warning: on stderr even with --quiet. */
  warn(line: string): void;
}

export function reporter(quiet: boolean): Reporter {
  return {
    info: (line) => quiet || process.stderr.write(`${line}\n`),
    warn: (line) => void process.stderr.write(`${line}\n`),
  };
}

/**
 * The stream the progress bar draws on: process.stderr, or in the plugin worker (whose stderr is
 * a pipe to the main thread) a stand-in that writes there with the main thread's isTTY and columns.
 */
export function stderrStream(): ProgressStream {
  const data = isMainThread ? undefined : (workerData as Partial<WorkerData> | null);
  if (data?.tag !== WORKER_TAG) return process.stderr;
  return {
    isTTY: data.stderrTty !== undefined,
    columns: data.stderrTty?.columns,
    write: (chunk, callback) => process.stderr.write(chunk, callback),
  };
}

/** Comma-separated flag values, trimmed, empties dropped. */
export const list = (value: string): string[] =>
  value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
