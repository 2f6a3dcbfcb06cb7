import { Registry, type ConstraintPlugin, type RewardPlugin, type SymbolPlugin } from "../lib/plugins.js";
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
