/** The sweep room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export {
  expandSweepSpec,
  parseSweepSpec,
  type SweepJob,
  type SweepSpec,
  sweepSpecSchema,
  type VariantSettings,
} from "./spec.js";
