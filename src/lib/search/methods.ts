/**
 * The method table: every `--method`, defined once. The CLI's choices, the pipeline's
 * validation, the manifest, the playground and the benchmark all read it. A new method is a
 * strategy file (strategies/), one row here, and its name in the settings table's `readBy` of each
 * setting it reads (core/settings.ts; CONTRIBUTING.md, "Add a search method").
 *
 * `kind` says how a method runs: a "structure-search" is run by the episode loop over its
 * ProposalStrategy and answers with equations; a "model" (the paper's MLP and EQL baselines, and
 * DSR and VPG; src/lib/baselines/) runs a loop of its own and answers with a fitted model per
 * target (the result's `models` block; EQL, DSR and VPG add the equations they can expand).
 */
import { InputError, recordOrder, SETTINGS, type SettingName, type SettingRow } from "../core/index.js";
import { consolesrSettings, paperSettings, checkSettings, type SearchSettings } from "./settings.js";
import type { Threshold } from "./stop.js";
import type { ProposalStrategy, SearchRun } from "./strategy.js";
import { consolesrStrategy } from "./strategies/consolesr.js";
import { enumerateStrategy } from "./strategies/enumerate.js";
import { paperStrategy } from "./strategies/paper.js";
import { randomStrategy } from "./strategies/random.js";

interface MethodRowBase {
  name: string;
  /** One line for `--help`, the playground and the docs. */
  description: string;
  /** The method's defaults (every field; the ones it does not use are inert). */
  defaults: SearchSettings;
  /**
   * The settings it reads: what its manifest config records and what a user may meaningfully
   * override. Derived from the settings table's `readBy` (usesOf), never listed here.
   */
  uses: readonly (keyof SearchSettings)[];
}

/** A LoCaL structure search: the episode loop over a ProposalStrategy. */
export interface StructureSearchRow extends MethodRowBase {
  kind: "structure-search";
  /** Its stop rule. */
  threshold: Threshold;
  /** Its answer: the best fit ("best") or the simplest candidate within 5 % of it ("simplest"). */
  answer: "best" | "simplest";
  strategy: (run: SearchRun) => ProposalStrategy;
  /**
   * A search whose size grows asks the cheap first screen (linear/proposer.ts) before any size
   * and starts at the size of what it found (with its linear-algebra proposals on).
   */
  cheapFirst?: boolean;
}

/** A baseline that fits a model of its own per target (no equation): the pipeline's model path. */
export interface ModelRow extends MethodRowBase {
  kind: "model";
  /** A check of the settings beyond their bounds (an InputError naming the setting). */
  check?: (settings: SearchSettings) => void;
}

export type MethodRow = StructureSearchRow | ModelRow;

/**
 * The settings a method reads, from the settings table's `readBy` (core/settings.ts), in the
 * record's order: a structure search reads the fit rows through its `fit` record, a model method
 * (which has none) reads them as its own settings (learningRate).
 */
function usesOf(method: string, kind: MethodRow["kind"]): (keyof SearchSettings)[] {
  const reads = (row: SettingRow) => row.readBy?.includes(method) ?? false;
  const fitRows = (Object.values(SETTINGS) as SettingRow[]).filter((row) => row.group === "fit");
  return recordOrder().filter((name) => {
    if (name === "method") return false;
    if (name === "fit") return kind === "structure-search" && fitRows.some(reads);
    const row: SettingRow = SETTINGS[name];
    return reads(row) && (row.group !== "fit" || kind === "model");
  });
}

/**
 * DSR's and VPG's defaults. The paper's batch is 1000 and its budget 2 million expressions (2000
 * iterations) on a cluster; on a 2-core CPU a batch of 500 and a budget of 20 000 expressions per
 * target (40 iterations) keep a run to a minute or so per target (site/guide/how-it-works.md, "Baselines"). In 40
 * iterations the paper's learning rate 5e-4 hardly moves the policy (it recovered no more than a
 * policy with learning rate ~0 on a problem outside the benchmark suite), so 5e-3.
 * ε = 0.05 and the entropy weight 0.005 are the paper's, the lengths 4…30 tokens its Nguyen setting.
 */
const dsrDefaults = (method: "dsr" | "vpg"): SearchSettings => ({
  ...consolesrSettings,
  method,
  budget: 20_000,
  batch: 500,
  learningRate: 5e-3,
  epsilon: 0.05,
  hidden: [32],
  entropy: 0.005,
  minLength: 4,
  maxLength: 30,
});

/** DSR's and VPG's checks beyond the bounds. */
function checkDsr(settings: SearchSettings): void {
  const method = settings.method;
  if (settings.hidden.length !== 1)
    throw new InputError(
      `search option hidden must be one width for ${method}, its LSTM cell's units ` +
        `(got ${JSON.stringify(settings.hidden)})`,
    );
  if (settings.budget < 1)
    throw new InputError(
      `search option budget must be at least 1 for ${method}, the expressions it samples per target ` +
        `(got ${settings.budget})`,
    );
  if (settings.minLength > settings.maxLength - 2)
    throw new InputError(
      `search option minLength must be at most maxLength − 2 for ${method} ` +
        `(got minLength ${settings.minLength}, maxLength ${settings.maxLength})`,
    );
  if (method === "dsr" && settings.epsilon === 0)
    throw new InputError("search option epsilon must be above 0 for dsr, the fraction of each batch it learns from");
}

export const METHODS = {
  consolesr: {
    name: "consolesr",
    kind: "structure-search",
    description:
      "linear-algebra proposals, then double-convex Q-learning with product-level proposals ranked by −R (default)",
    defaults: consolesrSettings,
    uses: usesOf("consolesr", "structure-search"),
    threshold: "nrmse",
    answer: "simplest",
    strategy: consolesrStrategy,
    cheapFirst: true,
  },
  paper: {
    name: "paper",
    kind: "structure-search",
    description: "Algorithm 2 as written: ε-greedy LP argmin of −Q, stop at |R − 1| ≤ λ",
    defaults: paperSettings,
    uses: usesOf("paper", "structure-search"),
    threshold: "reward",
    answer: "best",
    strategy: paperStrategy,
  },
  random: {
    name: "random",
    kind: "structure-search",
    description: "random structures within the constraints (same fitter and cache): the baseline",
    defaults: { ...consolesrSettings, method: "random" },
    uses: usesOf("random", "structure-search"),
    threshold: "nrmse",
    answer: "simplest",
    strategy: randomStrategy,
  },
  enumerate: {
    name: "enumerate",
    kind: "structure-search",
    description: "every structure once, smallest first",
    defaults: { ...consolesrSettings, method: "enumerate" },
    uses: usesOf("enumerate", "structure-search"),
    threshold: "nrmse",
    answer: "simplest",
    strategy: enumerateStrategy,
  },
  mlp: {
    name: "mlp",
    kind: "model",
    description:
      "the paper's MLP baseline: a tanh network per target (Adam, early stopping on a validation split); no equation",
    defaults: {
      ...consolesrSettings,
      method: "mlp",
      hidden: [64, 64],
      epochs: 500,
      batch: 64,
      learningRate: 3e-3,
      patience: 30,
      validation: 0.2,
    },
    uses: usesOf("mlp", "model"),
  },
  eql: {
    name: "eql",
    kind: "model",
    description:
      "the paper's EQL baseline: a network of identity, sin, cos and product units trained with no " +
      "regularisation, L1, then L0 (small weights fixed at 0); its expression expanded into an equation",
    defaults: {
      ...consolesrSettings,
      method: "eql",
      hidden: [2],
      epochs: 200,
      batch: 64,
      learningRate: 1e-2,
      l1: 1e-2,
      threshold: 0.1,
    },
    uses: usesOf("eql", "model"),
    check: (settings) => {
      if (settings.hidden.length !== 1)
        throw new InputError(
          `search option hidden must be one width for eql, its units of each kind ` +
            `(got ${JSON.stringify(settings.hidden)})`,
        );
    },
  },
  dsr: {
    name: "dsr",
    kind: "model",
    description:
      "deep symbolic regression (Petersen et al. 2021): an LSTM samples expressions under constraints, " +
      "constants fitted by LM, risk-seeking policy gradient on the top ε of each batch; the best expression",
    defaults: dsrDefaults("dsr"),
    uses: usesOf("dsr", "model"),
    check: checkDsr,
  },
  vpg: {
    name: "vpg",
    kind: "model",
    description:
      "DSR's policy trained by the standard policy gradient (REINFORCE, moving-average baseline) on every sample",
    defaults: dsrDefaults("vpg"),
    uses: usesOf("vpg", "model"),
    check: checkDsr,
  },
} satisfies Record<string, MethodRow>;

export type SearchMethod = keyof typeof METHODS;
/** The methods that fit a model per target (`kind: "model"`): each has its fit in baselines/index.ts. */
export type ModelMethod = {
  [K in SearchMethod]: (typeof METHODS)[K]["kind"] extends "model" ? K : never;
}[SearchMethod];
export const METHOD_NAMES = Object.keys(METHODS) as SearchMethod[];

export const isMethod = (name: unknown): name is SearchMethod =>
  typeof name === "string" && Object.hasOwn(METHODS, name);

/** A method that fits a model per target instead of searching for equations (the MLP baseline). */
export const isModelMethod = (name: string): boolean => isMethod(name) && METHODS[name].kind === "model";

/** The structure searches only (the benchmark's and the playground's methods). */
export const SEARCH_METHOD_NAMES = METHOD_NAMES.filter((name) => METHODS[name].kind === "structure-search");

/** The row of a structure search; an InputError for a model method, which runs outside the episode loop. */
export function structureSearchRow(name: string): StructureSearchRow {
  const row = methodRow(name);
  if (row.kind !== "structure-search")
    throw new InputError(`${name} is a ${row.kind} method, not a structure search: run it through the pipeline`);
  return row;
}

/** The row of a method name; an InputError listing the known ones otherwise. */
export function methodRow(name: string, what = "search method"): MethodRow {
  if (!isMethod(name)) throw new InputError(`unknown ${what} "${name}" (known: ${METHOD_NAMES.join(", ")})`);
  return METHODS[name];
}

/** A method's complete, validated settings: its defaults under the overrides. */
/**
 * The keys of resolveSettings()'s record, in its order, without resolving (and so without checking)
 * a record: what module-level tables of setting names read, so that an import builds no schema.
 */
export function settingKeys(): string[] {
  const base = methodRow("consolesr").defaults;
  return Object.keys({ ...base, method: "consolesr", fit: base.fit });
}

export function resolveSettings(method: string = "consolesr", overrides: Partial<SearchSettings> = {}): SearchSettings {
  const base = methodRow(method).defaults;
  const settings: SearchSettings = { ...base, ...overrides, method, fit: { ...base.fit, ...overrides.fit } };
  if (settings.replay === undefined) delete settings.replay;
  if (settings.replayStop === undefined) delete settings.replayStop;
  checkSettings(settings);
  const row = methodRow(method);
  if (row.kind === "model") {
    if (settings.timeLimit > 0)
      throw new InputError(
        `search option timeLimit is not taken by ${method}: it bounds the structure searches (consolesr, paper, ` +
          `random, enumerate)`,
      );
    row.check?.(settings);
  }
  return settings;
}

/**
 * The settings a method's manifest config records: its method and the fields it uses, in the
 * settings' order; a row whose old-results value is `omit`ted (timeLimit 0) is not written at it.
 */
export function settingsRecord(settings: SearchSettings): Partial<SearchSettings> {
  const uses = new Set<string>(methodRow(settings.method).uses);
  const omitted = ([key, value]: [string, unknown]) => {
    const manifest = (SETTINGS[key as SettingName] as SettingRow | undefined)?.manifest;
    return manifest?.omit === true && manifest.absent === value;
  };
  return Object.fromEntries(
    Object.entries(settings).filter((entry) => (entry[0] === "method" || uses.has(entry[0])) && !omitted(entry)),
  );
}

/**
 * What a manifest made before some settings existed ran with: the table's `manifest.absent` of
 * each setting `method` reads that `recorded` (its manifest.config) lacks.
 */
export function settingsAbsentFrom(method: string, recorded: Record<string, unknown>): Partial<SearchSettings> {
  return Object.fromEntries(
    methodRow(method)
      .uses.filter((key) => !(key in recorded))
      .flatMap((key) => {
        const manifest = (SETTINGS[key as SettingName] as SettingRow | undefined)?.manifest;
        return manifest ? [[key, manifest.absent]] : [];
      }),
  ) as Partial<SearchSettings>;
}

/**
 * The settings table (core/settings.ts) with, for each row, the methods that read it (its
 * `readBy`; a data setting: every method; a sweep's: none): the reference's table and its
 * "read by" column.
 */
export function settingRows(): { name: SettingName; row: SettingRow; methods: SearchMethod[] }[] {
  return (Object.entries(SETTINGS) as [SettingName, SettingRow][]).map(([name, row]) => ({
    name,
    row,
    methods:
      row.group === "data" ? [...METHOD_NAMES] : METHOD_NAMES.filter((method) => row.readBy?.includes(method) ?? false),
  }));
}
