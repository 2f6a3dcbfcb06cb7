/**
 * Long-running children for the tests that need servers and workers: a child whose output can be
 * waited on (`startProcess`), a fresh redis-server (`startRedis`), and `killStarted` for an
 * `after` hook, which ends every child still running.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./cli.js";

/** A long-running child whose stdout and stderr can be waited on. */
export interface Running {
  child: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
  exited: Promise<number | null>;
}

const live = new Set<ChildProcess>();

/** Kills (SIGKILL) every child startProcess started that has not exited. */
export function killStarted(): void {
  for (const child of live) child.kill("SIGKILL");
}

export function startProcess(
  command: string,
  args: string[],
  { env, cwd }: { env?: Record<string, string>; cwd?: string } = {},
): Running {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  live.add(child);
  let text = "";
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!])
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      for (const check of waiters) check();
    });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      live.delete(child);
      for (const check of waiters) check();
      resolve(code);
    }),
  );
  const waitFor = (pattern: RegExp, ms = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${args.join(" ")}: no ${pattern} in ${ms} ms; output: ${text}`));
      }, ms);
      const check = () => {
        if (pattern.test(text)) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`${args.join(" ")} ended before ${pattern}; output: ${text}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, output: () => text, waitFor, exited };
}

/** A fresh redis-server on a free port of 127.0.0.1 (or `port`), without persistence; stopped with `stop()`. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  port ??= await freePort();
  const redis = startProcess("redis-server", [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
  ]);
  await redis.waitFor(/Ready to accept connections/);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      redis.child.kill("SIGKILL");
      await redis.exited;
    },
  };
}
