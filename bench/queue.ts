/**
 * `npm run bench` (queue): what the Redis queue costs and gives, on this machine (reported, not a
 * pass condition; the load average is printed beside each figure).
 *
 * - Overhead per job: 500 tiny jobs (syn1 with its known forms, 1 Adam step, 50 rows) on the local
 *   pool with one job process, then through Redis to one `consolesr worker --jobs 1`: (queue −
 *   local) / 500.
 * - Throughput: 40 CPU-bound jobs (syn1 searched with default settings, 1000 rows) through Redis
 *   to one worker, then to two (one job process each): jobs per minute and the ratio.
 *
 * Needs Debian's redis-server (a throwaway one on a free port). Prints figures; asserts nothing.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, background, cleanUp, startRedis, timed as timedIn } from "./processes.js";

const dir = mkdtempSync(join(tmpdir(), "consolesr-bench-queue-"));
cleanUp(dir);
const timed = (args: string[]) => timedIn(args, dir);

const spec = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};
const tiny = spec("tiny.json", {
  experiments: ["syn1"],
  seeds: "0..499",
  rows: [50],
  variants: [{ name: "form", settings: { givenForm: true, fit: { steps: 1 } } }],
});
const heavy = spec("heavy.json", { experiments: ["syn1"], seeds: "0..39", rows: [1000] });

async function workers(url: string, count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      background(process.execPath, [BIN, "worker", "--queue", url, "--jobs", "1"], /serving queue/, dir),
    ),
  );
}

async function stop(list: ChildProcess[]): Promise<void> {
  await Promise.all(
    list.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
}

const load = () => loadavg()[0]!.toFixed(2);

if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) {
  console.log("bench/queue: skipped (no redis-server on this machine; install Debian's redis-server)");
  process.exit(0);
}
const url = await startRedis(dir);
console.log(`# queue: ${availableParallelism()} cores; load average (1 min) before each run in brackets`);

let before = load();
const local = await timed(["sweep", tiny, "--out", "tiny-local", "--jobs", "1"]);
console.log(`500 tiny jobs, local pool, 1 job process   ${local.toFixed(1).padStart(6)} s   [load ${before}]`);
let pool = await workers(url, 1);
before = load();
const queued = await timed(["sweep", tiny, "--out", "tiny-queue", "--queue", url]);
await stop(pool);
console.log(`500 tiny jobs, Redis, 1 worker             ${queued.toFixed(1).padStart(6)} s   [load ${before}]`);
console.log(`queue overhead per job: ${(((queued - local) / 500) * 1000).toFixed(1)} ms`);

const rates: number[] = [];
for (const count of [1, 2]) {
  pool = await workers(url, count);
  before = load();
  const seconds = await timed(["sweep", heavy, "--out", `heavy-${count}`, "--queue", url]);
  await stop(pool);
  rates.push(40 / (seconds / 60));
  console.log(
    `40 searches, Redis, ${count} worker${count === 1 ? " " : "s"}   ${seconds.toFixed(1).padStart(6)} s  ` +
      `${rates.at(-1)!.toFixed(1)} jobs/min   [load ${before}]`,
  );
}
console.log(`2 workers / 1 worker: ×${(rates[1]! / rates[0]!).toFixed(2)} (bounded by the cores really free)`);
process.exit(0);
