/**
 * A fully input-convex neural network (FICNN, Amos, Xu & Kolter 2017) in plain float64
 * JavaScript. The nets the search needs are tiny (a few thousand weights), so tfjs' per-op
 * overhead would dominate; plain loops are faster, allocation-free per sample and bit-for-bit
 * deterministic for a given seed.
 *
 * Input u = [state (nS) ; action (nA)], n = nS + nA. With hidden sizes h_0 … h_{K−1}:
 *
 *   z_0     = relu(Wx_0·u + b_0)
 *   z_k     = relu(Wz_k·z_{k−1} + Wx_k·u + b_k)        k = 1 … K−1, Wz_k ≥ 0
 *   f(u)    = wz_K·z_{K−1} + wx_K·u + b_K               (linear output, wz_K ≥ 0)
 *
 * relu is convex and non-decreasing, and a non-negative combination of convex functions plus an
 * affine one is convex, so f is jointly convex in u, hence convex in the action for a fixed
 * state. The z-path weights are kept non-negative by projecting them onto ≥ 0 after every
 * optimiser step.
 *
 * Training: Adam on the mean squared error over shuffled minibatches drawn with the given Rng.
 * The Adam moments and step count persist across `train()` calls (the net is an online learner).
 *
 * Speed: inputs in the search are sparse (0/1 actions, small counts in the state), so all
 * layers' x-path weights are stored together input-major (row j = the weights of input j into
 * every unit of every layer): a forward pass adds one contiguous row per non-zero input, and the
 * backward pass updates the same rows. `layers()` returns the usual row-major matrices (a cached
 * copy).
 */
import type { Rng } from "../core/index.js";
import { pow } from "../core/index.js";

export interface IcnnShape {
  /** Length of the state part of the input (may be 0). */
  state: number;
  /** Length of the action part of the input (≥ 1). */
  action: number;
  /** Hidden layer sizes, e.g. [32, 32]. May be empty (then f is affine). */
  hidden: number[];
  /**
   * false: the same dense network without the convexity constraint (z-path weights drawn with
   * either sign and never projected), a plain non-convex MLP with input skip connections, for the
   * paper's "non-convex deep Q-learning" ablation. Default true.
   */
  convex?: boolean;
}

/**
 * One affine layer, row-major. `wz` is out × in (null for the first layer, which sees only u),
 * `wx` is out × n (n = state + action; columns 0 … state−1 multiply the state), `b` has `out`
 * entries. The last layer is the output (out = 1, linear, no relu). `in` is the size of the z
 * input (0 for the first layer).
 */
export interface IcnnLayer {
  readonly wz: Float64Array | null;
  readonly wx: Float64Array;
  readonly b: Float64Array;
  readonly out: number;
  readonly in: number;
}

export interface IcnnTrainOptions {
  /** Passes over the given data. */
  epochs: number;
  learningRate: number;
  batchSize: number;
  /** Shuffles the minibatches. */
  rng: Rng;
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPS = 1e-8;

function checkShape(shape: IcnnShape): void {
  const isCount = (v: number, min: number) => Number.isInteger(v) && v >= min;
  if (!isCount(shape.state, 0)) throw new RangeError(`ICNN state size must be an integer ≥ 0 (got ${shape.state})`);
  if (!isCount(shape.action, 1)) throw new RangeError(`ICNN action size must be an integer ≥ 1 (got ${shape.action})`);
  for (const h of shape.hidden) {
    if (!isCount(h, 1)) throw new RangeError(`ICNN hidden sizes must be integers ≥ 1 (got ${shape.hidden.join(", ")})`);
  }
}

/** Sparse inputs u = [s; a]: for sample i, the non-zero entries start[i] … start[i+1]−1. */
interface SparseInputs {
  start: Int32Array;
  index: Int32Array;
  value: Float64Array;
}

export class Icnn {
  readonly shape: IcnnShape;
  /** n = state + action. */
  private readonly n: number;
  /** Units per layer (hidden sizes, then 1 for the output) and their offsets in the x-path block. */
  private readonly outs: number[];
  private readonly offs: number[];
  /** Total units H = Σ outs. */
  private readonly H: number;
  /**
   * All parameters in one buffer: WX (n × H, input-major), B (H), then per layer k ≥ 1 the
   * row-major Wz_k (outs[k] × outs[k−1]). The z-path weights are the tail from `zStart`.
   */
  private readonly theta: Float64Array;
  private readonly grad: Float64Array;
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private step = 0;
  private readonly bOff: number;
  private readonly zStart: number;
  private readonly wzOff: number[];
  /** Bumped whenever theta changes; invalidates the layers() snapshot. */
  private version = 0;
  private snapshot: { version: number; layers: readonly IcnnLayer[] } | null = null;
  /**
   * Minibatch work buffers, unit-major (entry [i·cap + b] is unit i of sample b) so that the z-path
   * loops run over the batch: pre-activations, activations, ∂/∂pre, ∂/∂z. `xt` is sample-major
   * (b·H + i), for the per-sample x-path rows. Grown on demand.
   */
  private cap = 0;
  private pre = new Float64Array(0);
  private z = new Float64Array(0);
  private gPre = new Float64Array(0);
  private gZ = new Float64Array(0);
  private xt = new Float64Array(0);
  private readonly batch = new Int32Array(1);
  // Scratch sparse form of one dense input (value / gradAction).
  private readonly one: SparseInputs;

  constructor(shape: IcnnShape, rng: Rng) {
    checkShape(shape);
    this.shape = {
      state: shape.state,
      action: shape.action,
      hidden: [...shape.hidden],
      ...(shape.convex === false ? { convex: false } : {}),
    };
    const n = shape.state + shape.action;
    const outs = [...shape.hidden, 1];
    this.n = n;
    this.outs = outs;
    const offs: number[] = [];
    let H = 0;
    for (const o of outs) {
      offs.push(H);
      H += o;
    }
    this.offs = offs;
    this.H = H;
    this.bOff = n * H;
    this.zStart = this.bOff + H;
    let size = this.zStart;
    this.wzOff = outs.map((o, k) => {
      const at = size;
      if (k > 0) size += o * outs[k - 1]!;
      return at;
    });
    this.theta = new Float64Array(size);
    this.grad = new Float64Array(size);
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
    this.one = { start: new Int32Array(2), index: new Int32Array(n), value: new Float64Array(n) };

    // He-like init, layer by layer: Wx ~ N(0, 2/(n + in)), Wz ~ |N(0, 2/(n + in))| (non-negative),
    // biases 0.
    const th = this.theta;
    const convex = shape.convex !== false;
    for (let k = 0; k < outs.length; k++) {
      const zin = k > 0 ? outs[k - 1]! : 0;
      const std = Math.sqrt(2 / (n + zin));
      for (let i = 0; i < outs[k]!; i++) {
        for (let j = 0; j < n; j++) th[j * H + offs[k]! + i] = std * rng.normal();
        for (let j = 0; j < zin; j++) {
          const w = std * rng.normal();
          th[this.wzOff[k]! + i * zin + j] = convex ? Math.abs(w) : w;
        }
      }
    }
  }

  /**
   * Per layer (the hidden layers, then the output layer), row-major copies of the weights. The
   * copy is cached until the weights change; treat it as read-only.
   */
  layers(): readonly IcnnLayer[] {
    if (this.snapshot && this.snapshot.version === this.version) return this.snapshot.layers;
    const { n, H, outs, offs, theta } = this;
    const layers = outs.map((out, k) => {
      const zin = k > 0 ? outs[k - 1]! : 0;
      const wx = new Float64Array(out * n);
      for (let i = 0; i < out; i++) for (let j = 0; j < n; j++) wx[i * n + j] = theta[j * H + offs[k]! + i]!;
      const b = theta.slice(this.bOff + offs[k]!, this.bOff + offs[k]! + out);
      const wz = k > 0 ? theta.slice(this.wzOff[k]!, this.wzOff[k]! + out * zin) : null;
      return Object.freeze({ out, in: zin, wz, wx, b });
    });
    this.snapshot = { version: this.version, layers: Object.freeze(layers) };
    return this.snapshot.layers;
  }

  /** A copy of all parameters (internal order). Equal copies mean equal nets. */
  parameters(): Float64Array {
    return this.theta.slice();
  }

  /** Number of parameters. */
  get size(): number {
    return this.theta.length;
  }

  /** Smallest z-path weight (every Wz and the output's wz); +Infinity when there are none. */
  minZWeight(): number {
    let min = Infinity;
    for (let i = this.zStart; i < this.theta.length; i++) if (this.theta[i]! < min) min = this.theta[i]!;
    return min;
  }

  /** An exact copy: weights, Adam moments and step count. */
  clone(): Icnn {
    // The constructor lays out the buffers; its (all-zero) init is overwritten by copyFrom.
    const fresh = new Icnn(this.shape, zeroRng);
    fresh.copyFrom(this);
    return fresh;
  }

  /** Overwrites weights, Adam moments and step count with those of a net of the same shape. */
  copyFrom(other: Icnn): void {
    const a = this.shape,
      b = other.shape;
    if (
      a.state !== b.state ||
      a.action !== b.action ||
      a.hidden.length !== b.hidden.length ||
      a.hidden.some((h, i) => h !== b.hidden[i]) ||
      (a.convex !== false) !== (b.convex !== false)
    ) {
      throw new RangeError("copyFrom: the two ICNNs have different shapes");
    }
    this.theta.set(other.theta);
    this.m.set(other.m);
    this.v.set(other.v);
    this.step = other.step;
    this.version++;
  }

  /** f(state, action). */
  value(state: ArrayLike<number>, action: ArrayLike<number>): number {
    this.loadOne(state, action);
    return this.forwardBatch(this.one, this.batch, 1)[0]!;
  }

  values(states: ArrayLike<number>[], actions: ArrayLike<number>[]): Float64Array {
    if (states.length !== actions.length)
      throw new RangeError(`values: ${states.length} states but ${actions.length} actions`);
    const out = new Float64Array(states.length);
    for (let i = 0; i < states.length; i++) out[i] = this.value(states[i]!, actions[i]!);
    return out;
  }

  /**
   * ∂f/∂action at (state, action): a subgradient (relu'(0) is taken as 0). f is piecewise linear,
   * so this is the gradient wherever no hidden unit sits exactly at 0.
   */
  gradAction(state: ArrayLike<number>, action: ArrayLike<number>): Float64Array {
    this.loadOne(state, action);
    this.forwardBatch(this.one, this.batch, 1);
    this.backPre(1, [1]);
    const { H, n, theta, gPre, cap } = this;
    const nS = this.shape.state;
    const g = new Float64Array(n - nS);
    for (let j = nS; j < n; j++) {
      const row = j * H;
      let s = 0;
      for (let i = 0; i < H; i++) s += theta[row + i]! * gPre[i * cap]!;
      g[j - nS] = s;
    }
    return g;
  }

  /**
   * Adam on the mean squared error to `targets`, minibatches of `batchSize` (a shuffled pass
   * over the data per epoch), projecting the z-path weights onto ≥ 0 after every step. Returns
   * the final epoch's mean squared error (each minibatch measured before its step); with
   * epochs = 0, the current mean squared error.
   */
  train(
    states: ArrayLike<number>[],
    actions: ArrayLike<number>[],
    targets: ArrayLike<number>,
    opts: IcnnTrainOptions,
  ): number {
    const N = states.length;
    if (actions.length !== N || targets.length !== N) {
      throw new RangeError(`train: ${N} states, ${actions.length} actions, ${targets.length} targets`);
    }
    if (!Number.isInteger(opts.epochs) || opts.epochs < 0)
      throw new RangeError(`train: epochs must be an integer ≥ 0 (got ${opts.epochs})`);
    if (!Number.isInteger(opts.batchSize) || opts.batchSize < 1)
      throw new RangeError(`train: batchSize must be an integer ≥ 1 (got ${opts.batchSize})`);
    if (!(opts.learningRate > 0)) throw new RangeError(`train: learningRate must be > 0 (got ${opts.learningRate})`);
    if (N === 0) return NaN;
    for (let i = 0; i < N; i++) {
      if (!Number.isFinite(targets[i]!)) throw new RangeError(`train: target ${i} is not finite (${targets[i]})`);
    }
    const x = this.sparsify(states, actions);
    const order = new Int32Array(N);
    for (let i = 0; i < N; i++) order[i] = i;
    const B = Math.min(opts.batchSize, N);
    const gOut = new Float64Array(B);
    if (opts.epochs === 0) {
      let sum = 0;
      for (let s = 0; s < N; s += B) {
        const nb = Math.min(N, s + B) - s;
        const f = this.forwardBatch(x, order.subarray(s, s + nb), nb);
        for (let b = 0; b < nb; b++) sum += (f[b]! - targets[s + b]!) ** 2;
      }
      return sum / N;
    }
    let epochLoss = 0;
    for (let epoch = 0; epoch < opts.epochs; epoch++) {
      // Fisher–Yates shuffle with the given rng.
      for (let i = N - 1; i > 0; i--) {
        const j = opts.rng.int(i + 1);
        const t = order[i]!;
        order[i] = order[j]!;
        order[j] = t;
      }
      let sum = 0;
      for (let s = 0; s < N; s += B) {
        const nb = Math.min(N, s + B) - s;
        const samples = order.subarray(s, s + nb);
        const f = this.forwardBatch(x, samples, nb);
        const scale = 2 / nb;
        for (let b = 0; b < nb; b++) {
          const r = f[b]! - targets[samples[b]!]!;
          sum += r * r;
          gOut[b] = scale * r;
        }
        this.grad.fill(0);
        this.backwardBatch(x, samples, nb, gOut);
        this.adamStep(opts.learningRate);
      }
      epochLoss = sum / N;
    }
    return epochLoss;
  }

  // ---------------------------------------------------------------------------------------

  private adamStep(lr: number): void {
    this.step++;
    this.version++;
    const th = this.theta,
      g = this.grad,
      m = this.m,
      v = this.v;
    const c1 = 1 - pow(BETA1, this.step);
    const sqrtC2 = Math.sqrt(1 - pow(BETA2, this.step));
    const stepSize = lr / c1;
    for (let i = 0; i < th.length; i++) {
      const gi = g[i]!;
      const mi = BETA1 * m[i]! + (1 - BETA1) * gi;
      const vi = BETA2 * v[i]! + (1 - BETA2) * gi * gi;
      m[i] = mi;
      v[i] = vi;
      // θ −= lr·m̂/(√v̂ + ε), with m̂ = m/c1 and v̂ = v/c2.
      th[i]! -= (stepSize * mi) / (Math.sqrt(vi) / sqrtC2 + EPS);
    }
    // Projection of the z-path weights onto ≥ 0 keeps f convex.
    if (this.shape.convex !== false) for (let i = this.zStart; i < th.length; i++) if (th[i]! < 0) th[i] = 0;
  }

  private checkInput(state: ArrayLike<number>, action: ArrayLike<number>, which = ""): void {
    if (state.length !== this.shape.state)
      throw new RangeError(`ICNN state${which} has length ${state.length}, expected ${this.shape.state}`);
    if (action.length !== this.shape.action)
      throw new RangeError(`ICNN action${which} has length ${action.length}, expected ${this.shape.action}`);
  }

  /** Writes the non-zero entries of u = [s; a] at index[p…]; returns the new p. */
  private pack(
    state: ArrayLike<number>,
    action: ArrayLike<number>,
    index: Int32Array,
    value: Float64Array,
    p: number,
    which: string,
  ): number {
    const nS = this.shape.state;
    for (let j = 0; j < state.length; j++) {
      const u = +state[j]!;
      if (u !== 0) {
        if (!Number.isFinite(u)) throw new RangeError(`ICNN state${which} has a non-finite entry (${u})`);
        index[p] = j;
        value[p++] = u;
      }
    }
    for (let j = 0; j < action.length; j++) {
      const u = +action[j]!;
      if (u !== 0) {
        if (!Number.isFinite(u)) throw new RangeError(`ICNN action${which} has a non-finite entry (${u})`);
        index[p] = nS + j;
        value[p++] = u;
      }
    }
    return p;
  }

  private loadOne(state: ArrayLike<number>, action: ArrayLike<number>): void {
    this.checkInput(state, action);
    this.one.start[1] = this.pack(state, action, this.one.index, this.one.value, 0, "");
  }

  private sparsify(states: ArrayLike<number>[], actions: ArrayLike<number>[]): SparseInputs {
    const N = states.length;
    let nnz = 0;
    for (let i = 0; i < N; i++) {
      const s = states[i]!,
        a = actions[i]!;
      this.checkInput(s, a, ` ${i}`);
      for (let j = 0; j < s.length; j++) if (s[j] !== 0) nnz++;
      for (let j = 0; j < a.length; j++) if (a[j] !== 0) nnz++;
    }
    const start = new Int32Array(N + 1),
      index = new Int32Array(nnz),
      value = new Float64Array(nnz);
    let p = 0;
    for (let i = 0; i < N; i++) {
      start[i] = p;
      p = this.pack(states[i]!, actions[i]!, index, value, p, ` ${i}`);
    }
    start[N] = p;
    return { start, index, value };
  }

  private ensureCapacity(nb: number): void {
    if (nb <= this.cap) return;
    const H = this.H;
    this.cap = nb;
    this.pre = new Float64Array(H * nb);
    this.z = new Float64Array(H * nb);
    this.gPre = new Float64Array(H * nb);
    this.gZ = new Float64Array(H * nb);
    this.xt = new Float64Array(H * nb);
  }

  // The loops below are written for V8: each inner loop runs over a contiguous range and folds
  // four weights (or four inputs) into one pass, which roughly triples throughput over a plain
  // axpy (fewer loads and stores of the accumulated row). The arithmetic order is fixed, so the
  // results are deterministic.

  /**
   * Forward pass of samples[0 … nb−1] of x; fills pre and z and returns f per sample (a view of
   * pre, valid until the next pass).
   */
  private forwardBatch(x: SparseInputs, samples: Int32Array, nb: number): Float64Array {
    this.ensureCapacity(nb);
    const { H, theta, pre, z, xt, outs, offs, bOff, cap } = this;
    // x-path of every layer at once, per sample: xt[b, :] = B + Σ_q u_q · WX[idx_q, :].
    const idx = x.index,
      val = x.value;
    for (let b = 0; b < nb; b++) {
      const sample = samples[b]!,
        t = b * H;
      for (let i = 0; i < H; i++) xt[t + i] = theta[bOff + i]!;
      let q = x.start[sample]!;
      const e = x.start[sample + 1]!;
      for (; q + 3 < e; q += 4) {
        const r0 = idx[q]! * H,
          r1 = idx[q + 1]! * H,
          r2 = idx[q + 2]! * H,
          r3 = idx[q + 3]! * H;
        const u0 = val[q]!,
          u1 = val[q + 1]!,
          u2 = val[q + 2]!,
          u3 = val[q + 3]!;
        for (let i = 0; i < H; i++)
          xt[t + i]! += theta[r0 + i]! * u0 + theta[r1 + i]! * u1 + theta[r2 + i]! * u2 + theta[r3 + i]! * u3;
      }
      for (; q < e; q++) {
        const r0 = idx[q]! * H,
          u0 = val[q]!;
        for (let i = 0; i < H; i++) xt[t + i]! += theta[r0 + i]! * u0;
      }
    }
    for (let i = 0; i < H; i++) for (let b = 0, r = i * cap; b < nb; b++) pre[r + b] = xt[b * H + i]!;
    const K = outs.length - 1;
    for (let k = 0; k <= K; k++) {
      const o = offs[k]!,
        out = outs[k]!;
      if (k > 0) {
        // z-path: pre_k[i, :] += Σ_j Wz_k[i, j] · z_{k−1}[j, :].
        const zin = outs[k - 1]!,
          zo = offs[k - 1]!;
        let w = this.wzOff[k]!;
        for (let i = 0; i < out; i++, w += zin) {
          const r = (o + i) * cap;
          let j = 0;
          for (; j + 3 < zin; j += 4) {
            const w0 = theta[w + j]!,
              w1 = theta[w + j + 1]!,
              w2 = theta[w + j + 2]!,
              w3 = theta[w + j + 3]!;
            if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0) continue;
            const c0 = (zo + j) * cap,
              c1 = c0 + cap,
              c2 = c1 + cap,
              c3 = c2 + cap;
            for (let b = 0; b < nb; b++)
              pre[r + b]! += w0 * z[c0 + b]! + w1 * z[c1 + b]! + w2 * z[c2 + b]! + w3 * z[c3 + b]!;
          }
          for (; j < zin; j++) {
            const w0 = theta[w + j]!,
              c0 = (zo + j) * cap;
            if (w0 !== 0) for (let b = 0; b < nb; b++) pre[r + b]! += w0 * z[c0 + b]!;
          }
        }
      }
      if (k < K) {
        for (let i = o * cap, e = (o + out) * cap; i < e; i++) z[i] = Math.max(pre[i]!, 0);
      }
    }
    return pre.subarray(offs[K]! * cap, offs[K]! * cap + nb);
  }

  /**
   * After forwardBatch(): gPre = ∂(Σ_b gOut_b·f_b)/∂pre for every unit and sample (zero for
   * inactive hidden units). With `grad`, also accumulates ∂/∂Wz into it.
   */
  private backPre(nb: number, gOut: ArrayLike<number>, grad?: Float64Array): void {
    const { theta, pre, z, gPre, gZ, outs, offs, cap } = this;
    const K = outs.length - 1;
    for (let b = 0, r = offs[K]! * cap; b < nb; b++) gPre[r + b] = gOut[b]!;
    for (let k = K; k > 0; k--) {
      const o = offs[k]!,
        out = outs[k]!,
        zin = outs[k - 1]!,
        zo = offs[k - 1]!;
      const w = this.wzOff[k]!;
      if (grad) {
        // ∂/∂Wz_k[i, j] = Σ_b gPre_k[i, b] · z_{k−1}[j, b], four j at a time.
        for (let i = 0; i < out; i++) {
          const r = (o + i) * cap,
            wi = w + i * zin;
          let j = 0;
          for (; j + 3 < zin; j += 4) {
            const c0 = (zo + j) * cap,
              c1 = c0 + cap,
              c2 = c1 + cap,
              c3 = c2 + cap;
            let a0 = 0,
              a1 = 0,
              a2 = 0,
              a3 = 0;
            for (let b = 0; b < nb; b++) {
              const g = gPre[r + b]!;
              a0 += g * z[c0 + b]!;
              a1 += g * z[c1 + b]!;
              a2 += g * z[c2 + b]!;
              a3 += g * z[c3 + b]!;
            }
            grad[wi + j]! += a0;
            grad[wi + j + 1]! += a1;
            grad[wi + j + 2]! += a2;
            grad[wi + j + 3]! += a3;
          }
          for (; j < zin; j++) {
            const c0 = (zo + j) * cap;
            let a0 = 0;
            for (let b = 0; b < nb; b++) a0 += gPre[r + b]! * z[c0 + b]!;
            grad[wi + j]! += a0;
          }
        }
      }
      // gZ_{k−1}[j, :] = Σ_i Wz_k[i, j] · gPre_k[i, :], four i at a time; then through the relu.
      for (let j = 0; j < zin; j++) {
        const c = (zo + j) * cap;
        for (let b = 0; b < nb; b++) gZ[c + b] = 0;
        let i = 0;
        for (; i + 3 < out; i += 4) {
          const w0 = theta[w + i * zin + j]!,
            w1 = theta[w + (i + 1) * zin + j]!,
            w2 = theta[w + (i + 2) * zin + j]!,
            w3 = theta[w + (i + 3) * zin + j]!;
          if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0) continue;
          const r0 = (o + i) * cap,
            r1 = r0 + cap,
            r2 = r1 + cap,
            r3 = r2 + cap;
          for (let b = 0; b < nb; b++)
            gZ[c + b]! += w0 * gPre[r0 + b]! + w1 * gPre[r1 + b]! + w2 * gPre[r2 + b]! + w3 * gPre[r3 + b]!;
        }
        for (; i < out; i++) {
          const w0 = theta[w + i * zin + j]!,
            r0 = (o + i) * cap;
          if (w0 !== 0) for (let b = 0; b < nb; b++) gZ[c + b]! += w0 * gPre[r0 + b]!;
        }
        for (let b = 0; b < nb; b++) gPre[c + b] = pre[c + b]! > 0 ? gZ[c + b]! : 0;
      }
    }
  }

  /** Accumulates into grad the gradient of Σ_b gOut_b·f_b (right after forwardBatch on the same samples). */
  private backwardBatch(x: SparseInputs, samples: Int32Array, nb: number, gOut: Float64Array): void {
    const { H, grad, gPre, xt, bOff, cap } = this;
    this.backPre(nb, gOut, grad);
    // Biases, then the x-path rows of each sample's non-zero inputs (gPre transposed into xt).
    for (let i = 0; i < H; i++) {
      const r = i * cap;
      let s = 0;
      for (let b = 0; b < nb; b++) {
        const g = gPre[r + b]!;
        s += g;
        xt[b * H + i] = g;
      }
      grad[bOff + i]! += s;
    }
    const idx = x.index,
      val = x.value;
    for (let b = 0; b < nb; b++) {
      const sample = samples[b]!,
        t = b * H;
      for (let q = x.start[sample]!, e = x.start[sample + 1]!; q < e; q++) {
        const row = idx[q]! * H,
          u = val[q]!;
        let i = 0;
        for (; i + 3 < H; i += 4) {
          grad[row + i]! += xt[t + i]! * u;
          grad[row + i + 1]! += xt[t + i + 1]! * u;
          grad[row + i + 2]! += xt[t + i + 2]! * u;
          grad[row + i + 3]! += xt[t + i + 3]! * u;
        }
        for (; i < H; i++) grad[row + i]! += xt[t + i]! * u;
      }
    }
  }
}

/** An Rng that only returns zeros: used by clone(), whose weights are overwritten anyway. */
const zeroRng: Rng = {
  next: () => 0,
  uniform: (lo) => lo,
  int: () => 0,
  normal: () => 0,
  fork: () => zeroRng,
};
