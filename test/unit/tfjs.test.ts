/**
 * The library's tfjs: tfjs-core with the cpu backend, and tfjs-core's gradients and chained ops
 * registered by src/lib/vendor/tfjsRegistrations.js (scripts/tfjsRegistrations.ts), not by the
 * @tensorflow/tfjs umbrella. Gradients of the ops the fits, baselines and plugins use agree with
 * central differences; chained ops work on the library's tensors; nothing leaks.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../../src/lib/engine/tf.js";

await tf.setBackend("cpu");

/** Central differences of a scalar function of a vector, in float64 on the function's float32 values. */
function numericGradient(f: (x: tf.Tensor) => tf.Scalar, at: number[], h = 1e-2): number[] {
  return at.map((_, i) =>
    tf.tidy(() => {
      const up = at.map((v, j) => (j === i ? v + h : v));
      const down = at.map((v, j) => (j === i ? v - h : v));
      return (f(tf.tensor1d(up)).dataSync()[0]! - f(tf.tensor1d(down)).dataSync()[0]!) / (2 * h);
    }),
  );
}

test("tfjs-core alone is loaded: no umbrella package, the cpu backend", () => {
  assert.equal(tf.getBackend(), "cpu");
  assert.throws(() => import.meta.resolve("@tensorflow/tfjs"), /Cannot find|not found/i);
});

test("gradients of the ops the fits, baselines and plugins use agree with central differences", () => {
  const at = [0.3, 0.7, 1.1];
  const W = tf.tensor2d([
    [0.5, -0.2],
    [0.1, 0.4],
    [-0.3, 0.2],
  ]);
  const cases: [string, (x: tf.Tensor) => tf.Scalar][] = [
    ["square, sin, sum (chained)", (x) => x.square().sin().sum()],
    ["exp, log, sqrt, reciprocal", (x) => tf.sum(tf.add(tf.exp(x), tf.mul(tf.log(x), tf.sqrt(tf.reciprocal(x)))))],
    ["tanh, cos, abs, neg, pow", (x) => tf.sum(tf.mul(tf.tanh(x), tf.neg(tf.abs(tf.pow(tf.cos(x), 3)))))],
    ["matMul, mean", (x) => tf.mean(tf.square(tf.matMul(x.reshape([1, 3]), W)))],
    ["logSoftmax, gather", (x) => tf.sum(tf.gather(tf.logSoftmax(x.reshape([1, 3])), [1], 1))],
    ["slice, concat", (x) => tf.sum(tf.mul(tf.concat([tf.slice(x, [1], [2]), x]), tf.range(1, 6)))],
  ];
  const before = tf.memory().numTensors;
  for (const [name, f] of cases) {
    const analytic = tf.tidy(() => Array.from(tf.grad(f)(tf.tensor1d(at)).dataSync()));
    const numeric = numericGradient(f, at);
    for (const [i, a] of analytic.entries())
      assert.ok(
        Math.abs(a - numeric[i]!) <= 2e-3 * Math.max(1, Math.abs(a)),
        `${name}: ∂/∂x${i} ${a} vs ${numeric[i]}`,
      );
  }
  assert.equal(tf.memory().numTensors, before);
  W.dispose();
});

test("an optimizer trains a variable through the registered gradients (least squares by Adam)", () => {
  const before = tf.memory().numTensors;
  const w = tf.tidy(() => tf.variable(tf.zeros([2, 1]))); // (tidy disposes the zeros, not the variable)
  const X = tf.tensor2d([
    [1, 2],
    [3, 4],
    [5, 6],
    [7, 9],
  ]);
  const y = tf.tensor2d([[5], [11], [17], [25]]); // y = 1·a + 2·b
  const loss = () => tf.tidy(() => tf.mean(tf.square(tf.sub(tf.matMul(X, w), y))) as tf.Scalar);
  const first = tf.tidy(() => loss().dataSync()[0]!);
  const optimizer = tf.train.adam(0.05);
  for (let i = 0; i < 3000; i++) optimizer.minimize(loss);
  const last = tf.tidy(() => loss().dataSync()[0]!);
  assert.ok(last < 1e-4 * first, `loss ${first} → ${last}`);
  optimizer.dispose();
  tf.dispose([w, X, y]);
  assert.equal(tf.memory().numTensors, before);
});

test("importing the library loads no tfjs; the first fit does (Trust II, row 6)", () => {
  // A fresh process: what `import("consolesr")` loads, then what a fit adds.
  const script = [
    'import { createRequire } from "node:module";',
    "const keys = () => Object.keys(createRequire(import.meta.url).cache);",
    "const loaded = (part) => keys().filter((k) => k.includes(part)).length;",
    'const cache = () => loaded("/@tensorflow/");',
    'const lib = await import("./src/lib/index.js");',
    "const before = cache();",
    "const X = Array.from({ length: 20 }, (_, i) => [1 + i / 10]);",
    "await lib.fit({ X, y: X.map(([x]) => 2 * x), symbols: ['x'], seed: 0 });",
    "console.log(JSON.stringify([before, cache(), lib.tf.getBackend()]));",
  ].join("\n");
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const [before, after, backend] = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as [number, number, string];
  assert.equal(before, 0, "tfjs was loaded by the import");
  assert.ok(after >= 2, `the fit did not load tfjs-core and its cpu backend (${after} modules)`);
  assert.equal(backend, "cpu");
});
