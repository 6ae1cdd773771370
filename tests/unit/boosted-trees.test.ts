import { describe, expect, it } from "vitest";
import { boostedLogit, boostedProbability, treeValue, type Tree } from "@/lib/detection/learned/trees";
import { fitBoosted } from "@/scripts/detector/boost";

// R35's stack (lib/detection/learned/trees.ts, scripts/detector/boost.ts): gradient-boosted trees.
// The expectations are worked by hand or are facts of the data (an XOR no sum of the two inputs can
// separate), never read back from the fitter.
describe("boosted trees: the predictor", () => {
  // x0 <= 0.5 ? (x1 <= 2 ? -1 : 0.5) : 2
  const tree: Tree = { feature: [0, 1, -1, -1, -1], threshold: [0.5, 2, 0, 0, 0], left: [1, 2, -1, -1, -1], right: [4, 3, -1, -1, -1], value: [0, 0, -1, 0.5, 2] };

  it("walks left when the value is at or below the threshold, right above it", () => {
    expect(treeValue(tree, [0.5, 2])).toBe(-1);
    expect(treeValue(tree, [0.5, 2.01])).toBe(0.5);
    expect(treeValue(tree, [0.51, -100])).toBe(2);
  });

  it("adds the trees' values to the base and takes the logistic of the sum", () => {
    const model = { base: -0.25, trees: [tree, tree] };
    expect(boostedLogit(model, [1, 0])).toBe(3.75);
    expect(boostedProbability(model, [0, 0])).toBeCloseTo(1 / (1 + Math.exp(2.25)), 12);
  });
});

describe("boosted trees: the fitter", () => {
  // XOR of two binary inputs: no linear stack can separate it. The corners hold 30, 20, 25 and 25
  // rows (45 positives of 100): with equal corners no first split would gain anything, as in any
  // greedy tree learner.
  const rows: number[][] = [];
  const y: number[] = [];
  for (const [a, b, n] of [[0, 0, 30], [0, 1, 20], [1, 0, 25], [1, 1, 25]] as const) for (let k = 0; k < n; k++) {
    rows.push([a, b, k % 5]);
    y.push(a ^ b);
  }
  const weight = rows.map(() => 1);

  it("learns an interaction: XOR corners on the right side of 0.5, the noise column unused", () => {
    const m = fitBoosted(rows, y, weight, { trees: 30, depth: 2, rate: 0.3, minChildWeight: 1 });
    expect(boostedProbability(m, [0, 0, 2])).toBeLessThan(0.1);
    expect(boostedProbability(m, [1, 1, 2])).toBeLessThan(0.1);
    expect(boostedProbability(m, [0, 1, 2])).toBeGreaterThan(0.9);
    expect(boostedProbability(m, [1, 0, 2])).toBeGreaterThan(0.9);
    // Cuts are midpoints between the values seen.
    for (const t of m.trees) t.feature.forEach((f, i) => f >= 0 && f < 2 && expect(t.threshold[i]).toBe(0.5));
  });

  it("starts from the prior's log-odds and stops at the depth asked for", () => {
    const m = fitBoosted(rows, y, weight, { trees: 3, depth: 1, rate: 0.1, minChildWeight: 1 });
    expect(m.base).toBeCloseTo(Math.log(45 / 55), 12);
    for (const t of m.trees) expect(t.feature.length).toBeLessThanOrEqual(3);
  });

  it("gives the same model for the same input (no randomness)", () => {
    const a = fitBoosted(rows, y, weight, { trees: 10 });
    const b = fitBoosted(rows, y, weight, { trees: 10 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("weights rows: a class weighted 3 to 1 moves the prior to 0.75", () => {
    const m = fitBoosted([[0], [0]], [1, 0], [3, 1], { trees: 0 });
    expect(m.base).toBeCloseTo(Math.log(3), 12);
  });
});
