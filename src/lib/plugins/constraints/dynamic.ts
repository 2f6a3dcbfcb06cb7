import { defineConstraint, type ConstraintContext, type Product } from "../kinds.js";

const key = (p: Product) => [...p].sort((a, b) => a - b).join(".");

/** The last answer per evidence list: the search calls check() many times between two fits. */
const memo = new WeakMap<
  object,
  { length: number; pearson: number; maxTerms: number; maxFactors: number; kept: Product[] }
>();

function keep({ evidence, limits }: Pick<ConstraintContext, "evidence" | "limits">): Product[] {
  const last = memo.get(evidence);
  if (
    last &&
    last.length === evidence.length &&
    last.pearson === limits.pearson &&
    last.maxTerms === limits.maxTerms &&
    last.maxFactors === limits.maxFactors
  )
    return last.kept;
  const result = computeKeep(evidence, limits);
  memo.set(evidence, {
    length: evidence.length,
    pearson: limits.pearson,
    maxTerms: limits.maxTerms,
    maxFactors: limits.maxFactors,
    kept: result,
  });
  return result;
}

function computeKeep(evidence: ConstraintContext["evidence"], limits: ConstraintContext["limits"]): Product[] {
  const kept = new Map<string, Product>();
  // A search whose size grows keeps its evidence: a product from a wider size that this size
  // cannot hold (more factors than maxFactors) is not kept.
  for (const e of evidence)
    if (e.pearson >= limits.pearson && e.product.length <= limits.maxFactors && !kept.has(key(e.product)))
      kept.set(key(e.product), e.product);
  // As many kept products as an output may sum would leave no room to search: keep one fewer.
  return [...kept.values()].sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, Math.max(0, limits.maxTerms - 1));
}

/**
 * The paper's symbolic dynamic constraint: a product whose values correlate with the output
 * (|Pearson| ≥ limits.pearson) is kept in every later structure, which shrinks the search.
 * The paper's 0.99 is a trap on narrow input ranges (on U(1,2), ρ(x, x²) = 0.996), so consolesr's
 * default threshold is 0.9999 (docs/design.md#dynamic-threshold); `--method paper` uses 0.99.
 */
export default defineConstraint({
  kind: "constraint",
  name: "dynamic",
  describe: () => "keep products with |Pearson| to the output at or above the threshold",
  keep,
  check: (ctx) => {
    const kept = keep(ctx);
    if (kept.length === 0) return true;
    if (ctx.layer === 0) {
      const missing = kept.flat().find((n) => !ctx.structure.neurons.includes(n));
      return missing === undefined ? true : `kept neuron ${missing} is not enabled`;
    }
    const products = (ctx.structure.products ?? []).map(key);
    if (ctx.layer === 1) {
      const lost = kept.find((p) => !products.includes(key(p)));
      return lost ? `kept product ${key(lost)} is missing` : true;
    }
    const summed = (ctx.structure.sums ?? []).map((j) => products[j]);
    const lost = kept.find((p) => !summed.includes(key(p)));
    return lost ? `kept product ${key(lost)} is not summed` : true;
  },
});
