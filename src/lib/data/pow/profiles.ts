/**
 * Two years of hourly operating points of a case (17,520 by default): seeded load profiles at the
 * load buses, generation at the PV buses following the load, the slack balancing, and the
 * voltages from the Newton–Raphson power flow.
 *
 * - Load bus b (case load Pd_b, Qd_b): P_b(t) = Pd_b · s_b(t) · g(t) · (1 + e_b(t)), where s_b is a
 *   deterministic shape scaled so that its peak over the two years is 1 (the case's loads are the
 *   peak), g(t) = 1 in the first year and 1.02 in the second (load growth), and e_b an AR(1)
 *   noise (φ = 0.95, stationary σ = 3 %) plus white noise (σ = 1 %). Q_b(t) = P_b(t) · Qd_b/Pd_b ·
 *   (1 + f_b(t)), f_b an AR(1) power-factor noise (φ = 0.9, σ = 5 %).
 * - Shapes (hour of day h, weekday, day of the year d; day 0 is a Monday) are the product of a
 *   daily, a weekly and a seasonal factor, different per bus (LOAD_SHAPES): a residential bus
 *   (morning and evening peaks, weekends slightly higher, winter and summer peaks), a commercial
 *   one (a daytime plateau on weekdays, summer peak), an industrial one (two shifts, quieter
 *   weekends, nearly flat over the year).
 * - Generators at PV buses share the total load L(t) = Σ_b P_b(t) in proportion to their output in
 *   the case (proportional dispatch), each with its own AR(1) deviation (φ = 0.9, σ = 2 %): units
 *   follow the load, but not in lockstep. Slack generators take whatever is left (losses and the
 *   deviations). Bus shunts and voltage setpoints are the case's; reactive limits are ignored.
 *
 * All randomness comes from the Rng passed in, drawn in a fixed order (per bus, whole series at a
 * time), so a seed gives the same bytes.
 */
import type { Rng } from "../../core/index.js";
import { PV, type PowerCase } from "./case5.js";
import { busIndex, makeGrid } from "./grid.js";
import { solveFlows, type OperatingPoints } from "./flows.js";
import { cos, exp } from "../../core/index.js";

export type { OperatingPoints };

export const HOURS_PER_YEAR = 8760;

/** A load bus's daily, weekly and seasonal shape (multipliers before normalising to peak 1). */
export interface LoadShape {
  daily: (hour: number) => number;
  /** Weekday 0 = Monday … 6 = Sunday. */
  weekly: (weekday: number) => number;
  /** Day of the year 0…364. */
  seasonal: (day: number) => number;
}

/** A bump centred at `at` (hours, on the 24-hour circle) of half-width `width`. */
const bump = (hour: number, at: number, width: number) => {
  const d = Math.abs(((hour - at + 36) % 24) - 12);
  return exp(-((d / width) ** 2));
};
/** A smooth step up at `on` and down at `off` (hours). */
const plateau = (hour: number, on: number, off: number) =>
  1 / (1 + exp(-(hour - on) * 1.5)) - 1 / (1 + exp(-(hour - off) * 1.5));
const annual = (day: number, peakDay: number) => cos((2 * Math.PI * (day - peakDay)) / 365);

export const LOAD_SHAPES = {
  residential: {
    daily: (h) => 0.55 + 0.25 * bump(h, 8, 2) + 0.45 * bump(h, 19.5, 2.5),
    weekly: (w) => (w >= 5 ? 1.05 : 1),
    // Winter (day 15) and summer (day 200) peaks.
    seasonal: (d) => 1 + 0.1 * annual(d, 15) ** 2 + 0.12 * Math.max(0, annual(d, 200)),
  },
  commercial: {
    daily: (h) => 0.45 + 0.55 * plateau(h, 8, 18.5),
    weekly: (w) => (w === 5 ? 0.7 : w === 6 ? 0.55 : 1),
    seasonal: (d) => 1 + 0.15 * annual(d, 205),
  },
  industrial: {
    daily: (h) => 0.75 + 0.25 * plateau(h, 6, 22),
    weekly: (w) => (w === 5 ? 0.85 : w === 6 ? 0.75 : 1),
    seasonal: (d) => 1 + 0.04 * annual(d, 190),
  },
} satisfies Record<string, LoadShape>;

/** The shape of each load bus of case5, by bus id (bus 2 residential, 3 commercial, 4 industrial). */
export const CASE5_SHAPES: Record<number, LoadShape> = {
  2: LOAD_SHAPES.residential,
  3: LOAD_SHAPES.commercial,
  4: LOAD_SHAPES.industrial,
};

/** Fills an AR(1) series x_t = φ·x_{t−1} + σ·sqrt(1 − φ²)·z_t (stationary σ, x_0 drawn stationary). */
function ar1(rng: Rng, length: number, phi: number, sigma: number): Float64Array {
  const out = new Float64Array(length);
  let x = sigma * rng.normal();
  const scale = sigma * Math.sqrt(1 - phi * phi);
  for (let t = 0; t < length; t++) {
    if (t > 0) x = phi * x + scale * rng.normal();
    out[t] = x;
  }
  return out;
}

export interface OperatingPointOptions {
  rng: Rng;
  hours?: number;
  shapes?: Record<number, LoadShape>;
}

/** The hourly operating points of `power` (see the module comment). */
export function operatingPoints(power: PowerCase, options: OperatingPointOptions): OperatingPoints {
  const grid = makeGrid(power);
  const hours = options.hours ?? 2 * HOURS_PER_YEAR;
  const shapes = options.shapes ?? CASE5_SHAPES;
  const { rng } = options;
  const { pLoad, qLoad } = hourlyLoads(power, grid.n, hours, shapes, rng);
  const pGen = hourlyGeneration(power, grid.n, hours, pLoad, rng);
  return { grid, hours, ...solveFlows(grid, { pLoad, qLoad, pGen }, { warmStart: true }) };
}

/** Loads (MW, MVAr) per bus and hour: the bus's shape, growth in the second year, and AR(1) noise. */
function hourlyLoads(
  power: PowerCase,
  n: number,
  hours: number,
  shapes: Record<number, LoadShape>,
  rng: Rng,
): { pLoad: Float64Array[]; qLoad: Float64Array[] } {
  const pLoad = Array.from({ length: n }, () => new Float64Array(hours));
  const qLoad = Array.from({ length: n }, () => new Float64Array(hours));
  power.buses.forEach((bus, a) => {
    if (bus.pd === 0 && bus.qd === 0) return;
    const shape = shapes[bus.id];
    const raw = new Float64Array(hours);
    let peak = 0;
    for (let t = 0; t < hours; t++) {
      const day = Math.floor(t / 24);
      raw[t] = shape ? shape.daily(t % 24) * shape.weekly(day % 7) * shape.seasonal(day % 365) : 1;
      peak = Math.max(peak, raw[t]!);
    }
    const slow = ar1(rng, hours, 0.95, 0.03);
    const fast = Float64Array.from({ length: hours }, () => 0.01 * rng.normal());
    const pf = ar1(rng, hours, 0.9, 0.05);
    for (let t = 0; t < hours; t++) {
      const growth = t >= HOURS_PER_YEAR ? 1.02 : 1;
      const pd = bus.pd * (raw[t]! / peak) * growth * (1 + slow[t]! + fast[t]!);
      pLoad[a]![t] = pd;
      qLoad[a]![t] = bus.pd === 0 ? bus.qd * (raw[t]! / peak) * growth : pd * (bus.qd / bus.pd) * (1 + pf[t]!);
    }
  });
  return { pLoad, qLoad };
}

/** Generators at PV buses: shares of the total load in proportion to the case's dispatch (MW per bus and hour). */
function hourlyGeneration(
  power: PowerCase,
  n: number,
  hours: number,
  pLoad: readonly Float64Array[],
  rng: Rng,
): Float64Array[] {
  const index = busIndex(power);
  const dispatched = power.generators.filter((g) => g.status && power.buses[index(g.bus)]!.type === PV);
  const total = dispatched.reduce((s, g) => s + g.pg, 0);
  const pGen = Array.from({ length: n }, () => new Float64Array(hours));
  const deviations = dispatched.map(() => ar1(rng, hours, 0.9, 0.02));
  for (let t = 0; t < hours; t++) {
    let load = 0;
    for (let a = 0; a < n; a++) load += pLoad[a]![t]!;
    dispatched.forEach((g, k) => {
      const a = index(g.bus);
      pGen[a]![t] = pGen[a]![t]! + (g.pg / total) * load * (1 + deviations[k]![t]!);
    });
  }
  return pGen;
}
