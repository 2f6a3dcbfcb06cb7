/**
 * The version-1 result JSON as a schema (docs/design.md#result-json): every field, its type and one
 * line saying what it holds. It is the documentation of the format: site/reference/result-json.md
 * is generated from it (`npm run reference`), and the tests check every result the library writes
 * (a structure search, the MLP, EQL, DSR, a CSV fit, the committed results) against it, strictly,
 * so a field written but not documented here fails. Readers stay lenient: `parseResult` checks what
 * `reproduce` needs and ignores keys it does not know.
 */
import { lazyObject, once, zod } from "../core/index.js";
import type { z } from "zod";
import { OUTER_NAMES } from "../equation/index.js";

/** The result's schema, built on first use (zod loads then: core/zod.ts). */
const resultSchema = once(() => {
  const z = zod();
  const finite = () => z.number();
  const count = () => z.number().int().nonnegative();

  const factor = z
    .object({
      symbol: z.string().describe("the symbol's name in the registry (x, x^2, cos, a derived power like x^-1/2)"),
      input: z.string().describe("the input column it applies to"),
      weight: finite().optional().describe("the inner weight w of f(w·x), for symbols that have one"),
      monomial: z
        .array(
          z
            .object({
              input: z.string().describe("an input column"),
              power: z.number().int().describe("its power in the monomial (±1, ±2)"),
            })
            .strict(),
        )
        .optional()
        .describe(
          "the factor's argument is the product of these inputs' powers, not one input; input is then its text " +
            "(requires monomial)",
        ),
    })
    .strict();

  /** An expression node (equation/expression.ts): a constant, an input's name, or [operator, ...arguments]. */
  const expressionNode: z.ZodType<unknown> = z.union([
    z.number(),
    z.string(),
    z.tuple([z.string()]).rest(z.lazy(() => expressionNode)),
  ]);

  const term = z
    .object({
      coefficient: finite().describe("the product's coefficient"),
      factors: z.array(factor).describe("the product's factors, one single-input function each"),
    })
    .strict();

  const equation = z
    .object({
      target: z.string().describe("the output column"),
      text: z.string().describe("the law in the text grammar (docs/design.md#text-grammar), its constant included"),
      latex: z.string().describe("the same law in LaTeX"),
      terms: z.array(term).describe("the LoCaL's products with their coefficients (no term without factors)"),
      constant: finite()
        .optional()
        .describe("the additive constant, where the law has one (older results may hold it as a term without factors)"),
      outer: z
        .string()
        .optional()
        .describe(
          `the outer function g of y = g(Σ terms + constant), where the law has one (requires outer): ` +
            `${OUTER_NAMES.join(", ")}, or an outer-function plugin's name`,
        ),
      denominator: z
        .object({
          terms: z.array(term).describe("the denominator's products with their coefficients"),
          constant: finite().optional().describe("the denominator's constant, where it has one"),
        })
        .strict()
        .optional()
        .describe("the law's denominator: y = g((Σ terms + constant) / (Σ denominator)) (requires denominator)"),
      expression: z
        .lazy(() => expressionNode)
        .optional()
        .describe(
          "the whole law as an expression tree, for a law that is no LoCaL (docs/design.md#expression): a number, " +
            "an input's name, or [operator, ...arguments] with + - * / ^ neg or a symbol's name; terms are then " +
            "empty (requires expression)",
        ),
      trainNrmse: z.number().nullable().describe("NRMSE on the training rows (null: nothing was fitted)"),
    })
    .strict();

  const noise = z
    .object({
      target: z.string().optional().describe("the output (present when there are several)"),
      nrmse: z.number().describe("the NRMSE that noise alone leaves: what an exact law would score"),
      method: z.string().describe("the estimator that gave it"),
    })
    .strict();

  const targetSummary = z
    .object({
      target: z.string().describe("the output"),
      episodes: count().describe("episodes run for it"),
      structures: count().describe("distinct structures whose coefficients were fitted"),
      columnsScreened: count().optional().describe("library columns screened by the linear-algebra proposals"),
      terms: count().optional().describe("products per output the search reached"),
      maxFactors: count().optional().describe("factors per product the search reached"),
      stopReason: z.string().describe("why its search stopped (as search.stopReason)"),
      identities: z
        .array(z.string())
        .optional()
        .describe(
          "exact linear relations among the inputs' monomials on the training rows (v^2 = 1 - u^2): " +
            "the law has several writings there, and the answer is the sparsest",
        ),
      unwritable: z
        .array(z.string())
        .optional()
        .describe(
          "monomials of an exact sparse polynomial of y that the pool cannot write (u3^2 without x^2: a " +
            "product uses a neuron once); the answer is then an approximation",
        ),
      ambiguous: z
        .object({
          rival: z.string().describe("the rival structure, as equation text"),
          gap: z.number().describe("its score minus the answer's (the front's score units); below 6"),
        })
        .strict()
        .optional()
        .describe(
          "under noise, where the answer is not clearly better than a rival that is not its sub- or " +
            "super-structure (a warning says so): look at the front",
        ),
    })
    .strict();

  const frontEntry = z
    .object({
      target: z.string().describe("the output"),
      complexity: z.number().describe("the candidate's complexity (its factors and terms)"),
      nrmse: z.number().describe("its training NRMSE"),
      text: z.string().describe("its law in the text grammar"),
      score: z
        .number()
        .optional()
        .describe("the answer rule's score, in nats above the front's lowest; lower is better"),
      chosen: z.boolean().optional().describe("whether it is the answer"),
    })
    .strict();

  const search = z
    .object({
      method: z.string().describe("the search method (site/reference/methods.md)"),
      episodes: count().describe("episodes run, all outputs together (0 for a model method)"),
      structures: count().describe("distinct structures fitted, all outputs together"),
      seconds: z.number().optional().describe("wall-clock seconds (only with --timings or a page's download)"),
      stopReason: z
        .string()
        .describe(
          "why it stopped: reward-threshold, noise-floor, time-limit, episodes, aborted or error; " +
            "model-trained for a model (aborted when a model's training was stopped from outside)",
        ),
      targets: z.array(targetSummary).optional().describe("per output, for a structure search"),
      noise: z
        .union([noise, z.array(noise)])
        .optional()
        .describe("the noise estimate: one object for one output, one per output (with target) for several"),
      front: z.array(frontEntry).optional().describe("the Pareto front of the hall of fame, per output"),
      sample: z
        .object({
          rows: count().describe("the rows the search worked on"),
          of: count().describe("the rows of the table"),
          seed: count().describe("the seed of the sample's generator (derived from the search seed)"),
          method: z.string().describe("how the rows were chosen: uniform (at random, without replacement)"),
        })
        .strict()
        .optional()
        .describe(
          "a large table's search on a sample of its rows; the equations are then refitted and scored on all " +
            "rows, the front and the noise estimate are the sample's (absent: every row was searched)",
        ),
      inputs: z
        .object({
          kept: z.array(z.string()).describe("the inputs the search got, in the table's order"),
          dropped: z.array(z.string()).describe("the inputs the screen left out"),
          reason: z.string().describe("how they were chosen"),
        })
        .strict()
        .optional()
        .describe("many inputs: the screen before the search (absent: the search got every input)"),
    })
    .strict();

  const mlpTraining = z
    .object({
      rows: count().describe("rows it trained on"),
      validationRows: count().describe("rows held out for early stopping"),
      epochs: count().describe("epochs run"),
      bestEpoch: count().describe("the epoch whose weights were kept (lowest validation loss)"),
      stopReason: z
        .enum(["patience", "epochs", "aborted"])
        .describe("why training stopped (aborted: stopped from outside, the best epoch so far kept)"),
      validationNrmse: z.number().describe("NRMSE on the validation rows at the best epoch"),
    })
    .strict()
    .describe("MLP");

  const eqlTraining = z
    .object({
      rows: count().describe("rows it trained on"),
      phases: z
        .array(
          z
            .object({
              phase: z.enum(["plain", "l1", "l0"]).describe("no regularisation, L1, or L0 with the mask fixed"),
              epochs: count().describe("epochs of the phase"),
              mse: z.number().describe("mean squared error on the training rows at its end"),
            })
            .strict(),
        )
        .describe("its three phases"),
      active: count().describe("weights (biases included) left after thresholding"),
      weights: count().describe("all weights and biases"),
      stopReason: z
        .literal("aborted")
        .optional()
        .describe("present when stopped from outside: the phases run so far, the network as it was"),
    })
    .strict()
    .describe("EQL");

  const dsrTraining = z
    .object({
      rows: count().describe("rows it fitted on"),
      tokens: z.array(z.string()).describe("the token library: operators, the pool's unary symbols, inputs, const"),
      iterations: count().describe("batches sampled"),
      samples: count().describe("expressions sampled (the budget spent)"),
      distinct: count().describe("distinct expressions (each fitted once)"),
      bestAt: count().describe("samples drawn up to the best expression's first draw"),
      batchBest: z.array(z.number()).describe("the best reward 1/(1 + NRMSE) of each batch"),
      reward: z.number().describe("the best expression's reward as sampled"),
      stopReason: z
        .enum(["reward-threshold", "budget", "aborted"])
        .describe("why sampling stopped (aborted: stopped from outside, the best expression so far kept)"),
    })
    .strict()
    .describe("DSR or VPG");

  const model = z
    .object({
      target: z.string().describe("the output"),
      model: z.string().describe("the method (mlp, eql, dsr, vpg)"),
      inputs: z.array(z.string()).describe("the input columns"),
      layers: z.array(count()).describe("widths from the input to the output"),
      activation: z.string().describe("the hidden layers' activation (EQL: its unit kinds)"),
      parameters: count().describe("trainable parameters"),
      training: z.union([mlpTraining, eqlTraining, dsrTraining]).describe("how it trained (one record per kind)"),
      trainNrmse: z.number().describe("NRMSE on every training row"),
      testNrmse: z.number().optional().describe("NRMSE on an experiment's test set (absent for a CSV)"),
      predictions: z
        .object({
          set: z.enum(["test", "train"]).describe("which rows: an experiment's test set, or a CSV's training rows"),
          rows: count().describe("how many"),
          mean: z.number().describe("mean of the predictions"),
          rms: z.number().describe("root mean square of the predictions"),
          head: z.array(z.number()).describe("the first five predictions"),
        })
        .strict()
        .describe("a fingerprint of its predictions, which reproduce compares"),
      expression: z
        .object({
          text: z.string().describe("the expression in the text grammar (unexpanded)"),
          latex: z.string().describe("the same in LaTeX"),
          expanded: z.boolean().describe("whether it expanded into a sum of products (then equations holds it)"),
          reason: z.string().optional().describe("why it did not expand"),
        })
        .strict()
        .optional()
        .describe("EQL: the trained network's expression; DSR and VPG: the best expression found"),
    })
    .strict();

  const evaluation = z
    .object({
      target: z.string().describe("the output"),
      truth: z.string().describe("the true law (metrics only; the search never reads it)"),
      exact: z.boolean().describe("exact recovery: the truth's terms, every coefficient within 1 %"),
      coefficientError: z.number().nullable().describe("E_c in %; null where it does not apply (see reason)"),
      testNrmse: z.number().describe("NRMSE on the experiment's test set (its extrapolation range)"),
      reason: z.string().describe("how the metrics were computed, or why E_c does not apply"),
    })
    .strict();

  const manifest = z
    .object({
      seed: z.number().int().nonnegative().describe("the seed of the data draw and the search"),
      config: z.record(z.string(), z.unknown()).describe("the resolved configuration a re-run needs"),
      data: z
        .object({
          sha256: z
            .string()
            .regex(/^[0-9a-f]{64}$/)
            .describe("SHA-256 of the data file's bytes (hex)"),
          rows: count().describe("its data rows"),
        })
        .strict()
        .optional()
        .describe("a CSV run's data file (absent for experiments)"),
      version: z.string().describe("consolesr's version"),
      git: z.string().describe("consolesr's commit when run from its checkout, else unknown"),
      backend: z.string().describe("the fit engine or tfjs backend the fits ran on"),
      runtime: z
        .object({
          engine: z.string().describe("the JavaScript engine"),
          os: z.string().describe("the operating system or the browser's platform"),
          cores: z.number().int().nullable().describe("logical cores, where the runtime says"),
        })
        .strict()
        .optional()
        .describe("what it ran on: only beside wall-clock seconds, never compared by reproduce"),
    })
    .strict();

  /** The whole result, version 1. */
  return z
    .object({
      version: z.literal(1).describe("the format's version"),
      requires: z
        .array(z.string())
        .optional()
        .describe(
          "parts of the format a reader must know to read the result (denominator, monomial, outer); " +
            "a reader refuses others",
        ),
      equations: z.array(equation).describe("one law per output (empty for a model method without one)"),
      search: search.describe("how the search ran"),
      models: z.array(model).optional().describe("a model method's answer, one per output"),
      evaluation: z
        .array(evaluation)
        .optional()
        .describe("for the paper's experiments, where the truth is known: metrics only"),
      manifest: manifest.describe("what reproduces the run"),
    })
    .strict();
});

/** The whole result's schema, version 1 (built on first use). */
export const RESULT_SCHEMA: ReturnType<typeof resultSchema> = lazyObject(resultSchema);

/** Problems of `value` against the schema, as `path: message` lines (none: it conforms). */
export function resultSchemaProblems(value: unknown): string[] {
  const parsed = resultSchema().safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
}

/** The schema as JSON Schema (draft 2020-12), for other languages' readers and the reference page. */
export function resultJsonSchema(): Record<string, unknown> {
  return zod().toJSONSchema(resultSchema()) as Record<string, unknown>;
}
