/**
 * Reads an equation written with its numbers, "F = 0.0796*q1*epsilon^(-1)*r^(-2)" or
 * "y = 0.3*x1*sin(6.283*x1) - x2", keeping what `parseForm` ignores: each term's coefficient (the
 * product of its numeric factors and its sign) and each inner weight (`sin(6.283*x1)`). The
 * structure comes from parseForm itself, so both read the same grammar and give the same errors;
 * this only adds the numbers back. Used for ground truths written as text (the benchmark suite).
 */
import { InputError } from "../core/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import { parseForm, type ParseFormOptions } from "./parse.js";
import type { Equation } from "./types.js";
import { powerOfName, powerSymbol } from "../plugins/index.js";

const HOLE = "\u0001";
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Top-level pieces of `text` split at any of `separators`, each with the separator before it. */
function split(text: string, separators: string): { sign: string; body: string }[] {
  const pieces: { sign: string; body: string }[] = [];
  let depth = 0;
  let start = 0;
  let sign = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (depth === 0 && separators.includes(ch)) {
      pieces.push({ sign, body: text.slice(start, i).trim() });
      sign = ch;
      start = i + 1;
    }
  }
  pieces.push({ sign, body: text.slice(start).trim() });
  return pieces;
}

/** The inner weight written inside a factor: `sin(6.283*x1)` → 6.283; `sin(x1)` → 1. */
function writtenWeight(text: string, symbol: SymbolPlugin): number | undefined {
  if (!symbol.innerWeight) return undefined;
  const [prefix = "", suffix = ""] = symbol.text(HOLE).split(HOLE);
  const middle = text.slice(prefix.length, text.length - suffix.length).trim();
  const weighted = /^([^*]+)\*\s*(.+)$/.exec(middle);
  return weighted && NUMBER.test(weighted[1]!.trim()) ? Number(weighted[1]!.trim()) : 1;
}

/** Equations with their coefficients and inner weights, in the `--form` grammar. */
export function parseWrittenEquations(text: string, options: ParseFormOptions): Equation[] {
  const forms = parseForm(text, options);
  const bySymbol = new Map(options.symbols.map((s) => [s.name, s]));
  const statements = text
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return forms.map((form, e) => {
    const rhs = statements[e]!.split("=")[1]!.trim();
    const leading = /^[+-]/.exec(rhs)?.[0] ?? "";
    const terms = split(rhs.replace(/^[+-]\s*/, ""), "+-");
    if (terms.length !== form.terms.length) throw new InputError(`cannot read the numbers of "${statements[e]}"`);
    return {
      target: form.target,
      terms: form.terms.map((term, t) => {
        const sign = (t === 0 ? leading : terms[t]!.sign) === "-" ? -1 : 1;
        let coefficient = sign;
        let k = 0;
        const factors = term.factors.map((f) => ({ ...f }));
        for (const { body } of split(terms[t]!.body, "*")) {
          if (NUMBER.test(body)) {
            coefficient *= Number(body);
            continue;
          }
          const factor = factors[k++]!;
          const weight = writtenWeight(body, bySymbol.get(factor.symbol) ?? powerSymbol(powerOfName(factor.symbol)!));
          if (weight !== undefined) factor.weight = weight;
        }
        return { coefficient, factors };
      }),
    };
  });
}
