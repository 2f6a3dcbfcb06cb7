/**
 * The Mas experiment (paper §5.1 (3)): the mass-damper network, its trajectories, the data hook,
 * the learned-matrix report and the CLI's `run mas`. The checks recompute what they test another
 * way: the Laplacian line by line, the flow by RK4.
 */
import { createHash } from "node:crypto";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  MAS_DT,
  MAS_GROUNDED,
  MAS_LINES,
  MAS_NETWORK,
  MAS_TRAIN_ROWS,
  learnedMatrix,
  masExperiment,
  masTrajectories,
  matrixExponential,
  matrixSummary,
} from "../../src/lib/data/mas/index.js";
import { experiments } from "../../src/lib/data/experiments.js";
import { evaluateEquation } from "../../src/lib/equation/evaluate.js";
import { createRng } from "../../src/lib/core/rng.js";
import { pipelineData, resolvePipelineConfig } from "../../src/lib/run/index.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";

const { n, A, masses } = MAS_NETWORK;
const registries = createRegistries();
const lookup = (name: string) => registries.symbols.get(name);
const data = (options: { rows?: number; snrDb?: number; seed?: number } = {}) =>
  pipelineData(resolvePipelineConfig({ experiment: "mas", ...options }, registries), { registries });
const seed0 = data({ seed: 0 });

/** −D R Dᵀ M⁻¹ built line by line: each damper adds r to the diagonal of its nodes, −r between them. */
function laplacianMatrix(): Float64Array {
  const L = new Float64Array(n * n);
  for (const d of MAS_NETWORK.dampers) {
    const a = d.from - 1;
    L[a * n + a]! += d.r;
    if (d.to > 0) {
      const b = d.to - 1;
      L[b * n + b]! += d.r;
      L[a * n + b]! -= d.r;
      L[b * n + a]! -= d.r;
    }
  }
  return L.map((v, k) => -v / masses[k % n]!);
}

test("the network: 10 connected nodes, 12 lines and a damper to ground, A = −D R Dᵀ M⁻¹ as the Laplacian gives", () => {
  assert.equal(n, 10);
  assert.equal(MAS_NETWORK.dampers.length, MAS_LINES.length + MAS_GROUNDED.length);
  assert.ok(MAS_NETWORK.dampers.every((d) => d.r >= 0.1 && d.r <= 0.5));
  assert.ok(Array.from(masses).every((m) => m >= 1 && m <= 2));
  // Connected: a walk from node 1 over the lines reaches all.
  const seen = new Set([1]);
  for (let pass = 0; pass < n; pass++)
    for (const [a, b] of MAS_LINES) if (seen.has(a) || seen.has(b)) seen.add(a).add(b);
  assert.equal(seen.size, n);
  const L = laplacianMatrix();
  for (let k = 0; k < n * n; k++) assert.ok(Math.abs(L[k]! - A[k]!) < 1e-15, `entry ${k}: ${L[k]} vs ${A[k]}`);
  // Columns of D R Dᵀ sum to the ground dampings only: Σ_i A_ij = −r_ground(j)/m_j.
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += A[i * n + j]!;
    const ground = MAS_NETWORK.dampers.filter((d) => d.to === 0 && d.from === j + 1).reduce((t, d) => t + d.r, 0);
    assert.ok(Math.abs(s + ground / masses[j]!) < 1e-14);
  }
});

test("the data: 3000 + 3000 points, the truth (the written linear map) reproduces q̇ to 1e-15 relative", () => {
  assert.equal(seed0.train.rows, MAS_TRAIN_ROWS);
  assert.equal(seed0.test!.rows, 3000);
  assert.deepEqual(seed0.train.inputs, ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10"]);
  assert.deepEqual(seed0.train.targets, ["dq1", "dq2", "dq3", "dq4", "dq5", "dq6", "dq7", "dq8", "dq9", "dq10"]);
  const L = laplacianMatrix();
  for (const set of [seed0.train, seed0.test!]) {
    for (let i = 0; i < n; i++) {
      const y = set.y[i]!;
      // q̇ = A q with A from the Laplacian, row by row.
      for (let t = 0; t < set.rows; t += 7) {
        let s = 0;
        for (let j = 0; j < n; j++) s += L[i * n + j]! * set.x[j]![t]!;
        assert.ok(Math.abs(s - y[t]!) <= 1e-13 * (1 + Math.abs(s)), `dq${i + 1} at ${t}`);
      }
      // The experiment's truth as equations.
      const truth = masExperiment.truth[i]!;
      const yhat = evaluateEquation(truth, lookup, (name) => set.x[set.inputs.indexOf(name)]!, set.rows);
      for (let t = 0; t < set.rows; t++) assert.ok(Math.abs(yhat[t]! - y[t]!) <= 1e-12);
    }
  }
  // 3 or 4 terms: node i and its neighbours.
  assert.deepEqual(
    masExperiment.truth.map((e) => e.terms.length),
    [4, 3, 4, 3, 3, 4, 3, 4, 3, 3],
  );
});

test("the flow: exp(A·dt) steps agree with RK4 at dt/10; kinetic energy Σ q²/(2m) never increases", () => {
  const rng = createRng(4);
  const traj = masTrajectories(MAS_NETWORK, rng, { steps: 600, trajectories: 2 });
  const energy = (t: number) => {
    let e = 0;
    for (let i = 0; i < n; i++) e += traj.q[i]![t]! ** 2 / (2 * masses[i]!);
    return e;
  };
  for (let r = 0; r < traj.trajectories; r++)
    for (let k = 1; k < traj.steps; k++) {
      const t = r * traj.steps + k;
      assert.ok(energy(t) < energy(t - 1), `energy rose at point ${t}: ${energy(t - 1)} → ${energy(t)}`);
    }
  // RK4 from the first trajectory's start, 10 substeps per point.
  const f = (q: number[]) => q.map((_, i) => q.reduce((s, v, j) => s + A[i * n + j]! * v, 0));
  let q = traj.q.map((c) => c[0]!);
  const h = MAS_DT / 10;
  let worst = 0;
  for (let k = 1; k < traj.steps; k++) {
    for (let s = 0; s < 10; s++) {
      const k1 = f(q);
      const k2 = f(q.map((v, i) => v + (h / 2) * k1[i]!));
      const k3 = f(q.map((v, i) => v + (h / 2) * k2[i]!));
      const k4 = f(q.map((v, i) => v + h * k3[i]!));
      q = q.map((v, i) => v + (h / 6) * (k1[i]! + 2 * k2[i]! + 2 * k3[i]! + k4[i]!));
    }
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(q[i]! - traj.q[i]![k]!));
  }
  assert.ok(worst < 1e-10, `RK4 against the exponential: ${worst}`);
  // exp(0) = I; exp(A·t)·exp(A·s) = exp(A·(t + s)).
  const E1 = matrixExponential(n, A, 0.7);
  const E2 = matrixExponential(n, A, 1.4);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += E1[i * n + k]! * E1[k * n + j]!;
      assert.ok(Math.abs(s - E2[i * n + j]!) < 1e-13);
    }
});

test("one seed gives the same bytes; --rows takes the first points; --snr touches the training targets only", () => {
  const hash = (arrays: Float64Array[]) => {
    const h = createHash("sha256");
    for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    return h.digest("hex");
  };
  const all = (d: typeof seed0) => [...d.train.x, ...d.train.y, ...d.test!.x, ...d.test!.y];
  assert.equal(hash(all(data({ seed: 0 }))), hash(all(seed0)));
  assert.notEqual(hash(all(data({ seed: 1 }))), hash(all(seed0)));
  const short = data({ seed: 0, rows: 100 });
  assert.equal(short.train.rows, 100);
  assert.deepEqual(
    short.train.x.map((c) => Array.from(c)),
    seed0.train.x.map((c) => Array.from(c.subarray(0, 100))),
  );
  assert.equal(hash(short.test!.y), hash(seed0.test!.y));
  const noisy = data({ seed: 0, rows: 100, snrDb: 40 });
  assert.deepEqual(noisy.train.x, short.train.x);
  assert.notDeepEqual(noisy.train.y, short.train.y);
  assert.equal(hash(noisy.test!.y), hash(short.test!.y));
  assert.throws(() => resolvePipelineConfig({ experiment: "mas", rows: 5000 }, registries), /`rows` 5000 .*3000/);
});

test("learned matrix: the truth reads back exactly; a missing term and a spurious one show", () => {
  const exact = learnedMatrix(masExperiment.truth);
  assert.equal(exact.found, 34);
  assert.equal(exact.missed.length + exact.spurious.length + exact.unexplained.length, 0);
  assert.equal(exact.worstRelative, 0);
  const broken = masExperiment.truth.map((e) => ({ ...e, terms: [...e.terms] }));
  broken[0]!.terms.pop();
  broken[1]!.terms.push({ coefficient: 0.5, factors: [{ symbol: "x", input: "q9" }] });
  broken[2]!.terms.push({
    coefficient: 2,
    factors: [
      { symbol: "x", input: "q1" },
      { symbol: "x", input: "q2" },
    ],
  });
  const m = learnedMatrix(broken);
  assert.equal(m.found, 33);
  assert.deepEqual(m.missed, [{ row: 0, col: 9 }]);
  assert.deepEqual(m.spurious, [{ row: 1, col: 8, value: 0.5 }]);
  assert.equal(m.unexplained.length, 1);
  const lines = matrixSummary(m);
  assert.match(lines[0]!, /33 of 34 nonzero entries found, 1 missed, 1 spurious/);
  assert.ok(lines.some((l) => l.includes("MISSED dq1 on q10")));
  assert.ok(lines.some((l) => l.includes("SPURIOUS dq2 on q9")));
});

test("CLI: run mas --rows 5000 and --snr abc are one error line each, exit 2", async () => {
  const [rows, snr] = await Promise.all([cli(["run", "mas", "--rows", "5000"]), cli(["run", "mas", "--snr", "abc"])]);
  assertInputError(rows, "--rows", "3000");
  assertInputError(snr, "--snr", "abc");
  assert.ok(experiments.mas === masExperiment);
});

test("CLI: run mas --seed 0 recovers all ten outputs exactly and prints the learned matrix", async () => {
  const run = await cli(["run", "mas", "--seed", "0"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim().split("\n").length, 10);
  assert.equal((run.stderr.match(/^dq\d+: exact,/gm) ?? []).length, 10, run.stderr);
  assert.match(run.stderr, /34 of 34 nonzero entries found, 0 missed, 0 spurious/);
});

test("the Mas page's committed result re-runs from its manifest: reproduce matches every field", async () => {
  const run = await cli(["reproduce", "data/results/mas-seed0.json", "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^reproduced exactly: all 10 equations and every stored field match/m);
});
