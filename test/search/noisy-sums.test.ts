/**
 * Time to answer under noise (issue 56): a short sum of products at 1 % noise is the polynomial
 * question's answer, and it starts the search at the floor without the forms screen; a short start
 * of the first screen at the floor ends the search after its rivals. A laboratory
 * sum (src/lib/data/labSums.ts) whose question had failed on chance: 4.2·a·b + 0.8·c, where the odd
 * rows add a third term and one of three inputs' split tests passed its 1 % level (the answer then
 * took 25 s and held b⁻²·c). No time is asserted: the phases the search went through are.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { beyondData } from "../../src/lib/data/beyond.js";
import { benchmarkData, benchmarkEntry } from "../../src/lib/data/benchmark.js";
import { LAB_ROWS, labSumEntries } from "../../src/lib/data/labSums.js";
import { createConstraintRegistry, createRegistries, createRewardRegistry } from "../../src/lib/plugins/builtin.js";
import { search } from "../../src/lib/search/index.js";
import { createArgminSolver } from "../../src/lib/search/argmin.js";
import { equationText } from "../../src/lib/equation/format.js";
import { createRng } from "../../src/lib/core/rng.js";

const registries = createRegistries();
const argmin = await createArgminSolver();

/** A new user's search (every symbol, a size that grows by itself, no budget), seeded. */
const options = (seed: number) => ({
  symbols: registries.symbols,
  pool: registries.symbols.names(),
  constraints: ["static", "dynamic"].map((n) => createConstraintRegistry().get(n)),
  reward: createRewardRegistry().get("inv-nrmse"),
  rng: createRng(seed),
  method: "consolesr" as const,
  argmin,
  settings: { terms: 0, maxFactors: 0, budget: 0, episodes: 600 },
});

async function searchLab(id: string, seed: number) {
  const entry = labSumEntries.find((e) => e.id === id)!;
  const { train } = beyondData(entry, { seed, rows: LAB_ROWS, noiseRms: 0.01 });
  const phases: string[] = [];
  const result = await search(train, { ...options(seed), onPhase: (event) => phases.push(event.phase) });
  const output = result.outputs[0]!;
  return {
    text: equationText(result.simplified[0]!, (name) => registries.symbols.get(name)),
    stop: output.stopReason,
    phases,
  };
}

/** A benchmark entry at 40 dB (500 rows, seed 0) searched as a new user would, with its answer's text. */
async function searchBenchmark(id: string) {
  const entry = benchmarkEntry(id);
  const data = benchmarkData(entry, { symbols: registries.symbols, rows: 500, seed: 0, snrDb: 40 });
  const result = await search(data.train, { ...options(0), pool: entry.unsizedPool ?? registries.symbols.names() });
  return {
    output: result.outputs[0]!,
    text: equationText(result.simplified[0]!, (name) => registries.symbols.get(name)),
  };
}

test("lab-8 seed 2 at 1 %: the polynomial answer at the floor, no forms screened", async () => {
  const run = await searchLab("lab-8", 2);
  assert.match(run.text, /^[\d.]+\*a\*b \+ [\d.]+\*c$/, run.text);
  assert.equal(run.stop, "noise-floor");
  assert.ok(run.phases[0]?.startsWith("asking whether it is a sparse polynomial"), run.phases.join("; "));
  assert.ok(!run.phases.some((p) => p.startsWith("screening forms")), run.phases.join("; "));
});

test("a first screen start of two products at the floor ends the search after its rivals: I.12.11, 40 dB", async () => {
  // q·Ef + q·B·v·sin θ: the pursuit's start is the law, fitted at episode 1; 11 episodes and a wider
  // size's screens followed before (19 s of search CPU), which found nothing better.
  const { output, text } = await searchBenchmark("feynman-I.12.11");
  assert.match(text, /^[\d.]+\*q\*Ef \+ [\d.]*\*?q\*B\*v\*sin\([\d.]+\*theta\)$/, text);
  assert.equal(output.stopReason, "noise-floor");
  assert.ok(output.episodes <= 1 + 4, `${output.episodes} episodes: the start and at most its four rivals`);
});

test("a first screen start of three products at the floor holding across the range ends it: I.37.4", async () => {
  // I1 + I2 + 2·√(I1·I2)·cos δ: the start is the law at episode 1, then 15-17 s of episodes and wider
  // sizes' screens followed before, which found nothing better. Chow's split test tells it from a
  // Taylor sum (test search "taylor-at-floor": nine terms, whose coefficients differ on each half).
  const { output, text } = await searchBenchmark("feynman-I.37.4");
  assert.match(text, /cos\([\d.]*\*?delta\)/, text);
  assert.equal((text.match(/ [+-] /g) ?? []).length, 2, `three terms: ${text}`);
  assert.equal(output.stopReason, "noise-floor");
  assert.ok(output.episodes <= 1 + 4, `${output.episodes} episodes: the start and at most its four rivals`);
});
