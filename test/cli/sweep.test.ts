/**
 * `consolesr sweep` end to end: a small grid on the local pool writes one version-1 result per
 * job and a summary; a re-run skips every finished job; a deleted or stale result re-runs alone;
 * a result is byte-identical to `run`/`fit --out` of the same config; a bad spec is one
 * `error: …` line and exit 2, before anything runs.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli, root } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("sweep");

/** The manifest's git commit may differ if a commit lands between two runs. */
const gitless = (file: string) => readFileSync(file, "utf8").replace(/"git": "[^"]*"/, '"git": "…"');

const SPEC = {
  experiments: ["syn1"],
  methods: ["consolesr"],
  seeds: "0..1",
  snr: [null, 30],
  rows: [200],
  variants: [{ name: "form", settings: { givenForm: true, fit: { steps: 20 } } }],
};
const JOBS = [
  "syn1-consolesr-form-s0-snrnone-r200",
  "syn1-consolesr-form-s0-snr30-r200",
  "syn1-consolesr-form-s1-snrnone-r200",
  "syn1-consolesr-form-s1-snr30-r200",
];

const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
};

describe("sweep", () => {
  const spec = write("spec.json", SPEC);
  const out = join(dir, "out");
  const sweep = (extra: string[] = []) => cli(["sweep", spec, "--out", out, "--jobs", "2", ...extra], { cwd: dir });

  test("a grid writes one result per job and a summary; a re-run skips them all", async () => {
    const first = await sweep();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /4 jobs: 4 ran, skipped 0, 0 failed; 4 of 4 exact/);
    assert.deepEqual(readdirSync(out).sort(), [...JOBS.map((j) => `${j}.json`), "summary.csv", "summary.json"].sort());
    const summary = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    assert.deepEqual(
      summary.jobs.map((r: { job: string }) => r.job),
      JOBS,
    );
    for (const row of summary.jobs) {
      assert.equal(row.exact, true);
      assert.equal(row.targets, "y1;y2;y3");
      assert.equal(row.stopReason, "form-given");
      assert.equal(row.error, null);
    }
    const csv = readFileSync(join(out, "summary.csv"), "utf8").trim().split("\n");
    assert.equal(csv.length, 5);
    assert.match(csv[0]!, /^job,source,targets,method,variant,seed,snr,rows,exact,recovered,testNrmse,trainNrmse/);

    const before = statSync(join(out, `${JOBS[0]}.json`)).mtimeMs;
    const again = await sweep();
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /skipped 4 already finished/);
    assert.match(again.stdout, /4 jobs: 0 ran, skipped 4, 0 failed/);
    assert.equal(statSync(join(out, `${JOBS[0]}.json`)).mtimeMs, before);
    // The skipped jobs keep the seconds the first run measured (timings live only in the summary).
    const resumed = JSON.parse(readFileSync(join(out, "summary.json"), "utf8"));
    assert.deepEqual(
      resumed.jobs.map((r: { seconds: number | null; skipped: boolean }) => [r.seconds, r.skipped]),
      summary.jobs.map((r: { seconds: number | null }) => [r.seconds, true]),
    );
    for (const row of resumed.jobs) assert.ok(typeof row.seconds === "number" && row.seconds > 0, String(row.seconds));
  });

  test("a deleted result re-runs alone, to the same bytes", async () => {
    const file = join(out, `${JOBS[3]}.json`);
    const bytes = gitless(file);
    rmSync(file);
    const run = await sweep();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /4 jobs: 1 ran, skipped 3, 0 failed/);
    assert.match(run.stderr, new RegExp(`\\[1/1\\] ${JOBS[3]}: exact`));
    assert.equal(gitless(file), bytes);
  });

  test("a result that is not this job's (another config, a broken file) re-runs", async () => {
    write("out/syn1-consolesr-form-s0-snrnone-r200.json", "{ broken");
    const result = JSON.parse(readFileSync(join(out, `${JOBS[1]}.json`), "utf8"));
    result.manifest.config.steps = 21;
    write(`out/${JOBS[1]}.json`, JSON.stringify(result));
    const run = await sweep();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /4 jobs: 2 ran, skipped 2, 0 failed/);
    assert.equal(JSON.parse(readFileSync(join(out, `${JOBS[1]}.json`), "utf8")).manifest.config.steps, 20);
  });

  test("a failing job is recorded with its error (one line), exit 1; a re-run retries it", async () => {
    const failSpec = write("fail.json", { ...SPEC, seeds: [0], snr: [null] });
    // Every result write fails with ENOSPC (a full disk) in the workers, which inherit --require.
    const full = await cli(["sweep", failSpec, "--out", "fail-out", "--jobs", "1"], {
      cwd: dir,
      nodeArgs: ["--require", join(root, "test/helpers/enospc.cjs")],
    });
    assert.equal(full.code, 1, full.stderr);
    assert.match(full.stdout, /1 jobs: 1 ran, skipped 0, 1 failed/);
    assert.match(full.stderr, /^error: job syn1-consolesr-form-s0-snrnone-r200: .*cannot write \(ENOSPC\)$/m);
    const summary = JSON.parse(readFileSync(join(dir, "fail-out", "summary.json"), "utf8"));
    assert.match(summary.jobs[0].error, /ENOSPC/);
    assert.deepEqual(readdirSync(join(dir, "fail-out")).sort(), ["summary.csv", "summary.json"]);
    const again = await cli(["sweep", failSpec, "--out", "fail-out"], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /1 jobs: 1 ran, skipped 0, 0 failed/);
  });

  test("a job's result is byte-identical to `consolesr run` of the same config", async () => {
    const single = join(dir, "run.json");
    const run = await cli(
      ["run", "syn1", "--given-form", "--steps", "20", "--rows", "200", "--seed", "1", "--snr", "30"].concat([
        "--out",
        single,
        "--quiet",
      ]),
      { cwd: dir },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(gitless(join(out, `${JOBS[3]}.json`)), gitless(single));
  });

  test("a CSV form job is byte-identical to `consolesr fit --form`", async () => {
    const rows = ["x1,x2,y"];
    for (let i = 0; i < 60; i++) {
      const x1 = 1 + ((i * 7) % 60) / 60;
      const x2 = 1 + ((i * 13) % 60) / 60;
      rows.push(`${x1},${x2},${3 * x1 ** 2 * Math.cos(2.5 * x2)}`);
    }
    write("data.csv", `${rows.join("\n")}\n`);
    const csvSpec = write("csv.json", {
      csv: "data.csv",
      targets: ["y"],
      variants: [{ name: "given", settings: { form: "y = x1^2*cos(x2)", symbols: ["x^2", "cos"] } }],
    });
    const run = await cli(["sweep", csvSpec, "--out", "csv-out", "--quiet"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /1 jobs: 1 ran, skipped 0, 0 failed/);
    const fit = await cli(
      ["fit", "data.csv", "--target", "y", "--form", "y = x1^2*cos(x2)", "--symbols", "x^2,cos", "--out", "fit.json"],
      { cwd: dir },
    );
    assert.equal(fit.code, 0, fit.stderr);
    const file = join(dir, "csv-out", "data-consolesr-given-s0-snrnone-rdefault.json");
    assert.ok(existsSync(file));
    assert.equal(gitless(file), gitless(join(dir, "fit.json")));
  });

  test("benchmark entries run as experiments, byte-identical to `consolesr run <id>`", async () => {
    const benchSpec = write("bench.json", {
      benchmark: ["nguyen-1"],
      seeds: [0, 1],
      rows: [100],
      variants: [{ name: "small", settings: { budget: 50 } }],
    });
    const run = await cli(["sweep", benchSpec, "--out", "bench-out", "--jobs", "2"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /2 jobs: 2 ran, skipped 0, 0 failed; 2 of 2 exact/);
    const summary = JSON.parse(readFileSync(join(dir, "bench-out", "summary.json"), "utf8"));
    assert.deepEqual(
      summary.jobs.map((r: { job: string; recovered: boolean }) => [r.job, r.recovered]),
      [
        ["nguyen-1-consolesr-small-s0-snrnone-r100", true],
        ["nguyen-1-consolesr-small-s1-snrnone-r100", true],
      ],
    );
    const single = await cli(
      ["run", "nguyen-1", "--budget", "50", "--rows", "100", "--seed", "1", "--out", "n1.json"],
      {
        cwd: dir,
      },
    );
    assert.equal(single.code, 0, single.stderr);
    assert.equal(
      gitless(join(dir, "bench-out", "nguyen-1-consolesr-small-s1-snrnone-r100.json")),
      gitless(join(dir, "n1.json")),
    );
  });

  test("a bad spec is one error line naming the field, exit 2, nothing run", async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...SPEC, seedz: [1] }, /unknown field "seedz"/],
      [{ ...SPEC, seeds: "zero" }, /seeds: /],
      [{ ...SPEC, experiments: "syn1" }, /experiments: expected array/],
      [{ ...SPEC, experiments: ["syn9"] }, /experiments\[0\]: unknown experiment "syn9"/],
      [{ ...SPEC, methods: ["nope"] }, /methods\[0\]: unknown method "nope"/],
      [{ ...SPEC, snr: [5000] }, /snr\[0\] must be/],
      [
        { ...SPEC, variants: [{ name: "a", settings: { bogus: 1 } }] },
        /unknown field "variants\[0\]\.settings\.bogus"/,
      ],
      [
        { ...SPEC, variants: [{ name: "a", settings: { episodes: -3 } }] },
        /variants\[0\]\.settings\.episodes: an integer from 1 to 1000000/,
      ],
      [
        { ...SPEC, variants: [{ name: "a", settings: { fit: { polish: "newton" } } }] },
        /variants\[0\]\.settings\.fit\.polish: lm or none or lsq or bfgs/,
      ],
      [{ experiments: ["syn1"], csv: "data.csv", targets: ["y"] }, /exactly one source/],
      [{ csv: "data.csv" }, /targets: required/],
      [{ benchmark: ["nguyen-1", "nope"] }, /benchmark\[1\]: unknown benchmark id or family "nope"/],
      [{ benchmark: "some" }, /benchmark: /],
      ["{ not json", /not a JSON file/],
    ];
    for (const [i, [value, message]] of cases.entries()) {
      const file = write(`bad${i}.json`, value);
      const run = await cli(["sweep", file, "--out", `bad-out${i}`], { cwd: dir });
      assertInputError(run, message);
      assert.ok(!existsSync(join(dir, `bad-out${i}`)), `bad${i}: nothing written`);
    }
    assertInputError(await cli(["sweep", spec, "--jobs", "0"], { cwd: dir }), /--jobs must be an integer from 1/);
  });
});
