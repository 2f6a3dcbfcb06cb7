/**
 * The power-flow equations as the data see them, and the grid read back from learned equations.
 *
 * Written out (paper §5.1, q_i corrected; see grid.ts):
 *   p_i = Σ_m G_im(u_i·u_m + v_i·v_m) + B_im(v_i·u_m − u_i·v_m)
 *   q_i = Σ_m G_im(v_i·u_m − u_i·v_m) − B_im(u_i·u_m + v_i·v_m)
 * On power-flow data several of these terms are not identifiable, so each output's truth is its
 * REDUCED form on the data:
 * - the slack bus s has v_s ≡ 0 (its angle is the reference) and u_s ≡ |V_s| (its setpoint):
 *   terms with v_s vanish and u_s becomes the number |V_s| (1 in case5);
 * - at PV buses and the slack, |V_i|² = u_i² + v_i² is the setpoint squared, so the diagonal
 *   terms G_ii(u_i² + v_i²) of p_i and −B_ii(u_i² + v_i²) of q_i become the constants G_ii·|V_i|²
 *   and −B_ii·|V_i|² (a term with no factor);
 * - at PQ buses the diagonal stays G_ii·u_i² + G_ii·v_i² (and −B_ii·u_i² − B_ii·v_i²): x² terms,
 *   which the paper's pool {x} cannot express (a LoCaL product uses a neuron at most once), so
 *   only `--symbols x,x^2` can recover those outputs exactly.
 * In the pool {x} a constant is c·u_s (u_s is a constant column): the simplification folds a
 * factor whose column is constant on the training data into the coefficient, so c·u_s reads c.
 */
import type { Equation, Factor, Term } from "../../equation/index.js";
import { PQ } from "./case5.js";
import type { Grid } from "./grid.js";

export const uName = (grid: Grid, a: number) => `u${grid.power.buses[a]!.id}`;
export const vName = (grid: Grid, a: number) => `v${grid.power.buses[a]!.id}`;
export const pName = (grid: Grid, a: number) => `p${grid.power.buses[a]!.id}`;
export const qName = (grid: Grid, a: number) => `q${grid.power.buses[a]!.id}`;

/** A voltage component as the data see it: a factor, or a number at the slack (u_s = |V_s|, v_s = 0). */
type Component = { value: number; factors: Factor[] };

function component(grid: Grid, a: number, part: "u" | "v"): Component {
  if (a === grid.slack) return { value: part === "u" ? grid.vset[a]! : 0, factors: [] };
  return { value: 1, factors: [{ symbol: "x", input: part === "u" ? uName(grid, a) : vName(grid, a) }] };
}

const keyOf = (factors: readonly Factor[]) =>
  factors
    .map((f) => `${f.symbol}(${f.input})`)
    .sort()
    .join("*");

/** Accumulates c·a·b into `terms`, merging equal products; zero contributions are left out. */
function addProduct(terms: Term[], c: number, a: Component, b: Component): void {
  const coefficient = c * a.value * b.value;
  if (coefficient === 0) return;
  const factors = [...a.factors, ...b.factors];
  const key = keyOf(factors);
  const twin = terms.find((t) => keyOf(t.factors) === key);
  if (twin) twin.coefficient += coefficient;
  else terms.push({ coefficient, factors });
}

/** The reduced truth of every output, in the order p1, q1, p2, q2, … (see the module comment). */
export function reducedTruth(grid: Grid): Equation[] {
  const { n, G, B } = grid;
  const out: Equation[] = [];
  for (let i = 0; i < n; i++) {
    const p: Term[] = [];
    const q: Term[] = [];
    const ui = component(grid, i, "u");
    const vi = component(grid, i, "v");
    for (let m = 0; m < n; m++) {
      const g = G[i * n + m]!;
      const b = B[i * n + m]!;
      if (g === 0 && b === 0) continue;
      if (m === i) {
        if (grid.types[i] === PQ) {
          for (const part of ["u", "v"] as const) {
            const square: Factor[] = [{ symbol: "x^2", input: part === "u" ? uName(grid, i) : vName(grid, i) }];
            if (g !== 0) p.push({ coefficient: g, factors: square });
            if (b !== 0) q.push({ coefficient: -b, factors: [...square] });
          }
        } else {
          const v2 = grid.vset[i]! ** 2;
          if (g !== 0) p.push({ coefficient: g * v2, factors: [] });
          if (b !== 0) q.push({ coefficient: -b * v2, factors: [] });
        }
        continue;
      }
      const um = component(grid, m, "u");
      const vm = component(grid, m, "v");
      addProduct(p, g, ui, um);
      addProduct(p, g, vi, vm);
      addProduct(p, b, vi, um);
      addProduct(p, -b, ui, vm);
      addProduct(q, g, vi, um);
      addProduct(q, -g, ui, vm);
      addProduct(q, -b, ui, um);
      addProduct(q, -b, vi, vm);
    }
    out.push({ target: pName(grid, i), terms: p.filter((t) => t.coefficient !== 0) });
    out.push({ target: qName(grid, i), terms: q.filter((t) => t.coefficient !== 0) });
  }
  return out;
}

/** One quantity a learned term estimates: G or B of the bus pair (i, m) (i = m: the diagonal), times `scale`. */
interface Reading {
  i: number;
  m: number;
  quantity: "G" | "B";
  scale: number;
}

/**
 * Which (output, product) estimates which admittance entry: every product of the full written
 * form, reduced as in reducedTruth, with the factor that turns its coefficient into G_im or B_im.
 * Key: `${target}|${product key}`.
 */
function readings(grid: Grid): Map<string, Reading[]> {
  const map = new Map<string, Reading[]>();
  const add = (target: string, c: number, a: Component, b: Component, reading: Omit<Reading, "scale">) => {
    const scale = c * a.value * b.value;
    if (scale === 0) return;
    const key = `${target}|${keyOf([...a.factors, ...b.factors])}`;
    map.set(key, [...(map.get(key) ?? []), { ...reading, scale }]);
  };
  const { n } = grid;
  for (let i = 0; i < n; i++) {
    const ui = component(grid, i, "u");
    const vi = component(grid, i, "v");
    const p = pName(grid, i);
    const q = qName(grid, i);
    for (let m = 0; m < n; m++) {
      if (m === i) {
        const G = { i, m, quantity: "G" as const };
        const B = { i, m, quantity: "B" as const };
        if (grid.types[i] === PQ) {
          for (const part of ["u", "v"] as const) {
            const name = part === "u" ? uName(grid, i) : vName(grid, i);
            const key = keyOf([{ symbol: "x^2", input: name }]);
            map.set(`${p}|${key}`, [{ ...G, scale: 1 }]);
            map.set(`${q}|${key}`, [{ ...B, scale: -1 }]);
          }
        } else {
          const v2 = grid.vset[i]! ** 2;
          map.set(`${p}|`, [{ ...G, scale: v2 }]);
          map.set(`${q}|`, [{ ...B, scale: -v2 }]);
        }
        continue;
      }
      const um = component(grid, m, "u");
      const vm = component(grid, m, "v");
      const G = { i, m, quantity: "G" as const };
      const B = { i, m, quantity: "B" as const };
      add(p, 1, ui, um, G);
      add(p, 1, vi, vm, G);
      add(p, 1, vi, um, B);
      add(p, -1, ui, vm, B);
      add(q, 1, vi, um, G);
      add(q, -1, ui, vm, G);
      add(q, -1, ui, um, B);
      add(q, -1, vi, vm, B);
    }
  }
  return map;
}

export interface LearnedLine {
  /** Bus ids, from < to. */
  from: number;
  to: number;
  /** Mean of the estimates of G_ft and B_ft from the learned terms (0 when none). */
  g: number;
  b: number;
  /** How many learned terms gave each estimate. */
  gTerms: number;
  bTerms: number;
  /** The truth: Y's off-diagonal entries (0 where there is no line). */
  gTrue: number;
  bTrue: number;
  /** Some learned term names this pair. */
  learned: boolean;
  /** The case has a line (or several) between the two buses. */
  exists: boolean;
}

export interface LearnedTopology {
  lines: LearnedLine[];
  /** Diagonal entries (G_ii, B_ii) per bus id, where learned terms estimate them. */
  buses: { id: number; g: number; b: number; gTrue: number; bTrue: number; gTerms: number; bTerms: number }[];
  /** Learned terms that estimate no admittance entry (e.g. products of two other buses' voltages). */
  unexplained: { target: string; coefficient: number; product: string }[];
}

/**
 * The grid read back from learned p/q equations: each learned term of p_i or q_i whose product
 * appears in the written form (after the reduction on the data) estimates G_im or B_im; a pair
 * of buses is a learned line when any term names it. Estimates from several terms (p_i, q_i, p_m,
 * q_m: up to 8 per entry for two non-slack buses) are averaged. Equations should be simplified
 * (a constant factor folded, as evaluateExperiment and the CLI's equations are).
 */
export function learnedTopology(grid: Grid, equations: readonly Equation[]): LearnedTopology {
  const table = readings(grid);
  const { n, G, B } = grid;
  const sums = new Map<string, { sum: number; count: number }>();
  const unexplained: LearnedTopology["unexplained"] = [];
  const entry = (i: number, m: number, quantity: "G" | "B") => `${Math.min(i, m)},${Math.max(i, m)},${quantity}`;
  for (const equation of equations) {
    for (const term of equation.terms) {
      const product = keyOf(term.factors);
      const found = table.get(`${equation.target}|${product}`);
      if (!found) {
        unexplained.push({ target: equation.target, coefficient: term.coefficient, product: product || "1" });
        continue;
      }
      // A product that estimates several entries (none in a plain network) is split evenly.
      for (const r of found) {
        const key = entry(r.i, r.m, r.quantity);
        const s = sums.get(key) ?? { sum: 0, count: 0 };
        s.sum += term.coefficient / r.scale / found.length;
        s.count++;
        sums.set(key, s);
      }
    }
  }
  const read = (i: number, m: number, quantity: "G" | "B") => {
    const s = sums.get(entry(i, m, quantity));
    return s ? { value: s.sum / s.count, count: s.count } : { value: 0, count: 0 };
  };
  const id = (a: number) => grid.power.buses[a]!.id;
  const lines: LearnedLine[] = [];
  for (let i = 0; i < n; i++) {
    for (let m = i + 1; m < n; m++) {
      const g = read(i, m, "G");
      const b = read(i, m, "B");
      const gTrue = G[i * n + m]!;
      const bTrue = B[i * n + m]!;
      lines.push({
        from: id(i),
        to: id(m),
        g: g.value,
        b: b.value,
        gTerms: g.count,
        bTerms: b.count,
        gTrue,
        bTrue,
        learned: g.count + b.count > 0,
        exists: gTrue !== 0 || bTrue !== 0,
      });
    }
  }
  const buses = Array.from({ length: n }, (_, i) => {
    const g = read(i, i, "G");
    const b = read(i, i, "B");
    return {
      id: id(i),
      g: g.value,
      b: b.value,
      gTrue: G[i * n + i]!,
      bTrue: B[i * n + i]!,
      gTerms: g.count,
      bTerms: b.count,
    };
  }).filter((bus) => bus.gTerms + bus.bTerms > 0);
  return { lines, buses, unexplained };
}

const pct = (estimate: number, truth: number) => {
  if (truth === 0) return "";
  const text = ((100 * (estimate - truth)) / Math.abs(truth)).toFixed(2);
  return ` (${text === "-0.00" ? "0.00" : text} %)`;
};
const num = (x: number) => (x === 0 ? "0" : x.toPrecision(5));

/**
 * A few lines of text summarising learnedTopology: lines found, missed and spurious, and their G, B against the truth.
 */
export function topologySummary(topology: LearnedTopology): string[] {
  const out: string[] = [];
  const found = topology.lines.filter((l) => l.learned && l.exists).length;
  const missed = topology.lines.filter((l) => !l.learned && l.exists);
  const spurious = topology.lines.filter((l) => l.learned && !l.exists);
  const total = topology.lines.filter((l) => l.exists).length;
  out.push(`learned topology: ${found} of ${total} lines found, ${missed.length} missed, ${spurious.length} spurious`);
  for (const l of topology.lines) {
    if (!l.learned && !l.exists) continue;
    const status = l.exists ? (l.learned ? "line" : "MISSED") : "SPURIOUS";
    out.push(
      `  ${status.padEnd(8)} ${l.from}-${l.to}: G ${num(l.g)} vs ${num(l.gTrue)}${pct(l.g, l.gTrue)} [${l.gTerms} ` +
        `terms], B ${num(l.b)} vs ${num(l.bTrue)}${pct(l.b, l.bTrue)} [${l.bTerms} terms]`,
    );
  }
  for (const bus of topology.buses) {
    out.push(
      `  bus ${bus.id} (self): G ${num(bus.g)} vs ${num(bus.gTrue)}${pct(bus.g, bus.gTrue)} [${bus.gTerms}], ` +
        `B ${num(bus.b)} vs ${num(bus.bTrue)}${pct(bus.b, bus.bTrue)} [${bus.bTerms}]`,
    );
  }
  if (topology.unexplained.length > 0) {
    out.push(
      `  ${topology.unexplained.length} learned term(s) fit no admittance entry: ${topology.unexplained
        .slice(0, 6)
        .map((t) => `${t.target}: ${num(t.coefficient)}·${t.product}`)
        .join("; ")}${topology.unexplained.length > 6 ? "; …" : ""}`,
    );
  }
  return out;
}
