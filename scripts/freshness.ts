/**
 * `npm run freshness`: does the current code still make the committed results the site shows?
 *
 * - every `run` result under data/results/ goes through `consolesr reproduce` (in-process: the
 *   manifest's config re-run through the runtime module and compared field by field);
 * - every search-benchmark file (site/data/search-benchmark*.json, hours to re-run whole) has
 *   an evenly spread sample of its runs re-run with the benchmark's own job runner and compared
 *   (answer, recovery, structures, episodes, stop reason, NRMSEs, E_c).
 *
 * Writes data/results/freshness.json: per file {file, sha, reproduced, date, code, dirty, seconds,
 * detail[, sample]}. `code` is the digest of src/lib (site/data/helpers/freshnessCode.ts);
 * a page built from code with another digest says "not yet checked at this commit". The site build
 * only reads this file: it never re-runs a committed search.
 *
 *   npm run freshness                          # everything (syn2 and pow {x} take minutes)
 *   npm run freshness -- --only data/results/mas-seed0.json,site/data/search-benchmark.json
 *   npm run freshness -- --sample 12           # benchmark runs re-run per file (default 8)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { reporter } from "../src/cli/io.js";
import { reproduce } from "../src/cli/commands/reproduce.js";
import { createRng } from "../src/lib/index.js";
import {
  BENCHMARK_FILES,
  codeDigest,
  codeDirty,
  committedResults,
  FRESHNESS_FILE,
  readFreshness,
  repoRoot,
  type FreshnessEntry,
} from "../site/data/helpers/freshnessCode.js";
import { gitSha } from "../src/cli/git.js";
import { createJobRunner, type Job, type RunRecord } from "../bench/searchSuite.js";

const { values } = parseArgs({
  options: { only: { type: "string" }, sample: { type: "string", default: "8" } },
});
const sampleSize = Number(values.sample);
if (!Number.isInteger(sampleSize) || sampleSize < 1 || sampleSize > 1000) {
  process.stderr.write(`error: --sample ${values.sample}: give a whole number of runs from 1 to 1000\n`);
  process.exit(2);
}
const every = [...committedResults(), ...BENCHMARK_FILES];
const only = values.only?.split(",").map((f) => f.trim());
const unknown = only?.find((f) => !every.includes(f));
if (unknown) {
  process.stderr.write(`error: --only ${unknown}: not a committed result (known: ${every.join(", ")})\n`);
  process.exit(2);
}
const files = only ?? every;

const sha = gitSha();
const code = codeDigest();
const dirty = codeDirty();
const quiet = reporter(true);

/** A run result: `consolesr reproduce` on it, its verdict line kept. */
async function checkResult(file: string): Promise<Pick<FreshnessEntry, "reproduced" | "detail" | "differences">> {
  const { comparison, lines } = await reproduce(join(repoRoot, file), { log: quiet });
  const detail = lines.at(-1) ?? "";
  if (comparison.match) return { reproduced: true, detail };
  const differences = lines.filter((line) => /DIFFERENT/.test(line)).map((line) => line.trim());
  return { reproduced: false, detail, differences: differences.slice(0, 12) };
}

/** The fields of a benchmark run that one seed fixes (not its seconds). */
const COMPARED = [
  "recovered",
  "exact",
  "structuresToRecovery",
  "structures",
  "episodes",
  "stopReason",
  "learned",
  "terms",
  "maxFactors",
  "trainNrmse",
  "testNrmse",
  "coefficientError",
] as const;

const same = (a: unknown, b: unknown) =>
  typeof a === "number" && typeof b === "number"
    ? a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))
    : a === b;

/**
 * `count` distinct indices of `length` runs drawn from createRng(0): the same sample at every check, and
 * spread over equations, methods and seeds (an even stride would hit one equation, the runs are in blocks).
 */
function sampleOf(length: number, count: number): number[] {
  const rng = createRng(0);
  const picked = new Set<number>();
  while (picked.size < Math.min(count, length)) picked.add(Math.floor(rng.next() * length));
  return [...picked].sort((a, b) => a - b);
}

let runJob: Awaited<ReturnType<typeof createJobRunner>> | undefined;

/** A benchmark file: a sample of its runs re-run with the benchmark's job runner and compared. */
async function checkBenchmark(file: string): Promise<Pick<FreshnessEntry, "reproduced" | "detail" | "sample">> {
  const { runs, manifest } = JSON.parse(readFileSync(join(repoRoot, file), "utf8")) as {
    runs: RunRecord[];
    manifest: { episodes: number };
  };
  runJob ??= await createJobRunner();
  const differ: string[] = [];
  const picked = sampleOf(runs.length, sampleSize);
  for (const index of picked) {
    const recorded = runs[index]!;
    // A record's `episodes` is the episodes it ran; the limit the job ran under is the manifest's.
    const job: Job = {
      method: recorded.method,
      seed: recorded.seed,
      equation: recorded.equation,
      snrDb: recorded.snrDb,
      budget: recorded.budget,
      episodes: manifest.episodes,
      rows: recorded.rows,
      mode: recorded.mode,
      // The unannounced-noise runs (bench:noise): the search is not told the noise level.
      ...(recorded.announce === false ? { announce: false } : {}),
      ...(recorded.timeLimit ? { timeLimit: recorded.timeLimit } : {}),
    };
    const now = await runJob(job);
    // Runs read back from a log (the unsized file's first equations) keep only some fields, and
    // their `episodes` is the job's limit, not the episodes run: compare what the record holds.
    const partial = !("terms" in recorded);
    const fields = COMPARED.filter(
      (key) => key in recorded && !(partial && key === "episodes") && !same(recorded[key], now[key]),
    );
    const name = `${recorded.equation} ${recorded.method} seed ${recorded.seed}`;
    process.stderr.write(`  ${name}: ${fields.length ? `differs in ${fields.join(", ")}` : "same"}\n`);
    if (fields.length) differ.push(`${name} (${fields.map((k) => `${k} ${recorded[k]} → ${now[k]}`).join(", ")})`);
  }
  const sample = { runs: picked.length, of: runs.length };
  return differ.length === 0
    ? { reproduced: true, detail: `all ${picked.length} sampled runs match (of ${runs.length})`, sample }
    : {
        reproduced: false,
        detail: `${differ.length} of ${picked.length} sampled runs differ: ${differ.join("; ")}`,
        sample,
      };
}

const record = readFreshness();
const entries = new Map(record.entries.map((e) => [e.file, e]));
for (const file of files) {
  process.stderr.write(`checking ${file}\n`);
  const started = performance.now();
  const verdict = BENCHMARK_FILES.includes(file) ? await checkBenchmark(file) : await checkResult(file);
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  entries.set(file, {
    file,
    sha,
    reproduced: verdict.reproduced,
    date: new Date().toISOString(),
    code,
    dirty,
    seconds,
    ...verdict,
  });
  process.stderr.write(
    `  ${verdict.reproduced ? "reproduced" : "NOT reproduced"} in ${seconds} s: ${verdict.detail}\n`,
  );
  // Written after every file, so that a long run stopped half-way keeps what it checked.
  const out = {
    description:
      "Whether the code re-makes each committed result the site shows, as `npm run freshness` last found it " +
      "(scripts/freshness.ts). code: digest of src/lib at the check.",
    command: "npm run freshness",
    entries: [...every.filter((f) => entries.has(f)).map((f) => entries.get(f)!)],
  };
  writeFileSync(join(repoRoot, FRESHNESS_FILE), `${JSON.stringify(out, null, 2)}\n`);
}
