/**
 * Fitting given forms: the "coefficient estimation" half of CoNSoLe on its own. Each equation
 * gets its own one-block LoCaL (outputs are fitted independently), fitted from the all-ones
 * init; the result is simplified and printed.
 */
import { InputError, runSteps, type Steps } from "../core/index.js";
import type { Dataset } from "../data/index.js";
import { columnOf } from "../data/index.js";
import type { Equation } from "../equation/index.js";
import { parseForm } from "../equation/index.js";
import { equationsOfLocal, structureOfEquations } from "../local/index.js";
import { simplifyEquation } from "../equation/index.js";
import { evaluateEquation } from "../equation/index.js";
import { nrmse } from "../numeric/index.js";
import { fitLocalSteps, type FitOptions, type FitResult } from "../local/index.js";
import type { Registry, SymbolPlugin } from "../plugins/index.js";
import { equationResult, type EquationResult } from "../result/index.js";

export interface FitFormOptions extends Omit<FitOptions, "symbols"> {
  symbols: Registry<SymbolPlugin>;
  /** Called after each equation is fitted. */
  onProgress?: (event: { target: string; done: number; total: number; fit: FitResult }) => void;
}

export interface FitFormResult {
  equations: EquationResult[];
  simplified: Equation[];
  fits: FitResult[];
}

/**
 * Throws when `column` (named `input`) has a value outside `symbol`'s domain, naming the
 * symbol, the column and the first offending row; `hint` says what to do about it.
 */
export function checkColumnDomain(symbol: SymbolPlugin, input: string, column: ArrayLike<number>, hint: string): void {
  const domain = symbol.domain;
  if (!domain) return;
  for (let row = 0; row < column.length; row++) {
    if (!domain(column[row]!)) {
      throw new InputError(
        `symbol ${symbol.name} on column "${input}": ` +
          `row ${row + 1} has ${input} = ${column[row]}, outside the symbol's domain; ${hint}`,
      );
    }
  }
}

/** Throws when a factor's symbol has a domain the column violates (at the initial weight 1). */
export function checkDomains(equations: readonly Equation[], data: Dataset, symbols: Registry<SymbolPlugin>): void {
  for (const equation of equations) {
    for (const term of equation.terms) {
      for (const factor of term.factors) {
        const symbol = symbols.get(factor.symbol);
        checkColumnDomain(symbol, factor.input, columnOf(data, factor.input), symbol.description ?? "see the plugin");
      }
    }
  }
}

export function fitForm(data: Dataset, form: string | readonly Equation[], options: FitFormOptions): FitFormResult {
  return runSteps(fitFormSteps(data, form, options));
}

/**
 * fitForm in steps: it yields inside each equation's fit (fitLocalSteps), so that a driven fit
 * (clock.ts driveSteps; the CLI's --form on a large CSV) lets a stop signal through; the same bits.
 */
export function* fitFormSteps(
  data: Dataset,
  form: string | readonly Equation[],
  options: FitFormOptions,
): Steps<FitFormResult> {
  const symbols = options.symbols;
  const equations =
    typeof form === "string"
      ? parseForm(form, { symbols: symbols.values(), inputs: data.inputs, targets: data.targets })
      : [...form];
  checkDomains(equations, data, symbols);
  const lookup = (name: string) => symbols.get(name);
  const order = { inputOrder: data.inputs, symbolOrder: symbols.names() };
  const columns = (name: string) => columnOf(data, name);
  const results: EquationResult[] = [];
  const simplified: Equation[] = [];
  const fits: FitResult[] = [];
  for (const [k, equation] of equations.entries()) {
    const structure = structureOfEquations([equation], data.inputs, symbols.names());
    const target = columnOf(data, equation.target);
    const fit = yield* fitLocalSteps(structure, { x: data.x, y: [target] }, { ...options, symbols });
    const [raw] = equationsOfLocal(structure, fit.weights, lookup);
    const clean = simplifyEquation(raw!, { ...order, symbols: lookup, columns, rows: data.rows });
    const predicted = evaluateEquation(clean, lookup, columns, data.rows);
    results.push(equationResult(clean, lookup, nrmse(target, predicted)));
    simplified.push(clean);
    fits.push(fit);
    options.onProgress?.({ target: equation.target, done: k + 1, total: equations.length, fit });
  }
  return { equations: results, simplified, fits };
}
