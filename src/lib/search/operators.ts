/**
 * Named moves on structures, as pure functions of (parents, limits, rng): a structure is its
 * list of products, each a list of neuron indices. The moves are what consolesr's proposals
 * climb with (docs/deviations.md): on single products of several factors a factor swap is
 * the move that climbs; on sums, products are added, dropped, replaced and crossed over.
 */
import type { Rng } from "../core/index.js";
import { shuffle } from "./cmp.js";

export type Products = number[][];

export interface ProductLimits {
  /** The neurons a product may use (domain-safe ones). */
  allowed: readonly number[];
  maxFactors: number;
  maxTerms: number;
}

/** What a move edits: a copy of the parent, the product it works on, and where new products come from. */
export interface MoveInput {
  products: Products;
  /** Index of the product the move edits. */
  j: number;
  limits: ProductLimits;
  rng: Rng;
  /** A product from another good structure or a random one. */
  donor: () => number[];
}

export type ProductMove = (m: MoveInput) => Products;

/** A neuron not yet in product j, or undefined when every allowed one is. */
function freshNeuron({ products, j, limits, rng }: MoveInput): number | undefined {
  const free = limits.allowed.filter((i) => !products[j]!.includes(i));
  return free.length > 0 ? free[rng.int(free.length)]! : undefined;
}

/** Replaces one factor of product j by a neuron it lacks. */
export const swapFactor: ProductMove = (m) => {
  const product = m.products[m.j]!;
  const n = freshNeuron(m);
  if (n !== undefined) product[m.rng.int(product.length)] = n;
  return m.products;
};

/** Adds a factor to product j (a swap when it is full). */
export const addFactor: ProductMove = (m) => {
  const product = m.products[m.j]!;
  const n = freshNeuron(m);
  if (n !== undefined && product.length < m.limits.maxFactors) product.push(n);
  else if (n !== undefined) product[m.rng.int(product.length)] = n;
  return m.products;
};

/** Drops a factor of product j (a donor replaces a single-factor product). */
export const dropFactor: ProductMove = (m) => {
  const product = m.products[m.j]!;
  if (product.length > 1) product.splice(m.rng.int(product.length), 1);
  else m.products[m.j] = m.donor();
  return m.products;
};

/** Adds a donor product (replaces product j when the sum is full). */
export const addProduct: ProductMove = (m) => {
  if (m.products.length < m.limits.maxTerms) m.products.push(m.donor());
  else m.products[m.j] = m.donor();
  return m.products;
};

/** Drops product j (a donor replaces the only product). */
export const dropProduct: ProductMove = (m) => {
  if (m.products.length > 1) m.products.splice(m.j, 1);
  else m.products[m.j] = m.donor();
  return m.products;
};

/** Replaces product j by a donor. */
export const replaceProduct: ProductMove = (m) => {
  m.products[m.j] = m.donor();
  return m.products;
};

/** The moves, drawn uniformly by `mutate`. */
export const PRODUCT_MOVES: readonly { name: string; move: ProductMove }[] = [
  { name: "swap-factor", move: swapFactor },
  { name: "add-factor", move: addFactor },
  { name: "drop-factor", move: dropFactor },
  { name: "add-product", move: addProduct },
  { name: "drop-product", move: dropProduct },
  { name: "replace-product", move: replaceProduct },
];

/** A product of 1…maxFactors distinct allowed neurons. */
export function randomProduct(limits: ProductLimits, rng: Rng): number[] {
  const size = 1 + rng.int(limits.maxFactors);
  const out = new Set<number>();
  while (out.size < Math.min(size, limits.allowed.length)) out.add(limits.allowed[rng.int(limits.allowed.length)]!);
  return [...out];
}

/**
 * One move on a copy of `source`: a random product of it, a random move; new products come half
 * from another parent (when there are two or more), half at random.
 */
export function mutate(
  source: Products,
  parents: readonly Products[],
  limits: ProductLimits,
  rng: Rng,
): { products: Products; move: string } {
  const products = source.map((p) => [...p]);
  const j = rng.int(products.length);
  const other = parents.length > 1 ? parents[rng.int(parents.length)] : undefined;
  const donor = () => (other && rng.next() < 0.5 ? [...other[rng.int(other.length)]!] : randomProduct(limits, rng));
  const { name, move } = PRODUCT_MOVES[rng.int(PRODUCT_MOVES.length)]!;
  return { products: move({ products, j, limits, rng, donor }), move: name };
}

/** A random subset of the products of two parents (how the terms of a sum are combined). */
export function crossover(a: Products, b: Products, limits: ProductLimits, rng: Rng): Products {
  const union = shuffle([...a, ...b], rng);
  return union.slice(0, 1 + rng.int(Math.min(limits.maxTerms, union.length)));
}

/** Flips one or two free entries of a previous action (a local move around the best trajectory). */
export function flipBits(
  previous: Float64Array,
  bounds: { lower: Float64Array; upper: Float64Array },
  rng: Rng,
): Float64Array {
  const a = Float64Array.from(previous, (v, i) => Math.min(bounds.upper[i]!, Math.max(bounds.lower[i]!, v)));
  const free = Array.from(a.keys()).filter((i) => bounds.upper[i]! > bounds.lower[i]!);
  const flips = 1 + rng.int(2);
  for (let f = 0; f < flips && free.length > 0; f++) {
    const i = free[rng.int(free.length)]!;
    a[i] = 1 - a[i]!;
  }
  return a;
}
