/**
 * GOLDEN TEST. Re-runs committed searches (syn1 seed 0 through the pipeline, `--method paper`,
 * eleven cheap jobs of the search benchmark, two noisy ones with a new user's defaults, and five
 * laws of the beyond family (outer functions, a ratio, monomials) through fit()) and checks that
 * every decision is unchanged, to the last bit: equations, episodes, structures, stop reasons, every episode's reward.
 * A refactor must keep this green. A change of search behaviour made on purpose re-baselines it
 * with `npm run golden -- --update`, in its own commit that says why.
 */
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import { goldenRuns } from "../golden/runs.js";

const committed = JSON.parse(readFileSync(new URL("../golden/search.json", import.meta.url), "utf8")) as Record<
  string,
  unknown
>;

await useBackend("cpu");
const fresh = await goldenRuns();

test("golden: the same runs as the committed baseline", () => {
  assert.deepEqual(Object.keys(fresh).sort(), Object.keys(committed).sort());
});

for (const [name, record] of Object.entries(committed)) {
  test(`golden: ${name} decides exactly as committed`, () => {
    assert.equal(
      JSON.stringify(fresh[name]),
      JSON.stringify(record),
      `${name} changed; if on purpose, re-baseline with npm run golden -- --update`,
    );
  });
}
