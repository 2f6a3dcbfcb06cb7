/**
 * The git commit a result records (its manifest's `git`): one reading of HEAD for the CLI, the
 * site's data loaders, the freshness script and the benchmarks, so that all of them name a
 * checkout the same way. Node only (it runs git); the library takes the sha as an argument.
 */
import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

let sha: string | undefined;

/**
 * The git commit of consolesr's own checkout, or "unknown" when consolesr does not run from one
 * (an installed package inside a user's repository must not record the user's HEAD).
 */
export function gitSha(): string {
  if (sha !== undefined) return sha;
  sha = "unknown";
  try {
    const root = realpathSync(fileURLToPath(new URL("../..", import.meta.url)));
    const [top, head] = execFileSync("git", ["rev-parse", "--show-toplevel", "HEAD"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    })
      .toString()
      .trim()
      .split("\n");
    if (top && head && realpathSync(top) === root) sha = head;
  } catch {
    // not a git checkout, or no git
  }
  return sha;
}
