// L2-regularised logistic regression on sparse vectors, trained full-batch with L-BFGS and a
// backtracking (Armijo) line search. Hand-written because no kept npm library fits: the
// installed tree has none, and ml-logistic-regression (the registry's candidate) works on dense
// ml-matrix rows (2^16 columns × ~1,500 rows = 100M doubles) with no L2 term. Deterministic: no
// randomness, a fixed order of examples and of summation, so the same input gives the same bits.
import type { SparseVector } from "./features";

export type Example = { x: SparseVector; y: 0 | 1; weight: number };
export type Trained = { weights: Float64Array; intercept: number; iterations: number; loss: number };
export type TrainOptions = { dims: number; lambda: number; maxIterations?: number; memory?: number; tolerance?: number };

/** Weighted mean log-loss + λ/2·|w|² (the intercept is not penalised), and its gradient into `grad`. */
function objective(params: Float64Array, examples: readonly Example[], lambda: number, totalWeight: number, grad: Float64Array): number {
  const dims = params.length - 1;
  grad.fill(0);
  let loss = 0;
  for (const { x, y, weight } of examples) {
    let z = params[dims]!;
    for (let i = 0; i < x.index.length; i++) z += params[x.index[i]!]! * x.value[i]!;
    // log(1 + e^z) - y·z, computed without overflow
    const softplus = z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
    loss += weight * (softplus - y * z);
    const g = (weight * (1 / (1 + Math.exp(-z)) - y)) / totalWeight;
    for (let i = 0; i < x.index.length; i++) grad[x.index[i]!]! += g * x.value[i]!;
    grad[dims]! += g;
  }
  loss /= totalWeight;
  let reg = 0;
  for (let j = 0; j < dims; j++) {
    reg += params[j]! * params[j]!;
    grad[j]! += lambda * params[j]!;
  }
  return loss + (lambda / 2) * reg;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export function trainLogistic(examples: readonly Example[], options: TrainOptions): Trained {
  const { dims, lambda } = options;
  const maxIterations = options.maxIterations ?? 400;
  const m = options.memory ?? 10;
  const tolerance = options.tolerance ?? 1e-7;
  const n = dims + 1;
  const totalWeight = examples.reduce((s, e) => s + e.weight, 0);
  let x = new Float64Array(n);
  let g = new Float64Array(n);
  let f = objective(x, examples, lambda, totalWeight, g);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  const dir = new Float64Array(n);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    if (Math.sqrt(dot(g, g)) < tolerance) break;
    // Two-loop recursion: dir = -H·g
    dir.set(g);
    const alpha: number[] = [];
    for (let k = S.length - 1; k >= 0; k--) {
      const a = rho[k]! * dot(S[k]!, dir);
      alpha[k] = a;
      const y = Y[k]!;
      for (let i = 0; i < n; i++) dir[i]! -= a * y[i]!;
    }
    const last = S.length - 1;
    const gamma = last >= 0 ? dot(S[last]!, Y[last]!) / dot(Y[last]!, Y[last]!) : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let i = 0; i < n; i++) dir[i]! *= gamma;
    for (let k = 0; k < S.length; k++) {
      const b = rho[k]! * dot(Y[k]!, dir);
      const s = S[k]!;
      for (let i = 0; i < n; i++) dir[i]! += s[i]! * (alpha[k]! - b);
    }
    for (let i = 0; i < n; i++) dir[i] = -dir[i]!;
    let slope = dot(g, dir);
    if (slope >= 0) {
      // Not a descent direction (curvature lost): restart from steepest descent.
      S.length = Y.length = rho.length = 0;
      for (let i = 0; i < n; i++) dir[i] = -g[i]!;
      slope = dot(g, dir);
    }
    let step = 1;
    const xNew = new Float64Array(n);
    const gNew = new Float64Array(n);
    let fNew: number;
    for (let tries = 0; ; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * dir[i]!;
      fNew = objective(xNew, examples, lambda, totalWeight, gNew);
      if (fNew <= f + 1e-4 * step * slope || tries >= 30) break;
      step *= 0.5;
    }
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i]! - x[i]!;
      y[i] = gNew[i]! - g[i]!;
    }
    const sy = dot(s, y);
    if (sy > 1e-12) {
      S.push(s);
      Y.push(y);
      rho.push(1 / sy);
      if (S.length > m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
    }
    const improvement = f - fNew;
    x = xNew;
    g = gNew;
    f = fNew;
    if (improvement >= 0 && improvement < 1e-10 * Math.max(1, Math.abs(f))) break;
  }
  return { weights: x.subarray(0, dims), intercept: x[dims]!, iterations, loss: f };
}

/** A fitted linear model as scoring reads it (training gives Float64Array weights, the model file Float32Array). */
export type LinearModel = { weights: Float64Array | Float32Array; intercept: number };

export function predict(model: LinearModel, v: SparseVector): number {
  let z = model.intercept;
  for (let i = 0; i < v.index.length; i++) z += model.weights[v.index[i]!]! * v.value[i]!;
  return 1 / (1 + Math.exp(-z));
}
