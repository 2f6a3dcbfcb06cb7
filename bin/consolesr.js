#!/usr/bin/env node
// consolesr's command. In a checkout (src/ beside bin/) it runs the TypeScript sources through
// tsx, so that what you edit is what runs; an installed package runs its compiled JavaScript
// (build/, made by `npm run build:lib` on prepare/prepack) on plain Node, without tsx.
import { existsSync } from "node:fs";

const source = new URL("../src/cli/main.ts", import.meta.url);
if (existsSync(source)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../build/cli/main.js", import.meta.url).href);
}
