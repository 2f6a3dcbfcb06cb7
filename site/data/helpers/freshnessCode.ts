// What scripts/freshness.ts and the loader freshness.json.ts share (not a data loader itself: no
// page asks for it): which committed results the pages show, where their freshness record lives,
// and the digest of the code a result depends on, so that a page can tell whether the code it was
// built from is the code a committed result was last reproduced with.
import { execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The freshness record, from the repository root. */
export const FRESHNESS_FILE = "data/results/freshness.json";

/** Committed `run` results (version-1 JSON, re-run by `consolesr reproduce`). */
export const RESULTS_DIR = "data/results";

/** Committed search-benchmark outputs (bench/searchSuite.ts; re-run in part, a sample of their runs). */
export const BENCHMARK_FILES = [
  "site/data/search-benchmark.json",
  "site/data/search-benchmark-100db.json",
  "site/data/search-benchmark-unsized.json",
  "site/data/search-benchmark-noise.json",
  "site/data/search-benchmark-stress.json",
];

/** What a result depends on: the library and the built-in plugins (the pages, CLI and tests do not change a result). */
export const CODE_DIRS = ["src/lib"];

/** One committed result's last check. */
export interface FreshnessEntry {
  /** From the repository root. */
  file: string;
  /** The commit checked out when it was checked (HEAD; see `dirty`). */
  sha: string;
  /** Whether the check re-made it: `reproduce` matched, or every sampled benchmark run matched. */
  reproduced: boolean;
  /** When it was checked (ISO 8601). */
  date: string;
  /** codeDigest() at the check: the pages compare it with the digest of the code they are built from. */
  code: string;
  /** The working tree had uncommitted changes under CODE_DIRS at the check. */
  dirty: boolean;
  /** Wall-clock seconds of the check. */
  seconds: number;
  /** reproduce's verdict line, or what differed in the sample. */
  detail: string;
  /** Run results that differ: reproduce's lines that say what (at most 12). */
  differences?: string[];
  /** Benchmark files: how many of its runs were re-run. */
  sample?: { runs: number; of: number };
}

export interface FreshnessFile {
  description: string;
  command: string;
  entries: FreshnessEntry[];
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** SHA-256 over the paths and bytes of every file under CODE_DIRS, in path order. */
export function codeDigest(root = repoRoot): string {
  const hash = createHash("sha256");
  const files = CODE_DIRS.flatMap((dir) => walk(join(root, dir)))
    .map((file) => relative(root, file).split("\\").join("/"))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Whether CODE_DIRS have uncommitted changes (false outside a git checkout). */
export function codeDirty(root = repoRoot): boolean {
  try {
    const status = execSync(`git status --porcelain -- ${CODE_DIRS.join(" ")}`, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return status.trim() !== "";
  } catch {
    return false;
  }
}

/** The committed `run` results: every JSON under RESULTS_DIR but the freshness record. */
export function committedResults(root = repoRoot): string[] {
  return readdirSync(join(root, RESULTS_DIR))
    .filter((name) => name.endsWith(".json") && `${RESULTS_DIR}/${name}` !== FRESHNESS_FILE)
    .sort()
    .map((name) => `${RESULTS_DIR}/${name}`);
}

/** The freshness record, or an empty one when there is none yet. */
export function readFreshness(root = repoRoot): FreshnessFile {
  try {
    return JSON.parse(readFileSync(join(root, FRESHNESS_FILE), "utf8")) as FreshnessFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { description: "", command: "npm run freshness", entries: [] };
    throw error;
  }
}
