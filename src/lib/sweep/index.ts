/** Sweeps: a spec's grid of configurations, checked and expanded into named jobs (docs/design.md#sweeps). */
export {
  expandSweepSpec,
  parseSweepSpec,
  type SweepJob,
  type SweepSpec,
  sweepSpecSchema,
  type VariantSettings,
} from "./spec.js";
