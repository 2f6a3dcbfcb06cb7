/** A numeric dataset split into named input and target columns (column-major, float64). */
export interface Dataset {
  inputs: string[];
  targets: string[];
  /** Input columns, in the order of `inputs`. */
  x: Float64Array[];
  /** Target columns, in the order of `targets`. */
  y: Float64Array[];
  rows: number;
}

/** Looks a column up by name among inputs and targets. */
export function columnOf(data: Dataset, name: string): Float64Array {
  const i = data.inputs.indexOf(name);
  if (i >= 0) return data.x[i]!;
  const t = data.targets.indexOf(name);
  if (t >= 0) return data.y[t]!;
  throw new RangeError(`no column "${name}"`);
}

/** The dataset restricted to some targets (in the given order). */
export function selectTargets(data: Dataset, targets: readonly string[]): Dataset {
  return { ...data, targets: [...targets], y: targets.map((t) => data.y[data.targets.indexOf(t)]!) };
}
