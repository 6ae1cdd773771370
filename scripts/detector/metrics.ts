// Case-level recall and false-positive rate of the rules, the scorer alone and the fusion, from
// per-item probabilities, at the two gates: `judge` in evaluate.ts (high or critical) and the
// CLI's `--fail-on medium`.
import { SEVERITY_RANK } from "@/lib/detection";
import { fusedRank, type CaseData } from "./dataset";

export type Thresholds = { medium: number; high: number; veto: number };
export type Rates = { tp: number; pos: number; fp: number; neg: number };
export type Gates = { high: Rates; medium: Rates };
export type Table = { rules: Gates; scorer: Gates; fusion: Gates };

const empty = (): Rates => ({ tp: 0, pos: 0, fp: 0, neg: 0 });
const emptyGates = (): Gates => ({ high: empty(), medium: empty() });
const tally = (r: Rates, label: 0 | 1, flagged: boolean) => {
  if (label) {
    r.pos++;
    if (flagged) r.tp++;
  } else {
    r.neg++;
    if (flagged) r.fp++;
  }
};

/** R35's level for an item: 2 high, 1 medium, 0 none, -1 vetoed (dataset.ts fusedRank). */
export const levelOf = (p: number, t: Thresholds) => (p >= t.high ? 2 : p >= t.medium ? 1 : p < t.veto ? -1 : 0);

/** probs[i][j]: the probability of item j of case i. */
export function table(cases: readonly CaseData[], probs: ReadonlyArray<readonly number[]>, t: Thresholds): Table {
  const out: Table = { rules: emptyGates(), scorer: emptyGates(), fusion: emptyGates() };
  cases.forEach((c, i) => {
    const p = probs[i]!;
    const rules = fusedRank(c, []);
    const fused = fusedRank(c, p.map((x) => levelOf(x, t)));
    const top = p.length ? Math.max(...p) : 0;
    tally(out.rules.high, c.label, rules >= SEVERITY_RANK.high);
    tally(out.rules.medium, c.label, rules >= SEVERITY_RANK.medium);
    tally(out.scorer.high, c.label, top >= t.high);
    tally(out.scorer.medium, c.label, top >= t.medium);
    tally(out.fusion.high, c.label, fused >= SEVERITY_RANK.high);
    tally(out.fusion.medium, c.label, fused >= SEVERITY_RANK.medium);
  });
  return out;
}

export const recall = (r: Rates) => (r.pos ? r.tp / r.pos : NaN);
export const fpr = (r: Rates) => (r.neg ? r.fp / r.neg : NaN);
const f3 = (x: number) => (Number.isNaN(x) ? "  -  " : x.toFixed(3));
export const show = (r: Rates) => `${f3(recall(r))} (${r.tp}/${r.pos}) / ${f3(fpr(r))} (${r.fp}/${r.neg})`;

export const THRESHOLD_GRID = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99];
/**
 * The limits the product's thresholds are chosen under: no more false positives than the rules alone
 * at either gate. Before the veto existed the model could only add catches and false positives, and
 * +0.01 was allowed; with the veto it removes some of the rules' false positives first.
 */
export const LIMITS = { extraFprHigh: 0, extraFprMedium: 0 };

/**
 * Veto thresholds tried (0: no veto), up to the highest medium threshold worth trying. Until 2026-12-07
 * the grid stopped at 0.7, chosen when the thresholds themselves were 0.7: with more training data the
 * medium threshold rose to 0.75 and the band between the veto and it (an item neither flagged by R35
 * nor discounted) could not be closed. Out of fold on 19,923 cases that band held 81 caught attacks
 * and 68 false positives; closing it (veto 0.75) raised recall − 2.5 · FPR summed over both gates from
 * 1.5776 to 1.5865.
 */
export const VETO_GRID = [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];

/**
 * What a point of false-positive rate costs in points of recall when the thresholds are chosen. The
 * issue's target (recall ≥ 0.95 with FPR ≤ 0.02) allows 0.05 of misses and 0.02 of false positives,
 * so one point of FPR weighs (1 − 0.95) / 0.02 = 2.5 points of recall. Before 2026-12-06 (afternoon)
 * the thresholds maximised catches alone under the rules' own FPR, which put --fail-on medium at
 * 0.926 / 0.084 out of fold; this weight puts it nearer the target's balance (docs/rules/R35.md).
 */
export const FP_WEIGHT = (1 - 0.95) / 0.02;

/**
 * The thresholds that maximise, summed over the high and the medium gate, recall − FP_WEIGHT · FPR,
 * while the fusion's false-positive rate stays at most `extraFprHigh` / `extraFprMedium` over the
 * rules' own at each gate. The veto (learned/score.ts vetoFindings) is chosen with them. Ties go to
 * the more cautious choice (higher thresholds, lower veto).
 */
export function chooseThresholds(cases: readonly CaseData[], probs: ReadonlyArray<readonly number[]>, limits: { extraFprHigh: number; extraFprMedium: number }, vetoes: readonly number[] = VETO_GRID, fpWeight = FP_WEIGHT): Thresholds {
  let best: { t: Thresholds; gain: number } | null = null;
  const rules = table(cases, probs, { medium: 2, high: 2, veto: 0 }).rules;
  const worth = (r: Rates) => recall(r) - fpWeight * fpr(r);
  for (const veto of vetoes) {
    for (const high of THRESHOLD_GRID) {
      for (const medium of THRESHOLD_GRID) {
        if (medium > high || veto > medium) continue;
        const t = { medium, high, veto };
        const tab = table(cases, probs, t);
        if (fpr(tab.fusion.high) > fpr(rules.high) + limits.extraFprHigh) continue;
        if (fpr(tab.fusion.medium) > fpr(rules.medium) + limits.extraFprMedium) continue;
        // Rounded so that sums equal in exact arithmetic tie instead of differing in the last bit.
        const gain = Math.round((worth(tab.fusion.high) + worth(tab.fusion.medium)) * 1e9);
        if (!best || gain > best.gain || (gain === best.gain && high + medium - veto > best.t.high + best.t.medium - best.t.veto)) best = { t, gain };
      }
    }
  }
  // No choice keeps the limits: never fire, never veto.
  return best?.t ?? { medium: 1.01, high: 1.01, veto: 0 };
}
