/** Equations as data: sums of monomials of symbols and outer functions, evaluated, simplified, printed, parsed. */
export type { Equation, Factor, MonomialPart, Term } from "./types.js";
export {
  checkExpression,
  equationExpression,
  evaluateExpression,
  type Expression,
  type ExpressionCall,
  expressionComplexity,
  expressionInputs,
  expressionLatex,
  expressionText,
  isOperator,
  substituteInputs,
} from "./expression.js";
export { factorColumn, factorInputs, monomialCost, monomialText, powerValue } from "./monomial.js";
export {
  applyOuter,
  isOuterName,
  OUTER_NAMES,
  outerOf,
  type BuiltinOuterName,
  type OuterFunction,
  type OuterName,
  OUTERS,
} from "./outer.js";
export { evaluateEquation, evaluateTerm, evaluateFactor, type SymbolLookup, type ColumnLookup } from "./evaluate.js";
export { simplifyEquation, compareTerms, compareFactors, type SimplifyOptions } from "./simplify.js";
export { equationText, equationLatex, formatNumber, columnLatex, monomialLatex } from "./format.js";
export { parseForm, type ParseFormOptions } from "./parse.js";
export { parseWrittenEquations } from "./written.js";
export { foldNearDegenerate, type FoldOptions, type FoldResult } from "./fold.js";
export { refitCoefficients } from "./fold.js";
