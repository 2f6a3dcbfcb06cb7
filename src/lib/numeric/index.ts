/** The numeric room's door: what other folders of the library use from it (scripts/boundaries.ts). */
export { nrmse, std } from "./nrmse.js";
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
