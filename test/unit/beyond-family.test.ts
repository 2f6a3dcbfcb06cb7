/**
 * The "beyond" benchmark family (src/lib/data/beyond.ts): laws that are not one sum of products
 * (ratios, target transforms, functions of monomials), made for the project before the search
 * could fit any of them. Its promises: at least 25 laws, at least 6 of each kind, 3 or more inputs
 * in at least half, ranges not all U(1, 2), none from the literature list or its exclusions; every
 * law finite on its training and test ranges; seeded data; and the same-law rule that judges it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { beyondData, beyondEntries, sameLaw } from "../../src/lib/data/beyond.js";
import { benchmarkEntries, benchmarkExcluded } from "../../src/lib/data/benchmark.js";

test("at least 25 laws: 6 or more of each kind, 3 or more inputs in half, ranges not all U(1, 2)", () => {
  assert.ok(beyondEntries.length >= 25, `${beyondEntries.length} laws`);
  for (const kind of ["ratio", "transform", "monomial"] as const)
    assert.ok(beyondEntries.filter((e) => e.kind === kind).length >= 6, kind);
  assert.equal(new Set(beyondEntries.map((e) => e.id)).size, beyondEntries.length, "ids are unique");
  const wide = beyondEntries.filter((e) => e.inputs.length >= 3).length;
  assert.ok(2 * wide >= beyondEntries.length, `${wide} of ${beyondEntries.length} have 3 or more inputs`);
  const ranges = beyondEntries.flatMap((e) => e.inputs.map((i) => i.range.join(",")));
  assert.ok(new Set(ranges).size >= 10, "ranges vary");
  assert.ok(ranges.filter((r) => r === "1,2").length < ranges.length / 4, "ranges are not mostly U(1, 2)");
  assert.ok(
    beyondEntries.some((e) => e.inputs.some((i) => i.range[0] < 0)),
    "some inputs take negative values",
  );
});

test("no law is taken from the literature list or its exclusions", () => {
  const squash = (text: string) => text.replace(/^y\s*=\s*/, "").replace(/\s+/g, "");
  const known = new Set([...benchmarkEntries, ...benchmarkExcluded].map((e) => squash(e.original)));
  for (const e of beyondEntries) assert.ok(!known.has(squash(e.truth)), `${e.id}: ${e.truth}`);
});

test("every law is finite on its training and its wider test ranges, and the data are seeded", () => {
  for (const e of beyondEntries) {
    const { train, test: held } = beyondData(e, { seed: 3, rows: 400 });
    for (const set of [train, held]) {
      assert.deepEqual(
        set.inputs,
        e.inputs.map((i) => i.name),
      );
      const y = set.y[0]!;
      assert.ok(y.every(Number.isFinite), `${e.id}: a non-finite value`);
      let mean = 0;
      for (const v of y) mean += v / y.length;
      assert.ok(
        y.some((v) => Math.abs(v - mean) > 1e-6 * (Math.abs(mean) + 1)),
        `${e.id}: y is constant`,
      );
    }
    const again = beyondData(e, { seed: 3, rows: 400 });
    assert.deepEqual(again.train.y[0], train.y[0]);
    assert.notDeepEqual(beyondData(e, { seed: 4, rows: 400 }).train.y[0], train.y[0]);
  }
});

test("the same-law rule: agreement to 1e-9 relative at every held-out point", () => {
  const y = Float64Array.from([1, -2, 3.5, 0, 1e-3]);
  assert.equal(sameLaw(y, y).same, true);
  assert.equal(
    sameLaw(
      y.map((v) => v * (1 + 1e-12)),
      y,
    ).same,
    true,
  );
  assert.equal(
    sameLaw(
      y.map((v) => v * (1 + 1e-7)),
      y,
    ).same,
    false,
  );
  // One point off is enough to fail, and a NaN prediction is never the same law.
  const off = Float64Array.from(y);
  off[4] = 2e-3;
  assert.equal(sameLaw(off, y).same, false);
  const nan = Float64Array.from(y);
  nan[0] = Number.NaN;
  assert.equal(sameLaw(nan, y).same, false);
});

/** A small reader of the laws as written (numbers, inputs, + - * / ^, parentheses, sqrt exp sin cos). */
function written(text: string, names: readonly string[]): (x: readonly number[]) => number {
  const tokens = text.replace(/^y\s*=\s*/, "").match(/\d+(?:\.\d+)?|[a-z]+|[-+*/^()]/g)!;
  let at = 0;
  type F = (x: readonly number[]) => number;
  const peek = () => tokens[at];
  const take = () => tokens[at++]!;
  const functions: Record<string, (v: number) => number> = {
    sqrt: Math.sqrt,
    exp: Math.exp,
    sin: Math.sin,
    cos: Math.cos,
  };
  const atom = (): F => {
    const t = take();
    if (t === "(") {
      const inner = sum();
      take();
      return inner;
    }
    if (t === "-") {
      const inner = power();
      return (x) => -inner(x);
    }
    if (/^\d/.test(t)) return () => Number(t);
    if (functions[t]) {
      take();
      const inner = sum();
      take();
      return (x) => functions[t]!(inner(x));
    }
    const k = names.indexOf(t);
    assert.ok(k >= 0, `unknown name ${t} in ${text}`);
    return (x) => x[k]!;
  };
  const power = (): F => {
    const base = atom();
    if (peek() !== "^") return base;
    take();
    const exponent = atom();
    return (x) => base(x) ** exponent(x);
  };
  const product = (): F => {
    let left = power();
    while (peek() === "*" || peek() === "/") {
      const op = take();
      const right = power();
      const l = left;
      left = op === "*" ? (x) => l(x) * right(x) : (x) => l(x) / right(x);
    }
    return left;
  };
  const sum = (): F => {
    let left = product();
    while (peek() === "+" || peek() === "-") {
      const op = take();
      const right = product();
      const l = left;
      left = op === "+" ? (x) => l(x) + right(x) : (x) => l(x) - right(x);
    }
    return left;
  };
  const f = sum();
  assert.equal(at, tokens.length, `trailing tokens in ${text}`);
  return f;
}

test("each law's function computes the law as written (to 1e-12 relative on its test ranges)", () => {
  for (const e of beyondEntries) {
    const read = written(
      e.truth,
      e.inputs.map((i) => i.name),
    );
    const { test: held } = beyondData(e, { seed: 5, rows: 200 });
    for (let r = 0; r < held.rows; r++) {
      const x = held.x.map((column) => column[r]!);
      const want = read(x);
      assert.ok(
        Math.abs(held.y[0]![r]! - want) <= 1e-12 * (Math.abs(want) + 1),
        `${e.id} at ${x}: ${held.y[0]![r]} vs ${want}`,
      );
    }
  }
});
