/** A float64 column that grows as values arrive (its capacity doubles), trimmed to its length at the end. */
export class GrowingColumn {
  private data = new Float64Array(1024);
  length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    let capacity = this.data.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const bigger = new Float64Array(capacity);
    bigger.set(this.data.subarray(0, this.length));
    this.data = bigger;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  append(values: ArrayLike<number>): void {
    this.reserve(values.length);
    this.data.set(values, this.length);
    this.length += values.length;
  }

  /** The values so far, in a buffer of their own length. */
  done(): Float64Array {
    return this.data.slice(0, this.length);
  }
}
