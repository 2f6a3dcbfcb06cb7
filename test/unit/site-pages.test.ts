/**
 * Adding a page (CONTRIBUTING.md, "Add a page"): a Markdown file under site/ and its line in the
 * sidebar (observablehq.config.ts `pages`). Framework builds a page the sidebar does not list,
 * which no reader then finds, and lists a path with no page as a dead link: both fail here. The
 * home (site/index.md) is always first and not listed; the links site/lib and site/report hold
 * modules, not pages.
 */
import assert from "node:assert/strict";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const site = join(repo, "site");

/** Every page under site/, as its path on the site (`guide/cli.md` → `/guide/cli`). */
function pages(dir = site, prefix = ""): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (entry.startsWith(".") || entry === "node_modules" || lstatSync(path).isSymbolicLink()) return [];
    if (lstatSync(path).isDirectory()) return pages(path, `${prefix}/${entry}`);
    return entry.endsWith(".md") ? [`${prefix}/${entry.slice(0, -3)}`] : [];
  });
}

test("every page under site/ is in the sidebar, and every sidebar entry is a page", () => {
  const config = readFileSync(join(repo, "observablehq.config.ts"), "utf8");
  const listed = [...config.matchAll(/\bpath: "([^"]+)"/g)].map((m) => m[1]!).sort();
  const files = pages()
    .filter((path) => path !== "/index")
    .sort();
  assert.ok(files.length >= 20, `only ${files.length} pages found under site/`);
  assert.deepEqual(
    files.filter((path) => !listed.includes(path)),
    [],
    "pages missing from observablehq.config.ts",
  );
  assert.deepEqual(
    listed.filter((path) => !files.includes(path)),
    [],
    "sidebar paths with no page",
  );
});

test("every page has a title in its front matter (the sidebar and the browser tab show it)", () => {
  for (const path of [...pages(), "/index"]) {
    const text = readFileSync(join(site, `${path}.md`), "utf8");
    assert.match(text, /^---\n(?:.*\n)*?title: .+\n(?:.*\n)*?---\n/, `site${path}.md has no title`);
  }
});
