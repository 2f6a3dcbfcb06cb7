/**
 * The package as a user gets it: `npm pack`, installed into an empty folder (a git repository of
 * its own, as a user's project would be), then used the three ways the README shows:
 * - the CLI on plain Node (`npx consolesr run syn1 --seed 0`), compiled JavaScript, no tsx;
 * - `import { fit } from "consolesr"` in an ESM script, on arrays;
 * - TypeScript against the installed declarations (`fit`, `defineSymbol` from `consolesr/sdk`),
 *   and a wrong call that must not type-check.
 * The tarball's size and file count, and `consolesr --version`'s start-up, are printed.
 * Dependencies come from npm's cache or the registry (`--prefer-offline`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { root } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("package");

const run = (command: string, args: string[], options: { cwd?: string; timeout?: number } = {}) =>
  spawnSync(command, args, {
    cwd: options.cwd ?? dir,
    encoding: "utf8",
    timeout: options.timeout ?? 300_000,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

test("npm pack → install into an empty project → CLI on plain node, fit() from ESM, types from TypeScript", {
  timeout: 900_000,
}, async (t) => {
  // 1. Pack (prepare builds build/ first).
  const pack = run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: root });
  assert.equal(pack.status, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  }[];
  const tarball = join(dir, info!.filename);
  t.diagnostic(
    `tarball ${info!.filename}: ${(info!.size / 1000).toFixed(1)} kB packed, ` +
      `${(info!.unpackedSize / 1000).toFixed(1)} kB unpacked, ${info!.files.length} files (goal < 150 kB packed)`,
  );
  const paths = info!.files.map((f) => f.path);
  assert.ok(
    paths.includes("LICENSE") &&
      paths.includes("README.md") &&
      paths.includes("build/lib/index.js") &&
      paths.includes("build/lib/index.d.ts"),
  );
  for (const unwanted of ["src/", "test/", "bench/", "scripts/", ".ci/", "dist/"]) {
    assert.ok(!paths.some((p) => p.startsWith(unwanted)), `the tarball ships ${unwanted}`);
  }
  assert.ok(
    !readFileSync(join(root, "README.md"), "utf8").includes("../shared/"),
    "the README points outside the package",
  );

  // 2. An empty project, its own git repository, with the tarball installed.
  const project = join(dir, "project");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "user-project", version: "1.0.0", type: "module", private: true }, null, 2),
  );
  run("git", ["init", "-q"], { cwd: project });
  run("git", ["-c", "user.email=u@example.com", "-c", "user.name=u", "commit", "-q", "--allow-empty", "-m", "user"], {
    cwd: project,
  });
  const install = run("npm", ["install", tarball, "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
  assert.equal(install.status, 0, install.stderr);
  // No dependency asks for a newer Node than `engines` promises (KaTeX 0.19's commander 15 did).
  assert.doesNotMatch(install.stdout + install.stderr, /EBADENGINE/);
  const installed = join(project, "node_modules", "consolesr");
  assert.ok(statSync(join(installed, "build", "cli", "main.js")).isFile());

  // 3. The CLI on plain node: compiled JavaScript (no src/ to run through tsx).
  const cli = run("npx", ["--no-install", "consolesr", "run", "syn1", "--seed", "0", "--out", "syn1.json"], {
    cwd: project,
  });
  assert.equal(cli.status, 0, cli.stderr);
  assert.equal(cli.stdout, "y1 = 3*x1^2*cos(2.5*x2)\ny2 = 4*x1*x3\ny3 = 3*x3^2\n");
  assert.doesNotMatch(cli.stderr, /looks like you are running TensorFlow/);
  const manifest = (
    JSON.parse(readFileSync(join(project, "syn1.json"), "utf8")) as { manifest: { version: string; git: string } }
  ).manifest;
  assert.equal(manifest.version, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
  assert.equal(manifest.git, "unknown", "an installed consolesr recorded the user's git HEAD");
  const bin = join(installed, "bin", "consolesr.js");
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const version = run(process.execPath, [bin, "--version"], { cwd: project });
    times.push(performance.now() - started);
    assert.equal(version.status, 0);
  }
  t.diagnostic(
    `consolesr --version (installed, plain node): ` +
      `median ${times.sort((a, b) => a - b)[2]!.toFixed(0)} ms over 5 runs (goal < 500 ms)`,
  );
  const help = run(process.execPath, [bin, "--help"], { cwd: project });
  assert.match(help.stdout, /fit/);

  // Plugin files: a .js one imported natively, a .ts one through tsx (an optional peer
  // dependency: without it, one error line saying so; installed, the .ts file loads).
  const plugin = (name: string) =>
    `export default { kind: "symbol", name: "${name}", complexity: 2, innerWeight: true, ` +
    `text: (a) => \`${name}(\${a})\`, latex: (a) => \`\\\\tanh(\${a})\`, ` +
    `evaluate: Math.tanh, apply: (x, tf) => tf.tanh(x) };\n`;
  writeFileSync(join(project, "tanh.js"), plugin("tanh"));
  writeFileSync(join(project, "tanh2.ts"), plugin("tanh2"));
  const listPlugins = () =>
    run("npx", ["--no-install", "consolesr", "plugins", "--plugin", "tanh.js", "--plugin", "tanh2.ts"], {
      cwd: project,
    });
  assert.ok(!existsSync(join(project, "node_modules", "tsx")), "tsx was installed with the package");
  const withoutTsx = listPlugins();
  assert.equal(withoutTsx.status, 2, withoutTsx.stderr);
  assert.match(withoutTsx.stderr, /^error: plugin file tanh2\.ts: is TypeScript .*needs tsx: run `npm install tsx`/m);
  const tsx = run("npm", ["install", "tsx", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
  assert.equal(tsx.status, 0, tsx.stderr);
  const plugins = listPlugins();
  assert.equal(plugins.status, 0, plugins.stderr);
  assert.match(plugins.stdout, /^symbol +tanh +.*\[tanh\.js\]$/m);
  assert.match(plugins.stdout, /^symbol +tanh2 +.*\[tanh2\.ts\]$/m);
  // The README's example plugins ship with the package, typed from consolesr/sdk, and pass the checks.
  const example = join("node_modules", "consolesr", "examples", "plugins", "tanh.ts");
  assert.match(readFileSync(join(project, example), "utf8"), /from "consolesr\/sdk"/);
  const checked = run("npx", ["--no-install", "consolesr", "check-plugin", example], { cwd: project });
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  assert.match(checked.stderr, /note: KaTeX is not installed/);

  // 4. fit() from an ESM script on arrays.
  writeFileSync(
    join(project, "fit.mjs"),
    [
      'import { fit, loadResult, resultToJson } from "consolesr";',
      "let s = 7;",
      "const r = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 + 0.5;",
      "const X = [], y = [];",
      "for (let i = 0; i < 200; i++) { const row = [r(), r(), r()]; " +
        "X.push(row); y.push(2 * row[0] * row[1] + row[2] ** 2); }",
      'const result = await fit({ X, y, symbols: ["x", "x^2"] });',
      "const [equation] = result.equations;",
      "console.log(equation.text);",
      "console.log(Math.abs(equation.predict([[1, 2, 3]])[0] - 13) < 1e-8);",
      "// A saved result read back predicts what the fit's equation predicted.",
      "const loaded = loadResult(resultToJson(result)).equations[0];",
      "const rows = [[1, 2, 3], [0.7, 1.9, 2.2]];",
      "console.log(JSON.stringify(loaded.predict(rows)) === JSON.stringify(equation.predict(rows)));",
    ].join("\n"),
  );
  const fitted = run(process.execPath, ["fit.mjs"], { cwd: project });
  assert.equal(fitted.status, 0, fitted.stderr);
  assert.equal(fitted.stdout, "2*x1*x2 + x3^2\ntrue\ntrue\n");

  // Node imports the bundled entries (build/lib/node/, one instance of each module across the
  // entries), and zod loads on the first schema built, not with the import (Trust II, row 6).
  writeFileSync(
    join(project, "light.mjs"),
    [
      'import { createRequire } from "node:module";',
      "const require = createRequire(import.meta.url);",
      'const zod = () => Object.keys(require.cache).filter((k) => k.includes("/node_modules/zod/")).length;',
      'const lib = await import("consolesr");',
      'const sdk = await import("consolesr/sdk");',
      'const inspect = await import("consolesr/inspect");',
      "const before = zod();",
      'lib.resolveSettings("consolesr");',
      'console.log(JSON.stringify([import.meta.resolve("consolesr"), before, zod() > 0, ' +
        "lib.InputError === sdk.InputError, typeof inspect.HallOfFame]));",
    ].join("\n"),
  );
  const light = run(process.execPath, ["light.mjs"], { cwd: project });
  assert.equal(light.status, 0, light.stderr);
  const [entry, zodBefore, zodAfter, sameClass, card] = JSON.parse(light.stdout) as [
    string,
    number,
    boolean,
    boolean,
    string,
  ];
  assert.match(entry, /\/node_modules\/consolesr\/build\/lib\/node\/index\.js$/);
  assert.equal(zodBefore, 0, "zod was loaded by the import");
  assert.ok(zodAfter, "the first settings parsed did not load zod through require");
  assert.ok(sameClass, "consolesr and consolesr/sdk hold two copies of InputError");
  assert.equal(card, "function");

  // The installed tfjs is tfjs-core with the cpu backend (no @tensorflow/tfjs umbrella); its
  // gradients and chained ops are registered: d/dx Σ sin(x²) = 2x·cos(x²).
  assert.ok(!existsSync(join(project, "node_modules", "@tensorflow", "tfjs")), "the tfjs umbrella was installed");
  writeFileSync(
    join(project, "grad.mjs"),
    'import { tf } from "consolesr";\n' +
      "const g = tf.grad((x) => x.square().sin().sum())(tf.tensor1d([0.5, 1, 2]));\n" +
      "console.log(JSON.stringify(Array.from(g.dataSync())), tf.getBackend());\n",
  );
  const grad = run(process.execPath, ["grad.mjs"], { cwd: project });
  assert.equal(grad.status, 0, grad.stderr);
  const [values, backend] = grad.stdout.trim().split(" ");
  assert.equal(backend, "cpu");
  for (const [i, g] of (JSON.parse(values!) as number[]).entries()) {
    const x = [0.5, 1, 2][i]!;
    assert.ok(Math.abs(g - 2 * x * Math.cos(x * x)) < 1e-5, `gradient at ${x}: ${g}`);
  }

  // The README's quick start, verbatim, as a user's .mjs script.
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const quick = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("## Quick start (library)")))![1]!;
  writeFileSync(join(project, "quickstart.mjs"), quick);
  const quickRun = run(process.execPath, ["quickstart.mjs"], { cwd: project });
  assert.equal(quickRun.status, 0, quickRun.stderr);
  assert.equal(quickRun.stdout.split("\n")[0], "y = 2*x1*x2 + x3^2");
  // The same quick start on Node 22 (the node@22 npm package, where npm can fetch or has cached it).
  const node22 = run("npm", ["exec", "--yes", "--package=node@22", "--", "node", "--version"], { cwd: project });
  if (node22.status === 0 && /^v22\./.test(node22.stdout.trim())) {
    const on22 = run("npm", ["exec", "--yes", "--package=node@22", "--", "node", "quickstart.mjs"], { cwd: project });
    assert.equal(on22.status, 0, on22.stderr);
    assert.equal(on22.stdout.split("\n")[0], "y = 2*x1*x2 + x3^2");
    t.diagnostic(`Node ${node22.stdout.trim()}: the quick start gives the same equation`);
  } else t.diagnostic(`Node 22 not checked: npm exec node@22 failed (${node22.stderr.trim().split("\n").at(-1)})`);

  // 5. TypeScript against the installed declarations.
  writeFileSync(
    join(project, "good.ts"),
    [
      'import { fit, loadResult, resultToJson, tf } from "consolesr";',
      'import { defineSymbol, type SymbolPlugin } from "consolesr/sdk";',
      "const tanh: SymbolPlugin = defineSymbol({",
      '  kind: "symbol", name: "tanh", complexity: 2, innerWeight: true,',
      "  text: (arg) => `tanh(${arg})`, latex: (arg) => `\\\\tanh(${arg})`,",
      "  evaluate: Math.tanh, apply: (x, tf) => tf.tanh(x),",
      "});",
      'const result = await fit({ X: [[1, 2], [3, 4]], y: [1, 2], symbols: ["x", "tanh"], plugins: [tanh], seed: 3 });',
      "const first: number = result.equations[0]!.predict([[1, 2]])[0]!;",
      "const json: string = resultToJson(result);",
      "const again: number = loadResult(json, { plugins: [tanh] }).equations[0]!.predict([[1, 2]])[0]!;",
      "const tensors: number = tf.memory().numTensors;",
      "export { first, json, again, tensors };",
    ].join("\n"),
  );
  writeFileSync(
    join(project, "bad.ts"),
    [
      'import { fit } from "consolesr";',
      'await fit({ X: "not a matrix", y: [1, 2] });',
      "await fit({ y: [1, 2] });",
      "export {};",
      "",
    ].join("\n"),
  );
  const options = {
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    strict: true,
    noEmit: true,
    types: [],
  };
  const tsconfig = (files: string[], skipLibCheck: boolean) =>
    JSON.stringify({ compilerOptions: { ...options, skipLibCheck }, files });
  const tsc = join(root, "node_modules", ".bin", "tsc");
  writeFileSync(join(project, "tsconfig.good.json"), tsconfig(["good.ts"], true));
  writeFileSync(join(project, "tsconfig.bad.json"), tsconfig(["bad.ts"], true));
  writeFileSync(join(project, "tsconfig.lib.json"), tsconfig(["good.ts"], false));
  const good = run(tsc, ["-p", "tsconfig.good.json"], { cwd: project });
  assert.equal(good.status, 0, good.stdout + good.stderr);
  const bad = run(tsc, ["-p", "tsconfig.bad.json"], { cwd: project });
  assert.notEqual(bad.status, 0);
  // X of the wrong type, and y without X (or chunks): both refused by the types
  assert.match(
    bad.stdout,
    /bad\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'Matrix( \| undefined)?'/,
  );
  assert.match(bad.stdout, /bad\.ts\(3,\d+\): error TS2345: [^\n]*\n[^\n]*\n\s*Property 'X' is missing/);
  // Strict, NodeNext, skipLibCheck: false: no error anywhere. consolesr's public types reach no
  // tfjs declaration (tfjs-core's own do not check so: their @webgpu/types clash with lib.dom);
  // `tf` and a plugin's `apply(x, tf)` are typed by consolesr's Tf and Tensor (src/lib/engine/tfOps.ts).
  const strict = run(tsc, ["-p", "tsconfig.lib.json"], { cwd: project });
  assert.equal(strict.status, 0, strict.stdout);
});
