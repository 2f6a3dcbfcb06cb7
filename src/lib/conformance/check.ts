/**
 * Conformance checks for plugins (`consolesr check-plugin`), browser-safe so that a page can run
 * them too. tfjs comes in as an argument (one engine per process, as for `apply`); every random
 * point comes from a seeded Rng, so a report is reproducible.
 *
 * symbol      text     text("x1") and text("2.5*x1") contain their argument and the --form
 *                      parser reads them back as this symbol
 *             latex    latex("x_{1}") and latex("2.5 x_{1}") render with KaTeX (throwOnError)
 *             evaluate finite at every in-domain point of [-3, 3]; with no declared domain a
 *                      NaN/±Infinity there is reported as an undeclared domain
 *             domain   evaluate outside the declared domain is NaN, never a finite number
 *                      ("never a quiet 0")
 *             apply    the tfjs op equals evaluate at the in-domain points (float32 tolerance)
 *             gradient tf.grad of sum(apply(x)) equals a central difference of evaluate
 *             derivative  (when declared) equals the central difference of evaluate
 *             fold     (when declared) f(w·x) = coefficient·f(weight·x)
 *             shift    (when declared) f(w·x) = f(weight·x) + shift
 *             period   (when declared) f(x + period) = f(x)
 *             power    (when declared) f(x) = x^power at the in-domain points (inner weight 1)
 * constraint  describe returns text; check returns true or a non-empty string on sample
 *             contexts (frozen: a check that mutates its context fails), the same answer on the
 *             same context twice (deterministic); keep (when declared) likewise
 * reward      score is finite and within the declared range on sample fits, deterministic, and
 *             an exact fit (NRMSE 0) scores at least as much as every other sample fit of the
 *             same complexity (a reward may trade accuracy for size, never lose to an error)
 * outer       text(inner) and latex(inner) contain their argument, the LaTeX renders; domain
 *             returns true or false and holds somewhere in [-3, 3] or on (0, 10]; inside it
 *             inverse is finite and apply(inverse(y)) = y (1e-9 relative: a wrong domain or a
 *             wrong inverse fails here); cost positive (validated)
 * any kind    the fields validate, and the name is not taken by another plugin of its kind
 */
import { parseForm } from "../equation/index.js";
import { nrmse } from "../numeric/index.js";
import {
  validatePlugin,
  type ConstraintContext,
  type ConstraintPlugin,
  type Plugin,
  type Product,
  type RewardFit,
  type RewardPlugin,
  type SymbolPlugin,
  type OuterPlugin,
} from "../plugins/index.js";
import { createRng, errorLine, type Rng } from "../core/index.js";
import type { Tf } from "../engine/index.js";
import type { Tf as CoreTf, Tensor } from "../engine/tf.js";

export interface PluginCheckFailure {
  /** The plugin's name (or where it came from, when it has none). */
  plugin: string;
  /** The check that failed, e.g. "gradient". */
  check: string;
  /** What went wrong, with the offending input. */
  message: string;
}

export interface PluginCheckReport {
  plugin: string;
  kind: Plugin["kind"] | "unknown";
  /** Names of the checks that ran. */
  checks: string[];
  failures: PluginCheckFailure[];
}

export interface CheckPluginsOptions {
  /** The tfjs namespace the symbols' `apply` runs on. */
  tf: Tf;
  /** Seed of the random points and sample contexts (default 0). */
  seed?: number;
  /** Random points per symbol in [-3, 3] (default 64). */
  points?: number;
  /** Names already registered per kind (the built-ins): a plugin must not take one. */
  registered?: Partial<Record<Plugin["kind"], readonly string[]>>;
  /** Where the plugins come from, to name a plugin that has no name. */
  origin?: string;
  /**
   * Renders a symbol's LaTeX, throwing where it cannot (KaTeX's `renderToString` with
   * `throwOnError: true`, as the report pages render it). Without it a symbol's LaTeX is checked
   * to be a string only, and the report lists the check as "latex (not rendered)". KaTeX is an
   * optional peer dependency: `check-plugin` uses it where it is installed.
   */
  renderLatex?: (latex: string) => void;
}

/** One line per failure: `plugin <name>: <check>: <message>`. */
export const formatFailure = (f: PluginCheckFailure): string => `plugin ${f.plugin}: ${f.check}: ${f.message}`;

const num = (x: number) => (Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x));
const isThenable = (v: unknown) =>
  typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
const show = (v: unknown) =>
  typeof v === "number"
    ? num(v)
    : typeof v === "string"
      ? JSON.stringify(v)
      : typeof v === "function"
        ? "a function"
        : isThenable(v)
          ? "a Promise (plugin functions must be synchronous)"
          : (JSON.stringify(v) ?? String(v));

/** Collects the failures of one plugin; each check runs isolated (a throw fails that check only). */
class Checker {
  readonly checks: string[] = [];
  readonly failures: PluginCheckFailure[] = [];
  constructor(readonly plugin: string) {}
  run(check: string, body: (fail: (message: string) => void) => void): void {
    this.checks.push(check);
    let failed = false;
    const fail = (message: string) => {
      if (failed) return; // the first offending input is enough
      failed = true;
      this.failures.push({ plugin: this.plugin, check, message });
    };
    try {
      body(fail);
    } catch (cause) {
      fail(`threw: ${errorLine(cause)}`);
    }
  }
}

/** Checks every candidate (raw objects, e.g. a plugin file's exports). */
export function checkPlugins(candidates: readonly unknown[], options: CheckPluginsOptions): PluginCheckReport[] {
  const taken = new Map<string, Set<string>>();
  for (const kind of ["symbol", "constraint", "reward", "outer"] as const)
    taken.set(kind, new Set(options.registered?.[kind] ?? []));
  return candidates.map((candidate, i) => {
    const report = checkPlugin(candidate, {
      ...options,
      origin: candidates.length > 1 ? `${options.origin ?? "plugin"} #${i + 1}` : options.origin,
    });
    if (report.kind !== "unknown") {
      const names = taken.get(report.kind)!;
      report.checks.unshift("name");
      if (names.has(report.plugin)) {
        report.failures.unshift({
          plugin: report.plugin,
          check: "name",
          message:
            `a ${report.kind} named "${report.plugin}" is already ` +
            `registered (a built-in or another plugin checked here)`,
        });
      }
      names.add(report.plugin);
    }
    return report;
  });
}

/** Checks one candidate plugin. */
export function checkPlugin(candidate: unknown, options: CheckPluginsOptions): PluginCheckReport {
  const label = (candidate as { name?: unknown } | null)?.name;
  const name = typeof label === "string" && label ? label : (options.origin ?? "plugin");
  let plugin: Plugin;
  try {
    plugin = validatePlugin(candidate, options.origin);
  } catch (cause) {
    const who = typeof label === "string" && label ? `plugin ${label}: ` : `${options.origin ?? "plugin"}: `;
    const text = errorLine(cause);
    const message = text.startsWith(who) ? text.slice(who.length) : text;
    return {
      plugin: name,
      kind: "unknown",
      checks: ["fields"],
      failures: [{ plugin: name, check: "fields", message }],
    };
  }
  const checker = new Checker(plugin.name);
  const rng = createRng(options.seed ?? 0);
  if (plugin.kind === "symbol") checkSymbol(plugin, checker, rng, options);
  else if (plugin.kind === "constraint") checkConstraint(plugin, checker, rng);
  else if (plugin.kind === "reward") checkReward(plugin, checker, rng);
  else checkOuter(plugin, checker, rng, options);
  return { plugin: plugin.name, kind: plugin.kind, checks: checker.checks, failures: checker.failures };
}

// ---------------------------------------------------------------------------------------------
// symbols

const LO = -3;
const HI = 3;
/** Distance to the domain's edge that finite differences keep. */
const MARGIN = 0.05;

function checkSymbol(s: SymbolPlugin, c: Checker, rng: Rng, options: CheckPluginsOptions): void {
  const n = options.points ?? 64;
  // float32-representable points, so that tfjs (float32) and evaluate (float64) see the same x.
  const random = Array.from({ length: n }, () => Math.fround(rng.uniform(LO, HI)));
  checkSymbolText(s, c);
  checkSymbolLatex(s, c, options.renderLatex);
  // The points evaluate must be finite at: the in-domain random points, and 0 and ±1 when no
  // domain is declared (1/x would hide from random points).
  const inside = s.domain ? random.filter((x) => inDomain(s, x)) : [...random, 0, 1, -1];
  checkSymbolEvaluate(s, c, inside, n);
  if (s.domain) checkSymbolDomain(s, c, random);
  const finite = inside.filter((x) => finiteAt(s, x));
  checkSymbolApply(s, c, finite, options.tf);
  // Finite differences need x ± MARGIN inside the domain.
  const smooth = finite.filter((x) => inDomain(s, x - MARGIN) && inDomain(s, x + MARGIN));
  checkSymbolGradient(s, c, smooth, options.tf);
  if (s.derivative) checkSymbolDerivative(s, c, smooth);
  if (s.fold) checkSymbolFold(s, c, finite);
  if (s.shift) checkSymbolShift(s, c, finite);
  if (s.power !== undefined) checkSymbolPower(s, c, finite);
  if (s.period !== undefined) checkSymbolPeriod(s, c, finite);
}

// Used to pick points outside the checks: a domain or evaluate that throws counts as "no" here,
// and is reported by the check that calls it directly.
function inDomain(s: SymbolPlugin, x: number): boolean {
  try {
    return !s.domain || s.domain(x) === true;
  } catch {
    return false;
  }
}
function finiteAt(s: SymbolPlugin, x: number): boolean {
  try {
    return Number.isFinite(s.evaluate(x));
  } catch {
    return false;
  }
}
function centralDifference(s: SymbolPlugin, x: number): number {
  const h = 1e-6 * Math.max(1, Math.abs(x));
  return (s.evaluate(x + h) - s.evaluate(x - h)) / (2 * h);
}

/** text contains its argument and the `form` parser reads it back as this symbol. */
function checkSymbolText(s: SymbolPlugin, c: Checker): void {
  c.run("text", (fail) => {
    for (const arg of ["x1", ...(s.innerWeight ? ["2.5*x1"] : [])]) {
      const text = s.text(arg);
      if (typeof text !== "string") return fail(`text(${show(arg)}) returned ${show(text)}, not a string`);
      if (!text.includes(arg)) return fail(`text(${show(arg)}) = ${show(text)} does not contain its argument`);
      let read: ReturnType<typeof parseForm>;
      try {
        read = parseForm(`y = ${text}`, { symbols: [s], inputs: ["x1"], targets: ["y"] });
      } catch (cause) {
        return fail(`the \`form\` parser cannot read text(${show(arg)}) = ${show(text)} back: ${errorLine(cause)}`);
      }
      const factor = read[0]?.terms[0]?.factors[0];
      if (factor?.symbol !== s.name || factor.input !== "x1")
        return fail(`the \`form\` parser reads text(${show(arg)}) = ${show(text)} as ${show(factor)}`);
    }
  });
}

/** latex returns a string that KaTeX renders (when a renderer is given). */
function checkSymbolLatex(s: SymbolPlugin, c: Checker, render: CheckPluginsOptions["renderLatex"]): void {
  c.run(render ? "latex" : "latex (not rendered)", (fail) => {
    for (const arg of ["x_{1}", "2.5 x_{1}"]) {
      const latex = s.latex(arg);
      if (typeof latex !== "string") return fail(`latex(${show(arg)}) returned ${show(latex)}, not a string`);
      if (!render) continue;
      try {
        render(latex);
      } catch (cause) {
        return fail(`KaTeX rejects latex(${show(arg)}) = ${show(latex)}: ${errorLine(cause)}`);
      }
    }
  });
}

/** evaluate is a finite number at every in-domain point (`tried`: how many random points there were). */
function checkSymbolEvaluate(s: SymbolPlugin, c: Checker, inside: readonly number[], tried: number): void {
  c.run("evaluate", (fail) => {
    if (inside.length === 0) return fail(`no point of [${LO}, ${HI}] is inside the declared domain (tried ${tried})`);
    for (const x of inside) {
      const v = s.evaluate(x);
      if (typeof v !== "number") return fail(`evaluate(${num(x)}) returned ${show(v)}, not a number`);
      if (Number.isFinite(v)) continue;
      if (!s.domain)
        return fail(
          `undeclared domain: evaluate(${num(x)}) = ${v} but the symbol declares no domain; ` +
            `add domain: (x) => … (and return NaN outside it)`,
        );
      return fail(`evaluate(${num(x)}) = ${v} inside the declared domain`);
    }
  });
}

/** domain answers true or false, and evaluate outside it is NaN ("never a quiet 0"). */
function checkSymbolDomain(s: SymbolPlugin, c: Checker, random: readonly number[]): void {
  c.run("domain", (fail) => {
    for (const x of random) {
      const verdict = s.domain!(x);
      if (typeof verdict !== "boolean") return fail(`domain(${num(x)}) returned ${show(verdict)}, not true or false`);
      if (verdict) continue;
      const v = s.evaluate(x);
      if (typeof v === "number" && Number.isFinite(v))
        return fail(
          `evaluate(${num(x)}) = ${num(v)} outside the declared domain; it must be NaN (never a quiet ${num(v)})`,
        );
    }
  });
}

/** The tfjs op equals evaluate at the finite points (float32 tolerance). */
function checkSymbolApply(s: SymbolPlugin, c: Checker, finite: number[], engine: Tf): void {
  // The checks drive tfjs-core itself (tidy, Tensor): the Tf given is the library's tf.
  const tf = engine as unknown as CoreTf;
  c.run("apply", (fail) => {
    if (finite.length === 0) return;
    const out = tf.tidy(() => {
      const result = s.apply(tf.tensor1d(finite, "float32"), engine) as unknown;
      if (!(result instanceof tf.Tensor)) throw new Error(`apply returned ${show(result)}, not a tensor`);
      if (result.shape.length !== 1 || result.shape[0] !== finite.length)
        throw new Error(`apply changed the shape [${finite.length}] to [${result.shape.join(", ")}]`);
      return result;
    });
    const values = out.dataSync();
    out.dispose();
    finite.forEach((x, i) => {
      const expected = s.evaluate(x);
      const got = values[i]!;
      if (!(Math.abs(got - expected) <= 1e-4 * Math.max(1, Math.abs(expected))))
        fail(`the tfjs op gives ${num(got)} at x = ${num(x)} but evaluate gives ${num(expected)}`);
    });
  });
}

/** tf.grad of sum(apply(x)) equals a central difference of evaluate. */
function checkSymbolGradient(s: SymbolPlugin, c: Checker, smooth: number[], engine: Tf): void {
  const tf = engine as unknown as CoreTf;
  c.run("gradient", (fail) => {
    if (smooth.length === 0) return;
    const out = tf.tidy(() =>
      tf.grad((x: Tensor) => tf.sum(s.apply(x, engine) as Tensor))(tf.tensor1d(smooth, "float32")),
    );
    const grads = out.dataSync();
    out.dispose();
    smooth.forEach((x, i) => {
      const fd = centralDifference(s, x);
      const got = grads[i]!;
      if (!(Math.abs(got - fd) <= 2e-3 * Math.max(1, Math.abs(fd))))
        fail(
          `autodiff of the tfjs op gives ${num(got)} at x = ${num(x)} ` +
            `but a central difference of evaluate gives ${num(fd)}`,
        );
    });
  });
}

/** The declared derivative equals a central difference of evaluate. */
function checkSymbolDerivative(s: SymbolPlugin, c: Checker, smooth: readonly number[]): void {
  c.run("derivative", (fail) => {
    for (const x of smooth) {
      const fd = centralDifference(s, x);
      const d = s.derivative!(x);
      if (!(Math.abs(d - fd) <= 1e-5 * Math.max(1, Math.abs(fd))))
        return fail(`derivative(${num(x)}) = ${num(d)} but a central difference of evaluate gives ${num(fd)}`);
    }
  });
}

/** Inner weights the fold and shift checks try. */
const WEIGHTS = [0.5, 1.7, -1.3, -0.4];

/** The declared fold: f(w·x) = coefficient·f(weight·x). */
function checkSymbolFold(s: SymbolPlugin, c: Checker, finite: readonly number[]): void {
  c.run("fold", (fail) => {
    for (const w of WEIGHTS) {
      const folded = s.fold!(w);
      if (!folded || !Number.isFinite(folded.coefficient) || !Number.isFinite(folded.weight))
        return fail(`fold(${num(w)}) returned ${show(folded)}, not finite { coefficient, weight }`);
      for (const x of finite) {
        if (!inDomain(s, w * x)) continue;
        const direct = s.evaluate(w * x);
        const refolded = folded.coefficient * s.evaluate(folded.weight * x);
        if (!(Math.abs(direct - refolded) <= 1e-9 * Math.max(1, Math.abs(direct)))) {
          return fail(
            `fold(${num(w)}) = { coefficient: ${num(folded.coefficient)}, weight: ${num(folded.weight)} } but ` +
              `f(${num(w)}·${num(x)}) = ${num(direct)} ≠ ${num(refolded)}`,
          );
        }
      }
    }
  });
}

/** The declared shift: f(w·x) = f(weight·x) + shift. */
function checkSymbolShift(s: SymbolPlugin, c: Checker, finite: readonly number[]): void {
  c.run("shift", (fail) => {
    for (const w of WEIGHTS) {
      const moved = s.shift!(w);
      if (!moved || !Number.isFinite(moved.shift) || !Number.isFinite(moved.weight))
        return fail(`shift(${num(w)}) returned ${show(moved)}, not finite { shift, weight }`);
      for (const x of finite) {
        if (!inDomain(s, w * x) || !inDomain(s, moved.weight * x)) continue;
        const direct = s.evaluate(w * x);
        const shifted = s.evaluate(moved.weight * x) + moved.shift;
        if (!(Math.abs(direct - shifted) <= 1e-9 * Math.max(1, Math.abs(direct))))
          return fail(
            `shift(${num(w)}) = { shift: ${num(moved.shift)}, weight: ${num(moved.weight)} } but ` +
              `f(${num(w)}·${num(x)}) = ${num(direct)} ≠ ${num(shifted)}`,
          );
      }
    }
  });
}

/** The declared power: f(x) = x^power at the finite points (inner weight 1). */
function checkSymbolPower(s: SymbolPlugin, c: Checker, finite: readonly number[]): void {
  c.run("power", (fail) => {
    const p = s.power!;
    for (const x of finite) {
      if (x === 0 || (x < 0 && !Number.isInteger(p))) continue;
      const here = s.evaluate(x);
      const expected = Math.sign(x) ** Math.round(p) * Math.abs(x) ** p;
      if (!(Math.abs(here - expected) <= 1e-9 * Math.max(1, Math.abs(expected))))
        return fail(`f(${num(x)}) = ${num(here)} but ${num(x)}^${num(p)} = ${num(expected)}: not that power`);
    }
  });
}

/** The declared period: f(x + period) = f(x). */
function checkSymbolPeriod(s: SymbolPlugin, c: Checker, finite: readonly number[]): void {
  c.run("period", (fail) => {
    const period = s.period!;
    for (const x of finite) {
      if (!inDomain(s, x + period)) continue;
      const here = s.evaluate(x);
      const there = s.evaluate(x + period);
      if (!(Math.abs(here - there) <= 1e-9 * Math.max(1, Math.abs(here))))
        return fail(`f(${num(x)}) = ${num(here)} but f(${num(x)} + ${num(period)}) = ${num(there)}: not the period`);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// constraints

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const INPUTS = ["x1", "x2", "x3"];
const SYMBOLS = ["x", "x^2", "sin", "cos", "tanh", "log"];

function subset(rng: Rng, from: readonly number[], size: number): number[] {
  const pool = [...from];
  const out: number[] = [];
  while (out.length < size && pool.length > 0) out.push(pool.splice(rng.int(pool.length), 1)[0]!);
  return out.sort((a, b) => a - b);
}

/**
 * Sample contexts of the ConstraintContext shape: every layer, with limits of 2 and 3, with and
 * without evidence (some above the Pearson threshold), a few edge cases (nothing enabled, a
 * product of three trigonometric factors, an empty product summed).
 */
export function sampleConstraintContexts(rng: Rng, count = 36): ConstraintContext[] {
  const neurons = INPUTS.length * SYMBOLS.length;
  const all = Array.from({ length: neurons }, (_, i) => i);
  const contexts: ConstraintContext[] = [];
  const make = (
    layer: number,
    terms: number,
    limits: ConstraintContext["limits"],
    enabled: number[],
    products: Product[] | undefined,
    sums: number[] | undefined,
    evidence: ConstraintContext["evidence"],
  ) => {
    const action =
      layer === 0
        ? all.map((i) => (enabled.includes(i) ? 1 : 0))
        : layer === 1
          ? all.flatMap((i) => Array.from({ length: terms }, (_, j) => (products![j]!.includes(i) ? 1 : 0)))
          : Array.from({ length: terms }, (_, j) => (sums!.includes(j) ? 1 : 0));
    const state = [...INPUTS.map(() => 1), ...all.map((i) => (enabled.includes(i) && layer > 0 ? 1 : 0)), layer];
    const structure: ConstraintContext["structure"] = {
      neurons: enabled,
      ...(products ? { products } : {}),
      ...(sums ? { sums } : {}),
    };
    contexts.push({
      layer,
      state,
      action,
      space: { inputs: INPUTS, symbols: SYMBOLS, neurons, terms },
      structure,
      limits,
      evidence,
    });
  };
  for (let k = 0; k < count; k++) {
    const layer = k % 3;
    const maxFactors = 2 + rng.int(2);
    const terms = 2 + rng.int(2);
    const limits = { maxFactors, maxTerms: terms, pearson: 0.9999 };
    const enabled = subset(rng, all, 1 + rng.int(6));
    const products =
      layer >= 1 ? Array.from({ length: terms }, () => subset(rng, enabled, rng.int(maxFactors + 2))) : undefined;
    const sums =
      layer === 2
        ? subset(
            rng,
            Array.from({ length: terms }, (_, j) => j),
            rng.int(terms + 1),
          )
        : undefined;
    const evidence = Array.from({ length: rng.int(4) }, () => {
      const product = subset(rng, enabled, 1 + rng.int(2));
      return { product, pearson: rng.next() < 0.3 ? 0.99995 : rng.next(), nrmse: rng.next() };
    });
    make(layer, terms, limits, enabled, products, sums, evidence);
  }
  const limits = { maxFactors: 3, maxTerms: 2, pearson: 0.9999 };
  const trig = [2, 3 + SYMBOLS.length, 4 + 2 * SYMBOLS.length]; // sin(x1), cos(x2), tanh(x3)
  make(0, 2, limits, [], undefined, undefined, []);
  make(1, 2, limits, trig, [trig, []], undefined, []);
  make(2, 2, limits, trig, [trig, [trig[0]!]], [0, 1], [{ product: [trig[0]!], pearson: 0.99999, nrmse: 0.1 }]);
  make(2, 2, limits, trig, [[], [trig[1]!]], [0], []);
  return contexts.map(deepFreeze);
}

const describeContext = (ctx: ConstraintContext) =>
  `layer ${ctx.layer}, neurons [${ctx.structure.neurons.join(",")}]` +
  (ctx.structure.products ? `, products ${JSON.stringify(ctx.structure.products)}` : "") +
  (ctx.structure.sums ? `, sums [${ctx.structure.sums.join(",")}]` : "") +
  `, maxFactors ${ctx.limits.maxFactors}, terms ${ctx.space.terms}`;

function checkConstraint(p: ConstraintPlugin, c: Checker, rng: Rng): void {
  const contexts = sampleConstraintContexts(rng);
  c.run("describe", (fail) => {
    const text = p.describe();
    if (typeof text !== "string" || text.trim() === "") fail(`describe() returned ${show(text)}, not a description`);
  });
  const answers: unknown[] = [];
  c.run("check", (fail) => {
    for (const ctx of contexts) {
      let verdict: unknown;
      try {
        verdict = p.check(ctx);
      } catch (cause) {
        const text = errorLine(cause);
        const frozen = /read.only|frozen|not extensible/i.test(text) ? " (a check must not modify its context)" : "";
        return fail(`check threw on the context (${describeContext(ctx)}): ${text}${frozen}`);
      }
      if (verdict !== true && (typeof verdict !== "string" || verdict === ""))
        return fail(
          `check returned ${show(verdict)} on the context (${describeContext(ctx)}); ` +
            `it must return true or a non-empty reason`,
        );
      answers.push(verdict);
    }
  });
  c.run("deterministic", (fail) => {
    if (answers.length !== contexts.length) return; // "check" failed already
    contexts.forEach((ctx, i) => {
      const again = p.check(deepFreeze(structuredClone(ctx)));
      if (again !== answers[i])
        fail(
          `check returned ${show(answers[i])} and then ${show(again)} on the same context (${describeContext(ctx)})`,
        );
    });
  });
  if (p.keep) {
    c.run("keep", (fail) => {
      for (const ctx of contexts) {
        const input = { evidence: ctx.evidence, limits: ctx.limits };
        const kept = p.keep!(input);
        const valid =
          Array.isArray(kept) &&
          kept.every(
            (product) =>
              Array.isArray(product) && product.every((i) => Number.isInteger(i) && i >= 0 && i < ctx.space.neurons),
          );
        if (!valid)
          return fail(
            `keep returned ${show(kept)} (${describeContext(ctx)}); it must return products: arrays of neuron indices`,
          );
        const again = p.keep!(deepFreeze(structuredClone(input)));
        if (JSON.stringify(again) !== JSON.stringify(kept))
          return fail(`keep returned ${show(kept)} and then ${show(again)} on the same evidence`);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// rewards

const COMPLEXITIES = [1, 2, 4, 7, 12, 20];
const NOISE = [0, 1e-9, 1e-6, 1e-3, 0.05, 0.3, 1, 3];

/** Sample fits: a target column, predictions at several noise levels, several complexities. */
export function sampleRewardFits(rng: Rng, rows = 40): RewardFit[] {
  const yTrue = Float64Array.from({ length: rows }, () => 1 + 2 * rng.normal());
  const fits: RewardFit[] = [];
  for (const complexity of COMPLEXITIES) {
    for (const level of NOISE) {
      const yPred = Float64Array.from(yTrue, (y) => y + level * 2 * rng.normal());
      fits.push({ yTrue, yPred, nrmse: level === 0 ? 0 : nrmse(yTrue, yPred), complexity });
    }
    const mean = yTrue.reduce((s, y) => s + y, 0) / rows;
    const flat = new Float64Array(rows).fill(mean);
    fits.push({ yTrue, yPred: flat, nrmse: nrmse(yTrue, flat), complexity });
    const flipped = Float64Array.from(yTrue, (y) => -y);
    fits.push({ yTrue, yPred: flipped, nrmse: nrmse(yTrue, flipped), complexity });
  }
  return fits;
}

const describeFit = (fit: RewardFit) => `NRMSE ${num(fit.nrmse)}, complexity ${fit.complexity}`;

function checkReward(p: RewardPlugin, c: Checker, rng: Rng): void {
  const fits = sampleRewardFits(rng);
  const [lo, hi] = p.range;
  const slack = 1e-12 * Math.max(1, hi - lo);
  const scores: number[] = [];
  c.run("range", (fail) => {
    for (const fit of fits) {
      let score: unknown;
      try {
        score = p.score(fit);
      } catch (cause) {
        return fail(`score threw on a fit with ${describeFit(fit)}: ${errorLine(cause)}`);
      }
      if (typeof score !== "number" || !Number.isFinite(score))
        return fail(`score returned ${show(score)} for a fit with ${describeFit(fit)}; it must be a finite number`);
      if (score < lo - slack || score > hi + slack)
        return fail(
          `score returned ${num(score)} for a fit with ${describeFit(fit)}, outside the declared range [${lo}, ${hi}]`,
        );
      scores.push(score);
    }
  });
  if (scores.length !== fits.length) return; // the other checks need every score
  c.run("deterministic", (fail) => {
    fits.forEach((fit, i) => {
      const again = p.score({ ...fit });
      if (again !== scores[i])
        fail(`score returned ${num(scores[i]!)} and then ${show(again)} for the same fit (${describeFit(fit)})`);
    });
  });
  c.run("maximum", (fail) => {
    fits.forEach((fit, i) => {
      const exact = fits.findIndex((f) => f.nrmse === 0 && f.complexity === fit.complexity);
      if (scores[i]! > scores[exact]! + slack)
        fail(
          `an exact fit (NRMSE 0, complexity ${fit.complexity}) scores ${num(scores[exact]!)}, ` +
            `less than ${num(scores[i]!)} for a fit with ${describeFit(fit)}; an exact fit must score highest`,
        );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// outer functions

function checkOuter(g: OuterPlugin, c: Checker, rng: Rng, options: CheckPluginsOptions): void {
  c.run("text", (fail) => {
    const text = g.text("a + 2*b");
    if (typeof text !== "string") return fail(`text("a + 2*b") returned ${show(text)}, not a string`);
    if (!text.includes("a + 2*b")) return fail(`text("a + 2*b") = ${show(text)} does not contain its argument`);
  });
  const render = options.renderLatex;
  c.run(render ? "latex" : "latex (not rendered)", (fail) => {
    const latex = g.latex("a + 2 b");
    if (typeof latex !== "string") return fail(`latex("a + 2 b") returned ${show(latex)}, not a string`);
    if (!latex.includes("a + 2 b")) return fail(`latex("a + 2 b") = ${show(latex)} does not contain its argument`);
    if (!render) return;
    try {
      render(latex);
    } catch (cause) {
      return fail(`KaTeX rejects latex("a + 2 b") = ${show(latex)}: ${errorLine(cause)}`);
    }
  });
  // Targets to try: both signs of [-3, 3], and positive values over several decades.
  const n = options.points ?? 64;
  const points = [
    ...Array.from({ length: n }, () => rng.uniform(LO, HI)),
    ...Array.from({ length: n }, () => 10 ** rng.uniform(-3, 1)),
  ];
  c.run("domain", (fail) => {
    let inside = 0;
    for (const y of points) {
      const verdict = g.domain(y);
      if (typeof verdict !== "boolean") return fail(`domain(${num(y)}) returned ${show(verdict)}, not true or false`);
      if (verdict) inside++;
    }
    if (inside === 0) fail(`no target in [${LO}, ${HI}] or (0.001, 10) is inside the declared domain`);
  });
  c.run("inverse", (fail) => {
    for (const y of points) {
      if (g.domain(y) !== true) continue;
      const t = g.inverse(y);
      if (typeof t !== "number" || !Number.isFinite(t))
        return fail(`inverse(${num(y)}) = ${show(t)} inside the declared domain (a wrong domain, or a wrong inverse)`);
      const back = g.apply(t);
      if (!(Math.abs(back - y) <= 1e-9 * Math.max(1, Math.abs(y))))
        return fail(
          `apply(inverse(${num(y)})) = ${show(back)}, not ${num(y)}: inverse is not apply's inverse ` +
            `there (a wrong domain, or a wrong inverse)`,
        );
    }
  });
}
