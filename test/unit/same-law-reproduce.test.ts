/**
 * The same-law rule in `reproduce` (issue 55): where the original states an exact identity of its rows
 * (search.targets[].identities), a re-run that writes the law with other terms reproduces it when the
 * two writings agree on every training row; a law that differs on the rows does not.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createRegistries,
  createRng,
  parseCsv,
  reproduceResult,
  resolvePipelineConfig,
  resultToJson,
  runModule,
  type ResultJson,
} from "../../src/lib/index.js";

/** u² + v² = 1 on every row; y = 2·u² + 3·w. */
function circleCsv(): string {
  const rng = createRng(3);
  const lines = ["u,v,w,y"];
  for (let r = 0; r < 300; r++) {
    const u = rng.uniform(0.3, 0.9);
    const w = rng.uniform(1, 2);
    lines.push(`${u},${Math.sqrt(1 - u * u)},${w},${2 * u * u + 3 * w}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The original with y written c0 + c1·v² + 3·w. */
function rewritten(original: ResultJson, c0: number, c1: number): ResultJson {
  const copy = structuredClone(original);
  const y = copy.equations[0]!;
  y.text = `${c0} - ${-c1}*v^2 + 3*w`;
  y.latex = `${c0} - ${-c1} v^{2} + 3 w`;
  y.terms = [
    { coefficient: c1, factors: [{ symbol: "x^2", input: "v" }] },
    { coefficient: 3, factors: [{ symbol: "x", input: "w" }] },
  ];
  y.constant = c0;
  return copy;
}

test("reproduce: another writing under the stated identity is the same law; a different law is not", async () => {
  const table = parseCsv(circleCsv(), "circle.csv");
  const registries = createRegistries();
  const config = resolvePipelineConfig({ csv: { name: "circle.csv", table }, targets: ["y"], seed: 0 }, registries);
  const original = JSON.parse(resultToJson(await runModule(config, { registries, table, file: "circle.csv" })));
  assert.equal(original.equations[0].text, "2*u^2 + 3*w");
  assert.deepEqual(original.search.targets[0].identities, ["v^2 = 1 - u^2"]);

  const other = await reproduceResult(rewritten(original, 2, -2), { table });
  const y = other.comparison.targets[0]!;
  assert.equal(y.status, "close", other.lines.join("\n"));
  assert.deepEqual(y.sameLaw, ["v^2 = 1 - u^2"]);
  assert.equal(other.comparison.match, true, other.lines.join("\n"));
  assert.ok(
    other.lines.some((l) => /same law written with other terms/.test(l)),
    other.lines.join("\n"),
  );

  const wrong = await reproduceResult(rewritten(original, 2.5, -2), { table });
  assert.equal(wrong.comparison.targets[0]!.status, "different");
  assert.equal(wrong.comparison.targets[0]!.sameLaw, undefined);
  assert.equal(wrong.comparison.match, false);

  // Without the identity stated, another writing is a different result, as before.
  const unstated = rewritten(original, 2, -2);
  delete unstated.search!.targets![0]!.identities;
  const plain = await reproduceResult(unstated, { table });
  assert.equal(plain.comparison.targets[0]!.status, "different");
});
