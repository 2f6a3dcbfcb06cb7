/**
 * The site's reference pages are generated from the code they describe (scripts/reference.ts):
 * the committed pages must equal what the generator writes now, so a setting, a method or a
 * result field added without `npm run reference` fails here. And each generated page says what
 * the code says (spot checks that would fail if the generator dropped rows).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { referencePages } from "../../scripts/reference.js";
import { METHOD_NAMES, SETTINGS } from "../../src/lib/index.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

test("the committed reference pages are up to date (npm run reference writes them)", () => {
  for (const [path, text] of Object.entries(referencePages())) {
    let committed = "";
    try {
      committed = readFileSync(join(repo, path), "utf8");
    } catch {}
    assert.ok(committed === text, `${path} is stale: run npm run reference and commit it`);
  }
});

test("the pages list every setting with its flag, every method, and the result's fields", () => {
  const pages = referencePages();
  const settings = pages["site/reference/settings.md"]!;
  for (const [name, row] of Object.entries(SETTINGS)) {
    assert.ok(settings.includes(`| \`${name}\` |`), `settings page lacks ${name}`);
    if ("flag" in row && row.flag) assert.ok(settings.includes(`\`${row.flag}\``), `settings page lacks ${row.flag}`);
  }
  const methods = pages["site/reference/methods.md"]!;
  for (const name of METHOD_NAMES) assert.ok(methods.includes(`\n## ${name}\n`), `methods page lacks ${name}`);
  const json = pages["site/reference/result-json.md"]!;
  for (const field of [
    "equations[].constant",
    "search.front[].chosen",
    "models[].predictions.head[]",
    "manifest.data.sha256",
  ])
    assert.ok(json.includes(`| \`${field}\``), `result page lacks ${field}`);
  const deviations = pages["site/reference/deviations.md"]!;
  const source = readFileSync(join(repo, "docs/deviations.md"), "utf8");
  const bullets = source.split("\n").filter((line) => line.startsWith("- **"));
  assert.ok(bullets.length >= 10);
  for (const bullet of bullets) assert.ok(deviations.includes(bullet.replace(/\[([^\]]+)\]\(([^)]+)\)/g, "`docs/$1`")));
});
