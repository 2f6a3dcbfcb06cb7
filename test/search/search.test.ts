import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../../src/lib/engine/tf.js";
import { createRng } from "../../src/lib/core/rng.js";
import { experimentData, experiments, selectTargets, type Dataset } from "../../src/lib/data/index.js";
import {
  createEvaluator,
  HallOfFame,
  search,
  settingsRecord,
  type Candidate,
  type SearchOptions,
} from "../../src/lib/search/index.js";
import { fitLocalSync } from "../../src/lib/local/fit.js";
// fitLocalSync on the tfjs engine needs it registered (the library's entry does that).
import "../../src/lib/local/fitTfjs.js";
import { equationsOfLocal } from "../../src/lib/local/extract.js";
import { simplifyEquation } from "../../src/lib/equation/simplify.js";
import { equationText } from "../../src/lib/equation/format.js";
import { createSpace } from "../../src/lib/search/cmp.js";
import { ConstraintGate } from "../../src/lib/search/constraints.js";
import { Trajectories } from "../../src/lib/search/trajectory.js";
import { createArgminSolver } from "../../src/lib/search/argmin.js";
import { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import type { RewardPlugin } from "../../src/lib/plugins/kinds.js";

tf.env().set("PROD", true);
await tf.setBackend("cpu");
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const argmin = await createArgminSolver();
const constraints = ["static", "dynamic"].map((name) => createConstraintRegistry().get(name));
const reward = createRewardRegistry().get("inv-nrmse");

function syn1(target: string, seed = 0, rows = 400): Dataset {
  return selectTargets(experimentData(experiments.syn1!, { rng: createRng(seed), symbols: lookup, rows }).train, [
    target,
  ]);
}

const options = (seed: number, extra: Partial<SearchOptions> = {}): SearchOptions => ({
  symbols,
  pool: experiments.syn1!.symbols,
  constraints,
  reward,
  rng: createRng(seed),
  argmin,
  settings: { terms: 2, maxFactors: 2, episodes: 600 },
  ...extra,
});

test("the search recovers syn1's y2 = 4·x1·x3 exactly and says why it stopped", async () => {
  const result = await search(syn1("y2"), options(0));
  assert.equal(result.stopReason, "reward-threshold");
  assert.equal(result.equations[0]!.text, "4*x1*x3");
  assert.equal(
    result.structures,
    result.episodes,
    "every episode fitted a new structure (a repeat is redrawn, not refitted)",
  );
  assert.ok(result.front.length >= 1 && result.front.at(-1)!.nrmse < 1e-6, "the Pareto front ends at the exact fit");
});

test(
  "the same seed gives the same search; " +
    "the stochastic proposals differ with the seed, the linear-algebra ones do not",
  async () => {
    const run = async (seed: number, proposal: "linear" | "operators") => {
      const r = await search(
        syn1("y1"),
        options(seed, { settings: { terms: 2, maxFactors: 2, episodes: 15, proposal } }),
      );
      return JSON.stringify({ eq: r.equations, front: r.front, rewards: r.outputs[0]!.rewards });
    };
    const a = await run(4, "operators");
    assert.equal(await run(4, "operators"), a);
    assert.notEqual(await run(5, "operators"), a);
    const b = await run(4, "linear");
    assert.equal(await run(4, "linear"), b);
    assert.equal(await run(5, "linear"), b, "syn1's y1 is the first linear-algebra proposal whatever the seed");
  },
);

test("trained −Q and −R are convex along random segments of the action box and keep z-path weights ≥ 0", async () => {
  const result = await search(syn1("y1", 1), options(1, { settings: { terms: 2, maxFactors: 2, episodes: 25 } }));
  const { q, r } = result.outputs[0]!.nets!;
  const rng = createRng(9);
  for (const net of [q, r]) {
    assert.ok(net.minZWeight() >= 0, `z-path weight ${net.minZWeight()}`);
    const { state: nS, action: nA } = net.shape;
    let curved = 0;
    for (let i = 0; i < 300; i++) {
      const s = Float64Array.from({ length: nS }, () => (rng.next() < 0.3 ? rng.int(3) : 0));
      const a = Float64Array.from({ length: nA }, () => rng.next());
      const b = Float64Array.from({ length: nA }, () => rng.next());
      const mid = a.map((v, k) => (v + b[k]!) / 2);
      const fa = net.value(s, a);
      const fb = net.value(s, b);
      const gap = (fa + fb) / 2 - net.value(s, mid);
      assert.ok(gap >= -1e-6, "midpoint inequality");
      if (gap > 1e-9) curved++;
    }
    // A net that collapsed to an affine (or constant) function would pass the inequality trivially.
    assert.ok(curved >= 30, `only ${curved} of 300 segments are strictly convex`);
  }
});

test("the LP argmin of the trained −Q is never worse than 1000 random box points", async () => {
  const result = await search(syn1("y3", 2), options(2, { settings: { terms: 2, maxFactors: 2, episodes: 20 } }));
  const { q } = result.outputs[0]!.nets!;
  const rng = createRng(3);
  const state = Float64Array.from({ length: q.shape.state }, (_, k) => (k < 3 ? 1 : 0));
  const best = argmin.lp(q, state);
  for (let i = 0; i < 1000; i++) {
    const a = Float64Array.from({ length: q.shape.action }, () => rng.next());
    assert.ok(best.value <= q.value(state, a) + 1e-9);
  }
});

test("fits on tfjs leave the tensor count after episode 10 equal to the count at the end", async () => {
  let afterTen = -1;
  await search(
    syn1("y3", 3, 200),
    options(3, {
      settings: { terms: 2, maxFactors: 2, episodes: 14, stopNrmse: -1, fit: { engine: "tfjs", steps: 20 } },
      onEpisode: (e) => {
        if (e.episode === 10) afterTen = tf.memory().numTensors;
      },
    }),
  );
  assert.ok(afterTen >= 0);
  assert.equal(tf.memory().numTensors, afterTen);
});

test("a reward plugin that returns NaN mid-search stops it with its name, keeping the best so far", async () => {
  let calls = 0;
  const flaky: RewardPlugin = {
    kind: "reward",
    name: "flaky",
    range: [0, 1],
    score: ({ nrmse }) => (++calls > 5 ? Number.NaN : 1 / (1 + nrmse)),
  };
  // (The operators proposals: the linear-algebra ones find y1 at the first episode.)
  const result = await search(
    syn1("y1"),
    options(0, { reward: flaky, settings: { terms: 2, maxFactors: 2, proposal: "operators" } }),
  );
  assert.equal(result.stopReason, "error");
  assert.match(result.error!.message, /^plugin flaky: score returned NaN/);
  assert.equal(result.outputs[0]!.episodes, 5);
  assert.ok(result.equations[0]!.terms.length > 0, "the best of the first 5 episodes is reported");
});

test("a constraint plugin that throws stops the search naming the plugin", async () => {
  const broken = {
    kind: "constraint" as const,
    name: "broken",
    describe: () => "throws",
    check: () => {
      throw new Error("boom");
    },
  };
  const result = await search(syn1("y1"), options(0, { constraints: [broken] }));
  assert.equal(result.stopReason, "error");
  assert.match(result.error!.message, /^plugin broken: check threw: boom/);
});

test("enumerate visits every structure once, independent of the seed, and finds syn1's y3 = 3·x3²", async () => {
  const result = await search(syn1("y3"), options(0, { method: "enumerate" }));
  assert.equal(result.equations[0]!.text, "3*x3^2");
  assert.equal(result.outputs[0]!.stopReason, "reward-threshold");
  assert.equal(result.structures, result.episodes, "no structure is fitted twice");
  const again = await search(syn1("y3"), options(7, { method: "enumerate" }));
  assert.equal(again.episodes, result.episodes, "enumeration does not depend on the seed");
});

test("random search uses the same constraints and cache and finds syn1's y2 = 4·x1·x3", async () => {
  const result = await search(syn1("y2"), options(1, { method: "random" }));
  assert.equal(result.equations[0]!.text, "4*x1*x3");
  assert.equal(result.outputs[0]!.actions.greedy, 0, "no greedy action without a Q-network");
});

test(
  "--method paper runs Algorithm 2: LP-greedy actions, the |R − 1| ≤ λ stop, the best fit as its answer, " +
    "and a manifest with λ and no NRMSE stop",
  async () => {
    const result = await search(syn1("y2"), options(0, { method: "paper", settings: { episodes: 120 } }));
    const out = result.outputs[0]!;
    assert.ok(out.actions.greedy > 0, "some actions are the LP argmin of −Q");
    assert.ok(out.actions.random > 0, "ε-greedy: some are random");
    assert.equal(out.stopReason, "reward-threshold");
    assert.ok(Math.abs(out.rewards.at(-1)! - 1) <= 0.01, `last reward ${out.rewards.at(-1)}`);
    assert.ok(
      Math.abs(out.rewards.slice(0, -1).reduce((m, r) => Math.max(m, r), 0) - 1) > 0.01,
      "it stopped at the first reward within λ",
    );
    assert.equal(out.best!.nrmse, Math.min(...out.front.map((c) => c.nrmse)), "the answer is the best fit");
    const record = settingsRecord(result.settings);
    assert.equal(record.lambda, 0.01);
    assert.equal(record.epochs, 50);
    for (const unused of ["stopNrmse", "candidates", "rank", "parents", "proposal"])
      assert.ok(!(unused in record), `paper's manifest holds ${unused}`);
  },
);

test("the budget stops a search at exactly that many distinct structures", async () => {
  const result = await search(syn1("y1"), options(2, { method: "random", settings: { budget: 7, stopNrmse: -1 } }));
  assert.equal(result.outputs[0]!.stopReason, "budget");
  assert.equal(result.structures, 7);
});

test(
  "a used-up space stops as exhausted: enumerate when nothing is left, " + "random after 100 episodes with nothing new",
  async () => {
    const tiny = { pool: ["x"], settings: { terms: 1, maxFactors: 1, stopNrmse: -1 } };
    const listed = await search(syn1("y1"), options(0, { method: "enumerate", ...tiny }));
    assert.equal(listed.outputs[0]!.stopReason, "exhausted");
    assert.equal(listed.structures, 3, "x1, x2, x3");
    assert.equal(listed.episodes, 3);
    const drawn = await search(syn1("y1"), options(0, { method: "random", ...tiny }));
    assert.equal(drawn.outputs[0]!.stopReason, "exhausted");
    assert.equal(drawn.structures, 3);
    assert.ok(drawn.episodes >= 103 && drawn.episodes < 150, `${drawn.episodes} episodes`);
  },
);

test(
  "HallOfFame keeps the best per complexity, " +
    "and choose answers with the simplest candidate within 5 % of the best NRMSE",
  () => {
    const c = (complexity: number, nrmse: number) =>
      ({ complexity, nrmse, key: `${complexity}/${nrmse}` }) as Candidate;
    const hall = new HallOfFame();
    assert.equal(hall.choose(), undefined);
    for (const x of [c(3, 0.1), c(7, 0.104), c(8, 0.09), c(8, 0.2)]) hall.add(x);
    assert.deepEqual(
      hall.front().map((x) => x.key),
      ["3/0.1", "8/0.09"],
      "c7 is dominated; the worse c8 is not kept",
    );
    assert.equal(hall.choose()!.key, "8/0.09", "0.1 is not within 5 % of 0.09");
    hall.add(c(4, 0.094));
    assert.equal(hall.choose()!.key, "4/0.094", "0.094 ≤ 1.05 · 0.09: the simpler one wins");
    const exact = new HallOfFame();
    for (const x of [c(5, 1e-12), c(9, 0.5e-12), c(2, 1e-3)]) exact.add(x);
    assert.equal(
      exact.choose()!.key,
      "5/1e-12",
      "at machine precision the floor (1e-9) makes both exact; the simpler wins",
    );
  },
);

test("dynamic keeps a product whose |ρ| reaches the threshold in every later trajectory, and not one below it", () => {
  const space = createSpace(["x1", "x2", "x3"], ["x", "x^2", "cos"], 2, "structure");
  const limits = { maxFactors: 2, maxTerms: 2, pearson: 0.9999 };
  const gate = new ConstraintGate(constraints, space, limits);
  assert.deepEqual(gate.kept(), []);
  const fitted = {
    nrmse: 0.02,
    evidence: [
      { product: [0, 4], pearson: 0.99995 },
      { product: [6], pearson: 0.999 },
    ],
  } as unknown as Candidate;
  gate.record(fitted);
  const keep = gate.kept();
  assert.deepEqual(keep, [[0, 4]], "x1·x2² is kept, x3 (|ρ| 0.999) is not");
  const trajectories = new Trajectories(space, limits, gate, createRng(8), "y", "uniform");
  const products = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const { structure } = trajectories.rollout(1, keep);
    assert.ok(
      structure.products.some((p) => p.join(".") === "0.4"),
      `trajectory ${i} dropped the kept product: ${JSON.stringify(structure.products)}`,
    );
    for (const p of structure.products) products.add(p.join("."));
  }
  assert.ok(products.size > 10, "the other slot is still searched");
});

test(
  "a near-linear sin folds before the answer is chosen: " + "{x1·x2, x1·sin(w·x2)} fitted to y = 2·x1·x2 is 2·x1·x2",
  () => {
    const rng = createRng(0);
    const n = 500;
    const x1 = Float64Array.from({ length: n }, () => 1 + rng.next());
    const x2 = Float64Array.from({ length: n }, () => 1 + rng.next());
    const y = x1.map((v, i) => 2 * v * x2[i]!);
    const data: Dataset = { inputs: ["x1", "x2"], targets: ["y"], x: [x1, x2], y: [y], rows: n };
    const structure = {
      inputs: ["x1", "x2"],
      symbols: ["x", "sin"],
      outputs: ["y"],
      products: [
        [0, 2],
        [0, 3],
      ],
      sums: [[0, 1]],
    };
    // The defect: the fit itself lands on 1.997·x1·x2 + 5.251·x1·sin(0.00056·x2), which simplification alone keeps.
    const fitted = fitLocalSync(structure, { x: [x1, x2], y: [y] }, { symbols, engine: "js", steps: 50, polish: "lm" });
    const [raw] = equationsOfLocal(structure, fitted.weights, lookup);
    const plain = simplifyEquation(raw!, {
      symbols: lookup,
      inputOrder: data.inputs,
      symbolOrder: symbols.names(),
      columns: (c) => (c === "x1" ? x1 : x2),
      rows: n,
    });
    assert.equal(plain.terms.length, 2);
    assert.ok(
      plain.terms.some((t) => t.factors.some((f) => f.symbol === "sin" && Math.abs(f.weight!) < 0.01)),
      "the fit uses a near-linear sin",
    );
    const { candidate } = createEvaluator(data, "y", symbols, reward, {
      engine: "js",
      steps: 50,
      polish: "lm",
    }).evaluate(structure);
    assert.equal(equationText(candidate.equation, lookup), "2*x1*x2");
    assert.ok(candidate.nrmse < 1e-12, `NRMSE ${candidate.nrmse}`);
  },
);

test("a product kept at a wider size is not forced on a narrower one (its evidence outlives the size)", () => {
  const space = createSpace(["x1", "x2", "x3"], ["x", "x^2", "cos"], 2, "structure");
  const evidence = [{ product: [0, 3, 6], pearson: 0.99999, nrmse: 0.01 }];
  const narrow = new ConstraintGate(constraints, space, { maxFactors: 2, maxTerms: 2, pearson: 0.9999 }, evidence);
  assert.deepEqual(narrow.kept(), [], "three factors do not fit a size of two");
  const wide = new ConstraintGate(constraints, space, { maxFactors: 3, maxTerms: 2, pearson: 0.9999 }, evidence);
  assert.deepEqual(wide.kept(), [[0, 3, 6]]);
  const trajectories = new Trajectories(
    space,
    { maxFactors: 2, maxTerms: 2, pearson: 0.9999 },
    narrow,
    createRng(2),
    "y",
    "uniform",
  );
  for (let i = 0; i < 50; i++)
    assert.ok(trajectories.rollout(1, narrow.kept()).structure.products.every((p) => p.length <= 2));
});
