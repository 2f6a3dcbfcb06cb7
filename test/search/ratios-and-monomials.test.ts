/**
 * Ratios and monomial arguments (docs/design.md#ratio, #monomial), and outer functions of sums of
 * three-factor products: laws of this file's own making (not the beyond benchmark's) recovered
 * with default flags as the same law (1e-9 relative on held-out points of wider ranges); the
 * result carries `denominator` or `monomial` and requires it; text, LaTeX (KaTeX renders it) and
 * predict include them; `reproduce` re-runs a ratio and a monomial law exactly through the CLI;
 * readers refuse a denominator or a monomial argument not listed in `requires`; a sum of products
 * needing three-factor products keeps its plain form.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import katex from "katex";
import { sameLaw } from "../../src/lib/data/beyond.js";
import {
  createRng,
  equationLatex,
  equationText,
  fit,
  isInputError,
  parseResult,
  resultSchemaProblems,
  resultToJson,
  type Equation,
  type ResultJson,
} from "../../src/lib/index.js";
import { BUILTIN_OUTER_NAMES, createRegistries } from "../../src/lib/plugins/index.js";
import { OUTER_NAMES } from "../../src/lib/equation/index.js";
import { configFromManifest } from "../../src/lib/run/index.js";
import cube from "../../examples/plugins/cube.js";
import { cli } from "../helpers/cli.js";
import { testDir } from "../helpers/data.js";

type Law = (x: readonly number[]) => number;

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Train rows on `ranges`, held-out rows on ranges widened by a quarter each side. */
function draw(ranges: [number, number][], law: Law, seed: number, rows = 300) {
  const rng = createRng(seed);
  const sample = (wide: boolean) =>
    Array.from({ length: rows }, () =>
      ranges.map(([lo, hi]) => {
        const pad = wide ? (hi - lo) / 8 : 0;
        return rng.uniform(lo - pad, hi + pad);
      }),
    );
  const X = sample(false);
  const held = sample(true);
  return { X, y: X.map(law), held, truth: held.map(law) };
}

async function recover(ranges: [number, number][], law: Law, seed = 3) {
  const { X, y, held, truth } = draw(ranges, law, seed);
  const result = await fit({ X, y, names: ["a", "b", "c"].slice(0, ranges.length), seed });
  const equation = result.equations[0]!;
  const json = JSON.parse(resultToJson(result)) as ResultJson;
  return { result, equation, json, verdict: sameLaw(equation.predict(held), truth) };
}

const laws: {
  name: string;
  ranges: [number, number][];
  law: Law;
  check: (json: ResultJson) => void;
}[] = [
  {
    name: "y = (2·a + b·c)/(1 + a·b), a ratio with a constant in its denominator",
    ranges: [
      [0.5, 2],
      [0.2, 1.5],
      [-1, 1],
    ],
    law: ([a, b, c]) => (2 * a! + b! * c!) / (1 + a! * b!),
    check: (json) => {
      assert.deepEqual(json.requires, ["denominator"]);
      assert.equal(json.equations[0]!.denominator!.constant, 1);
    },
  },
  {
    name: "y = (a + b)/(a + 2·c·b), a ratio without a constant",
    ranges: [
      [0.5, 3],
      [0.5, 2],
      [0.5, 2],
    ],
    law: ([a, b, c]) => (a! + b!) / (a! + 2 * c! * b!),
    check: (json) => assert.deepEqual(json.requires, ["denominator"], json.equations[0]!.text),
  },
  {
    name: "y = 2·sin(0.8·a·c) + b, a function of a monomial plus an input",
    ranges: [
      [0.2, 1.5],
      [-1, 1],
      [0.5, 1.5],
    ],
    law: ([a, b, c]) => 2 * Math.sin(0.8 * a! * c!) + b!,
    check: (json) => {
      assert.deepEqual(json.requires, ["monomial"]);
      const factors = json.equations[0]!.terms.flatMap((t) => t.factors);
      const monomial = factors.find((f) => f.monomial)!;
      assert.deepEqual(
        monomial.monomial!.map((q) => q.input).sort(),
        ["a", "c"],
        JSON.stringify(json.equations[0]!.terms),
      );
    },
  },
  {
    name: "y = b·exp(−a/c), an input times a function of a monomial",
    ranges: [
      [0.2, 2],
      [0.5, 3],
      [0.5, 2],
    ],
    law: ([a, b, c]) => b! * Math.exp(-a! / c!),
    check: (json) => assert.deepEqual(json.requires, ["monomial"]),
  },
  {
    name: "y = 1/(1 + a·b·c), the reciprocal of a sum with a three-factor product",
    ranges: [
      [0.5, 2],
      [0.5, 2],
      [0.2, 2],
    ],
    law: ([a, b, c]) => 1 / (1 + a! * b! * c!),
    check: (json) => assert.deepEqual(json.requires, ["outer"]),
  },
];

for (const { name, ranges, law, check } of laws) {
  test(`${name}: recovered with default flags, the same law on held-out points`, async () => {
    const { result, equation, json, verdict } = await recover(ranges, law);
    assert.ok(verdict.same, `${equation.text}: worst ${verdict.worst}`);
    assert.equal(result.search.stopReason, "reward-threshold", equation.text);
    check(json);
    assert.deepEqual(resultSchemaProblems(json), []);
    assert.doesNotThrow(() => katex.renderToString(equation.latex, { throwOnError: true }), equation.latex);
    // It reads back, and predicts the same from the JSON alone.
    const read = parseResult(resultToJson(result), "r.json");
    assert.deepEqual(read.equations[0], json.equations[0]);
  });
}

test("an outer-function plugin (examples/plugins/cube.ts): tried by the fits given it, and only by them", async () => {
  const ranges: [number, number][] = [
    [0.5, 2],
    [-1, 1],
    [0.5, 1.5],
  ];
  const { X, y, held, truth } = draw(ranges, ([a, b, c]) => (a! + 2 * b! * c!) ** 3, 6);
  const names = ["a", "b", "c"];
  const result = await fit({ X, y, names, seed: 6, plugins: [cube] });
  const equation = result.equations[0]!;
  assert.equal(equation.outer, "cube", equation.text);
  assert.match(equation.text, /^\(.*\)\^3$/);
  assert.ok(sameLaw(equation.predict(held), truth).same, equation.text);
  assert.deepEqual((JSON.parse(resultToJson(result)) as ResultJson).requires, ["outer"]);
  assert.doesNotThrow(() => katex.renderToString(equation.latex, { throwOnError: true }));
  // A fit without the plugin never answers with it (its outer functions are its registries').
  const without = await fit({ X, y, names, seed: 6, timeLimit: 3 });
  assert.notEqual(without.equations[0]!.outer, "cube");
});

test("a sum of products with a three-factor product keeps its plain form (no ratio, no monomial)", async () => {
  const { equation, json, verdict } = await recover(
    [
      [0.5, 2],
      [0.5, 2],
      [0.5, 2],
    ],
    ([a, b, c]) => 1.5 * a! * b! * c! + 2 * c! * c!,
  );
  assert.ok(verdict.same, equation.text);
  assert.equal(json.requires, undefined, equation.text);
});

test("a result made before ratios and monomial arguments (none in its config) re-runs without them", () => {
  const old = JSON.parse(readFileSync(join(repo, "data/results/mas-seed0.json"), "utf8"));
  assert.equal("ratio" in old.manifest.config || "monomial" in old.manifest.config, false);
  const config = configFromManifest(parseResult(JSON.stringify(old), "old.json"), "old.json") as {
    ratio?: boolean;
    monomial?: boolean;
  };
  assert.equal(config.ratio, false);
  assert.equal(config.monomial, false);
  // The built-in outer functions and the plugin table agree on the names no plugin may take.
  assert.deepEqual([...OUTER_NAMES].sort(), [...BUILTIN_OUTER_NAMES].sort());
});

test("text and LaTeX of a ratio and of monomial arguments", () => {
  const symbols = createRegistries().symbols;
  const lookup = (name: string) => symbols.get(name);
  const ratio: Equation = {
    target: "y",
    terms: [
      { coefficient: 2, factors: [{ symbol: "x", input: "a" }] },
      { coefficient: 1, factors: [{ symbol: "x", input: "b" }] },
    ],
    denominator: [
      { coefficient: 1, factors: [{ symbol: "x", input: "a" }] },
      { coefficient: 1, factors: [] },
    ],
  };
  assert.equal(equationText(ratio, lookup), "(2*a + b)/(a + 1)");
  assert.equal(equationLatex(ratio, lookup), "\\frac{2 a + b}{a + 1}");
  const parts = [
    { input: "a", power: 1 },
    { input: "b", power: 1 },
    { input: "c", power: -1 },
  ];
  const decay: Equation = {
    target: "y",
    terms: [{ coefficient: 2, factors: [{ symbol: "exp", input: "a*b/c", weight: -1, monomial: parts }] }],
  };
  assert.equal(equationText(decay, lookup), "2*exp(-(a*b/c))");
  const wave: Equation = {
    target: "y",
    terms: [{ coefficient: 1, factors: [{ symbol: "sin", input: "a*b/c", monomial: parts }] }],
  };
  assert.equal(equationText(wave, lookup), "sin(a*b/c)");
  assert.equal(equationLatex(wave, lookup), "\\sin\\left(\\frac{a b}{c}\\right)");
  const square: Equation = {
    target: "y",
    terms: [{ coefficient: 1, factors: [{ symbol: "x^2", input: "a*b/c", monomial: parts }] }],
  };
  assert.equal(equationText(square, lookup), "(a*b/c)^2");
  for (const e of [ratio, decay, wave, square])
    assert.doesNotThrow(() => katex.renderToString(equationLatex(e, lookup), { throwOnError: true }));
});

test("readers refuse a denominator or a monomial argument not listed in requires, in one line", () => {
  const base = JSON.parse(readFileSync(join(repo, "data/results/mas-seed0.json"), "utf8")) as {
    equations: Record<string, unknown>[];
  };
  const refused = (equation: Record<string, unknown>, requires?: string[]) => {
    const value = { ...base, ...(requires ? { requires } : {}), equations: [{ ...base.equations[0], ...equation }] };
    try {
      parseResult(JSON.stringify(value), "r.json");
    } catch (error) {
      assert.ok(isInputError(error), String(error));
      assert.doesNotMatch((error as Error).message, /\n/);
      return (error as Error).message;
    }
    return "read";
  };
  const denominator = { terms: [{ coefficient: 1, factors: [{ symbol: "x", input: "b" }] }], constant: 1 };
  assert.match(
    refused({ denominator }),
    /equations\[0\] has a denominator, but the result does not list "denominator"/,
  );
  assert.match(
    refused({ denominator: [1] }, ["denominator"]),
    /equations\[0\]\.denominator must be \{ terms, constant\? \}/,
  );
  const monomial = [
    { input: "a", power: 1 },
    { input: "b", power: -1 },
  ];
  const terms = [{ coefficient: 1, factors: [{ symbol: "sin", input: "a/b", monomial }] }];
  assert.match(refused({ terms }), /has a monomial argument, but the result does not list "monomial"/);
  const badTerms = [
    { coefficient: 1, factors: [{ symbol: "sin", input: "a/b", monomial: [{ input: "a", power: 0.5 }] }] },
  ];
  assert.match(
    refused({ terms: badTerms }, ["monomial"]),
    /monomial must be a list of \{ input, power: a non-zero integer \}/,
  );
});

test("through the CLI: a ratio and a monomial law from CSV files, each reproduced exactly", async () => {
  const dir = testDir("ratios-and-monomials");
  for (const [file, ranges, law, shape] of [
    [
      "ratio",
      [
        [0.5, 3],
        [0.2, 1],
      ],
      ([a, b]: readonly number[]) => (a! - b!) / (a! + 2 * b!),
      /^y = \(.*\)\/\(.*\)$/m,
    ],
    [
      "monomial",
      [
        [0.5, 2],
        [0.5, 2],
        [-1, 1],
      ],
      ([a, b, c]: readonly number[]) => 3 * Math.exp((-0.5 * a!) / b!) + c!,
      /exp\(/,
    ],
  ] as const) {
    const { X, y } = draw(ranges as unknown as [number, number][], law, 5, 200);
    const csv = join(dir, `${file}.csv`);
    const header = [..."abc".slice(0, ranges.length), "y"].join(",");
    writeFileSync(csv, `${header}\n${X.map((row, r) => [...row, y[r]].join(",")).join("\n")}\n`);
    const out = join(dir, `${file}.json`);
    const run = await cli(["fit", csv, "--target", "y", "--quiet", "--out", out]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, shape);
    const again = await cli(["reproduce", out, "--quiet"]);
    assert.equal(again.code, 0, again.stderr + again.stdout);
    assert.match(again.stdout + again.stderr, /reproduced exactly/);
  }
});
