/**
 * A constraint plugin: at most two trigonometric factors (sin, cos, tanh) in any product.
 *
 *   consolesr fit data.csv --plugin examples/plugins/max-two-trig.ts \
 *     --constraints static,dynamic,max-two-trig --target y
 *
 * The search calls `check` on every proposed transition; a string rejects it (the search draws
 * another). Products are lists of layer-1 neurons; neuron i is the symbol
 * space.symbols[i mod |Φ|] applied to the input space.inputs[⌊i / |Φ|⌋], |Φ| = space.symbols.length.
 */
import type { ConstraintContext, ConstraintPlugin } from "consolesr/sdk";

const TRIG = new Set(["sin", "cos", "my.tanh"]);

export default {
  kind: "constraint",
  name: "max-two-trig",
  describe: () => "at most two trigonometric factors (sin, cos, tanh) per product",
  check: ({ structure, space }: ConstraintContext) => {
    // Layer 0 only enables neurons; products exist from layer 1 on.
    const products = structure.products ?? [];
    const phi = space.symbols.length;
    for (const [j, product] of products.entries()) {
      const trig = product.filter((neuron) => TRIG.has(space.symbols[neuron % phi]!));
      if (trig.length > 2) {
        const names = trig.map((neuron) => `${space.symbols[neuron % phi]}(${space.inputs[Math.floor(neuron / phi)]})`);
        return `product ${j + 1} has ${trig.length} trigonometric factors (${names.join(", ")}); at most 2`;
      }
    }
    return true;
  },
} satisfies ConstraintPlugin;
