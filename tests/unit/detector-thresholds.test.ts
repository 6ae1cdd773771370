// How `npm run train-detector` picks R35's thresholds (scripts/detector/metrics.ts chooseThresholds),
// on eight hand-built one-item cases whose best choices are worked out by hand below.
import { describe, expect, it } from "vitest";
import { chooseThresholds, FP_WEIGHT, LIMITS, table, recall, fpr, VETO_GRID } from "@/scripts/detector/metrics";
import type { CaseData } from "@/scripts/detector/dataset";

// One item per case. The entity's severity rank (low 1, medium 2, high 3; -1 none) with no R35
// finding, with R35 at medium, at high, and with the item vetoed.
const oneItem = (id: string, label: 0 | 1, ranks: [number, number, number, number]): CaseData => ({
  id,
  file: "hand-built.json",
  label,
  items: [{ key: "t", x: {}, ruleRank: ranks[0], sentences: [], named: [] }],
  entities: new Map([["t", ranks]]),
});
// Attacks no rule sees; honest tools on which the rules fire at medium (a veto lowers them to low).
const attack = (id: string) => oneItem(id, 1, [-1, 2, 3, -1]);
const honest = (id: string) => oneItem(id, 0, [2, 2, 3, 1]);
const cases = [attack("a1"), attack("a2"), attack("a3"), attack("a4"), honest("b1"), honest("b2"), honest("b3"), honest("b4")];
// R35's probabilities: three clear attacks, one attack and one honest tool that look alike (0.42).
const probs = [[0.9], [0.9], [0.9], [0.42], [0.42], [0.01], [0.01], [0.01]];

describe("choosing R35's thresholds", () => {
  it("weighs a point of false-positive rate as 2.5 points of recall: the issue's target allows 0.05 of misses and 0.02 of false positives", () => {
    expect(FP_WEIGHT).toBeCloseTo(2.5, 12);
  });

  // The rules alone: high gate 0 of 4 attacks and 0 of 4 honest tools, so R35 may not flag the
  // 0.42 honest tool at high: high ≥ 0.45, which catches 3 of 4 there whatever else is chosen.
  // At medium the rules flag all 4 honest tools (FPR 1.0, a loose limit). Two ways to go:
  //   A: medium ≤ 0.42 catches all 4 attacks, and the 0.42 honest tool is flagged: 1.0 / 0.25;
  //   B: veto above 0.42 silences that honest tool and the 0.42 attack with it: 0.75 / 0.
  it("with false positives weighed, takes B: medium 0.9, high 0.9, veto 0.45 (the most cautious B)", () => {
    const t = chooseThresholds(cases, probs, LIMITS);
    expect(t).toEqual({ medium: 0.9, high: 0.9, veto: 0.45 });
    const tab = table(cases, probs, t);
    expect([recall(tab.fusion.medium), fpr(tab.fusion.medium)]).toEqual([0.75, 0]);
    expect([recall(tab.fusion.high), fpr(tab.fusion.high)]).toEqual([0.75, 0]);
  });

  it("counting catches only (the rule before 2026-12-06's afternoon), takes A: medium 0.4, high 0.9, no veto", () => {
    const t = chooseThresholds(cases, probs, LIMITS, undefined, 0);
    expect(t).toEqual({ medium: 0.4, high: 0.9, veto: 0 });
    const tab = table(cases, probs, t);
    expect(recall(tab.fusion.medium)).toBe(1);
    expect(fpr(tab.fusion.medium)).toBe(1); // no veto: the rules' own false positives stay
  });

  // The veto may reach as high as the thresholds themselves. Three attacks no rule sees, rated 0.9;
  // one honest tool rated 0.72 and two rated 0.01, on all of which a rule fires at medium. At high
  // the rules flag nothing, so high must stay above 0.72 (0.75 or more). At medium the 0.72 tool is
  // silenced only by a veto above 0.72, and a veto may not exceed medium: veto 0.75 with medium and
  // high 0.9 catches all three attacks and flags nothing (1.0 / 0 at both gates); of the ties it is
  // the most cautious (highest thresholds, lowest veto). With the veto grid of before 2026-12-07
  // (stopping at 0.7) the 0.72 tool keeps its rule's medium finding: 1.0 / 0.333 at medium.
  it("closes the band between the veto and the medium threshold when that pays: veto 0.75, not stopped at 0.7", () => {
    const band = [attack("a1"), attack("a2"), attack("a3"), honest("b1"), honest("b2"), honest("b3")];
    const p = [[0.9], [0.9], [0.9], [0.72], [0.01], [0.01]];
    const t = chooseThresholds(band, p, LIMITS);
    expect(t).toEqual({ medium: 0.9, high: 0.9, veto: 0.75 });
    const tab = table(band, p, t);
    expect([recall(tab.fusion.medium), fpr(tab.fusion.medium), recall(tab.fusion.high), fpr(tab.fusion.high)]).toEqual([1, 0, 1, 0]);
    const before = table(band, p, chooseThresholds(band, p, LIMITS, VETO_GRID.filter((v) => v <= 0.7)));
    expect([recall(before.fusion.medium), fpr(before.fusion.medium)]).toEqual([1, 1 / 3]);
  });

  it("never exceeds the rules' false-positive rate: with no room at either gate and the attack inseparable, R35 flags nothing a rule did not", () => {
    const tight = [attack("a1"), oneItem("b1", 0, [-1, 2, 3, -1])];
    const t = chooseThresholds(tight, [[0.5], [0.5]], LIMITS);
    const tab = table(tight, [[0.5], [0.5]], t);
    expect(fpr(tab.fusion.medium)).toBe(0);
    expect(fpr(tab.fusion.high)).toBe(0);
    expect(recall(tab.fusion.medium)).toBe(0);
  });
});
