/**
 * `consolesr report`: the project it writes (the result is `fit`'s, byte for byte; the package's
 * dependencies pinned), and its one-line errors for a bad --out or --package. The project's
 * install, offline build and page are test/browser/own-report.test.ts's.
 */
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { VERSION } from "../../src/lib/index.js";
import { reportDependencies } from "../../src/framework/index.js";
import { assertInputError, cli } from "../helpers/cli.js";
import { productCsv, testDir } from "../helpers/data.js";

const dir = testDir("report");
writeFileSync(join(dir, "data.csv"), productCsv());

test("report writes a Framework project whose result is fit's, byte for byte, with pinned dependencies", async () => {
  const fit = await cli(["fit", "data.csv", "--target", "y", "--quiet", "--out", "fit.json"], { cwd: dir });
  assert.equal(fit.code, 0, fit.stderr);
  const report = await cli(["report", "data.csv", "--target", "y", "--out", "site", "--title", "A: product"], {
    cwd: dir,
  });
  assert.equal(report.code, 0, report.stderr);
  assert.equal(report.stdout, fit.stdout, "report prints the equations fit prints");
  assert.match(report.stderr, /wrote the report project site \(9 files\)/);
  assert.match(report.stderr, /next: cd site && npm install && npm run build/);
  const project = join(dir, "site");
  assert.equal(
    readFileSync(join(project, "src/data/result.json"), "utf8"),
    readFileSync(join(dir, "fit.json"), "utf8"),
  );
  assert.equal(readFileSync(join(project, "src/data/data.csv"), "utf8"), productCsv());
  const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
  assert.deepEqual(pkg.dependencies, { consolesr: VERSION, ...reportDependencies() });
  assert.equal(pkg.name, "data-report");
  const page = readFileSync(join(project, "src/index.md"), "utf8");
  // The title is YAML-quoted (a colon in it would break the front matter), the command is the one typed.
  assert.match(page, /^---\ntitle: "A: product"\n/);
  assert.match(page, /found by `npx consolesr report data\.csv --target y --out site --title 'A: product'`/);
  assert.match(page, /from "consolesr\/report"/);
  assert.match(page, /FileAttachment\("data\/data\.csv"\)/);
  assert.match(
    readFileSync(join(project, "observablehq.config.js"), "utf8"),
    /reportConfig\(\{ title: "A: product" \}\)/,
  );
  assert.match(readFileSync(join(project, "src/data/check.json.js"), "utf8"), /reproduceResult/);

  // --package: a local tarball, copied into the project (it installs wherever the project moves).
  writeFileSync(join(dir, `consolesr-${VERSION}.tgz`), "not really a tarball");
  const local = await cli(
    ["report", "data.csv", "--target", "y", "--out", "local", "--package", `consolesr-${VERSION}.tgz`, "--quiet"],
    { cwd: dir },
  );
  assert.equal(local.code, 0, local.stderr);
  const localPkg = JSON.parse(readFileSync(join(dir, "local", "package.json"), "utf8"));
  assert.equal(localPkg.dependencies.consolesr, `file:vendor/consolesr-${VERSION}.tgz`);
  assert.equal(readFileSync(join(dir, "local", "vendor", `consolesr-${VERSION}.tgz`), "utf8"), "not really a tarball");
});

test("report: a bad --out or --package is one line naming it, exit 2, nothing written", async () => {
  mkdirSync(join(dir, "full"));
  writeFileSync(join(dir, "full", "keep.txt"), "mine");
  const args = ["report", "data.csv", "--target", "y"];
  assertInputError(await cli([...args, "--out", "full"], { cwd: dir }), "--out full", "not empty");
  assertInputError(await cli([...args, "--out", "data.csv"], { cwd: dir }), "--out data.csv", "is a file");
  assertInputError(await cli([...args, "--out", "no/such/site"], { cwd: dir }), "--out no/such/site", "does not exist");
  assertInputError(await cli(args, { cwd: dir }), "--out");
  assertInputError(await cli([...args, "--out", "p1", "--package", "nope.tgz"], { cwd: dir }), "--package nope.tgz");
  assertInputError(
    await cli([...args, "--out", "p2", "--package", "data.csv"], { cwd: dir }),
    "--package data.csv",
    "not a .tgz",
  );
  assert.equal(readFileSync(join(dir, "full", "keep.txt"), "utf8"), "mine");
});
