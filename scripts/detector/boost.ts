// The fitter of lib/detection/learned/trees.ts: gradient boosting of regression trees for the
// logistic loss (second-order leaf values, as XGBoost and LightGBM do), over features bucketed into
// at most MAX_BINS quantile bins. Hand-written because no kept npm library does this on Node
// without a native or WASM build (the registry's xgboost and lightgbm ports are unmaintained); the
// algorithm is short. Deterministic: no sampling, features and bins scanned in a fixed order, ties
// to the lower feature and bin.
import type { Boosted, Tree } from "@/lib/detection/learned/trees";
import { boostedLogit } from "@/lib/detection/learned/trees";

export type BoostOptions = {
  trees: number;
  depth: number;
  /** Shrinkage: each tree's values are multiplied by it. */
  rate: number;
  /** L2 on leaf values (XGBoost's λ). */
  lambda: number;
  /** The least hessian weight a leaf may hold. */
  minChildWeight: number;
};
export const BOOST_DEFAULTS: BoostOptions = { trees: 200, depth: 4, rate: 0.1, lambda: 1, minChildWeight: 5 };

const MAX_BINS = 64;

/** Cut points of one feature: midpoints between distinct values, or between quantiles when there are many. */
function cutsOf(values: Float64Array): number[] {
  const sorted = Float64Array.from(values).sort();
  const distinct: number[] = [];
  for (const v of sorted) if (!distinct.length || v !== distinct[distinct.length - 1]) distinct.push(v);
  if (distinct.length <= 1) return [];
  const picks = distinct.length <= MAX_BINS ? distinct : Array.from({ length: MAX_BINS }, (_, k) => sorted[Math.floor(((k + 0.5) * sorted.length) / MAX_BINS)]!).filter((v, i, a) => i === 0 || v !== a[i - 1]);
  const cuts: number[] = [];
  for (let i = 1; i < picks.length; i++) cuts.push((picks[i - 1]! + picks[i]!) / 2);
  return cuts;
}

/** Rows (dense, equal length), labels 0/1 and weights → a boosted model. */
export function fitBoosted(rows: ReadonlyArray<ArrayLike<number>>, y: ArrayLike<number>, weight: ArrayLike<number>, options: Partial<BoostOptions> = {}): Boosted {
  const o = { ...BOOST_DEFAULTS, ...options };
  const n = rows.length;
  const d = n ? rows[0]!.length : 0;
  const cuts: number[][] = [];
  const bins: Uint8Array[] = [];
  for (let f = 0; f < d; f++) {
    const col = Float64Array.from(rows, (r) => r[f]!);
    const c = cutsOf(col);
    cuts.push(c);
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (col[i]! > c[mid]!) lo = mid + 1;
        else hi = mid;
      }
      b[i] = lo;
    }
    bins.push(b);
  }
  let pos = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += weight[i]!;
    if (y[i]) pos += weight[i]!;
  }
  const prior = Math.min(Math.max(pos / total, 1e-6), 1 - 1e-6);
  const model: Boosted = { base: Math.log(prior / (1 - prior)), trees: [] };
  const z = new Float64Array(n).fill(model.base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const gh = new Float64Array(2 * (MAX_BINS + 1));
  for (let t = 0; t < o.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-z[i]!));
      g[i] = weight[i]! * (p - y[i]!);
      h[i] = Math.max(weight[i]! * p * (1 - p), 1e-12);
    }
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const grow = (rowsAt: Int32Array, depth: number): number => {
      const node = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      let G = 0;
      let H = 0;
      for (const i of rowsAt) {
        G += g[i]!;
        H += h[i]!;
      }
      tree.value.push((-G / (H + o.lambda)) * o.rate);
      if (depth >= o.depth || H < 2 * o.minChildWeight) return node;
      const parent = (G * G) / (H + o.lambda);
      let best = { gain: 1e-9, f: -1, bin: -1 };
      for (let f = 0; f < d; f++) {
        const c = cuts[f]!;
        if (!c.length) continue;
        gh.fill(0);
        const b = bins[f]!;
        for (const i of rowsAt) {
          gh[2 * b[i]!]! += g[i]!;
          gh[2 * b[i]! + 1]! += h[i]!;
        }
        let GL = 0;
        let HL = 0;
        for (let k = 0; k < c.length; k++) {
          GL += gh[2 * k]!;
          HL += gh[2 * k + 1]!;
          const HR = H - HL;
          if (HL < o.minChildWeight || HR < o.minChildWeight) continue;
          const GR = G - GL;
          const gain = (GL * GL) / (HL + o.lambda) + (GR * GR) / (HR + o.lambda) - parent;
          if (gain > best.gain) best = { gain, f, bin: k };
        }
      }
      if (best.f < 0) return node;
      const b = bins[best.f]!;
      const left = rowsAt.filter((i) => b[i]! <= best.bin);
      const right = rowsAt.filter((i) => b[i]! > best.bin);
      tree.feature[node] = best.f;
      tree.threshold[node] = cuts[best.f]![best.bin]!;
      tree.left[node] = grow(left, depth + 1);
      tree.right[node] = grow(right, depth + 1);
      return node;
    };
    grow(Int32Array.from({ length: n }, (_, i) => i), 0);
    model.trees.push(tree);
    for (let i = 0; i < n; i++) z[i] = boostedLogit({ base: 0, trees: [tree] }, rows[i]!) + z[i]!;
  }
  return model;
}
