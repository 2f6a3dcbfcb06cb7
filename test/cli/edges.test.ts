/**
 * The CLI at its edges: sizes, result files, seeds, --out and its writes, data paths, edited results,
 * tolerances and flag values, each tried as a hostile user would. Runaway cases run in a child process
 * with a small heap and a timeout, so a regression fails the test instead of the machine;
 * permission cases run the CLI as an unprivileged user (CI runs as root), and a full disk is a
 * fault injected with `node --require` (test/helpers/enospc.cjs).
 * Rows 3–7, 15 and 16 and the CSV/`--form` fuzz test live in hardening-plugins.test.ts and
 * hardening-data.test.ts.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ResultJson } from "../../src/lib/result/result.js";
import { createRng } from "../../src/lib/core/rng.js";
import { assertInputError, cli, root, setprivWorks, type CliOptions } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

const dir = testDir("cli-edges");

/** base.csv: 200 rows of y = 2·x1·x2. */
const base = join(dir, "base.csv");
const fitResult = join(dir, "fit.json");
const syn1Result = join(dir, "syn1.json");

/** A child with a 192 MB heap and a minute: a runaway allocation fails the test, not the machine. */
const bounded: CliOptions = { nodeArgs: ["--max-old-space-size=192"], timeoutMs: 60_000 };

const edit = (
  from: string,
  name: string,
  change: (r: ResultJson & { manifest: { config: Record<string, unknown> } }) => void,
): string => {
  const result = JSON.parse(readFileSync(from, "utf8"));
  change(result);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(result, null, 2));
  return path;
};

before(async () => {
  const rng = createRng(12);
  const lines = ["x1,x2,y"];
  for (let i = 0; i < 200; i++) {
    const [a, b] = [rng.uniform(0.5, 2.5), rng.uniform(0.5, 2.5)];
    lines.push(`${a},${b},${2 * a * b}`);
  }
  writeFileSync(base, `${lines.join("\n")}\n`);
  chmodSync(base, 0o644);
  const runs = await Promise.all([
    cli(["fit", base, "--target", "y", "--quiet", "--out", fitResult]),
    cli(["run", "syn1", "--given-form", "--rows", "100", "--quiet", "--out", syn1Result]),
  ]);
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
});

describe("the CLI at its edges", () => {
  test("sizes are bounded and checked before any allocation (run in a 192 MB heap)", async () => {
    const runs = await Promise.all([
      cli(["fit", base, "--target", "y", "--terms", "100000", "--episodes", "1"], bounded),
      cli(["run", "syn1", "--rows", "100000000", "--given-form"], bounded),
      cli(["fit", base, "--target", "y", "--max-factors", "100000"], bounded),
    ]);
    assertInputError(runs[0]!, "--terms", "12", "100000");
    assertInputError(runs[1]!, "--rows", "1000000", "100000000");
    assertInputError(runs[2]!, "--max-factors", "6");
  });

  test("a result file is validated with the same bounds as the flags (run in a 192 MB heap)", async () => {
    const terms = edit(fitResult, "terms.json", (r) => (r.manifest.config.terms = 100000));
    const hidden = edit(fitResult, "hidden.json", (r) => (r.manifest.config.hidden = [100_000_000, 32]));
    const rows = edit(syn1Result, "rows.json", (r) => (r.manifest.config.rows = 100_000_000));
    const steps = edit(fitResult, "steps.json", (r) => ((r.manifest.config.fit as Record<string, unknown>).steps = -5));
    const runs = await Promise.all([terms, hidden, rows, steps].map((file) => cli(["reproduce", file], bounded)));
    assertInputError(runs[0]!, "terms.json", "manifest.config", "terms", "12");
    assertInputError(runs[1]!, "hidden.json", "hidden[0]", "1024");
    assertInputError(runs[2]!, "rows.json", "manifest.config.rows", "1000000");
    assertInputError(runs[3]!, "steps.json", "manifest.config.fit.steps");
  });

  test(
    "a seed outside 32 bits is exit 2 naming the " + "flag or the manifest field, not an internal error",
    async () => {
      const negative = edit(fitResult, "seed.json", (r) => (r.manifest.seed = -1));
      const [flag, manifest] = await Promise.all([
        cli(["fit", base, "--target", "y", "--seed", "4294967296"]),
        cli(["reproduce", negative]),
      ]);
      assertInputError(flag, "--seed", "4294967295");
      assertInputError(manifest, "seed.json", "manifest.seed", "-1");
    },
  );

  test("--out equal to the input CSV is refused before the search, and the CSV is untouched", async () => {
    const copy = join(dir, "input.csv");
    writeFileSync(copy, readFileSync(base));
    const before = readFileSync(copy, "utf8");
    assertInputError(await cli(["fit", copy, "--target", "y", "--out", copy]), "--out", "input of this run");
    // The same file by another path (./) is the same file.
    assertInputError(await cli(["fit", "input.csv", "--target", "y", "--out", "./input.csv"], { cwd: dir }), "--out");
    assert.equal(readFileSync(copy, "utf8"), before);
  });

  test(
    "a write that fails half-way (full disk) " + "leaves the old result whole; concurrent runs leave one whole result",
    async () => {
      const out = join(dir, "atomic.json");
      writeFileSync(out, readFileSync(fitResult));
      const old = readFileSync(out, "utf8");
      const full = await cli(["fit", base, "--target", "y", "--seed", "5", "--out", out], {
        nodeArgs: ["--require", join(root, "test/helpers/enospc.cjs")],
      });
      assert.equal(full.code, 2, full.stderr);
      assert.match(full.stderr, /atomic\.json: cannot write \(ENOSPC\)/);
      assert.equal(readFileSync(out, "utf8"), old, "the old result was damaged by a failed write");
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.endsWith(".tmp")),
        [],
        "a temporary file was left behind",
      );
      // Six runs with different seeds write one file at once: it is one of their results, whole
      // (seeds 1–6: the file written before them has seed 0).
      const seeds = [1, 2, 3, 4, 5, 6];
      const runs = await Promise.all(
        seeds.map((seed) => cli(["fit", base, "--target", "y", "--quiet", "--seed", String(seed), "--out", out])),
      );
      for (const run of runs) assert.equal(run.code, 0, run.stderr);
      const final = JSON.parse(readFileSync(out, "utf8")) as ResultJson;
      assert.ok(seeds.includes(final.manifest.seed));
    },
  );

  test("--out into a missing or read-only folder is refused before the search", async (t) => {
    const missing = await cli(["fit", base, "--target", "y", "--out", join(dir, "no-such-folder", "r.json")]);
    assertInputError(missing, "--out", "does not exist");
    const locked = join(dir, "locked");
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    // Root may write anywhere: run as nobody (CI runs as root), where nobody can read the checkout.
    if (process.getuid?.() === 0 && !setprivWorks({ ...process.env, HOME: dir })) {
      t.skip("the read-only part: nobody cannot read this checkout (e.g. a clone under mktemp -d), so cannot run it");
      return;
    }
    const asNobody: CliOptions =
      process.getuid?.() === 0
        ? { wrap: ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"], env: { HOME: dir } }
        : {};
    const readOnly = await cli(["fit", base, "--target", "y", "--out", join(locked, "r.json")], asNobody);
    assertInputError(readOnly, "--out", "not writable");
  });

  test(
    "a data path from a result file never leaves the result's " +
      "folder or the current one; its contents never reach a message",
    async () => {
      const secret = join(dir, "secret");
      mkdirSync(secret, { recursive: true });
      const hidden = join(secret, "passwords.txt");
      writeFileSync(hidden, "root:SECRET-HASH:20228:0:99999:7:::\nalice:OTHER-SECRET:1:2:3:4:::\n");
      const escaping = edit(fitResult, "escape.json", (r) => (r.manifest.config.data = `../../../../${hidden}`));
      const sub = join(dir, "results");
      mkdirSync(sub, { recursive: true });
      const inside = edit(
        fitResult,
        "results/escape.json",
        (r) => (r.manifest.config.data = "../secret/passwords.txt"),
      );
      const runs = await Promise.all([cli(["reproduce", escaping]), cli(["reproduce", inside], { cwd: sub })]);
      for (const run of runs) {
        assertInputError(run, "passwords.txt", "--data");
        assert.doesNotMatch(run.stderr, /SECRET|root:|alice/);
      }
      // Named explicitly, a file that is not the recorded one is refused by its digest, contents unquoted.
      const named = await cli(["reproduce", escaping, "--data", hidden]);
      assertInputError(named, "SHA-256", "--data");
      assert.doesNotMatch(named.stderr, /SECRET|root:|alice/);
      // The right file, named explicitly from elsewhere, reproduces.
      const moved = join(dir, "moved");
      mkdirSync(moved, { recursive: true });
      const lonely = edit(fitResult, "moved/lonely.json", () => {});
      const ok = await cli(["reproduce", lonely, "--data", base, "--quiet"], { cwd: moved });
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    },
  );

  test(
    "an edited equation text, search record or data file is not 'reproduced'; " +
      "the manifest records the data's SHA-256 and rows",
    async () => {
      const result = JSON.parse(readFileSync(fitResult, "utf8")) as ResultJson;
      assert.match(result.manifest.data?.sha256 ?? "", /^[0-9a-f]{64}$/);
      assert.equal(result.manifest.data?.rows, 200);
      const text = edit(fitResult, "text.json", (r) => (r.equations[0]!.text = "2*x1*x2 + 5"));
      const episodes = edit(fitResult, "episodes.json", (r) => (r.search.targets![0]!.episodes += 3));
      const nrmse = edit(fitResult, "nrmse.json", (r) => (r.equations[0]!.trainNrmse = 0.25));
      const runs = await Promise.all([text, episodes, nrmse].map((file) => cli(["reproduce", file])));
      for (const run of runs) {
        assert.equal(run.code, 1, run.stdout + run.stderr);
        assert.match(run.stdout, /^NOT reproduced/m);
      }
      assert.match(runs[0]!.stdout, /text "2\*x1\*x2 \+ 5" → "2\*x1\*x2"/);
      assert.match(runs[1]!.stdout, /search\.targets\[0\]\.episodes/);
      assert.match(runs[2]!.stdout, /trainNrmse 0\.25 →/);
      // The data file changed under the result (one digit): refused before re-running.
      const folder = join(dir, "changed");
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, "base.csv"),
        readFileSync(base, "utf8").replace(/\n(\d)/, (_, d: string) => `\n${(Number(d) + 1) % 10}`),
      );
      const moved = edit(fitResult, "changed/fit.json", (r) => (r.manifest.config.data = "base.csv"));
      assertInputError(
        await cli(["reproduce", moved]),
        "base.csv",
        "SHA-256",
        "not the file this result was made from",
      );
    },
  );

  test("exact and float32-tolerance matches are " + "reported differently, naming the tolerance and why", async () => {
    const webgl = edit(fitResult, "webgl.json", (r) => (r.manifest.backend = "webgl"));
    const [exact, loose, forced] = await Promise.all([
      cli(["reproduce", fitResult]),
      cli(["reproduce", webgl]),
      cli(["reproduce", webgl, "--exact"]),
    ]);
    for (const run of [exact, loose, forced]) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(exact.stdout, /^reproduced exactly: .*tolerance 1e-9; both runs on js, a float64 backend/m);
    assert.match(
      loose.stdout,
      new RegExp(
        /^reproduced within float32 tolerance: .*tolerance 0\.0001; /.source +
          /allowed because the original's manifest names webgl, a float32 backend; not an exact match/.source,
        "m",
      ),
    );
    assert.match(forced.stdout, /^reproduced exactly: .*tolerance 1e-9; --exact asked for it/m);
    const unknown = edit(fitResult, "backend.json", (r) => (r.manifest.backend = "quantum"));
    assertInputError(await cli(["reproduce", unknown]), "manifest.backend", "quantum");
  });

  test("empty or out-of-range flag values are errors naming the flag", async () => {
    const cases: [string[], string[]][] = [
      [["--seed", ""], ["--seed"]],
      [
        ["--symbols", ""],
        ["--symbols", "names nothing"],
      ],
      [
        ["--target", " , "],
        ["--target", "names nothing"],
      ],
      [
        ["--stop-nrmse", "-1"],
        ["--stop-nrmse", "from 0 to 1"],
      ],
      [["--epsilon", "0x1"], ["--epsilon"]],
      [["--episodes", "Infinity"], ["--episodes"]],
      [
        ["--backend", "webgl"],
        ["--backend", "cpu, wasm"],
      ],
    ];
    const runs = await Promise.all(
      cases.map(([flags]) =>
        cli(["fit", base, ...(flags[0] === "--target" ? [] : ["--target", "y"]), ...flags, "--episodes", "5"]),
      ),
    );
    runs.forEach((run, i) => {
      assertInputError(run, ...cases[i]![1]);
    });
    assert.ok(!existsSync(join(dir, "undefined")));
  });
});
