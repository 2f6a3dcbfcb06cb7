/**
 * Processes for the benchmarks that run the CLI and Redis (bench/sweep.ts, bench/queue.ts): the
 * CLI timed to its end, a long-running process awaited until it says it is ready, a free port, and
 * the cleanup of everything started (and of the benchmark's folder) when the benchmark exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/consolesr.js", import.meta.url));

const children = new Set<ChildProcess>();
const folders = new Set<string>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Removes `folder` when the benchmark exits. */
export function cleanUp(folder: string): void {
  folders.add(folder);
}

/** Runs the CLI in `cwd` to its end; its wall time in seconds (a failure stops the bench with its stderr). */
export function timed(args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, "--quiet"], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("exit", (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`consolesr ${args.join(" ")}: exit ${code}\n${stderr}`)),
    );
  });
}

/** Starts a long-running process in `cwd`; resolves once its output matches `ready`. */
export function background(command: string, args: string[], ready: RegExp, cwd: string): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let text = "";
  return new Promise((resolve, reject) => {
    const check = (chunk: string) => {
      text += chunk;
      if (ready.test(text)) resolve(child);
    };
    child.stdout!.setEncoding("utf8").on("data", check);
    child.stderr!.setEncoding("utf8").on("data", check);
    child.on("exit", (code) => reject(new Error(`${command} ${args.join(" ")} ended (${code}): ${text}`)));
  });
}

/** A TCP port of 127.0.0.1 nothing listens on. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/** A throwaway redis-server on a free port (no persistence); its URL. */
export async function startRedis(cwd: string): Promise<string> {
  const port = await freePort();
  await background(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    /Ready to accept connections/,
    cwd,
  );
  return `redis://127.0.0.1:${port}`;
}
