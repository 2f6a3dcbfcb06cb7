/** Values per block of a GrowingColumn, at most (512 KiB of float64). */
const BLOCK = 1 << 16;
/**
 * Values of a GrowingColumn's first block: blocks double from it to BLOCK (a header of 50,000
 * columns reserves 25 MB, not 25 GB).
 */
const FIRST = 64;

/**
 * A float64 column that grows as values arrive, in blocks that double from 64 values to 65,536:
 * while it grows its memory is its values and one partly filled block (nothing is copied to grow);
 * `done` joins the blocks into one array of exactly its length, letting each block go once copied.
 */
export class GrowingColumn {
  private blocks: Float64Array[] = [];
  private current = new Float64Array(FIRST);
  private used = 0;
  length = 0;

  push(value: number): void {
    if (this.used === this.current.length) this.next();
    this.current[this.used++] = value;
    this.length++;
  }

  append(values: ArrayLike<number>): void {
    const all = ArrayBuffer.isView(values) ? (values as Float64Array) : Float64Array.from(values);
    for (let from = 0; from < all.length; ) {
      if (this.used === this.current.length) this.next();
      const take = Math.min(this.current.length - this.used, all.length - from);
      this.current.set(all.subarray(from, from + take), this.used);
      this.used += take;
      from += take;
    }
    this.length += all.length;
  }

  private next(): void {
    this.blocks.push(this.current);
    this.current = new Float64Array(Math.min(this.current.length * 2, BLOCK));
    this.used = 0;
  }

  /** The values, in one array of their own length; the column is empty afterwards. */
  done(): Float64Array {
    const out = new Float64Array(this.length);
    let at = 0;
    for (let k = 0; k < this.blocks.length; k++) {
      out.set(this.blocks[k]!, at);
      at += this.blocks[k]!.length;
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
