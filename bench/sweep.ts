/**
 * `npm run bench` (sweeps): the wall time of one small sweep (8 cheap jobs: syn1 with its known
 * forms, 8 seeds) run three ways: the local pool with 1 worker process, with 2, and on a Redis
 * queue served by two `consolesr worker --jobs 1` processes (a redis-server started here, on a
 * free port). Each time includes starting the job processes; the queue's workers are started
 * (and ready) before its clock starts, as they would be on a cluster. Prints figures; asserts nothing.
 * The speed-up of 2 over 1 is bounded by the cores this machine really has free.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/consolesr.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "consolesr-bench-sweep-"));
const spec = join(dir, "spec.json");
writeFileSync(
  spec,
  JSON.stringify({
    experiments: ["syn1"],
    seeds: "0..7",
    rows: [500],
    variants: [{ name: "form", settings: { givenForm: true, fit: { steps: 1500 } } }],
  }),
);

const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI to the end; its wall time in seconds (a failure stops the bench with its stderr). */
function timed(args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, "--quiet"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`consolesr ${args.join(" ")}: exit ${code}\n${stderr}`)),
    );
  });
}

/** Starts a long-running process; resolves once its output matches `ready`. */
function background(command: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let text = "";
  return new Promise((resolve, reject) => {
    const check = (chunk: string) => {
      text += chunk;
      if (ready.test(text)) resolve(child);
    };
    child.stdout!.setEncoding("utf8").on("data", check);
    child.stderr!.setEncoding("utf8").on("data", check);
    child.on("exit", (code) => reject(new Error(`${command} ${args.join(" ")} ended (${code}): ${text}`)));
  });
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

console.log(
  `# sweep: 8 jobs (syn1, known forms, 1500 Adam steps, 500 rows), wall seconds; ${availableParallelism()} cores`,
);
const rows: [string, number][] = [];
rows.push(["local, 1 worker", await timed(["sweep", spec, "--out", "one", "--jobs", "1"])]);
rows.push(["local, 2 workers", await timed(["sweep", spec, "--out", "two", "--jobs", "2"])]);
if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0) {
  const port = await freePort();
  const redis = await background(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    /Ready to accept connections/,
  );
  const url = `redis://127.0.0.1:${port}`;
  const workers = await Promise.all(
    [0, 1].map(() => background(process.execPath, [BIN, "worker", "--queue", url, "--jobs", "1"], /serving queue/)),
  );
  rows.push(["queue, 2 workers", await timed(["sweep", spec, "--out", "queue", "--queue", url])]);
  for (const worker of workers) worker.kill("SIGTERM");
  redis.kill("SIGTERM");
} else console.log("(queue row skipped: no redis-server on this machine; install Debian's redis-server)");
const base = rows[0]![1];
for (const [what, seconds] of rows)
  console.log(`${what.padEnd(18)}${seconds.toFixed(1).padStart(7)} s   ×${(base / seconds).toFixed(2)} vs 1 worker`);
process.exit(0);
