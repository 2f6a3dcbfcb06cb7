/** Small seeded datasets shared by the test files. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import type { Dataset } from "../../src/lib/data/dataset.js";
import { createRng } from "../../src/lib/core/rng.js";

/** y = f(x1, x2) on `rows` rows of x1, x2 ~ U(lo, hi) drawn from createRng(seed) (every x1, then every x2). */
export function twoInputs(
  rows: number,
  seed: number,
  [lo, hi]: [number, number],
  f: (x1: number, x2: number) => number,
): Dataset {
  const rng = createRng(seed);
  const x1 = Float64Array.from({ length: rows }, () => rng.uniform(lo, hi));
  const x2 = Float64Array.from({ length: rows }, () => rng.uniform(lo, hi));
  const y = x1.map((a, i) => f(a, x2[i]!));
  return { inputs: ["x1", "x2"], targets: ["y"], x: [x1, x2], y: [y], rows };
}

/** A writer of files into `dir`: name and text in, path out. */
export const fileIn =
  (dir: string) =>
  (name: string, text: string | Uint8Array): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

/** 200 rows of x1, x2 on [1, 2] (deterministic, no RNG) and y = 2·x1·x2, as CSV text. */
export function productCsv(): string {
  const lines = ["x1,x2,y"];
  for (let i = 0; i < 200; i++) {
    const x1 = 1 + ((i * 37) % 200) / 200;
    const x2 = 1 + ((i * 91 + 13) % 200) / 200;
    lines.push(`${x1},${x2},${2 * x1 * x2}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A folder of the test file's own under the system's temporary folder, readable by other users
 * (the tests that run the CLI as another user read from it) and removed when the file's tests end.
 */
export function testDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `consolesr-${name}-`));
  chmodSync(dir, 0o755);
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
