/**
 * A plugin file's source imported as an ES module from a Blob URL (the same file `consolesr
 * --plugin` takes: its default export is one plugin or an array of them). The page imports it to
 * check it (playgroundPlugins.ts); the search worker imports the same source again to run it
 * (searchWorker.ts): a page's objects cannot cross into a worker, their source can.
 */
import { InputError } from "../lib/index.js";

export const PLUGIN_EXTENSIONS = [".js", ".mjs"];

/** The first line of what was thrown. */
const errorLine = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!;
const fileError = (name: string, message: string) => new InputError(`plugin file ${name}: ${message}`);

/** The default export of a plugin module's source, unvalidated: one object or an array of them. */
export async function importPluginSource(source: string, name: string): Promise<unknown[]> {
  if (!PLUGIN_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext)))
    throw fileError(name, `must be a ${PLUGIN_EXTENSIONS.join(" or ")} file (an ES module)`);
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  let module: { default?: unknown };
  try {
    module = await import(url);
  } catch (cause) {
    throw fileError(name, `cannot be imported: ${errorLine(cause)}`);
  } finally {
    URL.revokeObjectURL(url);
  }
  const exported = module.default;
  if (exported === undefined) {
    throw fileError(
      name,
      'has no default export; write `export default { kind: "symbol", … }` (one plugin) or `export default [ … ]`',
    );
  }
  const plugins = Array.isArray(exported) ? exported : [exported];
  if (plugins.length === 0) throw fileError(name, "exports an empty array: no plugin");
  return plugins;
}
