/**
 * `npm run bench` (part) and `npm run bench:speed`: where a search's CPU goes, per phase
 * (src/lib/search/phases.ts), on the cases of the Speed issue: Mas and Pow ({x, x²}) as `run`
 * runs them, and CSV-like data fitted with the default flags (a single product of 5 factors, a
 * 3-term sum of products). "Search CPU" is process.cpuUsage() around the search alone (no
 * start-up, no data generation); the phases are wall-clock self times, and the table says how
 * much of the CPU they cover. Prints figures; asserts nothing.
 *
 *   node --import tsx bench/speed.ts [--cases mas,pow-x2,product,sum3,pow] [--seed 0]
 */
import { Command } from "commander";
import { createRegistries } from "../src/lib/plugins/builtin.js";
import { prepareRun, searchOptionsOf, type PipelineOptions } from "../src/lib/run/index.js";
import { search } from "../src/lib/search/index.js";
import { createArgminSolver } from "../src/lib/search/argmin.js";
import { createRng } from "../src/lib/core/rng.js";
import { evaluateExperiment } from "../src/lib/run/evaluate.js";
import { experiments } from "../src/lib/data/experiments.js";
import { addPhases, noPhases, PHASES, type PhaseSeconds } from "../src/lib/search/phases.js";
import type { Table } from "../src/lib/data/csv.js";
import { equationText } from "../src/lib/equation/format.js";

const program = new Command()
  .option("--cases <list>", "cases to run", "mas,pow-x2,product,sum3")
  .option("--seed <n>", "seed", "0")
  .parse();
const opts = program.opts<{ cases: string; seed: string }>();
const seed = Number(opts.seed);

/** A table of `rows` rows, inputs uniform on [1, 2] (seeded), y = f(inputs). */
function lawTable(inputs: number, f: (x: number[]) => number, rows = 1000): Table {
  const rng = createRng(1000 + seed);
  const columns = Array.from({ length: inputs }, (_, i) => `x${i + 1}`);
  const x = columns.map(() => new Float64Array(rows));
  const y = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    const row = x.map((c) => (c[r] = 1 + rng.next()));
    y[r] = f(row);
  }
  return { columns: [...columns, "y"], values: [...x, y], rows };
}

interface Case {
  name: string;
  what: string;
  options: PipelineOptions;
  table?: () => Table;
}

const CASES: Case[] = [
  { name: "mas", what: "run mas (10 outputs)", options: { experiment: "mas", seed } },
  { name: "pow-x2", what: "run pow --symbols x,x^2", options: { experiment: "pow", seed, symbols: ["x", "x^2"] } },
  { name: "pow", what: "run pow ({x})", options: { experiment: "pow", seed } },
  {
    name: "product",
    what: "fit: y = 1.7·x1·x2²·x3·x5/x4",
    options: { seed },
    table: () => lawTable(5, (x) => (1.7 * x[0]! * x[1]! ** 2 * x[2]! * x[4]!) / x[3]!),
  },
  {
    name: "sum3",
    what: "fit: y = 2·x1·x2 − 1.5·x3 + 0.5·x1·x4",
    options: { seed },
    table: () => lawTable(4, (x) => 2 * x[0]! * x[1]! - 1.5 * x[2]! + 0.5 * x[3]! * x[0]!),
  },
];

const registries = createRegistries();
const argmin = await createArgminSolver();
const wanted = opts.cases.split(",");
console.log(`# Search CPU by phase (seed ${seed}; seconds; phases are self times)`);
console.log(
  `${"case".padEnd(9)}${"exact".padEnd(8)}${"structures".padEnd(12)}${"cpu s".padEnd(8)}${"wall s".padEnd(8)}` +
    PHASES.map((p) => p.padEnd(12)).join("") +
    "covered",
);
for (const c of wanted.map((name) => CASES.find((c) => c.name === name)!)) {
  const table = c.table?.();
  const options: PipelineOptions = table
    ? { ...c.options, csv: { name: `${c.name}.csv`, table }, targets: ["y"] }
    : c.options;
  const { config, data, plugins } = prepareRun(options, { registries });
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const found = await search(data.train, { ...searchOptionsOf(plugins, data), argmin });
  const used = process.cpuUsage(cpu);
  const wallSeconds = (performance.now() - wall) / 1000;
  const seconds = (used.user + used.system) / 1e6;
  const phases = found.outputs.reduce((sum: PhaseSeconds, o) => addPhases(sum, o.phases), noPhases());
  const covered = PHASES.reduce((s, p) => s + phases[p], 0);
  let exact: string;
  if ("experiment" in config && data.test) {
    const evaluation = evaluateExperiment(
      experiments[config.experiment]!,
      found.simplified,
      data as never,
      registries.symbols,
    );
    exact = `${evaluation.filter((e) => e.exact).length}/${evaluation.length}`;
  } else exact = found.simplified.map((e) => equationText(e, (n) => registries.symbols.get(n))).join("; ");
  console.log(
    `${c.name.padEnd(9)}${(exact.length > 7 ? "-" : exact).padEnd(8)}${String(found.structures).padEnd(12)}` +
      `${seconds.toFixed(3).padEnd(8)}${wallSeconds.toFixed(3).padEnd(8)}` +
      PHASES.map((p) => phases[p].toFixed(3).padEnd(12)).join("") +
      `${((100 * covered) / seconds).toFixed(0)} %`,
  );
  if (exact.length > 7) console.log(`  ${c.what}: ${exact}`);
}
