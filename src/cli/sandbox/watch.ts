/**
 * The plugin worker's side of the watchdog (supervisor.ts is the other side). Every function a
 * plugin file's plugin brings (evaluate, apply, check, score, …) is wrapped so that, while it
 * runs, two Int32 slots of a SharedArrayBuffer say which one it is: slot 0 its id (0: no plugin
 * code running), slot 1 a count of calls entered, so that a call that runs on and on leaves both
 * unchanged. The import of a plugin file (its top-level code) is marked the same way. Each id's
 * label (file, plugin, function) goes to the supervisor once, as a message, when the id is made.
 *
 * A call costs two Int32 writes and a read more (evaluate is called per data point). Outside the
 * worker (no attachWatch: the in-process CLI, tests, the library) nothing is wrapped.
 */
import { format } from "node:util";
import { isAsyncFunction } from "../../lib/plugins/index.js";

/** What the supervisor prints for an id: `plugin file <file>: <what> <verb> within …`. */
export interface WatchLabel {
  type: "watch-label";
  id: number;
  file: string;
  what: string;
  verb: string;
  /** The import of a plugin file (its top-level code), rather than a plugin's function. */
  loading?: boolean;
}

/** Slots of the shared state: the running id, the calls entered. */
export const WATCH_SLOTS = 2;

let state: Int32Array | undefined;
let send: ((label: WatchLabel) => void) | undefined;
let nextId = 1;

/** Who each id is, as plugin output is prefixed: `plugin file F: symbol "cube"`. */
const speakers = new Map<number, string>();

/** The console methods a plugin may print with; in the worker they all write to stderr. */
const CONSOLE_METHODS = ["log", "info", "debug", "warn", "error", "trace", "dir", "table"] as const;

/**
 * Turns the watch on (in the plugin worker): `buffer` is shared with the supervisor, `post` sends
 * it each label. The console goes to stderr, each line prefixed with the plugin code that printed
 * it: stdout holds the equations alone (consolesr itself writes there with process.stdout.write).
 */
export function attachWatch(buffer: SharedArrayBuffer, post: (label: WatchLabel) => void): void {
  state = new Int32Array(buffer, 0, WATCH_SLOTS);
  send = post;
  for (const method of CONSOLE_METHODS)
    console[method] = (...args: unknown[]) => {
      const speaker = speakers.get(state![0]!) ?? "plugin code";
      const text = format(...args).replace(/\n$/, "");
      process.stderr.write(
        `${text
          .split("\n")
          .map((line) => `[${speaker}] ${line}`)
          .join("\n")}\n`,
      );
    };
}

function label(file: string, what: string, verb: string, loading?: boolean): number {
  const id = nextId++;
  speakers.set(id, `plugin file ${file}${loading ? "" : `: ${what.replace(/: \w+$/, "")}`}`);
  send!({ type: "watch-label", id, file, what, verb, ...(loading ? { loading } : {}) });
  return id;
}

/** Runs `load` (the import of plugin file `file`) marked as that file's top-level code. */
export async function watchLoading<T>(file: string, load: () => Promise<T>): Promise<T> {
  const s = state;
  if (!s) return load();
  const id = label(file, "its top-level code", "did not finish", true);
  const outer = s[0]!;
  s[0] = id;
  s[1] = s[1]! + 1;
  try {
    return await load();
  } finally {
    s[0] = outer;
  }
}

/** The functions of the three plugin kinds that consolesr calls. */
const FUNCTIONS = [
  "text",
  "latex",
  "evaluate",
  "apply",
  "derivative",
  "domain",
  "fold",
  "describe",
  "check",
  "keep",
  "score",
];

type AnyFunction = (...args: unknown[]) => unknown;

/** The symbol functions of one number, called in the fit's inner loops. */
const SCALAR = new Set(["evaluate", "derivative", "domain"]);

function wrap(key: string, original: AnyFunction, self: unknown, id: number, s: Int32Array): AnyFunction {
  // An async function stays async (validation refuses it, naming the field); its synchronous
  // start, where a loop would hang, is watched all the same.
  if (isAsyncFunction(original)) {
    return async (...args: unknown[]) => {
      const outer = s[0]!;
      s[0] = id;
      s[1] = s[1]! + 1;
      try {
        return original.apply(self, args);
      } finally {
        s[0] = outer;
      }
    };
  }
  if (SCALAR.has(key)) {
    // f(x), called per data point: no rest arguments.
    return (x: unknown) => {
      const outer = s[0]!;
      s[0] = id;
      s[1] = s[1]! + 1;
      try {
        return original.call(self, x);
      } finally {
        s[0] = outer;
      }
    };
  }
  return (...args: unknown[]) => {
    const outer = s[0]!;
    s[0] = id;
    s[1] = s[1]! + 1;
    try {
      return original.apply(self, args);
    } finally {
      s[0] = outer;
    }
  };
}

/**
 * A copy of a plugin file's export whose functions are watched (called on the original object,
 * so `this` is unchanged); anything that is not an object comes back as it is, for validation to
 * report.
 */
export function watchPlugin<T>(candidate: T, file: string): T {
  const s = state;
  if (!s || typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) return candidate;
  const source = candidate as Record<string, unknown>;
  const kind = typeof source.kind === "string" ? source.kind : "plugin";
  const name = typeof source.name === "string" && source.name ? JSON.stringify(source.name) : "(no name)";
  // The same prototype and own properties (getters included), so the copy reads like the original.
  const own = Object.getOwnPropertyDescriptors(source);
  for (const descriptor of Object.values(own)) descriptor.configurable = true;
  const copy = Object.create(Object.getPrototypeOf(source), own) as Record<string, unknown>;
  for (const key of FUNCTIONS) {
    const original = source[key];
    if (typeof original !== "function") continue;
    const value = wrap(
      key,
      original as AnyFunction,
      source,
      label(file, `${kind} ${name}: ${key}`, "did not return"),
      s,
    );
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy as T;
}
