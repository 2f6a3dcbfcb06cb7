/**
 * A periodic factor faster than the rows can show is no law (issue 56: a 30 dB CSV answered with
 * cos(897·a) at the noise floor): aliasedFactor names it, and the evaluator gives it no score.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng } from "../../src/lib/core/index.js";
import { createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { createRewardRegistry } from "../../src/lib/plugins/builtin.js";
import { aliasedFactor, createEvaluator } from "../../src/lib/search/evaluator.js";
import type { Equation } from "../../src/lib/equation/index.js";

const rng = createRng(5);
const a = Float64Array.from({ length: 800 }, () => 10 * rng.next());
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const columns = () => a;
const cosOf = (weight: number): Equation => ({
  target: "y",
  terms: [{ coefficient: 1, factors: [{ symbol: "cos", input: "a", weight }] }],
});

test("a cosine past two samples per period is aliased; one below is a law's", () => {
  // 800 rows over [0, 10]: a spacing of about 0.0125, a limit of about 2π / 0.025 ≈ 251.
  assert.equal(aliasedFactor(cosOf(897), lookup, columns), "cos(897*a)");
  assert.equal(aliasedFactor(cosOf(-897), lookup, columns), "cos(-897*a)");
  assert.equal(aliasedFactor(cosOf(100), lookup, columns), undefined);
  assert.equal(aliasedFactor(cosOf(2.5), lookup, columns), undefined);
  // exp has no period: any weight is judged by the fit alone.
  const exp: Equation = {
    target: "y",
    terms: [{ coefficient: 1, factors: [{ symbol: "exp", input: "a", weight: -900 }] }],
  };
  assert.equal(aliasedFactor(exp, lookup, columns), undefined);
});

test("the evaluator scores no structure fitted with an aliased weight, and keeps one below the limit", () => {
  const reward = createRewardRegistry().get("inv-nrmse");
  const pool = symbols.names();
  const cos = pool.indexOf("cos");
  const structure = { inputs: ["a"], symbols: pool, outputs: ["y"], products: [[cos]], sums: [[0]] };
  const fitted = (w: number) => {
    // y = cos(w·a) on the rows, the fit started at w: it stays at the exact fit.
    const y = a.map((v) => Math.cos(w * v));
    const data = { inputs: ["a"], targets: ["y"], x: [a], y: [y], rows: a.length };
    const evaluator = createEvaluator(data, "y", symbols, reward, { engine: "js", steps: 20, learningRate: 0.01 });
    evaluator.hint(structure, new Map([[cos, w]]));
    return evaluator.evaluate(structure).candidate;
  };
  const fast = fitted(897);
  assert.ok(Math.abs(fast.equation.terms[0]!.factors[0]!.weight! - 897) < 1e-3, "the fit stayed at 897");
  assert.equal(fast.nrmse, Number.POSITIVE_INFINITY);
  const slow = fitted(100);
  assert.ok(slow.nrmse < 1e-6, `cos(100·a) fits: ${slow.nrmse}`);
});
