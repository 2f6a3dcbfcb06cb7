/**
 * The answer's negligible parts dropped: DSR fits a constant for every placeholder, so a
 * sampled expression often holds an addend that its constants drove to almost nothing
 * ((exp(x1)·2.9e-7)² inside a sum, an added 6e-17), or a subtree that is constant on the data
 * (exp(exp(sin(x1)⁸·1e-10)) is e). Two edits, tried one at a time in prefix order of the subtree
 * they touch: an addend (an operand of + or −) removed, and a subtree of two or more tokens
 * replaced by one constant, its mean on the training rows. An edit is kept when it changes the
 * expression's values on the training rows by at most 1e-4 of their RMS, until none is left:
 * the tree-level counterpart of simplifyEquation dropping negligible terms and folding factors
 * constant on the data (same tolerance), so that the answer expands and is compared like the
 * other methods'. The remaining constants are then refitted from their values (kept where the
 * refit is not better). Every edit shortens the tree or removes a + or −, so the loop ends.
 */
import { CompiledExpression, fitExpression } from "./dsrExpression.js";
import type { TokenLibrary } from "./dsrLibrary.js";

/** A subtree's negligible size relative to the whole (simplifyEquation's default). */
const TOLERANCE = 1e-4;

export interface PrunedExpression {
  tokens: number[];
  constants: Float64Array;
  nrmse: number;
}

/** Where each prefix position's subtree ends (exclusive). */
function subtreeEnds(library: TokenLibrary, tokens: readonly number[]): number[] {
  const ends = new Array<number>(tokens.length);
  const walk = (at: number): number => {
    let next = at + 1;
    for (let k = 0; k < library.arity[tokens[at]!]!; k++) next = walk(next);
    ends[at] = next;
    return next;
  };
  walk(0);
  return ends;
}

/** Constants of prefix positions [from, to). */
const constantsBefore = (library: TokenLibrary, tokens: readonly number[], position: number) =>
  tokens.slice(0, position).filter((k) => k === library.constant).length;

/** The candidate edits: the new tokens and constants, in prefix order of the subtree they touch. */
function* edits(
  library: TokenLibrary,
  tokens: readonly number[],
  constants: Float64Array,
  meanOf: (tokens: readonly number[], constants: readonly number[]) => number,
): Generator<{ tokens: number[]; constants: Float64Array }> {
  const ends = subtreeEnds(library, tokens);
  const names = tokens.map((k) => library.tokens[k]!.name);
  const slice = (from: number, to: number) => ({
    tokens: tokens.slice(from, to),
    constants: Array.from(
      constants.slice(constantsBefore(library, tokens, from), constantsBefore(library, tokens, to)),
    ),
  });
  /** The expression with prefix positions [from, to) replaced by `middle`. */
  const splice = (from: number, to: number, middle: { tokens: number[]; constants: number[] }) => ({
    tokens: [...tokens.slice(0, from), ...middle.tokens, ...tokens.slice(to)],
    constants: Float64Array.from([
      ...constants.slice(0, constantsBefore(library, tokens, from)),
      ...middle.constants,
      ...constants.slice(constantsBefore(library, tokens, to)),
    ]),
  });
  for (let parent = 0; parent < tokens.length; parent++) {
    const end = ends[parent]!;
    if (end - parent >= 2) {
      const subtree = slice(parent, end);
      const mean = meanOf(subtree.tokens, subtree.constants);
      if (Number.isFinite(mean)) yield splice(parent, end, { tokens: [library.constant], constants: [mean] });
    }
    if (names[parent] !== "+" && names[parent] !== "-") continue;
    const left = parent + 1;
    const right = ends[left]!;
    // Without the left addend: a + b → b, a − b → −1·b.
    const b = slice(right, end);
    yield splice(
      parent,
      end,
      names[parent] === "+"
        ? b
        : {
            tokens: [library.tokens.findIndex((t) => t.name === "*"), library.constant, ...b.tokens],
            constants: [-1, ...b.constants],
          },
    );
    // Without the right addend: a ± b → a.
    yield splice(parent, end, slice(left, right));
  }
}

const rms = (values: Float64Array) => Math.sqrt(values.reduce((s, v) => s + v * v, 0) / Math.max(1, values.length));

/** Drops the negligible addends of the expression on `columns` and refits what is left to `y`. */
export function pruneExpression(
  library: TokenLibrary,
  tokens: readonly number[],
  constants: Float64Array,
  columns: readonly Float64Array[],
  y: ArrayLike<number>,
  rows: number,
  spread: number,
): PrunedExpression {
  const values = (t: readonly number[], c: ArrayLike<number>) =>
    Float64Array.from(new CompiledExpression(library, t, columns, rows).run(c, false).value);
  let current: { tokens: number[]; constants: Float64Array } = {
    tokens: [...tokens],
    constants: Float64Array.from(constants),
  };
  let pruned = false;
  for (let changed = true; changed; ) {
    changed = false;
    const before = values(current.tokens, current.constants);
    const scale = rms(before);
    const meanOf = (t: readonly number[], c: readonly number[]) => values(t, c).reduce((sum, v) => sum + v, 0) / rows;
    for (const candidate of edits(library, current.tokens, current.constants, meanOf)) {
      const after = values(candidate.tokens, candidate.constants);
      if (!after.every(Number.isFinite)) continue;
      const change = rms(after.map((v, i) => v - before[i]!));
      if (change <= TOLERANCE * scale) {
        current = candidate;
        changed = pruned = true;
        break;
      }
    }
  }
  const original = fitExpression(library, current.tokens, columns, y, rows, spread, current.constants, 0);
  if (!pruned) return { ...current, nrmse: original.nrmse };
  const refit = fitExpression(library, current.tokens, columns, y, rows, spread, current.constants);
  return refit.nrmse < original.nrmse ? { tokens: current.tokens, ...refit } : { ...current, nrmse: original.nrmse };
}
