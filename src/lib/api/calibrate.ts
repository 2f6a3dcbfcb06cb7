/**
 * Which engine fits fastest here: a short, fixed fit timed on the float64 JavaScript engine and on
 * each tfjs backend that starts (cpu, wasm, webgl), so that a page (or a script) picks by
 * measurement rather than by a fixed order. In headless Chromium without a GPU, WebGL runs in
 * software and is the slowest of the four; on a machine with a GPU it may win on large data.
 *
 * The workload is the search's own per-structure fit (fitLocalSync: Adam, then the LM polish) of
 * y = 3·x1²·cos(2.5·x2) on seeded rows, once to warm up (JIT, shader compilation) and then
 * `rounds` times; an engine's time is its median round. A backend that cannot start, throws, or
 * whose warm-up alone exceeds `warmupLimitMs` is listed with the reason and never chosen.
 *
 * Results on the js engine reproduce bit for bit in Node (its elementary functions are
 * src/lib/core/math.ts); a tfjs backend computes in float32, so its results reproduce within float32
 * tolerance only. That is why the choice is not simply the fastest: a tfjs backend is chosen only when
 * its fit takes less than the js engine's divided by `JS_MARGIN` (1.5), a gain worth float32, and
 * larger than the spread of timings on a loaded machine (a median of a few 10-ms fits moves by tens
 * of per cent when another process takes the core: js 102 ms against wasm 79 ms was measured once on
 * a two-core machine where js otherwise takes 8–15 ms and wasm 60–240 ms). Pages show the timings and
 * let the reader override the choice.
 */
import { useBackend } from "../engine/index.js";
import { BACKENDS } from "../core/index.js";
import { fitLocalSync } from "../local/index.js";
import type { LocalStructure } from "../local/index.js";
import { cos } from "../core/index.js";
import { createRng, errorLine } from "../core/index.js";
import { createRegistries } from "../plugins/index.js";
// Registers fitLocal's tfjs engine (local/fitTfjs.ts).
import "../local/fitTfjs.js";

export type FitEngine = "js" | "tfjs";

export interface CalibrationEntry {
  engine: FitEngine;
  /** The tfjs backend ("js" for the float64 engine, which uses none). */
  backend: string;
  /** Median seconds of one timed fit; null when this engine could not run. */
  seconds: number | null;
  /** Seconds of the untimed warm-up fit (JIT, shader compilation); null when it failed. */
  warmup: number | null;
  /** Why it was left out. */
  error?: string;
}

export interface Calibration {
  entries: CalibrationEntry[];
  /**
   * `chooseEngine(entries)`: js unless a tfjs backend is `JS_MARGIN` times faster. For the js engine,
   * `backend` is the tfjs backend to keep live ("cpu").
   */
  choice: { engine: FitEngine; backend: string };
  rows: number;
  steps: number;
  rounds: number;
}

export interface CalibrateOptions {
  /** tfjs backends to try (default cpu, wasm, webgl, where they start). */
  backends?: readonly string[];
  /** Rows of the fitted data (default 1000). */
  rows?: number;
  /** Adam steps per fit (default 50, a search's per-structure fit). */
  steps?: number;
  /** Timed fits per engine (default 5; the median counts). */
  rounds?: number;
  /** A warm-up slower than this leaves the engine out (default 5000 ms). */
  warmupLimitMs?: number;
  /** The wasm backend's loader (pages that serve its .wasm files elsewhere). */
  loadWasm?: () => Promise<unknown>;
  /** Called after each engine is measured (for a progress line). */
  onEntry?: (entry: CalibrationEntry) => void;
}

const STRUCTURE: LocalStructure = {
  inputs: ["x1", "x2"],
  symbols: ["x^2", "cos"],
  outputs: ["y"],
  // x1 through x^2 (neuron 0·2 + 0) times x2 through cos (neuron 1·2 + 1)
  products: [[0, 3]],
  sums: [[0]],
};

function workload(rows: number) {
  const rng = createRng(20_261_126);
  const x1 = Float64Array.from({ length: rows }, () => rng.uniform(-2, 2));
  const x2 = Float64Array.from({ length: rows }, () => rng.uniform(-2, 2));
  // with noise, so that no engine meets Adam's early-stop tolerance and all do the same steps
  const y = Float64Array.from(x1, (v, i) => 3 * v * v * cos(2.5 * x2[i]!) + 0.01 * rng.normal());
  return { x: [x1, x2], y: [y] };
}

/** A tfjs backend must fit this many times faster than the float64 js engine to be chosen. */
export const JS_MARGIN = 1.5;

/**
 * The calibration's rule: the fastest measured tfjs backend when it is more than `JS_MARGIN` times
 * faster than the js engine, else js (with tfjs's cpu backend live only to hold data). Entries
 * without a timing never count; without a js timing the fastest tfjs backend wins.
 */
export function chooseEngine(entries: readonly CalibrationEntry[]): { engine: FitEngine; backend: string } {
  const js = entries.find((e) => e.engine === "js" && e.seconds !== null);
  let best: CalibrationEntry | undefined;
  for (const e of entries)
    if (e.engine === "tfjs" && e.seconds !== null && (!best || e.seconds < best.seconds!)) best = e;
  if (best && (!js || best.seconds! * JS_MARGIN < js.seconds!)) return { engine: "tfjs", backend: best.backend };
  return { engine: "js", backend: "cpu" };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Times the fit on each engine and returns the timings and the choice (`chooseEngine`). Leaves the chosen tfjs
 * backend live (cpu when the js engine wins). Never throws for a backend that fails: the js
 * engine always runs.
 */
export async function calibrate(options: CalibrateOptions = {}): Promise<Calibration> {
  const rows = options.rows ?? 1000;
  const steps = options.steps ?? 50;
  const rounds = options.rounds ?? 5;
  const limit = options.warmupLimitMs ?? 5000;
  const symbols = createRegistries().symbols;
  const data = workload(rows);
  const entries: CalibrationEntry[] = [];

  const measure = (engine: FitEngine, backend: string): CalibrationEntry => {
    const fit = () => {
      const started = performance.now();
      fitLocalSync(STRUCTURE, data, { symbols, steps, engine, starts: "single" });
      return (performance.now() - started) / 1000;
    };
    let warmup: number;
    try {
      warmup = fit();
    } catch (error) {
      return { engine, backend, seconds: null, warmup: null, error: errorLine(error) };
    }
    if (warmup * 1000 > limit)
      return {
        engine,
        backend,
        seconds: null,
        warmup,
        error: `warm-up took ${warmup.toFixed(1)} s (limit ${limit / 1000} s)`,
      };
    const times = Array.from({ length: rounds }, fit);
    return { engine, backend, seconds: median(times), warmup };
  };

  const js = measure("js", "js");
  entries.push(js);
  options.onEntry?.(js);
  for (const backend of options.backends ?? BACKENDS) {
    let entry: CalibrationEntry;
    try {
      await useBackend(backend, options.loadWasm);
      entry = measure("tfjs", backend);
    } catch (error) {
      entry = { engine: "tfjs", backend, seconds: null, warmup: null, error: errorLine(error) };
    }
    entries.push(entry);
    options.onEntry?.(entry);
  }
  const choice = chooseEngine(entries);
  await useBackend(choice.backend, options.loadWasm).catch(() => undefined);
  return { entries, choice, rows, steps, rounds };
}
