/**
 * Parses a `--form` string ("y1 = x1^2*cos(x2); y2 = x1*x3 + 1") into equations of structure:
 * which factors each term multiplies; a term of numbers alone is the additive constant. Numbers
 * in the form (coefficients, inner weights) are accepted and ignored: a form fixes the
 * structure, the fit finds the numbers from 1.
 *
 * Factors are matched against each symbol's own `text` template (the text of the symbol
 * applied to a placeholder), so a plugin symbol is parseable with no parser change.
 */
import { InputError } from "../core/index.js";
import { COLUMN_NAME, DECIMAL as NUMBER, quote } from "../core/index.js";
import type { SymbolPlugin } from "../plugins/index.js";
import type { Equation, Factor } from "./types.js";
import { powerOfName } from "../plugins/index.js";

/** Where a form's problems are: the `form` option (the CLI's `--form`). */
const FORM = { field: "form" };

export interface ParseFormOptions {
  symbols: readonly SymbolPlugin[];
  /** Columns a factor may name. */
  inputs: readonly string[];
  /** Columns a left-hand side may name (all columns when omitted). */
  targets?: readonly string[];
  /**
   * Registered symbols outside `symbols` (the pool): a factor only one of them reads is refused
   * naming it, "its symbol x is not in `symbols`", instead of "cannot read the factor".
   */
  others?: readonly SymbolPlugin[];
}

const HOLE = "\u0001";

/** Splits at `separator` outside parentheses. */
function splitTop(text: string, separators: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (depth === 0 && separators.includes(ch)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim());
}

function parseFactor(text: string, o: ParseFormOptions, where: string): Factor | null {
  if (NUMBER.test(text)) return null;
  let best: { factor: Factor; length: number } | null = null;
  let badColumn: string | null = null;
  for (const symbol of o.symbols) {
    const [prefix = "", suffix = ""] = symbol.text(HOLE).split(HOLE);
    if (text.length <= prefix.length + suffix.length || !text.startsWith(prefix) || !text.endsWith(suffix)) continue;
    const middle = text.slice(prefix.length, text.length - suffix.length).trim();
    const weighted = /^([^*]+)\*\s*(.+)$/.exec(middle);
    const column = weighted && NUMBER.test(weighted[1]!.trim()) && symbol.innerWeight ? weighted[2]!.trim() : middle;
    if (!o.inputs.includes(column)) {
      if (COLUMN_NAME.test(column)) badColumn ??= column;
      continue;
    }
    const length = prefix.length + suffix.length;
    if (!best || length > best.length) best = { factor: { symbol: symbol.name, input: column }, length };
  }
  if (best) return best.factor;
  // A merged power a result prints (q^4, c^(-3), c^(3/2)) with no pool symbol of its own.
  const power = /^(.+?)\^(?:(\d+)|\((-?\d+(?:\/\d+)?)\))$/.exec(text);
  if (power && o.inputs.includes(power[1]!.trim())) {
    const name = `x^${power[2] ?? power[3]}`;
    if (powerOfName(name) !== undefined) return { symbol: name, input: power[1]!.trim() };
  }
  outsidePool(text, o, where);
  const call = /^([A-Za-z_]\w*)\s*\(/.exec(text);
  if (call && !o.symbols.some((s) => s.text(HOLE).startsWith(`${call[1]}(`))) {
    // A form writes each factor as its symbol prints it, which may differ from the symbol's name.
    const inner = /\((.*)\)\s*$/.exec(text)?.[1]?.trim();
    const input = inner && o.inputs.includes(inner) ? inner : (o.inputs[0] ?? "x");
    const named = o.symbols.find((s) => s.name === call[1]);
    if (named)
      throw new InputError(
        `form: the symbol "${named.name}" is written as it prints, ${quote(named.text(input))}, ` +
          `not ${quote(text)} (${where})`,
        FORM,
      );
    throw new InputError(
      `form: unknown symbol "${call[1]}" in ${quote(text)} (${where}); ` +
        `write factors as the symbols print: ${o.symbols.map((s) => s.text(input)).join(", ")}`,
      FORM,
    );
  }
  if (badColumn)
    throw new InputError(
      `form: unknown column "${badColumn}" in ${quote(text)} (${where}); inputs: ${o.inputs.join(", ")}`,
      FORM,
    );
  throw new InputError(
    `form: cannot read the factor ${quote(text)} (${where}); write products of symbols such as x1^2*cos(x2)`,
    FORM,
  );
}

/** Refuses a factor that a registered symbol outside the pool reads, naming that symbol and the pool. */
function outsidePool(text: string, o: ParseFormOptions, where: string): void {
  if (!o.others?.length) return;
  let factor: Factor | null = null;
  try {
    factor = parseFactor(text, { ...o, symbols: o.others, others: undefined }, where);
  } catch {
    return;
  }
  if (factor === null) return;
  throw new InputError(
    `form: cannot read the factor ${quote(text)} (${where}): its symbol ${factor.symbol} is not in \`symbols\` ` +
      `(${o.symbols.map((s) => s.name).join(", ")}); add it there`,
    FORM,
  );
}

export function parseForm(form: string, options: ParseFormOptions): Equation[] {
  const equations: Equation[] = [];
  const statements = form
    .split(/[;\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (statements.length === 0) throw new InputError("form: no equation given", FORM);
  for (const statement of statements) {
    const sides = statement.split("=");
    if (sides.length !== 2 || !sides[0]!.trim() || !sides[1]!.trim()) {
      throw new InputError(`form: ${quote(statement)} is not of the form "target = term + term"`, FORM);
    }
    const target = sides[0]!.trim();
    const targets = options.targets ?? options.inputs;
    if (!targets.includes(target)) throw new InputError(`form: unknown target column ${quote(target)}`, FORM);
    if (equations.some((e) => e.target === target))
      throw new InputError(`form: target ${quote(target)} appears twice`, FORM);
    const rhs = sides[1]!.trim();
    if (/[/]/.test(rhs.replace(/\([^()]*\)/g, "")))
      throw new InputError(`form: "/" is not a LoCaL operation in ${quote(rhs)}`, FORM);
    // Terms are separated by top-level + or −; a leading sign belongs to the first coefficient.
    const terms = splitTop(rhs.replace(/^[+-]\s*/, ""), "+-").filter((t, k, all) => t !== "" || k === all.length - 1);
    const equation: Equation = { target, terms: [] };
    for (const termText of terms) {
      if (!termText) throw new InputError(`form: empty term in ${quote(rhs)}`, FORM);
      const where = `equation for ${target}`;
      const factors = splitTop(termText, "*").map((f) => {
        if (!f) throw new InputError(`form: empty factor in ${quote(termText)} (${where})`, FORM);
        return parseFactor(f, options, where);
      });
      const kept = factors.filter((f): f is Factor => f !== null);
      // A term of numbers alone is the additive constant (one per equation).
      if (kept.length === 0 && equation.terms.some((t) => t.factors.length === 0))
        throw new InputError(`form: ${quote(rhs)} has two constant terms (${where}); write one`, FORM);
      const seen = new Set(kept.map((f) => `${f.symbol}|${f.input}`));
      if (seen.size !== kept.length)
        throw new InputError(
          `form: ${quote(termText)} repeats a factor (${where}); use a power symbol such as x^2`,
          FORM,
        );
      equation.terms.push({ coefficient: 1, factors: kept });
    }
    equations.push(equation);
  }
  return equations;
}
