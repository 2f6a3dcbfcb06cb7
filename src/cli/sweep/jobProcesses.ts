/**
 * A pool of `consolesr sweep-worker` child processes, each running one sweep job at a time: the
 * local sweep's pool and the queue worker (`consolesr worker`) both hand their jobs to it, so a
 * job's heavy work runs off the calling process's event loop, on as many cores as the pool has
 * children. Children start on demand; one that dies under a job fails that job (its reply says
 * how it ended) and a fresh child takes the next.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SummaryRow, SweepJob } from "./sweep.js";

/** What a child is sent: a job, the file to write its result to (else the result comes back as text), its CSV. */
export interface JobRequest {
  job: SweepJob;
  file?: string;
  /** The CSV's bytes (base64) and SHA-256, for a worker on a machine that does not have the file. */
  csv?: { base64: string; sha256: string };
}

/** A child's answer: the summary row and (without `file`) the result's text, or the job's error. */
export interface JobReply {
  name: string;
  row?: SummaryRow;
  text?: string;
  error?: string;
  /** The error was bad input (an InputError): running the job again cannot help. */
  input?: boolean;
}

/** A reply and the wall-clock seconds from handing the job to a child to its answer. */
export interface JobOutcome {
  reply: JobReply;
  seconds: number;
}

/** The command that runs consolesr: bin/consolesr.js (tsx in a checkout, build/ in a package). */
const BIN = fileURLToPath(new URL("../../../bin/consolesr.js", import.meta.url));

interface Waiting {
  request: JobRequest;
  resolve: (outcome: JobOutcome | undefined) => void;
}

interface Child {
  process: ChildProcess;
  ready: boolean;
  current?: Waiting & { started: number };
}

export class JobProcesses {
  readonly #size: number;
  readonly #children = new Set<Child>();
  readonly #waiting: Waiting[] = [];
  #stopped = false;
  /** Children in a row that ended before they were ready: a child that cannot start at all fails the jobs. */
  #startFailures = 0;

  constructor(size: number) {
    this.#size = Math.max(1, size);
  }

  /** Runs a job in a child; undefined when the pool was stopped before the job finished. */
  run(request: JobRequest): Promise<JobOutcome | undefined> {
    if (this.#stopped) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiting.push({ request, resolve });
      this.#dispatch();
    });
  }

  /** Jobs running or waiting for a child. */
  get busy(): number {
    return this.#waiting.length + [...this.#children].filter((c) => c.current).length;
  }

  /** Ends the children at once (SIGTERM); running and waiting jobs resolve undefined. */
  stop(): void {
    this.#stopped = true;
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(undefined);
    for (const child of this.#children) {
      child.current?.resolve(undefined);
      child.current = undefined;
      child.process.kill("SIGTERM");
    }
  }

  /** Lets idle children end (they exit when their channel closes); busy ones end after their job. */
  close(): void {
    this.#stopped = true;
    for (const child of this.#children) if (!child.current) this.#release(child);
  }

  #release(child: Child): void {
    if (child.process.connected) child.process.disconnect();
  }

  #dispatch(): void {
    for (const child of this.#children) {
      if (!this.#waiting.length) return;
      if (child.ready && !child.current) this.#send(child, this.#waiting.shift()!);
    }
    const starting = [...this.#children].filter((c) => !c.ready).length;
    const more = Math.min(this.#waiting.length - starting, this.#size - this.#children.size);
    for (let i = 0; i < more; i++) this.#start();
  }

  #send(child: Child, waiting: Waiting): void {
    child.current = { ...waiting, started: performance.now() };
    child.process.send(waiting.request);
  }

  #start(): void {
    const child: Child = {
      process: fork(BIN, ["sweep-worker"], { stdio: ["ignore", "ignore", "inherit", "ipc"] }),
      ready: false,
    };
    this.#children.add(child);
    child.process.on("message", (reply: JobReply & { ready?: boolean }) => {
      if (reply.ready) {
        child.ready = true;
        this.#startFailures = 0;
      } else if (child.current) {
        const { resolve, started } = child.current;
        child.current = undefined;
        resolve({ reply, seconds: (performance.now() - started) / 1000 });
      }
      if (this.#stopped && !this.#waiting.length) this.#release(child);
      else this.#dispatch();
    });
    child.process.on("exit", (code, signal) => {
      this.#children.delete(child);
      if (child.current) {
        // The child died under a job (out of memory, killed): that job fails; a fresh child takes the rest.
        const { request, resolve, started } = child.current;
        const error = `the worker process ended (${signal ?? `exit code ${code}`})`;
        resolve({ reply: { name: request.job.name, error }, seconds: (performance.now() - started) / 1000 });
      }
      if (!child.ready && ++this.#startFailures >= 3) {
        const error = `the worker process cannot start (${signal ?? `exit code ${code}`})`;
        for (const { request, resolve } of this.#waiting.splice(0))
          resolve({ reply: { name: request.job.name, error }, seconds: 0 });
      }
      if (!this.#stopped) this.#dispatch();
    });
  }
}
