/**
 * Loading `--plugin <file>` (Node only): a .js, .mjs, .cjs, .ts or .mts file whose default export
 * is one plugin or an array of plugins. Files are imported through tsx, so TypeScript needs no
 * build step, wherever the file lives (inside this package or not). Registering them into the
 * registries is the library's job (registerPlugins); this file only turns a path into objects
 * and prefixes every problem with `plugin file <path>: `. In the plugin worker (supervisor.ts),
 * the import and every plugin function are watched (watch.ts), so that one that never returns is
 * stopped and named.
 */
import { InvalidArgumentError, type Command } from "commander";
import { existsSync, realpathSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InputError } from "../../lib/core/index.js";
import { registerPlugins, validatePlugin, type Plugin, type Registries } from "../../lib/plugins/index.js";
import { createRegistries } from "../../lib/plugins/index.js";
import { DEFAULT_PLUGIN_MEMORY_MB, DEFAULT_PLUGIN_TIMEOUT_S } from "./supervisor.js";
import { watchLoading, watchPlugin } from "./watch.js";

export const PLUGIN_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts"];

/** What `--plugin` and check-plugin promise about plugin code (for --help). */
export const TRUST_NOTE =
  "plugins are trusted code, run with your permissions: consolesr runs them in a separate thread and stops a call " +
  "(or a file's import) that outlasts --plugin-timeout, nothing more";

/** A `--plugin-timeout <seconds>` value: a positive number. */
export function parsePluginTimeout(value: string): number {
  const seconds = Number(value);
  if (!(seconds > 0) || !Number.isFinite(seconds))
    throw new InvalidArgumentError("must be a positive number of seconds");
  return seconds;
}

/** A `--plugin-memory <MB>` value: a whole number of MB, at least 64. */
export function parsePluginMemory(value: string): number {
  const mb = Number(value);
  if (!Number.isInteger(mb) || mb < 64 || mb > 1_048_576)
    throw new InvalidArgumentError("must be a whole number of MB from 64 to 1048576");
  return mb;
}

/**
 * Adds `--plugin-timeout` and `--plugin-memory` to a command that takes `--plugin` (the supervisor
 * reads them, see supervisor.ts).
 */
export const addPluginTimeoutFlag = (command: Command): Command =>
  command
    .option(
      "--plugin-timeout <seconds>",
      `stop the command (exit 2, naming the plugin) when one call of plugin code, or the import of a plugin file, ` +
        `runs longer than this (default ${DEFAULT_PLUGIN_TIMEOUT_S})`,
      parsePluginTimeout,
    )
    .option(
      "--plugin-memory <MB>",
      `the heap limit of the thread that runs a command with plugins: plugin code that allocates past it is ` +
        `stopped (exit 2, naming the plugin) (default ${DEFAULT_PLUGIN_MEMORY_MB})`,
      parsePluginMemory,
    );

/** commander collector for a repeatable option. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A multi-line message as one line: its lines joined by spaces. */
const joinLines = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

function fileError(path: string, message: string): InputError {
  return new InputError(`plugin file ${path}: ${message}`);
}

/**
 * Imports a plugin file: JavaScript natively, TypeScript through tsx, loaded only when a .ts file
 * is given (the compiled CLI needs no tsx otherwise). A .js file with `export` syntax in a
 * CommonJS folder, which Node cannot load as it is, goes through tsx too.
 */
async function importModule(absolute: string): Promise<unknown> {
  const url = pathToFileURL(absolute).href;
  const viaTsx = async () => {
    let tsx: typeof import("tsx/esm/api");
    try {
      tsx = await import("tsx/esm/api");
    } catch {
      // tsx is an optional peer dependency of the package (a dependency of the checkout).
      throw new TsxMissing(
        "is TypeScript (or ES-module syntax in a CommonJS folder), which needs tsx: run `npm install tsx` " +
          "in your project, or compile the plugin to .js (.mjs for ES-module syntax)",
      );
    }
    return tsx.tsImport(url, import.meta.url);
  };
  // From the sources tsx already runs every import (its loader is registered): let it do this one
  // too, as it always has; natively, a .js file would meet tsx's loader half-way.
  if (extname(absolute) === ".ts" || extname(absolute) === ".mts" || import.meta.url.endsWith(".ts")) return viaTsx();
  try {
    return await import(url);
  } catch (error) {
    if (error instanceof SyntaxError) return viaTsx();
    throw error;
  }
}

/** The import of a plugin file that needs tsx where tsx is not installed. */
class TsxMissing extends Error {}

/** The default export of a plugin file, unvalidated: one object or an array of them. */
export async function importPluginFile(path: string): Promise<unknown[]> {
  const absolute = resolve(path);
  if (!existsSync(absolute)) throw fileError(path, "no such file");
  if (statSync(absolute).isDirectory()) throw fileError(path, "is a directory, not a plugin file");
  if (!PLUGIN_EXTENSIONS.includes(extname(absolute)))
    throw fileError(path, `must be a ${PLUGIN_EXTENSIONS.join(", ")} file`);
  let module: Record<string, unknown>;
  try {
    module = (await watchLoading(path, () => importModule(absolute))) as Record<string, unknown>;
  } catch (cause) {
    if (cause instanceof TsxMissing) throw fileError(path, cause.message);
    throw fileError(path, `cannot be imported: ${joinLines(cause instanceof Error ? cause.message : String(cause))}`);
  }
  let exported = module.default;
  // A file loaded as CommonJS (a .ts or .js outside an ES-module package) comes back wrapped:
  // { default: { default: plugin } } for `export default`, { default: plugin } for module.exports,
  // and { default: { x }, x } for named exports only.
  if (exported && typeof exported === "object" && !Array.isArray(exported) && !("kind" in exported)) {
    if ("default" in exported) exported = (exported as { default: unknown }).default;
    else if (Object.keys(exported).some((key) => key in module && key !== "default")) exported = undefined;
  }
  if (exported === undefined) {
    throw fileError(
      path,
      "has no default export; " +
        'write `export default { kind: "symbol", … }` (one plugin) or `export default [ … ]` (several)',
    );
  }
  const plugins = Array.isArray(exported) ? exported : [exported];
  if (plugins.length === 0) throw fileError(path, "exports an empty array: no plugin");
  return plugins.map((plugin, i) => {
    try {
      return watchPlugin(plugin, path);
    } catch (error) {
      // A getter (kind, name) that throws: the file's fault, not consolesr's.
      throw fileError(path, `${plugins.length > 1 ? `export #${i + 1}` : "the default export"}: ${thrown(error)}`);
    }
  });
}

/** What a plugin threw, in one line (an Error's message, or the thrown value). */
const thrown = (error: unknown): string =>
  joinLines(error instanceof Error ? error.message : `threw ${typeof error === "string" ? error : String(error)}`);

/** A plugin file's plugins, validated (messages name the file, the plugin and the field). */
export async function loadPluginFile(path: string): Promise<Plugin[]> {
  const candidates = await importPluginFile(path);
  return candidates.map((candidate, i) => {
    try {
      return validatePlugin(candidate, candidates.length > 1 ? `export #${i + 1}` : "the default export");
    } catch (error) {
      throw fileError(path, error instanceof InputError ? error.message : thrown(error));
    }
  });
}

export interface LoadedPlugins {
  registries: Registries;
  /** Plugin name → the file it came from, per kind (for `consolesr plugins`). */
  origins: Map<string, string>;
}

/** A file's absolute path with its links resolved (as given, made absolute, where it cannot be). */
function realPath(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/** The built-in registries with every --plugin file's plugins registered on top (each file once). */
export async function loadRegistries(files: readonly string[] = []): Promise<LoadedPlugins> {
  const registries = createRegistries();
  const origins = new Map<string, string>();
  // The same file given twice (pl/a.mjs and ./pl/a.mjs, or a link to it) is loaded once: its
  // second load clashed with its first ("already registered (by pl/a.mjs)").
  const loaded = new Set<string>();
  for (const file of files) {
    const path = realPath(file);
    if (loaded.has(path)) continue;
    loaded.add(path);
    const plugins = await loadPluginFile(file);
    try {
      registerPlugins(registries, plugins);
    } catch (error) {
      const clash = plugins.find((p) => (error as Error).message.startsWith(`plugin ${p.name}:`));
      const taken =
        clash &&
        (clash.kind === "symbol"
          ? registries.symbols
          : clash.kind === "constraint"
            ? registries.constraints
            : registries.rewards
        ).has(clash.name);
      const where = !clash
        ? ""
        : !taken
          ? " (twice in this file)"
          : ` (by ${origins.get(`${clash.kind}:${clash.name}`) ?? "a built-in"})`;
      throw fileError(file, `${(error as Error).message}${where}`);
    }
    for (const p of plugins) origins.set(`${p.kind}:${p.name}`, file);
  }
  return { registries, origins };
}
