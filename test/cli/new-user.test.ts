/**
 * A hostile new user's probe: the weak spots it found, each tried as the user did. A form whose
 * factor's symbol is not in --symbols, search flags a --form run ignores, the same plugin given
 * twice, a compressed or binary file given as the CSV, more columns than rows, a sweep's seed range
 * past its bound, and Ctrl-C during a reproduction or a form's fit.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertInputError, cli, cliSignalled } from "../helpers/cli.js";
import { fileIn, testDir } from "../helpers/data.js";
import { createRng } from "../../src/lib/core/rng.js";

const dir = testDir("new-user");
const file = fileIn(dir);

/** good.csv: 60 rows of x1, x2, x3 and y = x1·x2 + x3². */
const lines = ["x1,x2,x3,y"];
for (let i = 0; i < 60; i++) {
  const [a, b, c] = [1 + (i % 7) / 7, 1 + (i % 5) / 5, 1 + (i % 3) / 3];
  lines.push(`${a},${b},${c},${a * b + c * c}`);
}
const good = file("good.csv", `${lines.join("\n")}\n`);

describe("--form", () => {
  test("a factor whose symbol is not in --symbols names the symbol and the pool", async () => {
    const run = await cli(["fit", good, "--target", "y", "--form", "y = x1*x2 + x3^2", "--symbols", "cos"]);
    assertInputError(run, '--form: cannot read the factor "x1"', "its symbol x is not in --symbols (cos)");
    const call = await cli(["fit", good, "--target", "y", "--form", "y = cos(x1) + sin(x2)", "--symbols", "cos"]);
    assertInputError(call, '"sin(x2)"', "its symbol sin is not in --symbols (cos)");
  });
});

describe("search flags a run does not read", () => {
  test("--form with search flags: one warning per flag given, exit 0 with the fitted form", async () => {
    const form = ["fit", good, "--target", "y", "--form", "y = x1*x2 + x3^2", "--quiet"];
    const run = await cli([...form, "--episodes", "5", "--time-limit", "10", "--terms", "3", "--method", "mlp"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /y = .*x1\*x2/);
    assert.deepEqual(
      run.stderr.trimEnd().split("\n"),
      ["--episodes", "--time-limit", "--terms", "--method"].map(
        (flag) => `warning: ${flag} is not used with --form (the form is fitted, not searched)`,
      ),
    );
    // flags left at their defaults say nothing
    const quiet = await cli(form);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, "");
  });

  test("--method mlp: --terms and --episodes are said to be unused; --time-limit names its flag", async () => {
    const mlp = ["fit", good, "--target", "y", "--method", "mlp", "--epochs", "5", "--quiet"];
    const run = await cli([...mlp, "--terms", "3", "--episodes", "3"]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2, run.stderr);
    assert.match(lines[0]!, /^warning: --episodes is not used by --method mlp \(it reads .*--epochs/);
    assert.match(lines[1]!, /^warning: --terms is not used by --method mlp /);
    assertInputError(await cli([...mlp, "--time-limit", "10"]), /^error: --time-limit is not taken by mlp/);
  });
});

test("the same --plugin file given twice (as pl/good.mjs and ./pl/good.mjs) is loaded once", async () => {
  mkdirSync(join(dir, "pl"), { recursive: true });
  file(
    "pl/good.mjs",
    'export default { kind: "symbol", name: "p.sq", complexity: 2, innerWeight: false, text: (a) => `sq(${a})`, ' +
      "latex: (a) => `${a}^2`, evaluate: (x) => x * x, apply: (x, tf) => tf.square(x) };\n",
  );
  const listed = await cli(["plugins", "--plugin", "pl/good.mjs", "--plugin", "./pl/good.mjs"], { cwd: dir });
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.match(/p\.sq/g)?.length, 1, listed.stdout);
  const run = await cli(
    ["fit", good, "--target", "y", "--form", "y = sq(x1) + x2", "--symbols", "x,p.sq", "--quiet"].concat([
      "--plugin",
      "pl/good.mjs",
      "--plugin",
      join(dir, "pl/good.mjs"),
    ]),
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /sq\(x1\)/);
});

test("a gzip-compressed or binary file given as the CSV is named as such, in one line", async () => {
  const gz = file("good.csv.gz", gzipSync(`${lines.join("\n")}\n`));
  assertInputError(
    await cli(["fit", gz, "--target", "y"]),
    /^error: .*good\.csv\.gz: is gzip-compressed, not a CSV text: decompress it first \(gunzip .*good\.csv\.gz\)$/,
  );
  const bytes = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7919 + ((i * i) % 251)) % 256);
  const bin = file("rand.bin", bytes);
  assertInputError(await cli(["fit", bin, "--target", "y"]), "rand.bin: is not text (binary bytes in its first KiB)");
});

test("an answer with as many parameters as rows is said to be underdetermined, in one warning line", async () => {
  // 12 rows of 14 inputs: a sum of 12 of them fits any y exactly.
  const rng = createRng(5);
  const rows = Array.from({ length: 12 }, () => Array.from({ length: 15 }, () => rng.uniform(1, 2).toFixed(4)));
  const header = [...Array.from({ length: 14 }, (_, j) => `x${j + 1}`), "y"];
  const wide = file("wide.csv", `${[header, ...rows].map((r) => r.join(",")).join("\n")}\n`);
  const sum = `y = ${Array.from({ length: 12 }, (_, j) => `x${j + 1}`).join(" + ")}`;
  const run = await cli(["fit", wide, "--target", "y", "--form", sum, "--quiet"]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(
    run.stderr,
    "warning: y: the answer has 12 parameters for 12 rows: it is underdetermined (any data fit it); give more rows\n",
  );
  // fewer parameters than rows: no word
  const few = await cli(["fit", wide, "--target", "y", "--form", "y = x1*x2 + x3", "--quiet"]);
  assert.equal(few.code, 0, few.stderr);
  assert.equal(few.stderr, "");
});

test("a sweep's seed range past its bound says the bound, not 'a ≤ b'", async () => {
  const spec = file(
    "spec.json",
    JSON.stringify({ experiments: ["syn1"], methods: ["consolesr"], seeds: "0..100000", snr: [null], rows: [200] }),
  );
  assertInputError(
    await cli(["sweep", spec, "--out", join(dir, "sweep-out")]),
    'seeds: "0..100000" is 100001 seeds; a range a..b holds at most 100000',
  );
  // a range the other way round is still told so
  const back = file("back.json", JSON.stringify({ experiments: ["syn1"], methods: ["consolesr"], seeds: "5..2" }));
  assertInputError(
    await cli(["sweep", back, "--out", join(dir, "sweep-out")]),
    'seeds: "5..2" must be a..b with a ≤ b',
  );
});

test("Ctrl-C during a --form fit on a large CSV stops it at once and says nothing was written (exit 130)", {
  timeout: 120_000,
}, async () => {
  // 100,000 rows: the fit takes about 15 s on tfjs cpu, and ran to its end (or died without a word).
  const big = ["x1,x2,x3,y"];
  for (let i = 0; i < 100_000; i++) {
    const [a, b, c] = [1 + (i % 997) / 997, 1 + (i % 991) / 991, 1 + (i % 983) / 983];
    big.push(`${a.toFixed(5)},${b.toFixed(5)},${c.toFixed(5)},${(a * b + c * c).toFixed(6)}`);
  }
  const path = file("big.csv", `${big.join("\n")}\n`);
  const out = join(dir, "big.json");
  const run = await cliSignalled(
    ["fit", path, "--target", "y", "--form", "y = x1*x2 + x3^2", "--out", out],
    /fitting y from 100000 rows/,
    "SIGINT",
    { delayMs: 1000 },
  );
  assert.equal(run.code, 130, run.stderr);
  assert.equal(run.stdout, "");
  assert.ok(
    run.stderr.endsWith(`interrupted while fitting the form on ${path}: no equation was found yet, nothing written\n`),
    run.stderr,
  );
  assert.ok(run.afterSignalMs < 5000, `${run.afterSignalMs} ms after the signal`);
  assert.ok(!existsSync(out), "nothing written");
});

test("Ctrl-C during a reproduction says it did not finish (exit 130)", { timeout: 120_000 }, async () => {
  // A ratio the pool cannot write: the search runs its 40 episodes (a few seconds), and so does its reproduction.
  const rows = ["x1,x2,x3,y"];
  for (let i = 0; i < 200; i++) {
    const [a, b, c] = [1 + ((i * 37) % 200) / 200, 1 + ((i * 91 + 13) % 200) / 200, 1 + ((i * 53 + 7) % 200) / 200];
    rows.push(`${a},${b},${c},${(a * b * c) / (1 + a * a * c)}`);
  }
  const hard = file("hard.csv", `${rows.join("\n")}\n`);
  const result = join(dir, "hard.json");
  const fitted = await cli(["fit", hard, "--target", "y", "--symbols", "x,x^2", "--episodes", "40", "--out", result]);
  assert.ok(existsSync(result), fitted.stderr);
  const run = await cliSignalled(["reproduce", result], /reproducing .*hard\.json: searching/, "SIGINT", {
    delayMs: 500,
  });
  assert.equal(run.code, 130, run.stderr);
  assert.equal(run.stdout, "");
  assert.ok(
    run.stderr.endsWith(`interrupted: the reproduction of ${result} did not finish: nothing was compared\n`),
    run.stderr,
  );
});
