/**
 * `consolesr sweep --queue` and `consolesr worker`, end to end on a real Redis: each test starts
 * its own redis-server on 127.0.0.1 (a free port, no persistence) and `consolesr worker`
 * processes. Two workers finish a sweep whose results are byte-identical to a local sweep's; a
 * worker killed under a job still leaves every result written exactly once; a job that keeps
 * failing is recorded with its error after its attempts, one with bad input after one; a bad spec,
 * a bad or unreachable queue URL is one `error:` line and exit 2. Without a redis-server binary
 * the tests that need one are skipped, saying so.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, bin, cli, freePort, root } from "../helpers/cli.js";
import { killStarted, startProcess, startRedis, type Running } from "../helpers/processes.js";

const hasRedis = spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
const NO_REDIS = "no redis-server on this machine (install Debian's redis-server package to run these tests)";

const dir = mkdtempSync(join(tmpdir(), "consolesr-queue-"));
after(() => {
  killStarted();
  rmSync(dir, { recursive: true, force: true });
});

/** `consolesr worker` on `url`, once it serves the queue. */
async function startWorker(
  url: string,
  extra: string[] = [],
  { nodeArgs = [], env, cwd }: { nodeArgs?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<Running> {
  const worker = startProcess(process.execPath, [...nodeArgs, bin, "worker", "--queue", url, ...extra], {
    env,
    cwd: cwd ?? dir,
  });
  await worker.waitFor(/worker: serving queue/);
  return worker;
}

/** Stops a worker (SIGTERM: it finishes its jobs and exits 143). */
async function stopWorker(worker: Running): Promise<void> {
  worker.child.kill("SIGTERM");
  assert.equal(await worker.exited, 143, worker.output());
}

const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

/** The manifest's git commit may differ if a commit lands between two runs. */
const gitless = (file: string) => readFileSync(file, "utf8").replace(/"git": "[^"]*"/, '"git": "…"');

const results = (out: string) =>
  readdirSync(join(dir, out))
    .filter((f) => f.endsWith(".json") && f !== "summary.json")
    .sort();

const summaryOf = (out: string) =>
  JSON.parse(readFileSync(join(dir, out, "summary.json"), "utf8")).jobs as {
    job: string;
    seed: number;
    exact: boolean | null;
    error: string | null;
  }[];

const SPEC = {
  experiments: ["syn1"],
  seeds: "0..1",
  snr: [null, 30],
  rows: [200],
  variants: [{ name: "form", settings: { givenForm: true, fit: { steps: 20 } } }],
};

describe("sweep on a queue", { skip: hasRedis ? false : NO_REDIS }, () => {
  test("two workers run a sweep's jobs: a local sweep's results, byte for byte, then gone from Redis", async () => {
    const redis = await startRedis();
    try {
      const spec = write("two.json", SPEC);
      const workers = await Promise.all([startWorker(redis.url, ["--jobs", "1"]), startWorker(redis.url)]);
      const run = await cli(["sweep", spec, "--out", "two-queue", "--queue", redis.url], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /4 jobs: 4 ran, skipped 0, 0 failed; 4 of 4 exact/);
      assert.match(run.stderr, /queued 4 jobs on queue consolesr-sweep/);
      const local = await cli(["sweep", spec, "--out", "two-local", "--jobs", "2", "--quiet"], { cwd: dir });
      assert.equal(local.code, 0, local.stderr);
      assert.deepEqual(results("two-queue"), results("two-local"));
      assert.equal(results("two-queue").length, 4);
      for (const file of results("two-queue"))
        assert.equal(gitless(join(dir, "two-queue", file)), gitless(join(dir, "two-local", file)), file);
      const ran = workers.map((w) => w.output().match(/: done in /g)?.length ?? 0);
      assert.equal(
        ran.reduce((a, b) => a + b, 0),
        4,
        "each job ran once",
      );
      // Collected jobs are removed from Redis; a re-run needs no worker: every result is there.
      const keys = spawnSync("redis-cli", ["-u", redis.url, "--scan", "--pattern", "*syn1-consolesr*"], {
        encoding: "utf8",
      });
      if (keys.status === 0) assert.equal(keys.stdout.trim(), "", "no job left on the queue");
      await Promise.all(workers.map(stopWorker));
      const again = await cli(["sweep", spec, "--out", "two-queue", "--queue", redis.url], { cwd: dir });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /4 jobs: 0 ran, skipped 4, 0 failed/);
    } finally {
      await redis.stop();
    }
  });

  test("a worker killed (SIGKILL) under a job: the job runs again elsewhere, each result written once", async () => {
    const redis = await startRedis();
    try {
      // Jobs that take a few seconds, so that the first worker dies in the middle of one.
      const spec = write("kill.json", {
        experiments: ["syn1"],
        seeds: "0..2",
        rows: [500],
        variants: [{ name: "slow", settings: { givenForm: true, fit: { steps: 1500 } } }],
      });
      const doomed = await startWorker(redis.url, ["--jobs", "1", "--stalled-interval", "1000"]);
      const submit = cli(["sweep", spec, "--out", "kill-out", "--queue", redis.url], { cwd: dir, timeoutMs: 240_000 });
      await doomed.waitFor(/: started/);
      doomed.child.kill("SIGKILL");
      await doomed.exited;
      const killedJob = doomed.output().match(/worker: (\S+): started/)![1]!;
      assert.doesNotMatch(doomed.output(), /done in/, "the first worker finished nothing");
      const rescuer = await startWorker(redis.url, ["--jobs", "2", "--stalled-interval", "1000"]);
      const run = await submit;
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /3 jobs: 3 ran, skipped 0, 0 failed; 3 of 3 exact/);
      assert.match(rescuer.output(), new RegExp(`worker: ${killedJob.replace(/[.+]/g, "\\$&")}: done in`));
      // One progress line and one summary row per job: no job was collected twice.
      assert.equal(run.stderr.match(/^\[\d\/3\] /gm)?.length, 3, run.stderr);
      const rows = summaryOf("kill-out");
      const names = ["s0", "s1", "s2"].map((s) => `syn1-consolesr-slow-${s}-snrnone-r500`);
      assert.deepEqual(
        rows.map((r) => r.job),
        names,
      );
      assert.deepEqual(results("kill-out"), names.map((n) => `${n}.json`).sort());
      for (const [i, name] of names.entries()) {
        const result = JSON.parse(readFileSync(join(dir, "kill-out", `${name}.json`), "utf8"));
        assert.equal(result.manifest.seed, i, name);
        assert.equal(result.manifest.config.rows, 500, name);
        assert.equal(result.manifest.config.steps, 1500, name);
        assert.equal(rows[i]!.error, null);
      }
      await stopWorker(rescuer);
    } finally {
      await redis.stop();
    }
  });

  test("a job whose process keeps dying fails after its attempts; a bad-input error after one", async () => {
    const redis = await startRedis();
    try {
      const spec = write("fail.json", { ...SPEC, seeds: [0], snr: [null] });
      const fault = ["--require", join(root, "test/helpers/jobFault.cjs")];
      const crashing = await startWorker(redis.url, ["--jobs", "1"], {
        nodeArgs: fault,
        env: { CONSOLESR_JOB_FAULT: "crash" },
      });
      const run = await cli(["sweep", spec, "--out", "crash-out", "--queue", redis.url], { cwd: dir });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stdout, /1 jobs: 1 ran, skipped 0, 1 failed/);
      assert.match(run.stderr, /^error: job syn1-consolesr-form-s0-snrnone-r200: .*exit code 70/m);
      assert.match(summaryOf("crash-out")[0]!.error!, /the worker process ended \(exit code 70\)/);
      assert.deepEqual(results("crash-out"), []);
      assert.equal(crashing.output().match(/: started/g)?.length, 3, crashing.output());
      await stopWorker(crashing);

      const bad = await startWorker(redis.url, ["--jobs", "1"], {
        nodeArgs: fault,
        env: { CONSOLESR_JOB_FAULT: "input" },
      });
      const once = await cli(["sweep", spec, "--out", "input-out", "--queue", redis.url], { cwd: dir });
      assert.equal(once.code, 1, once.stderr);
      assert.match(summaryOf("input-out")[0]!.error!, /injected bad input/);
      assert.equal(bad.output().match(/: started/g)?.length, 1, bad.output());
      assert.match(bad.output(), /bad input, not run again/);
      await stopWorker(bad);
    } finally {
      await redis.stop();
    }
  });

  test("a CSV sweep's data goes through Redis: a worker without the file writes a local sweep's bytes", async () => {
    const redis = await startRedis();
    try {
      const lines = ["x1,x2,y"];
      for (let i = 0; i < 60; i++) {
        const x1 = 1 + ((i * 7) % 60) / 60;
        const x2 = 1 + ((i * 13) % 60) / 60;
        lines.push(`${x1},${x2},${3 * x1 ** 2 * Math.cos(2.5 * x2)}`);
      }
      writeFileSync(join(dir, "data.csv"), `${lines.join("\n")}\n`);
      const spec = write("csv.json", {
        csv: "data.csv",
        targets: ["y"],
        seeds: [0, 1],
        variants: [{ name: "given", settings: { form: "y = x1^2*cos(x2)", symbols: ["x^2", "cos"] } }],
      });
      const elsewhere = mkdtempSync(join(dir, "worker-"));
      const worker = await startWorker(redis.url, ["--jobs", "2"], { cwd: elsewhere });
      const run = await cli(["sweep", spec, "--out", "csv-queue", "--queue", redis.url, "--quiet"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /2 jobs: 2 ran, skipped 0, 0 failed/);
      const local = await cli(["sweep", spec, "--out", "csv-local", "--quiet"], { cwd: dir });
      assert.equal(local.code, 0, local.stderr);
      assert.deepEqual(results("csv-queue"), results("csv-local"));
      for (const file of results("csv-local"))
        assert.equal(gitless(join(dir, "csv-queue", file)), gitless(join(dir, "csv-local", file)), file);
      assert.deepEqual(readdirSync(elsewhere), [], "the worker wrote nothing where it runs");
      await stopWorker(worker);
    } finally {
      await redis.stop();
    }
  });

  test("Redis restarted mid-sweep (no persistence): lost jobs queued again, each result written once", async () => {
    let redis = await startRedis();
    try {
      const spec = write("restart.json", {
        experiments: ["syn1"],
        seeds: "0..2",
        rows: [500],
        variants: [{ name: "slow", settings: { givenForm: true, fit: { steps: 1500 } } }],
      });
      const worker = await startWorker(redis.url, ["--jobs", "1", "--stalled-interval", "1000"]);
      const submit = cli(["sweep", spec, "--out", "restart-out", "--queue", redis.url], {
        cwd: dir,
        timeoutMs: 240_000,
      });
      await worker.waitFor(/: done in /, 120_000);
      await redis.stop();
      redis = await startRedis(redis.port);
      const run = await submit;
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /3 jobs: 3 ran, skipped 0, 0 failed; 3 of 3 exact/);
      assert.match(run.stderr, /no longer on queue .*\(Redis restarted\?\); queued again/);
      // One progress line and one summary row per job: none written twice.
      assert.equal(run.stderr.match(/^\[\d\/3\] /gm)?.length, 3, run.stderr);
      const names = ["s0", "s1", "s2"].map((s) => `syn1-consolesr-slow-${s}-snrnone-r500`);
      assert.deepEqual(
        summaryOf("restart-out").map((r) => r.job),
        names,
      );
      assert.deepEqual(results("restart-out"), names.map((n) => `${n}.json`).sort());
      await stopWorker(worker);
    } finally {
      await redis.stop();
    }
  });

  test("a worker whose Redis has gone away stops promptly on SIGTERM and on SIGINT", async () => {
    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGINT", 130],
    ] as const) {
      const redis = await startRedis();
      const worker = await startWorker(redis.url, ["--jobs", "1"]);
      await redis.stop();
      await worker.waitFor(/reconnecting|ECONNREFUSED|Connection is closed/, 5000).catch(() => {});
      const sent = performance.now();
      worker.child.kill(signal);
      const exited = await Promise.race([
        worker.exited,
        new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 20_000)),
      ]);
      // Promptly: it exits on the signal rather than hanging on the reconnecting connection
      // (the 20 s above count as hung; the time it takes is a diagnostic, not a bound).
      assert.equal(exited, code, `${signal}: ${worker.output()} (after ${(performance.now() - sent).toFixed(0)} ms)`);
    }
  });

  test("a database index the server does not have is one error line, exit 2, for sweep and worker", async () => {
    const redis = await startRedis();
    try {
      const spec = write("db.json", SPEC);
      for (const args of [
        ["sweep", spec, "--out", "db-out", "--queue", `${redis.url}/99`],
        ["worker", "--queue", `${redis.url}/99`],
      ])
        assertInputError(await cli(args, { cwd: dir, timeoutMs: 30_000 }), "--queue", "database 99");
      assert.ok(!existsSync(join(dir, "db-out")), "nothing written");
    } finally {
      await redis.stop();
    }
  });

  test("a bad spec is one error line, exit 2, before anything is queued", async () => {
    const redis = await startRedis();
    try {
      const file = write("bad.json", { ...SPEC, seedz: [1] });
      assertInputError(
        await cli(["sweep", file, "--out", "bad-out", "--queue", redis.url], { cwd: dir }),
        /unknown field "seedz"/,
      );
      assert.ok(!existsSync(join(dir, "bad-out")));
    } finally {
      await redis.stop();
    }
  });
});

test("a bad or unreachable queue URL is one error line and exit 2, for sweep and worker", async () => {
  const spec = write("url.json", SPEC);
  const closed = `redis://127.0.0.1:${await freePort()}`;
  const cases: [string[], RegExp][] = [
    [["sweep", spec, "--queue", "not a url"], /--queue "not a url": not a URL/],
    [
      ["sweep", spec, "--queue", "http://127.0.0.1:6379"],
      /--queue http:\/\/127\.0\.0\.1:6379: the scheme must be redis/,
    ],
    [["sweep", spec, "--queue", "redis://127.0.0.1:6379/db"], /the path must be a database number/],
    [
      ["sweep", spec, "--out", "url-out", "--queue", closed],
      /--queue redis:\/\/127\.0\.0\.1:\d+: cannot reach Redis \(.*ECONNREFUSED/,
    ],
    [["sweep", spec, "--queue", closed, "--jobs", "2"], /--jobs sets the local pool/],
    [["sweep", spec, "--queue", closed, "--queue-name", "a:b"], /--queue-name "a:b"/],
    [["worker", "--queue", closed], /cannot reach Redis \(.*ECONNREFUSED/],
    [["worker", "--queue", "redis:nohost"], /--queue redis:nohost: no host/],
    [["worker"], /--queue <url>' not specified/],
    [["worker", "--queue", closed, "--stalled-interval", "5"], /--stalled-interval must be an integer/],
  ];
  for (const [args, message] of cases) assertInputError(await cli(args, { cwd: dir, timeoutMs: 30_000 }), message);
  assert.ok(!existsSync(join(dir, "url-out")), "nothing written");
});
