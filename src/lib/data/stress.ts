/**
 * The stress families: equations of our own making, beside the literature suite of benchmark.ts,
 * for what the literature suite holds little of. None is taken from a public list of laws.
 *
 * - **Products**: sums of 2, 3 and 4 products with 3, 4 and 5 factors, with shared factors and
 *   inverse powers, on two input ranges (U(1, 3) and U(0.5, 2), mixed within some laws).
 * - **OffGrid**: laws with sin, cos and exp whose inner weights are drawn (seeded, `OFF_GRID_SEED`)
 *   away from the proposal's weight grid (every draw at least 0.2 from each grid weight, some
 *   negative: decays), coefficients drawn likewise.
 * - **Flow**: power-flow-like outputs, each a sum of 8 or 12 bilinear products of voltage parts
 *   (u near 1, v near 0) on small networks made here (rings with chords, line impedances drawn
 *   with `FLOW_SEED`): p_i = Σ_m G_im(u_i·u_m + v_i·v_m) + B_im(v_i·u_m − u_i·v_m) and
 *   q_i = Σ_m G_im(v_i·u_m − u_i·v_m) − B_im(u_i·u_m + v_i·v_m), over the neighbours m ≠ i (the
 *   diagonal terms are left out, so the pool {x} expresses every output). The inputs are every
 *   voltage part of the network, as a measured CSV would hold them. These run with `--symbols x`.
 *
 * Each entry is a BenchmarkEntry (its truth in the --form grammar with its numbers), so
 * benchmarkData draws its rows and the suite runner judges it; `unsizedPool` is the pool a user
 * passes by `--symbols` in the unsized mode (absent: every registered symbol, the default).
 *
 * Browser-safe: no node: imports.
 */
import type { BenchmarkEntry, BenchmarkFamily } from "./benchmark.js";
import { createRng } from "../core/index.js";

/** The proposal's inner-weight grid (search/linear/columns.ts WEIGHT_GRID), repeated to keep this module data-only. */
const GRID = [0.5, 1, 1.5, 2, 3, 4, 6.2832];
export const OFF_GRID_SEED = 2811;
export const FLOW_SEED = 2812;
const SOURCE = "consolesr stress families (made for the project; src/lib/data/stress.ts)";

type Ranges = Record<string, [number, number]>;

function stress(
  family: BenchmarkFamily,
  name: string,
  truth: string,
  ranges: Ranges,
  pool: string[],
  terms: number,
  maxFactors: number,
  extra: Partial<BenchmarkEntry> = {},
): BenchmarkEntry {
  return {
    id: `${family.toLowerCase()}-${name}`,
    name: `${family}-${name}`,
    family,
    source: SOURCE,
    original: truth.replace(/^y = /, ""),
    truth,
    inputs: Object.entries(ranges).map(([input, range]) => ({ name: input, range })),
    pool,
    terms,
    maxFactors,
    expressible: true,
    ...extra,
  };
}

const A: [number, number] = [1, 3];
const B: [number, number] = [0.5, 2];
const on = (names: string, ranges: [number, number][]): Ranges =>
  Object.fromEntries(names.split(",").map((n, i) => [n, ranges[i % ranges.length]!]));

const PRODUCTS: BenchmarkEntry[] = [
  stress("Products", "1", "y = 1.5*a*b*c + 0.8*a*d*e", on("a,b,c,d,e", [A]), ["x", "x^2", "x^-1"], 2, 3),
  stress("Products", "2", "y = 2.2*a*b*c^(-1) - 0.6*b*d^2*e", on("a,b,c,d,e", [B]), ["x", "x^2", "x^-1", "sqrt"], 2, 3),
  stress("Products", "3", "y = 0.9*a^2*b*c*d + 1.4*a*e", on("a,b,c,d,e", [A, B]), ["x", "x^2", "x^3"], 2, 4),
  stress("Products", "4", "y = 1.2*a*b*c*d - 0.5*a*b*e^(-1)", on("a,b,c,d,e", [B]), ["x", "x^-1", "x^2"], 2, 4),
  stress("Products", "5", "y = 0.7*a*b*c*d*e + 2.5*a*b", on("a,b,c,d,e", [A]), ["x", "x^2", "sqrt"], 2, 5),
  stress("Products", "6", "y = 1.1*a*b*c + 0.6*b*c*d - 1.3*a*d*e", on("a,b,c,d,e", [B, A]), ["x", "x^2", "x^-1"], 3, 3),
  stress(
    "Products",
    "7",
    "y = 0.4*a^2*b*c + 1.7*a*d*e^(-1) + 0.9*b*c*e",
    on("a,b,c,d,e", [A]),
    ["x", "x^2", "x^-1", "x^3"],
    3,
    3,
  ),
  stress(
    "Products",
    "8",
    "y = 2*a*b*c*d + 0.5*a*c^(-1)*e - 0.8*b*d*e",
    on("a,b,c,d,e", [B]),
    ["x", "x^-1", "x^2"],
    3,
    4,
  ),
  stress("Products", "9", "y = 0.3*a*b*c*d*e - 1.2*a*b*c + 0.6*d*e", on("a,b,c,d,e", [A]), ["x", "x^2", "x^-1"], 3, 5),
  stress(
    "Products",
    "10",
    "y = 1.5*a*b*c + 0.5*a*b*d + 0.8*a*c*e - 1.1*b*d*e",
    on("a,b,c,d,e", [A]),
    ["x", "x^2", "x^-1"],
    4,
    3,
  ),
  stress(
    "Products",
    "11",
    "y = 0.6*a*b^2*c^(-1) + 1.3*a*d*e + 0.4*b*c*d*e - 0.9*a*c",
    on("a,b,c,d,e", [B, A]),
    ["x", "x^2", "x^-1", "sqrt"],
    4,
    4,
  ),
  stress(
    "Products",
    "12",
    "y = a*b*c*d + 0.5*a*b*c*e + 2*b*d^(-1)*e - 0.7*c*d*e",
    on("a,b,c,d,e", [A]),
    ["x", "x^-1", "x^2"],
    4,
    4,
  ),
  stress(
    "Products",
    "13",
    "y = 1.8*x1*x2*x3^(-2) - 0.9*x1*x2^2*x4",
    on("x1,x2,x3,x4", [B]),
    ["x", "x^2", "x^-2", "x^-1"],
    2,
    3,
  ),
  stress("Products", "14", "y = 1.3*a*b*c + 2.6*a*b*d", on("a,b,c,d", [A, B]), ["x", "x^2", "x^-1"], 2, 3, {
    note: "a shared factor times a two-term sum: 1.3·a·b·(c + 2·d)",
  }),
];

/** A weight at least 0.2 from every grid weight (and from 0), two decimals; `negative` gives a decay. */
function offGridWeight(rng: ReturnType<typeof createRng>, negative: boolean): number {
  for (;;) {
    const w = Math.round(rng.uniform(0.7, 3.6) * 100) / 100;
    if (GRID.every((g) => Math.abs(w - g) >= 0.2)) return negative ? -w : w;
  }
}

/** A coefficient of magnitude 0.5–2.5, two decimals, either sign. */
function coefficient(rng: ReturnType<typeof createRng>): number {
  const c = Math.round(rng.uniform(0.5, 2.5) * 100) / 100;
  return rng.next() < 0.5 ? -c : c;
}

/** Templates: W (a weight), N (a negative weight) and C (a coefficient) are drawn in order. */
const OFF_GRID_TEMPLATES: { text: string; inputs: string; pool: string[]; ranges: [number, number][] }[] = [
  { text: "C*sin(W*x1)*x2", inputs: "x1,x2", pool: ["sin", "x", "cos", "x^2"], ranges: [[0, 2], A] },
  { text: "C*exp(N*x1)*x2", inputs: "x1,x2", pool: ["exp", "x", "x^2", "log"], ranges: [[0, 2], A] },
  { text: "C*cos(W*x1) + C*x2^2", inputs: "x1,x2", pool: ["cos", "x^2", "x", "sin"], ranges: [[0, 2], B] },
  { text: "C*x1*exp(W*x2)", inputs: "x1,x2", pool: ["exp", "x", "x^-1", "sqrt"], ranges: [A, [0, 1]] },
  {
    text: "C*sin(W*x1) + C*cos(W*x2)",
    inputs: "x1,x2",
    pool: ["sin", "cos", "x", "x^2"],
    ranges: [
      [0, 2],
      [0, 2],
    ],
  },
  { text: "C*x1^2*cos(W*x2)", inputs: "x1,x2", pool: ["cos", "x^2", "x", "sin"], ranges: [B, [0, 2]] },
  {
    text: "C*sin(W*x1)*cos(W*x2)",
    inputs: "x1,x2",
    pool: ["sin", "cos", "x", "exp"],
    ranges: [
      [0, 2],
      [0, 2],
    ],
  },
  { text: "C*exp(N*x1)*x2 + C*x3", inputs: "x1,x2,x3", pool: ["exp", "x", "x^2", "sin"], ranges: [[0, 2], A, B] },
  { text: "C*x1*sin(W*x2) + C*x1*x3", inputs: "x1,x2,x3", pool: ["sin", "x", "cos", "x^-1"], ranges: [A, [0, 2], B] },
  { text: "C*cos(W*x1)*x2^(-1)", inputs: "x1,x2", pool: ["cos", "x^-1", "x", "sin"], ranges: [[0, 2], B] },
  {
    text: "C*exp(N*x1)*sin(W*x2)",
    inputs: "x1,x2",
    pool: ["exp", "sin", "x", "cos"],
    ranges: [
      [0, 2],
      [0, 2],
    ],
  },
  { text: "C*x1 + C*sin(W*x2)*x3", inputs: "x1,x2,x3", pool: ["sin", "x", "x^2", "cos"], ranges: [A, [0, 2], B] },
];

function offGrid(): BenchmarkEntry[] {
  const rng = createRng(OFF_GRID_SEED);
  return OFF_GRID_TEMPLATES.map((template, i) => {
    const text = template.text
      .replace(/[WNC]/g, (slot) =>
        String(slot === "C" ? coefficient(rng) : offGridWeight(rng, slot === "N")).replace(/^(-.*)$/, "$1"),
      )
      .replace(/\+ -/g, "- ")
      .replace(/\*-/g, "*-");
    const truth = `y = ${text}`;
    const terms = text.split(/ [+-] /).length;
    // Factors per product: the "*" outside parentheses (the first joins the coefficient).
    const maxFactors = Math.max(...text.split(/ [+-] /).map((t) => t.replace(/\([^)]*\)/g, "").split("*").length - 1));
    return stress(
      "OffGrid",
      String(i + 1),
      truth,
      on(template.inputs, template.ranges),
      template.pool,
      terms,
      maxFactors,
      {
        original: template.text,
      },
    );
  });
}

/** A network: n buses on a ring, plus chords; line admittances from impedances drawn with the seed. */
function flow(): BenchmarkEntry[] {
  const rng = createRng(FLOW_SEED);
  const networks = [
    { n: 5, chords: [] as [number, number][] },
    { n: 6, chords: [[0, 3] as [number, number]] },
    { n: 6, chords: [[1, 4] as [number, number], [2, 5] as [number, number]] },
  ];
  const out: BenchmarkEntry[] = [];
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  networks.forEach(({ n, chords }, k) => {
    const lines: [number, number][] = [
      ...Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number]),
      ...chords,
    ];
    const G = new Map<string, number>();
    const Bm = new Map<string, number>();
    for (const [i, m] of lines) {
      const r = rng.uniform(0.01, 0.08);
      const x = rng.uniform(0.08, 0.3);
      const d = r * r + x * x;
      // The off-diagonal admittance entries are minus the line's series admittance 1/(r + jx).
      for (const key of [`${i},${m}`, `${m},${i}`]) {
        G.set(key, round(-r / d));
        Bm.set(key, round(x / d));
      }
    }
    const inputs: Ranges = {};
    for (let i = 0; i < n; i++) inputs[`u${i + 1}`] = [0.94, 1.06];
    for (let i = 0; i < n; i++) inputs[`v${i + 1}`] = [-0.12, 0.12];
    const neighbours = (i: number) =>
      [...G.keys()].filter((key) => key.startsWith(`${i},`)).map((key) => Number(key.split(",")[1]));
    // Two outputs per network: p at bus 1 and q at the best-connected other bus (8 or 12 products each).
    const others = [...Array(n).keys()].slice(1);
    const buses = [0, others.sort((a, b) => neighbours(b).length - neighbours(a).length || a - b)[0]!];
    buses.forEach((i, which) => {
      const terms: string[] = [];
      const add = (c: number, a: string, b: string) =>
        terms.push(`${c < 0 ? "- " : "+ "}${Math.abs(round(c))}*${a}*${b}`);
      const ui = `u${i + 1}`;
      const vi = `v${i + 1}`;
      for (const m of neighbours(i).sort((a, b) => a - b)) {
        const g = G.get(`${i},${m}`)!;
        const b = Bm.get(`${i},${m}`)!;
        const um = `u${m + 1}`;
        const vm = `v${m + 1}`;
        if (which === 0) {
          add(g, ui, um);
          add(g, vi, vm);
          add(b, vi, um);
          add(-b, ui, vm);
        } else {
          add(g, vi, um);
          add(-g, ui, vm);
          add(-b, ui, um);
          add(-b, vi, vm);
        }
      }
      const text = terms.join(" ").replace(/^\+ /, "").replace(/^- /, "-");
      out.push(
        stress(
          "Flow",
          `${k + 1}${which === 0 ? "p" : "q"}${i + 1}`,
          `y = ${text}`,
          inputs,
          ["x", "x^2", "x^-1"],
          terms.length,
          2,
          {
            unsizedPool: ["x"],
            note:
              `${which === 0 ? "p" : "q"} at bus ${i + 1} of a ${n}-bus ring` +
              (chords.length ? ` with ${chords.length} chord(s)` : ""),
          },
        ),
      );
    });
  });
  return out;
}

/** The three stress families, in this order: Products (14), OffGrid (12), Flow (6). */
export const stressEntries: BenchmarkEntry[] = [...PRODUCTS, ...offGrid(), ...flow()];
