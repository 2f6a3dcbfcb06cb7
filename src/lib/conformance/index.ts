/** The conformance room's door: what other folders of the library use from it (scripts/boundaries.ts). */
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
