import { Registry, type SymbolPlugin } from "../lib/plugins.js";
import { builtinSymbols } from "./symbols/index.js";

export { builtinSymbols };

/** A fresh registry of the built-in symbols; callers may register their own on top. */
export function createSymbolRegistry(extra: readonly SymbolPlugin[] = []): Registry<SymbolPlugin> {
  return new Registry<SymbolPlugin>("symbol", [...builtinSymbols, ...extra]);
}
