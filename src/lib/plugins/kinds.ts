/**
 * Plugin kinds, typed identity helpers and registries (docs/design.md#plugins).
 *
 * A plugin is a plain object; a plugin file needs no import of consolesr or tfjs because
 * tfjs arrives as an argument of `apply`. Plugins are validated once, when registered, with
 * messages that name the plugin and the field; inside the library they are trusted.
 */
import { powerOfName, powerSymbol } from "./powers.js";
import { InputError, once, zod } from "../core/index.js";
import { addOuterPlugin, BUILTIN_OUTER_NAMES } from "./outers.js";
import type { Tensor, Tf } from "../engine/index.js";

export interface SymbolPlugin {
  kind: "symbol";
  name: string;
  /** Cost of one use of the symbol, for parsimony and the hall of fame. */
  complexity: number;
  /** When true the library learns w in f(w·x); it starts at 1. */
  innerWeight: boolean;
  /** Text of f(arg) in the text grammar (docs/design.md#text-grammar); `arg` is a column name or `w*column`. */
  text: (arg: string) => string;
  /** LaTeX of f(arg); `arg` is already LaTeX. */
  latex: (arg: string) => string;
  /** Scalar reference f(x); must return NaN outside the domain, never a quiet 0. */
  evaluate: (x: number) => number;
  /** Differentiable tfjs op computing f elementwise. */
  apply: (x: Tensor, tf: Tf) => Tensor;
  /** Optional f'(x); without it the float64 polish uses a central difference of `evaluate`. */
  derivative?: (x: number) => number;
  /** Optional domain of f; e.g. x > 0 for log and sqrt. Absent means all reals. */
  domain?: (x: number) => boolean;
  /**
   * Optional identifiable rescaling: f(w·x) = coefficient · f(weight·x). sqrt folds w into
   * its coefficient (weight 1), cos makes w positive, sin moves the sign of w outside.
   */
  fold?: (w: number) => { coefficient: number; weight: number };
  /**
   * Optional additive rescaling: f(w·x) = f(weight·x) + shift. log moves w out as log(w)
   * (log(w·x) = log(x) + log(w)): where the term's other factors also stand alone as a term (the
   * constant, for a log alone), the shift joins that term's coefficient and the weight goes.
   */
  shift?: (w: number) => { shift: number; weight: number };
  /**
   * Optional period P > 0 of a periodic f (2π for sin and cos): f(u + P) = f(u). With an inner
   * weight, the fit then also tries starting frequencies on a grid scaled by P and the input's
   * range (FitOptions.starts). The period rather than a flag or a list of starting weights: it
   * is a property of f alone, and the fitter turns it into frequencies for the data at hand
   * (sin(7·x) has 22 periods on x ∈ [−10, 10] but about one on [0, 1]).
   */
  period?: number;
  /**
   * Optional p when f(x) = x^p on the symbol's domain (x 1, x^2 2, sqrt ½ with its inner weight
   * folded to 1, x^-1 −1): factors of one input whose symbols declare a power merge into one
   * when an equation is simplified (q·q³ → q⁴, α·α⁻¹ → 1; plugins/powers.ts).
   */
  power?: number;
  description?: string;
}

/** A product of the LoCaL as the layer-1 neurons it multiplies (neuron = input·|Φ| + symbol). */
export type Product = readonly number[];

/** What a constraint sees of one proposed transition of the search (paper Algorithm 2). */
export interface ConstraintContext {
  /**
   * 0: which activation neurons are enabled (Z0); 1: which neurons
   * feed which product (Z1); 2: which products are summed (Z2).
   */
  layer: number;
  state: readonly number[];
  action: readonly number[];
  /** The search space: inputs, symbol pool, neurons n1 = inputs·symbols, products per output. */
  space: { inputs: readonly string[]; symbols: readonly string[]; neurons: number; terms: number };
  /** The partial structure after this action: enabled neurons, then products, then the summed products. */
  structure: { neurons: readonly number[]; products?: readonly Product[]; sums?: readonly number[] };
  /** Limits from the search options. */
  limits: { maxFactors: number; maxTerms: number; pearson: number };
  /** Products fitted so far with their |Pearson| to the output and the output's train NRMSE. */
  evidence: readonly { product: Product; pearson: number; nrmse: number }[];
}

export interface ConstraintPlugin {
  kind: "constraint";
  name: string;
  describe: () => string;
  /** true to accept the transition, or the reason to reject it (the search redraws). */
  check: (ctx: ConstraintContext) => true | string;
  /** Optional: products every later structure must keep (the dynamic constraint). */
  keep?: (ctx: Pick<ConstraintContext, "evidence" | "limits">) => Product[];
}

export interface RewardFit {
  yTrue: ArrayLike<number>;
  yPred: ArrayLike<number>;
  nrmse: number;
  complexity: number;
}

export interface RewardPlugin {
  kind: "reward";
  name: string;
  range: [number, number];
  score: (fit: RewardFit) => number;
}

/**
 * An outer function g (docs/design.md#outer): where no sum of products fits y but one fits
 * g⁻¹(y) exactly, the search answers y = g(L). A plugin gives g, its inverse and the domain of the
 * inverse (the y that g can produce); check-plugin checks that g(g⁻¹(y)) = y there.
 */
export interface OuterPlugin {
  kind: "outer";
  name: string;
  /** g(v): y from the LoCaL's value. */
  apply: (v: number) => number;
  /** g⁻¹(y): the target the LoCaL is fitted to. */
  inverse: (y: number) => number;
  /** Whether y lies where g⁻¹ is defined and g(g⁻¹(y)) = y; the search tries g only where every y does. */
  domain: (y: number) => boolean;
  /** Text of g(inner) in the text grammar; `inner` is the sum's text. */
  text: (inner: string) => string;
  /** LaTeX of g(inner). */
  latex: (inner: string) => string;
  /** Added to the equation's complexity (the built-ins: 2, and 3 for ^(−1/2)). */
  cost: number;
  description?: string;
}

export type Plugin = SymbolPlugin | ConstraintPlugin | RewardPlugin | OuterPlugin;

export const defineSymbol = (plugin: SymbolPlugin): SymbolPlugin => plugin;
export const defineConstraint = (plugin: ConstraintPlugin): ConstraintPlugin => plugin;
export const defineReward = (plugin: RewardPlugin): RewardPlugin => plugin;
export const defineOuter = (plugin: OuterPlugin): OuterPlugin => plugin;

/** An async function (or async generator): it returns a Promise, and every plugin function must return its value. */
export const isAsyncFunction = (v: unknown): boolean =>
  typeof v === "function" &&
  /^Async(Generator)?Function$/.test((v as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] ?? "");

/** The plugin kinds' schemas, built on first use (zod loads then: core/zod.ts). */
const pluginSchemas = once(() => {
  const z = zod();
  const fn = z
    .custom<(...args: never[]) => unknown>((v) => typeof v === "function", "must be a function")
    .refine(
      (v) => !isAsyncFunction(v),
      "must be a synchronous function, not async: " +
        "consolesr uses the value it returns, and an async function returns a Promise",
    );
  const name = z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9_^./-]+$/, "must be letters, digits or _ ^ . / -");

  return {
    symbol: z.object({
      kind: z.literal("symbol"),
      name,
      complexity: z.number().positive().finite(),
      innerWeight: z.boolean(),
      text: fn,
      latex: fn,
      evaluate: fn,
      apply: fn,
      derivative: fn.optional(),
      domain: fn.optional(),
      fold: fn.optional(),
      shift: fn.optional(),
      period: z.number().positive().finite().optional(),
      power: z
        .number()
        .finite()
        .refine((p) => p !== 0, "must not be 0")
        .optional(),
      description: z.string().optional(),
    }),
    constraint: z.object({ kind: z.literal("constraint"), name, describe: fn, check: fn, keep: fn.optional() }),
    reward: z.object({
      kind: z.literal("reward"),
      name,
      range: z.tuple([z.number(), z.number()]).refine(([lo, hi]) => lo < hi, "must be [lo, hi] with lo < hi"),
      score: fn,
    }),
    outer: z.object({
      kind: z.literal("outer"),
      name,
      apply: fn,
      inverse: fn,
      domain: fn,
      text: fn,
      latex: fn,
      cost: z.number().positive().finite(),
      description: z.string().optional(),
    }),
  } as const;
});

/** Validates an unknown object as a plugin, throwing an InputError that names plugin and field. */
export function validatePlugin(candidate: unknown, origin = "plugin"): Plugin {
  try {
    return validateFields(candidate, origin);
  } catch (error) {
    if (error instanceof InputError) throw error;
    // A getter (name, kind, …) that throws: the plugin's fault, named as such.
    const what = error instanceof Error ? error.message : String(error);
    throw new InputError(`${origin}: reading its fields threw: ${what.replace(/\s+/g, " ").trim()}`);
  }
}

function validateFields(candidate: unknown, origin: string): Plugin {
  const label = (candidate as { name?: unknown } | null)?.name;
  const who = typeof label === "string" && label ? `plugin ${label}` : origin;
  if (typeof candidate !== "object" || candidate === null) throw new InputError(`${who}: not an object`);
  const kind = (candidate as { kind?: unknown }).kind;
  if (kind !== "symbol" && kind !== "constraint" && kind !== "reward" && kind !== "outer") {
    throw new InputError(
      `${who}: field "kind" must be "symbol", "constraint", "reward" or "outer" (got ${JSON.stringify(kind)})`,
    );
  }
  const parsed = pluginSchemas()[kind].safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".") || "(object)";
    const value = issue.path.reduce<unknown>(
      (o, key) => (o as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey],
      candidate,
    );
    const message = value === undefined ? "is missing" : issue.message;
    throw new InputError(`${who}: field "${field}" ${message}`);
  }
  // zod strips unknown keys and would drop methods' `this`; keep the author's object.
  return candidate as Plugin;
}

/** A name → plugin map that throws on a duplicate and on an unknown name. */
export class Registry<P extends Plugin> {
  readonly #items = new Map<string, P>();
  constructor(
    readonly kind: P["kind"],
    plugins: readonly P[] = [],
  ) {
    for (const plugin of plugins) this.register(plugin);
  }
  register(plugin: P): this {
    const valid = validatePlugin(plugin) as P;
    if (valid.kind !== this.kind) throw new InputError(`plugin ${valid.name}: is a ${valid.kind}, not a ${this.kind}`);
    if (this.#items.has(valid.name))
      throw new InputError(`plugin ${valid.name}: a ${this.kind} with this name is already registered`);
    this.#items.set(valid.name, valid);
    return this;
  }
  has(name: string): boolean {
    return this.#items.has(name);
  }
  /**
   * The plugin of that name. A symbol registry also knows the derived powers equations print
   * after merging factors of one input (`x^4`, `x^-3`, `x^3/2`: plugins/powers.ts), registered
   * or not, so that a result naming one reads back; they are not in `names()`, the search's pool.
   */
  get(name: string): P {
    const plugin = this.#items.get(name);
    if (!plugin && this.kind === "symbol") {
      const p = powerOfName(name);
      if (p !== undefined) return powerSymbol(p) as P;
    }
    if (!plugin) throw new InputError(`unknown ${this.kind} "${name}" (known: ${[...this.#items.keys()].join(", ")})`);
    return plugin;
  }
  names(): string[] {
    return [...this.#items.keys()];
  }
  /**
   * Outer-function plugins registered with this registry's plugins (a symbol registry's: the
   * search tries them after the built-ins). Their functions live in the process-wide table of
   * equation/outer.ts, where equations find them by name.
   */
  readonly outers: string[] = [];
  values(): P[] {
    return [...this.#items.values()];
  }
}

export type SymbolRegistry = Registry<SymbolPlugin>;

/** The three registries a search or a fit draws its plugins from. */
export interface Registries {
  symbols: Registry<SymbolPlugin>;
  constraints: Registry<ConstraintPlugin>;
  rewards: Registry<RewardPlugin>;
}

const describeCause = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** A value for an error message: numbers as they are, a Promise named as one. */
function shown(value: unknown): string {
  if (
    value instanceof Promise ||
    (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function")
  )
    return "a Promise";
  if (typeof value === "string") return JSON.stringify(value);
  return typeof value === "object" && value !== null ? "an object" : String(value);
}

/**
 * A symbol whose functions rethrow any error as an InputError naming the plugin and the
 * function (`plugin tanh: evaluate threw: …`), so that a user symbol failing in the middle of a
 * search stops it like a failing constraint or reward does: with the best result so far kept.
 * `evaluate` must also return a number (a Promise, from an evaluate that is not synchronous, is
 * an error at its first call), and not NaN at a finite x inside the symbol's domain (outside it,
 * NaN is what it must return). Built-ins are trusted and not wrapped (evaluate runs in the fit's
 * inner loop).
 */
export function guardSymbol(plugin: SymbolPlugin): SymbolPlugin {
  const guarded: SymbolPlugin = { ...plugin };
  const fail = (key: string, cause: unknown) => {
    if (cause instanceof InputError && cause.message.startsWith(`plugin ${plugin.name}:`)) return cause;
    return new InputError(`plugin ${plugin.name}: ${key} threw: ${describeCause(cause)}`);
  };
  const keys = ["text", "latex", "apply", "derivative", "domain", "fold"] as const;
  for (const key of keys) {
    const original = plugin[key] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== "function") continue;
    (guarded as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
      try {
        return original.apply(plugin, args);
      } catch (cause) {
        throw fail(key, cause);
      }
    };
  }
  const evaluate = plugin.evaluate;
  const domain = guarded.domain;
  guarded.evaluate = (x: number) => {
    let value: number;
    try {
      value = evaluate.call(plugin, x);
    } catch (cause) {
      throw fail("evaluate", cause);
    }
    if (typeof value === "number" && (!Number.isNaN(value) || !Number.isFinite(x))) return value;
    if (typeof value !== "number") {
      throw new InputError(
        `plugin ${plugin.name}: evaluate(${x}) returned ${shown(value)}, ` +
          `not a number: evaluate must be synchronous and return a number`,
      );
    }
    // NaN at a finite x: right outside the domain, a broken symbol inside it.
    if (domain && !domain(x)) return value;
    throw new InputError(
      `plugin ${plugin.name}: evaluate(${x}) ` +
        `returned NaN inside its domain${domain ? "" : " (it declares none: all reals)"}; ` +
        `return a number there, or declare a domain that excludes x`,
    );
  };
  return guarded;
}

/**
 * Registers user plugins into the registries by kind: each is validated (messages name the
 * plugin and the field), a name already taken in its kind is an error, and symbols are guarded
 * (see guardSymbol). Nothing is registered when any plugin fails.
 */
export function registerPlugins(registries: Registries, plugins: readonly unknown[], origin = "plugin"): Registries {
  const valid = plugins.map((candidate, i) =>
    validatePlugin(candidate, plugins.length > 1 ? `${origin} #${i + 1}` : origin),
  );
  const seen = new Map<string, Set<string>>();
  for (const plugin of valid) {
    const names = seen.get(plugin.kind) ?? new Set<string>();
    const taken =
      plugin.kind === "outer"
        ? (BUILTIN_OUTER_NAMES as readonly string[]).includes(plugin.name) ||
          registries.symbols.outers.includes(plugin.name)
        : (plugin.kind === "symbol"
            ? registries.symbols
            : plugin.kind === "constraint"
              ? registries.constraints
              : registries.rewards
          ).has(plugin.name);
    if (taken || names.has(plugin.name)) {
      throw new InputError(
        `plugin ${plugin.name}: field "name": a ${plugin.kind} named "${plugin.name}" is already registered`,
      );
    }
    names.add(plugin.name);
    seen.set(plugin.kind, names);
  }
  for (const plugin of valid) {
    if (plugin.kind === "symbol") registries.symbols.register(guardSymbol(plugin));
    else if (plugin.kind === "constraint") registries.constraints.register(plugin);
    else if (plugin.kind === "reward") registries.rewards.register(plugin);
    else {
      addOuterPlugin(plugin);
      registries.symbols.outers.push(plugin.name);
    }
  }
  return registries;
}
