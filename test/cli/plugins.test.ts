/**
 * The plugin SDK end to end through the CLI: `--plugin <file>` in fit, run, plugins and
 * check-plugin; `check-plugin` accepting the built-ins and the examples and rejecting broken
 * plugins, naming the defect; a failing plugin file giving one `error: plugin file …` line; a
 * plugin failing mid-search keeping the best result so far; and the guide (site/guide/plugins.md)
 * followed as a new user would, from an empty folder to a recovered equation.
 *
 * A CLI start costs 1.5–3 s, so the six broken plugins are checked by one `check-plugin` run
 * (one test each reads its lines), and the loader's many error cases run in-process.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/lib/core/rng.js";
import { InputError } from "../../src/lib/core/errors.js";
import { importPluginFile, loadPluginFile, loadRegistries } from "../../src/cli/sandbox/plugins.js";
import { assertInputError, cli, root, type Run } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("plugins");

const TANH = join(root, "examples", "plugins", "tanh.ts");
const MAX_TWO_TRIG = join(root, "examples", "plugins", "max-two-trig.ts");
const PARSIMONY_STRICT = join(root, "examples", "plugins", "parsimony-strict.ts");

/** Writes a file into the temp folder (outside the package: .js and .ts load as CommonJS there). */
function file(name: string, text: string, folder = dir): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** ~300 rows of x1, x2 ~ U(1, 2) and y = 2·tanh(1.5·x1)·x2. */
function tanhCsv(folder = dir, rows = 300): string {
  const rng = createRng(11);
  const lines = ["x1,x2,y"];
  for (let i = 0; i < rows; i++) {
    const x1 = rng.uniform(1, 2);
    const x2 = rng.uniform(1, 2);
    lines.push(`${x1},${x2},${2 * Math.tanh(1.5 * x1) * x2}`);
  }
  return file("data.csv", `${lines.join("\n")}\n`, folder);
}

/** The guide's first ```ts block: the tanh plugin a new user writes. */
function guideTanh(): string {
  const guide = readFileSync(join(root, "site", "guide", "plugins.md"), "utf8");
  const block = /```ts[^\n]*\n([\s\S]*?)```/.exec(guide);
  assert.ok(block, "site/guide/plugins.md has no ```ts block");
  return block[1]!;
}

/** A tanh symbol with one field replaced (source text of a plugin file). */
const tanhWith = (name: string, replace: Record<string, string> = {}) => {
  const fields: Record<string, string> = {
    kind: '"symbol"',
    name: JSON.stringify(name),
    complexity: "2",
    innerWeight: "true",
    text: `(a) => \`${name}(\${a})\``,
    latex: "(a) => `\\\\tanh\\\\left(${a}\\\\right)`",
    evaluate: "(x) => Math.tanh(x)",
    derivative: "(x) => 1 - Math.tanh(x) ** 2",
    apply: "(x, tf) => tf.tanh(x)",
    ...replace,
  };
  return `export default {\n${Object.entries(fields)
    .map(([k, v]) => `  ${k}: ${v},`)
    .join("\n")}\n};\n`;
};

/**
 * check-plugin failed (exit 2) with a FAIL summary on stdout, and the stderr line of `check` for
 * `plugin` matches `pattern`. Every stderr line is an `error: plugin …` line.
 */
function assertCheckFails(run: Run, plugin: string, check: string, pattern: RegExp): void {
  const context = `stdout: ${JSON.stringify(run.stdout)}\nstderr: ${JSON.stringify(run.stderr)}`;
  assert.equal(run.code, 2, context);
  assert.match(run.stdout, new RegExp(`^FAIL .*\\b${plugin}\\b`, "m"), context);
  const lines = run.stderr.trimEnd().split("\n");
  assert.ok(
    lines.every((line) => line.startsWith("error: plugin ")),
    context,
  );
  const line = lines.find((l) => l.startsWith(`error: plugin ${plugin}: ${check}: `));
  assert.ok(line, `no "${check}" failure for ${plugin}; ${context}`);
  assert.match(line, pattern, context);
}

const data = tanhCsv();

describe("plugins through the CLI", { concurrency: 4 }, () => {
  test(
    "following the guide, a new user's tanh plugin passes " +
      "check-plugin and fit --plugin recovers y = 2*tanh(1.5*x1)*x2",
    async () => {
      const home = mkdtempSync(join(dir, "new-user-"));
      file("tanh.ts", guideTanh(), home);
      tanhCsv(home);
      const guide = readFileSync(join(root, "site", "guide", "plugins.md"), "utf8");
      const commands = guide
        .split("\n")
        .filter((line) => line.startsWith("npx consolesr "))
        .map((line) => line.slice("npx consolesr ".length).split(/\s+/));
      const check = commands.find((args) => args[0] === "check-plugin" && args[1] === "tanh.ts");
      const fit = commands.find((args) => args[0] === "fit" && args.includes("--plugin"));
      assert.deepEqual(check, ["check-plugin", "tanh.ts"], "the guide's check-plugin command");
      assert.deepEqual(
        fit,
        [
          "fit",
          "data.csv",
          "--plugin",
          "tanh.ts",
          "--symbols",
          "my.tanh,x",
          "--target",
          "y",
          "--terms",
          "1",
          "--max-factors",
          "2",
        ],
        "the guide's fit command",
      );

      const checked = await cli(check, { cwd: home });
      assert.equal(checked.code, 0, checked.stderr);
      assert.match(checked.stdout, /^ok\s+symbol\s+my\.tanh\s+\d+ checks passed/m);
      assert.match(checked.stdout, /^ok: 1 plugin, \d+ checks passed$/m);

      const out = join(home, "result.json");
      const run = await cli([...fit, "--out", out], { cwd: home });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "y = 2*tanh(1.5*x1)*x2\n");
      const [equation] = JSON.parse(readFileSync(out, "utf8")).equations;
      assert.equal(equation.terms.length, 1);
      const [term] = equation.terms;
      assert.ok(Math.abs(term.coefficient - 2) <= 0.02, `coefficient ${term.coefficient}`);
      const tanh = term.factors.find((f: { symbol: string }) => f.symbol === "my.tanh");
      assert.equal(tanh?.input, "x1");
      assert.ok(Math.abs(tanh.weight - 1.5) <= 0.015, `tanh weight ${tanh.weight}`);
      assert.deepEqual(
        term.factors.find((f: { symbol: string }) => f.symbol === "x"),
        { symbol: "x", input: "x2" },
      );
      assert.ok(equation.trainNrmse <= 1e-6, `train NRMSE ${equation.trainNrmse}`);
    },
  );

  test("plugins --plugin examples/plugins/tanh.ts lists my.tanh next to the built-ins", async () => {
    const run = await cli(["plugins", "--plugin", "examples/plugins/tanh.ts"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^symbol\s+my\.tanh\s+complexity 2, inner weight .*\[examples\/plugins\/tanh\.ts\]$/m);
    assert.match(run.stdout, /^symbol\s+cos\s/m);
  });

  test("check-plugin accepts the built-ins and the three examples", async () => {
    const run = await cli([
      "check-plugin",
      "examples/plugins/tanh.ts",
      "--plugin",
      "examples/plugins/max-two-trig.ts",
      "--plugin",
      "examples/plugins/parsimony-strict.ts",
      "--plugin",
      "examples/plugins/cube.ts",
      "--builtins",
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, "");
    const lines = run.stdout.trimEnd().split("\n");
    assert.equal(lines.filter((l) => l.startsWith("ok ")).length, 18, run.stdout);
    for (const name of [
      "x",
      "sqrt",
      "log",
      "cos",
      "x^-1",
      "x^-2",
      "static",
      "dynamic",
      "inv-nrmse",
      "parsimony",
      "my.tanh",
      "max-two-trig",
      "parsimony-strict",
      "cube",
    ]) {
      assert.ok(
        lines.some((l) => new RegExp(`^ok\\s+\\w+\\s+${name.replace(/[\^.]/g, "\\$&")}\\s`).test(l)),
        `${name} not ok:\n${run.stdout}`,
      );
    }
    assert.match(lines.at(-1)!, /^ok: 18 plugins, \d+ checks passed$/);
  });

  // One check-plugin run over every broken file (each test below reads its own lines).
  const broken = {
    derivative: file("wrong-derivative.ts", tanhWith("bent", { derivative: "(x) => 1 - Math.tanh(x)" })),
    op: file("op-mismatch.mjs", tanhWith("sigmoidish", { apply: "(x, tf) => tf.sigmoid(x)" })),
    latex: file("bad-latex.js", tanhWith("unbalanced", { latex: "(a) => `\\\\tanh\\\\left(${a}`" })),
    domain: file(
      "undeclared-domain.ts",
      tanhWith("ln", { evaluate: "(x) => Math.log(x)", derivative: "(x) => 1 / x", apply: "(x, tf) => tf.log(x)" }),
    ),
    coin: file(
      "coin.mjs",
      `export default { kind: "constraint", name: "coin", describe: () => "flips a coin", check: () ` +
        `=> (Math.random() < 0.5 ? true : "the coin says no") };\n`,
    ),
    range: file(
      "too-generous.ts",
      `export default { kind: "reward", name: "generous", range: [0, 1], score: ({ nrmse }) => 2 / (1 + nrmse) };\n`,
    ),
    fields: file("no-latex.mjs", tanhWith("nolatex").replace(/ {2}latex: .*\n/, "")),
    noInverse: file(
      "no-inverse.mjs",
      `export default { kind: "outer", name: "half", apply: (v) => v / 2, domain: () => true, ` +
        "text: (a) => `(${a})/2`, latex: (a) => `\\frac{${a}}{2}`, cost: 1 };\n",
    ),
    wrongDomain: file(
      "wrong-domain.mjs",
      `export default { kind: "outer", name: "squared", apply: (v) => v * v, inverse: (y) => Math.sqrt(y), ` +
        "domain: (y) => Number.isFinite(y), text: (a) => `(${a})^2`, latex: (a) => `(${a})^{2}`, cost: 2 };\n",
    ),
    name: file("cos.mjs", tanhWith("cos")),
  };
  let checked: Promise<Run>;
  before(() => {
    const [first, ...rest] = Object.values(broken);
    checked = cli(["check-plugin", first!, ...rest.flatMap((path) => ["--plugin", path]), "--plugin", TANH]);
  });

  test("check-plugin rejects a symbol with a wrong derivative", async () => {
    assertCheckFails(
      await checked,
      "bent",
      "derivative",
      /derivative\(-?[\d.]+\) = -?[\d.e-]+ but a central difference of evaluate gives -?[\d.e-]+/,
    );
  });

  test("check-plugin rejects a symbol whose tfjs op differs from evaluate", async () => {
    assertCheckFails(
      await checked,
      "sigmoidish",
      "apply",
      /the tfjs op gives -?[\d.e-]+ at x = -?[\d.]+ but evaluate gives -?[\d.e-]+/,
    );
  });

  test("check-plugin rejects LaTeX that KaTeX cannot render", async () => {
    assertCheckFails(
      await checked,
      "unbalanced",
      "latex",
      /KaTeX rejects latex\("x_\{1\}"\) = "\\\\tanh\\\\left\(x_\{1\}": KaTeX parse error/,
    );
  });

  test("check-plugin rejects an undeclared domain: NaN from evaluate with no domain", async () => {
    assertCheckFails(
      await checked,
      "ln",
      "evaluate",
      /undeclared domain: evaluate\(-[\d.]+\) = NaN but the symbol declares no domain/,
    );
  });

  test("check-plugin rejects a nondeterministic constraint", async () => {
    assertCheckFails(
      await checked,
      "coin",
      "deterministic",
      /check returned .* and then .* on the same context \(layer \d/,
    );
  });

  test("check-plugin rejects a reward that leaves its declared range", async () => {
    assertCheckFails(
      await checked,
      "generous",
      "range",
      /score returned 2 for a fit with NRMSE 0, complexity 1, outside the declared range \[0, 1\]/,
    );
  });

  test(
    'check-plugin reports a missing field and a taken name as the checks "fields" and "name", ' +
      "and passes the good plugin beside them",
    async () => {
      const run = await checked;
      assertCheckFails(run, "nolatex", "fields", /^error: plugin nolatex: fields: field "latex" is missing$/);
      assertCheckFails(run, "cos", "name", /a symbol named "cos" is already registered/);
      // Outer functions: a missing inverse is a missing field; a domain wider than the inverse's is
      // found by the round trip.
      assertCheckFails(run, "half", "fields", /^error: plugin half: fields: field "inverse" is missing$/);
      assertCheckFails(
        run,
        "squared",
        "inverse",
        new RegExp(
          String.raw`^error: plugin squared: inverse: inverse\(-[\d.]+\) = NaN inside the declared domain ` +
            String.raw`\(a wrong domain, or a wrong inverse\)$`,
        ),
      );
      assert.match(run.stdout, /^ok\s+symbol\s+my\.tanh\s/m);
      const failing = run.stdout.split("\n").filter((line) => line.startsWith("FAIL "));
      assert.equal(failing.length, Object.keys(broken).length, run.stdout);
      assert.match(run.stdout.trimEnd().split("\n").at(-1)!, /^FAIL: \d+ of \d+ checks failed \(10 of 11 plugins\)$/);
    },
  );

  test(
    "a --plugin file that cannot be imported, or an object missing a field, " +
      "is one error line naming the file (and the plugin and field)",
    async () => {
      const syntax = file("syntax.ts", "export default {\n");
      assertInputError(
        await cli(["fit", data, "--target", "y", "--plugin", syntax]),
        `error: plugin file ${syntax}: cannot be imported: `,
        /Expected/,
      );
      assertInputError(
        await cli(["plugins", "--plugin", broken.fields]),
        `error: plugin file ${broken.fields}: plugin nolatex: field "latex" is missing`,
      );
    },
  );

  test("a --plugin symbol named like a built-in is refused, naming the plugin and the field", async () => {
    assertInputError(
      await cli(["fit", data, "--target", "y", "--plugin", broken.name]),
      `plugin file ${broken.name}: plugin cos: field "name": ` +
        `a symbol named "cos" is already registered (by a built-in)`,
    );
  });

  test("fit --form uses a plugin symbol: y = tanh(x1)*x2 fits 2*tanh(1.5*x1)*x2", async () => {
    const run = await cli(["fit", data, "--plugin", TANH, "--target", "y", "--form", "y = tanh(x1)*x2", "--quiet"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "y = 2*tanh(1.5*x1)*x2\n");
  });

  test(
    "the three examples together: my.tanh in --symbols, " +
      "max-two-trig in --constraints, parsimony-strict as --reward",
    async () => {
      const out = join(dir, "examples.json");
      const run = await cli([
        "fit",
        data,
        "--target",
        "y",
        "--plugin",
        TANH,
        "--plugin",
        MAX_TWO_TRIG,
        "--plugin",
        PARSIMONY_STRICT,
        "--symbols",
        "my.tanh,sin,x",
        "--constraints",
        "static,dynamic,max-two-trig",
        "--reward",
        "parsimony-strict",
        "--terms",
        "1",
        "--max-factors",
        "3",
        "--out",
        out,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, "y = 2*tanh(1.5*x1)*x2\n");
      const { manifest } = JSON.parse(readFileSync(out, "utf8"));
      assert.deepEqual(manifest.config.constraints, ["static", "dynamic", "max-two-trig"]);
      assert.equal(manifest.config.reward, "parsimony-strict");
      assert.deepEqual(manifest.config.symbols, ["my.tanh", "sin", "x"]);
    },
  );

  test("run takes --plugin: a plugin reward and constraint in an experiment's search", async () => {
    const out = join(dir, "run.json");
    const run = await cli([
      "run",
      "syn1",
      "--rows",
      "100",
      "--episodes",
      "1",
      "--plugin",
      PARSIMONY_STRICT,
      "--plugin",
      MAX_TWO_TRIG,
      "--reward",
      "parsimony-strict",
      "--constraints",
      "static,max-two-trig",
      "--quiet",
      "--out",
      out,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const { manifest } = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(manifest.config.reward, "parsimony-strict");
    assert.deepEqual(manifest.config.constraints, ["static", "max-two-trig"]);
  });

  test(
    "a --plugin reward that returns NaN mid-search stops it with error: " +
      "plugin <name> (exit 2), printing and writing the best so far",
    async () => {
      const flaky = file(
        "flaky.ts",
        'let calls = 0;\nexport default { kind: "reward", name: "flaky", range: [0, 1], score: ({ nrmse }) ' +
          "=> (++calls > 3 ? Number.NaN : 1 / (1 + nrmse)) };\n",
      );
      const out = join(dir, "flaky.json");
      const run = await cli([
        "fit",
        data,
        "--target",
        "y",
        "--plugin",
        flaky,
        "--reward",
        "flaky",
        "--symbols",
        "x,sin",
        "--out",
        out,
      ]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(
        run.stderr.trimEnd().split("\n").at(-1)!,
        /^error: plugin flaky: score returned NaN for NRMSE [\d.e+-]+$/,
      );
      const json = JSON.parse(readFileSync(out, "utf8"));
      assert.equal(json.search.stopReason, "error");
      assert.equal(json.search.episodes, 3);
      const [equation] = json.equations;
      assert.ok(
        equation.terms.length > 0 && Number.isFinite(equation.trainNrmse),
        "the best of the first 3 episodes is kept",
      );
      assert.equal(run.stdout, `y = ${equation.text}\n`);
    },
  );

  test(
    "a --plugin symbol that throws mid-search stops it with error: " +
      "plugin <name>: evaluate threw (exit 2), writing --out",
    async () => {
      const boom = file("boom.mjs", tanhWith("boom", { evaluate: '(x) => { throw new Error("exploded"); }' }));
      const out = join(dir, "boom.json");
      const run = await cli(["fit", data, "--target", "y", "--plugin", boom, "--symbols", "boom,x", "--out", out]);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr.trimEnd().split("\n").at(-1), "error: plugin boom: evaluate threw: exploded");
      assert.match(run.stdout, /^y = .*\n$/);
      assert.equal(JSON.parse(readFileSync(out, "utf8")).search.stopReason, "error");
    },
  );
});

describe("loading plugin files (in-process)", () => {
  /** The InputError message of a rejected promise. */
  async function message(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof InputError, `not an InputError: ${error}`);
      return error.message;
    }
    assert.fail("did not throw");
  }

  test("loads .js, .mjs, .cjs and .ts files from outside the package: one plugin or an array", async () => {
    const js = file("one.js", tanhWith("th1"));
    const mjs = file("two.mjs", tanhWith("th2"));
    const cjs = file("three.cjs", `module.exports = { kind: "reward", name: "cj", range: [0, 1], score: () => 1 };\n`);
    const ts = file(
      "four.ts",
      `const k: number = 2;\nexport default [\n${tanhWith("th4").replace("export default ", "").replace(/;\n$/, ",")}` +
        `\n  { kind: "reward", name: "half", range: [0, k], score: ` +
        `({ nrmse }: { nrmse: number }) => k / (1 + nrmse) },\n];\n`,
    );
    assert.deepEqual(
      (await loadPluginFile(js)).map((p) => p.name),
      ["th1"],
    );
    assert.deepEqual(
      (await loadPluginFile(mjs)).map((p) => p.name),
      ["th2"],
    );
    assert.deepEqual(
      (await loadPluginFile(cjs)).map((p) => p.name),
      ["cj"],
    );
    assert.deepEqual(
      (await loadPluginFile(ts)).map((p) => p.name),
      ["th4", "half"],
    );
    const { registries, origins } = await loadRegistries([js, ts, TANH]);
    assert.ok(
      registries.symbols.has("th1") &&
        registries.symbols.has("th4") &&
        registries.symbols.has("my.tanh") &&
        registries.rewards.has("half"),
    );
    assert.equal(origins.get("symbol:th4"), ts);
    assert.equal(registries.symbols.get("th1").evaluate(0.5), Math.tanh(0.5));
  });

  test(
    "a file that is missing, not a plugin file, fails to import or exports nothing usable: " +
      "the error names the file and the problem",
    async () => {
      const cases: [string, string, RegExp][] = [
        ["syntax.mts", "export default {\n", /cannot be imported: .*Expected/],
        ["throws.mjs", 'throw new Error("top-level boom");\n', /cannot be imported: top-level boom$/],
        ["named.mjs", "export const tanh = 1;\n", /has no default export/],
        ["named.ts", "export const tanh = 1;\n", /has no default export/],
        ["empty.ts", "export default [];\n", /exports an empty array/],
        ["number.mjs", "export default 42;\n", /the default export: not an object$/],
        [
          "nokind.mjs",
          'export default { name: "x9" };\n',
          /plugin x9: field "kind" must be "symbol", "constraint", "reward" or "outer" \(got undefined\)$/,
        ],
        ["plugin.json", "{}\n", /must be a \.js, \.mjs, \.cjs, \.ts, \.mts file$/],
      ];
      for (const [name, text, pattern] of cases) {
        const path = file(name, text);
        const got = await message(loadPluginFile(path));
        assert.ok(got.startsWith(`plugin file ${path}: `), got);
        assert.match(got, pattern);
      }
      assert.equal(
        await message(loadPluginFile(join(dir, "missing.ts"))),
        `plugin file ${join(dir, "missing.ts")}: no such file`,
      );
      assert.equal(await message(loadPluginFile(dir)), `plugin file ${dir}: is a directory, not a plugin file`);
      // importPluginFile does not validate: check-plugin reports fields as a check.
      assert.deepEqual(await importPluginFile(file("loose.mjs", 'export default { name: "loose" };\n')), [
        { name: "loose" },
      ]);
    },
  );

  test("a duplicate name fails naming the plugin, the field and who holds the name", async () => {
    const again = file("tanh-again.mjs", tanhWith("my.tanh"));
    assert.equal(
      await message(loadRegistries([TANH, again])),
      `plugin file ${again}: plugin my.tanh: field "name": a symbol named "my.tanh" is already registered (by ${TANH})`,
    );
    const twice = file(
      "twice.mjs",
      `const p = { kind: "reward", name: "twin", range: [0, 1], score: () => 1 };\nexport default [p, { ...p }];\n`,
    );
    assert.equal(
      await message(loadRegistries([twice])),
      `plugin file ${twice}: plugin twin: field "name": ` +
        `a reward named "twin" is already registered (twice in this file)`,
    );
    const cos = file("cos-again.mjs", tanhWith("cos"));
    assert.match(await message(loadRegistries([cos])), /plugin cos: field "name": .*\(by a built-in\)$/);
  });
});
