#!/usr/bin/env node
// consolesr's command. An installed package runs its compiled JavaScript (build/, made by
// `npm run build:lib` on prepare/prepack) on plain Node. In a checkout (src/ beside bin/) it runs
// build/ too when that is newer than every source it was built from (src/lib,
// src/cli, src/report, src/framework), and otherwise the TypeScript sources through tsx, so that
// what you edit is what runs.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../src/cli/main.ts", import.meta.url);
const compiled = new URL("../build/cli/main.js", import.meta.url);

/** The newest (or, with `oldest`, the oldest) modification time of the files under a folder. */
function mtimeUnder(folder, oldest = false) {
  let out = oldest ? Number.POSITIVE_INFINITY : 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const time = statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs;
    out = oldest ? Math.min(out, time) : Math.max(out, time);
  }
  return out;
}

/** Whether build/ was made after the last change to any source it is built from. */
function buildIsFresh() {
  if (!existsSync(compiled)) return false;
  const sources = ["lib", "cli", "report", "framework"].map((d) =>
    fileURLToPath(new URL(`../src/${d}`, import.meta.url)),
  );
  const newest = Math.max(...sources.map((d) => mtimeUnder(d)));
  return mtimeUnder(fileURLToPath(new URL("../build", import.meta.url)), true) > newest;
}

if (existsSync(source) && !buildIsFresh()) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(compiled.href);
}
