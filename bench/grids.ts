/**
 * `npm run bench:grids`: the power flow of the grids in data/grids/ as a power engineer runs it,
 * `consolesr run powerflow --grid <file>` in a process of its own, with the default pool (x and x²
 * where the grid has a PQ bus, whose laws hold u_i² and v_i²) and again with `--symbols x` (the
 * paper's Pow pool, which cannot write those squares: a LoCaL product uses a neuron once).
 *
 *   consolesr run powerflow --grid data/grids/<grid>.json --seed 0 --out <json> --quiet --timings
 *             [--symbols x] [--time-limit <s>]
 *
 * For each run: the outputs exact (the experiment's own evaluation, in the result: the same terms
 * with every coefficient within 1 %, or the same law under the rows' stated identities), the process
 * CPU (user + system, read by a preloaded module at exit), the search's own seconds and the wall time.
 *
 *   --grids ring5,mesh9,radial14  --pools default,x  --time-limit 60 (seconds, for the pool {x} runs
 *   only: their PQ-bus laws cannot be written, so they run to the limit; 0: none)
 *   --out site/data/grid-benchmark.json
 *
 * Prints a table (grid, pool, exact / outputs, CPU s, search s, wall s); asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gitSha } from "../src/cli/git.js";
import { parseResult, VERSION } from "../src/lib/index.js";

const BIN = new URL("../bin/consolesr.js", import.meta.url).pathname;

function options(argv: string[]) {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!;
    if (!key.startsWith("--") || argv[i + 1] === undefined)
      throw new Error(`bench:grids: ${key}: expected --name value`);
    out[key.slice(2)] = argv[i + 1]!;
  }
  return {
    grids: (out.grids ?? "ring5,mesh9,radial14").split(","),
    pools: (out.pools ?? "default,x").split(","),
    timeLimit: Number(out["time-limit"] ?? 60),
    out: out.out ?? "site/data/grid-benchmark.json",
  };
}

function main(): void {
  const o = options(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), "consolesr-grids-"));
  const probe = join(dir, "usage.mjs");
  writeFileSync(
    probe,
    'process.on("exit", () => { const u = process.resourceUsage(); ' +
      'process.stderr.write(["\\nUSAGE", u.userCPUTime, u.systemCPUTime].join(" ") + "\\n"); });\n',
  );
  const runs = [];
  const started = performance.now();
  for (const grid of o.grids)
    for (const pool of o.pools) {
      const json = join(dir, `${grid}-${pool}.json`);
      const limited = pool !== "default" && o.timeLimit > 0;
      const args = [
        "run",
        "powerflow",
        "--grid",
        `data/grids/${grid}.json`,
        "--seed",
        "0",
        ...(pool === "default" ? [] : ["--symbols", pool]),
        ...(limited ? ["--time-limit", String(o.timeLimit)] : []),
        "--out",
        json,
        "--quiet",
        "--timings",
      ];
      const command = `consolesr ${args.slice(0, -4).join(" ")}`;
      process.stderr.write(`${command}\n`);
      const t0 = performance.now();
      const child = spawnSync(process.execPath, ["--import", probe, BIN, ...args], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      const wallSeconds = (performance.now() - t0) / 1000;
      const usage = /USAGE (\d+) (\d+)/.exec(child.stderr ?? "");
      if (child.status !== 0) throw new Error(`${command}: exit ${child.status}: ${child.stderr?.slice(-400)}`);
      const result = parseResult(readFileSync(json, "utf8"), json);
      const evaluation = result.evaluation ?? [];
      runs.push({
        grid,
        pool:
          pool === "default"
            ? ((result.manifest.config as { symbols?: string[] }).symbols?.join(", ") ?? "default")
            : pool,
        defaultPool: pool === "default",
        timeLimit: limited ? o.timeLimit : null,
        command,
        outputs: evaluation.length,
        exact: evaluation.filter((e) => e.exact).length,
        cpuSeconds: usage ? (Number(usage[1]) + Number(usage[2])) / 1e6 : null,
        searchSeconds: result.search.seconds ?? null,
        wallSeconds,
        stopReasons: Object.fromEntries(
          [...new Set(result.search.targets?.map((t) => t.stopReason))].map((r) => [
            r,
            result.search.targets!.filter((t) => t.stopReason === r).length,
          ]),
        ),
        identities: [...new Set(result.search.targets?.flatMap((t) => t.identities ?? []))],
        notExact: evaluation
          .filter((e) => !e.exact)
          .map((e) => ({
            target: e.target,
            learned: result.equations.find((q) => q.target === e.target)?.text ?? "",
            reason: e.reason,
          })),
      });
      const r = runs.at(-1)!;
      console.log(
        `${grid.padEnd(9)} ${r.pool.padEnd(8)} ${`${r.exact}/${r.outputs}`.padStart(6)} exact  ` +
          `CPU ${r.cpuSeconds?.toFixed(1)} s  search ${r.searchSeconds?.toFixed(1)} s  ` +
          `wall ${wallSeconds.toFixed(1)} s`,
      );
    }
  rmSync(dir, { recursive: true, force: true });
  const manifest = {
    version: VERSION,
    git: gitSha(),
    seed: 0,
    wallSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    machine: { cpus: cpus().length, model: cpus()[0]?.model.split(" ").slice(0, 2).join(" "), node: process.version },
    loadAverage: { end: Number(loadavg()[0]!.toFixed(2)) },
  };
  writeFileSync(o.out, `${JSON.stringify({ manifest, runs }, null, 1)}\n`);
  console.log(`wrote ${o.out}`);
}

main();
