import { test } from "node:test";
import assert from "node:assert/strict";
import {
  parseForm,
  simplifyEquation,
  equationText,
  equationLatex,
  formatNumber,
  type Equation,
} from "../../src/lib/equation/index.js";
import { structureOfEquations, equationsOfLocal } from "../../src/lib/local/extract.js";
import { exactRecovery, coefficientError } from "../../src/lib/metrics/index.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { toMasks, fromMasks, structureKey } from "../../src/lib/local/structure.js";
import { InputError } from "../../src/lib/core/errors.js";
import { datasetFromTable } from "../../src/lib/data/csv.js";
import { flagMessage } from "../../src/cli/program.js";
import { experimentData, experiments } from "../../src/lib/data/index.js";
import { createRng } from "../../src/lib/core/rng.js";

const registry = createSymbolRegistry();
const symbols = registry.values();
const lookup = (name: string) => registry.get(name);
const inputs = ["x1", "x2", "x3"];
const order = { symbols: lookup, inputOrder: inputs, symbolOrder: registry.names() };
const columns = (() => {
  const x = inputs.map((_, k) => Float64Array.from({ length: 50 }, (_, i) => 1 + ((i * (k + 3)) % 50) / 50));
  return (name: string) => x[inputs.indexOf(name)]!;
})();

test("parseForm reads products of symbols, ignoring numbers", () => {
  const [eq1, eq2] = parseForm("y1 = 3*x1^2*cos(2.5*x2); y2 = x1*x3 + sqrt(x3)", {
    symbols,
    inputs,
    targets: ["y1", "y2"],
  });
  assert.deepEqual(eq1, {
    target: "y1",
    terms: [
      {
        coefficient: 1,
        factors: [
          { symbol: "x^2", input: "x1" },
          { symbol: "cos", input: "x2" },
        ],
      },
    ],
  });
  assert.deepEqual(
    eq2!.terms.map((t) => t.factors.map((f) => `${f.symbol}(${f.input})`).join("*")),
    ["x(x1)*x(x3)", "sqrt(x3)"],
  );
});

test("parseForm names an unknown symbol, an unknown column and a repeated factor", () => {
  const opts = { symbols, inputs, targets: ["y"] };
  assert.throws(() => parseForm("y = tanh(x1)", opts), /unknown symbol "tanh"/);
  assert.throws(() => parseForm("y = x9^2", opts), /unknown column "x9"/);
  assert.throws(() => parseForm("y = cos(x7)", opts), /unknown column "x7"/);
  assert.throws(() => parseForm("y = x1*x1", opts), /repeats a factor/);
  assert.throws(() => parseForm("z = x1", opts), /unknown target column "z"/);
  assert.throws(() => parseForm("y = x1/x2", opts), /"\/" is not a LoCaL operation/);
  assert.throws(() => parseForm("y = 3 + x1 - 2", opts), /two constant terms/);
  // A term of numbers alone is the additive constant.
  assert.deepEqual(parseForm("y = 3 + x1", opts)[0]!.terms, [
    { coefficient: 1, factors: [] },
    { coefficient: 1, factors: [{ symbol: "x", input: "x1" }] },
  ]);
});

test("a form's structure shares equal products between outputs and round-trips through the masks", () => {
  const eqs = parseForm("y1 = x1*x3 + x2^2; y2 = x3*x1", { symbols, inputs, targets: ["y1", "y2"] });
  const s = structureOfEquations(eqs, inputs, registry.names());
  assert.equal(s.products.length, 2);
  assert.deepEqual(s.sums, [[0, 1], [0]]);
  const { z1, z2 } = toMasks(s);
  assert.equal(z1.length, inputs.length * s.symbols.length);
  assert.equal(structureKey(fromMasks(s, z1, z2)), structureKey(s));
});

test("simplify folds identifiable scales, symmetries and constant factors", () => {
  const raw: Equation = {
    target: "y",
    terms: [
      {
        coefficient: 1,
        factors: [
          { symbol: "x", input: "x2" },
          { symbol: "sqrt", input: "x1", weight: 2.2 },
        ],
      },
      { coefficient: 2, factors: [{ symbol: "sin", input: "x1", weight: -1.8 }] },
      {
        coefficient: 3,
        factors: [
          { symbol: "x^2", input: "x3" },
          { symbol: "cos", input: "x1", weight: 1e-6 },
        ],
      },
      { coefficient: 1e-12, factors: [{ symbol: "x", input: "x1" }] },
    ],
  };
  const clean = simplifyEquation(raw, { ...order, columns, rows: 50 });
  assert.equal(equationText(clean, lookup), "1.483*sqrt(x1)*x2 - 2*sin(1.8*x1) + 3*x3^2");
  assert.equal(
    equationLatex(clean, lookup),
    "1.483 \\sqrt{x_{1}} x_{2} - 2 \\sin\\left(1.8 x_{1}\\right) + 3 x_{3}^{2}",
  );
});

test("simplify merges equal terms", () => {
  const raw: Equation = {
    target: "y",
    terms: [1.5, 2].map((c) => ({ coefficient: c, factors: [{ symbol: "x", input: "x1" }] })),
  };
  assert.equal(equationText(simplifyEquation(raw, order), lookup), "3.5*x1");
});

test("formatNumber keeps 4 significant digits and drops trailing zeros", () => {
  assert.deepEqual(
    [2.99999987, 2.5, 1.48324, -0.000012345, 0].map((v) => formatNumber(v)),
    ["3", "2.5", "1.483", "-0.00001234", "0"],
  );
});

test("extraction reads W2 and inner weights back into terms", () => {
  const eqs = parseForm("y = x1^2*cos(x2)", { symbols, inputs, targets: ["y"] });
  const s = structureOfEquations(eqs, inputs, registry.names());
  const inner = new Array(inputs.length * s.symbols.length).fill(1);
  inner[1 * s.symbols.length + s.symbols.indexOf("cos")] = -2.5;
  const [eq] = equationsOfLocal(s, { inner, w2: [[3]] }, lookup);
  assert.equal(equationText(simplifyEquation(eq!, order), lookup), "3*x1^2*cos(2.5*x2)");
});

test("exact recovery needs the same terms and every coefficient within 1 %", () => {
  const truth: Equation = {
    target: "y",
    terms: [
      {
        coefficient: 3,
        factors: [
          { symbol: "x^2", input: "x1" },
          { symbol: "cos", input: "x2", weight: 2.5 },
        ],
      },
    ],
  };
  const withWeight = (c: number, w: number): Equation => ({
    target: "y",
    terms: [
      {
        coefficient: c,
        factors: [
          { symbol: "x^2", input: "x1" },
          { symbol: "cos", input: "x2", weight: w },
        ],
      },
    ],
  });
  assert.equal(exactRecovery(truth, withWeight(3.02, 2.51), lookup).exact, true);
  assert.match(exactRecovery(truth, withWeight(3.05, 2.5), lookup).reason, /off by 1.67 %/);
  assert.match(exactRecovery(truth, withWeight(3, 2.6), lookup).reason, /off by 4/);
  const extra: Equation = {
    target: "y",
    terms: [...withWeight(3, 2.5).terms, { coefficient: 0.1, factors: [{ symbol: "x", input: "x3" }] }],
  };
  assert.match(exactRecovery(truth, extra, lookup).reason, /1 extra term/);
  assert.match(exactRecovery(truth, { target: "y", terms: [] }, lookup).reason, /1 true term\(s\) missing/);
  assert.equal(coefficientError(truth, { target: "y", terms: [] }, lookup), 100);
  assert.ok(
    Math.abs(coefficientError(truth, withWeight(3.3, 2.5), lookup) - 5) < 1e-9,
    "E_c averages the term coefficient and the cos weight",
  );
});

test("a form's and a table's errors name the library's field; the CLI says the flag instead", () => {
  const opts = { symbols, inputs, targets: ["y"] };
  const named = (field: string) => (error: unknown) =>
    error instanceof InputError && error.field === field && error.message.startsWith(`${field}: `);
  assert.throws(() => parseForm("y = x1/x2", opts), named("form"));
  assert.throws(() => parseForm("y = tanh(x1)", opts), named("form"));
  const table = { columns: ["a", "b"], values: [Float64Array.of(1, 2), Float64Array.of(3, 4)], rows: 2 };
  assert.throws(() => datasetFromTable(table, ["b", "b"]), named("targets"));
  assert.throws(() => datasetFromTable(table, ["b"], ["a", "a"]), named("inputs"));
  assert.equal(flagMessage(new InputError("form: empty term", { field: "form" })), "--form: empty term");
  assert.equal(flagMessage(new InputError("targets: required", { field: "targets" })), "--target: required");
  assert.equal(
    flagMessage(new InputError("plugin file p.js: no default export")),
    "plugin file p.js: no default export",
  );
});

test("options a library message names in backquotes become the CLI's flags; other backquoted text stays", () => {
  const symbolRegistry = createSymbolRegistry();
  // The library's own words, from a real check: pow's training year holds 8760 rows.
  const tooMany = (() => {
    try {
      experimentData(experiments.pow!, { rows: 9000, rng: createRng(0), symbols: (name) => symbolRegistry.get(name) });
    } catch (error) {
      return error;
    }
  })();
  assert.ok(tooMany instanceof InputError);
  assert.match(tooMany.message, /^pow: `rows` 9000 is more than .*; give `rows` 8760 or fewer$/);
  assert.doesNotMatch(tooMany.message, /--/);
  assert.equal(
    flagMessage(tooMany),
    "pow: --rows 9000 is more than the training year's 8760 hourly points; give --rows 8760 or fewer",
  );
  // Table settings map through their flags (maxFactors → --max-factors, learningRate → --lr).
  assert.equal(
    flagMessage(new InputError("loosen `maxFactors`/`terms`, or lower `learningRate`")),
    "loosen --max-factors/--terms, or lower --lr",
  );
  assert.equal(flagMessage(new InputError("a `tanh` factor and `text(x)`")), "a `tanh` factor and `text(x)`");
});
