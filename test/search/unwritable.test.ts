/**
 * A law the pool cannot write is said so (issue 55's follow-up): y = 2·u² + 3·u·w + w is an exact
 * polynomial, but with the pool {x} a product cannot hold u twice, so no answer is exact; the result
 * names the monomial the pool misses (`search.targets[].unwritable`), and with x² in the pool it is
 * found and nothing is said.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, fit } from "../../src/lib/index.js";

const rng = createRng(5);
const X = Array.from({ length: 300 }, () => [rng.uniform(1, 2), rng.uniform(0.5, 3)]);
const y = X.map(([u, w]) => 2 * u! * u! + 3 * u! * w! + w!);

test("a clean law the pool {x} cannot write names its unwritable monomial", async () => {
  const result = await fit({ X, y, names: ["u", "w"], seed: 0, symbols: ["x"], timeLimit: 4 });
  assert.deepEqual(result.search.targets?.[0]?.unwritable, ["u^2"]);
  const written = await fit({ X, y, names: ["u", "w"], seed: 0, symbols: ["x", "x^2"] });
  assert.equal(written.equations[0]!.text, "3*u*w + 2*u^2 + w");
  assert.equal(written.search.targets?.[0]?.unwritable, undefined);
});
