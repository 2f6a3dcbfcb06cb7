/**
 * A form's search that ends at the noise floor is the answer (issue 56, slow to stop under noise):
 * before, a noisy law found at once in its form (a sine of one input inside a four-input product, 1 %
 * noise nobody announces) was searched a second time as a plain sum from episode 1, doubling the wait.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createRng, fit, type EpisodeEvent } from "../../src/lib/index.js";

test("a noisy law ended at the floor in its form is not searched again as a plain sum", async () => {
  const rng = createRng(11);
  const law = ([a, b, c, d]: readonly number[]) => 2.5 * a! * b! * Math.sin(1.3 * c!) * d!;
  const X = Array.from({ length: 1000 }, () => [
    rng.uniform(1, 3),
    rng.uniform(0.5, 1.5),
    rng.uniform(0.5, 2.5),
    rng.uniform(1, 2),
  ]);
  const clean = X.map(law);
  const rms = Math.sqrt(clean.reduce((s, v) => s + v * v, 0) / clean.length);
  const y = clean.map((v) => v + 0.01 * rms * rng.normal());
  const episodes: number[] = [];
  const result = await fit({
    X,
    y,
    names: ["a", "b", "c", "d"],
    seed: 0,
    onProgress: (event: EpisodeEvent) => episodes.push(event.episode),
  });
  const answer = result.equations[0]!;
  // The law's structure, no spare term nor constant (coefficients as the noise leaves them).
  assert.match(answer.text, /^2\.\d+\*a\*b\*sin\(1\.(29|3)\d*\*c\)\*d$/);
  assert.equal(result.search.targets?.[0]?.stopReason, "noise-floor");
  // One search: its episodes count up, never from 1 again.
  for (let i = 1; i < episodes.length; i++)
    assert.ok(episodes[i]! > episodes[i - 1]!, `episode ${episodes[i]} after ${episodes[i - 1]}: a second search`);
});
