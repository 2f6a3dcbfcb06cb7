/**
 * A user's own grid, as a JSON file (the format is documented in data/grids/README.md and in the
 * library guide): buses, lines, the base MVA and the load range to sample. parseGrid checks it
 * once, at the boundary, into a typed GridSpec; every problem is one InputError line naming the
 * file and the field (`my.json: lines[3].to: bus 9 is not in buses`). gridCase turns a GridSpec
 * into the MATPOWER-style case the power flow reads (case5.ts), so a user's grid and Pow's case5
 * take the same path from there on.
 */
import type { z } from "zod";
import { lazyObject, once, zod, InputError } from "../../core/index.js";
import { PQ, PV, SLACK, type BusType, type PowerCase } from "./case5.js";

const NAME = /^[A-Za-z0-9_.+-]+$/;
/** The grid file's schema, built on first use (zod loads then: core/zod.ts). */
const gridSchemaOnce = once(() => {
  const z = zod();
  const finite = z.number().refine(Number.isFinite, { error: "a finite number" });
  const range = z.tuple([finite, finite]);

  const busSchema = z.strictObject({
    id: z.number().int().positive(),
    type: z.enum(["PQ", "PV", "slack"]),
    /** Load, MW and MVAr at a load multiplier of 1. */
    pd: finite.default(0),
    qd: finite.default(0),
    /** Shunt conductance and susceptance, MW and MVAr at V = 1 pu. */
    gs: finite.default(0),
    bs: finite.default(0),
    /** Voltage magnitude, pu: the setpoint at PV and slack buses, the flow's start at PQ buses. */
    vm: finite.default(1),
    /** Real generation (MW) at a PV bus at a multiplier of 1. */
    pg: finite.default(0),
    /** This bus's own load multiplier range (replaces loads.scale and loads.spread at this bus). */
    range: range.optional(),
  });

  const lineSchema = z.strictObject({
    from: z.number().int(),
    to: z.number().int(),
    /** Series resistance and reactance, total line-charging susceptance (pu on baseMVA). */
    r: finite,
    x: finite,
    b: finite.default(0),
    /** Off-nominal tap ratio at the from end (1: none) and phase shift (degrees). */
    ratio: finite.default(1),
    shift: finite.default(0),
  });

  const loadsSchema = z.strictObject({
    /** The system's load multiplier of each training row, ~ U(scale). */
    scale: range.default([0.6, 1]),
    /** The same for the test rows (default: scale). */
    testScale: range.optional(),
    /** Each bus's own factor around the system's, ~ U(1 − spread, 1 + spread). */
    spread: finite.default(0.05),
  });

  return z.strictObject({
    name: z.string().regex(NAME, { error: "letters, digits, _ . + -" }).optional(),
    description: z.string().optional(),
    baseMVA: finite.default(100),
    buses: z.array(busSchema).min(2),
    lines: z.array(lineSchema).min(1),
    loads: loadsSchema.default({ scale: [0.6, 1], spread: 0.05 }),
  });
});

/** A grid file's schema (built on first use). */
export const gridSchema: ReturnType<typeof gridSchemaOnce> = lazyObject(gridSchemaOnce);

type GridFile = z.infer<typeof gridSchema>;

/** A checked grid: the file's fields with every default filled in, and its name. */
export interface GridSpec extends Omit<GridFile, "name" | "loads"> {
  name: string;
  loads: { scale: [number, number]; testScale: [number, number]; spread: number };
}
export type GridBus = GridSpec["buses"][number];
export type GridLine = GridSpec["lines"][number];

const issuePath = (path: readonly PropertyKey[]) =>
  path
    .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
    .join(".")
    .replace(/\.\[/g, "[");

/** A path's file name without its extension (grids/ring5.json → ring5), without node:path. */
const stemOf = (file: string) => (file.split(/[\\/]/).pop() ?? file).replace(/\.[^.]*$/, "");

/**
 * Checks a grid file's parsed JSON (or its text) into a GridSpec; `file` names it in every error
 * and, without a `name` field, names the grid (its stem).
 */
export function parseGrid(value: unknown, file: string): GridSpec {
  const fail = (at: string, message: string): never => {
    throw new InputError(`${file}: ${at ? `${at}: ` : ""}${message}`);
  };
  let json = value;
  if (typeof value === "string") {
    try {
      json = JSON.parse(value);
    } catch (error) {
      fail("", `not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const parsed = gridSchemaOnce().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = issuePath(issue.path);
    if (issue.code === "unrecognized_keys")
      fail("", `unknown field ${issue.keys.map((k) => `"${at ? `${at}.${k}` : k}"`).join(", ")}`);
    fail(at || "the grid", issue.message.replace(/^Invalid (input|option): /, ""));
  }
  const grid = parsed.data!;
  const name = grid.name ?? stemOf(file);
  if (!NAME.test(name)) fail("name", `the grid needs a name of letters, digits, _ . + - (the file's is "${name}")`);
  checkBuses(grid, fail);
  checkLines(grid, fail);
  checkConnected(grid, fail);
  const loads = grid.loads;
  checkRange(loads.scale, "loads.scale", fail);
  if (loads.testScale) checkRange(loads.testScale, "loads.testScale", fail);
  if (!(loads.spread >= 0 && loads.spread < 1))
    fail("loads.spread", `a fraction from 0 to below 1 (got ${loads.spread})`);
  return {
    ...grid,
    name,
    loads: { scale: loads.scale, testScale: loads.testScale ?? loads.scale, spread: loads.spread },
  };
}

type Fail = (at: string, message: string) => never;

function checkRange([lo, hi]: [number, number], at: string, fail: Fail): void {
  if (!(lo >= 0 && lo <= hi && hi <= 10))
    fail(at, `a multiplier range [lo, hi] with 0 ≤ lo ≤ hi ≤ 10 (got [${lo}, ${hi}])`);
}

function checkBuses(grid: GridFile, fail: Fail): void {
  if (!(grid.baseMVA > 0)) fail("baseMVA", `must be positive (got ${grid.baseMVA})`);
  const seen = new Map<number, number>();
  let slack = -1;
  grid.buses.forEach((bus, a) => {
    const at = `buses[${a}]`;
    const twin = seen.get(bus.id);
    if (twin !== undefined) fail(`${at}.id`, `bus ${bus.id} is listed twice (also buses[${twin}])`);
    seen.set(bus.id, a);
    if (bus.type === "slack") {
      if (slack >= 0)
        fail(`${at}.type`, `a second slack bus (bus ${grid.buses[slack]!.id} is the first); a grid has one`);
      slack = a;
    }
    // Setpoints in kV or in percent are the usual slip: a per-unit magnitude is near 1.
    if (!(bus.vm >= 0.5 && bus.vm <= 1.5))
      fail(`${at}.vm`, `a voltage magnitude in pu, from 0.5 to 1.5 (got ${bus.vm})`);
    if (bus.pg !== 0 && bus.type !== "PV")
      fail(`${at}.pg`, `generation is given at PV buses only (bus ${bus.id} is ${bus.type}; the slack balances)`);
    if (bus.range) checkRange(bus.range, `${at}.range`, fail);
  });
  if (slack < 0) fail("buses", `no slack bus (give one bus "type": "slack")`);
}

function checkLines(grid: GridFile, fail: Fail): void {
  const ids = new Set(grid.buses.map((bus) => bus.id));
  grid.lines.forEach((line, k) => {
    const at = `lines[${k}]`;
    for (const end of ["from", "to"] as const)
      if (!ids.has(line[end])) fail(`${at}.${end}`, `bus ${line[end]} is not in buses`);
    if (line.from === line.to) fail(`${at}.to`, `the line starts and ends at bus ${line.to}`);
    if (!(line.r >= 0)) fail(`${at}.r`, `a resistance must be 0 or more (got ${line.r})`);
    if (!(line.x > 0)) fail(`${at}.x`, `a reactance must be positive (got ${line.x})`);
    if (!(line.ratio > 0)) fail(`${at}.ratio`, `a tap ratio must be positive (got ${line.ratio}; 1 is none)`);
  });
}

/** Every bus is reached from the slack through the lines (an island has no voltage reference). */
function checkConnected(grid: GridFile, fail: Fail): void {
  const neighbours = new Map<number, number[]>(grid.buses.map((bus) => [bus.id, []]));
  for (const line of grid.lines) {
    neighbours.get(line.from)!.push(line.to);
    neighbours.get(line.to)!.push(line.from);
  }
  const slack = grid.buses.find((bus) => bus.type === "slack")!.id;
  const reached = new Set([slack]);
  const queue = [slack];
  while (queue.length > 0)
    for (const next of neighbours.get(queue.pop()!)!)
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
  const cut = grid.buses.filter((bus) => !reached.has(bus.id)).map((bus) => bus.id);
  if (cut.length > 0)
    fail(
      "lines",
      `bus${cut.length === 1 ? "" : "es"} ${cut.join(", ")} ${cut.length === 1 ? "is" : "are"} not connected ` +
        `to the slack bus ${slack}`,
    );
}

const BUS_TYPES: Record<GridBus["type"], BusType> = { PQ, PV, slack: SLACK };

/**
 * The MATPOWER-style case of a grid: one generator per PV bus (its pg, at its vm) and one at the
 * slack (its vm), every line in service. The slack's angle is 0, the reference.
 */
export function gridCase(grid: GridSpec): PowerCase {
  return {
    name: grid.name,
    baseMVA: grid.baseMVA,
    buses: grid.buses.map((bus) => ({
      id: bus.id,
      type: BUS_TYPES[bus.type],
      pd: bus.pd,
      qd: bus.qd,
      gs: bus.gs,
      bs: bus.bs,
      vm: bus.vm,
      va: 0,
    })),
    generators: grid.buses
      .filter((bus) => bus.type !== "PQ")
      .map((bus) => ({ bus: bus.id, pg: bus.pg, vg: bus.vm, pmax: Number.POSITIVE_INFINITY, status: 1 })),
    branches: grid.lines.map((line) => ({
      from: line.from,
      to: line.to,
      r: line.r,
      x: line.x,
      b: line.b,
      ratio: line.ratio,
      angle: line.shift,
      status: 1,
    })),
  };
}
