/**
 * The result schema (src/lib/result/schema.ts) is the documentation of the version-1 JSON, so every
 * result the library writes must conform to it, strictly: a field written but not documented
 * fails here. Checked on every stored result (data/results, data/sweeps: structure searches and
 * the MLP, EQL, DSR and VPG baselines) and on fresh results of a CSV fit with a constant, a
 * given form, the MLP and EQL; and a field the schema does not know is refused by name.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createRng, fit, resultJsonSchema, resultSchemaProblems, resultToJson } from "../../src/lib/index.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { pipelineData, resolvePipelineConfig, runPipeline } from "../../src/lib/run/index.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );

test("every stored result conforms to the schema, every method's blocks included", () => {
  const files = [...walk(join(repo, "data/results")), ...walk(join(repo, "data/sweeps"))].filter(
    (file) => file.endsWith(".json") && !/freshness\.json$|summary\.json$/.test(file),
  );
  const methods = new Set<string>();
  const problems: string[] = [];
  for (const file of files) {
    const value = JSON.parse(readFileSync(file, "utf8"));
    methods.add(value.search?.method);
    for (const problem of resultSchemaProblems(value)) problems.push(`${file.slice(repo.length)}: ${problem}`);
  }
  assert.deepEqual(problems.slice(0, 10), []);
  assert.ok(files.length >= 250, `${files.length} stored results`);
  for (const method of ["consolesr", "paper", "mlp", "eql", "dsr", "vpg"])
    assert.ok(methods.has(method), `no stored result of ${method}`);
});

test("fresh results conform: a CSV fit with a constant, a given form, the MLP and EQL", async () => {
  const rng = createRng(3);
  const X = Array.from({ length: 80 }, () => [rng.uniform(0.5, 2), rng.uniform(0.5, 2)]);
  const y = X.map(([a, b]) => 2 * a! * b! + 5);
  const csv = await fit({ X, y, symbols: ["x"], seed: 0 });
  assert.equal(csv.equations[0]!.constant !== undefined, true, "the fit found the constant");
  const registries = createRegistries();
  const given = resolvePipelineConfig({ experiment: "syn1", rows: 60, givenForm: true }, registries);
  const form = (
    await runPipeline({ config: given, data: pipelineData(given, { registries }), registries, backend: "js" })
  ).result;
  assert.equal(form.search.method, "form");
  const models = [];
  for (const [method, width] of [
    ["mlp", 4],
    ["eql", 1],
  ] as const) {
    const search = { hidden: [width], epochs: 3, batch: 32 };
    const config = resolvePipelineConfig({ experiment: "syn1", rows: 60, method, search }, registries);
    const { result } = await runPipeline({
      config,
      data: pipelineData(config, { registries }),
      registries,
      backend: "js",
    });
    models.push(result);
  }
  for (const result of [csv, form, ...models]) {
    const written = JSON.parse(resultToJson(result));
    assert.deepEqual(resultSchemaProblems(written), [], `${written.search.method}`);
  }
  assert.equal(models[0]!.models![0]!.model, "mlp");
  assert.equal(models[1]!.models![0]!.model, "eql");
});

test("a field the schema does not document is refused by its path; a missing one too", () => {
  const value = JSON.parse(readFileSync(join(repo, "data/results/mas-seed0.json"), "utf8"));
  assert.deepEqual(resultSchemaProblems(value), []);
  value.equations[0].numerator = [];
  delete value.manifest.seed;
  const problems = resultSchemaProblems(value);
  assert.ok(
    problems.some((p) => p.startsWith("equations.0:") && p.includes('"numerator"')),
    problems.join("\n"),
  );
  assert.ok(
    problems.some((p) => p.startsWith("manifest.seed:")),
    problems.join("\n"),
  );
  const schema = resultJsonSchema() as { required: string[]; properties: Record<string, unknown> };
  assert.deepEqual(schema.required, ["version", "equations", "search", "manifest"]);
  assert.deepEqual(Object.keys(schema.properties), [
    "version",
    "requires",
    "equations",
    "search",
    "models",
    "evaluation",
    "manifest",
  ]);
});
