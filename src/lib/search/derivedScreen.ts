/**
 * The additive-symmetry screen (docs/design.md#derived): is y a function of a sum or difference of
 * inputs (or of their squares), u = x_i ± x_j or u = x_i² ± x_j², and of the other inputs, rather
 * than of every input apart? Such a y (a·(b − c)², √((a − b)² + (c − d)²), q/(c − d)²,
 * a·b/(c² − d²)²) is no short sum of products of the inputs, nor a function of a monomial, but the
 * search writes it once u is an input: the translational symmetry of AI Feynman (Udrescu & Tegmark
 * 2020), tested here on the data themselves rather than on a fitted surrogate.
 *
 * The test is the monomial reduction screen's (monomialScreen.ts): the nearest-neighbour delta of y
 * over a set of features, δ(F), is small where y is a smooth function of F alone; a merge of two
 * features into one that keeps δ below MERGE_RATIO of the δ before it (noise's own share, σ²/var y,
 * taken off both) lost nothing y depends on. Merges are taken greedily (a small beam) while they
 * pay, so the two differences of a distance become one sum of their squares; the most reduced set
 * that the Gamma test confirms (y over the features leaves no more noise than over the inputs:
 * MONOMIAL_NOISE, or NOISY_MONOMIAL_NOISE under noise) and that lies below DERIVED_RATIO of the
 * inputs' δ is the choice. Float64 throughout, on at most SCREEN_ROWS strided rows for δ.
 */
import type { Steps } from "../core/index.js";
import { evaluateExpression, expressionInputs, type Expression } from "../equation/index.js";
import { strided } from "./linear/proposer.js";
import { leavesNoNoise, MERGE_RATIO, neighbourDelta, standardised } from "./monomialScreen.js";
import { estimateNoise } from "./noise.js";

/** Features derived from the inputs: each an expression and its name, beside the inputs kept as they are. */
export interface DerivedChoice {
  features: { name: string; expression: Expression }[];
  keep: string[];
  /** δ of the features and the kept inputs, and of all inputs. */
  delta: number;
  baseline: number;
}

/** Rows δ is computed on at most (strided). */
const SCREEN_ROWS = 400;
/** Inputs at most (the merges grow as the square of the features, each scored over them all). */
export const DERIVED_INPUTS = 8;
/**
 * A choice's δ must be below this share of the inputs' own δ. Measured on the composite family's
 * laws (1,000 rows, clean): one true merge of four inputs into three 0.41–0.50 of it (a difference
 * inside a Gaussian, a charge's gap, a phase), of three into two 0.24–0.29, and wrong merges 0.49–0.77:
 * the δ ratio alone does not tell them apart, the Gamma test does (MONOMIAL_NOISE).
 */
const DERIVED_RATIO = 0.6;
/** Feature sets kept at each number of merges. */
const BEAM = 3;
/** Feature sets the Gamma test is asked about at most. */
const CONFIRMED = 4;

/** The additive merges of two features u, v: u − v, u + v, u² − v², u² + v². */
const MERGES: readonly { sign: 1 | -1; square: boolean }[] = [
  { sign: -1, square: false },
  { sign: 1, square: false },
  { sign: -1, square: true },
  { sign: 1, square: true },
];

interface Feature {
  expression: Expression;
  /** Standardised values on the screening rows. */
  column: Float64Array;
  /** Whether it is an input as given. */
  input: boolean;
}

/** A merge's expression: u ± v or u² ± v². */
function merged(u: Expression, v: Expression, sign: 1 | -1, square: boolean): Expression {
  const a: Expression = square ? ["^", u, 2] : u;
  const b: Expression = square ? ["^", v, 2] : v;
  return sign === 1 ? ["+", a, b] : ["-", a, b];
}

/**
 * The derived features y is a function of, with the inputs kept beside them, or undefined.
 * `noise`: the estimate of y over the inputs, where the caller has it; `noisy`: whether it is
 * noise the search stops at.
 */
export function* derivedScreenSteps(
  inputs: readonly string[],
  x: readonly Float64Array[],
  y: Float64Array,
  noise?: number,
  noisy = false,
): Steps<DerivedChoice | undefined> {
  const n = inputs.length;
  if (n < 2 || n > DERIVED_INPUTS) return undefined;
  const xs = x.map((c) => strided(c, SCREEN_ROWS));
  const ys = strided(y, SCREEN_ROWS);
  const raw = (e: Expression) =>
    evaluateExpression(
      e,
      () => undefined as never,
      (name) => xs[inputs.indexOf(name)]!,
      ys.length,
    );
  const singles: Feature[] = [];
  for (const [i, name] of inputs.entries()) {
    const column = standardised(xs[i]!);
    if (!column) return undefined;
    singles.push({ expression: name, column, input: true });
  }
  const before = noise ?? estimateNoise(x, y).nrmse;
  // Noise adds about its own share, σ²/var y, to every δ: reductions are compared above it.
  const floor = Number.isFinite(before) ? before * before : 0;
  const above = (delta: number) => Math.max(delta - floor, 1e-12);
  const baseline = neighbourDelta(
    singles.map((f) => f.column),
    ys,
  );
  if (!(above(baseline) > 1e-12)) return undefined;
  type State = { features: Feature[]; delta: number };
  const keyOf = (features: readonly Feature[]) =>
    features
      .map((f) => JSON.stringify(f.expression))
      .sort()
      .join(";");
  const levels: State[][] = [[{ features: singles, delta: baseline }]];
  for (;;) {
    const next = new Map<string, State>();
    for (const { features, delta } of levels.at(-1)!) {
      // (u − v is v − u negated, the same feature to δ: each pair once.)
      for (let i = 0; i < features.length; i++)
        for (let j = i + 1; j < features.length; j++) {
          for (const { sign, square } of MERGES) {
            yield;
            const expression = merged(features[i]!.expression, features[j]!.expression, sign, square);
            const values = raw(expression);
            if (!values.every(Number.isFinite)) continue;
            const column = standardised(values);
            if (!column) continue;
            const rest = features.filter((_, k) => k !== i && k !== j);
            const d = neighbourDelta([column, ...rest.map((f) => f.column)], ys);
            if (!(above(d) < MERGE_RATIO * above(delta))) continue;
            const state = { features: [...rest, { expression, column, input: false }], delta: d };
            const key = keyOf(state.features);
            if (!next.has(key) || next.get(key)!.delta > d) next.set(key, state);
          }
        }
    }
    if (next.size === 0) break;
    levels.push([...next.values()].sort((p, q) => p.delta - q.delta).slice(0, BEAM));
  }
  // The most reduced set the Gamma test confirms, below DERIVED_RATIO of the inputs' δ.
  let tested = 0;
  for (const level of levels.slice(1).reverse())
    for (const state of level) {
      if (!(above(state.delta) < DERIVED_RATIO * above(baseline)) || tested++ >= CONFIRMED) continue;
      const choice = choiceOf(state.features, inputs, state.delta, baseline);
      yield;
      if (leavesNoNoise(derivedColumns(inputs, x, choice).x, y, before, noisy)) return choice;
    }
  return undefined;
}

/** A feature set as a choice: the derived features named by their text, the inputs kept as they are. */
function choiceOf(features: readonly Feature[], inputs: readonly string[], delta: number, baseline: number) {
  const derived = features.filter((f) => !f.input);
  // Named u1, u2, … (past any input of that name: the search reads them as inputs).
  const names: string[] = [];
  for (let k = 1; names.length < derived.length; k++) if (!inputs.includes(`u${k}`)) names.push(`u${k}`);
  return {
    features: derived.map((f, k) => ({ name: names[k]!, expression: f.expression })),
    keep: inputs.filter((name) => features.some((f) => f.input && f.expression === name)),
    delta,
    baseline,
  };
}

/** The choice's columns on every row: the derived features, then the kept inputs (the data's order). */
export function derivedColumns(
  inputs: readonly string[],
  x: readonly Float64Array[],
  choice: Pick<DerivedChoice, "features" | "keep">,
): { inputs: string[]; x: Float64Array[] } {
  const rows = x[0]?.length ?? 0;
  const column = (name: string) => x[inputs.indexOf(name)]!;
  const derived = choice.features.map((f) => evaluateExpression(f.expression, () => undefined as never, column, rows));
  const keep = inputs.filter((i) => choice.keep.includes(i));
  return { inputs: [...choice.features.map((f) => f.name), ...keep], x: [...derived, ...keep.map(column)] };
}

/** The inputs a choice's features read (each feature's, in order). */
export const derivedInputs = (choice: Pick<DerivedChoice, "features">): string[] => [
  ...new Set(choice.features.flatMap((f) => expressionInputs(f.expression))),
];
