/** Plugin conformance: the seeded checks a symbol, constraint or reward must pass (`consolesr check-plugin`). */
export {
  checkPlugin,
  checkPlugins,
  type CheckPluginsOptions,
  formatFailure,
  type PluginCheckFailure,
  type PluginCheckReport,
  sampleConstraintContexts,
  sampleRewardFits,
} from "./check.js";
