// Gradient-boosted regression trees over a short dense vector: the predictor (the fitter is
// scripts/detector/boost.ts). R35 uses them as its stack (stack.ts): what the two linear views
// say, with the structural signals and the rules' verdicts beside them, made one probability.
// Why trees there: the linear views add evidence up; whether a 0.7 from the item view means an
// attack depends on things a sum cannot weigh (a rule at high on the same item, a URL at an outside
// host, text in another script), and a tree splits on those.

/** One tree in flat arrays: node i splits on feature[i] at threshold[i] (x <= t goes left), or is a leaf (feature[i] = -1) holding value[i]. */
export type Tree = { feature: number[]; threshold: number[]; left: number[]; right: number[]; value: number[] };

/** A boosted model: the log-odds are base + the sum of the trees' leaf values. */
export type Boosted = { base: number; trees: Tree[] };

export function treeValue(tree: Tree, x: ArrayLike<number>): number {
  let i = 0;
  while (tree.feature[i]! >= 0) i = x[tree.feature[i]!]! <= tree.threshold[i]! ? tree.left[i]! : tree.right[i]!;
  return tree.value[i]!;
}

/** The model's log-odds for `x`. */
export function boostedLogit(model: Boosted, x: ArrayLike<number>): number {
  let z = model.base;
  for (const t of model.trees) z += treeValue(t, x);
  return z;
}

export const boostedProbability = (model: Boosted, x: ArrayLike<number>) => 1 / (1 + Math.exp(-boostedLogit(model, x)));
