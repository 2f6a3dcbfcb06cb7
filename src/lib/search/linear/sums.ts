/**
 * Sums of products of neuron columns as least squares sees them (product pursuit, pursuit.ts):
 * a sum's basis and residual, the residual drop of one more column, and a sum without its spare
 * terms.
 */
import type { NeuronColumn } from "./columns.js";
import { dot, gramSchmidt } from "../../numeric/index.js";

/** A sum: products of neuron indices. */
export type Products = readonly (readonly number[])[];

/** Orthonormal basis of the columns' span (numeric/linalg's Gram–Schmidt) and y's residual outside it. */
export function basisOf(
  columns: readonly Float64Array[],
  y: Float64Array,
): { q: Float64Array[]; residual: Float64Array } {
  const basis = gramSchmidt(columns, { dependent: 1e-10 });
  return { q: basis.q, residual: basis.project(Float64Array.from(y)) };
}

/**
 * The residual drop of adding a column: (aᵀr)² over the part of a outside the basis q (orthonormal,
 * r already outside it); undefined where the column lies (numerically) in the basis.
 */
export function gainOf(values: Float64Array, q: readonly Float64Array[], residual: Float64Array): number | undefined {
  const aa = dot(values, values);
  const ar = dot(values, residual);
  let inside = 0;
  for (const u of q) {
    const d = dot(u, values);
    inside += d * d;
  }
  const outside = aa - inside;
  return outside > 1e-12 * aa && Number.isFinite(outside) ? (ar * ar) / outside : undefined;
}

/** Every `step`-th value of v (the rows a scan or a refinement fits on). */
export const everyStep = (v: Float64Array, step: number) =>
  Float64Array.from({ length: Math.ceil(v.length / step) }, (_, i) => v[i * step]!);

/** The key of a product (its neuron indices, sorted): the same product in any factor order. */
export const keyOf = (p: readonly number[]) => [...p].sort((a, b) => a - b).join(".");

/** A sum's least-squares view on the rows of y (sumsOf). */
export interface Sums {
  ones: Float64Array;
  /** y's centred norm (1 where y is constant): an NRMSE's denominator. */
  scale: number;
  /** A product's values on every `step`-th row. */
  valuesOf: (product: readonly number[], step?: number) => Float64Array;
  /** A sum's columns on every `step`-th row, the constant first when the sums have an intercept. */
  fixedColumns: (products: Products, step?: number) => Float64Array[];
  /** A sum's least-squares NRMSE on every row. */
  nrmseOf: (products: Products) => number;
}

/**
 * Sums of products of `neurons` as least squares sees them on the rows of y: a product's values
 * (on every `step`-th row), a sum's columns (the constant first when `intercept`) and its NRMSE
 * (residual norm over y's centred norm). `neurons` is read at each call (it may grow).
 */
export function sumsOf(neurons: readonly NeuronColumn[], y: Float64Array, intercept: boolean): Sums {
  const rows = y.length;
  const mean = y.reduce((s, v) => s + v, 0) / rows;
  const scale = Math.sqrt(y.reduce((s, v) => s + (v - mean) ** 2, 0)) || 1;
  const ones = new Float64Array(rows).fill(1);
  const valuesOf = (product: readonly number[], step = 1): Float64Array => {
    const v = new Float64Array(Math.ceil(rows / step)).fill(1);
    for (const n of product) {
      const column = neurons[n]!.values;
      for (let r = 0; r < v.length; r++) v[r]! *= column[r * step]!;
    }
    return v;
  };
  const fixedColumns = (products: Products, step = 1) => [
    ...(intercept ? [step === 1 ? ones : new Float64Array(Math.ceil(rows / step)).fill(1)] : []),
    ...products.map((p) => valuesOf(p, step)),
  ];
  const nrmseOf = (products: Products) => {
    const { residual } = basisOf(fixedColumns(products), y);
    return Math.sqrt(dot(residual, residual)) / scale;
  };
  return { ones, scale, valuesOf, fixedColumns, nrmseOf };
}

/** A sum without each term (the last first) whose removal still `holds` (exact, or noise). */
export function withoutSpares(
  products: Products,
  nrmseOf: (products: Products) => number,
  holds: (products: Products, nrmse: number) => boolean,
): { products: number[][]; nrmse: number } {
  let model = products.map((p) => [...p]);
  let nrmse = nrmseOf(model);
  for (let t = model.length - 1; t >= 0 && model.length > 1; t--) {
    const without = model.filter((_, k) => k !== t);
    const e = nrmseOf(without);
    if (holds(without, e)) {
      model = without;
      nrmse = e;
    }
  }
  return { products: model, nrmse };
}
