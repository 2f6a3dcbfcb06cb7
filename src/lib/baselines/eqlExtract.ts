/**
 * EQL's answer as an equation: the trained network's expression (text and LaTeX as it stands)
 * and, where it can be, its expansion into a sum of products of the project's factors:
 *
 * - an identity unit v·(Σ aᵢxᵢ + b) gives the terms v·aᵢ·x(xᵢ) and the constant v·b;
 * - a sin or cos unit on one input, v·sin(a·xᵢ + b), gives v·sin(a·xᵢ) when b = 0, and
 *   otherwise the exact identities sin(a·x + b) = cos b·sin(a·x) + sin b·cos(a·x),
 *   cos(a·x + b) = cos b·cos(a·x) − sin b·sin(a·x); on no input it is the constant v·sin(b);
 * - a product unit v·(Σ aᵢxᵢ + a₀)(Σ cⱼxⱼ + c₀) multiplies out into products of x factors
 *   (x(xᵢ)·x(xᵢ) is x^2(xᵢ)) and lower-order terms;
 * - the output bias is a constant.
 *
 * A constant is a term with no factors (the Equation type allows it: it prints as the number
 * and evaluates to it; LoCaL's searches never propose one). A sin or cos of a sum of two or
 * more inputs is no product of unary factors: the target then has no equation, only its
 * expression, and E_c does not apply to it.
 */
import { columnLatex, formatNumber } from "../equation/index.js";
import type { Factor, Term } from "../equation/index.js";
import { eqlWidths, type EqlModel } from "./eql.js";
import { cos, sin } from "../core/index.js";

export interface EqlExtraction {
  text: string;
  latex: string;
  /** The expanded terms (unsimplified); undefined where the expression does not expand. */
  terms?: Term[];
  /** Why it does not expand. */
  reason?: string;
}

interface Linear {
  /** Nonzero input coefficients: [input index, coefficient]. */
  coefficients: [number, number][];
  bias: number;
}

function linearOf(model: EqlModel, j: number): Linear {
  const { pre } = eqlWidths(model.kinds.length, model.units);
  const coefficients: [number, number][] = [];
  model.inputs.forEach((_, i) => {
    const a = model.w1[i * pre + j]!;
    if (a !== 0) coefficients.push([i, a]);
  });
  return { coefficients, bias: model.b1[j]! };
}

const n = (v: number) => formatNumber(v);
const latexNumber = (v: number) => {
  const text = formatNumber(v);
  const match = /^(-?[\d.]+)e([+-]\d+)$/.exec(text);
  return match ? `${match[1]} \\times 10^{${Number(match[2])}}` : text;
};

/** A linear combination as text or LaTeX: "1.5*x1 - 0.2*x2 + 0.3". */
function linearText(model: EqlModel, linear: Linear, latex: boolean): string {
  const parts = linear.coefficients.map(([i, a]) => {
    const name = latex ? columnLatex(model.inputs[i]!) : model.inputs[i]!;
    const scale = n(Math.abs(a)) === "1" ? "" : `${(latex ? latexNumber : n)(Math.abs(a))}${latex ? " " : "*"}`;
    return { value: a, body: `${scale}${name}` };
  });
  if (linear.bias !== 0 || parts.length === 0)
    parts.push({ value: linear.bias, body: (latex ? latexNumber : n)(Math.abs(linear.bias)) });
  return parts
    .map((p, k) => (k === 0 ? (p.value < 0 ? `-${p.body}` : p.body) : p.value < 0 ? ` - ${p.body}` : ` + ${p.body}`))
    .join("");
}

const unaryOf = (kind: "sin" | "cos", z: number) => (kind === "sin" ? sin(z) : cos(z));

const x = (input: string): Factor => ({ symbol: "x", input });

/** The product of two lists of [factor or constant, coefficient] parts, as terms. */
function multiply(model: EqlModel, v: number, a: Linear, c: Linear): Term[] {
  const parts = (l: Linear): [number | null, number][] => [
    ...l.coefficients.map(([i, w]): [number, number] => [i, w]),
    ...(l.bias !== 0 ? [[null, l.bias] as [null, number]] : []),
  ];
  const terms: Term[] = [];
  for (const [i, p] of parts(a))
    for (const [j, q] of parts(c)) {
      const factors: Factor[] = [];
      if (i !== null && j !== null && i === j) factors.push({ symbol: "x^2", input: model.inputs[i]! });
      else {
        if (i !== null) factors.push(x(model.inputs[i]!));
        if (j !== null) factors.push(x(model.inputs[j]!));
      }
      terms.push({ coefficient: v * p * q, factors });
    }
  return terms;
}

/** The trained network's expression and, where it expands, its terms. */
export function extractEql(model: EqlModel): EqlExtraction {
  const { hidden } = eqlWidths(model.kinds.length, model.units);
  const texts: { value: number; text: string; latex: string }[] = [];
  const terms: Term[] = [];
  let reason: string | undefined;
  for (let k = 0; k < hidden; k++) {
    const v = model.w2[k]!;
    if (v === 0) continue;
    const group = Math.floor(k / model.units);
    const kind = group < model.kinds.length ? model.kinds[group]! : "product";
    const z = linearOf(model, k);
    const zText = linearText(model, z, false);
    const zLatex = linearText(model, z, true);
    if (kind === "product") {
      const other = linearOf(model, k + model.units);
      texts.push({
        value: v,
        text: `(${zText})*(${linearText(model, other, false)})`,
        latex: `\\left(${zLatex}\\right) \\left(${linearText(model, other, true)}\\right)`,
      });
      terms.push(...multiply(model, v, z, other));
    } else if (kind === "identity") {
      texts.push({ value: v, text: `(${zText})`, latex: `\\left(${zLatex}\\right)` });
      terms.push(...multiply(model, v, z, { coefficients: [], bias: 1 }));
    } else {
      texts.push({ value: v, text: `${kind}(${zText})`, latex: `\\${kind}\\left(${zLatex}\\right)` });
      const other = kind === "sin" ? "cos" : "sin";
      if (z.coefficients.length === 0) terms.push({ coefficient: v * unaryOf(kind, z.bias), factors: [] });
      else if (z.coefficients.length > 1)
        reason ??= `${kind}(${zText}) is a ${kind} of a sum of inputs, no product of unary factors`;
      else {
        const [i, a] = z.coefficients[0]!;
        const input = model.inputs[i]!;
        const b = z.bias;
        terms.push({ coefficient: v * cos(b), factors: [{ symbol: kind, input, weight: a }] });
        if (b !== 0)
          terms.push({
            coefficient: v * (kind === "sin" ? sin(b) : -sin(b)),
            factors: [{ symbol: other, input, weight: a }],
          });
      }
    }
  }
  if (model.b2 !== 0) {
    texts.push({ value: model.b2, text: n(Math.abs(model.b2)), latex: latexNumber(Math.abs(model.b2)) });
    terms.push({ coefficient: model.b2, factors: [] });
  }
  const join = (key: "text" | "latex") =>
    texts.length === 0
      ? "0"
      : texts
          .map((t, k) => {
            const bare = t.text === n(Math.abs(t.value));
            const body =
              key === "text"
                ? bare
                  ? t.text
                  : n(Math.abs(t.value)) === "1"
                    ? t.text
                    : `${n(Math.abs(t.value))}*${t.text}`
                : bare
                  ? t.latex
                  : n(Math.abs(t.value)) === "1"
                    ? t.latex
                    : `${latexNumber(Math.abs(t.value))} ${t.latex}`;
            const sign = t.value < 0 ? (k === 0 ? "-" : " - ") : k === 0 ? "" : " + ";
            return `${sign}${body}`;
          })
          .join("");
  return { text: join("text"), latex: join("latex"), ...(reason ? { reason } : { terms }) };
}
