// The paper experiments' and the search benchmark's "Re-run with…" forms: the report components'
// form (src/report/rerun.ts, the package's `consolesr/report`) set up for the site's experiments,
// whose runs the library draws from a seed (`consolesr run <experiment>`).
import { html } from "htl";
import { experimentNames, field, rerun } from "../report/index.js";
import { benchmarkCellLink, playgroundLink } from "./playgroundLink.js";

const snrName = (v: number | null) => (v === null ? "none" : `${v} dB`);

/** `npx consolesr run …` with the flags a form sets (the CLI's names: the same run in a terminal). */
export function runCommand(experiment, v) {
  const flags = [
    `--seed ${v.seed}`,
    v.rows === undefined ? "" : `--rows ${v.rows}`,
    v.snr === null || v.snr === undefined ? "" : `--snr ${v.snr}`,
    v.symbols ? `--symbols ${v.symbols.join(",")}` : "",
    `--method ${v.method}`,
    `--episodes ${v.episodes}`,
    `--budget ${v.budget}`,
  ].filter(Boolean);
  return `npx consolesr run ${experiment} ${flags.join(" ")} --out ${experiment}.json`;
}

/**
 * The section for one of the paper's experiments (toy, syn1, syn2, pow, mas): seed, noise, rows,
 * method, episodes and budget (and, with `pools`, the symbol pool), defaulting to the published
 * run's settings; `caps` bound rows, episodes and budget ({rows, episodes, budget, minBudget}: a
 * slow experiment caps them lower than the CLI and demands a budget, and `note` says so).
 * `published` is {label, text, filename} of the published run's
 * version-1 JSON (committed, or made at build time), or a function of the chosen pool giving one.
 */
export function experimentRerun({
  experiment,
  published,
  methods,
  git,
  caps,
  defaults = {} as Record<string, any>,
  pools,
  note,
}) {
  const parsed = new Map();
  const parse = (p) => {
    if (!p) return null;
    if (!parsed.has(p.text)) parsed.set(p.text, { ...p, result: JSON.parse(p.text) });
    return parsed.get(p.text);
  };
  const publishedFor = typeof published === "function" ? (pool) => parse(published(pool)) : () => parse(published);
  const base = publishedFor(pools?.value)?.result.manifest;
  const config: Record<string, any> = base?.config ?? {};
  const fields = [
    field.seed(defaults.seed ?? base?.seed ?? 0),
    field.snr(defaults.snr ?? config.snrDb ?? null),
    field.rows(Math.min(defaults.rows ?? config.rows ?? caps.rows, caps.rows), caps.rows),
    ...(pools ? [field.choice("symbols", "pool", pools.choices, pools.value, (p) => `{${p.join(", ")}}`)] : []),
    field.method(methods, defaults.method ?? config.method ?? "consolesr"),
    field.episodes(Math.min(defaults.episodes ?? config.episodes ?? 600, caps.episodes), caps.episodes),
    field.budget(
      Math.max(caps.minBudget ?? 0, Math.min(defaults.budget ?? config.budget ?? 0, caps.budget)),
      caps.budget,
      caps.minBudget ?? 0,
    ),
  ];
  return rerun({
    experiment,
    fields,
    note,
    git,
    options: (v) => ({
      experiment,
      seed: v.seed,
      rows: v.rows,
      snrDb: v.snr ?? undefined,
      symbols: v.symbols,
      method: v.method,
      search: { episodes: v.episodes, budget: v.budget },
    }),
    command: (v) => runCommand(experiment, v),
    playground: (v) =>
      playgroundLink({
        dataset: experiment,
        seed: v.seed,
        snr: v.snr,
        rows: v.rows,
        method: v.method,
        budget: v.budget,
        episodes: v.episodes,
        symbols: v.symbols,
      }),
    published: (v) => publishedFor(v.symbols),
    filename: (v) => `${experiment}-seed${v.seed}-live.json`,
  });
}

/** A search-benchmark run record (bench/searchSuite.ts) as the parts of a version-1 result the table reads. */
function recordAsResult(r) {
  return {
    equations: [{ target: "y", text: r.learned, latex: null, trainNrmse: r.trainNrmse }],
    evaluation: [{ target: "y", exact: r.exact, coefficientError: r.coefficientError, testNrmse: r.testNrmse }],
    search: { targets: [{ target: "y", episodes: r.episodes, structures: r.structures, stopReason: r.stopReason }] },
  };
}

/**
 * The search benchmark's section: one cell (equation × method × seed, at one noise level) of the
 * benchmark files `suites` (bench/searchSuite.ts output, all of one mode and row count), re-run
 * live through the pipeline (`consolesr run <id>`: the entry's pool and size, the same data draw,
 * stop rule and budget) beside the published run of that cell.
 */
export function benchmarkRerun({ suites, git }) {
  const [first] = suites;
  const m = first.manifest;
  const noises = suites.flatMap((s) => s.manifest.noise);
  const recordOf = (v) =>
    suites
      .flatMap((s) => s.runs)
      .find((r) => r.equation === v.equation && r.method === v.method && r.seed === v.seed && r.snrDb === v.snr) ??
    null;
  // The stop rule of a noise level, as the benchmark ran it (every record carries its own).
  const stopOf = (snr) => suites.flatMap((s) => s.runs).find((r) => r.snrDb === snr)?.stopNrmse ?? 1e-6;
  const fields = [
    field.choice(
      "equation",
      "equation",
      first.equations.map((e) => e.id),
      first.equations[0].id,
      (id) => first.equations.find((e) => e.id === id)?.name ?? id,
    ),
    field.choice("snr", "noise SNR", noises, noises[0], snrName),
    field.method(m.methods, m.methods[0]),
    field.seed(m.seeds[0]),
    field.budget(m.budget, m.budget, 1),
  ];
  const options = (v) => ({
    experiment: v.equation,
    seed: v.seed,
    rows: m.rows,
    snrDb: v.snr ?? undefined,
    method: v.method,
    search: { episodes: m.episodes, budget: v.budget, stopNrmse: stopOf(v.snr) },
  });
  return rerun({
    experiment: "search-benchmark",
    fields,
    git,
    note: html`One cell of the benchmark: the entry's pool, number of products and factors, ${m.rows} rows (the same
      draw as the benchmark's for that seed), its stop rule and a budget of at most ${m.budget} structures. The
      benchmark seeds each job's search from a hash of (seed, equation); a run through the pipeline seeds it from
      the data's generator, as <code>consolesr run</code> does, so the search can take another path than the
      published run even when the code is the same.`,
    options,
    command: (v) =>
      `npx consolesr run ${v.equation} --seed ${v.seed} --rows ${m.rows}${v.snr === null ? "" : ` --snr ${v.snr}`} ` +
      `--method ${v.method} --episodes ${m.episodes} --budget ${v.budget} --stop-nrmse ${stopOf(v.snr)} ` +
      `--out ${v.equation}.json`,
    // The noise level's stop rule too, as the benchmark ran it (the playground's default is 1e-6);
    // no link where the playground does not offer the entry (none of the benchmark's, for now).
    playground: (v) =>
      benchmarkCellLink({ ...v, rows: m.rows, episodes: m.episodes, stopNrmse: stopOf(v.snr) }, experimentNames),
    published: (v) => {
      const r = recordOf(v);
      return r
        ? {
            label: `${r.equation}, ${r.method}, seed ${r.seed}: ${r.recovered ? "recovered" : "not recovered"}`,
            result: recordAsResult(r),
            text: `${JSON.stringify(r, null, 1)}\n`,
            filename:
              `benchmark-${r.equation}-${r.method}-seed${r.seed}` + `${r.snrDb === null ? "" : `-snr${r.snrDb}`}.json`,
          }
        : null;
    },
    filename: (v) => `${v.equation}-${v.method}-seed${v.seed}-live.json`,
  });
}
