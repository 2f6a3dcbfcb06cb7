/** The numeric kernels, one definition of each: dot, least squares, QR, Givens, Gram–Schmidt, solves, NRMSE. */
export { extent, nrmse, std } from "./nrmse.js";
export {
  dot,
  householderQr,
  leastSquares,
  givens,
  gramSchmidt,
  type GramSchmidt,
  rotate,
  solveSpd,
  solveSquare,
  type Qr,
  type QrOptions,
} from "./linalg.js";
