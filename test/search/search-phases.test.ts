// The cheap questions first (the first screen before any size), screens reused from
// size to size, selection in coefficient space, and where the time goes (phases). No timed
// assertions: the benchmark (npm run bench:speed) prints the times; these check what the search
// did (structures fitted, what it recorded) and that the phases account for the time honestly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/lib/core/rng.js";
import { Selection } from "../../src/lib/search/linear/select.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { pipelineData, pipelinePlugins, resolvePipelineConfig, searchOptionsOf } from "../../src/lib/run/index.js";
import { search } from "../../src/lib/search/index.js";
import { createArgminSolver } from "../../src/lib/search/argmin.js";
import { PHASES } from "../../src/lib/search/phases.js";
import { equationText } from "../../src/lib/equation/format.js";

const registries = createRegistries();
const argmin = await createArgminSolver();
const lookup = (name: string) => registries.symbols.get(name);

/** A table: `inputs` columns on U(1, 2), y = f(row) (+ noise at `snrDb`); searched with the default flags. */
async function searchDefault(
  inputs: number,
  f: (x: number[]) => number,
  options: { seed?: number; snrDb?: number } = {},
) {
  const rng = createRng(options.seed ?? 7);
  const rows = 500;
  const x = Array.from({ length: inputs }, () => new Float64Array(rows));
  const y = new Float64Array(rows);
  for (let r = 0; r < rows; r++) y[r] = f(x.map((c) => (c[r] = 1 + rng.next())));
  if (options.snrDb !== undefined) {
    let mean = 0;
    for (const v of y) mean += v / rows;
    let variance = 0;
    for (const v of y) variance += (v - mean) ** 2 / rows;
    const sigma = Math.sqrt(variance) * 10 ** (-options.snrDb / 20);
    for (let r = 0; r < rows; r++) {
      const u = rng.next() || 1e-12;
      y[r]! += sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
    }
  }
  const names = x.map((_, i) => `x${i + 1}`);
  const table = { columns: [...names, "y"], values: [...x, y], rows };
  const config = resolvePipelineConfig({ csv: { name: "speed.csv", table }, targets: ["y"], seed: 0 }, registries);
  const data = pipelineData(config, { registries, table });
  const plugins = pipelinePlugins(config, registries);
  const cpu = process.cpuUsage();
  const result = await search(data.train, { ...searchOptionsOf(plugins, data), argmin });
  const used = process.cpuUsage(cpu);
  /** The search's CPU seconds (every thread of the process). */
  const seconds = (used.user + used.system) / 1e6;
  return { result, output: result.outputs[0]!, text: equationText(result.simplified[0]!, lookup), seconds };
}

test("a 4-term sum of single inputs among 8: one structure, the question's exact fit for the noise", async () => {
  const { output, text } = await searchDefault(8, (x) => 0.9 * x[0]! - 0.4 * x[2]! + 0.25 * x[5]! + 1.5 * x[7]!);
  assert.equal(text, "0.9*x1 - 0.4*x3 + 0.25*x6 + 1.5*x8");
  assert.equal(output.structures, 1, "the first screen's exact proposal is the first and only fit");
  assert.equal(output.stopReason, "reward-threshold");
  assert.match(output.noise.method, /exact polynomial fit \(4 terms, the polynomial question\)/);
  assert.ok(output.noise.nrmse < 1e-9, `noise ${output.noise.nrmse}`);
  assert.equal(output.floor, undefined);
  assert.ok(output.size.terms >= 4 && output.size.maxFactors >= 1, "the search started at a size that holds 4 terms");
});

test("a 3-term sum of products: one structure, no size before it visited", async () => {
  const { output, text } = await searchDefault(4, (x) => 2 * x[0]! * x[1]! - 1.5 * x[2]! + 0.5 * x[0]! * x[3]!);
  assert.equal(text, "2*x1*x2 + 0.5*x1*x4 - 1.5*x3");
  assert.equal(output.structures, 1);
  assert.equal(output.episodes, 1);
  assert.deepEqual(output.size, { terms: 3, maxFactors: 2 });
});

test("at 30 dB, not told: the search starts at the floor's size and answers with the true structure", async () => {
  const { output, text } = await searchDefault(3, (x) => 1.3 * x[0]! ** 2 * x[1]! - 0.7 * x[2]!, { snrDb: 30 });
  assert.match(text, /^y? ?1\.\d+\*x1\^2\*x2 - 0\.\d+\*x3$/);
  assert.equal(output.stopReason, "noise-floor");
  assert.notEqual(output.floor, undefined);
  assert.doesNotMatch(output.noise.method, /exact linear fit/, "noisy data get the estimator, not an exact screen");
  // The first size (single products) is skipped: the first fit is the 2-term sum, as good as any later one.
  assert.notDeepEqual(output.size, { terms: 1, maxFactors: 6 });
  assert.ok(output.rewards[0]! >= Math.max(...output.rewards) * 0.999, `first reward ${output.rewards[0]}`);
  assert.ok(output.structures <= 40, `${output.structures} structures`);
});

test("a resumed selection (2 terms, then 4) returns what one selection of 4 terms returns", () => {
  const rng = createRng(11);
  const rows = 120;
  const columns = Array.from({ length: 60 }, () => Float64Array.from({ length: rows }, () => rng.next() - 0.5));
  const y = Float64Array.from({ length: rows }, (_, r) => 2 * columns[3]![r]! - columns[17]![r]! + 0.1 * rng.next());
  const resumed = new Selection(columns, y, {});
  const first = runAll(resumed.upTo(2));
  assert.ok(first.every((s) => s.members.length <= 2));
  const deeper = runAll(resumed.upTo(4));
  const fresh = runAll(new Selection(columns, y, {}).upTo(4));
  assert.deepEqual(deeper, fresh);
  assert.ok(deeper.some((s) => s.members.length === 4));
});

test("a selection's recorded NRMSE is the least-squares NRMSE of its columns (normal equations, independently)", () => {
  const rng = createRng(5);
  const rows = 200;
  const columns = Array.from({ length: 30 }, () => Float64Array.from({ length: rows }, () => 1 + rng.next()));
  const y = Float64Array.from({ length: rows }, (_, r) => columns[2]![r]! * 3 + columns[9]![r]! + rng.next());
  const subsets = runAll(new Selection(columns, y, { rows }).upTo(3));
  assert.ok(subsets.length > 10);
  let mean = 0;
  for (const v of y) mean += v / rows;
  let variance = 0;
  for (const v of y) variance += (v - mean) ** 2 / rows;
  for (const s of subsets.slice(0, 10)) {
    const rss = leastSquaresRss(
      s.members.map((m) => columns[m]!),
      y,
    );
    const expected = Math.sqrt(rss / rows / variance);
    assert.ok(Math.abs(s.nrmse - expected) <= 1e-9 * expected, `${s.members}: ${s.nrmse} against ${expected}`);
  }
  // Best first.
  for (let i = 1; i < subsets.length; i++) assert.ok(subsets[i - 1]!.nrmse <= subsets[i]!.nrmse);
});

test("a centred selection's NRMSE: least squares of its columns beside a constant; no constant column enters", () => {
  const rng = createRng(6);
  const rows = 200;
  // Columns near 1 (as voltages are): uncentred, they are nearly collinear with each other.
  const columns = Array.from({ length: 24 }, () => Float64Array.from({ length: rows }, () => 1 + 0.02 * rng.next()));
  columns.push(new Float64Array(rows).fill(3));
  const y = Float64Array.from(
    { length: rows },
    (_, r) => 40 - 30 * columns[2]![r]! + 20 * columns[9]![r]! + 1e-3 * rng.next(),
  );
  const subsets = runAll(new Selection(columns, y, { rows, center: true }).upTo(3));
  assert.ok(subsets.length > 10);
  assert.deepEqual(subsets.find((s) => s.members.length === 2)?.members, [2, 9], "the truth's pair first");
  let mean = 0;
  for (const v of y) mean += v / rows;
  let variance = 0;
  for (const v of y) variance += (v - mean) ** 2 / rows;
  const ones = new Float64Array(rows).fill(1);
  for (const s of subsets.slice(0, 10)) {
    assert.ok(!s.members.includes(24), `the constant column in ${s.members}`);
    const rss = leastSquaresRss([ones, ...s.members.map((m) => columns[m]!)], y);
    const expected = Math.sqrt(rss / rows / variance);
    assert.ok(Math.abs(s.nrmse - expected) <= 1e-6 * expected, `${s.members}: ${s.nrmse} against ${expected}`);
  }
});

test("the phases add up to no more than the search's CPU time, and cover most of it", async () => {
  const { result, seconds } = await searchDefault(3, (x) => 2 * x[0]! * x[1]! + x[2]! ** 2, { snrDb: 40 });
  const phases = result.outputs[0]!.phases;
  const sum = PHASES.reduce((s, p) => s + phases[p], 0);
  for (const p of PHASES) assert.ok(phases[p] >= 0, `${p}: ${phases[p]}`);
  assert.ok(sum <= seconds + 0.002, `phases ${sum} s against ${seconds} s`);
  assert.ok(sum >= 0.9 * seconds, `phases ${sum} s cover too little of ${seconds} s`);
  assert.ok(phases.fits > 0 && phases.screening > 0 && phases.preparation > 0);
});

function runAll<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** RSS of y on the columns by normal equations (Gaussian elimination with partial pivoting). */
function leastSquaresRss(columns: Float64Array[], y: Float64Array): number {
  const k = columns.length;
  const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
  const a = columns.map((ci) => [...columns.map((cj) => dot(ci, cj)), dot(ci, y)]);
  for (let i = 0; i < k; i++) {
    let p = i;
    for (let r = i + 1; r < k; r++) if (Math.abs(a[r]![i]!) > Math.abs(a[p]![i]!)) p = r;
    [a[i], a[p]] = [a[p]!, a[i]!];
    for (let r = 0; r < k; r++) {
      if (r === i) continue;
      const f = a[r]![i]! / a[i]![i]!;
      for (let c = i; c <= k; c++) a[r]![c]! -= f * a[i]![c]!;
    }
  }
  const beta = a.map((row, i) => row[k]! / row[i]!);
  let rss = 0;
  for (let r = 0; r < y.length; r++) {
    let v = y[r]!;
    for (let j = 0; j < k; j++) v -= beta[j]! * columns[j]![r]!;
    rss += v * v;
  }
  return rss;
}
