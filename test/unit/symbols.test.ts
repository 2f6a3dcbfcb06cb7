import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../../src/lib/engine/tf.js";
import { createRng } from "../../src/lib/core/rng.js";
import { Registry, validatePlugin, type SymbolPlugin } from "../../src/lib/plugins/kinds.js";
import { builtinSymbols, createSymbolRegistry } from "../../src/lib/plugins/builtin.js";

tf.env().set("PROD", true);
await tf.setBackend("cpu");

/** Random points where the symbol is defined, away from 0 where derivatives may blow up. */
function points(symbol: SymbolPlugin, n: number, seed: number): number[] {
  const rng = createRng(seed);
  const out: number[] = [];
  while (out.length < n) {
    const x = rng.uniform(-3, 3);
    if (Math.abs(x) < 0.1) continue;
    if (symbol.domain && !symbol.domain(x)) continue;
    out.push(x);
  }
  return out;
}

for (const symbol of builtinSymbols) {
  test(`symbol ${symbol.name}: the tfjs op agrees with evaluate at random in-domain points`, () => {
    const xs = points(symbol, 200, 1);
    const before = tf.memory().numTensors;
    const got = tf.tidy(() => symbol.apply(tf.tensor1d(xs), tf).arraySync() as number[]);
    assert.equal(tf.memory().numTensors, before);
    xs.forEach((x, i) => {
      const want = symbol.evaluate(x);
      assert.ok(
        Math.abs(got[i]! - want) <= 1e-5 * Math.max(1, Math.abs(want)),
        `${symbol.name}(${x}): tfjs ${got[i]} vs ${want}`,
      );
    });
  });

  test(`symbol ${symbol.name}: the autodiff gradient matches a finite difference`, () => {
    const xs = points(symbol, 50, 2);
    const grads = tf.tidy(
      () =>
        tf
          .grad((x: tf.Tensor) => tf.sum(symbol.apply(x, tf) as tf.Tensor))(tf.tensor1d(xs))
          .arraySync() as number[],
    );
    xs.forEach((x, i) => {
      const h = 1e-5 * Math.max(1, Math.abs(x));
      const fd = (symbol.evaluate(x + h) - symbol.evaluate(x - h)) / (2 * h);
      assert.ok(
        Math.abs(grads[i]! - fd) <= 2e-3 * Math.max(1, Math.abs(fd)),
        `${symbol.name}'(${x}): autodiff ${grads[i]} vs ${fd}`,
      );
      if (symbol.derivative) {
        const d = symbol.derivative(x);
        assert.ok(
          Math.abs(d - fd) <= 1e-5 * Math.max(1, Math.abs(fd)),
          `${symbol.name}.derivative(${x}) = ${d} vs ${fd}`,
        );
      }
    });
  });
}

for (const symbol of builtinSymbols.filter((s) => s.domain)) {
  test(`symbol ${symbol.name}: evaluate is NaN outside its domain, never a quiet number`, () => {
    // log and sqrt exclude the negatives (sqrt(0) = 0 is its finite edge), x^-1 and x^-2 only 0.
    const negatives = [-2, -0.5].filter((x) => !symbol.domain!(x));
    const outside = negatives.length > 0 ? negatives : [0].filter((x) => !symbol.domain!(x));
    assert.ok(outside.length > 0, `${symbol.name}: no test point outside the domain`);
    for (const x of outside)
      assert.ok(Number.isNaN(symbol.evaluate(x)), `${symbol.name}(${x}) = ${symbol.evaluate(x)}`);
  });
}

test("x^-1 and x^-2 are defined on the negatives too, and print as powers the --form parser reads back", () => {
  const registry = createSymbolRegistry();
  assert.equal(registry.get("x^-1").evaluate(-0.5), -2);
  assert.equal(registry.get("x^-2").evaluate(-0.5), 4);
  assert.equal(registry.get("x^-1").text("r"), "r^(-1)");
  assert.equal(registry.get("x^-2").latex("r"), "r^{-2}");
});

test("symbol folds keep the function value: f(w·x) = coefficient·f(weight·x)", () => {
  for (const symbol of builtinSymbols.filter((s) => s.fold)) {
    for (const w of [2.2, -1.7, 0.3]) {
      const { coefficient, weight } = symbol.fold!(w);
      for (const x of [1.1, 1.6, 1.9]) {
        const left = symbol.evaluate(w * x);
        if (Number.isNaN(left)) continue;
        assert.ok(Math.abs(left - coefficient * symbol.evaluate(weight * x)) < 1e-12, `${symbol.name} fold at w=${w}`);
      }
    }
  }
});

test("the registry lists the ten built-in symbols in order", () => {
  assert.deepEqual(createSymbolRegistry().names(), [
    "x",
    "x^2",
    "x^3",
    "sqrt",
    "log",
    "exp",
    "sin",
    "cos",
    "x^-1",
    "x^-2",
  ]);
});

test("the registry rejects a duplicate name, naming the plugin", () => {
  const registry = createSymbolRegistry();
  assert.throws(
    () => registry.register({ ...builtinSymbols[7]! }),
    /plugin cos: a symbol with this name is already registered/,
  );
});

test("the registry rejects an unknown name, listing the known ones", () => {
  assert.throws(() => createSymbolRegistry().get("tanh"), /unknown symbol "tanh" \(known: x, x\^2/);
});

test("registration names the plugin and the missing or wrong field", () => {
  const { evaluate: _drop, ...noEvaluate } = builtinSymbols[7]!;
  assert.throws(() => validatePlugin({ ...noEvaluate, name: "cos2" }), /plugin cos2: field "evaluate" is missing/);
  assert.throws(
    () => validatePlugin({ ...builtinSymbols[7]!, name: "cos3", complexity: -1 }),
    /plugin cos3: field "complexity"/,
  );
  assert.throws(() => validatePlugin({ kind: "widget", name: "w" }), /plugin w: field "kind"/);
  assert.throws(
    () =>
      new Registry<SymbolPlugin>("symbol").register({
        kind: "reward",
        name: "r",
        range: [0, 1],
        score: () => 1,
      } as never),
    /plugin r: is a reward, not a symbol/,
  );
});
