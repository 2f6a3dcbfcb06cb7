/**
 * `npm run bench` (part) and `npm run bench:package`: the package as a new user gets it. Packs the
 * checkout (`npm pack`, which builds build/), installs the tarball into an empty project (npm's
 * cache first, `--prefer-offline`), and prints:
 * - the installed size (`node_modules`, and its largest packages);
 * - wall-clock start-up: `consolesr --version`, `import("consolesr")`, the README's quick start,
 *   and `consolesr fit` on a CSV of a single product of 5 factors with the default flags;
 * - `npm install`'s warnings (EBADENGINE and others).
 * Each timing is the median of `--repeat` runs (the first, cold one shown apart). Asserts nothing.
 *
 *   node --import tsx bench/package.ts [--repeat 5] [--keep]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";

const opts = new Command()
  .option("--repeat <n>", "timed runs of each command (median shown)", "5")
  .option("--keep", "keep the temporary project (its path is printed)")
  .parse()
  .opts<{ repeat: string; keep?: boolean }>();
const repeat = Math.max(1, Number(opts.repeat) || 5);
const root = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "consolesr-bench-package-"));
const env = { ...process.env, npm_config_update_notifier: "false", NO_COLOR: "1" };

function run(command: string, args: string[], cwd = dir) {
  const started = performance.now();
  const out = spawnSync(command, args, { cwd, encoding: "utf8", env, timeout: 600_000 });
  const seconds = (performance.now() - started) / 1000;
  if (out.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${out.status}: ${out.stderr.slice(-2000)}`);
  return { seconds, stdout: out.stdout, stderr: out.stderr };
}

/** Bytes under a folder (files only; links not followed). */
function sizeOf(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

try {
  console.log("packing (npm pack builds build/) …");
  const pack = run("npm", ["pack", "--json", "--pack-destination", dir], root);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as { filename: string; size: number }[];
  const project = join(dir, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "user-project", version: "1.0.0", type: "module", private: true }),
  );
  console.log("installing the tarball into an empty project …");
  const install = run(
    "npm",
    ["install", join(dir, info!.filename), "--no-audit", "--no-fund", "--prefer-offline"],
    project,
  );
  const warnings = `${install.stdout}\n${install.stderr}`
    .split("\n")
    .filter((line) => /npm warn/i.test(line))
    .map((line) => line.trim());

  // The data and scripts a new user would write.
  const rows = ["a,b,c,d,e,y"];
  let state = 7;
  const next = () => {
    state = (state * 48271) % 2147483647;
    return 1 + state / 2147483647;
  };
  for (let r = 0; r < 1000; r++) {
    const x = [next(), next(), next(), next(), next()];
    rows.push([...x, 1.7 * x[0]! * x[1]! ** 2 * x[2]! * Math.sqrt(x[3]!) * x[4]!].join(","));
  }
  writeFileSync(join(project, "product.csv"), `${rows.join("\n")}\n`);
  // (It prints the import's CPU seconds, the figure Trust II's row 6 set at ≤ 0.2 s.)
  writeFileSync(
    join(project, "import.mjs"),
    [
      "const cpu = process.cpuUsage();",
      `await import("consolesr");`,
      "const { user, system } = process.cpuUsage(cpu);",
      "console.log(`import CPU ${((user + system) / 1e6).toFixed(3)} s`);",
    ].join("\n"),
  );
  writeFileSync(
    join(project, "quickstart.mjs"),
    [
      `import { createRng, fit } from "consolesr";`,
      `const rng = createRng(1);`,
      `const u = () => rng.uniform(0.5, 2.5);`,
      `const X = Array.from({ length: 200 }, () => [u(), u(), u()]);`,
      `const y = X.map(([x1, x2, x3]) => 2 * x1 * x2 + x3 ** 2);`,
      `const result = await fit({ X, y, symbols: ["x", "x^2"], seed: 0 });`,
      `console.log(result.equations[0].text);`,
    ].join("\n"),
  );
  const bin = join(project, "node_modules", ".bin", "consolesr");
  const timed: { what: string; run: () => { seconds: number; stdout: string } }[] = [
    { what: "consolesr --version", run: () => run(bin, ["--version"], project) },
    { what: 'import("consolesr")', run: () => run("node", ["import.mjs"], project) },
    { what: "README quick start (node quickstart.mjs)", run: () => run("node", ["quickstart.mjs"], project) },
    {
      what: "consolesr fit product.csv --target y (5 factors, 1000 rows)",
      run: () => run(bin, ["fit", "product.csv", "--target", "y", "--seed", "0"], project),
    },
  ];
  const lines: string[] = [];
  for (const t of timed) {
    const cold = t.run();
    const warm = Array.from({ length: repeat }, () => t.run().seconds);
    const said = cold.stdout.trim().split("\n").at(-1)?.slice(0, 70) ?? "";
    lines.push(
      `| ${t.what} | ${cold.seconds.toFixed(2)} s | ${median(warm).toFixed(2)} s | ${said.replace(/\|/g, "\\|")} |`,
    );
  }
  const modules = join(project, "node_modules");
  const packages = readdirSync(modules, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .flatMap((e) =>
      e.name.startsWith("@") ? readdirSync(join(modules, e.name)).map((n) => `${e.name}/${n}`) : [e.name],
    )
    .map((name) => ({ name, bytes: sizeOf(join(modules, name)) }))
    .sort((p, q) => q.bytes - p.bytes);
  console.log(`\nPackage: ${info!.filename}, ${(info!.size / 1000).toFixed(1)} kB packed`);
  console.log(`Installed node_modules: ${mb(sizeOf(modules))} (${packages.length} packages); largest:`);
  for (const p of packages.slice(0, 8)) console.log(`  ${p.name.padEnd(36)} ${mb(p.bytes)}`);
  console.log(`npm install warnings: ${warnings.length === 0 ? "none" : ""}`);
  for (const w of warnings) console.log(`  ${w}`);
  console.log(`\n| command (wall clock, Node ${process.versions.node}) | first run | median of ${repeat} | prints |`);
  console.log("|---|---|---|---|");
  for (const line of lines) console.log(line);
  if (opts.keep) console.log(`\nproject kept at ${project}`);
} finally {
  if (!opts.keep) rmSync(dir, { recursive: true, force: true });
}
