/** Values per block of a GrowingColumn (512 KiB of float64). */
const BLOCK = 1 << 16;

/**
 * A float64 column that grows as values arrive, in blocks of 65,536 values: while it grows its
 * memory is its values and one partly filled block (nothing is copied to grow); `done` joins the
 * blocks into one array of exactly its length, letting each block go once copied.
 */
export class GrowingColumn {
  private blocks: Float64Array[] = [];
  private current = new Float64Array(BLOCK);
  private used = 0;
  length = 0;

  push(value: number): void {
    if (this.used === BLOCK) this.next();
    this.current[this.used++] = value;
    this.length++;
  }

  append(values: ArrayLike<number>): void {
    const all = ArrayBuffer.isView(values) ? (values as Float64Array) : Float64Array.from(values);
    for (let from = 0; from < all.length; ) {
      if (this.used === BLOCK) this.next();
      const take = Math.min(BLOCK - this.used, all.length - from);
      this.current.set(all.subarray(from, from + take), this.used);
      this.used += take;
      from += take;
    }
    this.length += all.length;
  }

  private next(): void {
    this.blocks.push(this.current);
    this.current = new Float64Array(BLOCK);
    this.used = 0;
  }

  /** The values, in one array of their own length; the column is empty afterwards. */
  done(): Float64Array {
    const out = new Float64Array(this.length);
    let at = 0;
    for (let k = 0; k < this.blocks.length; k++) {
      out.set(this.blocks[k]!, at);
      at += BLOCK;
      this.blocks[k] = undefined as unknown as Float64Array;
    }
    out.set(this.current.subarray(0, this.used), at);
    this.blocks = [];
    this.current = new Float64Array(0);
    this.used = 0;
    this.length = 0;
    return out;
  }
}
