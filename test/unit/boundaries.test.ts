/**
 * The library's folder boundaries (scripts/boundaries.ts, run by `npm run lint`): the real tree
 * passes, and small trees made here with one deliberate fault each fail with a line naming it.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { checkBoundaries, checkClients, checkSite } from "../../scripts/boundaries.js";
import { testDir } from "../helpers/data.js";

const LAYERS = ["core", "data", "search"];

/** A tree of files (path → text) under a fresh folder; returns its root. */
function tree(files: Record<string, string>): string {
  const root = testDir("boundaries");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** core ← data ← search, every import through a door. */
const clean = {
  "index.ts": 'export { search } from "./search/index.js";\n',
  "core/index.ts": 'export { one } from "./one.js";\n',
  "core/one.ts": "export const one = 1;\n",
  "data/index.ts": 'export { table } from "./table.js";\n',
  "data/table.ts": 'import { one } from "../core/index.js";\nexport const table = [one];\n',
  "search/index.ts": 'import { table } from "../data/index.js";\nexport const search = () => table;\n',
};

test("the library's own tree passes: every import through a door, downward, no node: module", () => {
  const lib = fileURLToPath(new URL("../../src/lib", import.meta.url));
  const { graph, problems } = checkBoundaries(lib);
  assert.deepEqual(problems, []);
  assert.ok(graph.get("search")?.includes("local"), "the graph lists search → local");
  const cli = fileURLToPath(new URL("../../src/cli", import.meta.url));
  assert.deepEqual(checkClients(cli, lib), []);
});

test("a clean tree passes and its graph is read", () => {
  const { graph, problems } = checkBoundaries(tree(clean), LAYERS);
  assert.deepEqual(problems, []);
  assert.deepEqual(Object.fromEntries(graph), { data: ["core"], search: ["data"] });
});

test("a deliberate cycle fails: data imports search while search imports data", () => {
  const root = tree({
    ...clean,
    "data/table.ts": 'import { search } from "../search/index.js";\nexport const table = [search];\n',
  });
  const { problems } = checkBoundaries(root, LAYERS);
  assert.ok(problems.includes("folder cycle: data -> search -> data"), problems.join("\n"));
  assert.ok(problems.some((p) => p.startsWith("data/table.ts: data imports search, a folder above it")));
});

test("a deliberate deep import fails: search reaches data/table.ts past data's door", () => {
  const root = tree({
    ...clean,
    "search/index.ts": 'import { table } from "../data/table.js";\nexport const search = () => table;\n',
  });
  const { problems } = checkBoundaries(root, LAYERS);
  assert.deepEqual(problems, ["search/index.ts: imports data/table.ts past data's door (import data/index.js)"]);
});

test("a node: module, an unlisted folder and a client's deep import fail", () => {
  const root = tree({
    ...clean,
    "core/one.ts": 'import { readFileSync } from "node:fs";\nexport const one = readFileSync.length;\n',
    "extra/index.ts": "export const extra = 1;\n",
  });
  const { problems } = checkBoundaries(root, LAYERS);
  assert.ok(problems.includes("core/one.ts: imports node:fs (the library runs in the browser too)"));
  assert.ok(problems.includes("extra/: a folder not in the layer list (scripts/boundaries.ts LAYERS)"));
  const both = tree({
    ...Object.fromEntries(Object.entries(clean).map(([path, text]) => [`lib/${path}`, text])),
    "cli/main.ts": 'import { table } from "../lib/data/table.js";\nimport { search } from "../lib/index.js";\n',
  });
  assert.deepEqual(checkClients(join(both, "cli"), join(both, "lib")), [
    "main.ts: imports src/lib/data/table.ts past data's door",
  ]);
});

test("the site reaches the library through site/lib and its public entries, the report components their entry", () => {
  const repo = fileURLToPath(new URL("../..", import.meta.url));
  assert.deepEqual(
    checkSite(join(repo, "site"), join(repo, "src/lib"), join(repo, "site/data/helpers"), join(repo, "src/report")),
    [],
  );
  const make = (files: Record<string, string>) => {
    const root = tree({
      ...Object.fromEntries(Object.entries(clean).map(([p, t]) => [`src/lib/${p}`, t])),
      "src/report/index.ts": 'export { search } from "../lib/index.js";\n',
      "src/report/chart.ts": "export const chart = 1;\n",
      ...files,
    });
    symlinkSync("../src/lib", join(root, "site/lib"));
    symlinkSync("../src/report", join(root, "site/report"));
    return checkSite(
      join(root, "site"),
      join(root, "src/lib"),
      join(root, "site/data/helpers"),
      join(root, "src/report"),
    );
  };
  const page = (spec: string) => `# A page\n\n\`\`\`js\nimport {search} from "${spec}";\n\`\`\`\n`;
  assert.deepEqual(
    make({
      "site/index.md": page("./lib/index.js"),
      "site/syn1.md": page("./report/index.js"),
      "site/data/run.json.ts": 'import { search } from "./helpers/run.js";\nconsole.log(search());\n',
      "site/data/helpers/run.ts": 'export { search } from "../../../src/lib/index.js";\n',
    }),
    [],
  );
  assert.deepEqual(
    make({
      "site/index.md": page("../src/lib/index.js"),
      "site/guide/a.md": page("../lib/data/table.js"),
      "site/components/c.js": 'import {table} from "../lib/data/index.js";\n',
      "site/data/run.json.ts": 'import { table } from "../../src/lib/data/index.js";\nconsole.log(table);\n',
      "site/data/helpers/helper.ts": 'export { one } from "../../../src/lib/core/one.js";\n',
      "site/components/d.js": 'import {one} from "../data/helpers/helper.js";\n',
      "site/toy.md": page("./report/chart.js"),
      "src/report/rows.ts": 'export { table } from "../lib/data/index.js";\n',
    }).sort(),
    [
      "site/components/c.js: imports the library's data/index.js, not a public entry",
      "site/components/d.js: imports the loader helper ../data/helpers/helper.js (Node-only, for loaders)",
      "site/data/helpers/helper.ts: imports the library's core/one.js, not a public entry",
      "site/data/run.json.ts: imports the library's data/index.js, not a public entry",
      "site/guide/a.md: imports the library's data/table.js, not a public entry",
      "site/index.md: non-local import ../src/lib/index.js (outside the site root; use ./lib/index.js)",
      "site/toy.md: imports the report components' chart.js, not their entry (report/index.js)",
      "src/report/rows.ts: imports the library's data/index.js, not a public entry",
    ],
  );
});

test("comments do not count as imports", () => {
  const root = tree({
    ...clean,
    "search/index.ts":
      '/** Unlike `import { table } from "../data/table.js"`, */\n// import "../data/table.js";\n' +
      'import { table } from "../data/index.js";\nexport const search = () => table;\n',
  });
  assert.deepEqual(checkBoundaries(root, LAYERS).problems, []);
});

test("a private numeric kernel fails: one definition of each, in numeric/linalg.ts", () => {
  const root = tree({
    ...clean,
    "data/table.ts":
      'import { one } from "../core/index.js";\n' +
      "const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);\n" +
      "export const table = [dot([one], [one])];\n",
  });
  assert.deepEqual(checkBoundaries(root, LAYERS).problems, [
    "data/table.ts: defines dot, a numeric kernel (numeric/linalg.ts owns each one)",
  ]);
});

test("a built-in plugin that computes with Math.sin, Math.exp or ** fails: built-ins use core/math.ts", () => {
  const root = tree({
    ...clean,
    "plugins/symbols/wave.ts":
      'import { sin } from "../../core/index.js";\n' +
      "// Math.sin in a comment is fine; the bit-exact sin is used below, Math.abs is exact.\n" +
      "export const ok = (x: number) => sin(Math.abs(x));\n" +
      "export const bad = (x: number) => Math.exp(x) + Math.sin(x) + x ** 2;\n",
  });
  assert.deepEqual(
    checkBoundaries(root, LAYERS).problems.filter((p) => p.includes("round differently")),
    ["Math.exp", "Math.sin", "**"].map(
      (call) =>
        `plugins/symbols/wave.ts: uses ${call}, which engines may round differently (a built-in uses core/math.ts: ` +
        "sin, exp, pow, …)",
    ),
  );
});

test("no source comment points outside the repository, and every docs/design.md anchor cited exists", () => {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const design = readFileSync(join(root, "docs/design.md"), "utf8");
  const anchors = new Set([...design.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]!));
  const outside = /\bDESIGN\b|SEARCH-NOTES|\bSTACK\.md|\.\.\/shared\//;
  const problems: string[] = [];
  // Every code and Markdown file under these folders, and the top-level ones (observablehq.config.ts,
  // the README; not the CHANGELOG, which keeps history). site/lib and site/report are links to
  // src/lib and src/report, read once under src/.
  const CHECKED = /\.(ts|js|mjs|cjs|md)$/;
  const files = readdirSync(root).filter((file) => CHECKED.test(file) && file !== "CHANGELOG.md");
  for (const dir of ["src", "site", "test", "bench", "scripts", "bin", "examples", "docs"]) {
    for (const file of readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })) {
      const linked = dir === "site" && /^(lib|report)(\/|$)/.test(file);
      const skip = file.includes("node_modules") || file.includes(".observablehq") || linked;
      if (CHECKED.test(file) && !skip) files.push(join(dir, file));
    }
  }
  for (const path of files) {
    // This test names the patterns it looks for; the package test checks the README for ../shared/.
    if (path.endsWith("boundaries.test.ts") || path.endsWith("package.test.ts")) continue;
    const text = readFileSync(join(root, path), "utf8");
    if (outside.test(text)) problems.push(`${path}: cites a note outside the repository`);
    for (const m of text.matchAll(/docs\/design\.md#([\w-]+)/g))
      if (!anchors.has(m[1]!)) problems.push(`${path}: cites docs/design.md#${m[1]}, which has no such anchor`);
  }
  assert.deepEqual(problems, []);
  assert.ok(anchors.size >= 20, `docs/design.md has ${anchors.size} anchors`);
});
