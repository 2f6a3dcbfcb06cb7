/**
 * The polynomial question of one output's search (docs/design.md#polynomial): the library of
 * monomials the pool's power symbols write (linear/polynomial.ts), its best subset, and that
 * subset as a proposal of the search's own products, fitted first.
 */
import { columnOf, type Dataset } from "../data/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";
import { runSteps, type Steps } from "../core/index.js";
import { formatNumber } from "../equation/index.js";
import { allowedNeurons } from "./constraints.js";
import { chiSquareQuantile, estimateNoise, SPLIT_Z, splitLevel } from "./noise.js";
import type { LinearProposal } from "./linear/proposer.js";
import { powerOf } from "./linear/monomial.js";
import { strided } from "./linear/proposer.js";
import { dot, gramSchmidt } from "../numeric/index.js";
import {
  monomialColumn,
  monomials,
  POLY_ROWS,
  polynomialDegree,
  polynomialQuestionSteps,
  type PolynomialAnswer,
  type Powers,
  type Relation,
} from "./linear/polynomial.js";
import type { SearchSettings } from "./settings.js";
import type { SearchContext } from "./strategy.js";

export { chiSquareQuantile, SPLIT_Z };

/** What the polynomial question answered: the proposal, the answer, and the library's monomials. */
export interface PolynomialStart {
  proposal: LinearProposal;
  answer: PolynomialAnswer;
  monomials: readonly Powers[];
  /** Factors of the proposal's longest product. */
  factors: number;
  /**
   * Under noise: whether the even rows and the odd rows, each asked alone, choose the same subset
   * (stability selection). A sparse polynomial law does where its terms stand out of the noise; a
   * polynomial that only approximates y (exp(a)·b + c at 1 % noise: eight terms) does not, since
   * many approximations fit as well and the noise picks among them. Noiseless: true.
   */
  stable: boolean;
  /**
   * Under noise: whether the answer's monomials hold with one set of coefficients on the rows below
   * and above each input's median (splitStatistic, at SPLIT_P shared by the inputs): a stable Taylor sum of a
   * smooth function does not. Noiseless: true.
   */
  holds: boolean;
}

/** Factors a monomial's power of one input is written with at most (x³ = x·x·x without x³). */
const MOST_FACTORS = 3;

/**
 * For each input, each power 1 … 3 written with the fewest distinct integer power symbols of the
 * pool that the input allows (x³ as x³, else x²·x; with x alone, only x): power → pool symbol indices.
 */
function writingsOf(ctx: {
  data: Dataset;
  pool: readonly string[];
  symbols: Registry<SymbolPlugin>;
}): Map<number, number[]>[] {
  const allowed = allowedNeurons(ctx.data, ctx.pool, ctx.symbols);
  const powers = ctx.pool.map((name) => powerOf(ctx.symbols.get(name)));
  return ctx.data.inputs.map((_, i) => {
    const symbols = powers.flatMap((p, k) =>
      p !== undefined && Number.isInteger(p) && p >= 1 && p <= 3 && allowed[i * ctx.pool.length + k] ? [{ k, p }] : [],
    );
    const best = new Map<number, number[]>();
    const grow = (picked: number[], sum: number) => {
      if (picked.length > 0 && sum <= 3) {
        const known = best.get(sum);
        if (!known || picked.length < known.length) best.set(sum, [...picked]);
      }
      if (picked.length >= MOST_FACTORS || sum >= 3) return;
      // A product holds a neuron once: x·x is no writing of x² (the pool's x² is).
      for (const { k, p } of symbols) if (!picked.includes(k)) grow([...picked, k], sum + p);
    };
    grow([], 0);
    return best;
  });
}

/**
 * The polynomial question for the search's target (noiseless: an exact subset or nothing; `noisy`:
 * the best subset by the score); undefined: no library (too many inputs, no power symbol), or no
 * answer. `maxFactors` bounds a monomial's factors (the widest size's).
 */
export function* polynomialStartSteps(
  ctx: SearchContext,
  settings: SearchSettings,
  maxFactors: number,
  noisy: boolean,
): Steps<PolynomialStart | undefined> {
  const writings = writingsOf(ctx);
  const degree = polynomialDegree(ctx.data.inputs.length, ctx.data.rows);
  if (degree === 0) return undefined;
  const factorsOf = (powers: Powers) => powers.reduce((s, p, i) => s + (p > 0 ? writings[i]!.get(p)!.length : 0), 0);
  const library = monomials(ctx.data.inputs.length, degree, (i, p) => writings[i]!.has(p)).filter(
    (powers) => factorsOf(powers) <= maxFactors,
  );
  if (library.length === 0) return undefined;
  const y = columnOf(ctx.data, ctx.target);
  /** The question over all rows, or over the even (0) or the odd (1) rows alone. */
  const ask = (half?: number) => {
    const rows = (v: Float64Array) =>
      half === undefined
        ? v
        : Float64Array.from({ length: Math.ceil((v.length - half) / 2) }, (_, r) => v[2 * r + half]!);
    return polynomialQuestionSteps({
      x: ctx.data.x.map(rows),
      y: rows(y),
      monomials: library,
      intercept: settings.constant,
      noisy,
    });
  };
  const answer = yield* ask();
  if (!answer || answer.members.length === 0) return undefined;
  // Stable where each half chooses every term of the answer and the same constant: a half of the
  // rows, whose price of a term is lower, may add a term the noise bought there (a·b + c at 1 % with
  // b⁻²·c beside it on the odd rows), which is no evidence against the answer; a constant it adds
  // or drops is (a Taylor sum of 2·sin(1.3·x1)·cos(x2) at 20 dB took one on the even rows).
  let stable = true;
  for (let half = 0; noisy && stable && half < 2; half++) {
    const part = yield* ask(half);
    stable =
      part !== undefined && part.constant === answer.constant && answer.members.every((j) => part.members.includes(j));
  }
  const terms = answer.members.map((j) => library[j]!);
  const split = noisy && stable && splitStatistic(ctx.data.x, y, terms, answer.constant);
  // (The largest of one test per input: 3 % of the laboratory sums at 1 % noise were refused at 1 % each.)
  const holds = !split || split.statistic <= splitLevel(split.parameters, split.tests);
  const products = answer.members.map((j) =>
    library[j]!.flatMap((p, i) => (p > 0 ? writings[i]!.get(p)!.map((k) => i * ctx.pool.length + k) : [])).sort(
      (a, b) => a - b,
    ),
  );
  return {
    proposal: { products, score: answer.nrmse, expected: answer.nrmse, source: "polynomial" },
    answer,
    monomials: library,
    factors: Math.max(...products.map((p) => p.length)),
    stable,
    holds,
  };
}

/**
 * Whether a sum of monomials is one law across the inputs' range (Chow's test of a structural
 * break): for each input, the rows below and above its median are fitted apart, each half with its
 * own coefficients (2k parameters), against one fit over all rows (k parameters). The statistic is
 * n·ln(RSS_all / (RSS_low + RSS_high)), the largest over the inputs: a likelihood ratio, a χ²_k
 * draw where one law holds with the same coefficients on both halves. A polynomial that only
 * imitates y on the range (sin(x)·cos(y) as x − x·y²/2 − x³/6 + …, a Taylor sum whose error the
 * noise hides) takes other coefficients on each half, and the halves' fits remove the error the
 * noise hid. 0 where no input splits (an input of few values, too few rows).
 */
export function splitStatistic(
  x: readonly Float64Array[],
  y: Float64Array,
  terms: readonly Powers[],
  constant: boolean,
): { statistic: number; parameters: number; tests: number } {
  const xs = x.map((v) => strided(v, POLY_ROWS));
  const ys = strided(y, POLY_ROWS);
  const columns = terms.map((powers) => monomialColumn(xs, powers));
  if (constant) columns.push(new Float64Array(ys.length).fill(1));
  return splitStatisticOf(xs, ys, columns);
}

/**
 * Chow's statistic of splitStatistic for any fixed columns (a sum's products with their inner weights
 * held): `xs`, `ys` and the columns on the same rows.
 */
export function splitStatisticOf(
  xs: readonly Float64Array[],
  ys: Float64Array,
  columns: readonly Float64Array[],
): { statistic: number; parameters: number; tests: number } {
  const n = ys.length;
  const parameters = columns.length;
  const rssOf = (index: readonly number[]) => {
    const pick = (v: Float64Array) => Float64Array.from(index, (r) => v[r]!);
    const basis = gramSchmidt(columns.map(pick), { dependent: 1e-9, unit: true });
    const residual = basis.project(pick(ys));
    return dot(residual, residual);
  };
  const rows = Array.from({ length: n }, (_, r) => r);
  const all = rssOf(rows);
  let statistic = 0;
  let tests = 0;
  for (const column of xs) {
    const median = Float64Array.from(column).sort()[n >> 1]!;
    const low = rows.filter((r) => column[r]! < median);
    const high = rows.filter((r) => !(column[r]! < median));
    // Each half must hold more rows than parameters (an input of few values may not split).
    if (low.length <= 2 * parameters || high.length <= 2 * parameters) continue;
    tests++;
    const apart = rssOf(low) + rssOf(high);
    if (all > 0 && apart > 0) statistic = Math.max(statistic, n * Math.log(all / apart));
  }
  return { statistic, parameters, tests };
}

/**
 * Where the pool cannot write a law: the monomials of an exact sparse polynomial of y over every
 * power up to the library's degree that the pool's power symbols do not write (a LoCaL product
 * uses a neuron once, so u² needs x²), in the inputs' names ("u3^2"); undefined where the pool
 * writes every such power, or no exact polynomial has one. Asked of clean data whose own question
 * found no exact answer.
 */
export function* unwritableSteps(ctx: SearchContext, settings: SearchSettings): Steps<string[] | undefined> {
  const writings = writingsOf(ctx);
  const degree = polynomialDegree(ctx.data.inputs.length, ctx.data.rows);
  if (degree === 0 || writings.every((w) => Array.from({ length: degree }, (_, p) => p + 1).every((p) => w.has(p))))
    return undefined;
  const library = monomials(ctx.data.inputs.length, degree, () => true);
  const answer = yield* polynomialQuestionSteps({
    x: ctx.data.x,
    y: columnOf(ctx.data, ctx.target),
    monomials: library,
    intercept: settings.constant,
    noisy: false,
  });
  if (!answer) return undefined;
  const missing = answer.members.filter((j) => library[j]!.some((p, i) => p > 0 && !writings[i]!.has(p)));
  return missing.length > 0 ? missing.map((j) => monomialName(library, ctx.data.inputs, j)) : undefined;
}

/** A monomial in the inputs' names ("u1^2*v2"; "1" for the constant, column −1). */
function monomialName(library: readonly Powers[], names: readonly string[], column: number): string {
  if (column < 0) return "1";
  return library[column]!.flatMap((p, i) => (p === 0 ? [] : [p === 1 ? names[i]! : `${names[i]}^${p}`])).join("*");
}

/**
 * An exact relation among the library's columns, as people write it: "v^2 = 1 - u^2" (the
 * dependent monomial, then the simpler ones with their coefficients to four digits).
 */
export function identityText(relation: Relation, library: readonly Powers[], names: readonly string[]): string {
  const parts = relation.terms.map(({ column, coefficient }, k) => {
    const magnitude = formatNumber(Math.abs(coefficient));
    const name = monomialName(library, names, column);
    const body = name === "1" ? magnitude : magnitude === "1" ? name : `${magnitude}*${name}`;
    return k === 0 ? (coefficient < 0 ? `-${body}` : body) : `${coefficient < 0 ? " - " : " + "}${body}`;
  });
  return `${monomialName(library, names, relation.column)} = ${parts.length > 0 ? parts.join("") : "0"}`;
}

/**
 * The relations that are not a monomial times an earlier one (u·v² = u − u³ is u times v² = 1 − u²):
 * what the data state, without its consequences.
 */
export function basicRelations(relations: readonly Relation[], library: readonly Powers[]): Relation[] {
  const inputs = library[0]?.length ?? 0;
  const powersOf = (column: number): readonly number[] =>
    column < 0 ? new Array<number>(inputs).fill(0) : library[column]!;
  const key = (powers: readonly number[]) => powers.join(",");
  const index = new Map(library.map((p, j) => [key(p), j]));
  const times = (column: number, shift: readonly number[]) => {
    const product = powersOf(column).map((p, i) => p + shift[i]!);
    return product.every((p) => p === 0) ? -1 : index.get(key(product));
  };
  const kept: Relation[] = [];
  // Inputs constant on the rows (u1 = 1.02 at the slack): every monomial of them follows.
  const constant = new Set<number>();
  for (const relation of relations) {
    const powers = powersOf(relation.column);
    if (powers.some((p, i) => p > 0 && constant.has(i))) continue;
    if (relation.terms.every((t) => t.column < 0) && powers.filter((p) => p > 0).length === 1)
      constant.add(powers.findIndex((p) => p > 0));
    const consequence = kept.some((earlier) => {
      const shift = powersOf(relation.column).map((p, i) => p - powersOf(earlier.column)[i]!);
      if (shift.some((p) => p < 0) || times(earlier.column, shift) !== relation.column) return false;
      const shifted = new Map(earlier.terms.map((t) => [times(t.column, shift), t.coefficient]));
      return (
        relation.terms.length === shifted.size &&
        relation.terms.every((t) => {
          const c = shifted.get(t.column);
          return c !== undefined && Math.abs(c - t.coefficient) <= 1e-8 * Math.max(1, Math.abs(c));
        })
      );
    });
    if (!consequence) kept.push(relation);
  }
  return kept;
}

/**
 * The inputs the sparse polynomial of y uses (the question over every input and the pool's power
 * symbols: noiseless an exact subset, else the best by the score), for the input screen of many
 * inputs (run/screen.ts): a sum of forty products spread over twenty inputs leaves each input too
 * little correlation to stand out, but its polynomial names them all. Undefined: no library.
 */
export function exactPolynomialInputs(
  data: Dataset,
  target: number,
  pool: readonly string[],
  symbols: Registry<SymbolPlugin>,
  intercept: boolean,
  stopNrmse = 0,
): { inputs: number[]; exact: boolean } | undefined {
  // Inputs constant on the rows are the constant's business (where the search fits one): left out,
  // the question is the one the search asks of the inputs the screen keeps, and answered once.
  const varying = data.x.flatMap((x, i) => (!intercept || x.some((v) => v !== x[0]) ? [i] : []));
  const asked = { ...data, inputs: varying.map((i) => data.inputs[i]!), x: varying.map((i) => data.x[i]!) };
  const ctx = { data: asked, pool, symbols } as const;
  const writings = writingsOf(ctx);
  const degree = polynomialDegree(asked.inputs.length, data.rows);
  if (degree === 0) return undefined;
  const library = monomials(asked.inputs.length, degree, (i, p) => writings[i]!.has(p));
  const ask = (noisy: boolean) =>
    runSteps(polynomialQuestionSteps({ x: asked.x, y: data.y[target]!, monomials: library, intercept, noisy }));
  const exact = ask(false);
  // Under noise only, as the search asks it: noiseless, no exact answer means y is not a sparse
  // polynomial the pool writes (its best by the score is an approximation, and a costly one).
  const noisy = () => estimateNoise(asked.x, data.y[target]!).nrmse > stopNrmse;
  const answer = exact ?? (noisy() ? ask(true) : undefined);
  if (!answer) return undefined;
  const used = new Set(answer.members.flatMap((j) => library[j]!.flatMap((p, i) => (p > 0 ? [varying[i]!] : []))));
  return { inputs: [...used].sort((a, b) => a - b), exact: exact !== undefined };
}
