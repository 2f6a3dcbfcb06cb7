/**
 * The DSR and VPG baselines (Petersen et al. 2021): the in-situ constraints hold on
 * every sampled expression, the float64 sampling cell is the tfjs cell, constants are fitted,
 * the answer expands into the project's factors exactly where it says it does, DSR recovers
 * Nguyen-1 within a stated budget, VPG's best-of-batch reward rises on a seeded run, tensors stay
 * flat, one seed gives byte-identical JSON, and the CLI's `fit` and `reproduce` run it. No timing
 * assertions.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { useBackend } from "../../src/lib/engine/backend.js";
import {
  expandExpression,
  evaluateExpression,
  expressionText,
  fitExpression,
  tokenLibrary,
  trainDsr,
  upperQuantile,
  type TokenLibrary,
} from "../../src/lib/baselines/index.js";
import { cellStep, createPolicy, disposePolicy, sampleBatch } from "../../src/lib/baselines/dsrPolicy.js";
import { pruneExpression } from "../../src/lib/baselines/dsrPrune.js";
import { datasetToCsv, parseCsv } from "../../src/lib/data/csv.js";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { evaluateEquation } from "../../src/lib/equation/evaluate.js";
import {
  configFromManifest,
  manifestConfig,
  pipelineData,
  resolvePipelineConfig,
  runPipeline,
  type PipelineOptions,
} from "../../src/lib/run/index.js";
import { type DsrTrainingRecord, resultToJson } from "../../src/lib/result/result.js";
import { createRng } from "../../src/lib/core/rng.js";
import { METHODS, resolveSettings } from "../../src/lib/search/index.js";
import { tf } from "../../src/lib/engine/tf.js";
import type { SymbolPlugin } from "../../src/lib/plugins/kinds.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";
import { twoInputs, testDir } from "../helpers/data.js";

const dir = testDir("dsr");

const registries = createRegistries();
const lookup = (name: string) => registries.symbols.get(name);
const allSymbols = () => registries.symbols.names().map(lookup);

/** Two inputs and every kind of token a constraint is about: trig, exp/log, x^2/sqrt, x^-1, const. */
const wideLibrary = (): TokenLibrary =>
  tokenLibrary(["a", "b"], ["x", "x^2", "sqrt", "log", "exp", "sin", "cos", "x^-1"].map(lookup));

const names = (library: TokenLibrary, tokens: readonly number[]) => tokens.map((k) => library.tokens[k]!.name);

/** The tree of a prefix expression (an independent reading of it, for the property test). */
interface Tree {
  name: string;
  children: Tree[];
}

function treeOf(library: TokenLibrary, tokens: readonly number[]): { tree: Tree; used: number } {
  let at = 0;
  const read = (): Tree => {
    const token = library.tokens[tokens[at++]!]!;
    const arity = token.kind === "binary" ? 2 : token.kind === "unary" ? 1 : 0;
    return { name: token.name, children: Array.from({ length: arity }, read) };
  };
  const tree = read();
  return { tree, used: at };
}

const hasInput = (t: Tree): boolean => t.name === "a" || t.name === "b" || t.children.some(hasInput);
const TRIG = new Set(["sin", "cos"]);
/** Parent → children it undoes, written out by hand (the library finds them from the symbols' values). */
const UNDOES: Record<string, string[]> = {
  exp: ["log"],
  log: ["exp"],
  sqrt: ["x^2"],
  "x^2": ["sqrt"],
  "x^-1": ["x^-1"],
};

/** Every violation of the constraints in a tree. */
function violations(t: Tree, trigAbove = false, parent?: string): string[] {
  const found: string[] = [];
  // A lone constant is allowed (beside a subtree with an input); an operator over constants only is not.
  if (t.children.length > 0 && !hasInput(t)) found.push(`constant-only subtree at ${t.name}`);
  if (TRIG.has(t.name) && trigAbove) found.push(`${t.name} below trig`);
  if (parent && UNDOES[parent]?.includes(t.name)) found.push(`${t.name} below ${parent}`);
  for (const c of t.children) found.push(...violations(c, trigAbove || TRIG.has(t.name), t.name));
  return found;
}

before(async () => {
  await useBackend("cpu");
});

describe("DSR's pieces", () => {
  test("dsr and vpg are model rows that record only the settings they use", () => {
    const dsrUses = ["batch", "budget", "entropy", "epsilon", "hidden", "learningRate", "maxLength", "minLength"];
    assert.equal(METHODS.dsr.kind, "model");
    assert.equal(METHODS.vpg.kind, "model");
    assert.deepEqual([...METHODS.dsr.uses].sort(), [...dsrUses, "stopNrmse"].sort());
    assert.deepEqual([...METHODS.vpg.uses].sort(), [...dsrUses.filter((k) => k !== "epsilon"), "stopNrmse"].sort());
  });

  test("the library: the identity is no token, trig and inverse pairs come from the symbols' values", () => {
    const library = wideLibrary();
    assert.deepEqual(
      names(
        library,
        library.tokens.map((_, k) => k),
      ),
      ["+", "-", "*", "/", "x^2", "sqrt", "log", "exp", "sin", "cos", "x^-1", "a", "b", "const"],
    );
    const index = (name: string) => library.tokens.findIndex((t) => t.name === name);
    const undone = (name: string) => names(library, library.inverse[index(name)]!).sort();
    assert.deepEqual(undone("exp"), ["log"]);
    assert.deepEqual(undone("log"), ["exp"]);
    assert.deepEqual(undone("x^-1"), ["x^-1"]);
    assert.deepEqual(undone("sin"), []);
    assert.deepEqual(
      names(
        library,
        library.tokens.flatMap((_, k) => (library.periodic[k] ? [k] : [])),
      ),
      ["sin", "cos"],
    );
  });

  test("plugin symbols take part by their values: abs is a token, a symbol with a period is trigonometric", () => {
    const plugin = (name: string, evaluate: (x: number) => number, period?: number): SymbolPlugin => ({
      kind: "symbol",
      name,
      complexity: 2,
      innerWeight: false,
      text: (a) => `${name}(${a})`,
      latex: (a) => `\\operatorname{${name}}(${a})`,
      evaluate,
      apply: (x) => x,
      ...(period ? { period } : {}),
    });
    const library = tokenLibrary(["a"], [plugin("abs", Math.abs), plugin("wave", (x) => Math.sin(3 * x), 2 * Math.PI)]);
    assert.deepEqual(
      names(
        library,
        library.tokens.map((_, k) => k),
      ),
      ["+", "-", "*", "/", "abs", "wave", "a", "const"],
    );
    assert.deepEqual(Array.from(library.periodic), [0, 0, 0, 0, 0, 1, 0, 0]);
  });

  test("every sampled expression keeps the constraints: lengths, no constant-only subtree, no nested trig", () => {
    const library = wideLibrary();
    const limits = { minLength: 4, maxLength: 12 };
    const policy = createPolicy(library.tokens.length, 16, createRng(1));
    const tensors = tf.memory().numTensors;
    const rng = createRng(2);
    const seen = new Set<string>();
    const lengths = new Set<number>();
    try {
      for (let round = 0; round < 4; round++) {
        const batch = sampleBatch(policy, library, limits, 500, rng);
        for (const tokens of batch.expressions) {
          const { tree, used } = treeOf(library, tokens);
          assert.equal(used, tokens.length, `a complete tree: ${names(library, tokens)}`);
          assert.ok(tokens.length >= limits.minLength && tokens.length <= limits.maxLength, `${tokens.length} tokens`);
          assert.ok(hasInput(tree), names(library, tokens).join(" "));
          assert.deepEqual(violations(tree), [], names(library, tokens).join(" "));
          for (const name of names(library, tokens)) seen.add(name);
          lengths.add(tokens.length);
        }
      }
    } finally {
      disposePolicy(policy);
    }
    assert.equal(tf.memory().numTensors, tensors - 4, "the policy's four variables freed");
    // Not vacuous: every token was drawn, and lengths reached both limits.
    assert.equal(seen.size, library.tokens.length, [...seen].join(" "));
    assert.ok(lengths.has(limits.minLength) && lengths.has(limits.maxLength), [...lengths].join(","));
  });

  test("the float64 sampling cell computes tf.basicLSTMCell and the output layer", () => {
    const tokens = 7;
    const units = 5;
    const policy = createPolicy(tokens, units, createRng(3));
    try {
      const weights = {
        kernel: Float64Array.from(policy.kernel.dataSync()),
        bias: Float64Array.from([
          0.1, -0.2, 0.3, 0, 0.05, 0.2, -0.1, 0.4, 0, 0.1, -0.3, 0.2, 0.1, 0, 0.2, -0.2, 0.3, 0.1, 0, 0.1,
        ]),
        outWeights: Float64Array.from(policy.outWeights.dataSync()),
        outBias: Float64Array.from({ length: tokens }, (_, k) => 0.1 * k),
      };
      policy.bias.assign(tf.tensor1d(Float32Array.from(weights.bias)));
      policy.outBias.assign(tf.tensor1d(Float32Array.from(weights.outBias)));
      const c = Float64Array.from({ length: units }, (_, u) => 0.3 - 0.1 * u);
      const h = Float64Array.from({ length: units }, (_, u) => 0.2 * u - 0.4);
      const [parent, sibling] = [2, 5];
      const expected = tf.tidy(() => {
        const input = new Float32Array(2 * (tokens + 1));
        input[parent] = 1;
        input[tokens + 1 + sibling] = 1;
        const [, h2] = tf.basicLSTMCell(
          1,
          policy.kernel,
          policy.bias,
          tf.tensor2d(input, [1, input.length]),
          tf.tensor2d(Float32Array.from(c), [1, units]),
          tf.tensor2d(Float32Array.from(h), [1, units]),
        );
        return tf.add(tf.matMul(h2, policy.outWeights), policy.outBias).dataSync();
      });
      const logits = new Float64Array(tokens);
      cellStep(weights, units, tokens, parent, sibling, c, h, new Float64Array(4 * units), logits);
      for (let k = 0; k < tokens; k++)
        assert.ok(Math.abs(logits[k]! - expected[k]!) < 1e-5, `${logits[k]} ${expected[k]}`);
    } finally {
      disposePolicy(policy);
    }
  });

  test("constants are fitted in float64: 3·a + 0.5 and 2·sin(1.5·a) from all-ones", () => {
    const library = tokenLibrary(["a"], [lookup("sin")]);
    const token = (name: string) => library.tokens.findIndex((t) => t.name === name);
    const a = Float64Array.from({ length: 40 }, (_, i) => -2 + 0.1 * i);
    const linear = ["+", "*", "const", "a", "const"].map(token);
    const fitted = fitExpression(
      library,
      linear,
      [a],
      a.map((v) => 3 * v + 0.5),
      a.length,
      1,
    );
    assert.ok(Math.abs(fitted.constants[0]! - 3) < 1e-9 && Math.abs(fitted.constants[1]! - 0.5) < 1e-9);
    assert.ok(fitted.nrmse < 1e-12);
    const sine = ["*", "const", "sin", "*", "const", "a"].map(token);
    const y = a.map((v) => 2 * Math.sin(1.5 * v));
    const wave = fitExpression(library, sine, [a], y, a.length, 1);
    assert.ok(wave.nrmse < 1e-9, `NRMSE ${wave.nrmse}`);
    assert.equal(expressionText(library, sine, [2, 1.5]), "2*sin(1.5*a)");
  });

  test("an expansion evaluates like its expression, on 600 sampled expressions with constants", () => {
    const library = tokenLibrary(["a", "b"], ["x^2", "x^3", "sqrt", "sin", "cos", "exp", "x^-1"].map(lookup));
    const policy = createPolicy(library.tokens.length, 16, createRng(4));
    const batch = sampleBatch(policy, library, { minLength: 4, maxLength: 10 }, 600, createRng(5));
    disposePolicy(policy);
    const rows = 12;
    const rng = createRng(6);
    // Positive inputs keep log and sqrt in their domain.
    const a = Float64Array.from({ length: rows }, () => rng.uniform(0.5, 2));
    const b = Float64Array.from({ length: rows }, () => rng.uniform(0.5, 2));
    const reasons = new Set<string>();
    let expanded = 0;
    for (const tokens of batch.expressions) {
      const constants = Float64Array.from(
        tokens.filter((k) => k === library.constant),
        () => rng.uniform(-2, 2),
      );
      const values = evaluateExpression(library, tokens, constants, [a, b], rows);
      if (!values.every((v) => Number.isFinite(v) && Math.abs(v) < 1e6)) continue;
      const expansion = expandExpression(library, tokens, constants, allSymbols());
      if (!expansion.terms) {
        reasons.add(expansion.reason!.replace(/^\S+ of/, "f of"));
        continue;
      }
      expanded++;
      const sum = evaluateEquation({ target: "y", terms: expansion.terms }, lookup, (n) => (n === "a" ? a : b), rows);
      for (let i = 0; i < rows; i++)
        assert.ok(
          Math.abs(sum[i]! - values[i]!) <= 1e-8 * Math.max(1, Math.abs(values[i]!)),
          `${expressionText(library, tokens, constants)}: ${sum[i]} vs ${values[i]}`,
        );
    }
    assert.ok(expanded >= 40, `${expanded} expanded`);
    assert.ok(reasons.size >= 1, "some expressions do not expand, with a reason");
  });

  test("expansion: powers add up, a biased sine splits, a sine of a sum says why it does not expand", () => {
    const library = tokenLibrary(["a", "b"], ["x^2", "x^3", "sin", "cos", "exp"].map(lookup));
    const token = (name: string) => library.tokens.findIndex((t) => t.name === name);
    const expand = (prefix: string, constants: number[] = []) =>
      expandExpression(library, prefix.split(" ").map(token), constants, allSymbols());
    const factors = (e: ReturnType<typeof expand>) =>
      e.terms!.map((t) => [t.coefficient, t.factors.map((f) => `${f.symbol}(${f.input})`).join("·")]);
    assert.deepEqual(factors(expand("* * a a a")), [[1, "x^3(a)"]]);
    assert.deepEqual(factors(expand("/ a x^2 a")), [[1, "x^-1(a)"]]);
    assert.deepEqual(factors(expand("* x^3 a a")), [[1, "x^3(a)·x(a)"]]);
    const biased = expand("sin + * const a const", [2, 0.5]);
    assert.deepEqual(factors(biased), [
      [Math.cos(0.5), "sin(a)"],
      [Math.sin(0.5), "cos(a)"],
    ]);
    assert.equal(biased.terms![0]!.factors[0]!.weight, 2);
    assert.deepEqual(factors(expand("exp + a const", [1.5])), [[Math.exp(1.5), "exp(a)"]]);
    // cos(2.5·a − 2.5·(a + b)): the a terms cancel inside, leaving cos(−2.5·b).
    const cancelled = expand("cos - * const a * const + a b", [2.5, 2.5]);
    assert.deepEqual(factors(cancelled), [[1, "cos(b)"]]);
    assert.equal(cancelled.terms![0]!.factors[0]!.weight, -2.5);
    assert.match(expand("sin + a b").reason!, /^sin of anything but c·x of one input/);
    assert.match(expand("/ a + a b").reason!, /division by a sum/);
    // a/(c/(cos(1.5·b)·a)) = a²·cos(1.5·b)/c; a/sin(a) keeps a divided symbol.
    assert.deepEqual(factors(expand("/ a / const * cos * const b a", [2, 1.5])), [[0.5, "x^2(a)·cos(b)"]]);
    assert.match(expand("/ a sin a").reason!, /^a division by sin\(a\)/);
  });

  test("the answer's negligible addends and subtrees constant on the data are dropped", () => {
    const library = tokenLibrary(["a"], ["exp", "sin"].map(lookup));
    const token = (name: string) => library.tokens.findIndex((t) => t.name === name);
    const a = Float64Array.from({ length: 30 }, (_, i) => -1 + i / 15);
    const y = a.map((v) => v * v);
    // a·a + 1e-9·exp(a), and a·a·exp(1e-9·sin(a)) (a factor of e^0 = 1).
    const added = pruneExpression(
      library,
      "+ * a a * const exp a".split(" ").map(token),
      Float64Array.of(1e-9),
      [a],
      y,
      30,
      1,
    );
    assert.deepEqual(names(library, added.tokens), ["*", "a", "a"]);
    const factor = pruneExpression(
      library,
      "* * a a exp * const sin a".split(" ").map(token),
      Float64Array.of(1e-9),
      [a],
      y,
      30,
      1,
    );
    assert.deepEqual(names(library, factor.tokens), ["*", "*", "a", "a", "const"]);
    assert.ok(factor.nrmse < 1e-12);
    // A term that matters stays.
    const kept = pruneExpression(
      library,
      "+ * a a * const exp a".split(" ").map(token),
      Float64Array.of(0.1),
      [a],
      y,
      30,
      1,
    );
    assert.deepEqual(names(library, kept.tokens), ["+", "*", "a", "a", "*", "const", "exp", "a"]);
  });

  test("the risk-seeking quantile: the top ε of a batch sits at or above it", () => {
    const rewards = Array.from({ length: 100 }, (_, i) => i / 100);
    const q = upperQuantile(rewards, 0.05);
    assert.equal(rewards.filter((r) => r >= q).length, 5);
    assert.equal(upperQuantile(rewards, 1), 0);
  });
});

describe("DSR and VPG searches", () => {
  const nguyen1 = (seed: number, method: "dsr" | "vpg", search: PipelineOptions["search"] = {}) => {
    const config = resolvePipelineConfig({ experiment: "nguyen-1", rows: 20, seed, method, search }, registries);
    return runPipeline({ config, data: pipelineData(config, { registries }), registries, backend: tf.getBackend() });
  };

  test("DSR recovers Nguyen-1 (x³ + x² + x, 20 rows) within 10000 samples, seeds 0 and 1", async () => {
    for (const seed of [0, 1]) {
      const { result } = await nguyen1(seed, "dsr", { budget: 10_000 });
      const [evaluation] = result.evaluation!;
      const training = result.models![0]!.training as DsrTrainingRecord;
      assert.ok(evaluation!.exact, `seed ${seed}: ${result.models![0]!.expression!.text} (${evaluation!.reason})`);
      assert.equal(training.stopReason, "reward-threshold");
      assert.ok(training.samples <= 10_000);
      assert.equal(result.equations[0]!.text, "x1 + x1^2 + x1^3");
    }
  });

  test("VPG's best-of-batch reward rises over a seeded run (y = a·b + sin(a), 20 batches of 200)", () => {
    const data = twoInputs(40, 7, [-2, 2], (a, b) => a * b + Math.sin(a));
    const library = tokenLibrary(data.inputs, ["x^2", "sin", "cos", "exp"].map(lookup));
    const settings = { ...resolveSettings("vpg"), budget: 4000, batch: 200, maxLength: 12, stopNrmse: -1 };
    const trained = trainDsr(data, "y", library, settings, "vpg", createRng(0));
    const best = trained.batchBest;
    assert.equal(best.length, 20);
    const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
    const shown = best.map((v) => v.toFixed(3)).join(" ");
    assert.ok(best.at(-1)! > best[0]!, shown);
    assert.ok(mean(best.slice(-5)) > mean(best.slice(0, 5)) + 0.05, shown);
  });
});

describe("DSR and VPG through the pipeline and the CLI", () => {
  const data: Dataset = twoInputs(60, 11, [-1, 1], (a, b) => a * b + a);
  const table = parseCsv(datasetToCsv(data), "problem.csv");
  const options = (seed: number, method: "dsr" | "vpg"): PipelineOptions => ({
    seed,
    csv: { name: "problem.csv", table },
    targets: ["y"],
    method,
    search: { budget: 600, batch: 200, stopNrmse: -1 },
  });
  const run = async (seed: number, method: "dsr" | "vpg") => {
    const config = resolvePipelineConfig(options(seed, method), registries);
    const pipeline = pipelineData(config, { registries, table });
    return (await runPipeline({ config, data: pipeline, registries, backend: tf.getBackend() })).result;
  };

  test("one seed: byte-identical JSON, another seed: another; tensors flat; manifest settings", async () => {
    for (const method of ["dsr", "vpg"] as const) {
      const tensors = tf.memory().numTensors;
      const result = await run(3, method);
      const first = resultToJson(result);
      assert.equal(tf.memory().numTensors, tensors, `tensors left behind by ${method}`);
      assert.equal(resultToJson(await run(3, method)), first);
      assert.notEqual(resultToJson(await run(4, method)), first);
      assert.equal(tf.memory().numTensors, tensors);
      const [model] = result.models!;
      const training = model!.training as DsrTrainingRecord;
      assert.equal(model!.model, method);
      assert.equal(training.samples, 600);
      assert.equal(training.iterations, 3);
      assert.equal(training.batchBest.length, 3);
      assert.equal(result.equations.length, model!.expression!.expanded ? 1 : 0);
      const settings = method === "dsr" ? ["budget", "epsilon", "stopNrmse"] : ["budget", "stopNrmse"];
      assert.deepEqual(Object.keys(result.manifest.config), [
        "data",
        "targets",
        "inputs",
        "method",
        ...settings,
        "batch",
        "hidden",
        "learningRate",
        "entropy",
        "minLength",
        "maxLength",
      ]);
      assert.deepEqual(manifestConfig(configFromManifest(result)), result.manifest.config);
    }
  });

  test("bad settings are one InputError naming the setting", () => {
    assert.throws(() => resolveSettings("dsr", { hidden: [8, 8] }), /hidden must be one width for dsr/);
    assert.throws(() => resolveSettings("vpg", { budget: 0 }), /budget must be at least 1 for vpg/);
    assert.throws(() => resolveSettings("dsr", { epsilon: 0 }), /epsilon must be above 0 for dsr/);
    assert.throws(
      () => resolveSettings("dsr", { minLength: 20, maxLength: 21 }),
      /minLength must be at most maxLength/,
    );
    assert.throws(() => resolveSettings("dsr", { entropy: 2 }), /entropy must be a number from 0 to 1 \(got 2\)/);
    assert.throws(() => resolveSettings("dsr", { maxLength: 100 }), /maxLength must be an integer from 3 to 64/);
  });

  test("fit --method dsr writes its model; reproduce re-runs it (exit 0); a bad flag: one error line", async () => {
    const csv = join(dir, "problem.csv");
    const out = join(dir, "dsr.json");
    writeFileSync(csv, datasetToCsv(data));
    const flags = ["--method", "dsr", "--budget", "400", "--batch", "200", "--quiet"];
    const fit = await cli(["fit", csv, "--target", "y", ...flags, "--out", out]);
    assert.equal(fit.code, 0, fit.stderr);
    assert.match(fit.stdout, /^y = dsr\(x1, x2\) {2}\[34-32-16 lstm, 9104 parameters; train NRMSE /m);
    const result = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(result.models[0].model, "dsr");
    assert.equal(result.models[0].training.samples, 400);
    const again = await cli(["reproduce", out, "--quiet"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /reproduced exactly/);
    const bad = (...extra: string[]) => cli(["fit", csv, "--target", "y", ...flags, ...extra]);
    assertInputError(await bad("--hidden", "8,8"), "hidden", "one width for dsr");
    assertInputError(await bad("--epsilon", "0"), "epsilon", "above 0 for dsr");
    assertInputError(await bad("--budget", "0"), "budget", "at least 1 for dsr");
  });
});
