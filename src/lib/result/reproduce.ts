/**
 * `consolesr reproduce` without Node: validating a version-1 result JSON and comparing the
 * equations of two results, term by term, with a relative tolerance on every coefficient and
 * inner weight. Wall-clock seconds and the git sha are never compared.
 */
import {
  checkExpression,
  isOuterName,
  OUTER_NAMES,
  type Expression,
  type Factor,
  type Term,
} from "../equation/index.js";
import { InputError, VERSION } from "../core/index.js";
import { KNOWN_REQUIREMENTS, resultEquation, type EquationResult, type ResultJson } from "./result.js";
import { escapedLine, quote, shown } from "../core/index.js";

/**
 * The largest result JSON read (bytes): consolesr writes kilobytes; a file past this is refused
 * before it is read, so that a tampered file cannot fill memory or the terminal.
 */
export const MAX_RESULT_BYTES = 16 * 2 ** 20;
/** Characters of an equation's text from a file shown in a comparison (control characters escaped). */
const TEXT_SHOWN = 2000;
/** A string from a result file in a comparison line: quoted, escaped, cut. */
const shownText = (text: unknown) => (typeof text === "string" ? quote(text, TEXT_SHOWN) : shown(text, TEXT_SHOWN));

/** Relative tolerance of two float64 runs on the same backend, and of runs involving float32. */
export const EXACT_TOLERANCE = 1e-9;
export const FLOAT32_TOLERANCE = 1e-4;

/** A plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses and validates a result JSON; every problem is one InputError naming `file`. */
export function parseResult(text: string, file: string): ResultJson {
  const value = parseJsonObject(text, file);
  if (value.version !== 1)
    throw new InputError(`${file}: unsupported result version ${shown(value.version)} (expected 1)`);
  checkRequires(value.requires, file);
  checkManifest(value.manifest, file);
  if (!Array.isArray(value.equations)) throw new InputError(`${file}: no equations array`);
  if (
    value.models !== undefined &&
    (!Array.isArray(value.models) || !value.models.every((m) => isObject(m) && typeof m.target === "string"))
  )
    throw new InputError(`${file}: models must be an array of objects with a target`);
  const listed = value.requires as unknown[] | undefined;
  for (const [i, e] of (value.equations as unknown[]).entries()) checkEquation(e, `${file}: equations[${i}]`, listed);
  return value as unknown as ResultJson;
}

/** The file's JSON (a leading byte-order mark ignored), which must be an object. */
function parseJsonObject(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InputError(
      `${file}: not a JSON file (${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ")})`,
    );
  }
  if (!isObject(value)) throw new InputError(`${file}: not a consolesr result (expected a JSON object)`);
  return value;
}

/** `requires`, when present: a list of the names of features this version knows. */
function checkRequires(requires: unknown, file: string): void {
  if (requires === undefined) return;
  if (!Array.isArray(requires) || !requires.every((r) => typeof r === "string"))
    throw new InputError(`${file}: requires must be a list of names`);
  const unknown = requires.filter((r) => !KNOWN_REQUIREMENTS.includes(r));
  if (unknown.length > 0)
    throw new InputError(
      `${file}: requires ${unknown.join(", ")}, which consolesr ${VERSION} does not know; ` +
        "a newer consolesr wrote it (upgrade to read it)",
    );
}

/** The manifest a re-run needs: a config, an integer seed, a known backend and, optionally, the data's hash. */
function checkManifest(manifest: unknown, file: string): void {
  if (!isObject(manifest)) throw new InputError(`${file}: no manifest; cannot re-run it`);
  if (!isObject(manifest.config)) throw new InputError(`${file}: manifest has no config object; cannot re-run it`);
  if (typeof manifest.seed !== "number" || !Number.isInteger(manifest.seed))
    throw new InputError(`${file}: manifest.seed must be an integer`);
  if (typeof manifest.backend !== "string" || !KNOWN_BACKENDS.includes(manifest.backend)) {
    throw new InputError(
      `${file}: manifest.backend must be one of ${KNOWN_BACKENDS.join(", ")} (got ${shown(manifest.backend)})`,
    );
  }
  if (manifest.data !== undefined) {
    const data = manifest.data;
    if (
      !isObject(data) ||
      typeof data.sha256 !== "string" ||
      !/^[0-9a-f]{64}$/.test(data.sha256) ||
      typeof data.rows !== "number" ||
      !Number.isInteger(data.rows) ||
      data.rows < 1
    ) {
      throw new InputError(`${file}: manifest.data must be { sha256: 64 hex digits, rows: a positive integer }`);
    }
  }
}

/**
 * One entry of `equations` (at `where`): a target, a text, terms, and an optional constant, outer
 * function and denominator; a feature the result does not list in `requires` (`listed`) is refused.
 */
function checkEquation(e: unknown, where: string, listed: readonly unknown[] | undefined): void {
  if (!isObject(e) || typeof e.target !== "string" || typeof e.text !== "string" || !Array.isArray(e.terms)) {
    throw new InputError(`${where} must have a target, a text and terms`);
  }
  if (e.constant !== undefined && (typeof e.constant !== "number" || !Number.isFinite(e.constant)))
    throw new InputError(`${where}.constant must be a finite number`);
  if (e.outer !== undefined && !isOuterName(e.outer))
    throw new InputError(
      `${where}.outer must be one of ${OUTER_NAMES.join(", ")} or a registered outer-function plugin's name ` +
        `(got ${shown(e.outer)})`,
    );
  if (e.outer !== undefined && !listed?.includes("outer"))
    throw new InputError(`${where} has an outer function, but the result does not list "outer" in requires`);
  const requires = (name: string, what: string) => {
    if (!listed?.includes(name))
      throw new InputError(`${where} has ${what}, but the result does not list "${name}" in requires`);
  };
  checkTerms(e.terms, `${where}.terms`, requires);
  if (e.denominator !== undefined) {
    const d = e.denominator;
    if (!isObject(d) || !Array.isArray(d.terms) || (d.constant !== undefined && typeof d.constant !== "number"))
      throw new InputError(`${where}.denominator must be { terms, constant? }`);
    requires("denominator", "a denominator");
    checkTerms(d.terms, `${where}.denominator.terms`, requires);
  }
  if (e.expression !== undefined) {
    requires("expression", "an expression");
    // Its shape here; its symbols and inputs where the registries and inputs are known (loadResult).
    checkExpression(e.expression, `${where}.expression`, () => true);
  }
}

/** Terms (at `path`) with a coefficient and factors; `requires` refuses a feature the result does not list. */
function checkTerms(terms: unknown[], path: string, requires: (name: string, what: string) => void): void {
  terms.forEach((t: unknown, j: number) => {
    if (!isObject(t) || typeof t.coefficient !== "number" || !Array.isArray(t.factors))
      throw new InputError(`${path}[${j}] must have a coefficient and factors`);
    t.factors.forEach((f: unknown, k: number) => {
      if (
        !isObject(f) ||
        typeof f.symbol !== "string" ||
        typeof f.input !== "string" ||
        (f.weight !== undefined && typeof f.weight !== "number")
      ) {
        throw new InputError(`${path}[${j}].factors[${k}] must have a symbol, an input and an optional numeric weight`);
      }
      if (f.monomial !== undefined) {
        const parts = f.monomial;
        if (
          !Array.isArray(parts) ||
          parts.length === 0 ||
          !parts.every((q) => isObject(q) && typeof q.input === "string" && Number.isInteger(q.power) && q.power !== 0)
        )
          throw new InputError(
            `${path}[${j}].factors[${k}].monomial must be a list of { input, power: a non-zero integer }`,
          );
        requires("monomial", "a monomial argument");
      }
    });
  });
}

/** Backends a manifest may name: the float64 JS engine and tfjs's. */
export const KNOWN_BACKENDS = ["js", "cpu", "wasm", "webgl", "webgpu"];

/** float64 backends: the JS engine and tfjs cpu. */
const isFloat64 = (backend: string) => backend === "js" || backend === "cpu";

/** How closely a re-run must match, and why. */
export interface TolerancePolicy {
  tolerance: number;
  /**
   * true: an exact match (1e-9, every stored field compared); false:
   * a float32-tolerance match (1e-4, the equations' numbers).
   */
  exact: boolean;
  /** Why this tolerance applies, for the report. */
  why: string;
}

/**
 * An exact match (1e-9) when both runs were on the same float64 backend; a float32-tolerance
 * match (1e-4) when either names a float32 backend, or they differ. `exact: true` (reproduce
 * --exact) demands 1e-9 whatever the backends.
 */
export function tolerancePolicy(
  oldBackend: string,
  newBackend: string,
  options: { exact?: boolean } = {},
): TolerancePolicy {
  if (options.exact) return { tolerance: EXACT_TOLERANCE, exact: true, why: "--exact asked for it" };
  if (isFloat64(oldBackend) && isFloat64(newBackend) && oldBackend === newBackend) {
    return { tolerance: EXACT_TOLERANCE, exact: true, why: `both runs on ${newBackend}, a float64 backend` };
  }
  const float32 = [oldBackend, newBackend].filter((b) => !isFloat64(b));
  const because = float32.includes(oldBackend)
    ? `the original's manifest names ${oldBackend}`
    : `the re-run used ${newBackend}`;
  const why = float32.length
    ? `allowed because ${because}, a float32 backend`
    : `allowed because the runs used different backends (${oldBackend}, ${newBackend})`;
  return { tolerance: FLOAT32_TOLERANCE, exact: false, why };
}

/** Relative tolerance of a model (the MLP) retrained on another backend: its float32 training takes another path. */
export const MODEL_TOLERANCE = 0.05;

/**
 * How closely a retrained model (a result with a `models` block) must match. Its training is
 * deterministic on one backend (the same float32 operations in the same order from the same
 * seed), so the same backend gives an exact match (1e-9); another backend trains another
 * network, compared within MODEL_TOLERANCE on its metrics and prediction fingerprint.
 */
export function modelTolerancePolicy(
  oldBackend: string,
  newBackend: string,
  options: { exact?: boolean } = {},
): TolerancePolicy {
  if (options.exact) return { tolerance: EXACT_TOLERANCE, exact: true, why: "--exact asked for it" };
  if (oldBackend === newBackend)
    return {
      tolerance: EXACT_TOLERANCE,
      exact: true,
      why: `both runs on ${newBackend}, where the model's seeded training is deterministic`,
    };
  return {
    tolerance: MODEL_TOLERANCE,
    exact: false,
    why:
      `allowed because the model was retrained on another backend (${oldBackend}, ${newBackend}), ` +
      `whose float32 training takes another path`,
  };
}

/** The tolerance of tolerancePolicy. */
export function toleranceFor(oldBackend: string, newBackend: string): number {
  return tolerancePolicy(oldBackend, newBackend).tolerance;
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
  /** Other stored fields that differ: the text and LaTeX (exact matches only) and the train NRMSE. */
  fields: string[];
  /**
   * The exact identities of the rows under which a target written with other terms is the same law
   * (the same-law rule, docs/design.md#same-law); status "close". Absent otherwise.
   */
  sameLaw?: string[];
}

/**
 * Whether two writings of a target's law are one law on the original's rows: the identities that
 * make them one (non-empty), or undefined. reproduceResult gives one that reads the training rows.
 */
export type SameWriting = (target: string, before: EquationResult, after: EquationResult) => string[] | undefined;

/** A stored field outside the equations (the search block, the evaluation) whose value differs. */
export interface FieldDifference {
  path: string;
  old: unknown;
  new: unknown;
}

export interface Comparison {
  tolerance: number;
  /** An exact comparison (every field must match) or a float32-tolerance one (the equations must). */
  exact: boolean;
  /** Why the tolerance applies (tolerancePolicy). */
  why?: string;
  targets: TargetComparison[];
  /** Differences in the search block and the evaluation: failures of an exact comparison, notes of a float32 one. */
  fields: FieldDifference[];
  /** A model method's targets (the `models` block): same, within tolerance, or different. */
  models?: { target: string; status: "same" | "close" | "different"; differences: FieldDifference[] }[];
  /**
   * Every target matches (same or within tolerance), every model within tolerance, and for an
   * exact comparison every other field too.
   */
  match: boolean;
}

const factorLabel = (f: Factor) => `${f.symbol}(${f.input})`;
const factorKey = (factors: readonly Factor[]) => factors.map(factorLabel).sort().join("*") || "1";

export const relativeDifference = (a: number, b: number): number => {
  if (a === b) return 0;
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale === 0 || !Number.isFinite(scale) ? Infinity : Math.abs(a - b) / scale;
};

function compareTerms(
  target: string,
  before: readonly Term[],
  after: readonly Term[],
  tolerance: number,
  out: TargetComparison,
): void {
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
      if (f.weight !== undefined || g.weight !== undefined)
        check(`weight of ${factorLabel(f)}`, f.weight ?? 1, g.weight ?? 1);
    }
  }
  for (const term of remaining) out.structure.push(`term ${factorKey(term.factors)} only in the re-run`);
}

/**
 * Two expressions (equations[].expression) compared: the same tree of operators and inputs, each
 * constant within `tolerance` (a number difference named by its place), else one structure difference.
 */
function compareExpressions(
  target: string,
  before: Expression | undefined,
  after: Expression | undefined,
  tolerance: number,
  out: TargetComparison,
): void {
  if (before === undefined && after === undefined) return;
  const shape = (e: Expression | undefined): string => JSON.stringify(e, (_, v) => (typeof v === "number" ? 0 : v));
  if (shape(before) !== shape(after)) {
    out.structure.push(
      `expression ${before === undefined ? "none" : "written"} → ${after === undefined ? "none" : "another"}`,
    );
    return;
  }
  const walk = (a: Expression, b: Expression, path: string) => {
    if (typeof a === "number" && typeof b === "number") {
      const relative = relativeDifference(a, b);
      out.maxRelative = Math.max(out.maxRelative, relative);
      if (relative > tolerance)
        out.numbers.push({ target, term: "expression", number: path, old: a, new: b, relative });
    } else if (Array.isArray(a) && Array.isArray(b))
      for (let i = 1; i < a.length; i++) walk(a[i] as Expression, b[i] as Expression, `${path}[${i}]`);
  };
  walk(before!, after!, "expression");
}

/** Two numbers agree within `tolerance`: relatively, or absolutely for values near zero (an NRMSE of 1e-16). */
const close = (a: number, b: number, tolerance: number) =>
  relativeDifference(a, b) <= tolerance || Math.abs(a - b) <= tolerance;

/**
 * Compares the equations of an original result with a re-run's, target by target: the terms'
 * structure and numbers within `tolerance`, the train NRMSE, and for an exact comparison (the
 * default when tolerance is EXACT_TOLERANCE) the text and LaTeX as stored.
 */
export function compareEquations(
  before: readonly EquationResult[],
  after: readonly EquationResult[],
  tolerance: number,
  exact = tolerance <= EXACT_TOLERANCE,
  sameWriting?: SameWriting,
): Comparison {
  const targets = [...new Set([...before.map((e) => e.target), ...after.map((e) => e.target)])];
  const result: TargetComparison[] = targets.map((target) => {
    const a = before.find((e) => e.target === target);
    const b = after.find((e) => e.target === target);
    const out: TargetComparison = {
      target,
      status: "different",
      oldText: a?.text,
      newText: b?.text,
      maxRelative: 0,
      numbers: [],
      structure: [],
      fields: [],
    };
    if (!a) out.structure.push("target only in the re-run");
    else if (!b) out.structure.push("target missing from the re-run");
    else {
      // The constant as a term without factors: an older result kept it among its terms.
      compareTerms(target, resultEquation(a).terms, resultEquation(b).terms, tolerance, out);
      if (a.outer !== b.outer) out.structure.push(`outer ${a.outer ?? "none"} → ${b.outer ?? "none"}`);
      compareExpressions(target, a.expression, b.expression, tolerance, out);
      if (Boolean(a.denominator) !== Boolean(b.denominator))
        out.structure.push(`denominator ${a.denominator ? "present" : "none"} → ${b.denominator ? "present" : "none"}`);
      else if (a.denominator)
        compareTerms(target, resultEquation(a).denominator!, resultEquation(b).denominator!, tolerance, out);
      if (exact && a.text !== b.text) out.fields.push(`text ${shownText(a.text)} → ${shownText(b.text)}`);
      if (exact && a.latex !== b.latex) out.fields.push(`latex ${shownText(a.latex)} → ${shownText(b.latex)}`);
      const nrmse = (v: unknown) => (typeof v === "number" ? v : Number.NaN);
      if (!(a.trainNrmse === b.trainNrmse || close(nrmse(a.trainNrmse), nrmse(b.trainNrmse), tolerance)))
        out.fields.push(`trainNrmse ${a.trainNrmse} → ${b.trainNrmse}`);
    }
    if (out.structure.length === 0 && out.numbers.length === 0 && out.fields.length === 0)
      out.status = a!.text === b!.text && out.maxRelative === 0 ? "same" : "close";
    // Another writing of the law under the rows' identities (its train NRMSE must agree all the same).
    const fitAgrees = !out.fields.some((f) => f.startsWith("trainNrmse"));
    const identities = out.status === "different" && a && b && fitAgrees ? sameWriting?.(target, a, b) : undefined;
    if (identities && identities.length > 0) {
      out.status = "close";
      out.sameLaw = identities;
    }
    return out;
  });
  return { tolerance, exact, targets: result, fields: [], match: result.every((t) => t.status !== "different") };
}

/** Paths never compared: wall-clock seconds, and the manifest (what ran where, not what it found). */
const UNCOMPARED = new Set(["search.seconds"]);

/**
 * Keys added to the search block after version 1 was first written: an original without them is
 * not compared on them.
 */
const ADDED_LATER = new Set(["noise", "score", "chosen", "unwritable", "ambiguous"]);

function compareValues(a: unknown, b: unknown, path: string, tolerance: number, out: FieldDifference[]): void {
  if (UNCOMPARED.has(path)) return;
  if (typeof a === "number" && typeof b === "number") {
    if (!close(a, b, tolerance)) out.push({ path, old: a, new: b });
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push({ path: `${path}.length`, old: a.length, new: b.length });
    else
      a.forEach((v, i) => {
        compareValues(v, b[i], `${path}[${i}]`, tolerance, out);
      });
  } else if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in a) && ADDED_LATER.has(key)) continue;
      compareValues(a[key], b[key], `${path}.${key}`, tolerance, out);
    }
  } else if (a !== b) {
    out.push({ path, old: a, new: b });
  }
}

/**
 * Compares two whole results: the equations (compareEquations), then every other stored field
 * a re-run yields (the search block but its seconds, the evaluation). An exact comparison fails
 * on any difference; a float32-tolerance one lists them as notes (float32 arithmetic may take
 * other decisions on the way to the same equations).
 */
export function compareResults(
  before: ResultJson,
  after: ResultJson,
  policy: Pick<TolerancePolicy, "tolerance" | "exact"> & { why?: string },
  sameWriting?: SameWriting,
): Comparison {
  const comparison = compareEquations(before.equations, after.equations, policy.tolerance, policy.exact, sameWriting);
  const fields: FieldDifference[] = [];
  compareValues(before.search, after.search, "search", policy.tolerance, fields);
  if (before.evaluation !== undefined || after.evaluation !== undefined)
    compareValues(before.evaluation, after.evaluation, "evaluation", policy.tolerance, fields);
  // A model has no equation: its numbers are its answer, so they must match at any tolerance.
  let models: Comparison["models"];
  if (before.models !== undefined || after.models !== undefined) {
    const targets = [...new Set([...(before.models ?? []), ...(after.models ?? [])].map((m) => m.target))];
    models = targets.map((target) => {
      const a = before.models?.find((m) => m.target === target);
      const b = after.models?.find((m) => m.target === target);
      const differences: FieldDifference[] = [];
      compareValues(a, b, `models[${target}]`, policy.tolerance, differences);
      const same = JSON.stringify(a) === JSON.stringify(b);
      return { target, status: same ? "same" : differences.length ? "different" : "close", differences };
    });
  }
  const modelsMatch = (models ?? []).every((m) => m.status !== "different");
  return {
    ...comparison,
    why: policy.why,
    fields,
    ...(models ? { models } : {}),
    match: comparison.match && modelsMatch && (!policy.exact || fields.length === 0),
  };
}

/** Human-readable lines: one per target, one per difference (indented), then a summary naming the tolerance and why. */
export function formatComparison(comparison: Comparison, backends: { old: string; new: string }): string[] {
  const lines: string[] = [];
  const g = (x: number) => (Number.isFinite(x) ? x.toPrecision(3) : String(x));
  const value = (v: unknown) => (v === undefined ? "—" : escapedLine(JSON.stringify(v) ?? String(v), TEXT_SHOWN));
  for (const t of comparison.targets) {
    if (t.status === "same") lines.push(`${t.target}: same  ${t.newText}`);
    else if (t.sameLaw)
      lines.push(
        `${t.target}: the same law written with other terms (on every training row, under ` +
          `${t.sameLaw.join("; ")})  was ${escapedLine(t.oldText ?? "—", TEXT_SHOWN)}, now ${t.newText}`,
      );
    else if (t.status === "close")
      lines.push(
        `${t.target}: same within tolerance ${comparison.tolerance} ` +
          `(max relative difference ${g(t.maxRelative)})  ${t.newText}`,
      );
    else {
      lines.push(
        `${t.target}: DIFFERENT  was ${t.oldText === undefined ? "—" : escapedLine(t.oldText, TEXT_SHOWN)}, ` +
          `now ${t.newText ?? "—"}`,
      );
      for (const s of t.structure) lines.push(`  ${t.target}: ${s}`);
      for (const n of t.numbers)
        lines.push(
          `  ${t.target} term ${n.term}: ${n.number} ${n.old} → ${n.new} (relative difference ${g(n.relative)})`,
        );
      for (const f of t.fields) lines.push(`  ${t.target}: ${f}`);
    }
  }
  for (const m of comparison.models ?? []) {
    if (m.status === "same") lines.push(`${m.target}: same model`);
    else if (m.status === "close") lines.push(`${m.target}: same model within tolerance ${comparison.tolerance}`);
    else {
      lines.push(`${m.target}: DIFFERENT model`);
      for (const f of m.differences) lines.push(`  ${f.path}: ${value(f.old)} → ${value(f.new)}`);
    }
  }
  for (const f of comparison.fields)
    lines.push(`  ${comparison.exact ? "DIFFERENT" : "note"} ${f.path}: ${value(f.old)} → ${value(f.new)}`);
  const models = comparison.models;
  const answers = models ?? comparison.targets;
  const differ = answers.filter((t) => t.status === "different").length;
  const total = answers.length;
  const noun = models ? "model" : "equation";
  const equations = `${total} ${noun}${total === 1 ? "" : "s"}`;
  const why = comparison.why ? `; ${comparison.why}` : "";
  const kind = comparison.exact
    ? `exact match, tolerance ${comparison.tolerance}${why}`
    : `float32-tolerance match, tolerance ${comparison.tolerance}${why}; not an exact match`;
  const where = `backend ${backends.old} → ${backends.new}`;
  if (comparison.match) {
    lines.push(
      comparison.exact
        ? `reproduced exactly: all ${equations} and every stored field match (${kind}; ${where})`
        : `reproduced within float32 tolerance: all ${equations} match (${kind}; ${where})`,
    );
  } else {
    const fields =
      comparison.exact && comparison.fields.length
        ? `, ${comparison.fields.length} other field${comparison.fields.length === 1 ? " differs" : "s differ"}`
        : "";
    lines.push(`NOT reproduced: ${differ} of ${equations} differ${fields} (${kind}; ${where})`);
  }
  return lines;
}
