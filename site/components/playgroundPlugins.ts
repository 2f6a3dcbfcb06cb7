/**
 * Plugin files in the playground: a `.js`/`.mjs` file chosen in the page is imported as an ES
 * module from a Blob URL (the same file `consolesr --plugin` takes: its default export is one
 * plugin or an array of them), run through the library's conformance checks (checkPlugins, as
 * `consolesr check-plugin` does, on the page's tfjs), and only then added to the plugins the
 * runs register. A file that fails anywhere is one InputError line and adds nothing.
 *
 * Importing a plugin runs its code in this page, as `--plugin` runs it in the CLI: plugins are
 * trusted code. Unlike the CLI, the page cannot stop a plugin call that never returns.
 */
import {
  checkPlugins,
  createRegistries,
  formatFailure,
  InputError,
  loadTf,
  type Plugin,
  type Registries,
} from "../lib/index.js";
import katex from "katex";
import { importPluginSource } from "../report/index.js";

/** A symbol's LaTeX rendered as the pages render it (check-plugin's "latex" check). */
const renderLatex = (latex: string) => void katex.renderToString(latex, { throwOnError: true });

export { importPluginSource, PLUGIN_EXTENSIONS } from "../report/index.js";

/** The first line of what was thrown. */
const errorLine = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!;
const fileError = (name: string, message: string) => new InputError(`plugin file ${name}: ${message}`);

/** What loading a file added. */
export interface PluginLoad {
  file: string;
  plugins: Plugin[];
}

const names = (registries: Registries) => ({
  symbol: registries.symbols.names(),
  constraint: registries.constraints.names(),
  reward: registries.rewards.names(),
});

/**
 * Imports and checks a plugin file's source against the built-ins and the plugins loaded before
 * (`loaded`); resolves to its plugins, or rejects with one line naming the file, the plugin and
 * the first failed check (and how many more failed).
 */
export async function loadPluginSource(source: string, name: string, loaded: readonly Plugin[]): Promise<PluginLoad> {
  const candidates = await importPluginSource(source, name);
  const reports = checkPlugins(candidates, {
    // tfjs loads on first use (the library's loadTf): the checks run the symbols' apply on it.
    tf: await loadTf(),
    seed: 0,
    origin: name,
    renderLatex,
    registered: names(createRegistries(loaded)),
  });
  const failures = reports.flatMap((report) => report.failures);
  if (failures.length > 0) {
    const more =
      failures.length > 1 ? ` (and ${failures.length - 1} more failed check${failures.length > 2 ? "s" : ""})` : "";
    throw fileError(name, `${formatFailure(failures[0]!)}${more}`);
  }
  // Registering is the last gate (checkPlugins already refused a taken name): it throws, and nothing is kept.
  try {
    createRegistries([...loaded, ...candidates]);
  } catch (cause) {
    throw fileError(name, errorLine(cause));
  }
  const file = { file: name, source };
  for (const plugin of candidates as Plugin[]) sources.set(plugin, file);
  return { file: name, plugins: candidates as Plugin[] };
}

/** Each loaded plugin's file: the search worker imports that source again (searchWorker.ts). */
const sources = new WeakMap<Plugin, { file: string; source: string }>();

/** The files of `plugins` (each once, in load order), for a run in the search worker. */
export function pluginFiles(plugins: readonly Plugin[]): { file: string; source: string }[] {
  const files: { file: string; source: string }[] = [];
  for (const plugin of plugins) {
    const file = sources.get(plugin);
    if (!file) throw new InputError(`plugin ${plugin.name}: its file's source is not known to the page`);
    if (!files.includes(file)) files.push(file);
  }
  return files;
}
