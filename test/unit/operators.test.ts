// The named moves of consolesr's proposals (src/lib/search/operators.ts): each move does what
// its name says, and over 1,000 draws of `mutate` every move is seen and no child breaks the limits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../src/lib/core/rng.js";
import {
  addFactor,
  addProduct,
  crossover,
  dropFactor,
  dropProduct,
  flipBits,
  mutate,
  PRODUCT_MOVES,
  randomProduct,
  replaceProduct,
  swapFactor,
  type MoveInput,
  type ProductLimits,
  type Products,
} from "../../src/lib/search/operators.js";

const limits: ProductLimits = { allowed: [0, 1, 2, 4, 5, 7, 8], maxFactors: 3, maxTerms: 3 };
const donated = [7, 8];
const input = (products: Products, j: number, seed = 1): MoveInput => ({
  products: products.map((p) => [...p]),
  j,
  limits,
  rng: createRng(seed),
  donor: () => [...donated],
});

function assertWithin(products: Products, where: string) {
  assert.ok(products.length >= 1 && products.length <= limits.maxTerms, `${where}: ${products.length} products`);
  for (const p of products) {
    assert.ok(p.length >= 1 && p.length <= limits.maxFactors, `${where}: product [${p}] has ${p.length} factors`);
    assert.equal(new Set(p).size, p.length, `${where}: product [${p}] repeats a neuron`);
    for (const i of p) assert.ok(limits.allowed.includes(i), `${where}: neuron ${i} is not allowed`);
  }
}

test("swapFactor replaces one factor of the chosen product by a neuron it lacks, and leaves the others", () => {
  for (let seed = 0; seed < 50; seed++) {
    const out = swapFactor(input([[0, 1], [2]], 0, seed));
    assert.deepEqual(out[1], [2]);
    assert.equal(out[0]!.length, 2);
    const changed = out[0]!.filter((i) => ![0, 1].includes(i));
    assert.equal(changed.length, 1, `[${out[0]}]`);
    assert.ok(limits.allowed.includes(changed[0]!));
  }
});

test("addFactor grows a product with room and swaps in a full one", () => {
  const grown = addFactor(input([[0, 1]], 0));
  assert.equal(grown[0]!.length, 3);
  assert.deepEqual(grown[0]!.slice(0, 2), [0, 1]);
  const full = addFactor(input([[0, 1, 2]], 0));
  assert.equal(full[0]!.length, 3);
  assert.equal(full[0]!.filter((i) => [0, 1, 2].includes(i)).length, 2, "one factor swapped");
});

test("dropFactor removes one factor, and replaces a single-factor product by the donor", () => {
  const out = dropFactor(input([[0, 1, 2]], 0));
  assert.equal(out[0]!.length, 2);
  assert.ok(out[0]!.every((i) => [0, 1, 2].includes(i)));
  assert.deepEqual(dropFactor(input([[4], [0, 1]], 0)), [donated, [0, 1]]);
});

test("addProduct appends the donor, or replaces the chosen product when the sum is full", () => {
  assert.deepEqual(addProduct(input([[0]], 0)), [[0], donated]);
  assert.deepEqual(addProduct(input([[0], [1], [2]], 1)), [[0], donated, [2]]);
});

test("dropProduct removes the chosen product, and replaces the only one by the donor", () => {
  assert.deepEqual(dropProduct(input([[0], [1, 2]], 1)), [[0]]);
  assert.deepEqual(dropProduct(input([[0, 1]], 0)), [donated]);
});

test("replaceProduct puts the donor in the chosen slot", () => {
  assert.deepEqual(replaceProduct(input([[0], [1, 2]], 0)), [donated, [1, 2]]);
});

test(
  "mutate: over 1,000 draws every move is seen, " +
    "every child keeps the limits, and the parent is never edited in place",
  () => {
    const rng = createRng(3);
    const parents: Products[] = [[[0, 1], [2]], [[4, 5, 7]], [[8], [0, 2, 4], [1]]];
    const seen = new Map<string, number>();
    for (let draw = 0; draw < 1000; draw++) {
      const parent = parents[draw % parents.length]!;
      const before = JSON.stringify(parent);
      const { products, move } = mutate(parent, parents, limits, rng);
      assert.equal(JSON.stringify(parent), before, "the parent is unchanged");
      assertWithin(products, `${move} of ${before}`);
      seen.set(move, (seen.get(move) ?? 0) + 1);
    }
    assert.deepEqual([...seen.keys()].sort(), PRODUCT_MOVES.map((m) => m.name).sort());
    for (const [move, count] of seen)
      assert.ok(count > 100, `${move} drawn ${count} times of 1,000 (uniform: about 167)`);
  },
);

test("crossover takes 1…maxTerms products, all from the two parents", () => {
  const rng = createRng(4);
  const a: Products = [[0, 1], [2]];
  const b: Products = [[4], [5, 7], [8]];
  const from = new Set([...a, ...b].map((p) => p.join(".")));
  const sizes = new Set<number>();
  for (let draw = 0; draw < 1000; draw++) {
    const child = crossover(a, b, limits, rng);
    assertWithin(child, "crossover");
    for (const p of child) assert.ok(from.has(p.join(".")), `[${p}] is not a parent's product`);
    sizes.add(child.length);
  }
  assert.deepEqual([...sizes].sort(), [1, 2, 3]);
});

test("randomProduct draws 1…maxFactors distinct allowed neurons, every size and every neuron", () => {
  const rng = createRng(5);
  const sizes = new Set<number>();
  const neurons = new Set<number>();
  for (let draw = 0; draw < 1000; draw++) {
    const p = randomProduct(limits, rng);
    assertWithin([p], "randomProduct");
    sizes.add(p.length);
    for (const i of p) neurons.add(i);
  }
  assert.deepEqual([...sizes].sort(), [1, 2, 3]);
  assert.deepEqual(
    [...neurons].sort((x, y) => x - y),
    [...limits.allowed],
  );
});

test("flipBits flips one or two free entries and never a fixed one", () => {
  const rng = createRng(6);
  const previous = Float64Array.from([1, 0, 1, 0, 1, 0]);
  const lower = Float64Array.from([1, 0, 0, 0, 0, 0]);
  const upper = Float64Array.from([1, 0, 1, 1, 1, 1]);
  const flips = new Set<number>();
  for (let draw = 0; draw < 1000; draw++) {
    const a = flipBits(previous, { lower, upper }, rng);
    assert.equal(a[0], 1, "fixed to 1");
    assert.equal(a[1], 0, "fixed to 0");
    const changedAt = [...a].flatMap((v, i) => (v !== previous[i] ? [i] : []));
    const changed = changedAt.length;
    assert.ok(changed <= 2, `${changed} entries changed`);
    assert.ok(
      changedAt.every((i) => i >= 2),
      `a fixed entry changed: ${changedAt}`,
    );
    flips.add(changed);
  }
  // Two flips of the same entry cancel: 0 changes happen, as do 1 and 2.
  assert.deepEqual([...flips].sort(), [0, 1, 2]);
});
