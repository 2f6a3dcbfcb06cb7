// fit({X, y}): the one-call API on arrays (src/lib/api/fitArrays.ts). It recovers y = 2·x1·x2 + x3²
// from 200 seeded rows, predicts new rows in float64, gives the same result from rows, from typed
// arrays with a shape and from rows given in chunks, and the same equations and search block as
// `consolesr fit` on a CSV of the same numbers, handles two targets, refuses bad arrays (and bad
// chunks) with one line naming the problem, is byte-identical for one seed, stops on its signal,
// leaves no tensor behind, bundles for the browser without a node: module, and the README's quick
// start runs as written.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRng,
  fit,
  InputError,
  loadResult,
  resultToJson,
  tf,
  type FitArraysOptions,
  type FitArraysResult,
  type ResultJson,
} from "../../src/lib/index.js";
import { cli, root } from "../helpers/cli.js";

const SYMBOLS = ["x", "x^2"];
const truth = (x1: number, x2: number, x3: number) => 2 * x1 * x2 + x3 ** 2;

/** `rows` rows of three inputs in [0.5, 2.5], drawn from createRng(seed). */
function inputs(seed: number, rows: number): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: rows }, () => [rng.uniform(0.5, 2.5), rng.uniform(0.5, 2.5), rng.uniform(0.5, 2.5)]);
}

const X = inputs(1, 200);
const y = X.map(([a, b, c]) => truth(a!, b!, c!));
const typedX = { data: Float64Array.from(X.flat()), shape: [200, 3] as const };

/** The first fit, shared by the tests that only read it. */
let first: Promise<{ result: FitArraysResult; tensors: number; seconds: number }> | undefined;
const firstFit = () =>
  (first ??= (async () => {
    await tf.ready();
    const before = tf.memory().numTensors;
    const started = performance.now();
    const result = await fit({ X, y, symbols: SYMBOLS, seed: 0 });
    return { result, tensors: tf.memory().numTensors - before, seconds: (performance.now() - started) / 1000 };
  })());

const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

describe("fit({X, y})", () => {
  test(
    "recovers y = 2·x1·x2 + x3² from 200 rows; " +
      "predict reproduces new rows to 1e-8; no tensor left; JSON is the version-1 JSON",
    async (t) => {
      const { result, tensors, seconds } = await firstFit();
      assert.equal(tensors, 0, "tensors left after fit");
      assert.equal(result.version, 1);
      assert.equal(result.equations.length, 1);
      const [equation] = result.equations;
      assert.equal(equation!.target, "y");
      assert.equal(equation!.text, "2*x1*x2 + x3^2");
      assert.ok(equation!.trainNrmse < 1e-12, `train NRMSE ${equation!.trainNrmse}`);
      assert.equal(result.search.stopReason, "reward-threshold");
      assert.equal(result.manifest.config.data, "arrays");
      assert.deepEqual(result.manifest.config.inputs, ["x1", "x2", "x3"]);
      assert.equal(result.manifest.backend, "js");
      t.diagnostic(
        `fit of y = 2·x1·x2 + x3²: ${seconds.toFixed(2)} s, ${result.search.episodes} ` +
          `episodes, ${result.search.structures} structures`,
      );

      const fresh = inputs(2, 50);
      const predicted = equation!.predict(fresh);
      assert.ok(Array.isArray(predicted) && predicted.length === 50);
      fresh.forEach(([a, b, c], i) => {
        assert.ok(
          relative(predicted[i]!, truth(a!, b!, c!)) < 1e-8,
          `row ${i}: ${predicted[i]} vs ${truth(a!, b!, c!)}`,
        );
      });
      assert.deepEqual(
        equation!.predict({ data: Float64Array.from(fresh.flat()), shape: [50, 3] }),
        predicted,
        "typed layout predicts the same",
      );
      assert.deepEqual(equation!.predict([]), []);

      // predict stays out of the JSON: not an enumerable key, so the version-1 JSON has the same keys.
      assert.equal(Object.getOwnPropertyDescriptor(equation!, "predict")?.enumerable, false);
      const json = resultToJson(result);
      const plain = JSON.parse(json) as ResultJson;
      assert.deepEqual(Object.keys(plain.equations[0]!), ["target", "text", "latex", "terms", "trainNrmse"]);
    },
  );

  test(
    "one seed gives a byte-identical resultToJson; " + "typed X and y with a shape give the identical result",
    async () => {
      const { result } = await firstFit();
      const again = await fit({ X, y, symbols: SYMBOLS, seed: 0 });
      assert.equal(resultToJson(again), resultToJson(result));
      const typed = await fit({ X: typedX, y: Float64Array.from(y), symbols: SYMBOLS, seed: 0 });
      assert.equal(resultToJson(typed), resultToJson(result));
      const rowsOfTyped = await fit({
        X: X.map((row) => Float64Array.from(row)),
        y: { data: Float64Array.from(y), shape: [200, 1] },
        symbols: SYMBOLS,
        seed: 0,
      });
      assert.equal(resultToJson(rowsOfTyped), resultToJson(result));
    },
  );

  test("rows in chunks (sync or async, mixed layouts): the identical result; bad chunks one line each", async () => {
    const { result } = await firstFit();
    // 200 rows as 7 + 0 + 93 + 100: an empty chunk, rows of arrays, a typed block, a y vector
    async function* pieces() {
      yield { X: X.slice(0, 7), y: y.slice(0, 7) };
      yield { X: [], y: [] };
      yield { X: X.slice(7, 100), y: { data: Float64Array.from(y.slice(7, 100)), shape: [93, 1] as const } };
      yield { X: { data: Float64Array.from(X.slice(100).flat()), shape: [100, 3] as const }, y: y.slice(100) };
    }
    const chunked = await fit({ chunks: pieces(), symbols: SYMBOLS, seed: 0 });
    assert.equal(resultToJson(chunked), resultToJson(result));
    const rowsOfTen = Array.from({ length: 20 }, (_, k) => ({
      X: X.slice(10 * k, 10 * k + 10),
      y: y.slice(10 * k, 10 * k + 10),
    }));
    assert.equal(resultToJson(await fit({ chunks: rowsOfTen, symbols: SYMBOLS, seed: 0 })), resultToJson(result));
    assert.deepEqual(chunked.equations[0]!.predict(X.slice(0, 3)), result.equations[0]!.predict(X.slice(0, 3)));

    const half = (k: number) => ({ X: X.slice(100 * k, 100 * k + 100), y: y.slice(100 * k, 100 * k + 100) });
    // Untyped on purpose: the types refuse X beside chunks; a JavaScript caller is told at run time.
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["X and chunks", { X, y, chunks: [half(0)] }, /^fit: give X and y, or chunks, not both$/],
      ["chunks not iterable", { chunks: 5 as unknown as [] }, /^fit: chunks must be an iterable or async iterable/],
      [
        "a chunk not {X, y}",
        { chunks: [half(0), [1, 2]] as never },
        /^fit: chunks\[1\] must be \{X, y\} \(got an array\)$/,
      ],
      [
        "a chunk with another number of columns",
        { chunks: [half(0), { X: X.slice(100).map((r) => r.slice(0, 2)), y: y.slice(100) }] },
        /^fit: chunks\[1\]\.X has 2 columns; chunks\[0\]\.X has 3$/,
      ],
      [
        "rows of X and y that differ in a chunk",
        { chunks: [half(0), { X: X.slice(100), y: y.slice(101) }] },
        /^fit: chunks\[1\]\.X has 100 rows but chunks\[1\]\.y has 99$/,
      ],
      [
        "NaN, numbered across chunks",
        {
          chunks: [
            half(0),
            { X: X.slice(100).map((r, i) => (i === 4 ? [r[0]!, Number.NaN, r[2]!] : r)), y: y.slice(100) },
          ],
        },
        /^fit: chunks\[1\]\.X\[4\]\[1\] \(row 105, column "x2"\) is NaN; every value must be a finite number$/,
      ],
      ["no rows", { chunks: [{ X: [], y: [] }] }, /^fit: chunks gave no rows \(1 chunk\)$/],
      ["too few rows", { chunks: [{ X: X.slice(0, 4), y: y.slice(0, 4) }] }, /^fit: chunks gave 4 rows; at least 10/],
      [
        "names of the wrong count",
        { chunks: [half(0)], names: ["a"] },
        /^fit: names has 1 name but chunks\[0\]\.X has 3 columns$/,
      ],
    ];
    for (const [what, options, pattern] of cases) {
      const given = { symbols: SYMBOLS, ...options } as unknown as FitArraysOptions;
      await assert.rejects(fit(given), (error: unknown) => {
        assert.ok(error instanceof InputError, `${what}: ${String(error)}`);
        assert.match(error.message, pattern, what);
        return true;
      });
    }
  });

  test("an abort while chunks still arrive ends the read with the signal's reason (Trust II probe)", {
    timeout: 60_000,
  }, async () => {
    // Rows that never end: the read stopped only when the process was killed.
    async function* forever() {
      for (let i = 1; ; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield { X: [[i, i + 1]], y: [2 * i] };
      }
    }
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await assert.rejects(fit({ chunks: forever(), signal: controller.signal }), { name: "AbortError" });
  });

  test("an error about an option sets error.field to the option's name, as the guide says (Trust II)", async () => {
    const cases: [Partial<FitArraysOptions>, string][] = [
      [{ X: [[1, 2, 3], [4]] }, "X"],
      [{ y: y.map((v, i) => (i === 4 ? Number.NaN : v)) }, "y"],
      [{ names: ["a"] }, "names"],
      [{ targets: ["y", "z"] }, "targets"],
      [{ symbols: ["x", "nope"] }, "symbols"],
      [{ method: "nope" as FitArraysOptions["method"] }, "method"],
      [{ search: { episodes: -1 } }, "search.episodes"],
      [{ timeLimit: -1 }, "timeLimit"],
      [{ fit: { engine: "gpu" } as unknown as FitArraysOptions["fit"] }, "fit"],
      [{ constraints: ["nope"] }, "constraints"],
      [{ reward: "nope" }, "reward"],
    ];
    for (const [change, field] of cases) {
      await assert.rejects(fit({ X, y, symbols: SYMBOLS, ...change } as FitArraysOptions), (error: unknown) => {
        assert.ok(error instanceof InputError, String(error));
        assert.equal(error.field, field, error.message);
        return true;
      });
    }
  });

  test(
    "gives the equations and search block of `consolesr fit` " + "on a CSV of the same numbers, seed and flags",
    async () => {
      const { result } = await firstFit();
      const dir = mkdtempSync(join(tmpdir(), "consolesr-fitarrays-"));
      try {
        const csv = join(dir, "same.csv");
        writeFileSync(csv, `${["x1,x2,x3,y", ...X.map((row, i) => [...row, y[i]!].join(","))].join("\n")}\n`);
        const out = join(dir, "cli.json");
        const run = await cli([
          "fit",
          csv,
          "--target",
          "y",
          "--symbols",
          SYMBOLS.join(","),
          "--seed",
          "0",
          "--quiet",
          "--out",
          out,
        ]);
        assert.equal(run.code, 0, run.stderr);
        const written = JSON.parse(readFileSync(out, "utf8")) as ResultJson;
        const plain = JSON.parse(resultToJson(result)) as ResultJson;
        assert.deepEqual(plain.equations, written.equations);
        assert.deepEqual(plain.search, written.search);
        assert.equal(plain.manifest.seed, written.manifest.seed);
        assert.equal(plain.manifest.backend, written.manifest.backend);
        assert.deepEqual({ ...plain.manifest.config, data: csv }, written.manifest.config);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test("two targets: y as n × 2 rows, with names and targets given", async () => {
    const y2 = X.map(([a, b, c]) => [truth(a!, b!, c!), 3 * a! * c!]);
    const result = await fit({ X, y: y2, names: ["u", "v", "w"], targets: ["p", "q"], symbols: SYMBOLS, seed: 0 });
    assert.deepEqual(
      result.equations.map((e) => `${e.target} = ${e.text}`),
      ["p = 2*u*v + w^2", "q = 3*u*w"],
    );
    assert.deepEqual(result.manifest.config.targets, ["p", "q"]);
    const fresh = inputs(3, 20);
    const [p, q] = result.equations.map((e) => e.predict(fresh));
    fresh.forEach(([a, b, c], i) => {
      assert.ok(relative(p![i]!, truth(a!, b!, c!)) < 1e-8);
      assert.ok(relative(q![i]!, 3 * a! * c!) < 1e-8);
    });
    const defaults = await fit({ X, y: y2, symbols: SYMBOLS, seed: 0, search: { episodes: 1 } });
    assert.deepEqual(
      defaults.equations.map((e) => e.target),
      ["y1", "y2"],
    );
  });

  test("bad arrays and options: one InputError line naming the problem, each", async () => {
    const ragged = X.map((row, i) => (i === 4 ? row.slice(0, 2) : row));
    const withNaN = X.map((row, i) => (i === 3 ? [row[0]!, Number.NaN, row[2]!] : row));
    const typedInf = Float64Array.from(X.flat());
    typedInf[3 * 7 + 2] = Number.POSITIVE_INFINITY;
    const cases: [string, Partial<FitArraysOptions>, RegExp][] = [
      ["ragged rows", { X: ragged }, /^fit: X\[4\] \(row 5\) has 2 values, X\[0\] has 3/],
      ["X and y of different lengths", { y: y.slice(0, 199) }, /^fit: X has 200 rows but y has 199/],
      [
        "NaN, with its row and column",
        { X: withNaN },
        /^fit: X\[3\]\[1\] \(row 4, column "x2"\) is NaN; every value must be a finite number$/,
      ],
      [
        "Infinity in typed data",
        { X: { data: typedInf, shape: [200, 3] } },
        /^fit: X\.data\[23\] \(row 8, column "x3"\) is Infinity/,
      ],
      ["NaN in y", { y: y.map((v, i) => (i === 9 ? Number.NaN : v)) }, /^fit: y\[9\] \(row 10, column "y"\) is NaN/],
      [
        "a string cell",
        { X: X.map((row, i) => (i === 0 ? ["1", ...row.slice(1)] : row)) as unknown as number[][] },
        /^fit: X\[0\]\[0\] \(row 1, column "x1"\) is "1", not a number$/,
      ],
      [
        // Trust II, row 4: a BigInt is named as one, with the way to convert it.
        "a BigInt target",
        { y: y.map((v, i) => (i === 0 ? 1n : v)) as unknown as number[] },
        /^fit: y\[0\] \(row 1, column "y"\) is the BigInt 1n, not a number: convert it with Number\(…\)$/,
      ],
      // The Trust II probe: a list given as one string, a BigInt seed.
      ["symbols as one string", { symbols: "x,x^2" as unknown as string[] }, /^fit: symbols must be an array of names/],
      [
        "a BigInt seed",
        { seed: 1n as unknown as number },
        /^fit: seed is the BigInt 1n, not a number: convert it with Number\(…\)$/,
      ],
      [
        "a name that is not an identifier",
        { names: ["x1", "x 2", "x3"] },
        /^fit: names\[1\] "x 2" is not a name an equation can use/,
      ],
      ["names of the wrong count", { names: ["a", "b"] }, /^fit: names has 2 names but X has 3 columns$/],
      ["targets of the wrong count", { targets: ["p", "q"] }, /^fit: targets has 2 names but y has 1 column$/],
      ["a name given twice", { names: ["a", "y", "c"] }, /^fit: "y" names two columns/],
      ["a flat X", { X: X.flat() as unknown as number[][] }, /^fit: X\[0\] is [\d.]+, not a row/],
      [
        "data that does not fit the shape",
        { X: { data: typedX.data, shape: [200, 4] } },
        /^fit: X\.data has 600 values but X\.shape \[200, 4\] needs 800$/,
      ],
      [
        "a bad shape",
        { X: { data: typedX.data, shape: [600] as unknown as [number, number] } },
        /^fit: X\.shape must be \[rows, columns\]/,
      ],
      ["too few rows", { X: X.slice(0, 5), y: y.slice(0, 5) }, /^fit: X has 5 rows; at least 10 are needed$/],
      [
        "a magnitude float64 cannot fit (the CSV rule)",
        { X: X.map((row, i) => (i === 2 ? [1e200, ...row.slice(1)] : row)) },
        /^arrays: column "x1" holds 1e\+200 \(row 3\)/,
      ],
      ["a constant target (the CSV rule)", { y: y.map(() => 1) }, /^arrays: target column "y" is constant/],
      ["an unknown symbol", { symbols: ["x", "nope"] }, /unknown symbol "nope"/],
      ["an unknown option", { episodes: 5 } as Partial<FitArraysOptions>, /^fit: unknown option "episodes"/],
      [
        "an unknown search setting",
        { search: { episode: 5 } as FitArraysOptions["search"] },
        /^fit: unknown search setting "episode"/,
      ],
      ["a seed out of bounds", { seed: -1 }, /seed must be an integer from 0 to 4294967295/],
    ];
    for (const [what, change, pattern] of cases) {
      await assert.rejects(
        fit({ X, y, symbols: SYMBOLS, ...change } as FitArraysOptions),
        (error: unknown) => {
          assert.ok(error instanceof InputError, `${what}: ${String(error)}`);
          assert.ok(!error.message.includes("\n"), `${what}: more than one line: ${error.message}`);
          assert.match(error.message, pattern, what);
          return true;
        },
        what,
      );
    }
    const broken = {
      kind: "constraint",
      name: "broken",
      describe: () => "throws",
      check: () => {
        throw new Error("boom");
      },
    };
    await assert.rejects(
      fit({ X, y, symbols: SYMBOLS, plugins: [broken], constraints: ["static", "broken"] }),
      /^InputError: plugin broken: check threw: boom$/,
    );
    const { result } = await firstFit();
    assert.throws(
      () => result.equations[0]!.predict([[1, 2]]),
      /^InputError: predict: X has 2 columns; the equations read 3 \(x1, x2, x3\)$/,
    );
    assert.throws(
      () => result.equations[0]!.predict([[1, Number.NaN, 2]]),
      /predict: X\[0\]\[1\] \(row 1, column "x2"\) is NaN/,
    );
  });

  test("signal aborts the search: stopReason aborted, the best so far, no tensor left", async () => {
    await tf.ready();
    const before = tf.memory().numTensors;
    const controller = new AbortController();
    const events: { target: string; episode: number; nrmse: number; structures: number }[] = [];
    // A ratio (no sum of products): no screen answers it, the search runs on until stopped.
    const hard = X.map(([a, b, c]) => (a! * b! * c!) / (1 + a! * a! * c!));
    const result = await fit({
      X,
      y: hard,
      symbols: SYMBOLS,
      seed: 0,
      signal: controller.signal,
      onProgress: (e) => {
        events.push({ target: e.target, episode: e.episode, nrmse: e.best.nrmse, structures: e.structures });
        if (e.episode >= 2) controller.abort();
      },
    });
    assert.equal(tf.memory().numTensors, before, "tensors left after an aborted fit");
    assert.equal(result.search.stopReason, "aborted");
    assert.equal(result.search.targets![0]!.stopReason, "aborted");
    assert.ok(result.search.episodes < 12, `${result.search.episodes} episodes`);
    assert.ok(
      events.length >= 2 && events.every((e) => e.target === "y" && Number.isFinite(e.nrmse) && e.structures >= 1),
    );
    assert.deepEqual(
      events.map((e) => e.episode),
      events.map((_, i) => i + 1),
    );
    assert.equal(result.equations.length, 1);
    // The best so far predicts, and its JSON says it was aborted.
    const head = result.equations[0]!.predict(X.slice(0, 3));
    assert.equal(head.length, 3);
    assert.ok(head.every(Number.isFinite), `${head}`);
    assert.equal((JSON.parse(resultToJson(result)) as ResultJson).search.stopReason, "aborted");
  });

  test("a signal aborted before the call rejects at once with its reason; a non-signal is an InputError", async () => {
    // It answered no equations (or threw a TypeError deep inside) after loading tfjs and the data.
    for (const method of [undefined, "random", "mlp"] as FitArraysOptions["method"][]) {
      const started = performance.now();
      const symbols = method === "mlp" ? undefined : SYMBOLS;
      await assert.rejects(fit({ X, y, symbols, method, signal: AbortSignal.abort() }), { name: "AbortError" });
      assert.ok(performance.now() - started < 1000, `${method}: ${performance.now() - started} ms`);
    }
    const reason = new Error("stop now");
    await assert.rejects(fit({ X, y, signal: AbortSignal.abort(reason) }), (error) => error === reason);
    // even with bad data: the abort comes before any work
    await assert.rejects(fit({ X: [[1]], y: [1, 2], signal: AbortSignal.abort() }), { name: "AbortError" });
    for (const bad of [{}, "stop", true]) {
      await assert.rejects(fit({ X, y, signal: bad as unknown as AbortSignal }), (error: unknown) => {
        assert.ok(error instanceof InputError, String(error));
        assert.match(error.message, /^fit: signal must be an AbortSignal \(got /);
        assert.equal(error.field, "signal");
        return true;
      });
    }
  });

  test("the browser entry exports fit and readCsv, bundles with tfjs and highs external, no node:", async () => {
    const browser = await import("../../src/lib/browser.js");
    assert.equal(browser.fit, fit);
    assert.equal(browser.resultToJson, resultToJson);
    // a CSV read as it arrives, from the browser entry alone (File.stream() gives bytes)
    const rows = Array.from({ length: 12 }, (_, i) => `${i},${3 * i}`);
    const bytes = new TextEncoder().encode(`a,y\n${rows.join("\n")}`);
    const table = await browser.readCsv(new Blob([bytes]).stream() as unknown as AsyncIterable<Uint8Array>);
    assert.deepEqual([table.columns, table.rows, table.values[1]![11]], [["a", "y"], 12, 33]);
    const { build } = await import("esbuild");
    const bundle = await build({
      entryPoints: [join(root, "src/lib/browser.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      external: ["@tensorflow/*", "highs"],
    });
    const inputs = Object.keys(bundle.metafile.inputs);
    assert.ok(inputs.some((i) => i.endsWith("src/lib/api/fitArrays.ts")));
    assert.deepEqual(
      inputs.filter(
        (i) => i.startsWith("node:") || i.includes("node_modules/@tensorflow") || i.includes("node_modules/highs"),
      ),
      [],
    );
  });

  test("the README's quick start runs as written and prints what its comments quote (the guide's too)", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Quick start (library)"));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(code?.includes("await fit("), "no quick-start example found");
    assert.ok(
      readme.indexOf("## Quick start (library)") < readme.indexOf("## Two commands"),
      "the quick start comes first",
    );
    const guide = readFileSync(join(root, "site", "guide", "library.md"), "utf8");
    assert.equal(
      /```ts run=false\n([\s\S]*?)```/.exec(guide)?.[1],
      code,
      "the library guide's first example is the README's",
    );
    // Each console.log's comment quotes the line it prints.
    const quoted = [...code!.matchAll(/^console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((m) => m[1]);
    assert.ok(quoted.length >= 2, "the quick start quotes its output");
    // Run against the sources: the package's own name points at the compiled build.
    const source = code!.replace(/from "consolesr"/g, 'from "./src/lib/index.js"');
    assert.notEqual(source, code, 'the example imports from "consolesr", as a user writes it');
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", source], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(run.stdout.split("\n").slice(0, -1), quoted);
  });
});

describe("loadResult(json)", () => {
  test("a saved result predicts new rows as the fit did (text or object; a CLI --out file too)", async () => {
    const { result } = await firstFit();
    const text = resultToJson(result);
    const fresh = inputs(9, 25);
    const want = result.equations[0]!.predict(fresh);
    for (const json of [text, JSON.parse(text) as object]) {
      const loaded = loadResult(json);
      assert.equal(loaded.equations[0]!.text, result.equations[0]!.text);
      assert.deepEqual(loaded.equations[0]!.predict(fresh), want);
      assert.equal(resultToJson(loaded), text, "the loaded result's JSON is the saved one");
    }
    // A result `consolesr fit --out` wrote: inputs in the CSV's column order.
    const dir = mkdtempSync(join(tmpdir(), "consolesr-load-"));
    try {
      writeFileSync(join(dir, "d.csv"), ["x1,x2,x3,y", ...X.map((r, i) => [...r, y[i]].join(","))].join("\n"));
      const run = await cli([
        "fit",
        join(dir, "d.csv"),
        "--target",
        "y",
        "--symbols",
        "x,x^2",
        "--out",
        join(dir, "r.json"),
      ]);
      assert.equal(run.code, 0, run.stderr);
      const loaded = loadResult(readFileSync(join(dir, "r.json"), "utf8"));
      const predicted = loaded.equations[0]!.predict(fresh);
      for (const [i, [a, b, c]] of fresh.entries()) assert.ok(relative(predicted[i]!, truth(a!, b!, c!)) < 1e-8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("not a result, a symbol no plugin registers, or a wrong X: one InputError naming it", async () => {
    const { result } = await firstFit();
    const json = JSON.parse(resultToJson(result)) as ResultJson;
    assert.throws(
      () => loadResult("{", { name: "r.json" }),
      (e) => e instanceof InputError && /^r\.json: not a JSON/.test(e.message),
    );
    assert.throws(() => loadResult({ version: 2 }), /unsupported result version 2/);
    const renamed = structuredClone(json);
    renamed.equations[0]!.terms[0]!.factors[0]!.symbol = "tanh";
    assert.throws(
      () => loadResult(renamed),
      (e) =>
        e instanceof InputError && /uses the symbol "tanh", which is not registered \(pass its plugin/.test(e.message),
    );
    assert.throws(() => loadResult(json).equations[0]!.predict([[1, 2]]), /X has 2 columns; the equations read 3/);
  });

  test("a result whose text disagrees with its terms is refused, naming the equation (Trust II, row 5)", async () => {
    const { result } = await firstFit();
    const json = JSON.parse(resultToJson(result)) as ResultJson;
    const forged = structuredClone(json);
    forged.equations[0]!.text = forged.equations[0]!.text.replace("2*", "3*");
    assert.notEqual(forged.equations[0]!.text, json.equations[0]!.text);
    assert.throws(
      () => loadResult(forged, { name: "r.json" }),
      (e) =>
        e instanceof InputError &&
        /^r\.json: the equation of "y" reads "[^"]*3\*[^"]*" but its terms say "[^"]*2\*[^"]*": the file was/.test(
          e.message,
        ),
    );
    // The terms edited instead of the text: refused the same way.
    const retermed = structuredClone(json);
    retermed.equations[0]!.terms[0]!.coefficient += 1;
    assert.throws(() => loadResult(retermed), /the equation of "y" reads .* but its terms say/);
    // A result written before the constant moved to the end of its sum still loads.
    const older = readFileSync(join(root, "test", "fixtures", "affine-before-constant.json"), "utf8");
    assert.match(JSON.parse(older).equations[0].text, /^5 \+ /);
    assert.doesNotThrow(() => loadResult(older));
  });
});
