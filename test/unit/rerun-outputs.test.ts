// The "Re-run with…" table's rows (src/report/rerun.ts outputsOf): a model method's run stopped early
// holds its trained outputs in `models` and no equation for them; Stop showed "—" for each (issue 59, row 4).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRegistries, resolvePipelineConfig, runModule } from "../../src/lib/index.js";
import { outputsOf } from "../../src/report/rerun.js";

test("a stopped EQL run's trained output is a row of the table, with its expression and NRMSEs", async () => {
  const registries = createRegistries();
  const config = resolvePipelineConfig({ experiment: "syn2", seed: 0, method: "eql" }, registries);
  const stop = new AbortController();
  // Stopped inside its first output's training: after its fifth epoch.
  let steps = 0;
  const onTraining = () => {
    if (++steps === 5) stop.abort();
  };
  const result = await runModule(config, { backend: "cpu", registries, signal: stop.signal, hooks: { onTraining } });
  assert.equal(result.search?.stopReason, "aborted");
  const model = result.models?.find((m) => m.target === "y1");
  assert.ok(model, "the stopped run holds no y1 model");
  const rows = outputsOf(result);
  const y1 = rows.find((r) => r.target === "y1");
  assert.ok(y1, `no y1 row: ${JSON.stringify(rows)}`);
  assert.ok(y1.text.length > 0 && y1.text !== "—");
  assert.equal(y1.trainNrmse, model.trainNrmse);
  assert.ok(Number.isFinite(y1.testNrmse), "no test NRMSE");
  // A finished search's rows are its equations', as before.
  const searched = outputsOf({ equations: [{ target: "y", text: "2*x1", trainNrmse: 0 }] });
  assert.deepEqual(
    searched.map((r) => [r.target, r.text, r.trainNrmse]),
    [["y", "2*x1", 0]],
  );
});
