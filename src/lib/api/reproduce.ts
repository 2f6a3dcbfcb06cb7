/**
 * `reproduceResult`: a saved result re-run from its manifest and compared with itself, field by
 * field: what `consolesr reproduce` does after reading the files, and what a report project's data
 * loader does at every `npm run build` (docs/design.md#own-report). The config is read back from
 * the manifest (configFromManifest), the run goes through the runtime module (the pipeline `fit`
 * and `run` use), and the comparison is the reproduce contract's (src/lib/result/reproduce.ts).
 */
import { columnOf, sameLaw, type Dataset, type Table } from "../data/index.js";
import { evaluateEquation } from "../equation/index.js";
import { createRegistries, type Registries } from "../plugins/index.js";
import {
  compareResults,
  formatComparison,
  modelTolerancePolicy,
  parseResult,
  resultEquation,
  tolerancePolicy,
  type Comparison,
  type ResultJson,
  type SameWriting,
} from "../result/index.js";
import { configFromManifest, isExperimentConfig, prepareRun } from "../run/index.js";
import { runModule } from "./runtime.js";
import { InputError } from "../core/index.js";

export interface ReproduceResultOptions {
  /** The CSV table a `fit` result was made from (with its sha256 where the file's bytes are known). */
  table?: Table;
  /** The name problems and the re-run give the data (default: the manifest's config.data). */
  file?: string;
  /** The plugins' registries the result was made with (default: the built-ins). */
  registries?: Registries;
  /** The tfjs backend of the re-run (default "cpu"). */
  backend?: string;
  /** Demand an exact match (1e-9, every field) even where a float32 backend would allow 1e-4. */
  exact?: boolean;
  /** The name of the result in messages (default "result"). */
  name?: string;
}

export interface ResultReproduction {
  /** The re-run's full result. */
  result: ResultJson;
  comparison: Comparison;
  /** The comparison as the CLI prints it, one line per field compared (and per difference). */
  lines: string[];
}

/**
 * Re-runs a version-1 result (JSON text or parsed) from its manifest and compares every stored
 * field the re-run yields. A CSV result needs its `table`; a problem with the file is an InputError.
 */
export async function reproduceResult(
  json: string | ResultJson,
  options: ReproduceResultOptions = {},
): Promise<ResultReproduction> {
  const name = options.name ?? "result";
  const original = typeof json === "string" ? parseResult(json, name) : json;
  const config = configFromManifest(original, name);
  if (!isExperimentConfig(config) && !options.table)
    throw new InputError(`${name}: a result made from a CSV file is re-run on that file's table (pass table)`);
  const registries = options.registries ?? createRegistries();
  const result = await runModule(config, {
    backend: options.backend ?? "cpu",
    registries,
    table: options.table,
    file: options.file ?? (config as { data?: string }).data,
  });
  // A model (the MLP) is retrained: its policy says why its numbers match exactly or within MODEL_TOLERANCE.
  const policy = original.models ? modelTolerancePolicy : tolerancePolicy;
  const { manifest } = original;
  const comparison = compareResults(
    original,
    result,
    policy(manifest.backend, result.manifest.backend, { exact: options.exact }),
    sameWritingOn(
      original,
      () => prepareRun({ config }, { registries, table: options.table, file: options.file }).data.train,
      registries,
    ),
  );
  const lines = formatComparison(comparison, { old: manifest.backend, new: result.manifest.backend });
  return { result, comparison, lines };
}

/**
 * The same-law rule of a reproduction (docs/design.md#same-law): where the original states exact
 * identities of its rows for a target (`search.targets[].identities`), a re-run that writes the law
 * with other terms reproduces it when both writings agree on every training row (sameLaw: 1e-9
 * relative). The rows are drawn only where such a target differs.
 */
function sameWritingOn(original: ResultJson, trainRows: () => Dataset, registries: Registries): SameWriting {
  let rows: Dataset | undefined;
  const lookup = (name: string) => registries.symbols.get(name);
  return (target, before, after) => {
    const identities = original.search?.targets?.find((t) => t.target === target)?.identities ?? [];
    if (identities.length === 0) return undefined;
    rows ??= trainRows();
    const train = rows;
    const values = (e: typeof before) =>
      evaluateEquation(resultEquation(e), lookup, (name) => columnOf(train, name), train.rows);
    return sameLaw(values(after), values(before)).same ? identities : undefined;
  };
}
