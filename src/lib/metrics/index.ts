/** Metrics of paper §5.1 and DESIGN "Metrics": NRMSE, E_c and exact recovery. */
export { nrmse, std } from "./nrmse.js";
export { coefficientError, exactRecovery, type RecoveryCheck } from "./recovery.js";
