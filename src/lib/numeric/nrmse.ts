/** The least and the largest value (±∞ for no values; a NaN never counts). */
export function extent(values: ArrayLike<number>): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Population standard deviation. */
export function std(values: ArrayLike<number>): number {
  const n = values.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (values[i]! - mean) ** 2;
  return Math.sqrt(sum / n);
}

/** NRMSE = sqrt(mean((y − ŷ)²)) / std(y). NaN in ŷ gives NaN, never a quiet number. */
export function nrmse(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  if (yTrue.length !== yPred.length)
    throw new RangeError(`nrmse: ${yTrue.length} targets but ${yPred.length} predictions`);
  let sum = 0;
  for (let i = 0; i < yTrue.length; i++) sum += (yTrue[i]! - yPred[i]!) ** 2;
  return Math.sqrt(sum / yTrue.length) / std(yTrue);
}
