/** What a search is built from: symbols, constraints, rewards and outer functions as plugins, in registries. */
export {
  builtinConstraints,
  builtinRewards,
  builtinSymbols,
  createConstraintRegistry,
  createRegistries,
  createRewardRegistry,
  createSymbolRegistry,
} from "./builtin.js";
export {
  type ConstraintContext,
  type ConstraintPlugin,
  defineConstraint,
  defineReward,
  defineOuter,
  defineSymbol,
  guardSymbol,
  isAsyncFunction,
  type Plugin,
  type Product,
  registerPlugins,
  type Registries,
  Registry,
  type RewardFit,
  type RewardPlugin,
  type OuterPlugin,
  type SymbolPlugin,
  type SymbolRegistry,
  validatePlugin,
} from "./kinds.js";
export { fraction, powerName, powerOfName, powerSymbol } from "./powers.js";
export { addOuterPlugin, BUILTIN_OUTER_NAMES, outerPlugin } from "./outers.js";
