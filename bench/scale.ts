/**
 * `npm run bench` (part): how `consolesr fit` (default flags, as a user runs it) grows with the
 * table. Each run is the CLI in a process of its own, timed from start to exit, with its peak
 * resident memory (process.resourceUsage().maxRSS, reported at exit by a preloaded module).
 *
 * - Rows: 1e3, 1e4, 1e5, 1e6 rows of 5 inputs, y = 1.7·x1·x2 + 0.6·x3·x4² (x5 unused), x ~ U(1, 3);
 *   the growth exponent is the slope of log(seconds) on log(rows), over all sizes and beyond 1e4.
 * - Inputs: 3, 10, 30, 100 input columns of 2000 rows, three used (y = 1.7·x1·x2 + 0.6·x3²), with
 *   --time-limit 120.
 * - Seeds: for seeds 0–4, the answer on 1e6 rows (a sample searched, refitted on all rows) against
 *   the answer on 1e4 rows of the same law (searched whole).
 *
 * Prints figures and ratios; asserts nothing. `--quick` stops at 1e5 rows and 30 inputs, one seed;
 * `--huge` adds 1e7 rows (a 0.7 GB file, streamed: its text is never held whole).
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const quick = process.argv.includes("--quick");
// --huge adds a row of 1e7 rows (about 0.7 GB of CSV, beyond the longest string V8 holds)
const huge = process.argv.includes("--huge");
const repo = fileURLToPath(new URL("..", import.meta.url));
const bin = join(repo, "bin", "consolesr.js");
const dir = mkdtempSync(join(tmpdir(), "consolesr-scale-"));
const rssProbe = join(dir, "rss.mjs");
writeFileSync(
  rssProbe,
  'process.on("exit", () => process.stderr.write(`\\nMAXRSS ${process.resourceUsage().maxRSS}\\n`));\n',
);

/** A CSV of `rows` rows of `inputs` columns on U(1, 3) and y, written 10,000 rows at a time. */
function writeCsv(path: string, rows: number, inputs: number, seed: number, law: (x: number[]) => number): void {
  let s = (seed * 7919 + 17) % 2147483647;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return 1 + (2 * s) / 2147483647;
  };
  const names = Array.from({ length: inputs }, (_, i) => `x${i + 1}`);
  const fd = openSync(path, "w");
  try {
    writeSync(fd, `${names.join(",")},y\n`);
    for (let from = 0; from < rows; from += 10_000) {
      const parts: string[] = [];
      for (let i = from; i < Math.min(rows, from + 10_000); i++) {
        const x = names.map(() => r());
        parts.push(`${x.map((v) => v.toPrecision(9)).join(",")},${law(x).toPrecision(12)}\n`);
      }
      writeSync(fd, parts.join(""));
    }
  } finally {
    closeSync(fd);
  }
}

interface Run {
  seconds: number;
  rssMb: number;
  equation: string;
  stopReason: string;
  sample?: { rows: number; of: number };
}

function fit(csv: string, extra: string[] = []): Run {
  const out = `${csv}.json`;
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--import", rssProbe, bin, "fit", csv, "--target", "y", "--quiet", "--out", out, ...extra],
    { encoding: "utf8", timeout: 900_000 },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`fit ${csv}: exit ${run.status}: ${run.stderr}`);
  const result = JSON.parse(readFileSync(out, "utf8"));
  return {
    seconds,
    rssMb: Number(/MAXRSS (\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1024,
    equation: result.equations[0].text,
    stopReason: result.search.stopReason,
    sample: result.search.sample,
  };
}

/** Least-squares slope of log(y) on log(x). */
function slope(points: [number, number][]): number {
  const xs = points.map(([x]) => Math.log(x));
  const ys = points.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

const twoProducts = (x: number[]) => 1.7 * x[0]! * x[1]! + 0.6 * x[2]! * x[3]! * x[3]!;
const threeUsed = (x: number[]) => 1.7 * x[0]! * x[1]! + 0.6 * x[2]! * x[2]!;

console.log(
  `bench/scale: ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)}`,
);
try {
  // 1. Rows.
  console.log("\nrows (5 inputs, y = 1.7·x1·x2 + 0.6·x3·x4²), consolesr fit with default flags:");
  console.log("     rows   searched  seconds  peak RSS MB  file MB  stop               equation");
  const sizes = quick ? [1e3, 1e4, 1e5] : huge ? [1e3, 1e4, 1e5, 1e6, 1e7] : [1e3, 1e4, 1e5, 1e6];
  const growth: [number, number][] = [];
  for (const rows of sizes) {
    const csv = join(dir, `rows-${rows}.csv`);
    writeCsv(csv, rows, 5, 1, twoProducts);
    const megabytes = statSync(csv).size / 2 ** 20;
    const r = fit(csv);
    rmSync(csv);
    growth.push([rows, r.seconds]);
    console.log(
      `${String(rows).padStart(9)}  ${String(r.sample?.rows ?? rows).padStart(9)}  ` +
        `${r.seconds.toFixed(1).padStart(7)}  ` +
        `${r.rssMb.toFixed(0).padStart(11)}  ${megabytes.toFixed(0).padStart(7)}  ${r.stopReason.padEnd(17)}  ` +
        r.equation,
    );
  }
  const beyond = growth.filter(([rows]) => rows >= 1e4);
  console.log(
    `growth exponent (seconds ∝ rows^k): k = ${slope(growth).toFixed(2)} over all sizes, ` +
      `${slope(beyond).toFixed(2)} from 1e4 on (goal ≤ 1.1)`,
  );

  // 2. Inputs.
  console.log("\ninputs (2000 rows, three used: y = 1.7·x1·x2 + 0.6·x3²), --time-limit 120:");
  console.log("  inputs  seconds  peak RSS MB  stop               equation");
  for (const inputs of quick ? [3, 10, 30] : [3, 10, 30, 100]) {
    const csv = join(dir, `inputs-${inputs}.csv`);
    writeCsv(csv, 2000, inputs, 1, threeUsed);
    const r = fit(csv, ["--time-limit", "120"]);
    console.log(
      `${String(inputs).padStart(8)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.rssMb.toFixed(0).padStart(11)}  ` +
        `${r.stopReason.padEnd(17)}  ${r.equation}`,
    );
  }

  // 3. The same answer on 1e6 rows as on 1e4, per seed.
  const big = quick ? 1e5 : 1e6;
  console.log(`\nseeds: the answer on ${big} rows (sampled) against 1e4 rows (whole), same law and seed:`);
  let same = 0;
  const seeds = quick ? [0] : [0, 1, 2, 3, 4];
  for (const seed of seeds) {
    const small = join(dir, `seed-${seed}-small.csv`);
    const large = join(dir, `seed-${seed}-large.csv`);
    writeCsv(small, 1e4, 5, seed + 100, twoProducts);
    writeCsv(large, big, 5, seed + 100, twoProducts);
    const a = fit(small, ["--seed", String(seed)]);
    const b = fit(large, ["--seed", String(seed)]);
    rmSync(large);
    if (a.equation === b.equation) same++;
    console.log(
      `  seed ${seed}: 1e4 ${a.seconds.toFixed(1)} s ${a.equation} | ${big} ${b.seconds.toFixed(1)} s, ` +
        `${b.rssMb.toFixed(0)} MB ${b.equation}${a.equation === b.equation ? "" : "  (differs)"}`,
    );
  }
  console.log(`same answer in ${same} of ${seeds.length} seeds (goal ≥ 4 of 5)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
