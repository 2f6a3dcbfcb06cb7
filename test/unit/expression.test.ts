/**
 * Expressions (src/lib/equation/expression.ts, docs/design.md#expression): laws that are no LoCaL as
 * a tree of operators, inputs and constants — evaluated, written as text and LaTeX, counted, checked
 * when read from a file, and made from an equation with its outer function and denominator.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import katex from "katex";
import {
  checkExpression,
  equationExpression,
  evaluateExpression,
  expressionComplexity,
  expressionInputs,
  expressionLatex,
  expressionText,
  substituteInputs,
  type Expression,
} from "../../src/lib/equation/index.js";
import { evaluateEquation, equationText } from "../../src/lib/equation/index.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const columns = { a: [0.5, 1, 2], b: [2, 3, 5], c: [1, 0.5, 0.25], d: [1.5, 2, 2.5] } as Record<string, number[]>;
const column = (name: string) => columns[name]!;

const distance: Expression = ["sqrt", ["+", ["^", ["-", "a", "b"], 2], ["^", ["-", "c", "d"], 2]]];

test("an expression is evaluated in float64 on named columns", () => {
  const values = evaluateExpression(distance, lookup, column, 3);
  for (let r = 0; r < 3; r++) {
    const { a, b, c, d } = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, v[r]!]));
    assert.equal(values[r], Math.sqrt((a! - b!) ** 2 + (c! - d!) ** 2));
  }
  const planck: Expression = ["/", ["*", 1.5, "a", ["^", "b", 3]], ["-", ["exp", ["/", "b", "c"]], 1]];
  const v = evaluateExpression(planck, lookup, column, 3);
  assert.ok(Math.abs(v[0]! - (1.5 * 0.5 * 8) / (Math.exp(2) - 1)) < 1e-12);
  // A negative base under an integer power stays real.
  assert.deepEqual([...evaluateExpression(["^", ["neg", "a"], 3], lookup, column, 1)], [-0.125]);
});

test("text and LaTeX bracket what binds less tightly, and read as the law", () => {
  assert.equal(expressionText(distance, lookup), "sqrt((a - b)^2 + (c - d)^2)");
  assert.equal(expressionLatex(distance, lookup), "\\sqrt{\\left(a - b\\right)^{2} + \\left(c - d\\right)^{2}}");
  assert.equal(expressionText(["*", 0.5, "a", ["^", ["-", "b", "c"], 2]], lookup), "0.5*a*(b - c)^2");
  assert.equal(expressionText(["/", ["*", 9, "a", "b"], ["^", ["-", "c", "d"], 2]], lookup), "9*a*b/(c - d)^2");
  assert.equal(expressionText(["/", "a", ["*", "b", "c"]], lookup), "a/(b*c)");
  assert.equal(expressionText(["/", ["+", "a", "b"], "c"], lookup), "(a + b)/c");
  assert.equal(expressionText(["+", "a", ["*", -3, "b"]], lookup), "a - 3*b");
  assert.equal(expressionText(["-", "a", ["+", "b", "c"]], lookup), "a - (b + c)");
  assert.equal(expressionText(["exp", ["neg", ["/", ["^", ["-", "b", "c"], 2], "d"]]], lookup), "exp(-(b - c)^2/d)");
  assert.equal(expressionLatex(["/", "a", ["-", "b", 1]], lookup), "\\frac{a}{b - 1}");
});

test("complexity counts nodes; the fitted constants are the parameters, an exponent is structure", () => {
  assert.deepEqual(expressionComplexity(distance), { nodes: 12, parameters: 0 });
  assert.deepEqual(expressionComplexity(["*", 0.5, "a", ["^", ["-", "b", "c"], 2]]), { nodes: 8, parameters: 1 });
  assert.deepEqual(expressionInputs(distance), ["a", "b", "c", "d"]);
});

test("a file's expression is checked: operators, arities, symbols and inputs, each a one-line error", () => {
  const known = (name: string) => symbols.has(name);
  checkExpression(distance, "e", known, ["a", "b", "c", "d"]);
  assert.throws(() => checkExpression(["-", "a"], "e", known), /e: "-" takes two arguments, not 1/);
  assert.throws(() => checkExpression(["frob", "a"], "e", known), /e: "frob" is neither an operator/);
  assert.throws(
    () => checkExpression(["+", "a", "z"], "e", known, ["a"]),
    /e\[2\]: "z" is not among the result's inputs/,
  );
  assert.throws(() => checkExpression(["+", "a", null], "e", known), /e\[2\]: a node is a number/);
  assert.throws(() => checkExpression(Number.POSITIVE_INFINITY, "e", known), /not finite/);
});

test("an equation as an expression: the same values through its outer function and denominator", () => {
  const equation = {
    target: "y",
    terms: [
      { coefficient: 2, factors: [{ symbol: "x^2", input: "a" }] },
      { coefficient: 1, factors: [{ symbol: "sin", input: "b", weight: 1.5 }] },
      { coefficient: 0.5, factors: [] },
    ],
    denominator: [
      { coefficient: 1, factors: [{ symbol: "x", input: "c" }] },
      { coefficient: 1, factors: [] },
    ],
    outer: "sqrt",
  };
  const tree = equationExpression(equation, lookup);
  const direct = evaluateEquation(equation, lookup, column, 3);
  const viaTree = evaluateExpression(tree, lookup, column, 3);
  for (let r = 0; r < 3; r++) assert.ok(Math.abs(direct[r]! - viaTree[r]!) < 1e-12 * Math.abs(direct[r]!));
  // An equation that carries an expression is printed and evaluated by it.
  const carried = {
    target: "y",
    terms: [],
    expression: substituteInputs(["*", 2, "u"], (n) => (n === "u" ? ["-", "b", "c"] : undefined)),
  };
  assert.equal(equationText(carried, lookup), "2*(b - c)");
  assert.deepEqual([...evaluateEquation(carried, lookup, column, 3)], [2, 5, 9.5]);
});

test("KaTeX renders the LaTeX of expressions (a root of squared differences, a Planck-like ratio)", () => {
  const planck: Expression = ["/", ["*", 1.5, "a", ["^", "b", 3]], ["-", ["exp", ["/", "b", "c"]], 1]];
  const gauss: Expression = ["*", 2, "a", ["exp", ["neg", ["/", ["^", ["-", "b", "c"], 2], "d"]]]];
  for (const e of [distance, planck, gauss, ["log", ["+", 1, ["/", "b", "c"]]] as Expression]) {
    const latex = expressionLatex(e, lookup);
    assert.doesNotThrow(() => katex.renderToString(latex, { throwOnError: true }), latex);
  }
});
