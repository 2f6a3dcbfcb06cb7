/**
 * The tfjs a plugin and a library user see in consolesr's public types: our own interfaces of the
 * tensor and of the ops a symbol's `apply` may use, not tfjs-core's declarations (which do not
 * type-check in a strict project with `skipLibCheck: false`: their @webgpu/types clash with
 * lib.dom). At run time it is tfjs-core itself (`tf.ts`), whose tensors and namespace have every
 * member named here. An op missing here is still there at run time; a plugin that needs tfjs's
 * full types imports them from `@tensorflow/tfjs-core` (the same package, the same engine).
 */

/** A tfjs tensor, as plugins and library users handle it. */
export interface Tensor {
  readonly shape: number[];
  readonly dtype: string;
  readonly size: number;
  readonly rank: number;
  /** Its values, synchronously (a typed array). */
  dataSync(): ArrayLike<number>;
  /** Its values as nested arrays. */
  arraySync(): unknown;
  /** Its values, when the backend has them. */
  data(): Promise<ArrayLike<number>>;
  dispose(): void;
}

/** A tensor, a number or (nested) arrays of them: what tfjs ops accept as an operand. */
export type Operand = Tensor | number | boolean | string | { readonly [index: number]: unknown };

/** tfjs's memory counters (`tf.memory()`). */
export interface TfMemory {
  numTensors: number;
  numBytes: number;
  numDataBuffers: number;
}

/**
 * The tfjs namespace a symbol's `apply(x, tf)` receives, and `tf` as consolesr exports it: the
 * elementwise ops a symbol needs (all differentiable where tfjs defines a gradient), the basic
 * arithmetic and reductions, tensor creation, and the engine's housekeeping.
 */
export interface Tf {
  // Elementwise functions.
  abs(x: Operand): Tensor;
  acos(x: Operand): Tensor;
  acosh(x: Operand): Tensor;
  asin(x: Operand): Tensor;
  asinh(x: Operand): Tensor;
  atan(x: Operand): Tensor;
  atanh(x: Operand): Tensor;
  ceil(x: Operand): Tensor;
  cos(x: Operand): Tensor;
  cosh(x: Operand): Tensor;
  elu(x: Operand): Tensor;
  erf(x: Operand): Tensor;
  exp(x: Operand): Tensor;
  expm1(x: Operand): Tensor;
  floor(x: Operand): Tensor;
  log(x: Operand): Tensor;
  log1p(x: Operand): Tensor;
  neg(x: Operand): Tensor;
  reciprocal(x: Operand): Tensor;
  relu(x: Operand): Tensor;
  round(x: Operand): Tensor;
  rsqrt(x: Operand): Tensor;
  selu(x: Operand): Tensor;
  sigmoid(x: Operand): Tensor;
  sign(x: Operand): Tensor;
  sin(x: Operand): Tensor;
  sinh(x: Operand): Tensor;
  softplus(x: Operand): Tensor;
  sqrt(x: Operand): Tensor;
  square(x: Operand): Tensor;
  step(x: Operand, alpha?: number): Tensor;
  tan(x: Operand): Tensor;
  tanh(x: Operand): Tensor;
  clipByValue(x: Operand, min: number, max: number): Tensor;
  // Arithmetic and comparisons (broadcasting).
  add(a: Operand, b: Operand): Tensor;
  sub(a: Operand, b: Operand): Tensor;
  mul(a: Operand, b: Operand): Tensor;
  div(a: Operand, b: Operand): Tensor;
  pow(base: Operand, exp: Operand): Tensor;
  maximum(a: Operand, b: Operand): Tensor;
  minimum(a: Operand, b: Operand): Tensor;
  squaredDifference(a: Operand, b: Operand): Tensor;
  atan2(a: Operand, b: Operand): Tensor;
  where(condition: Operand, a: Operand, b: Operand): Tensor;
  greater(a: Operand, b: Operand): Tensor;
  greaterEqual(a: Operand, b: Operand): Tensor;
  less(a: Operand, b: Operand): Tensor;
  lessEqual(a: Operand, b: Operand): Tensor;
  equal(a: Operand, b: Operand): Tensor;
  // Reductions and shapes.
  sum(x: Operand, axis?: number | number[], keepDims?: boolean): Tensor;
  mean(x: Operand, axis?: number | number[], keepDims?: boolean): Tensor;
  max(x: Operand, axis?: number | number[], keepDims?: boolean): Tensor;
  min(x: Operand, axis?: number | number[], keepDims?: boolean): Tensor;
  reshape(x: Operand, shape: number[]): Tensor;
  matMul(a: Operand, b: Operand, transposeA?: boolean, transposeB?: boolean): Tensor;
  // Creation.
  scalar(value: number, dtype?: "float32" | "int32"): Tensor;
  tensor(values: unknown, shape?: number[], dtype?: "float32" | "int32"): Tensor;
  tensor1d(values: unknown, dtype?: "float32" | "int32"): Tensor;
  tensor2d(values: unknown, shape?: [number, number], dtype?: "float32" | "int32"): Tensor;
  zeros(shape: number[], dtype?: "float32" | "int32"): Tensor;
  ones(shape: number[], dtype?: "float32" | "int32"): Tensor;
  zerosLike(x: Operand): Tensor;
  onesLike(x: Operand): Tensor;
  fill(shape: number[], value: number, dtype?: "float32" | "int32"): Tensor;
  // The engine. (Gradients, tidy and the optimizers are tfjs-core's own: import its types.)
  memory(): TfMemory;
  ready(): Promise<void>;
  getBackend(): string;
  setBackend(name: string): Promise<boolean>;
}
