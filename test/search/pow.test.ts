/**
 * The Pow experiment (paper §5.1): MATPOWER's case5, its admittance matrix, the Newton–Raphson
 * power flow over two years of hourly operating points, the reduced truth, the data hook of the
 * pipeline, the learned-topology summary, the wide proposals and QR fit, and the CLI's `run pow`.
 */
import { createHash } from "node:crypto";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CASE5,
  HOURS_PER_YEAR,
  POW_GRID,
  admittanceMatrix,
  injections,
  learnedTopology,
  makeGrid,
  operatingPoints,
  powExperiment,
  powOperatingPoints,
  reducedTruth,
  topologySummary,
  writtenInjections,
} from "../../src/lib/data/pow/index.js";
import { experimentData, experiments } from "../../src/lib/data/experiments.js";
import { evaluateEquation } from "../../src/lib/equation/evaluate.js";
import { simplifyEquation } from "../../src/lib/equation/simplify.js";
import type { Equation } from "../../src/lib/equation/types.js";
import { nrmse } from "../../src/lib/numeric/nrmse.js";
import { createRng } from "../../src/lib/core/rng.js";
import { pipelineData, resolvePipelineConfig, runPipeline } from "../../src/lib/run/index.js";
import { backwardElimination } from "../../src/lib/search/linear/backward.js";
import { leastSquares as solveLeastSquares } from "../../src/lib/numeric/linalg.js";
import { linearProposals } from "../../src/lib/search/linear/proposer.js";
import { allowedNeurons } from "../../src/lib/search/constraints.js";
import { createRegistries, createSymbolRegistry } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";

const registry = createSymbolRegistry();
const lookup = (name: string) => registry.get(name);
const points = operatingPoints(CASE5, { rng: createRng(11) });
const n = POW_GRID.n;

test("case5's admittance matrix: symmetric, 1/(r + jx) off the diagonal, rows summing to the line charging", () => {
  const { G, B } = admittanceMatrix(CASE5);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      assert.equal(G[i * n + k], G[k * n + i]);
      assert.equal(B[i * n + k], B[k * n + i]);
    }
  // Line 1–5: r = 0.00064, x = 0.0064 → y = (r − jx)/(r² + x²); Y_15 = −y.
  const d = 0.00064 ** 2 + 0.0064 ** 2;
  assert.ok(Math.abs(G[0 * n + 4]! + 0.00064 / d) < 1e-9);
  assert.ok(Math.abs(B[0 * n + 4]! - 0.0064 / d) < 1e-9);
  // No line 1–3: Y_13 = 0. Σ_k Y_ik = j·Σ b/2 of the lines at bus i (no shunts, no taps).
  assert.equal(G[0 * n + 2], 0);
  assert.equal(B[0 * n + 2], 0);
  const index = new Map(CASE5.buses.map((bus, a) => [bus.id, a]));
  for (let i = 0; i < n; i++) {
    let g = 0;
    let b = 0;
    for (let k = 0; k < n; k++) {
      g += G[i * n + k]!;
      b += B[i * n + k]!;
    }
    const charging = CASE5.branches
      .filter((l) => index.get(l.from) === i || index.get(l.to) === i)
      .reduce((s, l) => s + l.b / 2, 0);
    assert.ok(Math.abs(g) < 1e-12, `row ${i} G sums to ${g}`);
    assert.ok(Math.abs(b - charging) < 1e-9, `row ${i} B sums to ${b}, charging ${charging}`);
  }
});

test(
  "the power flow: residual < 1e-10 pu at every one of the 17,520 hours, " + "the slack at 1∠0 and PV buses at |V| = 1",
  () => {
    assert.equal(points.hours, 2 * HOURS_PER_YEAR);
    let worst = 0;
    for (let t = 0; t < points.hours; t++) worst = Math.max(worst, points.residual[t]!);
    assert.ok(worst < 1e-10, `the flow converges to < 1e-10 pu (largest ${worst})`);
    const slack = POW_GRID.slack;
    assert.ok(points.u[slack]!.every((v) => v === 1) && points.v[slack]!.every((v) => v === 0));
    for (const a of [0, 2, 4])
      for (let t = 0; t < points.hours; t += 97)
        assert.ok(Math.abs(points.u[a]![t]! ** 2 + points.v[a]![t]! ** 2 - 1) < 1e-14);
    // Bus 2 (PQ) moves: its |V| is not fixed.
    const vm2 = Float64Array.from({ length: points.hours }, (_, t) => Math.hypot(points.u[1]![t]!, points.v[1]![t]!));
    assert.ok(Math.max(...vm2) - Math.min(...vm2) > 1e-3);
  },
);

test("power balance: Σ p_i equals the series losses Σ r·|I|², above 0 and a few per cent, every hour", () => {
  const index = new Map(CASE5.buses.map((bus, a) => [bus.id, a]));
  for (let t = 0; t < points.hours; t += 7) {
    let sum = 0;
    for (let a = 0; a < n; a++) sum += points.p[a]![t]!;
    let losses = 0;
    for (const line of CASE5.branches) {
      const f = index.get(line.from)!;
      const k = index.get(line.to)!;
      const du = points.u[f]![t]! - points.u[k]![t]!;
      const dv = points.v[f]![t]! - points.v[k]![t]!;
      // |I_series|² = |ΔV|²/|z|²; loss r·|I|².
      losses += (line.r * (du * du + dv * dv)) / (line.r ** 2 + line.x ** 2);
    }
    // Power flows at every hour, so the lines lose some of it, and only a few per cent of the load.
    let load = 0;
    for (let a = 0; a < n; a++) load += Math.abs(points.p[a]![t]!);
    assert.ok(losses > 0 && losses < 0.05 * load, `hour ${t}: losses ${losses} of ${load} moved`);
    assert.ok(Math.abs(sum - losses) < 1e-10, `hour ${t}: Σp ${sum} vs losses ${losses}`);
  }
});

test(
  "p and q from S = V ⊙ conj(Y·V) agree with the written " + "formulas (q_i with the paper's typo corrected) to 1e-10",
  () => {
    const u = new Float64Array(n);
    const v = new Float64Array(n);
    for (let t = 0; t < points.hours; t += 13) {
      for (let a = 0; a < n; a++) {
        u[a] = points.u[a]![t]!;
        v[a] = points.v[a]![t]!;
      }
      const complex = injections(POW_GRID, u, v);
      const written = writtenInjections(POW_GRID, u, v);
      for (let a = 0; a < n; a++) {
        assert.ok(Math.abs(complex.p[a]! - written.p[a]!) < 1e-10);
        assert.ok(Math.abs(complex.q[a]! - written.q[a]!) < 1e-10);
        assert.equal(complex.p[a], points.p[a]![t]);
      }
    }
    // The typo'd q (−B_im(v_i·u_m − u_i·v_m)) is not the injection.
    let typo = 0;
    for (let m = 0; m < n; m++)
      typo += POW_GRID.G[m]! * (v[0]! * u[m]! - u[0]! * v[m]!) - POW_GRID.B[m]! * (v[0]! * u[m]! - u[0]! * v[m]!);
    assert.ok(Math.abs(typo - injections(POW_GRID, u, v).q[0]!) > 1);
  },
);

test(
  "the reduced truth evaluates to y on the data (NRMSE < 1e-9, " +
    "train and test) and has the shape the module comment states",
  () => {
    const { train, test: testSet } = experimentData(powExperiment, { rng: createRng(5), symbols: lookup });
    assert.equal(train.rows, HOURS_PER_YEAR);
    assert.equal(testSet.rows, HOURS_PER_YEAR);
    assert.deepEqual(train.inputs, ["u1", "v1", "u2", "v2", "u3", "v3", "u4", "v4", "u5", "v5"]);
    assert.deepEqual(train.targets, ["p1", "q1", "p2", "q2", "p3", "q3", "p4", "q4", "p5", "q5"]);
    for (const data of [train, testSet]) {
      powExperiment.truth.forEach((truth, k) => {
        const yhat = evaluateEquation(truth, lookup, (name) => data.x[data.inputs.indexOf(name)]!, data.rows);
        const error = nrmse(data.y[k]!, yhat);
        assert.ok(error < 1e-9, `${truth.target}: NRMSE ${error}`);
      });
    }
    const terms = Object.fromEntries(powExperiment.truth.map((e) => [e.target, e.terms]));
    const constant = (t: string) => terms[t]!.filter((term) => term.factors.length === 0).length;
    const squares = (t: string) => terms[t]!.filter((term) => term.factors.some((f) => f.symbol === "x^2")).length;
    for (const t of ["p1", "q1", "p3", "q3", "p4", "q4", "p5", "q5"])
      assert.equal(constant(t), 1, `${t} has a constant`);
    for (const t of ["p2", "q2"]) assert.deepEqual([constant(t), squares(t)], [0, 2], `${t}: u2², v2², no constant`);
    // Nothing of the slack's v survives; p1 (the most) has 11 terms.
    assert.ok(
      powExperiment.truth.every((e) =>
        e.terms.every((term) => term.factors.every((f) => f.input !== "v4" && f.input !== "u4")),
      ),
    );
    assert.equal(terms.p1!.length, 11);
    assert.deepEqual(reducedTruth(makeGrid(CASE5)), powExperiment.truth);
  },
);

test("simplification reads c·u4 (u4 ≡ 1 on the data) as the constant c, and c·x of a varying column as it was", () => {
  const { train } = experimentData(powExperiment, { rng: createRng(0), symbols: lookup, rows: 50 });
  const order = {
    symbols: lookup,
    inputOrder: train.inputs,
    symbolOrder: registry.names(),
    columns: (name: string) => train.x[train.inputs.indexOf(name)]!,
    rows: train.rows,
  };
  const learned: Equation = {
    target: "p4",
    terms: [
      { coefficient: 9.9, factors: [{ symbol: "x", input: "u4" }] },
      {
        coefficient: 2,
        factors: [
          { symbol: "x", input: "u1" },
          { symbol: "x", input: "u4" },
        ],
      },
    ],
  };
  assert.deepEqual(simplifyEquation(learned, order).terms, [
    { coefficient: 2, factors: [{ symbol: "x", input: "u1" }] },
    { coefficient: 9.9, factors: [] },
  ]);
  // v4 ≡ 0: a term with it vanishes.
  assert.deepEqual(
    simplifyEquation(
      {
        target: "p4",
        terms: [
          { coefficient: 3, factors: [{ symbol: "x", input: "v4" }] },
          { coefficient: 1, factors: [{ symbol: "x", input: "u2" }] },
        ],
      },
      order,
    ).terms,
    [{ coefficient: 1, factors: [{ symbol: "x", input: "u2" }] }],
  );
});

test(
  "one seed gives the same bytes; --rows takes the first hours of the year; " +
    "--snr touches the training targets only",
  () => {
    const hash = (arrays: Float64Array[]) => {
      const h = createHash("sha256");
      for (const a of arrays) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      return h.digest("hex");
    };
    const again = operatingPoints(CASE5, { rng: createRng(11) });
    const all = (p: typeof points) => [...p.u, ...p.v, ...p.p, ...p.q];
    assert.equal(hash(all(again)), hash(all(points)));
    assert.notEqual(
      hash(all(operatingPoints(CASE5, { rng: createRng(12), hours: 100 }))),
      hash(all(operatingPoints(CASE5, { rng: createRng(11), hours: 100 }))),
    );

    const registries = createRegistries();
    const data = (options: { rows?: number; snrDb?: number; seed?: number }) =>
      pipelineData(resolvePipelineConfig({ experiment: "pow", ...options }, registries), { registries });
    const a = data({ seed: 3 });
    const b = data({ seed: 3 });
    assert.equal(
      hash([...a.train.x, ...a.train.y, ...a.test!.x, ...a.test!.y]),
      hash([...b.train.x, ...b.train.y, ...b.test!.x, ...b.test!.y]),
    );
    assert.equal(a.searchSeed, b.searchSeed);
    const short = data({ seed: 3, rows: 100 });
    assert.equal(short.train.rows, 100);
    assert.deepEqual(
      short.train.x.map((c) => Array.from(c)),
      a.train.x.map((c) => Array.from(c.subarray(0, 100))),
    );
    assert.equal(hash(short.test!.y), hash(a.test!.y), "the test set is the whole second year whatever --rows");
    const noisy = data({ seed: 3, rows: 100, snrDb: 40 });
    assert.deepEqual(noisy.train.x, short.train.x);
    assert.notDeepEqual(noisy.train.y, short.train.y);
    assert.equal(hash(noisy.test!.y), hash(short.test!.y));
    // The data seed comes from createRng(seed); the cache returns the same year.
    assert.equal(powOperatingPoints(7), powOperatingPoints(7));
    assert.throws(() => resolvePipelineConfig({ experiment: "pow", rows: 9000 }, registries), /`rows` 9000 .*8760/);
  },
);

test(
  "learned topology: the truth reads back every line with its G and B; " + "a missing term and a spurious one show",
  () => {
    const truth = powExperiment.truth;
    const exact = learnedTopology(POW_GRID, truth);
    assert.equal(exact.lines.filter((l) => l.exists).length, CASE5.branches.length);
    for (const line of exact.lines) {
      assert.equal(line.learned, line.exists, `${line.from}-${line.to}`);
      if (!line.exists) continue;
      assert.ok(
        Math.abs(line.g - line.gTrue) <= 1e-12 * Math.abs(line.gTrue) &&
          Math.abs(line.b - line.bTrue) <= 1e-12 * Math.abs(line.bTrue),
      );
    }
    assert.equal(exact.buses.length, n);
    assert.equal(exact.unexplained.length, 0);
    assert.match(topologySummary(exact)[0]!, /6 of 6 lines found, 0 missed, 0 spurious/);
    // p4 and q4 without their terms in u1/v1 and p1/q1 without u1, v1 (slack line): line 1–4 is missed.
    const drop = (e: Equation) => ({
      ...e,
      terms: e.terms.filter(
        (t) =>
          !(["p4", "q4"].includes(e.target) && t.factors.some((f) => f.input === "u1" || f.input === "v1")) &&
          !(["p1", "q1"].includes(e.target) && t.factors.length === 1),
      ),
    });
    const spurious = (e: Equation) =>
      e.target === "p1"
        ? {
            ...e,
            terms: [
              ...e.terms,
              {
                coefficient: 2,
                factors: [
                  { symbol: "x", input: "u1" },
                  { symbol: "x", input: "u3" },
                ],
              },
            ],
          }
        : e;
    const wrong = learnedTopology(POW_GRID, truth.map(drop).map(spurious));
    const summary = topologySummary(wrong).join("\n");
    assert.match(summary, /5 of 6 lines found, 1 missed, 1 spurious/);
    assert.match(summary, /MISSED\s+1-4/);
    assert.match(summary, /SPURIOUS 1-3: G 2\.0+ vs 0 \[1 terms\]/);
  },
);

test("QR least squares and backward elimination recover a sum of nearly collinear products exactly", () => {
  // Columns 1 + ε·z, products of them: the normal equations lose such a fit, QR does not.
  const rng = createRng(3);
  const rows = 400;
  const base = Array.from({ length: 4 }, () => Float64Array.from({ length: rows }, () => 1 + 0.01 * rng.normal()));
  const columns: Float64Array[] = [Float64Array.from({ length: rows }, () => 1)];
  for (let i = 0; i < 4; i++) columns.push(base[i]!);
  for (let i = 0; i < 4; i++)
    for (let k = i + 1; k < 4; k++) columns.push(Float64Array.from(base[i]!, (v, r) => v * base[k]![r]!));
  const truth = [0, 2, 5, 7, 10];
  const coefficients = [3, -2, 5, 1.5, -4];
  const y = Float64Array.from({ length: rows }, (_, r) =>
    truth.reduce((s, j, t) => s + coefficients[t]! * columns[j]![r]!, 0),
  );
  const solved = solveLeastSquares(
    truth.map((j) => Float64Array.from(columns[j]!)),
    y,
  )!;
  solved.forEach((c, t) => {
    assert.ok(Math.abs(c - coefficients[t]!) < 1e-8 * Math.abs(coefficients[t]!), `coefficient ${t}: ${c}`);
  });
  const { path } = backwardElimination(
    columns,
    columns.map(() => 1),
    y,
    8,
  );
  const five = path.find((m) => m.members.length === 5)!;
  assert.deepEqual(five.members, truth);
  assert.ok(five.rss < 1e-20 * y.reduce((s, v) => s + v * v, 0));
  assert.ok(path.find((m) => m.members.length === 4)!.rss > 1e-12);
  // An exactly dependent column (a copy of a simpler one's combination) is left out, the simpler kept.
  const withCopy = [...columns, Float64Array.from(columns[2]!, (v, r) => v + columns[0]![r]!)];
  const copy = backwardElimination(withCopy, [...columns.map(() => 1), 2], y, 8);
  assert.equal(copy.dependent, 1);
  assert.deepEqual(copy.path.find((m) => m.members.length === 5)!.members, truth);
});

test(
  "run pow: --given-form fits every reduced truth exactly; " +
    "the search with {x, x²} on 1000 hours recovers all ten outputs",
  async () => {
    const registries = createRegistries();
    const formConfig = resolvePipelineConfig({ experiment: "pow", rows: 1000, givenForm: true }, registries);
    const forms = await runPipeline({
      data: pipelineData(formConfig, { registries }),
      config: formConfig,
      registries,
      backend: "cpu",
    });
    assert.deepEqual(
      forms.result.evaluation!.filter((e) => !e.exact).map((e) => e.target),
      [],
    );
    const config = resolvePipelineConfig({ experiment: "pow", rows: 1000, symbols: ["x", "x^2"] }, registries);
    assert.equal((config as { proposal?: string }).proposal, "wide");
    const { result } = await runPipeline({
      data: pipelineData(config, { registries }),
      config,
      registries,
      backend: "cpu",
    });
    assert.equal(result.evaluation!.length, 10, "every output is evaluated");
    for (const e of result.evaluation!) {
      assert.ok(e.exact, `${e.target}: ${e.reason}`);
      assert.ok(e.testNrmse < 1e-8, `${e.target}: test NRMSE ${e.testNrmse}`);
    }
    assert.ok(
      result.search.targets!.every((t) => t.structures <= 3),
      "found among the first proposals",
    );
  },
);

test(
  "CLI: run pow --rows 9000 and --snr abc are one error line each, " + "exit 2; a symbol outside its domain is named",
  async () => {
    const [rows, snr, domain] = await Promise.all([
      cli(["run", "pow", "--rows", "9000"]),
      cli(["run", "pow", "--snr", "abc"]),
      cli(["run", "pow", "--rows", "500", "--symbols", "x,log"]),
    ]);
    assertInputError(rows, "--rows", "8760");
    assertInputError(snr, "--snr", "abc");
    assertInputError(domain, "log", /column "v\d"/, "--symbols");
    assert.ok(experiments.pow === powExperiment);
  },
);

test("CLI: run pow prints the evaluation and the learned topology on stderr, the ten equations on stdout", async () => {
  const run = await cli(["run", "pow", "--rows", "1000", "--symbols", "x,x^2"]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" = ")[0]),
    ["p1", "q1", "p2", "q2", "p3", "q3", "p4", "q4", "p5", "q5"],
  );
  assert.match(run.stderr, /1000 training rows, 8760 test rows, seed 0, symbols x, x\^2/);
  assert.equal(run.stderr.match(/^[pq]\d: exact/gm)?.length, 10);
  assert.match(run.stderr, /learned topology: 6 of 6 lines found, 0 missed, 0 spurious/);
  assert.match(run.stderr, /line {5}1-5: G -15\.470 vs -15\.470/);
});

test("the Pow page's committed {x, x²} result re-runs from its manifest: reproduce matches every field", async () => {
  const run = await cli(["reproduce", "data/results/pow-x2-seed0.json", "--quiet"], { timeoutMs: 300_000 });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^reproduced exactly: all 10 equations and every stored field match/m);
});

test("at 60 dB, not told, q4 (six voltages and a constant): the wide screen proposes its structure at noise", () => {
  const registries = createRegistries();
  const pool = ["x", "x^2"];
  const config = resolvePipelineConfig({ experiment: "pow", snrDb: 60, symbols: pool }, registries);
  const { train } = pipelineData(config, { registries });
  const y = train.y[train.targets.indexOf("q4")]!;
  const { proposals } = linearProposals({
    x: train.x,
    y,
    pool,
    allowed: allowedNeurons(train, pool, registries.symbols),
    lookup: (name) => registries.symbols.get(name),
    maxFactors: 2,
    maxTerms: 12,
    wide: true,
    intercept: true,
  });
  const neuron = (input: string) => train.inputs.indexOf(input) * pool.length;
  const truth = ["u1", "v1", "u3", "v3", "u5", "v5"]
    .map((v) => String(neuron(v)))
    .sort()
    .join("|");
  const hit = proposals.find(
    (p) =>
      p.products
        .map((q) => q.join("."))
        .sort()
        .join("|") === truth,
  );
  assert.ok(hit, "the truth's six single voltages are proposed");
  // On the screening rows its NRMSE is the noise's (60 dB: about 1e-3).
  assert.ok(hit.expected < 1.2e-3, `expected ${hit.expected}`);
});
