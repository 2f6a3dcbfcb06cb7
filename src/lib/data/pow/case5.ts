/**
 * The PJM 5-bus system as MATPOWER distributes it (`data/case5.m`, "modified 5 bus, 5 gen case
 * based on PJM 5-bus system"), typed in from that file: bus, generator and branch data, power in
 * MW/MVAr on a 100 MVA base, impedances in per unit. Source: F. Li and R. Bo, "Small test systems
 * for power system economic studies", Proc. IEEE PES General Meeting 2010; MATPOWER, R. D.
 * Zimmerman, C. E. Murillo-Sánchez, R. J. Thomas, "MATPOWER: steady-state operations, planning
 * and analysis tools for power systems research and education", IEEE Trans. Power Systems 26(1),
 * 2011. Only the power-flow columns are kept (costs, ratings and angle limits play no part here).
 */

/** MATPOWER bus types. */
export const PQ = 1;
export const PV = 2;
export const SLACK = 3;
export type BusType = typeof PQ | typeof PV | typeof SLACK;

export interface Bus {
  id: number;
  type: BusType;
  /** Real and reactive load, MW and MVAr. */
  pd: number;
  qd: number;
  /** Shunt conductance and susceptance, MW and MVAr demanded at V = 1 pu. */
  gs: number;
  bs: number;
  /** Voltage magnitude (pu) and angle (degrees) of the case's starting point. */
  vm: number;
  va: number;
}

export interface Generator {
  bus: number;
  /** Real power output (MW) of the case's dispatch. */
  pg: number;
  /** Voltage magnitude setpoint (pu). */
  vg: number;
  pmax: number;
  status: number;
}

export interface Branch {
  from: number;
  to: number;
  /** Series resistance and reactance, total line-charging susceptance (pu). */
  r: number;
  x: number;
  b: number;
  /** Off-nominal tap ratio (0: none, i.e. 1) and phase shift (degrees). */
  ratio: number;
  angle: number;
  status: number;
}

export interface PowerCase {
  name: string;
  baseMVA: number;
  buses: Bus[];
  generators: Generator[];
  branches: Branch[];
}

const bus = (id: number, type: BusType, pd: number, qd: number): Bus => ({
  id,
  type,
  pd,
  qd,
  gs: 0,
  bs: 0,
  vm: 1,
  va: 0,
});
const gen = (at: number, pg: number, pmax: number): Generator => ({ bus: at, pg, vg: 1, pmax, status: 1 });
const line = (from: number, to: number, r: number, x: number, b: number): Branch => ({
  from,
  to,
  r,
  x,
  b,
  ratio: 0,
  angle: 0,
  status: 1,
});

/** MATPOWER case5 (every bus at 230 kV, Vm 1, Va 0; every generator at Vg 1). */
export const CASE5: PowerCase = {
  name: "case5",
  baseMVA: 100,
  buses: [
    bus(1, PV, 0, 0),
    bus(2, PQ, 300, 98.61),
    bus(3, PV, 300, 98.61),
    bus(4, SLACK, 400, 131.47),
    bus(5, PV, 0, 0),
  ],
  generators: [gen(1, 40, 40), gen(1, 170, 170), gen(3, 323.49, 520), gen(4, 0, 200), gen(5, 466.51, 600)],
  branches: [
    line(1, 2, 0.00281, 0.0281, 0.00712),
    line(1, 4, 0.00304, 0.0304, 0.00658),
    line(1, 5, 0.00064, 0.0064, 0.03126),
    line(2, 3, 0.00108, 0.0108, 0.01852),
    line(3, 4, 0.00297, 0.0297, 0.00674),
    line(4, 5, 0.00297, 0.0297, 0.00674),
  ],
};
