/**
 * The process-wide table of outer-function plugins (kind "outer"), by name. Equations name their
 * outer function and are evaluated, printed and read back by name (equation/outer.ts outerOf looks
 * here after the built-ins); which outer functions a search tries is its registries' business
 * (Registry.outers). A plugin registered again under its name replaces the earlier definition.
 */
import { InputError } from "../core/index.js";
import type { OuterPlugin } from "./kinds.js";

/** The built-in outer functions' names (equation/outer.ts defines them): no plugin may take one. */
export const BUILTIN_OUTER_NAMES = ["sqrt", "inverse", "square", "inverse-sqrt", "exp"] as const;

const table = new Map<string, OuterPlugin>();

const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** Adds (or replaces) an outer-function plugin, every function guarded (a throw names the plugin). */
export function addOuterPlugin(plugin: OuterPlugin): void {
  if ((BUILTIN_OUTER_NAMES as readonly string[]).includes(plugin.name))
    throw new InputError(`plugin ${plugin.name}: field "name": a built-in outer function is named "${plugin.name}"`);
  const guarded =
    <A extends unknown[], R>(key: string, f: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return f.apply(plugin, args);
      } catch (cause) {
        throw new InputError(`plugin ${plugin.name}: ${key} threw: ${describe(cause)}`);
      }
    };
  table.set(plugin.name, {
    ...plugin,
    apply: guarded("apply", plugin.apply),
    inverse: guarded("inverse", plugin.inverse),
    domain: guarded("domain", plugin.domain),
    text: guarded("text", plugin.text),
    latex: guarded("latex", plugin.latex),
  });
}

/** The registered outer-function plugin of that name, if any. */
export const outerPlugin = (name: string): OuterPlugin | undefined => table.get(name);
