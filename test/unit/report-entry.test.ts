/**
 * The report components' entry (`consolesr/report`, src/report/index.ts) as a page imports it, the
 * offline-build helpers (`consolesr/framework`) and the library's reproduceResult, which a report's
 * build check runs. The components' rendering is checked in Chromium (report-pages.test.ts on the
 * Report components page, own-report.test.ts on a generated project).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  createRegistries,
  InputError,
  parseCsv,
  reproduceResult,
  resolvePipelineConfig,
  resultToJson,
  runModule,
  tf,
  type ResultJson,
} from "../../src/lib/index.js";
import * as report from "../../src/report/index.js";
import { katexStylesheet, packageDir, reportDependencies } from "../../src/framework/index.js";
import { productCsv } from "../helpers/data.js";

const repo = new URL("../..", import.meta.url).pathname;

test("the entry exports every component a report page uses", () => {
  for (const name of [
    "equationCard",
    "paretoChart",
    "diagnostics",
    "dataSummary",
    "reproduceBlock",
    "reproduceCheck",
    "csvRerun",
    "rerun",
    "progressLine",
    "tex",
    "SearchWorker",
  ] as const)
    assert.equal(typeof report[name], "function", name);
  assert.equal(report.texName("y2"), "y_{2}");
  assert.equal(report.texName("rate_in"), "rate\\_in");
  // The package's exports name the entry and its declarations (Node imports the bundled entry).
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
  assert.deepEqual(pkg.exports["./report"], {
    types: "./build/report/index.d.ts",
    node: "./build/lib/node/report.js",
    default: "./build/report/index.js",
  });
  assert.ok(pkg.files.includes("build/report") && pkg.files.includes("build/framework"));
});

/** A CSV result of `fit` on productCsv(), its table carrying the bytes' digest. */
async function productResult(): Promise<{ text: string; table: ReturnType<typeof parseCsv> }> {
  const csv = productCsv();
  const table = parseCsv(csv, "data.csv");
  table.sha256 = createHash("sha256").update(csv).digest("hex");
  const registries = createRegistries();
  const config = resolvePipelineConfig({ csv: { name: "data.csv", table }, targets: ["y"], seed: 0 }, registries);
  return { text: resultToJson(await runModule(config, { registries, table, file: "data.csv" })), table };
}

test("fitCommand is the consolesr fit line of a form's values", async () => {
  const { text } = await productResult();
  const result = JSON.parse(text) as ResultJson;
  assert.equal(
    report.fitCommand(result, { seed: 4, episodes: 100, budget: 50, timeLimit: 0 }),
    "npx consolesr fit data.csv --target y --inputs x1,x2 --seed 4 --episodes 100 --budget 50 --out result.json",
  );
  assert.match(report.fitCommand(result, { seed: 0, episodes: 600, budget: 0, timeLimit: 30 }), /--time-limit 30 /);
  assert.deepEqual(
    report.outputsOf(result).map((o) => [o.target, o.text, o.stopReason]),
    [["y", "2*x1*x2", "reward-threshold"]],
  );
});

test("reproduceResult: a result re-run from its manifest matches; a changed coefficient does not", async () => {
  const before = tf.memory().numTensors;
  const { text, table } = await productResult();
  const same = await reproduceResult(text, { table });
  assert.equal(same.comparison.match, true, same.lines.join("\n"));
  assert.equal(same.result.equations[0]!.text, "2*x1*x2");
  const changed = JSON.parse(text) as ResultJson;
  changed.equations[0]!.terms[0]!.coefficient = 2.5;
  const differs = await reproduceResult(changed, { table, name: "changed.json" });
  assert.equal(differs.comparison.match, false);
  assert.ok(
    differs.lines.some((line) => /coefficient|differ/i.test(line)),
    differs.lines.join("\n"),
  );
  await assert.rejects(reproduceResult(text), (e: unknown) => e instanceof InputError && /table/.test(e.message));
  assert.equal(tf.memory().numTensors, before, "tensors left behind");
});

test("consolesr/framework: report dependencies are the installed versions; the KaTeX CSS is offline", () => {
  for (const [name, version] of Object.entries(reportDependencies()))
    assert.equal(
      JSON.parse(readFileSync(join(packageDir(name, repo), "package.json"), "utf8")).version,
      version,
      `${name}: package.json reportDependencies says ${version}`,
    );
  const css = katexStylesheet(repo);
  assert.ok((css.match(/@font-face/g) ?? []).length >= 10);
  assert.doesNotMatch(css, /url\((?!data:font\/woff2;base64,)/);
  assert.ok(existsSync(join(packageDir("katex", repo), "dist", "katex.min.css")));
  assert.throws(() => packageDir("no-such-package-here", repo), /not installed/);
});
