/**
 * `consolesr reproduce` without Node: validating a version-1 result JSON and comparing the
 * equations of two results, term by term, with a relative tolerance on every coefficient and
 * inner weight. Wall-clock seconds and the git sha are never compared.
 */
import type { Factor, Term } from "./equation/types.js";
import { InputError } from "./errors.js";
import type { EquationResult, ResultJson } from "./result.js";

/** Relative tolerance of two float64 runs on the same backend, and of runs involving float32. */
export const EXACT_TOLERANCE = 1e-9;
export const FLOAT32_TOLERANCE = 1e-4;

/** A plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses and validates a result JSON; every problem is one InputError naming `file`. */
export function parseResult(text: string, file: string): ResultJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: not a JSON file (${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ")})`);
  }
  if (!isObject(value)) throw new InputError(`${file}: not a consolesr result (expected a JSON object)`);
  if (value.version !== 1) throw new InputError(`${file}: unsupported result version ${JSON.stringify(value.version)} (expected 1)`);
  const manifest = value.manifest;
  if (!isObject(manifest)) throw new InputError(`${file}: no manifest; cannot re-run it`);
  if (!isObject(manifest.config)) throw new InputError(`${file}: manifest has no config object; cannot re-run it`);
  if (typeof manifest.seed !== "number" || !Number.isInteger(manifest.seed)) throw new InputError(`${file}: manifest.seed must be an integer`);
  if (typeof manifest.backend !== "string") throw new InputError(`${file}: manifest.backend must be a string`);
  if (!Array.isArray(value.equations)) throw new InputError(`${file}: no equations array`);
  value.equations.forEach((e: unknown, i: number) => {
    const where = `${file}: equations[${i}]`;
    if (!isObject(e) || typeof e.target !== "string" || typeof e.text !== "string" || !Array.isArray(e.terms)) {
      throw new InputError(`${where} must have a target, a text and terms`);
    }
    e.terms.forEach((t: unknown, j: number) => {
      if (!isObject(t) || typeof t.coefficient !== "number" || !Array.isArray(t.factors)) throw new InputError(`${where}.terms[${j}] must have a coefficient and factors`);
      t.factors.forEach((f: unknown, k: number) => {
        if (!isObject(f) || typeof f.symbol !== "string" || typeof f.input !== "string" || (f.weight !== undefined && typeof f.weight !== "number")) {
          throw new InputError(`${where}.terms[${j}].factors[${k}] must have a symbol, an input and an optional numeric weight`);
        }
      });
    });
  });
  return value as unknown as ResultJson;
}

/** float64 backends: the JS engine and tfjs cpu. */
const isFloat64 = (backend: string) => backend === "js" || backend === "cpu";

/** 1e-9 when both runs were on float64 backends and the same one; 1e-4 (float32) otherwise. */
export function toleranceFor(oldBackend: string, newBackend: string): number {
  return isFloat64(oldBackend) && isFloat64(newBackend) && oldBackend === newBackend ? EXACT_TOLERANCE : FLOAT32_TOLERANCE;
}

export interface NumberDifference {
  target: string;
  /** The term's structure, e.g. "x^2(x1)*cos(x2)". */
  term: string;
  /** "coefficient" or "weight of cos(x2)". */
  number: string;
  old: number;
  new: number;
  relative: number;
}

export interface TargetComparison {
  target: string;
  /** same: identical text and numbers; close: same structure, numbers within tolerance; different. */
  status: "same" | "close" | "different";
  oldText?: string;
  newText?: string;
  /** Largest relative difference of a coefficient or weight (0 when identical). */
  maxRelative: number;
  /** Numbers beyond the tolerance. */
  numbers: NumberDifference[];
  /** Structural differences: terms only in one result, a target missing from one. */
  structure: string[];
}

export interface Comparison {
  tolerance: number;
  targets: TargetComparison[];
  /** Every target matches (same or within tolerance). */
  match: boolean;
}

const factorLabel = (f: Factor) => `${f.symbol}(${f.input})`;
const factorKey = (factors: readonly Factor[]) => factors.map(factorLabel).sort().join("*") || "1";

export const relativeDifference = (a: number, b: number): number => {
  if (a === b) return 0;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale === 0 || !Number.isFinite(scale) ? Infinity : Math.abs(a - b) / scale;
};

function compareTerms(target: string, before: readonly Term[], after: readonly Term[], tolerance: number, out: TargetComparison): void {
  const remaining = [...after];
  for (const term of before) {
    const key = factorKey(term.factors);
    const at = remaining.findIndex((t) => factorKey(t.factors) === key);
    if (at < 0) {
      out.structure.push(`term ${key} only in the original`);
      continue;
    }
    const [other] = remaining.splice(at, 1);
    const check = (number: string, a: number, b: number) => {
      const relative = relativeDifference(a, b);
      out.maxRelative = Math.max(out.maxRelative, relative);
      if (relative > tolerance) out.numbers.push({ target, term: key, number, old: a, new: b, relative });
    };
    check("coefficient", term.coefficient, other!.coefficient);
    const factors = [...other!.factors];
    for (const f of term.factors) {
      const j = factors.findIndex((g) => g.symbol === f.symbol && g.input === f.input);
      const g = factors.splice(j, 1)[0]!;
      if (f.weight !== undefined || g.weight !== undefined) check(`weight of ${factorLabel(f)}`, f.weight ?? 1, g.weight ?? 1);
    }
  }
  for (const term of remaining) out.structure.push(`term ${factorKey(term.factors)} only in the re-run`);
}

/** Compares the equations of an original result with a re-run's, target by target. */
export function compareEquations(before: readonly EquationResult[], after: readonly EquationResult[], tolerance: number): Comparison {
  const targets = [...new Set([...before.map((e) => e.target), ...after.map((e) => e.target)])];
  const result: TargetComparison[] = targets.map((target) => {
    const a = before.find((e) => e.target === target);
    const b = after.find((e) => e.target === target);
    const out: TargetComparison = { target, status: "different", oldText: a?.text, newText: b?.text, maxRelative: 0, numbers: [], structure: [] };
    if (!a) out.structure.push("target only in the re-run");
    else if (!b) out.structure.push("target missing from the re-run");
    else compareTerms(target, a.terms, b.terms, tolerance, out);
    if (out.structure.length === 0 && out.numbers.length === 0) out.status = a!.text === b!.text && out.maxRelative === 0 ? "same" : "close";
    return out;
  });
  return { tolerance, targets: result, match: result.every((t) => t.status !== "different") };
}

/** Human-readable lines: one per target, one per difference (indented), then a summary. */
export function formatComparison(comparison: Comparison, backends: { old: string; new: string }): string[] {
  const lines: string[] = [];
  const g = (x: number) => (Number.isFinite(x) ? x.toPrecision(3) : String(x));
  for (const t of comparison.targets) {
    if (t.status === "same") lines.push(`${t.target}: same  ${t.newText}`);
    else if (t.status === "close") lines.push(`${t.target}: same within tolerance ${comparison.tolerance} (max relative difference ${g(t.maxRelative)})  ${t.newText}`);
    else {
      lines.push(`${t.target}: DIFFERENT  was ${t.oldText ?? "—"}, now ${t.newText ?? "—"}`);
      for (const s of t.structure) lines.push(`  ${t.target}: ${s}`);
      for (const n of t.numbers) lines.push(`  ${t.target} term ${n.term}: ${n.number} ${n.old} → ${n.new} (relative difference ${g(n.relative)})`);
    }
  }
  const differ = comparison.targets.filter((t) => t.status === "different").length;
  const total = comparison.targets.length;
  const where = `backend ${backends.old} → ${backends.new}, tolerance ${comparison.tolerance}`;
  lines.push(differ === 0 ? `reproduced: all ${total} equation${total === 1 ? "" : "s"} match (${where})` : `NOT reproduced: ${differ} of ${total} equation${total === 1 ? "" : "s"} differ (${where})`);
  return lines;
}
