/**
 * The run's door (src/lib/run/prepare.ts): prepareRun checks a request once and builds the run,
 * runPrepared runs it. Its result is byte for byte the one of the separate steps (resolvePipelineConfig,
 * pipelineData, runPipeline, which stay as wrappers), for a search and a given form on an experiment and
 * on a CSV; a CSV is read once, its train set being the one the check built; a sweep's renaming of
 * problems applies to the options' problems only.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { InputError } from "../../src/lib/core/index.js";
import { parseCsv, type Table } from "../../src/lib/data/index.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { resultToJson } from "../../src/lib/result/index.js";
import {
  pipelineData,
  prepareRun,
  resolvePipelineConfig,
  runPipeline,
  runPrepared,
  type PipelineOptions,
} from "../../src/lib/run/index.js";

const csvText = `a,b,y\n${Array.from({ length: 40 }, (_, i) => {
  const a = 1 + i / 40;
  const b = 2 - i / 80;
  return `${a},${b},${2 * a * a * b}`;
}).join("\n")}\n`;

async function bothWays(options: PipelineOptions, table?: Table): Promise<[string, string]> {
  const registries = createRegistries();
  const config = resolvePipelineConfig(options, registries);
  const data = pipelineData(config, { registries, table });
  const steps = (await runPipeline({ config, data, registries, backend: "js" })).result;
  const door = (await runPrepared(prepareRun(options, { registries }), { backend: "js" })).result;
  return [resultToJson(steps), resultToJson(door)];
}

test("prepareRun → runPrepared gives the separate steps' bytes: searches, given forms", async () => {
  const search: PipelineOptions = { experiment: "toy", rows: 40, seed: 3, search: { episodes: 3 } };
  const [a, b] = await bothWays(search);
  assert.equal(b, a);
  const [c, d] = await bothWays({ experiment: "syn1", rows: 40, givenForm: true, fit: { steps: 20 } });
  assert.equal(d, c);
  const table = parseCsv(csvText, "door.csv");
  const form: PipelineOptions = { csv: { name: "door.csv", table }, form: "y = a^2*b", symbols: ["x", "x^2"] };
  const [e, f] = await bothWays(form, table);
  assert.equal(f, e);
  const csvSearch: PipelineOptions = { csv: { name: "door.csv", table }, targets: ["y"], search: { episodes: 3 } };
  const [g, h] = await bothWays(csvSearch, table);
  assert.equal(h, g);
});

test("a CSV is read once and its checked train set is the run's; a resolved config prepares the same data", () => {
  const registries = createRegistries();
  let reads = 0;
  const table = parseCsv(csvText, "door.csv");
  const options: PipelineOptions = {
    csv: { name: "door.csv", table: () => (reads++, table) },
    targets: ["y"],
    symbols: ["x", "x^2"],
  };
  const prepared = prepareRun(options, { registries });
  assert.equal(reads, 1);
  assert.deepEqual(prepared.data.train.inputs, ["a", "b"]);
  assert.equal(prepared.data.train.x[0], table.values[0], "the table's column, not a copy");
  assert.equal(prepared.plugins.settings?.method, "consolesr");
  const again = prepareRun({ config: prepared.config }, { registries, table });
  assert.deepEqual(again.data, prepared.data);
  assert.deepEqual(again.config, resolvePipelineConfig(options, registries));
});

test("invalidOptions renames the options' problems, not the drawn data's", () => {
  const registries = createRegistries();
  const invalidOptions = (error: Error) => new InputError(`job j: ${error.message}`);
  assert.throws(
    () => prepareRun({ experiment: "toy", rows: 0 }, { registries, invalidOptions }),
    (error: Error) => error.message.startsWith("job j: ") && /rows/.test(error.message),
  );
  // mas's drawn inputs go below 0: log's domain problem is the data's, thrown as it is.
  assert.throws(
    () => prepareRun({ experiment: "mas", rows: 50, symbols: ["log"] }, { registries, invalidOptions }),
    (error: Error) => error.message.startsWith('symbol log on column "q1"'),
  );
});
