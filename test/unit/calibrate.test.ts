// calibrate() and runtimeFacts() in Node: the calibration times the js engine and each tfjs
// backend that starts, lists a backend that cannot start with its reason and never picks it,
// picks js unless a tfjs backend is JS_MARGIN times faster, leaves that backend live and no tensor behind; the CLI's
// --timings writes manifest.runtime beside search.seconds, and reproduce ignores both.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JS_MARGIN, calibrate, chooseEngine, runtimeFacts, tf } from "../../src/lib/index.js";
import type { CalibrationEntry } from "../../src/lib/index.js";
import { browserOf } from "../../src/lib/core/runtimeFacts.js";
import { cli } from "../helpers/cli.js";

test("calibrate: js and tfjs backends timed, chooseEngine's pick, a failing backend listed, never chosen", async () => {
  const before = tf.memory().numTensors;
  const seen: string[] = [];
  const calibration = await calibrate({
    backends: ["cpu", "wasm", "no-such-backend"],
    rows: 300,
    steps: 20,
    rounds: 3,
    onEntry: (entry) => seen.push(entry.backend),
  });
  assert.deepEqual(
    calibration.entries.map((e) => [e.engine, e.backend]),
    [
      ["js", "js"],
      ["tfjs", "cpu"],
      ["tfjs", "wasm"],
      ["tfjs", "no-such-backend"],
    ],
  );
  assert.deepEqual(seen, ["js", "cpu", "wasm", "no-such-backend"], "onEntry was not called once per engine, in order");
  const bogus = calibration.entries[3]!;
  assert.equal(bogus.seconds, null);
  assert.match(bogus.error ?? "", /unknown backend "no-such-backend"/);
  const ran = calibration.entries.filter((e) => e.seconds !== null);
  assert.equal(ran.length, 3, `an engine failed: ${JSON.stringify(calibration.entries)}`);
  for (const e of ran) assert.ok(e.seconds! > 0 && e.warmup! > 0, `no time for ${e.backend}`);
  const js = ran.find((e) => e.engine === "js")!;
  const fastest = ran.filter((e) => e.engine === "tfjs").reduce((a, b) => (b.seconds! < a.seconds! ? b : a));
  const expected =
    fastest.seconds! * JS_MARGIN < js.seconds!
      ? { engine: "tfjs", backend: fastest.backend }
      : { engine: "js", backend: "cpu" };
  assert.deepEqual(calibration.choice, expected, `not the rule's choice: ${JSON.stringify(calibration.entries)}`);
  assert.equal(tf.getBackend(), calibration.choice.backend, "the chosen backend is not the live one");
  assert.deepEqual([calibration.rows, calibration.steps, calibration.rounds], [300, 20, 3]);
  assert.equal(tf.memory().numTensors, before, "the calibration left tensors behind");
});

test("calibrate: a warm-up over the limit leaves the engine out with the reason", async () => {
  const calibration = await calibrate({ backends: ["cpu"], rows: 300, steps: 20, rounds: 1, warmupLimitMs: 0 });
  assert.ok(calibration.entries.length >= 1, "no engine was tried");
  for (const e of calibration.entries) {
    assert.equal(e.seconds, null);
    assert.match(e.error ?? "", /^warm-up took [\d.]+ s \(limit 0 s\)$/);
  }
  // nothing ran to the end: the js engine is the fallback, with the cpu backend live
  assert.deepEqual(calibration.choice, { engine: "js", backend: "cpu" });
});

test("chooseEngine: a tfjs backend only when JS_MARGIN times faster than js; untimed entries never count", () => {
  const entry = (engine: "js" | "tfjs", backend: string, seconds: number | null): CalibrationEntry => ({
    engine,
    backend,
    seconds,
    warmup: seconds,
  });
  assert.equal(JS_MARGIN, 1.5);
  // the load-skewed timings once measured in CI: wasm 1.29× faster than js keeps js
  const skewed = [entry("js", "js", 0.102), entry("tfjs", "cpu", 0.15), entry("tfjs", "wasm", 0.079)];
  assert.deepEqual(chooseEngine(skewed), { engine: "js", backend: "cpu" });
  // 2× faster: the fastest tfjs backend, not the first
  const gpu = [entry("js", "js", 0.1), entry("tfjs", "wasm", 0.06), entry("tfjs", "webgl", 0.05)];
  assert.deepEqual(chooseEngine(gpu), { engine: "tfjs", backend: "webgl" });
  // exactly at the margin is not enough
  assert.deepEqual(chooseEngine([entry("js", "js", 0.15), entry("tfjs", "wasm", 0.1)]), {
    engine: "js",
    backend: "cpu",
  });
  // a backend without a timing never wins; without a js timing the fastest tfjs one does
  assert.deepEqual(chooseEngine([entry("js", "js", 0.1), entry("tfjs", "webgl", null)]), {
    engine: "js",
    backend: "cpu",
  });
  assert.deepEqual(chooseEngine([entry("js", "js", null), entry("tfjs", "cpu", 0.3)]), {
    engine: "tfjs",
    backend: "cpu",
  });
  assert.deepEqual(chooseEngine([entry("js", "js", null)]), { engine: "js", backend: "cpu" });
});

test("runtimeFacts in Node, and --timings writes manifest.runtime that reproduce does not compare", async () => {
  const facts = runtimeFacts(3);
  assert.equal(facts.engine, `V8 ${process.versions.v8} (Node ${process.versions.node})`);
  assert.equal(facts.os, `${process.platform} ${process.arch}`);
  assert.equal(facts.cores, 3);

  const dir = mkdtempSync(join(tmpdir(), "consolesr-runtime-"));
  const plain = join(dir, "plain.json");
  const timed = join(dir, "timed.json");
  for (const [out, extra] of [
    [plain, []],
    [timed, ["--timings"]],
  ] as const) {
    const run = await cli(["run", "toy", "--quiet", "--out", out, ...extra]);
    assert.equal(run.code, 0, run.stderr);
  }
  const a = JSON.parse(readFileSync(plain, "utf8"));
  const b = JSON.parse(readFileSync(timed, "utf8"));
  assert.equal(a.manifest.runtime, undefined, "runtime facts without --timings break byte-identity");
  assert.equal(a.search.seconds, undefined);
  assert.deepEqual(Object.keys(b.manifest.runtime), ["engine", "os", "cores"]);
  assert.match(b.manifest.runtime.engine, /^V8 [\d.]+.* \(Node [\d.]+\)$/);
  assert.ok(Number.isInteger(b.manifest.runtime.cores) && b.manifest.runtime.cores >= 1);
  assert.ok(b.search.seconds > 0);
  const reproduced = await cli(["reproduce", timed, "--quiet"]);
  assert.equal(reproduced.code, 0, reproduced.stdout + reproduced.stderr);
  assert.match(reproduced.stdout, /reproduced exactly/);
});

test("browserOf names the browser and its JS engine from a navigator", () => {
  const chrome =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36";
  assert.equal(browserOf({ userAgent: chrome }), "HeadlessChrome 156.0.0.0 (V8)");
  assert.equal(
    browserOf({ userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" }),
    "Firefox 133.0 (SpiderMonkey)",
  );
  const safari =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) " +
    "Version/17.6 Safari/605.1.15";
  assert.equal(browserOf({ userAgent: safari }), "Safari 17.6 (JavaScriptCore)");
  const brands = [
    { brand: "Not)A;Brand", version: "99" },
    { brand: "Chromium", version: "156" },
  ];
  assert.equal(browserOf({ userAgentData: { brands } }), "Chromium 156 (V8)");
  assert.equal(browserOf({}), "unknown");
});
