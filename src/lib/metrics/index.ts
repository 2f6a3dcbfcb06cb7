/** Metrics of paper §5.1 and docs/design.md#metrics: NRMSE, E_c and exact recovery. */
export { nrmse, std } from "../numeric/index.js";
export { coefficientError, exactRecovery, type RecoveryCheck } from "./recovery.js";
export { leaveOneOutNrmse, tangentColumns } from "./leaveOneOut.js";
