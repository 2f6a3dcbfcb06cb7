/**
 * `npm run bench` (sweeps): the wall time of one small sweep (8 cheap jobs: syn1 with its known
 * forms, 8 seeds) run three ways: the local pool with 1 worker process, with 2, and on a Redis
 * queue served by two `consolesr worker --jobs 1` processes (a redis-server started here, on a
 * free port). Each time includes starting the job processes; the queue's workers are started
 * (and ready) before its clock starts, as they would be on a cluster. Prints figures; asserts nothing.
 * The speed-up of 2 over 1 is bounded by the cores this machine really has free.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, background, cleanUp, startRedis, timed as timedIn } from "./processes.js";

const dir = mkdtempSync(join(tmpdir(), "consolesr-bench-sweep-"));
cleanUp(dir);
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
const timed = (args: string[]) => timedIn(args, dir);

console.log(
  `# sweep: 8 jobs (syn1, known forms, 1500 Adam steps, 500 rows), wall seconds; ${availableParallelism()} cores`,
);
const rows: [string, number][] = [];
rows.push(["local, 1 worker", await timed(["sweep", spec, "--out", "one", "--jobs", "1"])]);
rows.push(["local, 2 workers", await timed(["sweep", spec, "--out", "two", "--jobs", "2"])]);
if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0) {
  const url = await startRedis(dir);
  const workers = await Promise.all(
    [0, 1].map(() =>
      background(process.execPath, [BIN, "worker", "--queue", url, "--jobs", "1"], /serving queue/, dir),
    ),
  );
  rows.push(["queue, 2 workers", await timed(["sweep", spec, "--out", "queue", "--queue", url])]);
  for (const worker of workers) worker.kill("SIGTERM");
} else console.log("(queue row skipped: no redis-server on this machine; install Debian's redis-server)");
const base = rows[0]![1];
for (const [what, seconds] of rows)
  console.log(`${what.padEnd(18)}${seconds.toFixed(1).padStart(7)} s   ×${(base / seconds).toFixed(2)} vs 1 worker`);
process.exit(0);
