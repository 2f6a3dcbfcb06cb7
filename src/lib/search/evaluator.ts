/**
 * Fitting and scoring one proposed structure, cached by its canonical key so that a structure
 * the search proposes again costs nothing (SEARCH-NOTES: greedy actions repeat).
 */
import type { Dataset } from "../data/dataset.js";
import { columnOf } from "../data/dataset.js";
import { equationsOfLocal } from "../equation/extract.js";
import { evaluateTerm } from "../equation/evaluate.js";
import { foldNearDegenerate } from "../equation/fold.js";
import { simplifyEquation } from "../equation/simplify.js";
import type { Equation } from "../equation/types.js";
import { fitLocalSync, type FitOptions } from "../local/fit.js";
import { structureKey, type LocalStructure } from "../local/structure.js";
import type { Product, Registry, RewardPlugin, SymbolPlugin } from "../plugins.js";
import { InputError } from "../errors.js";
import { leaveOneOutNrmse, tangentColumns } from "../metrics/leaveOneOut.js";

export interface Candidate {
  key: string;
  structure: LocalStructure;
  /** The simplified equation the fit gives. */
  equation: Equation;
  /** Train NRMSE of the simplified equation. */
  nrmse: number;
  /**
   * Its leave-one-out NRMSE (metrics/leaveOneOut.ts: each row predicted by the fit without it,
   * inner weights held): what the answer rule under noise scores (hallOfFame.ts).
   */
  loo: number;
  complexity: number;
  reward: number;
  /** |Pearson| of each fitted product with the output (the dynamic constraint's evidence). */
  evidence: { product: Product; pearson: number }[];
}

/** Σ over terms of (1 + Σ symbol complexities): a term costs its sum and its factors. */
export function complexityOf(equation: Equation, symbols: Registry<SymbolPlugin>): number {
  return equation.terms.reduce(
    (sum, t) => sum + 1 + t.factors.reduce((s, f) => s + symbols.get(f.symbol).complexity, 0),
    0,
  );
}

function pearson(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return saa > 0 && sbb > 0 ? Math.abs(sab / Math.sqrt(saa * sbb)) : 0;
}

export interface Evaluator {
  /** Whether a structure was fitted already (no fit happens). */
  has(structure: LocalStructure): boolean;
  evaluate(structure: LocalStructure): { candidate: Candidate; cached: boolean };
  readonly size: number;
  /** Wall-clock seconds spent fitting (for the benchmark's fits per second). */
  readonly seconds: number;
}

export function createEvaluator(
  data: Dataset,
  target: string,
  symbols: Registry<SymbolPlugin>,
  reward: RewardPlugin,
  fit: Omit<FitOptions, "symbols">,
): Evaluator {
  const cache = new Map<string, Candidate>();
  let seconds = 0;
  const y = columnOf(data, target);
  const lookup = (name: string) => symbols.get(name);
  const columns = (name: string) => columnOf(data, name);
  const order = { symbols: lookup, inputOrder: data.inputs, symbolOrder: symbols.names(), columns, rows: data.rows };
  const foldOptions = { ...order, y };
  return {
    get size() {
      return cache.size;
    },
    get seconds() {
      return seconds;
    },
    has: (structure) => cache.has(structureKey(structure)),
    evaluate(structure) {
      const key = structureKey(structure);
      const hit = cache.get(key);
      if (hit) return { candidate: hit, cached: true };
      const started = performance.now();
      const fitted = fitLocalSync(structure, { x: structure.inputs.map(columns), y: [y] }, { ...fit, symbols });
      const [raw] = equationsOfLocal(structure, fitted.weights, lookup);
      // Near-degenerate factors (sin(0.0005·x) standing in for x) fold before the answer is chosen.
      const { equation, predicted, nrmse: folded } = foldNearDegenerate(simplifyEquation(raw!, order), foldOptions);
      let error = folded;
      if (!Number.isFinite(error)) error = Number.POSITIVE_INFINITY;
      const complexity = complexityOf(equation, symbols);
      const fitScore = { yTrue: y, yPred: predicted, nrmse: error, complexity };
      let score: number;
      try {
        score = reward.score(fitScore);
      } catch (cause) {
        throw new InputError(
          `plugin ${reward.name}: score threw: ${cause instanceof Error ? cause.message : String(cause)}`,
        );
      }
      if (!Number.isFinite(score)) {
        if (Number.isFinite(error))
          throw new InputError(`plugin ${reward.name}: score returned ${score} for NRMSE ${error}`);
        score = reward.range[0];
      }
      const [lo, hi] = reward.range;
      const slack = 1e-12 * Math.max(1, hi - lo); // as check-plugin's range check
      if (score < lo - slack || score > hi + slack) {
        throw new InputError(
          `plugin ${reward.name}: score returned ${score} for NRMSE ${error}, ` +
            `outside its declared range [${lo}, ${hi}]`,
        );
      }
      const evidence = structure.products.map((product, j) => {
        const term = raw!.terms[j]!;
        const values = evaluateTerm({ coefficient: 1, factors: term.factors }, lookup, columns, data.rows);
        return { product, pearson: pearson(values, y) };
      });
      let loo = Number.isFinite(error)
        ? leaveOneOutNrmse(tangentColumns(equation, lookup, columns, data.rows), y, predicted)
        : Number.POSITIVE_INFINITY;
      if (!Number.isFinite(loo)) loo = Number.POSITIVE_INFINITY;
      const candidate: Candidate = { key, structure, equation, nrmse: error, loo, complexity, reward: score, evidence };
      cache.set(key, candidate);
      seconds += (performance.now() - started) / 1000;
      return { candidate, cached: false };
    },
  };
}
