/**
 * enumerate: every structure once, smallest first (products of 1…maxFactors allowed neurons,
 * then sums of 1…terms of them), independent of the seed; "exhausted" when none is left.
 */
import type { ProposalStrategy, SearchRun } from "../strategy.js";
import type { Trajectory } from "../trajectory.js";

function* enumeration(run: SearchRun): Generator<Trajectory> {
  const { space, settings, trajectories } = run;
  const allowed = space.allowed.flatMap((ok, i) => (ok ? [i] : []));
  const products: number[][] = [];
  const grow = (start: number, current: number[], size: number) => {
    if (current.length === size) return void products.push([...current]);
    for (let i = start; i < allowed.length; i++) grow(i + 1, [...current, allowed[i]!], size);
  };
  for (let size = 1; size <= settings.maxFactors; size++) grow(0, [], size);
  const combos = function* (start: number, chosen: number[], count: number): Generator<number[]> {
    if (chosen.length === count) return yield [...chosen];
    for (let j = start; j < products.length; j++) yield* combos(j + 1, [...chosen, j], count);
  };
  for (let count = 1; count <= settings.terms; count++) {
    for (const chosen of combos(0, [], count)) {
      const trajectory = trajectories.fromProducts(chosen.map((j) => products[j]!));
      if (trajectory) yield trajectory;
    }
  }
}

export function enumerateStrategy(run: SearchRun): ProposalStrategy {
  const order = enumeration(run);
  return {
    propose: () => {
      const next = order.next();
      return next.done ? undefined : next.value;
    },
  };
}
