// The playground's URL parameters (site/components/playgroundParams.ts): what Run writes reads
// back to the same controls, and a bad or unknown parameter is left out with a notice, never thrown.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import test from "node:test";
import assert from "node:assert/strict";
import { resolveEngine, resultWithTimings, type PlaygroundConfig } from "../../site/components/playground.js";
import {
  ControlState,
  PARAMS,
  UrlParams,
  playgroundLink,
  writeParams,
  type ParamLists,
} from "../../site/components/playgroundParams.js";
import { benchmarkCellLink, sweepCellLink } from "../../site/components/playgroundLink.js";
import { experimentNames } from "../../src/report/playgroundConfig.js";

const repo = join(import.meta.dirname, "..", "..");

const lists: ParamLists = {
  datasets: ["toy", "syn1", "syn2", "csv"],
  methods: ["consolesr", "paper", "random"],
  symbols: ["x", "x^2", "x^-1", "cos", "sin"],
  constraints: ["static", "dynamic"],
  rewards: ["inv-nrmse", "parsimony"],
};

const config: PlaygroundConfig = {
  dataset: "syn1",
  rows: 300,
  snrDb: 40,
  symbols: ["x", "x^2", "x^-1", "cos"],
  constraints: ["dynamic"],
  reward: "parsimony",
  method: "paper",
  seed: 17,
  episodes: 25,
  budget: 40,
  timeLimit: 12.5,
  terms: 3,
  maxFactors: 2,
  gamma: 0.35,
  epsilon: 0.15,
  stopNrmse: 1e-4,
  fit: { steps: 35, learningRate: 0.005, polish: "lsq", engine: "js" },
};

test("a URL written by Run gives every control back its value", () => {
  const search = writeParams(config, "wasm");
  const url = new UrlParams(search, lists);
  assert.deepEqual(url.notices, []);
  assert.deepEqual(url.values, {
    dataset: "syn1",
    rows: 300,
    snr: 40,
    symbols: ["x", "x^2", "x^-1", "cos"],
    constraints: ["dynamic"],
    reward: "parsimony",
    method: "paper",
    seed: 17,
    episodes: 25,
    budget: 40,
    timeLimit: 12.5,
    terms: 3,
    maxFactors: 2,
    gamma: 0.35,
    epsilon: 0.15,
    stop: 1e-4,
    steps: 35,
    engine: "js",
    lr: 0.005,
    polish: "lsq",
    backend: "wasm",
  });
  // Every parameter of the table is written (targets and the file's name only for a CSV).
  assert.deepEqual(
    Object.keys(url.values).sort(),
    Object.keys(PARAMS)
      .filter((name) => name !== "targets" && name !== "file")
      .sort(),
  );
  assert.match(search, /symbols=x,x\^2,x\^-1,cos&/, "symbol names are not kept readable");
});

test("the CSV's targets, no noise and the stop rule 'never' read back", () => {
  const csv = {
    ...config,
    dataset: "csv",
    snrDb: null,
    stopNrmse: -1,
    csv: { name: "d.csv", text: "", targets: ["y1", "y_2"] },
  };
  const url = new UrlParams(writeParams(csv, "cpu"), lists);
  assert.deepEqual(url.notices, []);
  assert.equal(url.values.backend, "cpu");
  assert.equal(url.values.snr, null);
  assert.equal(url.values.stop, -1);
  assert.deepEqual(url.values.targets, ["y1", "y_2"]);
  // The file cannot be kept in an address; its name is, so that the page can say which to choose again.
  assert.equal(url.values.file, "d.csv");
  assert.match(new UrlParams("?dataset=csv&file=", lists).notice(), /file= \(not a file name of 1 to 200 characters\)/);
});

test("unknown parameters and bad values are ignored with one notice each", () => {
  const url = new UrlParams(
    "?seed=abc&bogus=1&rows=5&gamma=0.5&stop=0.3&method=dsr&symbols=x,tanh,cos&constraints=nope&seed=4",
    lists,
  );
  assert.deepEqual(url.values, { gamma: 0.5, symbols: ["x", "cos"] });
  assert.deepEqual(url.notices, [
    "seed=abc (not a whole number)",
    "bogus=1 (unknown parameter)",
    "rows=5 (not in [10, 100000])",
    "stop=0.3 (not one of 1e-6, 2e-5, 1e-4, 1e-2, never)",
    "method=dsr (not one of consolesr, paper, random)",
    "symbols=x,tanh,cos (unknown symbol tanh (a plugin's? load its file))",
    "constraints=nope (unknown constraint nope)",
    "seed=4 (seed is given twice; only the first counts)",
  ]);
  assert.match(url.notice(), /^Ignored in this URL: seed=abc \(not a whole number\); bogus=1 /);
});

test("a value is handed to its control once", () => {
  const url = new UrlParams("?seed=5", lists);
  assert.equal(url.any, true);
  assert.equal(url.take("seed"), 5);
  assert.equal(url.take("seed"), undefined, "a rebuilt control got the URL's value again");
  assert.equal(url.take("rows"), undefined);
  assert.equal(new UrlParams("?unknown=1", lists).any, false);
  assert.equal(new UrlParams("", lists).notice(), "");
});

test("numbers are whole where the control is, and 1e-6 style is read", () => {
  const url = new UrlParams("?seed=1.5&episodes=1e1&stop=0.000001&lr=5e-3&gamma=.25", lists);
  assert.deepEqual(url.values, { episodes: 10, stop: 1e-6, lr: 0.005, gamma: 0.25 });
  assert.deepEqual(url.notices, ["seed=1.5 (not a whole number)"]);
});

/** A stand-in for an Inputs control: what it was built with is its value until the "user" sets it. */
const input = <T>(value: T) => ({ value });

test("a rebuilt control keeps its value for the same dataset and takes the new dataset's default otherwise", () => {
  const controls = new ControlState(new UrlParams("?rows=300&dataset=syn1", lists));
  const defaults: Record<string, number> = { syn1: 2000, toy: 500 };
  const rows = (dataset: string) => controls.make("rows", dataset, () => defaults[dataset]!, input);
  assert.equal(rows("syn1").value, 300, "the URL's value");
  const built = rows("syn1");
  assert.equal(built.value, 300, "a rebuild for the same dataset went back to a default");
  built.value = 1234; // the user types
  assert.equal(rows("syn1").value, 1234, "a rebuild lost what the user typed");
  assert.equal(rows("toy").value, 500, "another dataset kept the old dataset's rows");
  assert.equal(rows("syn1").value, 2000, "the URL's value came back after the dataset changed");
});

test("a plugin's new options are switched on, and the user's choice is kept", () => {
  const controls = new ControlState(new UrlParams("?symbols=x,cos&reward=parsimony", lists));
  const symbols = (options: string[]) => controls.make("symbols", "csv", () => options, input, options);
  const first = symbols(["x", "x^2", "cos"]);
  assert.deepEqual(first.value, ["x", "cos"]);
  first.value = ["x"];
  assert.deepEqual(symbols(["x", "x^2", "cos", "tanh"]).value, ["x", "tanh"]);
  const reward = (options: string[]) => controls.make("reward", "", () => "inv-nrmse", input, options);
  assert.equal(reward(["inv-nrmse", "parsimony"]).value, "parsimony");
  assert.equal(reward(["inv-nrmse", "parsimony", "strict"]).value, "strict", "a loaded reward is not selected");
  assert.equal(reward(["inv-nrmse", "parsimony", "strict"]).value, "strict");
});

test("a CSV's targets from the URL wait for a file with those columns", () => {
  const controls = new ControlState(new UrlParams("?dataset=csv&targets=y2", lists));
  const targets = (columns: string[]) =>
    controls.make("targets", columns.join(","), () => columns.slice(-1), input, columns);
  assert.deepEqual(targets([]).value, []);
  assert.deepEqual(targets(["x1", "y1", "y2", "y3"]).value, ["y2"]);
  assert.deepEqual(targets(["a", "b"]).value, ["b"], "another file's columns took the URL's targets");
});

test("the address keeps the engine and backend as chosen, auto too; other values are refused", () => {
  const auto = { ...config, fit: { ...config.fit, engine: "auto" as const } };
  const search = writeParams(auto, "auto");
  assert.match(search, /&engine=auto&/);
  assert.match(search, /&backend=auto$/);
  const url = new UrlParams(search, lists);
  assert.deepEqual(url.notices, []);
  assert.equal(url.values.engine, "auto");
  assert.equal(url.values.backend, "auto");
  for (const [engine, backend] of [
    ["js", "webgl"],
    ["tfjs", "wasm"],
    ["tfjs", "cpu"],
  ] as const) {
    const values = new UrlParams(writeParams({ ...config, fit: { ...config.fit, engine } }, backend), lists).values;
    assert.deepEqual([values.engine, values.backend], [engine, backend]);
  }
  const bad = new UrlParams("?engine=gpu&backend=webgpu", lists);
  assert.deepEqual(bad.values, {});
  assert.deepEqual(bad.notices, [
    "engine=gpu (not one of auto, js, tfjs)",
    "backend=webgpu (not one of auto, webgl, wasm, cpu)",
  ]);
});

/** A calibration as calibrate() returns it (timings in seconds; webgl's warm-up over the limit here). */
const calibration = (choice: { engine: "js" | "tfjs"; backend: string }) => ({
  choice,
  entries: [
    { engine: "js" as const, backend: "js", seconds: 0.004, warmup: 0.02 },
    { engine: "tfjs" as const, backend: "cpu", seconds: 0.09, warmup: 0.1 },
    { engine: "tfjs" as const, backend: "wasm", seconds: 0.03, warmup: 0.2 },
    { engine: "tfjs" as const, backend: "webgl", seconds: null, warmup: 6, error: "warm-up took 6.0 s (limit 5 s)" },
  ],
});

test("auto takes the calibration's choice; an explicit engine or backend overrides it", () => {
  const js = calibration({ engine: "js", backend: "cpu" });
  const pick = (engine: "auto" | "js" | "tfjs", backend: "auto" | "webgl" | "wasm" | "cpu", c = js) => {
    const resolved = resolveEngine(engine, backend, c);
    return `${resolved.engine} ${resolved.backend}`;
  };
  // Engine auto: the calibration's engine and backend (js keeps tfjs on cpu, whatever the backend control says).
  assert.equal(pick("auto", "auto"), "js cpu");
  assert.equal(pick("auto", "webgl"), "js cpu");
  const wasm = calibration({ engine: "tfjs", backend: "wasm" });
  assert.equal(pick("auto", "auto", wasm), "tfjs wasm");
  assert.equal(pick("auto", "webgl", wasm), "tfjs webgl", "an explicit backend did not override the calibration's");
  // Engine js: float64 fits, tfjs on cpu.
  assert.equal(pick("js", "auto"), "js cpu");
  assert.equal(pick("js", "wasm"), "js cpu");
  // Engine tfjs: the backend chosen, or the fastest tfjs backend measured (not js, not one that failed).
  assert.equal(pick("tfjs", "webgl"), "tfjs webgl");
  assert.equal(pick("tfjs", "auto"), "tfjs wasm");
  // Nothing measured: js for auto; webgl first (then the fallbacks) for tfjs.
  assert.equal(resolveEngine("auto", "auto", null).engine, "js");
  assert.deepEqual(
    [resolveEngine("tfjs", "auto", null).engine, resolveEngine("tfjs", "auto", null).backend],
    ["tfjs", "webgl"],
  );
});

test("a download carries the run's seconds and the runtime, after what reproduce compares", () => {
  const result = {
    version: 1 as const,
    equations: [],
    search: { method: "consolesr", episodes: 3, structures: 3, stopReason: "reward-threshold" },
    manifest: { seed: 0, config: {}, version: "0.1.0", git: "unknown", backend: "js" },
  };
  const timed = resultWithTimings(result, 1.23456);
  assert.equal(timed.search.seconds, 1.235);
  assert.deepEqual(Object.keys(timed.search), ["method", "episodes", "structures", "stopReason", "seconds"]);
  assert.deepEqual(Object.keys(timed.manifest), ["seed", "config", "version", "git", "backend", "runtime"]);
  assert.match(timed.manifest.runtime!.engine, /^V8 .* \(Node \d/);
  assert.equal("seconds" in result.search, false, "the run's own result was changed");
});

test("a report form's playground link names parameters as the playground reads them; another name throws", () => {
  const link = playgroundLink({
    dataset: "syn1",
    seed: 7,
    snr: null,
    rows: 300,
    method: "consolesr",
    symbols: ["x", "x^2"],
  });
  assert.equal(link, "./playground?dataset=syn1&rows=300&snr=none&symbols=x,x^2&method=consolesr&seed=7");
  const read = new UrlParams(link.slice("./playground".length), lists);
  assert.deepEqual(read.notices, []);
  assert.deepEqual(read.values, {
    dataset: "syn1",
    rows: 300,
    snr: null,
    symbols: ["x", "x^2"],
    method: "consolesr",
    seed: 7,
  });
  assert.throws(() => playgroundLink({ experiment: "syn1" } as never), /the playground has no parameter "experiment"/);
});

test("every form's 'open in playground' keeps its experiment: each sweep and benchmark cell reads back whole", () => {
  // The playground's own lists: its datasets are the registered experiments and "csv".
  const datasets = [...experimentNames, "csv"];
  const read = (link: string) =>
    new UrlParams(new URL(link, "http://localhost/").search, {
      ...lists,
      datasets,
      methods: ["consolesr", "paper", "random", "enumerate", "mlp", "eql", "dsr", "vpg"],
    });
  let checked = 0;
  for (const name of ["ablation", "comparison", "sensitivity-rows", "sensitivity-snr"]) {
    const spec = JSON.parse(readFileSync(join(repo, "sweeps", `${name}.json`), "utf8"));
    const variants: { name: string; settings: Record<string, unknown> }[] = spec.variants ?? [
      { name: "as-is", settings: {} },
    ];
    for (const experiment of spec.experiments)
      for (const method of spec.methods ?? ["consolesr"])
        for (const variant of variants)
          for (const snr of spec.snr ?? [null])
            for (const rows of spec.rows ?? [null]) {
              const cell = { experiment, seed: 3, method, snr, rows };
              const link = sweepCellLink(cell, variant.settings);
              // No link where the playground has no control for a setting (the page shows none).
              if (link === null) {
                assert.ok(Object.keys(variant.settings).length > 0, `${name}: the as-is cell has no link`);
                continue;
              }
              const url = read(link);
              assert.deepEqual(url.notices, [], `${name} ${variant.name}: ${link}`);
              const v = url.values;
              assert.deepEqual(
                [v.dataset, v.method, v.seed, v.snr ?? null, v.rows ?? null],
                [experiment, method, 3, snr, rows],
              );
              const fit = (variant.settings.fit ?? {}) as Record<string, unknown>;
              if ("epsilon" in variant.settings) assert.equal(v.epsilon, variant.settings.epsilon, link);
              if ("constraints" in variant.settings)
                assert.deepEqual(v.constraints, variant.settings.constraints, link);
              if ("polish" in fit) assert.equal(v.polish, fit.polish, link);
              checked++;
            }
  }
  // A benchmark cell links only where the playground offers its entry (it opened on the toy):
  // the committed suites' entries are not the playground's, and a syn1 cell reads back whole.
  for (const file of ["search-benchmark.json", "search-benchmark-100db.json"]) {
    const suite = JSON.parse(readFileSync(join(repo, "site", "data", file), "utf8"));
    for (const run of suite.runs.slice(0, 60)) {
      const cell = {
        equation: run.equation,
        seed: run.seed,
        method: run.method,
        snr: run.snrDb,
        rows: suite.manifest.rows,
        episodes: suite.manifest.episodes,
        budget: suite.manifest.budget,
        stopNrmse: run.stopNrmse,
      };
      assert.equal(benchmarkCellLink(cell, datasets) === null, !datasets.includes(run.equation), run.equation);
      const link = benchmarkCellLink({ ...cell, equation: "syn1" }, datasets)!;
      const url = read(link);
      assert.deepEqual(url.notices, [], `${file}: ${link}`);
      assert.ok(Math.abs(url.values.stop! - run.stopNrmse) <= 1e-9 * run.stopNrmse, link);
      assert.equal(url.values.snr ?? null, run.snrDb, link);
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} links`);
});
