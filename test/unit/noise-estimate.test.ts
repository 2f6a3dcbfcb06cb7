// The noise estimate of src/lib/search/noise.ts on generated data (seeded inputs, Gaussian noise added
// as every experiment adds it): within a factor 1.5 of the realised noise NRMSE at 20, 30 and 40 dB,
// below 1e-6 on noiseless data of laws its models hold, 0 for a constant target, the same bits twice,
// and no throw on degenerate data.
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateNoise, noiseShare } from "../../src/lib/search/noise.js";
import { addNoise } from "../../src/lib/data/noise.js";
import { nrmse } from "../../src/lib/numeric/nrmse.js";
import { createRng } from "../../src/lib/core/rng.js";
import { sin } from "../../src/lib/core/math.js";

interface Law {
  name: string;
  inputs: number;
  range: [number, number];
  f: (v: readonly number[]) => number;
}

const product: Law = { name: "1.5·x1·x2·x3", inputs: 3, range: [1, 2], f: ([a, b, c]) => 1.5 * a! * b! * c! };
const sum: Law = { name: "2·x1·x2 + x3²", inputs: 3, range: [1, 2], f: ([a, b, c]) => 2 * a! * b! + c! * c! };
const mixed: Law = {
  name: "1.3·a²·b − 0.7·c",
  inputs: 3,
  range: [1, 2],
  f: ([a, b, c]) => 1.3 * a! * a! * b! - 0.7 * c!,
};

/** Inputs U(range), the law's target, and a noisy copy at `snrDb` (noiseless when omitted). */
function generate(law: Law, rows: number, seed: number, snrDb?: number) {
  const rng = createRng(seed);
  const x = Array.from({ length: law.inputs }, () => new Float64Array(rows));
  for (let r = 0; r < rows; r++) for (const column of x) column[r] = rng.uniform(law.range[0], law.range[1]);
  const clean = Float64Array.from({ length: rows }, (_, r) => law.f(x.map((column) => column[r]!)));
  const y = Float64Array.from(clean);
  if (snrDb !== undefined) addNoise(y, snrDb, rng);
  // the realised noise NRMSE: what an exact law scores on the noisy target
  return { x, y, truth: nrmse(y, clean) };
}

for (const law of [product, sum, mixed]) {
  test(`${law.name}, 500 rows on U(1, 2): within a factor 1.5 of the realised noise at 20, 30 and 40 dB`, () => {
    for (const snrDb of [20, 30, 40]) {
      for (const seed of [1, 2, 3]) {
        const { x, y, truth } = generate(law, 500, seed, snrDb);
        const estimate = estimateNoise(x, y);
        const ratio = estimate.nrmse / truth;
        assert.ok(
          ratio > 1 / 1.5 && ratio < 1.5,
          `${snrDb} dB, seed ${seed}: estimate ${estimate.nrmse} (${estimate.method}), truth ${truth}`,
        );
      }
    }
  });
}

test("noiseless polynomial laws: below 1e-6 (so that the search keeps its exact stop rule)", () => {
  const cubic: Law = { name: "x³ + x² + x", inputs: 1, range: [-1, 1], f: ([a]) => a! ** 3 + a! ** 2 + a! };
  for (const law of [product, sum, mixed, cubic]) {
    const { x, y } = generate(law, 500, 4);
    const estimate = estimateNoise(x, y);
    assert.ok(estimate.nrmse < 1e-6, `${law.name}: ${estimate.nrmse} (${estimate.method})`);
  }
});

test("noiseless laws of the log model and of the one-input model: below 1e-6", () => {
  // q/(4π·ε·r²) on [1, 5]: no polynomial of the allowed degree holds it (1e-3 alone), log|y| is linear in log x
  const coulomb: Law = {
    name: "q/(4π·ε·r²)",
    inputs: 3,
    range: [1, 5],
    f: ([q, e, r]) => (0.07957747155 * q!) / (e! * r! * r!),
  };
  // r·F·sin θ, θ on [0, 5]: multilinear in r and F times a high degree in θ
  const torque: Law = { name: "r·F·sin θ", inputs: 3, range: [0, 5], f: ([r, f, t]) => r! * f! * sin(t!) };
  for (const law of [coulomb, torque]) {
    const { x, y } = generate(law, 500, 5);
    const estimate = estimateNoise(x, y);
    assert.ok(estimate.nrmse < 1e-6, `${law.name}: ${estimate.nrmse} (${estimate.method})`);
  }
});

test("a constant target gives 0", () => {
  const { x } = generate(product, 500, 6);
  assert.deepEqual(estimateNoise(x, new Float64Array(500).fill(2.5)), { nrmse: 0, method: "constant target" });
  assert.equal(estimateNoise(x, new Float64Array(500).fill(0.1)).nrmse, 0);
});

test("deterministic: the same bits twice", () => {
  const { x, y } = generate(mixed, 500, 7, 30);
  const first = estimateNoise(x, y);
  const second = estimateNoise(
    x.map((column) => Float64Array.from(column)),
    Float64Array.from(y),
  );
  assert.ok(Object.is(first.nrmse, second.nrmse), `${first.nrmse} then ${second.nrmse}`);
  assert.equal(first.method, second.method);
});

test("degenerate data: constant and duplicate inputs, no inputs, few rows, many rows and inputs; no throw", () => {
  const { x, y } = generate(product, 500, 8);
  const constant = new Float64Array(500).fill(3);
  // a constant input changes nothing; a duplicate input neither
  assert.ok(estimateNoise([...x, constant], y).nrmse < 1e-6);
  assert.ok(estimateNoise([x[0]!, x[0]!, x[1]!, x[2]!], y).nrmse < 1e-6);
  // no input (or only constant ones) to explain y: all of it is noise
  for (const inputs of [[], [constant]]) {
    const estimate = estimateNoise(inputs, y);
    assert.ok(Math.abs(estimate.nrmse - 1) < 0.01, `${estimate.nrmse}`);
  }
  // too few rows to tell: 0 ("noiseless", the search's exact stop rule)
  assert.equal(estimateNoise([Float64Array.of(1, 2)], Float64Array.of(1, 3)).nrmse, 0);
  assert.equal(estimateNoise([], new Float64Array(0)).nrmse, 0);
  for (const rows of [3, 5, 12]) {
    const few = generate(sum, rows, 9, 30);
    assert.ok(Number.isFinite(estimateNoise(few.x, few.y).nrmse), `${rows} rows`);
  }
  // scale-free: y times 1e200 or 1e-200 reads the same
  const noisy = generate(sum, 500, 10, 30);
  const base = estimateNoise(noisy.x, noisy.y).nrmse;
  for (const factor of [1e200, 1e-200]) {
    const scaled = estimateNoise(
      noisy.x,
      noisy.y.map((v) => v * factor),
    ).nrmse;
    assert.ok(Math.abs(scaled / base - 1) < 1e-6, `×${factor}: ${scaled} against ${base}`);
  }
  // rows beyond the cap are strided, inputs beyond the model caps are still read
  const big = generate(sum, 20000, 11, 30);
  const bigEstimate = estimateNoise(big.x, big.y);
  assert.match(bigEstimate.method, / of 20000 rows/);
  assert.ok(bigEstimate.nrmse / big.truth > 1 / 1.5 && bigEstimate.nrmse / big.truth < 1.5);
  const wide: Law = { name: "Σ x1…x10", inputs: 100, range: [1, 2], f: (v) => v.slice(0, 10).reduce((a, b) => a + b) };
  const many = generate(wide, 600, 12, 30);
  const manyEstimate = estimateNoise(many.x, many.y);
  assert.ok(manyEstimate.nrmse / many.truth > 1 / 1.5 && manyEstimate.nrmse / many.truth < 1.5, manyEstimate.method);
  assert.throws(() => estimateNoise([new Float64Array(3)], new Float64Array(4)), RangeError);
});

test("noiseShare: about 1 for a residual of pure noise, under 0.1 for a smooth one, between for a mix", () => {
  const rng = createRng(11);
  const x = [0, 1, 2].map(() => Float64Array.from({ length: 500 }, () => rng.uniform(1, 3)));
  const noise = Float64Array.from({ length: 500 }, () => rng.normal());
  const smooth = Float64Array.from({ length: 500 }, (_, r) => sin(2 * x[0]![r]!) * x[1]![r]! - x[2]![r]! ** 2 / 3);
  const share = (r: Float64Array) => noiseShare(x, r)!;
  assert.ok(Math.abs(share(noise) - 1) < 0.15, `noise ${share(noise)}`);
  assert.ok(share(smooth) < 0.1, `smooth ${share(smooth)}`);
  // Equal parts: the smooth part scaled to the noise's variance.
  const sd = (v: Float64Array) =>
    Math.sqrt(v.reduce((s, a) => s + a * a, 0) / v.length - (v.reduce((s, a) => s + a, 0) / v.length) ** 2);
  const mixed = Float64Array.from(noise, (v, r) => v + (smooth[r]! * sd(noise)) / sd(smooth));
  assert.ok(share(mixed) > 0.3 && share(mixed) < 0.7, `mixed ${share(mixed)}`);
  assert.equal(noiseShare(x, new Float64Array(500).fill(2)), undefined);
});
