/**
 * The plugin SDK: the one entry point for plugin authors (guide: site/guide/plugins.md).
 *
 * A plugin is a plain object, so a plugin file needs no import of consolesr or tfjs at run time:
 * tfjs arrives as the second argument of a symbol's `apply`. Import from here for types
 * (`import type { SymbolPlugin } from ".../src/lib/sdk.js"` is erased when the file loads) or
 * for the `defineX` identity helpers, the registries and the conformance checks.
 *
 * Nothing here imports tfjs: `checkPlugins` takes it as an argument.
 */
export {
  defineSymbol,
  defineConstraint,
  defineReward,
  defineOuter,
  validatePlugin,
  registerPlugins,
  guardSymbol,
  Registry,
  type Plugin,
  type SymbolPlugin,
  type ConstraintPlugin,
  type ConstraintContext,
  type RewardPlugin,
  type OuterPlugin,
  type RewardFit,
  type Product,
  type Registries,
  type SymbolRegistry,
} from "./plugins/index.js";
export type { Operand, Tensor, Tf, TfMemory } from "./engine/index.js";
export {
  checkPlugins,
  checkPlugin,
  formatFailure,
  sampleConstraintContexts,
  sampleRewardFits,
  type CheckPluginsOptions,
  type PluginCheckReport,
  type PluginCheckFailure,
} from "./conformance/index.js";
export {
  createRegistries,
  createSymbolRegistry,
  createConstraintRegistry,
  createRewardRegistry,
  builtinSymbols,
  builtinConstraints,
  builtinRewards,
} from "./plugins/index.js";
export { InputError, isInputError } from "./core/index.js";
