import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createRng, type Rng } from "../../src/lib/core/rng.js";
import { Icnn, type IcnnShape } from "../../src/lib/search/icnn.js";
import { createArgminSolver, roundAction, type ActionConstraints } from "../../src/lib/search/argmin.js";

const solver = await createArgminSolver();

const vec = (n: number, f: (j: number) => number) => Float64Array.from({ length: n }, (_, j) => f(j));
const randomBox = (rng: Rng, n: number) => vec(n, () => rng.next());
const randomBinary = (rng: Rng, n: number) => vec(n, () => (rng.next() < 0.5 ? 0 : 1));
const randomState = (rng: Rng, n: number) => vec(n, () => rng.int(3));

/** A nonconvex target: bumps and waves in the action, shifted by the state. */
function wavy(s: ArrayLike<number>, a: ArrayLike<number>): number {
  let t = 0,
    u = 0;
  for (let j = 0; j < a.length; j++) {
    t += Math.sin(3 * a[j]! + j + (s[j % s.length] ?? 0));
    u += (j % 2 ? 1 : -1) * a[j]!;
  }
  return t - 2 * u * u + Math.cos(2 * u);
}

/** A net trained on `wavy` (nonconvex) data: mixed binary and box actions. */
function trainedNet(shape: IcnnShape, seed: number, samples = 300, epochs = 50): Icnn {
  const rng = createRng(seed);
  const net = new Icnn(shape, rng.fork());
  const S: Float64Array[] = [],
    A: Float64Array[] = [],
    Y: number[] = [];
  for (let i = 0; i < samples; i++) {
    const s = randomState(rng, shape.state);
    const a = i % 2 ? randomBinary(rng, shape.action) : randomBox(rng, shape.action);
    S.push(s);
    A.push(a);
    Y.push(wavy(s, a));
  }
  net.train(S, A, Y, { epochs, learningRate: 5e-3, batchSize: 100, rng });
  return net;
}

/** Every binary vector of length n (n ≤ 12). */
function* binaries(n: number): Generator<Float64Array> {
  for (let m = 0; m < 1 << n; m++) yield vec(n, (j) => (m >> j) & 1);
}

const small: IcnnShape = { state: 3, action: 10, hidden: [12, 12] };

test("training projects every z-path weight onto ≥ 0, and the projection is active (some end exactly at 0)", () => {
  const net = trainedNet({ state: 4, action: 6, hidden: [16, 16, 8] }, 1);
  assert.ok(net.minZWeight() >= 0, `min z-path weight ${net.minZWeight()}`);
  let zeros = 0;
  for (const l of net.layers()) if (l.wz) for (const w of l.wz) if (w === 0) zeros++;
  assert.ok(zeros > 0, "no z-path weight was clipped: the targets did not exercise the projection");
});

test(
  "a net trained on nonconvex targets is convex along 500 random " +
    "segments (state fixed or free), while the same check flags the targets",
  () => {
    const net = trainedNet({ state: 4, action: 6, hidden: [16, 16] }, 2);
    const rng = createRng(20);
    let worst = -Infinity,
      curvature = 0,
      targetViolations = 0;
    for (let t = 0; t < 500; t++) {
      const s1 = randomState(rng, 4).map((v) => v + rng.next());
      const s2 = t % 2 ? s1 : randomState(rng, 4).map((v) => v + rng.next());
      const a1 = randomBox(rng, 6),
        a2 = randomBox(rng, 6);
      const sm = s1.map((v, j) => (v + s2[j]!) / 2),
        am = a1.map((v, j) => (v + a2[j]!) / 2);
      const chord = (net.value(s1, a1) + net.value(s2, a2)) / 2;
      const mid = net.value(sm, am);
      worst = Math.max(worst, mid - chord);
      curvature = Math.max(curvature, chord - mid);
      if (wavy(sm, am) > (wavy(s1, a1) + wavy(s2, a2)) / 2 + 1e-6) targetViolations++;
    }
    assert.ok(worst <= 1e-6, `f(mid) exceeds the chord by ${worst}`);
    assert.ok(curvature > 1e-3, `the net is (nearly) affine: largest chord gap ${curvature}`);
    assert.ok(targetViolations > 50, `the check found only ${targetViolations} violations on the nonconvex targets`);
  },
);

test("training on a learnable convex target ‖a − c‖² (plus a state term) cuts the MSE by more than 10×", () => {
  const rng = createRng(3);
  const nS = 5,
    nA = 8;
  const c = vec(nA, (j) => (j % 3 === 0 ? 0.8 : 0.2));
  const S: Float64Array[] = [],
    A: Float64Array[] = [],
    Y: number[] = [];
  for (let i = 0; i < 300; i++) {
    const s = randomState(rng, nS),
      a = randomBox(rng, nA);
    let y = 0.3 * s[0]!;
    for (let j = 0; j < nA; j++) y += (a[j]! - c[j]!) ** 2;
    S.push(s);
    A.push(a);
    Y.push(y);
  }
  const net = new Icnn({ state: nS, action: nA, hidden: [32, 32] }, rng.fork());
  const before = net.train(S, A, Y, { epochs: 0, learningRate: 5e-3, batchSize: 100, rng });
  let after = NaN;
  for (let round = 0; round < 4; round++)
    after = net.train(S, A, Y, { epochs: 50, learningRate: 5e-3, batchSize: 100, rng });
  assert.ok(after < before / 10, `MSE ${before} → ${after}`);
  assert.ok(net.minZWeight() >= 0);
});

test("the same seeds give bit-identical weights after training; another data seed gives different ones", () => {
  const a = trainedNet(small, 7, 200, 10),
    b = trainedNet(small, 7, 200, 10),
    c = trainedNet(small, 8, 200, 10);
  assert.deepEqual(a.parameters(), b.parameters());
  assert.notDeepEqual(a.parameters(), c.parameters());
});

test("gradAction matches central finite differences of value", () => {
  const net = trainedNet({ state: 3, action: 7, hidden: [10, 9, 8] }, 4, 100, 5);
  const rng = createRng(40);
  for (let t = 0; t < 20; t++) {
    const s = randomState(rng, 3),
      a = randomBox(rng, 7);
    const g = net.gradAction(s, a);
    for (let j = 0; j < 7; j++) {
      const h = 1e-6,
        ap = a.slice(),
        am = a.slice();
      ap[j]! += h;
      am[j]! -= h;
      const fd = (net.value(s, ap) - net.value(s, am)) / (2 * h);
      assert.ok(Math.abs(fd - g[j]!) < 1e-6 * Math.max(1, Math.abs(fd)), `∂f/∂a${j}: ${g[j]} vs ${fd}`);
    }
  }
});

test("clone and copyFrom give exact, independent copies (the Adam state included)", () => {
  const rng = createRng(5);
  const net = trainedNet(small, 5, 100, 5);
  const copy = net.clone();
  const other = new Icnn(small, createRng(99));
  other.copyFrom(net);
  const s = randomState(rng, 3),
    a = randomBox(rng, 10);
  assert.equal(copy.value(s, a), net.value(s, a));
  assert.equal(other.value(s, a), net.value(s, a));
  const data = { S: [s], A: [a], Y: [1] };
  copy.train(data.S, data.A, data.Y, { epochs: 3, learningRate: 1e-2, batchSize: 1, rng: createRng(1) });
  other.train(data.S, data.A, data.Y, { epochs: 3, learningRate: 1e-2, batchSize: 1, rng: createRng(1) });
  assert.deepEqual(copy.parameters(), other.parameters(), "same state + same steps = same result");
  assert.notDeepEqual(copy.parameters(), net.parameters(), "training the copy changed the original");
  assert.throws(() => other.copyFrom(new Icnn({ ...small, hidden: [12, 11] }, rng)), /different shapes/);
});

test(
  "LP argmin: its value equals a forward pass at its action (1e-6 rel.) " + "and is ≤ f at 1000 random box points",
  () => {
    const net = trainedNet({ state: 3, action: 12, hidden: [16, 16] }, 6);
    const rng = createRng(60);
    for (let t = 0; t < 3; t++) {
      const s = randomState(rng, 3);
      const r = solver.lp(net, s);
      assert.equal(r.method, "lp");
      assert.ok(r.optimal);
      const f = net.value(s, r.action);
      assert.ok(Math.abs(r.value - f) <= 1e-6 * Math.max(1, Math.abs(f)), `LP ${r.value} vs forward ${f}`);
      assert.equal(r.forward, f);
      for (const v of r.action) assert.ok(v >= 0 && v <= 1);
      for (let i = 0; i < 1000; i++) {
        const a = randomBox(rng, 12);
        assert.ok(r.value <= net.value(s, a) + 1e-9, "a random point beats the LP optimum");
      }
    }
  },
);

test(
  "LP argmin over the box is a lower bound of the exhaustive binary minimum, " +
    "and its rounding is a binary point the net can evaluate",
  () => {
    const net = trainedNet(small, 9);
    const rng = createRng(90);
    for (let t = 0; t < 3; t++) {
      const s = randomState(rng, 3);
      const lp = solver.lp(net, s);
      let best = Infinity;
      for (const a of binaries(10)) best = Math.min(best, net.value(s, a));
      assert.ok(lp.value <= best + 1e-9, `LP ${lp.value} above the binary minimum ${best}`);
      const rounded = roundAction(lp.action);
      // The rounding rule: an entry at or above one half becomes 1, below it 0.
      assert.deepEqual(
        [...rounded],
        [...lp.action].map((v) => (v >= 0.5 ? 1 : 0)),
      );
      assert.ok(Number.isFinite(net.value(s, rounded)));
    }
  },
);

test("fixed entries (lower = upper) are respected by the LP", () => {
  const net = trainedNet(small, 10);
  const s = vec(3, (j) => j + 1);
  const lower = vec(10, (j) => (j === 2 ? 1 : 0));
  const upper = vec(10, (j) => (j === 0 || j === 5 ? 0 : 1));
  const c: ActionConstraints = { lower, upper };
  const r = solver.lp(net, s, c);
  assert.equal(r.action[2], 1, "a2 not fixed to 1");
  assert.equal(r.action[0], 0, "a0 not fixed to 0");
  assert.equal(r.action[5], 0, "a5 not fixed to 0");
  let best = Infinity;
  for (const a of binaries(10)) if (a[2] === 1 && a[0] === 0 && a[5] === 0) best = Math.min(best, net.value(s, a));
  assert.ok(r.value <= best + 1e-9, `LP ${r.value} vs the enumerated minimum ${best} with the entries fixed`);
});

test(
  "rows (Σ a ≤ 2 over a group, a1 + a2 ≥ 1) are respected by the LP, " +
    "whose value bounds the enumerated minimum under them",
  () => {
    const net = trainedNet(small, 11);
    const s = vec(3, (j) => 2 - j);
    const c: ActionConstraints = {
      rows: [
        { index: [0, 3, 4, 6, 7, 8, 9], coef: [1, 1, 1, 1, 1, 1, 1], lo: -Infinity, hi: 2 },
        { index: [1, 2], coef: [1, 1], lo: 1, hi: Infinity },
      ],
    };
    const holds = (a: ArrayLike<number>, tol: number) => {
      const g = [0, 3, 4, 6, 7, 8, 9].reduce((t, j) => t + a[j]!, 0);
      return g <= 2 + tol && a[1]! + a[2]! >= 1 - tol;
    };
    const lp = solver.lp(net, s, c);
    assert.ok(holds(lp.action, 1e-7), `LP action ${lp.action}`);
    let best = Infinity;
    for (const a of binaries(10)) if (holds(a, 0)) best = Math.min(best, net.value(s, a));
    assert.ok(lp.value <= best + 1e-9, `LP ${lp.value} vs enumerated ${best}`);
    assert.ok(solver.lp(net, s).value <= lp.value + 1e-12, "dropping the rows cannot raise the minimum");
  },
);

test("repeated solves do not grow the HiGHS Wasm memory (every model is disposed)", () => {
  const net = trainedNet({ state: 5, action: 20, hidden: [16, 16] }, 14, 100, 5);
  const rng = createRng(140);
  for (let i = 0; i < 50; i++) solver.lp(net, randomState(rng, 5));
  const before = solver.memoryBytes();
  for (let i = 0; i < 400; i++) solver.lp(net, randomState(rng, 5));
  assert.equal(solver.memoryBytes(), before);
});

test("bad inputs are refused: wrong lengths, bounds outside [0, 1], infeasible rows", () => {
  const net = new Icnn(small, createRng(15));
  const s = vec(3, () => 0);
  assert.throws(
    () =>
      net.value(
        vec(2, () => 0),
        vec(10, () => 0),
      ),
    /state has length 2/,
  );
  assert.throws(
    () =>
      solver.lp(
        net,
        vec(4, () => 0),
      ),
    /state has length 4/,
  );
  assert.throws(() => solver.lp(net, s, { upper: vec(10, () => 2) }), /bounds/);
  assert.throws(
    () => solver.lp(net, s, { rows: [{ index: [0, 1], coef: [1, 1], lo: 3, hi: Infinity }] }),
    /infeasible/,
  );
  assert.throws(() => new Icnn({ state: 1, action: 0, hidden: [] }, createRng(1)), /action size/);
  assert.throws(
    () => net.train([s], [vec(10, () => 0)], [NaN], { epochs: 1, learningRate: 1e-3, batchSize: 1, rng: createRng(1) }),
    /not finite/,
  );
});

test("HiGHS also loads from given bytes (the browser path, where highs.wasm is fetched by the page)", async () => {
  const wasmPath = createRequire(import.meta.url).resolve("highs/runtime");
  let loads = 0;
  const other = await createArgminSolver({
    wasmBinary: readFileSync(wasmPath),
    loader: async (options) => {
      loads++;
      assert.ok(options.wasmBinary, "the bytes reach the loader");
      return (await import("highs")).default(options);
    },
  });
  assert.equal(loads, 1);
  const net = new Icnn(small, createRng(16));
  const s = vec(3, () => 1);
  assert.equal(other.lp(net, s).value, solver.lp(net, s).value);
});
