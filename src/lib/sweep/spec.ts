/**
 * The sweep grammar, once: a spec's schema and checks (`parseSweepSpec`), its seeds, and its jobs
 * with their names (`expandSweepSpec`). The CLI runs the jobs; the site's Ablation, Sensitivity and
 * Comparison pages find each job's result by the same names, so a rename here renames both.
 */
import type { z } from "zod";
import { BOUNDS, checkBound, rowSchema } from "../search/index.js";
import { benchmarkEntries, benchmarkFamily } from "../data/index.js";
import { experiments } from "../data/index.js";
import { lazyObject, once, zod, InputError, SETTINGS, type SettingName } from "../core/index.js";
import { isMethod, METHOD_NAMES, settingKeys } from "../search/index.js";

/** The search settings a variant may override (every key of the settings but the method and the fit). */
const SEARCH_KEYS = settingKeys().filter((key) => key !== "method" && key !== "fit");

const NAME = /^[A-Za-z0-9_.+-]+$/;

/** The spec's schemas, built on first use (zod loads then: core/zod.ts). */
const schemas = once(() => {
  const z = zod();
  /** A setting's check from the settings table (core/settings.ts): its bound, choices, boolean or list. */
  const tableSchema = (key: string): z.ZodType =>
    Object.hasOwn(SETTINGS, key) ? rowSchema(key as SettingName).optional() : z.unknown().optional();

  const variantSettings = z.strictObject({
    givenForm: z.boolean().optional(),
    form: z.string().optional(),
    symbols: z.array(z.string()).optional(),
    constraints: z.array(z.string()).optional(),
    reward: z.string().optional(),
    fit: z
      .strictObject(
        Object.fromEntries(["steps", "learningRate", "polish", "engine"].map((key) => [key, tableSchema(key)])),
      )
      .optional(),
    ...Object.fromEntries(SEARCH_KEYS.map((key) => [key, tableSchema(key)])),
  });

  /** A seed list, or a range "a..b" (both ends included). */
  const seedsSchema = z.union([
    z.array(z.number()).min(1),
    z.string().regex(/^\d+\.\.\d+$/, { error: 'a range "a..b"' }),
  ]);

  const spec = z.strictObject({
    experiments: z.array(z.string()).min(1).optional(),
    benchmark: z.union([z.literal("all"), z.array(z.string()).min(1)]).optional(),
    csv: z.string().optional(),
    targets: z.array(z.string()).min(1).optional(),
    inputs: z.array(z.string()).min(1).optional(),
    methods: z.array(z.string()).min(1).default(["consolesr"]),
    seeds: seedsSchema.default([0]),
    snr: z.array(z.number().nullable()).min(1).default([null]),
    rows: z.array(z.number().nullable()).min(1).default([null]),
    /** Seconds of wall clock per job's search (0: none); a variant's own timeLimit wins. */
    timeLimit: z.number().optional(),
    variants: z
      .array(
        z.strictObject({
          name: z.string().regex(NAME, { error: "a name of letters, digits, _ . + -" }),
          settings: variantSettings.default({}),
        }),
      )
      .min(1)
      .default([{ name: "default", settings: {} }]),
  });

  return { spec, variantSettings };
});

/** A sweep spec's schema (built on first use). */
export const sweepSpecSchema: ReturnType<typeof schemas>["spec"] = lazyObject(() => schemas().spec);

export type SweepSpec = z.infer<typeof sweepSpecSchema>;
export type VariantSettings = z.infer<ReturnType<typeof schemas>["variantSettings"]>;

/** One job of a sweep: JSON, so that it travels to a worker process as it is. */
export interface SweepJob {
  /** The result's file name under --out, without ".json"; also the job's name in the summary. */
  name: string;
  /** An experiment's name or the CSV's path. */
  source: string;
  csv: boolean;
  targets?: string[];
  inputs?: string[];
  method: string;
  variant: string;
  settings: VariantSettings;
  seed: number;
  snrDb: number | null;
  rows: number | null;
}

const issuePath = (path: readonly PropertyKey[]) =>
  path
    .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
    .join(".")
    .replace(/\.\[/g, "[");

/** Parses and checks a spec; every problem is one InputError naming the field. */
export function parseSweepSpec(value: unknown, file: string): SweepSpec {
  const parsed = sweepSpecSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issuePath(issue.path);
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.map((k) => (at ? `${at}.${k}` : k));
      throw new InputError(`${file}: unknown field ${keys.map((k) => `"${k}"`).join(", ")}`);
    }
    throw new InputError(`${file}: ${at || "the spec"}: ${issue.message.replace(/^Invalid input: /, "")}`);
  }
  const spec = parsed.data;
  const sources = [spec.experiments, spec.benchmark, spec.csv].filter((s) => s !== undefined);
  if (sources.length !== 1)
    throw new InputError(
      `${file}: name exactly one source: "experiments" (a list), "benchmark" (ids, families or "all") ` +
        `or "csv" (a file, with "targets")`,
    );
  if (spec.benchmark) {
    if (spec.benchmark !== "all")
      spec.benchmark.forEach((name, i) => {
        if (!benchmarkEntries.some((e) => e.id === name) && !benchmarkFamily(name))
          throw new InputError(
            `${file}: benchmark[${i}]: unknown benchmark id or family "${name}" ` +
              `(e.g. nguyen-1, feynman-I.12.4, Nguyen, Feynman, or "all")`,
          );
      });
  }
  if (spec.experiments) {
    spec.experiments.forEach((name, i) => {
      if (!experiments[name])
        throw new InputError(
          `${file}: experiments[${i}]: unknown experiment "${name}" (known: ${Object.keys(experiments).join(", ")})`,
        );
    });
  }
  if (spec.csv === undefined) {
    for (const key of ["targets", "inputs"] as const)
      if (spec[key]) throw new InputError(`${file}: ${key}: applies to "csv" only`);
  } else {
    if (!spec.targets) throw new InputError(`${file}: targets: required with "csv" (the column(s) to explain)`);
    if (spec.snr.some((s) => s !== null) || spec.rows.some((r) => r !== null))
      throw new InputError(`${file}: snr and rows apply to experiments only (give [null] or leave them out for a CSV)`);
  }
  spec.methods.forEach((method, i) => {
    if (!isMethod(method))
      throw new InputError(`${file}: methods[${i}]: unknown method "${method}" (known: ${METHOD_NAMES.join(", ")})`);
  });
  spec.snr.forEach((s, i) => {
    if (s !== null) checkBound(BOUNDS.snrDb, s, `${file}: snr[${i}]`);
  });
  spec.rows.forEach((r, i) => {
    if (r !== null) checkBound(BOUNDS.rows, r, `${file}: rows[${i}]`);
  });
  seedList(spec.seeds, file);
  const names = new Set<string>();
  for (const v of spec.variants) {
    if (names.has(v.name)) throw new InputError(`${file}: variants: the name "${v.name}" is used twice`);
    names.add(v.name);
  }
  return spec;
}

/** The most seeds a range "a..b" of a spec may hold. */
const MAX_SEED_RANGE = 100_000;

/** The seeds a spec lists (a range "a..b" expanded), each checked. */
export function seedList(seeds: SweepSpec["seeds"], file: string): number[] {
  let list: number[];
  if (typeof seeds === "string") {
    const [a, b] = seeds.split("..").map(Number) as [number, number];
    if (b < a) throw new InputError(`${file}: seeds: "${seeds}" must be a..b with a ≤ b`);
    // The bound is the range's count: it said "a ≤ b" of a range that has it ("0..100000").
    if (b - a >= MAX_SEED_RANGE)
      throw new InputError(
        `${file}: seeds: "${seeds}" is ${b - a + 1} seeds; a range a..b holds at most ${MAX_SEED_RANGE} ` +
          `(b − a < ${MAX_SEED_RANGE}), e.g. "${a}..${a + MAX_SEED_RANGE - 1}"`,
      );
    list = Array.from({ length: b - a + 1 }, (_, i) => a + i);
  } else list = seeds;
  list.forEach((s, i) => {
    checkBound(BOUNDS.seed, s, `${file}: seeds[${i}]`);
  });
  if (new Set(list).size !== list.length) throw new InputError(`${file}: seeds: a seed is listed twice`);
  return list;
}

/** The entries a spec's `benchmark` names, in the suite's order, each once. */
function benchmarkIds(names: "all" | string[]): string[] {
  if (names === "all") return benchmarkEntries.map((e) => e.id);
  const ids = new Set<string>();
  for (const name of names) {
    const family = benchmarkFamily(name);
    for (const e of benchmarkEntries) if (e.id === name || e.family === family) ids.add(e.id);
  }
  return [...ids];
}

const slug = (text: string) => text.replace(/[^A-Za-z0-9_.+-]+/g, "_");

/** A path's file name without its extension (data/law.csv → law), without node:path (the library runs in browsers). */
function stemOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? path;
  const period = name.lastIndexOf(".");
  return period > 0 ? name.slice(0, period) : name;
}

/** The jobs of a spec, in a stable order: source × method × variant × seed × snr × rows. */
export function expandSweepSpec(spec: SweepSpec, file: string): SweepJob[] {
  const jobs: SweepJob[] = [];
  const sources = spec.experiments ?? (spec.benchmark ? benchmarkIds(spec.benchmark) : [spec.csv!]);
  const csv = spec.csv !== undefined;
  for (const source of sources)
    for (const method of spec.methods)
      for (const variant of spec.variants)
        for (const seed of seedList(spec.seeds, file))
          for (const snrDb of spec.snr)
            for (const rows of spec.rows) {
              const stem = slug(csv ? stemOf(source) : source);
              jobs.push({
                name: `${stem}-${method}-${variant.name}-s${seed}-snr${snrDb ?? "none"}-r${rows ?? "default"}`,
                source,
                csv,
                ...(csv ? { targets: spec.targets, ...(spec.inputs ? { inputs: spec.inputs } : {}) } : {}),
                method,
                variant: variant.name,
                settings:
                  spec.timeLimit !== undefined && !("timeLimit" in variant.settings)
                    ? ({ ...variant.settings, timeLimit: spec.timeLimit } as VariantSettings)
                    : variant.settings,
                seed,
                snrDb,
                rows,
              });
            }
  return jobs;
}
