/**
 * fitLocal's tfjs engine: the LoCaL forward pass as one tfjs program, and Adam on it. Loading this
 * module registers the engine with fit.ts (setTfjsEngine); the float64 engine needs none of it.
 */
import { publicTf } from "../engine/index.js";
import { tf, type Tensor } from "../engine/tf.js";
import type { CompiledLocal } from "./compiled.js";
import { runSteps, type Steps } from "../core/index.js";
import { BETA1, BETA2, EPSILON, setTfjsEngine, type AdamSettings, type FitData } from "./fit.js";

/**
 * The LoCaL forward pass as one tfjs program over the active neurons, products and terms.
 * It uses only same-shape elementwise ops and matMul, whose gradients are cheap on every
 * backend: gather, slice, concat and prod have slow backward kernels on cpu (5–10× measured),
 * and broadcasting binary ops take a slow generic path there. Neurons are grouped by symbol:
 *   u_s = x_s ⊙ (1·(θ_inner·R_s + b_s))     inner weights spread over the group's columns, 1 where none
 *   a_s = f_s(u_s)
 *   p   = Π_f (Σ_s a_s·S_{f,s} + pad_f)      S_{f,s} picks the f-th factor of every product
 *   ŷ   = p·(G·(c ⊙ E))                      G: term → product, E: term → output
 */
export function buildTfjsForward(compiled: CompiledLocal, x: readonly ArrayLike<number>[]) {
  const rows = x[0]!.length;
  const nP = compiled.products.length;
  const nT = compiled.terms.length;
  const nI = Math.max(1, compiled.inner.length);
  const outputs = compiled.structure.outputs.length;
  // At least one factor slot: a structure of the constant alone is a product of pads (1).
  const depth = Math.max(1, ...compiled.products.map((p) => p.length));
  const groups = [...new Set(compiled.neurons.map((n) => n.symbol))].map((symbol) => {
    const members = compiled.neurons.flatMap((n, k) => (n.symbol === symbol ? [k] : []));
    const m = members.length;
    const xs = new Float32Array(rows * m);
    members.forEach((k, col) => {
      const column = x[compiled.neurons[k]!.input]!;
      for (let i = 0; i < rows; i++) xs[i * m + col] = column[i]!;
    });
    const spread = new Float32Array(nI * m);
    const base = new Float32Array(m).fill(1);
    members.forEach((k, col) => {
      const q = compiled.inner.indexOf(k);
      if (q >= 0) {
        spread[q * m + col] = 1;
        base[col] = 0;
      }
    });
    const select = Array.from({ length: depth }, (_, f) => {
      const sel = new Float32Array(m * nP);
      compiled.products.forEach((factors, j) => {
        const col = members.indexOf(factors[f] ?? -1);
        if (col >= 0) sel[col * nP + j] = 1;
      });
      return tf.tensor2d(sel, [m, nP]);
    });
    return {
      symbol,
      x: tf.tensor2d(xs, [rows, m]),
      spread: tf.tensor2d(spread, [nI, m]),
      base: tf.tensor2d(base, [1, m]),
      select,
    };
  });
  const pads = Array.from({ length: depth }, (_, f) => {
    const pad = new Float32Array(rows * nP);
    compiled.products.forEach((factors, j) => {
      if (f >= factors.length) for (let i = 0; i < rows; i++) pad[i * nP + j] = 1;
    });
    return tf.tensor2d(pad, [rows, nP]);
  });
  const termProduct = new Float32Array(nP * nT);
  const termOutput = new Float32Array(nT * outputs);
  compiled.terms.forEach((t, q) => {
    termProduct[t.product * nT + q] = 1;
    termOutput[q * outputs + t.output] = 1;
  });
  const rowOnes = tf.ones([rows, 1]);
  const G = tf.tensor2d(termProduct, [nP, nT]);
  const E = tf.tensor2d(termOutput, [nT, outputs]);
  const forward = (inner: Tensor | null, coefficients: Tensor): Tensor => {
    const row = inner ? tf.reshape(inner, [1, -1]) : null;
    const activations = groups.map((g) => {
      const u = row ? tf.mul(g.x, tf.matMul(rowOnes, tf.add(tf.matMul(row, g.spread), g.base))) : g.x;
      return g.symbol.apply(u, publicTf) as Tensor;
    });
    let products: Tensor | null = null;
    for (let f = 0; f < depth; f++) {
      let factor: Tensor = pads[f]!;
      groups.forEach((g, s) => {
        factor = tf.add(factor, tf.matMul(activations[s]!, g.select[f]!));
      });
      products = products ? tf.mul(products, factor) : factor;
    }
    return tf.matMul(products!, tf.matMul(G, tf.mul(tf.reshape(coefficients, [-1, 1]), E)));
  };
  const dispose = () => {
    for (const g of groups) for (const t of [g.x, g.spread, g.base, ...g.select]) t.dispose();
    for (const t of [...pads, rowOnes, G, E]) t.dispose();
  };
  return { forward, dispose };
}

export function adamTfjs(
  compiled: CompiledLocal,
  data: FitData,
  scale: readonly number[],
  start: Float64Array,
  settings: AdamSettings,
): { theta: Float64Array; curve: number[] } {
  return runSteps(adamTfjsSteps(compiled, data, scale, start, settings));
}

/**
 * adamTfjs in steps: it yields before each Adam step, so that a driven fit (clock.ts driveSteps;
 * a --form fit of a large CSV) lets a signal through; the same arithmetic. Its tensors are freed
 * when it ends, throws or is returned from.
 */
export function* adamTfjsSteps(
  compiled: CompiledLocal,
  data: FitData,
  scale: readonly number[],
  start: Float64Array,
  settings: AdamSettings,
): Steps<{ theta: Float64Array; curve: number[] }> {
  const rows = data.y[0]!.length;
  const outputs = data.y.length;
  const nI = compiled.inner.length;
  const net = buildTfjsForward(compiled, data.x);
  const yFlat = new Float32Array(rows * outputs);
  data.y.forEach((column, o) => {
    for (let i = 0; i < rows; i++) yFlat[i * outputs + o] = column[i]!;
  });
  const y = tf.tensor2d(yFlat, [rows, outputs]);
  const weight = tf.tensor1d(scale.map((s) => (s * s) / (rows * outputs)));
  const inner = nI > 0 ? tf.tidy(() => tf.variable(tf.tensor1d(Float32Array.from(start.subarray(0, nI))))) : null;
  const coefficients = tf.tidy(() => tf.variable(tf.tensor1d(Float32Array.from(start.subarray(nI)))));
  const optimizer = tf.train.adam(settings.learningRate, BETA1, BETA2, EPSILON);
  const variables = inner ? [inner, coefficients] : [coefficients];
  const curve: number[] = [];
  const snapshot = () => Float64Array.from([...(inner?.dataSync() ?? []), ...coefficients.dataSync()]);
  let last = start;
  try {
    for (let t = 1; t <= settings.steps; t++) {
      yield;
      if (settings.signal?.aborted) break;
      // Every 10 steps, remember the weights this step's loss is computed at; they become the
      // fallback once that loss proves finite (a later step may leave a symbol's domain).
      const before = t % 10 === 1 ? snapshot() : null;
      const cost = optimizer.minimize(
        () => tf.sum(tf.mul(tf.square(tf.sub(y, net.forward(inner, coefficients))), weight)) as tf.Scalar,
        true,
        variables,
      );
      const value = cost!.dataSync()[0]!;
      cost!.dispose();
      if (!Number.isFinite(value)) break;
      if (before) last = before;
      curve.push(value);
      if (value < settings.tolerance || t === settings.steps) {
        const after = snapshot();
        if (after.every(Number.isFinite)) last = after;
        break;
      }
    }
    return { theta: last, curve };
  } finally {
    optimizer.dispose();
    inner?.dispose();
    coefficients.dispose();
    y.dispose();
    weight.dispose();
    net.dispose();
  }
}

setTfjsEngine({ adam: adamTfjs, adamSteps: adamTfjsSteps, backend: () => tf.getBackend() });
