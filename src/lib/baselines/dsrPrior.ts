/**
 * DSR's in-situ constraints (Petersen et al. 2021, §3 "Constraining the search space"), applied
 * while an expression is sampled token by token in prefix order: a token that would break one
 * gets probability 0 (its logit masked), so every sampled expression satisfies them all.
 *
 * - length: at most `maxLength` tokens once every open slot is filled with a leaf, and no leaf
 *   that would close the expression before `minLength` tokens;
 * - no constant-only subtree: a unary operator's child is never the constant, nor the second
 *   child of a binary operator whose first child is one (so the only constant subtrees are
 *   single constants beside a subtree with an input, and every expression has an input);
 * - no nested trigonometry: no periodic symbol anywhere below another;
 * - no child that its unary parent undoes (exp(log(·)), log(exp(·)), …; dsrLibrary.ts).
 *
 * The state also gives the policy its observation: the parent and the left sibling of the slot
 * being filled (the paper's RNN input).
 */
import type { TokenLibrary } from "./dsrLibrary.js";

export interface LengthLimits {
  minLength: number;
  maxLength: number;
}

/** An open slot of the tree: whose child it is, its left sibling, whether a periodic symbol is above it. */
interface Slot {
  parent: number;
  sibling: number;
  trig: boolean;
  /** The parent's second slot, when this is a binary operator's first child (it learns its sibling from this one). */
  second?: Slot;
}

/** No parent or no sibling, in an observation. */
export const NONE = -1;

/** A partial expression in prefix order and its open slots. */
export class PrefixState {
  readonly tokens: number[] = [];
  private readonly open: Slot[] = [{ parent: NONE, sibling: NONE, trig: false }];

  constructor(
    private readonly library: TokenLibrary,
    private readonly limits: LengthLimits,
  ) {}

  /** Every slot is filled: the expression is complete. */
  get done(): boolean {
    return this.open.length === 0;
  }

  /** The parent and left sibling of the next slot (NONE where there is none). */
  observation(): { parent: number; sibling: number } {
    const slot = this.open[this.open.length - 1]!;
    return { parent: slot.parent, sibling: slot.sibling };
  }

  /** Writes 1 for every token allowed in the next slot, 0 otherwise, into `mask`; returns how many are allowed. */
  allowed(mask: Uint8Array): number {
    const { arity, constant, periodic, inverse } = this.library;
    const slot = this.open[this.open.length - 1]!;
    const length = this.tokens.length;
    const dangling = this.open.length;
    const unaryParent = slot.parent !== NONE && arity[slot.parent] === 1;
    const undone = unaryParent ? inverse[slot.parent]! : [];
    let count = 0;
    for (let k = 0; k < arity.length; k++) {
      const a = arity[k]!;
      const ok =
        // The shortest completion: this token, then a leaf in every slot left open.
        length + 1 + (dangling - 1 + a) <= this.limits.maxLength &&
        !(a === 0 && dangling === 1 && length + 1 < this.limits.minLength) &&
        !(k === constant && (unaryParent || slot.sibling === constant)) &&
        !(periodic[k] === 1 && slot.trig) &&
        !undone.includes(k);
      mask[k] = ok ? 1 : 0;
      if (ok) count++;
    }
    return count;
  }

  /** Places `token` in the next slot. */
  push(token: number): void {
    const slot = this.open.pop()!;
    if (slot.second) slot.second.sibling = token;
    this.tokens.push(token);
    const trig = slot.trig || this.library.periodic[token] === 1;
    const a = this.library.arity[token]!;
    if (a === 2) {
      const second: Slot = { parent: token, sibling: NONE, trig };
      this.open.push(second, { parent: token, sibling: NONE, trig, second });
    } else if (a === 1) this.open.push({ parent: token, sibling: NONE, trig });
  }
}
