/**
 * What site/data/toy.json.ts prints (the loader only prints it; see docs/design.md#site).
 *
 * Data loader for site/toy.md (paper §5.2, Fig. 2): the toy y = 3·x1²·cos(2.5·x2) on
 * 2000 rows, x ~ U(1,2). Prints one JSON on stdout (nothing on stderr):
 *   surface — the LoCaL loss L(w1, w2) = mean((y − w1·x1²·cos(w2·x2))²)/var(y) on a grid;
 *   init    — final loss vs the initial weight w0 (Adam only, float64 js engine);
 *   q       — −Q over a 2-D slice of the relaxed layer-1 action at episodes 1, 5, 10 of a search;
 *   run     — `consolesr run toy --seed 0` through the pipeline: its version-1 JSON (the page's
 *             published search, beside which its re-run form shows a live one).
 * Reproduce: `npx tsx site/data/toy.json.ts > toy.json` (or `npx observable build`, which runs it).
 */
import { gitSha } from "../../../src/cli/git.js";
import {
  createArgminSolver,
  createConstraintRegistry,
  createRegistries,
  createRewardRegistry,
  createRng,
  createSymbolRegistry,
  experimentData,
  experiments,
  fitLocalSync,
  formOf,
  prepareRun,
  resultToJson,
  runPrepared,
  search,
  structureOfEquations,
  VERSION,
} from "../../../src/lib/index.js";
import {
  allowedNeurons,
  createSpace,
  initialState,
  layerBounds,
  partialStructure,
  transition,
  type Icnn,
} from "../../../src/lib/inspect.js";

export async function toyPage(): Promise<string> {
  const started = performance.now();
  const SEED = 0;
  const experiment = experiments.toy!;
  const registry = createSymbolRegistry();
  const symbols = (name: string) => registry.get(name);
  const { train } = experimentData(experiment, { rng: createRng(SEED), symbols });
  const [x1, x2] = train.x as [Float64Array, Float64Array];
  const y = train.y[0]!;
  const n = train.rows;

  const sha = gitSha();
  const manifest = {
    seed: SEED,
    experiment: experiment.name,
    rows: n,
    trainRange: experiment.trainRange,
    version: VERSION,
    git: sha,
    backend: "js",
  };

  const round = (v: number, digits = 6) => (Number.isFinite(v) ? Number(v.toPrecision(digits)) : null);
  const grid = (lo: number, hi: number, count: number) =>
    Array.from({ length: count }, (_, i) => Number((lo + ((hi - lo) * i) / (count - 1)).toFixed(6)));

  // 1. Loss surface L(w1, w2), exact: L is quadratic in w1 for each w2.
  let t0 = performance.now();
  const mean = y.reduce((s, v) => s + v, 0) / n;
  const varY = y.reduce((s, v) => s + (v - mean) ** 2, 0) / n;
  const w1s = grid(-1, 6, 71);
  const w2s = grid(-5, 5, 101);
  const surface: { w1: number; w2: number; loss: number }[] = [];
  let syy = 0;
  for (let i = 0; i < n; i++) syy += y[i]! * y[i]!;
  for (const w2 of w2s) {
    let syc = 0;
    let scc = 0;
    for (let i = 0; i < n; i++) {
      const c = x1[i]! * x1[i]! * Math.cos(w2 * x2[i]!);
      syc += y[i]! * c;
      scc += c * c;
    }
    for (const w1 of w1s) surface.push({ w1, w2, loss: round((syy - 2 * w1 * syc + w1 * w1 * scc) / n / varY, 5)! });
  }
  const surfaceMs = performance.now() - t0;

  // 2. Final loss vs the initial weight w0 (every weight starts at w0; Adam only).
  t0 = performance.now();
  // One start from w0 (no multi-start): the figure is about where Adam goes from each w0.
  const FIT = {
    steps: 2000,
    learningRate: 1e-2,
    polish: "none" as const,
    engine: "js" as const,
    tolerance: 0,
    starts: "single" as const,
  };
  const SAFE = 1e-6;
  const structure = structureOfEquations([formOf(experiment.truth[0]!)], experiment.inputs, registry.names());
  const inits = Array.from({ length: 21 }, (_, i) => i - 10).map((w0) => {
    const fit = fitLocalSync(structure, { x: train.x, y: train.y }, { symbols: registry, ...FIT, init: w0 });
    const loss = fit.trainNrmse[0]! ** 2;
    const cosAt = structure.symbols.indexOf("cos");
    // The neuron cos(x2) is input 1 of the structure: inner index = input·|symbols| + symbol.
    const inner = fit.weights.inner[1 * structure.symbols.length + cosAt]!;
    const coefficient = fit.weights.w2.flat().find((v) => v !== 0) ?? 0;
    // First Adam step whose loss is below the threshold (null: never).
    const reached = fit.loss.findIndex((l) => l < SAFE);
    return {
      w0,
      loss: round(loss, 4),
      safe: loss < SAFE,
      w1: round(coefficient, 6),
      w2: round(inner, 6),
      stepsToSafe: reached < 0 ? null : reached + 1,
      ms: Math.round(fit.ms),
    };
  });
  const initMs = performance.now() - t0;
  const safe = inits.filter((r) => r.safe).map((r) => r.w0);

  // 3. −Q over a 2-D slice of the relaxed layer-1 action, episodes 1, 5, 10.
  t0 = performance.now();
  const SEARCH = { terms: 1, maxFactors: 2, episodes: 10, stopNrmse: -1 };
  const SNAPSHOTS = [1, 5, 10];
  const pool = [...experiment.symbols];
  const constraints = createConstraintRegistry();
  const rewards = createRewardRegistry();
  const argmin = await createArgminSolver();
  const snaps = new Map<number, { net: Icnn; reward: number; best: number }>();
  const result = await search(train, {
    symbols: registry,
    pool,
    constraints: ["static", "dynamic"].map((c) => constraints.get(c)),
    reward: rewards.get("inv-nrmse"),
    rng: createRng(SEED),
    settings: SEARCH,
    argmin,
    onEpisode: (e) => {
      if (SNAPSHOTS.includes(e.episode))
        snaps.set(e.episode, { net: e.nets!.q.clone(), reward: e.reward, best: e.best.nrmse });
    },
  });
  const space = createSpace(
    train.inputs,
    pool,
    SEARCH.terms,
    result.settings.encoding,
    allowedNeurons(train, pool, registry),
  );
  const neuronName = (i: number) =>
    `${space.symbols[i % space.symbols.length]}(${space.inputs[Math.floor(i / space.symbols.length)]})`;
  const iSq = 0 * space.symbols.length + space.symbols.indexOf("x^2"); // x^2(x1)
  const iCos = 1 * space.symbols.length + space.symbols.indexOf("cos"); // cos(x2)
  const limits = { maxFactors: SEARCH.maxFactors, maxTerms: SEARCH.terms, pearson: result.settings.pearson };
  const s0 = initialState(space);
  // Layer 0 enables exactly the truth's neurons; the slice is the layer-1 decision on that path.
  const a0 = new Float64Array(space.nA);
  a0[iSq] = a0[iCos] = 1;
  const s1 = transition(space, 0, s0, a0);
  const bounds1 = layerBounds(space, 1, partialStructure(space, [a0]), [], limits);
  const eSq = iSq * space.n2; // Z1 entry: neuron iSq → product 0
  const eCos = iCos * space.n2;
  const ticks = grid(0, 1, 21);
  const episodes = SNAPSHOTS.filter((k) => snaps.has(k)).map((episode) => {
    const { net, reward, best } = snaps.get(episode)!;
    // The episode's own greedy layer-0 choice (LP argmin at s0, rounded), for the record.
    const greedy0 = argmin.lp(net, s0, layerBounds(space, 0, { neurons: [] }, [], limits)).action;
    const enabled = Array.from(greedy0.keys())
      .filter((i) => i < space.n1 && greedy0[i]! > 0.5)
      .map(neuronName);
    const greedy = argmin.lp(net, s1, bounds1);
    const base = Float64Array.from(greedy.action);
    const cells: { u: number; v: number; q: number }[] = [];
    let best2 = { u: 0, v: 0, q: Number.POSITIVE_INFINITY };
    for (const v of ticks) {
      for (const u of ticks) {
        const a = Float64Array.from(base);
        a[eSq] = u;
        a[eCos] = v;
        const q = net.value(s1, a);
        cells.push({ u, v, q: round(q, 5)! });
        if (q < best2.q) best2 = { u, v, q };
      }
    }
    // Exact argmin of the slice: the same LP with every other entry fixed at the greedy action.
    const lower = Float64Array.from(base);
    const upper = Float64Array.from(base);
    lower[eSq] = lower[eCos] = 0;
    upper[eSq] = upper[eCos] = 1;
    const exact = argmin.lp(net, s1, { lower, upper });
    return {
      episode,
      reward: round(reward),
      bestNrmse: round(best),
      greedyLayer0: enabled,
      greedyLayer1: Array.from(greedy.action, (v) => round(v, 4)),
      greedyValue: round(greedy.value),
      gridArgmin: { u: best2.u, v: best2.v, q: round(best2.q) },
      lpArgmin: { u: round(exact.action[eSq]!, 4), v: round(exact.action[eCos]!, 4), q: round(exact.value) },
      cells,
    };
  });
  const qMs = performance.now() - t0;

  // 4. The search as `npx consolesr run toy --seed 0 --out toy.json` runs it (same pipeline, same bytes).
  t0 = performance.now();
  const registries = createRegistries();
  const { result: runResult } = await runPrepared(
    prepareRun({ experiment: experiment.name, seed: SEED }, { registries }),
    {
      git: sha,
      backend: "js",
    },
  );
  const runMs = performance.now() - t0;

  const out = {
    manifest: { ...manifest, totalMs: 0 },
    truth: { w1: 3, w2: 2.5, equation: "y = 3·x1²·cos(2.5·x2)" },
    surface: {
      config: { w1: [w1s[0], w1s.at(-1), w1s.length], w2: [w2s[0], w2s.at(-1), w2s.length] },
      varY: round(varY),
      optima: [
        { w1: 3, w2: 2.5 },
        { w1: 3, w2: -2.5 },
      ],
      ms: Math.round(surfaceMs),
      cells: surface,
    },
    init: { config: FIT, threshold: SAFE, paperSafe: "[-3, 7] \\ {0}", safe, ms: Math.round(initMs), runs: inits },
    q: {
      config: {
        ...SEARCH,
        pool,
        constraints: ["static", "dynamic"],
        reward: "inv-nrmse",
        method: "consolesr",
        encoding: result.settings.encoding,
        hidden: result.settings.hidden,
      },
      actionSize: space.nA,
      neurons: Array.from({ length: space.n1 }, (_, i) => neuronName(i)),
      slice: {
        u: `Z1[${neuronName(iSq)} → product 0]`,
        v: `Z1[${neuronName(iCos)} → product 0]`,
        entries: [eSq, eCos],
        state: Array.from(s1),
      },
      found: result.equations.map((e) => e.text),
      episodesRun: result.episodes,
      ms: Math.round(qMs),
      episodes,
    },
    run: { ms: Math.round(runMs), resultText: resultToJson(runResult) },
  };
  out.manifest.totalMs = Math.round(performance.now() - started);
  return JSON.stringify(out);
}
