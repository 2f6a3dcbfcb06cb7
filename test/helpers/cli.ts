/** Spawning the CLI in tests, shared by every CLI test file. */
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const bin = join(root, "bin", "consolesr.js");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  timeoutMs?: number;
  /** Node options before the CLI's script (e.g. --max-old-space-size=256, --import a fault injector). */
  nodeArgs?: string[];
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** A command prefix, e.g. setpriv … to run the CLI as an unprivileged user. */
  wrap?: string[];
  /** Run `wrap` alone, without node, the CLI and `args` after it (it names the command itself, e.g. `script -c …`). */
  bare?: boolean;
}

/** Runs the CLI (from the repo root unless `cwd` is given); a run that outlives `timeoutMs` is killed and fails. */
export function cli(
  args: string[],
  { cwd = root, timeoutMs = 120_000, nodeArgs = [], env, wrap = [], bare = false }: CliOptions = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const command = bare ? wrap : [...wrap, process.execPath, ...nodeArgs, bin, ...args];
    const child = spawn(command[0]!, command.slice(1), {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: env ? { ...process.env, ...env } : process.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`consolesr ${args.join(" ")} did not finish in ${timeoutMs} ms (a hang)`));
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Exit 2, nothing on stdout, one `error: …` line on stderr containing every `names` string. */
export function assertInputError(run: Run, ...names: (string | RegExp)[]): string {
  const context = `stderr: ${JSON.stringify(run.stderr)}`;
  assert.equal(run.code, 2, context);
  assert.equal(run.stdout, "", context);
  assert.ok(run.stderr.endsWith("\n"), context);
  const lines = run.stderr.slice(0, -1).split("\n");
  assert.equal(lines.length, 1, `expected exactly one stderr line; ${context}`);
  const line = lines[0]!;
  assert.ok(line.startsWith("error: "), context);
  assert.ok(!line.startsWith("error: internal"), `an input problem reported as internal; ${context}`);
  for (const name of names) {
    if (typeof name === "string") assert.ok(line.includes(name), `"${name}" not named; ${context}`);
    else assert.match(line, name, context);
  }
  return line;
}

/** The CLI, sent `signal` once stderr matches `when` (then `delayMs` later); killed and failed after `timeoutMs`. */
export function cliSignalled(
  args: string[],
  when: RegExp,
  signal: NodeJS.Signals,
  { delayMs = 0, timeoutMs = 60_000 } = {},
): Promise<Run & { signal: NodeJS.Signals | null; afterSignalMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let sent = 0;
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
      if (!sent && when.test(stderr)) {
        sent = -1;
        setTimeout(() => {
          sent = performance.now();
          child.kill(signal);
        }, delayMs);
      }
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`consolesr ${args.join(" ")} did not finish in ${timeoutMs} ms (a hang); stderr: ${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code, killed) => {
      clearTimeout(timer);
      resolve({ code, signal: killed, stdout, stderr, afterSignalMs: sent > 0 ? performance.now() - sent : -1 });
    });
  });
}

/**
 * Whether `setpriv` can run node on this checkout as nobody: a checkout under a folder other users
 * cannot read (a clone under `mktemp -d`) cannot be, and the tests that drop privileges skip.
 */
export function setprivWorks(env: NodeJS.ProcessEnv = process.env, path = bin): boolean {
  const probe = spawnSync(
    "setpriv",
    [
      "--reuid=nobody",
      "--regid=nogroup",
      "--clear-groups",
      process.execPath,
      "-e",
      `require("fs").accessSync(${JSON.stringify(path)})`,
    ],
    { env, timeout: 30_000 },
  );
  return probe.status === 0;
}

/** A TCP port of 127.0.0.1 that nothing listens on (free a moment ago). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
