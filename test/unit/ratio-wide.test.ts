/**
 * The ratio screen beyond three inputs (issue 56): the products of two inputs join its library where
 * the full pair library is too wide, so the exact relations of 3·a·b/(c + 2·d + 0.5·e) and
 * 6·a/(b·c + d·e + f) are found (before: singles alone, and neither; the forms family's clean
 * ratios of four to seven inputs ran to the time limit).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runSteps } from "../../src/lib/core/index.js";
import { beyondData } from "../../src/lib/data/beyond.js";
import { formsEntries } from "../../src/lib/data/forms.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { allowedNeurons } from "../../src/lib/search/constraints.js";
import { ratioScreenSteps } from "../../src/lib/search/linear/proposer.js";

const symbols = createSymbolRegistry();
const pool = symbols.names();

/** The denominator the screen proposes, as "coefficient*symbol(input)·…" terms. */
function denominatorOf(id: string) {
  const entry = formsEntries.find((e) => e.id === id)!;
  const { train } = beyondData(entry, { seed: 0, rows: 800 });
  const y = train.y[0]!;
  const input = {
    x: train.x,
    y,
    pool,
    allowed: allowedNeurons(train, pool, symbols),
    lookup: (name: string) => symbols.get(name),
    maxTerms: 12,
    maxFactors: 3,
  };
  const proposal = runSteps(ratioScreenSteps(input));
  return proposal?.denominator.map((d) => ({
    coefficient: d.coefficient,
    factors: d.neurons.map((n) => `${pool[n % pool.length]}(${train.inputs[Math.floor(n / pool.length)]})`).join("·"),
  }));
}

test("clean, five inputs: the denominator c + 2·d + 0.5·e of 3·a·b/(c + 2·d + 0.5·e)", () => {
  const found = denominatorOf("forms-ratio-5");
  assert.ok(found, "a denominator");
  assert.deepEqual(
    found.map((d) => d.factors),
    ["x(c)", "x(d)", "x(e)"],
  );
  assert.deepEqual(
    found.map((d) => Number(d.coefficient.toFixed(9))),
    [1, 2, 0.5],
  );
});

test("clean, products of two inputs below: 6·a/(b·c + d·e + f)", () => {
  const found = denominatorOf("forms-ratio-7");
  assert.deepEqual(found?.map((d) => d.factors).sort(), ["x(b)·x(c)", "x(d)·x(e)", "x(f)"]);
});

test("clean, a product above: (2·a + 0.5·b·c)/(1 + 0.3·d), four inputs", () => {
  const found = denominatorOf("forms-ratio-4");
  assert.deepEqual(
    found?.map((d) => [d.factors, Number(d.coefficient.toFixed(9))]),
    [
      ["", 1],
      ["x(d)", 0.3],
    ],
  );
});
