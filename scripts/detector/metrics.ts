// Case-level recall and false-positive rate of the rules, the scorer alone and the fusion, from
// per-item probabilities, at the two gates: `judge` in evaluate.ts (high or critical) and the
// CLI's `--fail-on medium`.
import { SEVERITY_RANK } from "@/lib/detection";
import { fusedRank, type CaseData } from "./dataset";

export type Thresholds = { medium: number; high: number };
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

export const levelOf = (p: number, t: Thresholds) => (p >= t.high ? 2 : p >= t.medium ? 1 : 0);

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
 * The thresholds chosen on the given cases: the fusion's FPR at the high gate at most `maxFprHigh`
 * and at the medium gate at most the rules' own plus `extraFprMedium`; among those, the most
 * malicious cases caught at both gates; ties go to the higher (more cautious) thresholds.
 */
/**
 * The threshold pair that adds the most caught cases within the limits: at the high gate an absolute
 * false-positive rate (`maxFprHigh`) or, with `extraFprHigh`, at most that much over the rules (the
 * rules alone may already be above an absolute limit on a corpus rich in false-positive traps); at
 * medium at most `extraFprMedium` over the rules.
 */
export function chooseThresholds(cases: readonly CaseData[], probs: ReadonlyArray<readonly number[]>, limits: { maxFprHigh?: number; extraFprHigh?: number; extraFprMedium: number } = { maxFprHigh: 0.02, extraFprMedium: 0.01 }): Thresholds {
  let best: { t: Thresholds; gain: number } | null = null;
  for (const high of THRESHOLD_GRID) {
    for (const medium of THRESHOLD_GRID) {
      if (medium > high) continue;
      const t = { medium, high };
      const tab = table(cases, probs, t);
      if (limits.maxFprHigh !== undefined && fpr(tab.fusion.high) > limits.maxFprHigh) continue;
      if (limits.extraFprHigh !== undefined && fpr(tab.fusion.high) > fpr(tab.rules.high) + limits.extraFprHigh) continue;
      if (fpr(tab.fusion.medium) > fpr(tab.rules.medium) + limits.extraFprMedium) continue;
      const gain = tab.fusion.high.tp + tab.fusion.medium.tp;
      if (!best || gain > best.gain || (gain === best.gain && high + medium > best.t.high + best.t.medium)) best = { t, gain };
    }
  }
  // No pair keeps the limits: never fire.
  return best?.t ?? { medium: 1.01, high: 1.01 };
}
