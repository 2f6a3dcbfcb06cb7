/**
 * Under noise nobody announces, a polynomial that only imitates the law is no answer (issue 55's
 * noise-suite loss): the polynomial question's Taylor sum of 2·sin(x)·cos(y) reaches the noise
 * floor at 1 % noise, and before the split test it ended the search there (x − x·y² − x³/3 + …).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, fit } from "../../src/lib/index.js";

test("a Taylor sum at the noise floor does not end the search: 2·sin(x)·cos(y) at 1 % noise", async () => {
  const rng = createRng(3);
  const X = Array.from({ length: 500 }, () => [rng.next(), rng.next()]);
  const clean = X.map(([a, b]) => 2 * Math.sin(a!) * Math.cos(b!));
  const mean = clean.reduce((s, v) => s + v, 0) / clean.length;
  const sd = Math.sqrt(clean.reduce((s, v) => s + (v - mean) ** 2, 0) / clean.length);
  const y = clean.map((v) => v + 0.01 * sd * rng.normal());
  const result = await fit({ X, y, names: ["x1", "x2"], seed: 0, symbols: ["sin", "cos", "x", "x^2"] });
  const answer = result.equations[0]!.text;
  assert.match(answer, /^[\d.]+\*sin\([\d.]*\*?x1\)\*cos\([\d.]*\*?x2\)$/, answer);
  assert.equal(result.search.targets?.[0]?.stopReason, "noise-floor");
});
