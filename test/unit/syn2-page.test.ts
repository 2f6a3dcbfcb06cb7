// The syn2 page's data loader (site/data/syn2.json.ts) reads the committed run
// data/results/syn2-seed0.json and recomputes what the page shows. Here: its JSON parses, has
// the three equations, and its evaluation is recomputed on freshly generated test data, not copied
// from the file (the same loader on a copy whose evaluation block is wrong still reports the
// library's numbers, and says that they differ from the file's).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { columnOf } from "../../src/lib/data/dataset.js";
import { evaluateEquation } from "../../src/lib/equation/index.js";
import { nrmse } from "../../src/lib/numeric/nrmse.js";
import { configFromManifest, pipelineData } from "../../src/lib/run/index.js";
import { parseResult } from "../../src/lib/result/reproduce.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const RESULT = "data/results/syn2-seed0.json";

function runLoader(env: Record<string, string> = {}) {
  const stdout = execFileSync(process.execPath, ["--import", "tsx", "site/data/syn2.json.ts"], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(stdout);
}

/** Test NRMSE of each equation of a result, on test data drawn afresh from its manifest through the library. */
function freshTestNrmse(text: string): Record<string, number> {
  const result = parseResult(text, RESULT);
  const registries = createRegistries();
  const data = pipelineData(configFromManifest(result, RESULT), { registries });
  const test = data.test!;
  const lookup = (name: string) => registries.symbols.get(name);
  return Object.fromEntries(
    result.equations.map((e) => [
      e.target,
      nrmse(
        columnOf(test, e.target),
        evaluateEquation({ target: e.target, terms: e.terms }, lookup, (name) => columnOf(test, name), test.rows),
      ),
    ]),
  );
}

const committed = readFileSync(join(repo, RESULT), "utf8");
const expected = freshTestNrmse(committed);

test("syn2 loader: the committed run, three equations, the evaluation recomputed", () => {
  const page = runLoader();
  assert.equal(page.manifest.experiment, "syn2");
  assert.equal(page.equations.length, 3);
  assert.deepEqual(
    page.equations.map((e: { target: string }) => e.target),
    ["y1", "y2", "y3"],
  );
  assert.equal(page.evaluation.length, 3);
  assert.equal(page.outputs.length, 3);
  assert.ok(page.front.length >= 3, "the Pareto front is missing");
  assert.equal(page.source.file, RESULT);
  assert.ok(page.source.seconds > 0, "the committed run has no search.seconds (run it with --timings)");
  for (const e of page.evaluation) {
    assert.equal(e.testNrmse, expected[e.target], `${e.target}: test NRMSE`);
    assert.equal(typeof e.truthLatex, "string");
  }
  assert.ok(
    page.checks.train.every((c: { identical: boolean }) => c.identical),
    "the regenerated train data are not the run's",
  );
  assert.ok(
    page.checks.evaluation.every((c: { identical: boolean }) => c.identical),
    "the recomputed evaluation differs from the file's",
  );
  assert.equal(page.paper.length, 3);
  for (const p of page.paper)
    assert.ok(
      Number.isFinite(p.coefficientError) && Number.isFinite(p.testNrmse),
      `${p.target}: paper's equation not scored`,
    );
});

test("syn2 loader: a wrong evaluation block in the file does not reach the page", () => {
  const dir = mkdtempSync(join(tmpdir(), "syn2page-"));
  try {
    const result = JSON.parse(committed);
    for (const e of result.evaluation) {
      e.testNrmse = 123;
      e.coefficientError = 45;
      e.exact = false;
    }
    const file = join(dir, "tampered.json");
    writeFileSync(file, JSON.stringify(result));
    const page = runLoader({ CONSOLESR_SYN2_RESULT: file });
    for (const e of page.evaluation) {
      assert.equal(e.testNrmse, expected[e.target], `${e.target}: test NRMSE not recomputed`);
      assert.notEqual(e.coefficientError, 45);
    }
    assert.ok(
      page.checks.evaluation.every((c: { identical: boolean }) => !c.identical),
      "the loader did not notice the file's evaluation differs",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
