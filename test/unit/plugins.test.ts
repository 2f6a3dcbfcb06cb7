/**
 * The plugin SDK at the library level: the conformance checks (src/lib/conformance/check.ts) accept
 * the built-ins and the examples and name the defect of broken plugins; registering user
 * plugins (registerPlugins / createRegistries) validates, refuses duplicates, and guards user
 * symbols so that a throw becomes an error naming the plugin.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import katex from "katex";
import { tf } from "../../src/lib/engine/tf.js";
import * as sdk from "../../src/lib/sdk.js";
import * as lib from "../../src/lib/index.js";
import { checkPlugin, checkPlugins, formatFailure, sampleConstraintContexts } from "../../src/lib/conformance/check.js";
import { createRng } from "../../src/lib/core/rng.js";
import { InputError } from "../../src/lib/core/errors.js";
import {
  guardSymbol,
  registerPlugins,
  validatePlugin,
  type ConstraintPlugin,
  type RewardPlugin,
  type SymbolPlugin,
} from "../../src/lib/plugins/kinds.js";
import { builtinConstraints, builtinRewards, builtinSymbols, createRegistries } from "../../src/lib/plugins/builtin.js";
import tanh from "../../examples/plugins/tanh.js";
import { OUTER_NAMES } from "../../src/lib/equation/index.js";
import { powerOfName } from "../../src/lib/plugins/powers.js";
import maxTwoTrig from "../../examples/plugins/max-two-trig.js";
import parsimonyStrict from "../../examples/plugins/parsimony-strict.js";

tf.env().set("PROD", true);
await tf.setBackend("cpu");

const builtins = [...builtinSymbols, ...builtinConstraints, ...builtinRewards];
const examples = [tanh, maxTwoTrig, parsimonyStrict];

/** The failures of one plugin's report, as `check: message` lines. */
function failures(candidate: unknown): string[] {
  return checkPlugin(candidate, { tf }).failures.map((f) => `${f.check}: ${f.message}`);
}

/** Asserts that exactly the named check fails, with a message matching `pattern`. */
function assertFails(candidate: unknown, check: string, pattern: RegExp): void {
  const found = failures(candidate);
  const hit = found.find((f) => f.startsWith(`${check}: `));
  assert.ok(hit, `no "${check}" failure; got ${JSON.stringify(found)}`);
  assert.match(hit, pattern);
}

const goodTanh: SymbolPlugin = { ...tanh };

describe("SDK entry point", () => {
  test("src/lib/sdk.ts and src/lib/index.ts export the helpers, the registry, validation and the checks", () => {
    for (const api of [sdk, lib]) {
      for (const name of [
        "defineSymbol",
        "defineConstraint",
        "defineReward",
        "Registry",
        "validatePlugin",
        "registerPlugins",
        "createRegistries",
        "checkPlugins",
      ]) {
        assert.equal(typeof (api as Record<string, unknown>)[name], "function", name);
      }
    }
    assert.equal(sdk.defineSymbol(goodTanh), goodTanh, "defineX are identity helpers");
  });

  test(
    "src/lib/sdk.ts bundles for the browser with no node: " +
      "module and without tfjs (checkPlugins takes it as an argument)",
    async () => {
      const { build } = await import("esbuild");
      const result = await build({
        entryPoints: [new URL("../../src/lib/sdk.ts", import.meta.url).pathname],
        bundle: true,
        platform: "browser",
        format: "esm",
        write: false,
        metafile: true,
        logLevel: "silent",
      });
      const inputs = Object.keys(result.metafile.inputs);
      assert.deepEqual(
        inputs.filter((i) => i.startsWith("node:") || i.includes("@tensorflow")),
        [],
      );
      assert.ok(inputs.some((i) => i.includes("src/lib/conformance/check.ts")));
    },
  );

  test("the examples need no import of consolesr or tfjs at run time", async () => {
    const { readFileSync } = await import("node:fs");
    for (const file of ["tanh", "max-two-trig", "parsimony-strict"]) {
      const source = readFileSync(new URL(`../../examples/plugins/${file}.ts`, import.meta.url), "utf8");
      const imports = source.split("\n").filter((line) => /^\s*import\b/.test(line));
      assert.ok(
        imports.every((line) => /^import type\b/.test(line)),
        `${file}.ts: ${imports.join("; ")}`,
      );
    }
  });
});

/** KaTeX as check-plugin and the playground render a symbol's LaTeX. */
const renderLatex = (latex: string) => void katex.renderToString(latex, { throwOnError: true });

describe("checkPlugins", () => {
  test("a symbol's LaTeX is rendered by the renderLatex given; without one it is checked to be a string", () => {
    const badLatex = { ...goodTanh, name: "tanhbad", latex: (a: string) => `\\tanh\\left(${a}` };
    const rendered = checkPlugin(badLatex, { tf, renderLatex });
    assert.ok(rendered.checks.includes("latex"));
    assert.match(rendered.failures.map(formatFailure).join("\n"), /latex: KaTeX rejects latex\("x_\{1\}"\)/);
    const unrendered = checkPlugin(badLatex, { tf });
    assert.ok(unrendered.checks.includes("latex (not rendered)") && !unrendered.checks.includes("latex"));
    assert.deepEqual(unrendered.failures, []);
    const notString = checkPlugin({ ...goodTanh, name: "tanhnum", latex: () => 3 }, { tf });
    assert.match(
      notString.failures.map(formatFailure).join("\n"),
      /latex \(not rendered\): latex\("x_\{1\}"\) returned 3/,
    );
  });

  test("accepts every built-in symbol, constraint and reward", () => {
    const reports = checkPlugins(builtins, { tf, renderLatex });
    assert.equal(reports.length, builtins.length);
    assert.deepEqual(
      reports.flatMap((r) => r.failures.map(formatFailure)),
      [],
    );
    const sqrt = reports.find((r) => r.plugin === "sqrt")!;
    for (const check of ["text", "latex", "evaluate", "domain", "apply", "gradient", "derivative", "fold"])
      assert.ok(sqrt.checks.includes(check), check);
  });

  test("accepts the examples tanh, max-two-trig and parsimony-strict next to the built-ins", () => {
    const registered = {
      symbol: builtinSymbols.map((s) => s.name),
      constraint: builtinConstraints.map((c) => c.name),
      reward: builtinRewards.map((r) => r.name),
    };
    const reports = checkPlugins(examples, { tf, registered });
    assert.deepEqual(
      reports.flatMap((r) => r.failures.map(formatFailure)),
      [],
    );
    assert.deepEqual(
      reports.map((r) => r.kind),
      ["symbol", "constraint", "reward"],
    );
  });

  test("no built-in name has a dot, so the examples' dotted my.tanh can never clash with one", () => {
    const names = [
      ...builtinSymbols.map((s) => s.name),
      ...builtinConstraints.map((c) => c.name),
      ...builtinRewards.map((r) => r.name),
      ...OUTER_NAMES,
    ];
    assert.ok(names.length >= 19);
    assert.deepEqual(
      names.filter((name) => name.includes(".")),
      [],
    );
    // A derived power (x^4, x^3/2) is named x^… with no dot either, and a dotted name is none.
    assert.equal(powerOfName(tanh.name), undefined);
    assert.equal(tanh.name, "my.tanh");
  });

  test("leaves no tensor behind", () => {
    const before = tf.memory().numTensors;
    checkPlugins([...builtinSymbols, tanh], { tf });
    assert.equal(tf.memory().numTensors, before);
  });

  test("the same seed gives the same report; failures name plugin, check and input", () => {
    const broken = { ...goodTanh, name: "bent", derivative: (x: number) => 1 - Math.tanh(x) };
    const a = checkPlugins([broken], { tf, seed: 3 });
    assert.deepEqual(checkPlugins([broken], { tf, seed: 3 }), a);
    assert.match(formatFailure(a[0]!.failures[0]!), /^plugin bent: derivative: derivative\(-?[\d.]+\) = /);
  });

  test('a name taken by a built-in or twice in one batch is a failure of the check "name"', () => {
    const reports = checkPlugins([{ ...goodTanh, name: "cos" }, goodTanh, goodTanh], {
      tf,
      registered: { symbol: ["cos"] },
    });
    assert.match(
      formatFailure(reports[0]!.failures[0]!),
      /^plugin cos: name: a symbol named "cos" is already registered/,
    );
    assert.deepEqual(reports[1]!.failures, []);
    assert.match(formatFailure(reports[2]!.failures[0]!), /^plugin my\.tanh: name: /);
  });

  test('a plugin missing a field fails "fields", naming the plugin and the field', () => {
    const { latex: _latex, ...noLatex } = goodTanh;
    const [report] = checkPlugins([noLatex], { tf });
    assert.equal(report!.kind, "unknown");
    assert.equal(formatFailure(report!.failures[0]!), 'plugin my.tanh: fields: field "latex" is missing');
  });

  // Defects beyond the six that test/cli/plugins.test.ts runs through `check-plugin`.
  test("rejects a finite value outside the declared domain (a quiet 0)", () => {
    assertFails(
      {
        ...goodTanh,
        name: "rootish",
        domain: (x: number) => x > 0,
        evaluate: (x: number) => (x > 0 ? Math.tanh(x) : 0),
      },
      "domain",
      /evaluate\(-[\d.]+\) = 0 outside the declared domain; it must be NaN \(never a quiet 0\)/,
    );
  });

  test("rejects a NaN inside the declared domain", () => {
    assertFails(
      { ...goodTanh, name: "holey", domain: () => true, evaluate: (x: number) => (x > 1 ? Number.NaN : Math.tanh(x)) },
      "evaluate",
      /evaluate\([\d.]+\) = NaN inside the declared domain/,
    );
  });

  test("rejects 1/x without a domain (an undeclared domain at 0)", () => {
    const inverse = {
      kind: "symbol",
      name: "inv",
      complexity: 2,
      innerWeight: false,
      text: (a: string) => `1/${a}`,
      latex: (a: string) => `\\frac{1}{${a}}`,
      evaluate: (x: number) => 1 / x,
      apply: (x: lib.Tensor, t: lib.Tf) => t.reciprocal(x),
    };
    assertFails(inverse, "evaluate", /undeclared domain: evaluate\(0\) = Infinity/);
  });

  test("a symbol whose functions throw fails those checks, and the report still comes back", () => {
    const found = failures({
      ...goodTanh,
      name: "thrower",
      evaluate: () => {
        throw new Error("nope");
      },
      domain: () => {
        throw new Error("nah");
      },
    });
    assert.ok(
      found.includes("evaluate: no point of [-3, 3] is inside the declared domain (tried 64)"),
      JSON.stringify(found),
    );
    assert.ok(found.includes("domain: threw: nah"), JSON.stringify(found));
    assert.match(
      failures({
        ...goodTanh,
        name: "thrower",
        evaluate: () => {
          throw new Error("nope");
        },
      }).join("\n"),
      /^evaluate: threw: nope$/m,
    );
  });

  test("rejects an op whose autodiff gradient is wrong (a custom gradient)", () => {
    // customGrad is tfjs-core's own (outside the plugin-facing Tf): the tf given is tfjs-core.
    const apply = (x: lib.Tensor, t: lib.Tf) => {
      const core = t as unknown as typeof tf;
      return core.customGrad(((u: tf.Tensor) => ({
        value: core.tanh(u),
        gradFunc: (dy: tf.Tensor) => core.mul(dy, 2),
      })) as unknown as Parameters<typeof tf.customGrad>[0])(x as tf.Tensor) as lib.Tensor;
    };
    assertFails(
      { ...goodTanh, name: "slanted", apply },
      "gradient",
      /autodiff of the tfjs op gives 2 at x = -?[\d.]+ but a central difference of evaluate gives/,
    );
  });

  test("rejects text the --form parser cannot read back", () => {
    assertFails(
      { ...goodTanh, name: "mangled", text: (a: string) => `th[${a}` },
      "text",
      /the `form` parser cannot read text\("2\.5\*x1"\) = "th\[2\.5\*x1" back/,
    );
    assertFails(
      { ...goodTanh, name: "mute", text: () => "tanh" },
      "text",
      /text\("x1"\) = "tanh" does not contain its argument/,
    );
  });

  test("rejects a wrong fold", () => {
    assertFails(
      { ...goodTanh, name: "folded", fold: (w: number) => ({ coefficient: 1, weight: Math.abs(w) }) },
      "fold",
      /fold\(-1\.3\) = \{ coefficient: 1, weight: 1\.3 \}/,
    );
  });

  test("rejects a wrong period, and checks the period of sin and cos", () => {
    assertFails(
      { ...goodTanh, name: "notperiodic", period: 2 * Math.PI },
      "period",
      /f\(-?[\d.]+\) = -?[\d.]+ but f\(-?[\d.]+ \+ 6\.28319\) = -?[\d.]+: not the period/,
    );
    assertFails(
      {
        ...goodTanh,
        name: "sine",
        evaluate: Math.sin,
        derivative: Math.cos,
        apply: (x: lib.Tensor, t: lib.Tf) => t.sin(x),
        period: Math.PI,
      },
      "period",
      /not the period/,
    );
    const reports = checkPlugins(
      builtinSymbols.filter((s) => s.name === "sin" || s.name === "cos"),
      { tf },
    );
    for (const r of reports) assert.ok(r.checks.includes("period") && r.failures.length === 0, r.plugin);
  });

  test("rejects a wrong power, checks the built-ins' powers and the derived ones (x^4, x^-1/2)", () => {
    assertFails({ ...goodTanh, name: "notapower", power: 3 }, "power", /f\(-?[\d.]+\) = .* but .*: not that power/);
    const powered = builtinSymbols.filter((s) => s.power !== undefined);
    assert.deepEqual(
      powered.map((s) => s.name),
      ["x", "x^2", "x^3", "sqrt", "x^-1", "x^-2"],
    );
    const registry = createRegistries().symbols;
    const derived = ["x^4", "x^-3", "x^3/2", "x^-1/2"].map((name) => registry.get(name));
    for (const r of checkPlugins([...powered, ...derived], { tf }))
      assert.ok(r.checks.includes("power") && r.failures.length === 0, `${r.plugin}: ${JSON.stringify(r.failures)}`);
    assert.throws(() => validatePlugin({ ...goodTanh, power: 0 }), /plugin my\.tanh: field "power" must not be 0/);
    assert.throws(() => registry.get("x^2/4"), /unknown symbol "x\^2\/4"/);
    assert.ok(!registry.names().includes("x^4"), "a derived power is not in the search's pool");
  });

  test("rejects a wrong shift, and checks log's (log(w·x) = log(x) + log(w))", () => {
    assertFails(
      { ...goodTanh, name: "noshift", shift: (w: number) => ({ shift: w, weight: 1 }) },
      "shift",
      /shift\(0\.5\) = \{ shift: 0\.5, weight: 1 \} but f\(0\.5·/,
    );
    const [report] = checkPlugins(
      builtinSymbols.filter((s) => s.name === "log"),
      { tf },
    );
    assert.ok(report!.checks.includes("shift") && report!.failures.length === 0, JSON.stringify(report!.failures));
  });

  test("the field period must be a positive number", () => {
    assert.throws(() => validatePlugin({ ...goodTanh, period: 0 }), /plugin my\.tanh: field "period"/);
    assert.throws(() => validatePlugin({ ...goodTanh, period: "2pi" }), /plugin my\.tanh: field "period"/);
    assert.equal(validatePlugin({ ...goodTanh, period: 2 }).name, "my.tanh");
  });

  test("rejects a constraint that returns something other than true or a string", () => {
    const bad: ConstraintPlugin = {
      kind: "constraint",
      name: "falsy",
      describe: () => "returns false",
      check: (ctx) => (ctx.layer === 2 ? (false as unknown as string) : true),
    };
    assertFails(
      bad,
      "check",
      /check returned false on the context \(layer 2, .*\); it must return true or a non-empty reason/,
    );
  });

  test("rejects a constraint that modifies its context", () => {
    const bad: ConstraintPlugin = {
      kind: "constraint",
      name: "sorter",
      describe: () => "sorts in place",
      check: (ctx) => {
        (ctx.structure.neurons as number[]).sort();
        return true;
      },
    };
    assertFails(bad, "check", /check threw on the context .*\(a check must not modify its context\)/);
  });

  test("rejects a reward that prefers an inexact fit to an exact one of the same size", () => {
    const bad: RewardPlugin = {
      kind: "reward",
      name: "peaked",
      range: [0, 1],
      score: ({ nrmse }) => 1 / (1 + Math.abs(nrmse - 0.05)),
    };
    assertFails(
      bad,
      "maximum",
      /an exact fit \(NRMSE 0, complexity 1\) scores [\d.]+, less than [\d.]+ for a fit with NRMSE/,
    );
  });

  test("rejects a reward that returns NaN", () => {
    const bad: RewardPlugin = {
      kind: "reward",
      name: "nan",
      range: [0, 1],
      score: ({ nrmse }) => (nrmse > 2 ? Number.NaN : 1 / (1 + nrmse)),
    };
    assertFails(
      bad,
      "range",
      /score returned NaN for a fit with NRMSE [\d.]+, complexity 1; it must be a finite number/,
    );
  });
});

describe("max-two-trig (example constraint)", () => {
  const space = { inputs: ["x1", "x2"], symbols: ["x", "sin", "cos", "my.tanh"], neurons: 8, terms: 2 };
  const ctx = (products: number[][]) => ({
    layer: 1,
    state: [],
    action: [],
    space,
    structure: { neurons: [], products },
    limits: { maxFactors: 3, maxTerms: 2, pearson: 0.9999 },
    evidence: [],
  });
  test("accepts two trigonometric factors in a product and rejects three, naming them", () => {
    // neuron i = input ⌊i/4⌋, symbol i mod 4: 1 = sin(x1), 2 = cos(x1), 7 = my.tanh(x2), 4 = x(x2)
    assert.equal(maxTwoTrig.check(ctx([[1, 7, 4], [2]])), true);
    assert.equal(
      maxTwoTrig.check(ctx([[0], [1, 2, 7]])),
      "product 2 has 3 trigonometric factors (sin(x1), cos(x1), my.tanh(x2)); at most 2",
    );
    assert.equal(maxTwoTrig.check({ ...ctx([]), layer: 0, structure: { neurons: [1, 2, 7] } }), true);
  });

  test("the sample contexts of check-plugin include a product it rejects", () => {
    const verdicts = sampleConstraintContexts(createRng(0)).map((c) => maxTwoTrig.check(c));
    assert.ok(verdicts.some((v) => typeof v === "string"));
    assert.ok(verdicts.some((v) => v === true));
  });
});

describe("registering user plugins", () => {
  test("createRegistries puts each plugin into the registry of its kind", () => {
    const registries = createRegistries(examples);
    assert.ok(registries.symbols.has("my.tanh") && registries.symbols.has("cos"));
    assert.ok(registries.constraints.has("max-two-trig") && registries.constraints.has("static"));
    assert.ok(registries.rewards.has("parsimony-strict") && registries.rewards.has("inv-nrmse"));
  });

  test("a duplicate name fails naming the plugin and the field, and registers nothing", () => {
    const registries = createRegistries();
    assert.throws(
      () => registerPlugins(registries, [parsimonyStrict, { ...goodTanh, name: "cos" }]),
      (e: Error) =>
        e instanceof InputError && e.message === 'plugin cos: field "name": a symbol named "cos" is already registered',
    );
    assert.ok(!registries.rewards.has("parsimony-strict"), "nothing registered");
    assert.throws(
      () => registerPlugins(registries, [goodTanh, goodTanh]),
      /^InputError: plugin my\.tanh: field "name": a symbol named "my\.tanh" is already registered/,
    );
  });

  test("an object missing a field fails naming the plugin and the field", () => {
    const { evaluate: _evaluate, ...noEvaluate } = goodTanh;
    assert.throws(() => createRegistries([noEvaluate]), /^InputError: plugin my\.tanh: field "evaluate" is missing$/);
    assert.throws(
      () => createRegistries([{ ...parsimonyStrict, range: [1, 0] }]),
      /^InputError: plugin parsimony-strict: field "range" must be \[lo, hi\] with lo < hi$/,
    );
  });

  test("a registered user symbol that throws raises an InputError naming the plugin and the function", () => {
    const registries = createRegistries([
      {
        ...goodTanh,
        evaluate: () => {
          throw new Error("kaput");
        },
      },
    ]);
    const symbol = registries.symbols.get("my.tanh");
    assert.throws(
      () => symbol.evaluate(1),
      (e: Error) => e instanceof InputError && e.message === "plugin my.tanh: evaluate threw: kaput",
    );
    assert.equal(symbol.text("x1"), "tanh(x1)");
    assert.equal(
      registries.symbols.get("cos"),
      builtinSymbols.find((s) => s.name === "cos"),
      "built-ins are not wrapped",
    );
    assert.throws(
      () =>
        guardSymbol({
          ...goodTanh,
          apply: () => {
            throw new RangeError("no");
          },
        }).apply(tf.scalar(1), tf),
      /^InputError: plugin my\.tanh: apply threw: no$/,
    );
  });
});
