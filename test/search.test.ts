import { test } from "node:test";
import assert from "node:assert/strict";
import { tf } from "../src/lib/tf.js";
import { createRng } from "../src/lib/rng.js";
import { experimentData, experiments, selectTargets, type Dataset } from "../src/lib/data/index.js";
import { search, type SearchOptions } from "../src/lib/search/index.js";
import { createArgminSolver } from "../src/lib/search/argmin.js";
import { createConstraintRegistry, createRewardRegistry, createSymbolRegistry } from "../src/plugins/index.js";
import type { RewardPlugin } from "../src/lib/plugins.js";

tf.env().set("PROD", true);
await tf.setBackend("cpu");
const symbols = createSymbolRegistry();
const lookup = (name: string) => symbols.get(name);
const argmin = await createArgminSolver();
const constraints = ["static", "dynamic"].map((name) => createConstraintRegistry().get(name));
const reward = createRewardRegistry().get("inv-nrmse");

function syn1(target: string, seed = 0, rows = 400): Dataset {
  return selectTargets(experimentData(experiments.syn1!, { rng: createRng(seed), symbols: lookup, rows }).train, [target]);
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
  assert.ok(result.structures <= result.episodes, "every structure fitted once (cache)");
  assert.ok(result.front.length >= 1 && result.front.at(-1)!.nrmse < 1e-6, "the Pareto front ends at the exact fit");
});

test("the same seed gives the same search, a different seed a different one", async () => {
  const run = async (seed: number) => {
    const r = await search(syn1("y1"), options(seed, { settings: { terms: 2, maxFactors: 2, episodes: 15 } }));
    return JSON.stringify({ eq: r.equations, front: r.front, rewards: r.outputs[0]!.rewards });
  };
  const a = await run(4);
  assert.equal(await run(4), a);
  assert.notEqual(await run(5), a);
});

test("trained −Q and −R are convex along random segments of the action box and keep z-path weights ≥ 0", async () => {
  const result = await search(syn1("y1", 1), options(1, { settings: { terms: 2, maxFactors: 2, episodes: 25 } }));
  const { q, r } = result.outputs[0]!.nets!;
  const rng = createRng(9);
  for (const net of [q, r]) {
    assert.ok(net.minZWeight() >= 0, `z-path weight ${net.minZWeight()}`);
    const { state: nS, action: nA } = net.shape;
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const s = Float64Array.from({ length: nS }, () => (rng.next() < 0.3 ? rng.int(3) : 0));
      const a = Float64Array.from({ length: nA }, () => rng.next());
      const b = Float64Array.from({ length: nA }, () => rng.next());
      const mid = a.map((v, k) => (v + b[k]!) / 2);
      const fa = net.value(s, a);
      const fb = net.value(s, b);
      assert.ok(net.value(s, mid) <= (fa + fb) / 2 + 1e-6, "midpoint inequality");
      checked++;
    }
    assert.equal(checked, 300);
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
  await search(syn1("y3", 3, 200), options(3, {
    settings: { terms: 2, maxFactors: 2, episodes: 14, stopNrmse: -1, fit: { engine: "tfjs", steps: 20 } },
    onEpisode: (e) => {
      if (e.episode === 10) afterTen = tf.memory().numTensors;
    },
  }));
  assert.ok(afterTen >= 0);
  assert.equal(tf.memory().numTensors, afterTen);
});

test("a reward plugin that returns NaN mid-search stops it with its name, keeping the best so far", async () => {
  let calls = 0;
  const flaky: RewardPlugin = { kind: "reward", name: "flaky", range: [0, 1], score: ({ nrmse }) => (++calls > 5 ? Number.NaN : 1 / (1 + nrmse)) };
  const result = await search(syn1("y1"), options(0, { reward: flaky }));
  assert.equal(result.stopReason, "error");
  assert.match(result.error!.message, /^plugin flaky: score returned NaN/);
  assert.equal(result.outputs[0]!.episodes, 5);
  assert.ok(result.equations[0]!.terms.length > 0, "the best of the first 5 episodes is reported");
});

test("a constraint plugin that throws stops the search naming the plugin", async () => {
  const broken = { kind: "constraint" as const, name: "broken", describe: () => "throws", check: () => { throw new Error("boom"); } };
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
