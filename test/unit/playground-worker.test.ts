// The page side of the site's search worker (src/report/searchClient.ts, playground.ts): the
// calibration kept per browser under the library's version and the site's build (a second visit
// measures nothing), the calibration cut at its budget, the progress line every form writes, and the
// download's file name. The worker itself runs in Chromium (test/browser/playground.test.ts).
import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import type { CalibrationEntry, ResultJson } from "../../src/lib/index.js";
import { Calibrator, resolveEngine, resultFilename } from "../../site/components/playground.js";
import { partialCalibration, type CalibrationOutcome } from "../../src/report/index.js";
import { progressLine } from "../../src/report/index.js";

/** A Storage of the browser's shape, in memory. */
class MemoryStorage {
  private values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
  get keys() {
    return [...this.values.keys()];
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const js: CalibrationEntry = { engine: "js", backend: "js", seconds: 0.015, warmup: 0.05 };
const cpu: CalibrationEntry = { engine: "tfjs", backend: "cpu", seconds: 0.12, warmup: 0.17 };

/** A measurement that counts its calls and reports two engines. */
function fakeMeasure() {
  const calls = { count: 0 };
  const measure = async (onEntry: (entry: CalibrationEntry) => void): Promise<CalibrationOutcome> => {
    calls.count++;
    onEntry(js);
    onEntry(cpu);
    return {
      calibration: partialCalibration([js, cpu], ["cpu", "wasm", "webgl"], { budgetMs: 2000 }),
      seconds: 2.4,
      unmeasured: 2,
    };
  };
  return { calls, measure };
}

test("a calibration is measured once per browser, version and build; another version measures again", async () => {
  const first = fakeMeasure();
  const visit1 = new Calibrator("consolesr:calibration:0.1.0:abc", first.measure);
  assert.equal(visit1.known(), null, "nothing known before a measurement");
  assert.equal(visit1.state.status, "idle");
  const measured = await visit1.get();
  await visit1.get();
  assert.equal(first.calls.count, 1);
  assert.deepEqual(measured?.choice, { engine: "js", backend: "cpu" });
  assert.deepEqual(storage.keys, ["consolesr:calibration:0.1.0:abc"]);

  const second = fakeMeasure();
  const visit2 = new Calibrator("consolesr:calibration:0.1.0:abc", second.measure);
  assert.equal(visit2.state.status, "done");
  assert.equal(visit2.state.cached, true);
  assert.deepEqual(visit2.known()?.choice, { engine: "js", backend: "cpu" });
  await visit2.get();
  assert.equal(second.calls.count, 0, "a second visit does not measure");
  assert.equal(resolveEngine("auto", "auto", visit2.known()).why, "auto: js measured fastest");

  const upgraded = fakeMeasure();
  const visit3 = new Calibrator("consolesr:calibration:0.2.0:def", upgraded.measure);
  assert.equal(visit3.known(), null);
  await visit3.get();
  assert.equal(upgraded.calls.count, 1, "a new library version measures again");
});

test("a stored value that is not a calibration is ignored, and no cache key means no storage", async () => {
  storage.setItem("k", "{not json");
  assert.equal(new Calibrator("k", fakeMeasure().measure).known(), null);
  const none = fakeMeasure();
  await new Calibrator(null, none.measure).get();
  assert.equal(none.calls.count, 1);
  assert.deepEqual(storage.keys, ["k"]);
});

test("until it has measured, auto runs on js and says so", () => {
  const resolved = resolveEngine("auto", "auto", null);
  assert.equal(resolved.engine, "js");
  assert.match(resolved.why, /not measured yet/);
});

test("the calibration cut at its budget lists what it did not measure and picks among the rest", () => {
  const c = partialCalibration([js, { ...cpu, seconds: 0.005 }], ["cpu", "wasm", "webgl"], { budgetMs: 2000 });
  assert.deepEqual(
    c.entries.map((e) => [e.backend, e.seconds === null ? e.error : "measured"]),
    [
      ["js", "measured"],
      ["cpu", "measured"],
      ["wasm", "not measured within the 2 s budget"],
      ["webgl", "not measured within the 2 s budget"],
    ],
  );
  assert.deepEqual(c.choice, { engine: "tfjs", backend: "cpu" });
  // faster than js, but not JS_MARGIN times: js (the library's rule, chooseEngine)
  const close = partialCalibration([js, { ...cpu, seconds: 0.012 }], ["cpu"], { budgetMs: 2000 });
  assert.deepEqual(close.choice, { engine: "js", backend: "cpu" });
  const nothing = partialCalibration([], ["cpu"], { budgetMs: 2000 });
  assert.deepEqual(nothing.choice, { engine: "js", backend: "cpu" });
  assert.equal(nothing.entries[0]!.error, "not measured within the 2 s budget");
});

test("the progress line: output k of n, the episode or epoch of its limit, best NRMSE, elapsed", () => {
  const base = { targetIndex: 1, targets: 3, target: "y2", episodes: 600, unit: "episode" as const };
  assert.equal(
    progressLine({ ...base, episode: 14, bestNrmse: 0.00123 }, 4.06),
    "output 2 of 3 (y2), episode 14 of 600, best NRMSE 1.23e-3, 4.1 s",
  );
  assert.equal(
    progressLine({ ...base, unit: "epoch", episode: 40, episodes: 1000, bestNrmse: Number.NaN }, 1),
    "output 2 of 3 (y2), epoch 40 of 1000, 1.0 s",
  );
  assert.equal(progressLine(null, 0.25), "starting… 0.3 s");
});

test("downloads are named by their data, method and seed", () => {
  const result = (config: Record<string, unknown>, seed = 3) =>
    ({ manifest: { config, seed } }) as unknown as ResultJson;
  assert.equal(
    resultFilename(result({ experiment: "syn2", method: "consolesr" })),
    "consolesr-syn2-consolesr-seed3.json",
  );
  assert.equal(
    resultFilename(result({ data: "my data/pendulum run.csv", method: "paper" }, 0)),
    "consolesr-pendulum-run-paper-seed0.json",
  );
  assert.notEqual(
    resultFilename(result({ data: "a.csv", method: "consolesr" })),
    resultFilename(result({ data: "b.csv", method: "consolesr" })),
  );
});
