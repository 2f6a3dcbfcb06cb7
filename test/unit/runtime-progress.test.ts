// The runtime module's `progress` cell before a target's episodes: the search's phases (the
// polynomial question, the screens) are reported, so the playground's bar does not sit at 0 %
// without a word while a wide CSV is screened (issue 59, row 7).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Runtime } from "@observablehq/runtime";
import { createRegistries, defineExperimentModule, resolvePipelineConfig, type Progress } from "../../src/lib/index.js";
import { progressLine } from "../../src/report/progressLine.js";

test("progress names each step a search takes before its episodes, then the episodes", async () => {
  const registries = createRegistries();
  const config = resolvePipelineConfig(
    // A growing size (terms 0): the search asks its questions and screens before its episodes.
    { experiment: "syn2", seed: 0, rows: 300, method: "consolesr", search: { episodes: 3, terms: 0 } },
    registries,
  );
  const progress: Progress[] = [];
  const runtime = new Runtime();
  try {
    const main = runtime.module(defineExperimentModule, (name) =>
      name === "progress" ? { fulfilled: (p: unknown) => progress.push(p as Progress) } : undefined,
    );
    main.redefine("registries", [], () => registries);
    main.redefine("config", [], () => config);
    await main.value("result");
  } finally {
    runtime.dispose();
  }
  const phases = progress.filter((p) => p.phase !== null);
  assert.ok(phases.length > 0, "no phase was reported");
  const first = phases[0]!;
  assert.equal(first.episode, 0);
  // Each target's phases start from its own nothing (no episode of the target before).
  for (const p of phases) assert.equal(p.episode, 0, `${p.target}: ${p.phase} at episode ${p.episode}`);
  assert.ok(first.target !== null && ["y1", "y2", "y3"].includes(first.target));
  // (The first one this observer saw: the cell hands over its latest value, so on a fast machine a
  // short phase can pass unseen; each is one of the search's named steps.)
  assert.match(
    first.phase!,
    /^(asking whether it is a sparse polynomial|screening forms|the first screen|testing symmetries)/,
  );
  assert.equal(
    progressLine(first, 1.5),
    `output ${first.targetIndex + 1} of 3 (${first.target}): ${first.phase}, 1.5 s`,
  );
  // Once episodes run, the line is theirs again.
  const episode = progress.find((p) => p.episode > 0);
  assert.ok(episode, "no episode was reported");
  assert.equal(episode.phase, null);
  assert.match(progressLine(episode, 2), /episode \d+ of \d+/);
});
