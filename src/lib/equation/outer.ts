/**
 * Outer functions: an equation y = g(L(x)) where L is one LoCaL (a sum of products) and g one of a
 * small documented set. The search finds L by fitting the transformed target T(y) = g⁻¹(y), a sum
 * of products where y itself is not (y = √(a² + 2·b²): y² is; y = 1/(1/a + 1/b): 1/y is;
 * y = exp(a + b·c): log y is). docs/design.md#outer.
 *
 * Each outer function states the targets it can describe (`fits`: every y of the data must be in
 * g's range, so that T(y) is finite and g(T(y)) = y), its inverse T, its text and LaTeX, and what
 * it adds to an equation's complexity (`cost`, counted like the factors of a term, so the answer
 * rule prefers y = L where that fits as well). Float64 arithmetic and the library's deterministic
 * exp and log: the same bits in every engine.
 */
import { exp, InputError, log } from "../core/index.js";
import { outerPlugin, type OuterPlugin } from "../plugins/index.js";

/** The built-in outer functions. */
export type BuiltinOuterName = "sqrt" | "inverse" | "square" | "inverse-sqrt" | "exp";
/** A built-in's name, or an outer-function plugin's (registered: outerOf finds it). */
export type OuterName = string;

export interface OuterFunction {
  name: OuterName;
  /** One line for the reference. */
  description: string;
  /** y = g(L). */
  apply: (value: number) => number;
  /** T(y) = g⁻¹(y): the target the LoCaL is fitted to. */
  transform: (y: number) => number;
  /** Whether every y of a target lies where g⁻¹ is defined and g(g⁻¹(y)) = y. */
  fits: (y: ArrayLike<number>) => boolean;
  text: (inner: string) => string;
  latex: (inner: string) => string;
  /** Added to the equation's complexity. */
  cost: number;
}

const every = (y: ArrayLike<number>, ok: (v: number) => boolean): boolean => {
  if (y.length === 0) return false;
  for (let i = 0; i < y.length; i++) if (!ok(y[i]!)) return false;
  return true;
};
const positive = (y: ArrayLike<number>) => every(y, (v) => v > 0 && Number.isFinite(v));
/** Of one sign and never 0 (1/y stays on one branch). */
const oneSign = (y: ArrayLike<number>) => positive(y) || every(y, (v) => v < 0 && Number.isFinite(v));

export const OUTERS: Record<BuiltinOuterName, OuterFunction> = {
  sqrt: {
    name: "sqrt",
    description: "y = √L, fitted as y² = L (y > 0): the root of a sum of squares",
    apply: (v) => Math.sqrt(v),
    transform: (y) => y * y,
    fits: positive,
    text: (inner) => `sqrt(${inner})`,
    latex: (inner) => `\\sqrt{${inner}}`,
    cost: 2,
  },
  inverse: {
    name: "inverse",
    description: "y = 1/L, fitted as 1/y = L (y of one sign): the reciprocal of a sum",
    apply: (v) => 1 / v,
    transform: (y) => 1 / y,
    fits: oneSign,
    text: (inner) => `1/(${inner})`,
    latex: (inner) => `\\frac{1}{${inner}}`,
    cost: 2,
  },
  square: {
    name: "square",
    description: "y = L², fitted as √y = L (y > 0): the square of a sum",
    apply: (v) => v * v,
    transform: (y) => Math.sqrt(y),
    fits: positive,
    text: (inner) => `(${inner})^2`,
    latex: (inner) => `\\left(${inner}\\right)^{2}`,
    cost: 2,
  },
  "inverse-sqrt": {
    name: "inverse-sqrt",
    description: "y = L^(−1/2), fitted as y⁻² = L (y > 0): a quantity over the root of a sum",
    apply: (v) => 1 / Math.sqrt(v),
    transform: (y) => 1 / (y * y),
    fits: positive,
    text: (inner) => `(${inner})^(-1/2)`,
    latex: (inner) => `\\left(${inner}\\right)^{-1/2}`,
    cost: 3,
  },
  exp: {
    name: "exp",
    description: "y = exp(L), fitted as log y = L (y > 0): the exponential of a sum",
    apply: (v) => exp(v),
    transform: (y) => log(y),
    fits: positive,
    text: (inner) => `exp(${inner})`,
    latex: (inner) => `e^{${inner}}`,
    cost: 2,
  },
};

/** The built-in outer functions in the order the search tries them (plugins' after them). */
export const OUTER_NAMES = Object.keys(OUTERS) as BuiltinOuterName[];

export const isOuterName = (name: unknown): name is OuterName =>
  typeof name === "string" && (Object.hasOwn(OUTERS, name) || outerPlugin(name) !== undefined);

/** An outer-function plugin (plugins/outers.ts) as an outer function. */
function fromPlugin(plugin: OuterPlugin): OuterFunction {
  return {
    name: plugin.name,
    description: plugin.description ?? `an outer-function plugin: ${plugin.name}`,
    apply: plugin.apply,
    transform: plugin.inverse,
    fits: (y) => every(y, (v) => plugin.domain(v) && Number.isFinite(plugin.inverse(v))),
    text: plugin.text,
    latex: plugin.latex,
    cost: plugin.cost,
  };
}

/** The outer function of that name: a built-in, or a registered plugin's (plugins/outers.ts). */
export function outerOf(name: OuterName): OuterFunction {
  if (Object.hasOwn(OUTERS, name)) return OUTERS[name as BuiltinOuterName];
  const plugin = outerPlugin(name);
  if (!plugin)
    throw new InputError(
      `unknown outer function "${name}" (built-in: ${OUTER_NAMES.join(", ")}; a plugin's needs its plugin)`,
    );
  return fromPlugin(plugin);
}

/** Applies g in place to the LoCaL's values. */
export function applyOuter(name: OuterName, values: Float64Array): Float64Array {
  const g = outerOf(name).apply;
  for (let i = 0; i < values.length; i++) values[i] = g(values[i]!);
  return values;
}
