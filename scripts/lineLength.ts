/**
 * Lists every line longer than MAX_LINE characters in the project's code, and exits 1 when there is one. Biome formats
 * code to the same width (biome.json's lineWidth) but leaves long strings, template literals and comments as they are;
 * this check catches those. Run: node --import tsx scripts/lineLength.ts (part of npm run lint).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

process.chdir(fileURLToPath(new URL("..", import.meta.url))); // the folders are relative to the repository root

const MAX_LINE = 120;

/** The folders checked: code files (CODE) under them, tracked or not ignored by git. */
const FOLDERS = ["src/lib", "src/cli", "site/components", "site/data", "test", "bench", "scripts", "bin", "examples"];

const CODE = /\.(ts|js|mjs|cjs)$/;

/** The code files under FOLDERS: git's list (tracked, and untracked but not ignored), or a walk outside a checkout. */
function codeFiles(): string[] {
  let files: string[];
  try {
    const args = ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...FOLDERS];
    files = execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\0");
  } catch {
    files = FOLDERS.filter((folder) => existsSync(folder)).flatMap((folder) =>
      readdirSync(folder, { recursive: true, encoding: "utf8" })
        .map((f) => join(folder, f))
        .filter((f) => !f.split(/[\\/]/).includes("node_modules")),
    );
  }
  return [...new Set(files)].filter((f) => CODE.test(f)).sort();
}

let long = 0;
for (const file of codeFiles()) {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // in git's index but deleted from the working tree
  }
  text.split(/\r?\n/).forEach((line, i) => {
    const length = [...line].length; // characters (code points), not UTF-16 units or bytes
    if (length > MAX_LINE) {
      long++;
      console.log(`${file}:${i + 1}: ${length} characters`);
    }
  });
}
if (long > 0) {
  console.error(`${long} line(s) longer than ${MAX_LINE} characters: break strings and comments, Biome will not`);
  process.exit(1);
}
