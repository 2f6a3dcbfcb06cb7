import { defineConstraint } from "../kinds.js";

/**
 * The paper's symbolic static constraint: a bounded number of symbols per product and of
 * products per output (y = x1·x2·…·x100 should not exist). Also rejects structures that cannot
 * form an equation: no enabled neuron, a product with no factor, an output with no product.
 */
export default defineConstraint({
  kind: "constraint",
  name: "static",
  describe: () => "at most maxFactors symbols per product and maxTerms products per output; no empty product or output",
  check: ({ layer, structure, limits }) => {
    if (layer === 0) {
      if (structure.neurons.length === 0) return "no activation neuron enabled";
      if (structure.neurons.length > limits.maxFactors * limits.maxTerms)
        return (
          `${structure.neurons.length} neurons enabled, ` +
          `more than ${limits.maxFactors}×${limits.maxTerms} factors can use`
        );
      return true;
    }
    if (layer === 1) {
      const products = structure.products ?? [];
      const big = products.find((p) => p.length > limits.maxFactors);
      if (big) return `a product of ${big.length} factors (at most ${limits.maxFactors})`;
      if (!products.some((p) => p.length > 0)) return "every product is empty";
      return true;
    }
    const sums = structure.sums ?? [];
    if (sums.length === 0) return "the output sums no product";
    if (sums.length > limits.maxTerms) return `${sums.length} products summed (at most ${limits.maxTerms})`;
    if (sums.some((j) => (structure.products?.[j]?.length ?? 0) === 0)) return "an empty product is summed";
    return true;
  },
});
