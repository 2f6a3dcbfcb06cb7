/**
 * The conformance battery every row of the method table (src/lib/search/methods.ts) passes, on a
 * tiny problem so that it stays fast: a new method is a row there, and forgetting one of the
 * contracts a run owes its caller fails here, not in a user's hands.
 *
 * - determinism: one seed gives byte-identical result JSON;
 * - the result JSON validates against the result schema and parses back;
 * - its manifest round trip: `reproduce`'s reading of the manifest (configFromManifest) records
 *   the same manifest.config again (a setting recorded that does not read back as it was fails;
 *   what a method records is its settings table rows' `readBy`, core/settings.ts);
 * - budget and episodes respected: a structure search's targets stop within `episodes` and
 *   `budget`; a model's training within `epochs` (each phase's) and `budget` (samples);
 * - abort: a signal aborted during the run stops it with stopReason "aborted" and a valid result.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  configFromManifest,
  createRng,
  fit,
  METHOD_NAMES,
  METHODS,
  parseResult,
  resultSchemaProblems,
  resultToJson,
  SETTINGS,
  type FitArraysOptions,
  type SearchMethod,
  type SettingRow,
} from "../../src/lib/index.js";
import { manifestConfig } from "../../src/lib/run/index.js";

/** 40 seeded rows of y = sin(3·x1)·exp(x2) + x1: no short sum of x-products fits it, so runs reach their caps. */
const rng = createRng(7);
const X = Array.from({ length: 40 }, () => [rng.uniform(0.5, 2), rng.uniform(-1, 1)]);
const y = X.map(([a, b]) => Math.sin(3 * a!) * Math.exp(b!) + a!);

/** Small caps per kind of method: a few episodes and structures, or a few epochs and samples. */
const CAPS = {
  "structure-search": { episodes: 3, budget: 5 },
  model: { epochs: 3, hidden: [4], budget: 60, batch: 20 },
};

const options = (method: SearchMethod, extra: { signal?: AbortSignal } = {}): FitArraysOptions => ({
  X,
  y,
  method,
  seed: 3,
  ...(METHODS[method].kind === "structure-search" ? { symbols: ["x"] } : {}),
  search: { ...CAPS[METHODS[method].kind] },
  ...extra,
});

type Training = { epochs?: number; samples?: number; phases?: { epochs: number }[] };

test("every name in the settings table's readBy is a method, and every method reads some setting", () => {
  const readers = (Object.values(SETTINGS) as SettingRow[]).flatMap((row) => row.readBy ?? []);
  assert.deepEqual(
    readers.filter((name) => !(METHOD_NAMES as string[]).includes(name)),
    [],
  );
  for (const method of METHOD_NAMES) assert.ok(METHODS[method].uses.length > 0, `${method} reads no setting`);
});

for (const method of METHOD_NAMES) {
  describe(`method ${method} (${METHODS[method].kind})`, () => {
    let first = "";
    test("one seed gives byte-identical result JSON", async () => {
      first = resultToJson(await fit(options(method)));
      assert.equal(resultToJson(await fit(options(method))), first);
    });

    test("its JSON validates against the result schema, parses back and round-trips its manifest", () => {
      const json = JSON.parse(first);
      assert.deepEqual(resultSchemaProblems(json), []);
      const parsed = parseResult(first, "result.json");
      assert.equal(parsed.search.method, method);
      assert.deepEqual(manifestConfig(configFromManifest(parsed)), { ...json.manifest.config });
    });

    test("it stops within its episodes and budget (a model: its epochs and samples)", () => {
      const json = JSON.parse(first);
      if (METHODS[method].kind === "structure-search") {
        const caps = CAPS["structure-search"];
        assert.ok(json.search.targets.length > 0);
        for (const target of json.search.targets) {
          assert.ok(target.episodes <= caps.episodes, `${target.episodes} episodes, cap ${caps.episodes}`);
          assert.ok(target.structures <= caps.budget, `${target.structures} structures, budget ${caps.budget}`);
        }
        return;
      }
      const caps = CAPS.model;
      assert.ok(json.models.length > 0);
      for (const { training } of json.models as { training: Training }[]) {
        for (const epochs of [training.epochs, ...(training.phases ?? []).map((p) => p.epochs)])
          if (epochs !== undefined) assert.ok(epochs <= caps.epochs, `${epochs} epochs, cap ${caps.epochs}`);
        if (training.samples !== undefined) assert.ok(training.samples <= caps.budget, `${training.samples} samples`);
      }
    });

    // (DSR and VPG, aborted before their first sample, threw "no expression with a finite train NRMSE"
    // where their first sample did not fit: they now sample on until one does, as the search answers.)
    test("an aborted signal stops it: stopReason aborted, a valid result", async () => {
      // Aborted once the call has begun (a signal aborted before it rejects at once: fit-arrays tests that).
      const controller = new AbortController();
      const pending = fit(options(method, { signal: controller.signal }));
      controller.abort();
      const result = await pending;
      assert.equal(result.search.stopReason, "aborted");
      assert.deepEqual(resultSchemaProblems(JSON.parse(resultToJson(result))), []);
    });
  });
}
