/**
 * `consolesr reproduce`: re-running a result JSON from its manifest gives the same equations
 * (exit 0); an edited coefficient is reported as a difference naming the target and the number
 * (exit 1); a bad file is one `error: …` line (exit 2). Results are made with the CLI, the
 * re-runs go through the library function, plus a few CLI spawns for the exit codes.
 * The re-runs go through the runtime module (src/lib/api/runtime.ts) over the pipeline
 * (src/lib/run/pipeline.ts): it gives the CLI's bytes, and redefining its config aborts a running search.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Runtime } from "@observablehq/runtime";
import { gitSha } from "../../src/cli/git.js";
import { reproduce } from "../../src/cli/commands/reproduce.js";
import { experimentData, experiments } from "../../src/lib/data/experiments.js";
import { isInputError } from "../../src/lib/core/errors.js";
import {
  configFromManifest,
  pipelineData,
  resolvePipelineConfig,
  type PipelineConfig,
} from "../../src/lib/run/index.js";
import { compareEquations, EXACT_TOLERANCE, FLOAT32_TOLERANCE, toleranceFor } from "../../src/lib/result/reproduce.js";
import { resultToJson, type ResultJson } from "../../src/lib/result/result.js";
import { createRng } from "../../src/lib/core/rng.js";
import define, { runModule, type Progress, type RuntimeConfig } from "../../src/lib/api/runtime.js";
import { createRegistries } from "../../src/lib/plugins/builtin.js";
import { assertInputError, cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("reproduce");

const syn1 = join(dir, "syn1.json");
const fitted = join(dir, "fit.json");
const random = join(dir, "random.json");
const RANDOM_RUN = ["run", "syn1", "--seed", "0", "--method", "random", "--budget", "40"];
const csv = join(dir, "data.csv");

/** y = 2.5·a²·b + 0.7·sin(a), a, b ~ U(1, 2) from a seeded generator. */
function writeData(): void {
  const rng = createRng(7);
  const rows: string[] = ["a,b,y"];
  for (let i = 0; i < 200; i++) {
    const a = rng.uniform(1, 2);
    const b = rng.uniform(1, 2);
    rows.push(`${a},${b},${2.5 * a * a * b + 0.7 * Math.sin(a)}`);
  }
  writeFileSync(csv, `${rows.join("\n")}\n`);
}

const edited = (file: string, name: string, edit: (r: ResultJson) => void): string => {
  const result = JSON.parse(readFileSync(file, "utf8")) as ResultJson;
  edit(result);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(result, null, 2));
  return path;
};

before(async () => {
  writeData();
  const runs = await Promise.all([
    cli(["run", "syn1", "--given-form", "--quiet", "--out", syn1]),
    cli(["fit", csv, "--target", "y", "--form", "y = a^2*b + sin(a)", "--quiet", "--out", fitted]),
    cli([...RANDOM_RUN, "--quiet", "--out", random]),
  ]);
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
});

describe("reproduce", () => {
  test("run syn1 --given-form: every equation the same", async () => {
    const { comparison, lines } = await reproduce(syn1);
    assert.ok(comparison.match, lines.join("\n"));
    assert.deepEqual(
      comparison.targets.map((t) => [t.target, t.status]),
      [
        ["y1", "same"],
        ["y2", "same"],
        ["y3", "same"],
      ],
    );
    assert.equal(comparison.tolerance, EXACT_TOLERANCE);
    assert.match(
      lines.at(-1)!,
      new RegExp(
        /^reproduced exactly: all 3 equations and every stored field match /.source +
          /\(exact match, tolerance 1e-9; both runs on cpu/.source,
      ),
    );
  });

  test("fit --form on a CSV: the same equation", async () => {
    const { comparison, lines } = await reproduce(fitted);
    assert.ok(comparison.match, lines.join("\n"));
    assert.deepEqual(
      comparison.targets.map((t) => t.status),
      ["same"],
    );
  });

  test("a coefficient changed by 1 % is a difference naming the target and the number", async () => {
    const path = edited(syn1, "edited.json", (r) => {
      r.equations[1]!.terms[0]!.coefficient *= 1.01;
    });
    const { comparison, lines } = await reproduce(path);
    assert.equal(comparison.match, false);
    const y2 = comparison.targets.find((t) => t.target === "y2")!;
    assert.equal(y2.status, "different");
    assert.equal(y2.numbers.length, 1);
    assert.equal(y2.numbers[0]!.number, "coefficient");
    assert.equal(y2.numbers[0]!.new, 4);
    assert.ok(comparison.targets.filter((t) => t.target !== "y2").every((t) => t.status === "same"));
    assert.ok(
      lines.some((l) => l.includes("y2 term") && l.includes("coefficient 4.04 → 4")),
      lines.join("\n"),
    );
    assert.match(lines.at(-1)!, /^NOT reproduced: 1 of 3 equations differ/);
  });

  test("tolerance: 1e-9 on float64 backends, 1e-4 with float32 or a change of backend", () => {
    assert.equal(toleranceFor("cpu", "cpu"), EXACT_TOLERANCE);
    assert.equal(toleranceFor("js", "js"), EXACT_TOLERANCE);
    assert.equal(toleranceFor("wasm", "cpu"), FLOAT32_TOLERANCE);
    assert.equal(toleranceFor("cpu", "wasm"), FLOAT32_TOLERANCE);
    const eq = (c: number, w: number) => [
      {
        target: "y",
        text: `${c}`,
        latex: "",
        trainNrmse: 0,
        terms: [{ coefficient: c, factors: [{ symbol: "cos", input: "x", weight: w }] }],
      },
    ];
    assert.equal(compareEquations(eq(2, 1.5), eq(2 * (1 + 1e-6), 1.5), FLOAT32_TOLERANCE).targets[0]!.status, "close");
    const off = compareEquations(eq(2, 1.5), eq(2, 1.6), FLOAT32_TOLERANCE).targets[0]!;
    assert.equal(off.status, "different");
    assert.equal(off.numbers[0]!.number, "weight of cos(x)");
    const other = compareEquations(
      eq(2, 1.5),
      [{ ...eq(2, 1.5)[0]!, terms: [{ coefficient: 2, factors: [{ symbol: "sin", input: "x", weight: 1.5 }] }] }],
      EXACT_TOLERANCE,
    );
    assert.deepEqual(other.targets[0]!.structure, [
      "term cos(x) only in the original",
      "term sin(x) only in the re-run",
    ]);
  });

  test("CLI: exit 0 when reproduced, 1 when different", async () => {
    const path = edited(fitted, "fit-edited.json", (r) => {
      r.equations[0]!.terms[0]!.coefficient *= 1.01;
    });
    const [same, differ] = await Promise.all([
      cli(["reproduce", fitted, "--quiet"]),
      cli(["reproduce", path, "--quiet"]),
    ]);
    assert.equal(same.code, 0, same.stderr);
    assert.equal(same.stderr, "");
    assert.match(same.stdout, /^y: same /m);
    assert.equal(differ.code, 1, differ.stderr);
    assert.match(differ.stdout, /^y: DIFFERENT/m);
    assert.match(differ.stdout, /y term .*: coefficient /);
  });

  test("CLI: a bad file is exit 2 with one error line naming it", async () => {
    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "y = x\n");
    const v2 = edited(syn1, "v2.json", (r) => {
      (r as { version: number }).version = 2;
    });
    const bare = edited(syn1, "bare.json", (r) => {
      delete (r as Partial<ResultJson>).manifest;
    });
    const noCsv = edited(fitted, "no-csv.json", (r) => {
      r.manifest.config.data = join(dir, "gone.csv");
    });
    const runs = await Promise.all([notJson, v2, bare, noCsv].map((f) => cli(["reproduce", f])));
    assertInputError(runs[0]!, "not.json", "not a JSON file");
    assertInputError(runs[1]!, "v2.json", "version 2");
    assertInputError(runs[2]!, "bare.json", "no manifest");
    assertInputError(runs[3]!, "no-csv.json", "gone.csv", "missing");
  });
});

/** Polls `condition` every 5 ms until it holds (or fails after `ms`). */
async function until(condition: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the runtime module over the pipeline", () => {
  test(
    "runModule gives the bytes of `run syn1 --seed 0 --method random --budget 40`, " +
      "from options and from the manifest",
    async () => {
      const bytes = readFileSync(random, "utf8");
      const registries = createRegistries();
      const config = resolvePipelineConfig(
        { experiment: "syn1", seed: 0, method: "random", search: { budget: 40 } },
        registries,
      );
      const fromOptions = await runModule(config, { backend: "cpu", registries, git: gitSha() });
      assert.equal(resultToJson(fromOptions), bytes);
      // reproduce: the config read back from the manifest runs to the same bytes.
      const fromManifest = configFromManifest(JSON.parse(bytes) as ResultJson, random);
      const again = await runModule(fromManifest, { backend: "cpu", git: gitSha() });
      assert.equal(resultToJson(again), bytes);
      const { comparison, result } = await reproduce(random);
      assert.deepEqual(
        comparison.targets.map((t) => t.status),
        ["same", "same", "same"],
      );
      assert.equal(resultToJson({ ...result, manifest: { ...result.manifest, git: gitSha() } }), bytes);
    },
  );

  test("the search continues the data's random stream: searchSeed is what rng.fork() would draw", () => {
    const registries = createRegistries();
    const config = resolvePipelineConfig({ experiment: "toy", seed: 5, rows: 20 }, registries);
    const { searchSeed } = pipelineData(config, { registries });
    const rng = createRng(5);
    experimentData(experiments.toy!, { rng, symbols: (n) => registries.symbols.get(n), rows: 20 });
    const forked = rng.fork();
    const ours = createRng(searchSeed);
    for (let i = 0; i < 5; i++) assert.equal(ours.next(), forked.next());
  });

  test(
    "redefining config mid-run aborts the running search (its episodes stop, " +
      "stopReason aborted) and the new one completes",
    async () => {
      const registries = createRegistries();
      // A long one (random search rarely recovers syn2) and a short one.
      const first = resolvePipelineConfig({ experiment: "syn2", seed: 1, rows: 200, method: "random" }, registries);
      const second = resolvePipelineConfig(
        { experiment: "syn1", seed: 1, rows: 200, method: "random", search: { budget: 5 } },
        registries,
      );
      const episodes = new Map<string, number>([
        ["syn2", 0],
        ["syn1", 0],
      ]);
      const finished: { experiment: string; stopReason: string; episodes: number; at: number }[] = [];
      const progress: Progress[] = [];
      const runtime = new Runtime();
      try {
        const main = runtime.module(define, (name) =>
          name === "progress" ? { fulfilled: (p) => progress.push(p as Progress) } : undefined,
        );
        const name = (c: RuntimeConfig) => ("experiment" in c ? c.experiment : c.data);
        main.redefine("hooks", [], () => ({
          onEpisode: (_e: unknown, c: RuntimeConfig) => episodes.set(name(c), episodes.get(name(c))! + 1),
          onFinish: (o: { result: ResultJson }, c: RuntimeConfig) =>
            finished.push({
              experiment: name(c),
              stopReason: o.result.search.stopReason,
              episodes: o.result.search.episodes,
              at: episodes.get(name(c))!,
            }),
        }));
        main.redefine("config", [], () => first);
        const result = main.value("result");
        await until(() => episodes.get("syn2")! >= 3);
        const atSwitch = episodes.get("syn2")!;
        main.redefine("config", [], () => second);
        const done = (await result) as ResultJson;
        assert.equal(done.manifest.config.experiment, "syn1");
        assert.notEqual(done.search.stopReason, "aborted");
        assert.equal(done.equations.length, 3);
        assert.deepEqual(
          finished.map((f) => [f.experiment, f.stopReason]),
          [
            ["syn2", "aborted"],
            ["syn1", done.search.stopReason],
          ],
        );
        const aborted = finished[0]!;
        assert.ok(
          aborted.at <= atSwitch + 1,
          `the first search ran ${aborted.at - atSwitch} episodes after config changed`,
        );
        assert.equal(episodes.get("syn2"), aborted.at, "the first search's onEpisode kept advancing after it finished");
        assert.equal(aborted.episodes, aborted.at);
        assert.ok(
          progress.some((p) => p.target !== null && p.episode > 0 && p.fraction > 0),
          "progress reported episodes",
        );
      } finally {
        runtime.dispose();
      }
    },
  );

  test("runModule: a cell's InputError reaches the caller as that InputError", async () => {
    const config = {
      ...resolvePipelineConfig({ experiment: "toy", rows: 20, search: { episodes: 1 } }, createRegistries()),
      reward: "nope",
    } as PipelineConfig;
    await assert.rejects(
      runModule(config),
      (error: unknown) => isInputError(error) && /unknown reward "nope"/.test((error as Error).message),
    );
  });
});
