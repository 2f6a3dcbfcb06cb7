/** Node-side helpers of the CLI: files, git, stderr progress, exit codes. */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { InputError } from "../lib/errors.js";
import { parseCsv, type Table } from "../lib/data/csv.js";
import { oneLine } from "../lib/syntax.js";

/** Why a file could not be read, in words, from a Node fs error. */
function readProblem(error: unknown): string {
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
      return "is a directory, not a CSV file";
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

/** Reads a CSV file; a file that cannot be read (missing, a directory, no permission, …) is an InputError naming it. */
export function readCsvFile(path: string): Table {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(`${path}: ${readProblem(error)}`);
  }
  return parseCsv(text, path);
}

export function writeText(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw new InputError(`${path}: cannot write (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

let sha: string | undefined;
/** The git commit of the consolesr checkout, or "unknown" outside a git checkout. */
export function gitSha(): string {
  if (sha !== undefined) return sha;
  try {
    const cwd = new URL("../..", import.meta.url).pathname;
    sha = execFileSync("git", ["rev-parse", "HEAD"], { cwd, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  } catch {
    sha = "unknown";
  }
  return sha;
}

export interface Reporter {
  info(line: string): void;
  /** A warning: on stderr even with --quiet. */
  warn(line: string): void;
}

export function reporter(quiet: boolean): Reporter {
  return { info: (line) => quiet || process.stderr.write(`${line}\n`), warn: (line) => void process.stderr.write(`${line}\n`) };
}

/** Comma-separated flag values, trimmed, empties dropped. */
export const list = (value: string): string[] =>
  value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

export function parseInteger(value: string, flag: string, min = 0): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InputError(`${flag} must be an integer ≥ ${min} (got "${value}")`);
  return n;
}

export function parseNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InputError(`${flag} must be a number (got "${value}")`);
  return n;
}
