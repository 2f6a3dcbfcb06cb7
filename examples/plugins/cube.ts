/**
 * An outer-function plugin: y = L³, where the cube root of y is a short sum of products (a
 * volume from a length that is itself a sum, a cubic response). Its inverse is the real cube root,
 * defined for every y, so its domain is all finite numbers; `check-plugin` checks that
 * apply(inverse(y)) = y there.
 *
 *   consolesr fit data.csv --plugin examples/plugins/cube.ts --target y
 */
import type { OuterPlugin } from "consolesr/sdk";

export default {
  kind: "outer",
  name: "cube",
  apply: (v: number) => v * v * v,
  inverse: (y: number) => Math.cbrt(y),
  domain: (y: number) => Number.isFinite(y),
  text: (inner: string) => `(${inner})^3`,
  latex: (inner: string) => `\\left(${inner}\\right)^{3}`,
  cost: 2,
  description: "y = L³, fitted as ∛y = L",
} satisfies OuterPlugin;
