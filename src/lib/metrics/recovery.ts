/**
 * Coefficient error E_c (paper §5.1) and exact recovery (docs/design.md#metrics). Both compare
 * simplified equations: pass the truth and the learned equation through simplifyEquation
 * with the same options first. Ground truth is for these metrics only; the search never sees it.
 */
import type { SymbolLookup } from "../equation/index.js";
import type { Equation, Term } from "../equation/index.js";

const signature = (term: Term) =>
  term.factors
    .map((f) => `${f.symbol}|${f.input}`)
    .sort()
    .join("*");

const percentError = (truth: number, estimate: number) =>
  truth === 0 ? (estimate === 0 ? 0 : 100) : (100 * Math.abs(estimate - truth)) / Math.abs(truth);

/** Does the symbol's fold pin its weight (sqrt: only c·sqrt(w) is identifiable)? */
const weightIsFolded = (symbols: SymbolLookup, name: string) => {
  const fold = symbols(name).fold;
  return fold !== undefined && fold(2).weight === fold(3).weight;
};

/** The percentage error of each coefficient slot of the truth: term coefficients and inner weights. */
function slotErrors(
  truth: Equation,
  learned: Equation,
  symbols: SymbolLookup,
): { errors: number[]; unmatched: number; extra: number } {
  const pool = learned.terms.map((t) => ({ term: t, key: signature(t), used: false }));
  const errors: number[] = [];
  let unmatched = 0;
  for (const term of truth.terms) {
    const key = signature(term);
    const match = pool.find((p) => !p.used && p.key === key);
    const weighted = term.factors.filter((f) => f.weight !== undefined && !weightIsFolded(symbols, f.symbol));
    if (!match) {
      unmatched++;
      errors.push(100, ...weighted.map(() => 100));
      continue;
    }
    match.used = true;
    errors.push(percentError(term.coefficient, match.term.coefficient));
    for (const factor of weighted) {
      const twin = match.term.factors.find((f) => f.symbol === factor.symbol && f.input === factor.input)!;
      errors.push(percentError(factor.weight!, twin.weight ?? 1));
    }
  }
  return { errors, unmatched, extra: pool.filter((p) => !p.used).length };
}

/** E_c in percent: mean over the truth's coefficients; 100 % for a true term with no match. */
export function coefficientError(truth: Equation, learned: Equation, symbols: SymbolLookup): number {
  const { errors } = slotErrors(truth, learned, symbols);
  return errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length);
}

export interface RecoveryCheck {
  exact: boolean;
  /** E_c in percent. */
  coefficientError: number;
  /** Why it is not exact, in words; empty when exact. */
  reason: string;
}

/** Exact recovery: the same set of terms and every coefficient within `tolerance` (1 %). */
export function exactRecovery(
  truth: Equation,
  learned: Equation,
  symbols: SymbolLookup,
  tolerance = 0.01,
): RecoveryCheck {
  // Outer functions differ: the terms are of different quantities (E_c on the canonical form is
  // defined only where both share one; the test NRMSE compares them).
  if ((truth.outer ?? null) !== (learned.outer ?? null))
    return {
      exact: false,
      coefficientError: 100,
      reason: `outer function ${learned.outer ?? "none"}, the truth's ${truth.outer ?? "none"}`,
    };
  // A denominator or a monomial argument on one side only: not the same canonical form either.
  const monomials = (e: Equation) =>
    [...e.terms, ...(e.denominator ?? [])].some((t) => t.factors.some((f) => f.monomial !== undefined));
  if (Boolean(truth.denominator) !== Boolean(learned.denominator) || monomials(truth) !== monomials(learned))
    return {
      exact: false,
      coefficientError: 100,
      reason:
        learned.denominator || monomials(learned)
          ? "a ratio or monomial form, the truth's is not"
          : "not the truth's form",
    };
  const { errors, unmatched, extra } = slotErrors(truth, learned, symbols);
  const ec = errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length);
  const worst = Math.max(0, ...errors);
  let reason = "";
  if (unmatched > 0) reason = `${unmatched} true term(s) missing`;
  else if (extra > 0) reason = `${extra} extra term(s)`;
  else if (worst > 100 * tolerance) reason = `a coefficient is off by ${worst.toPrecision(3)} %`;
  return { exact: reason === "", coefficientError: ec, reason };
}
