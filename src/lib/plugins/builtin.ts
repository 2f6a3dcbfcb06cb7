import {
  Registry,
  registerPlugins,
  type ConstraintPlugin,
  type Registries,
  type RewardPlugin,
  type SymbolPlugin,
} from "./kinds.js";
import { builtinSymbols } from "./symbols/index.js";
import staticConstraint from "./constraints/static.js";
import dynamicConstraint from "./constraints/dynamic.js";
import invNrmse from "./rewards/invNrmse.js";
import parsimony from "./rewards/parsimony.js";

export const builtinConstraints: ConstraintPlugin[] = [staticConstraint, dynamicConstraint];
export const builtinRewards: RewardPlugin[] = [invNrmse, parsimony];
export { builtinSymbols };

/** A fresh registry of the built-in symbols; callers may register their own on top. */
export function createSymbolRegistry(extra: readonly SymbolPlugin[] = []): Registry<SymbolPlugin> {
  return new Registry<SymbolPlugin>("symbol", [...builtinSymbols, ...extra]);
}

export function createConstraintRegistry(extra: readonly ConstraintPlugin[] = []): Registry<ConstraintPlugin> {
  return new Registry<ConstraintPlugin>("constraint", [...builtinConstraints, ...extra]);
}

export function createRewardRegistry(extra: readonly RewardPlugin[] = []): Registry<RewardPlugin> {
  return new Registry<RewardPlugin>("reward", [...builtinRewards, ...extra]);
}

/**
 * Fresh registries of the built-ins with user plugins (any kinds, validated) registered on
 * top: a symbol becomes usable in a pool and a form, a constraint and a reward by name.
 */
export function createRegistries(extra: readonly unknown[] = []): Registries {
  const registries: Registries = {
    symbols: createSymbolRegistry(),
    constraints: createConstraintRegistry(),
    rewards: createRewardRegistry(),
  };
  return registerPlugins(registries, extra);
}
