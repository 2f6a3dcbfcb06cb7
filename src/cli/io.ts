/** Node-side helpers of the CLI: files, git, stderr progress, exit codes. */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, workerData } from "node:worker_threads";
import { InputError } from "../lib/errors.js";
import { parseCsv, type Table } from "../lib/data/csv.js";
import { oneLine } from "../lib/syntax.js";
import type { ProgressStream } from "./progress.js";
import { WORKER_TAG, type WorkerData } from "./supervisor.js";

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
      return `cannot be read (${code ?? (error instanceof Error ? oneLine(error.message) : oneLine(String(error)))})`;
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

/** Reads a CSV file, with the SHA-256 of its bytes; a file that cannot be read is an InputError naming it. */
export function readCsvFile(path: string): Table {
  return csvTable(readBytes(path, "CSV"), path);
}

/** A CSV file's bytes as a table with their SHA-256 (given when the caller has it already). */
export function csvTable(bytes: Buffer, path: string, digest = sha256(bytes)): Table {
  return { ...parseCsv(bytes.toString("utf8"), path), sha256: digest };
}

/**
 * Writes `text` to `path` atomically: into a temporary file in the same folder, flushed, then
 * renamed over `path`. Readers (and a second run writing the same file) see either the old file
 * or the whole new one, never a mix; a failed write (a full disk) leaves the old file as it was.
 */
export function writeText(path: string, text: string): void {
  const temp = join(dirname(resolve(path)), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, "wx", 0o644);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
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
  const target = resolve(out);
  if (existsSync(target)) {
    if (statSync(target).isDirectory())
      throw new InputError(`--out ${out}: is a directory; name a file to write the JSON result to`);
    const input = inputs.find((file) => existsSync(file) && sameFile(file, target));
    if (input !== undefined)
      throw new InputError(
        `--out ${out}: is ${input}, an input of this run; it would be overwritten, so write the result elsewhere`,
      );
  }
  const folder = dirname(target);
  if (!existsSync(folder)) throw new InputError(`--out ${out}: the folder ${dirname(out)} does not exist`);
  if (!statSync(folder).isDirectory()) throw new InputError(`--out ${out}: ${dirname(out)} is not a folder`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new InputError(`--out ${out}: the folder ${dirname(out)} is not writable`);
  }
}

let sha: string | undefined;
/**
 * The git commit of consolesr's own checkout, or "unknown" when consolesr does not run from one
 * (an installed package inside a user's repository must not record the user's HEAD).
 */
export function gitSha(): string {
  if (sha !== undefined) return sha;
  sha = "unknown";
  try {
    const root = realpathSync(fileURLToPath(new URL("../..", import.meta.url)));
    const [top, head] = execFileSync("git", ["rev-parse", "--show-toplevel", "HEAD"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    })
      .toString()
      .trim()
      .split("\n");
    if (top && head && realpathSync(top) === root) sha = head;
  } catch {
    // not a git checkout, or no git
  }
  return sha;
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
