/**
 * Merged powers and cancelled factors (plugins/powers.ts, simplifyEquation): factors of one
 * input whose symbols are powers multiply into one factor, in the text, the LaTeX and `terms`,
 * and the complexity the answer rule sees is the merged one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  equationLatex,
  equationText,
  parseForm,
  simplifyEquation,
  type Equation,
  type Factor,
} from "../../src/lib/equation/index.js";
import { structureOfEquations } from "../../src/lib/local/extract.js";
import { powerComplexity } from "../../src/lib/plugins/powers.js";
import { complexityOf } from "../../src/lib/search/evaluator.js";
import { fitForm } from "../../src/lib/run/fitForm.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import type { Dataset } from "../../src/lib/data/dataset.js";

const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);
const inputs = ["q", "c", "a", "b", "alpha", "beta", "x2"];
const order = { symbols: lookup, inputOrder: inputs, symbolOrder: registry.names() };
const F = (symbol: string, input: string, weight?: number): Factor =>
  weight === undefined ? { symbol, input } : { symbol, input, weight };
const one = (factors: Factor[], coefficient = 2): Equation =>
  simplifyEquation({ target: "y", terms: [{ coefficient, factors }] }, order);

test("q·q³ → q^4, c⁻¹·c⁻² → c^(-3), x2⁻²·x2³ → x2, in text, LaTeX and terms", () => {
  const cases: [Factor[], string, string, string][] = [
    [[F("x", "q"), F("x^3", "q")], "2*q^4", "2 q^{4}", "x^4"],
    [[F("x^-1", "c"), F("x^-2", "c")], "2*c^(-3)", "2 c^{-3}", "x^-3"],
    [[F("x^-2", "x2"), F("x^3", "x2")], "2*x2", "2 x_{2}", "x"],
    [[F("x^2", "q"), F("x^-1", "q")], "2*q", "2 q", "x"],
    [[F("x", "q"), F("x^2", "q")], "2*q^3", "2 q^{3}", "x^3"],
  ];
  for (const [factors, text, latex, symbol] of cases) {
    const e = one(factors);
    assert.equal(equationText(e, lookup), text);
    assert.equal(equationLatex(e, lookup), latex);
    assert.deepEqual(e.terms[0]!.factors, [{ symbol, input: factors[0]!.input }]);
  }
});

test("√c·c⁻¹ → c^(-1/2) beside √a·√b (sqrt's weight folded first: √(4c) = 2√c)", () => {
  const e = one([F("sqrt", "a", 1), F("sqrt", "b", 1), F("sqrt", "c", 4), F("x^-1", "c")]);
  assert.equal(equationText(e, lookup), "4*c^(-1/2)*sqrt(a)*sqrt(b)");
  assert.equal(equationLatex(e, lookup), "4 c^{-1/2} \\sqrt{a} \\sqrt{b}");
});

test("α·α⁻¹ cancels: β·α·α⁻¹ is β, and q·q⁻¹ alone leaves the number", () => {
  const e = one([F("x", "beta"), F("x", "alpha"), F("x^-1", "alpha")], 1);
  assert.equal(equationText(e, lookup), "beta");
  assert.deepEqual(e.terms[0]!.factors, [{ symbol: "x", input: "beta" }]);
  const alone = one([F("x", "q"), F("x^-1", "q")], 5);
  assert.deepEqual(alone.terms, [{ coefficient: 5, factors: [] }]);
  assert.equal(equationText(alone, lookup), "5");
});

test("a merged power never costs more than its parts, so a cancelling pair never beats the plain form", () => {
  for (const [a, b] of [
    ["x", "x^3"],
    ["x^-1", "x^-2"],
    ["sqrt", "x^-1"],
    ["x^-2", "x^3"],
    ["x^2", "x^-2"],
    ["x", "x^-1"],
    ["sqrt", "x^3"],
  ] as const) {
    const parts = registry.get(a).complexity + registry.get(b).complexity;
    const merged = one([F(a, "q", a === "sqrt" ? 1 : undefined), F(b, "q")], 1);
    assert.ok(merged.terms[0]!.factors.length <= 1, `${a}·${b} did not merge`);
    assert.ok(
      complexityOf(merged, registry) <= 1 + parts,
      `${a}·${b}: ${complexityOf(merged, registry)} > ${1 + parts}`,
    );
  }
  // The rule reproduces the built-ins' own costs.
  for (const s of registry.values().filter((s) => s.power !== undefined))
    assert.equal(powerComplexity(s.power!), s.complexity, s.name);
});

test("a merged power reads back: parseForm knows q^4, c^(-3) and c^(-1/2), and fitForm fits them", () => {
  const [eq] = parseForm("y = q^4 + c^(-3)*a + c^(-1/2)", {
    symbols: registry.values(),
    inputs: ["q", "c", "a"],
    targets: ["y"],
  });
  assert.deepEqual(
    eq!.terms.map((t) => t.factors.map((f) => f.symbol)),
    [["x^4"], ["x^-3", "x"], ["x^-1/2"]],
  );
  const structure = structureOfEquations([eq!], ["q", "c", "a"], registry.names());
  assert.deepEqual(structure.symbols, ["x", "x^4", "x^-3", "x^-1/2"]);
  const rows = 40;
  const q = Float64Array.from({ length: rows }, (_, i) => 1 + i / rows);
  const c = Float64Array.from({ length: rows }, (_, i) => 1 + ((i * 7) % rows) / rows);
  const a = Float64Array.from({ length: rows }, (_, i) => 1 + ((i * 11) % rows) / rows);
  const y = Float64Array.from(
    { length: rows },
    (_, i) => 1.5 * q[i]! ** 4 - (0.5 * a[i]!) / c[i]! ** 3 + 2 / Math.sqrt(c[i]!),
  );
  const data: Dataset = { inputs: ["q", "c", "a"], targets: ["y"], rows, x: [q, c, a], y: [y] };
  const { equations } = fitForm(data, "y = q^4 + c^(-3)*a + c^(-1/2)", { symbols: registry, engine: "js" });
  assert.equal(equations[0]!.text, "1.5*q^4 - 0.5*c^(-3)*a + 2*c^(-1/2)");
  assert.ok(equations[0]!.trainNrmse < 1e-9, String(equations[0]!.trainNrmse));
});
