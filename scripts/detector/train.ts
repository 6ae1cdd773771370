// Per-item training examples from per-case labels, and the two-round training of the scorer.
//
// A malicious case may hold clean tools beside the poisoned one, so its label cannot simply be
// copied to every item. Items of benign cases are all negatives. In a malicious case:
//   - a single item is the positive;
//   - otherwise the items the rules rate highest (aggregated medium or above) are the positives;
//   - otherwise (the rules see nothing there) a first model, trained on the examples above, picks
//     the item it scores highest (one multiple-instance step).
// The other items of a malicious case are left out, not used as negatives: they may be the
// accomplices of a cross-tool attack, and the corpus does not say.
import { FEATURE_BITS } from "@/lib/detection/learned/features";
import { SEVERITY_RANK } from "@/lib/detection";
import { predict, trainLogistic, type Example, type Trained } from "@/lib/detection/learned/logistic";
import { vectorOf, type CaseData, type Variant } from "./dataset";

export type { Variant };
export type TrainSettings = { lambda: number; variant: Variant };

const vec = (variant: Variant) => (i: CaseData["items"][number]) => vectorOf(i, variant);

/** Positives resolved without a model: [case index, item index]. Cases left unresolved are returned apart. */
function resolvePositives(cases: readonly CaseData[]): { positives: Array<[number, number]>; open: number[] } {
  const positives: Array<[number, number]> = [];
  const open: number[] = [];
  cases.forEach((c, ci) => {
    if (c.label === 0 || !c.items.length) return;
    if (c.items.length === 1) return void positives.push([ci, 0]);
    const top = Math.max(...c.items.map((i) => i.ruleRank));
    if (top >= SEVERITY_RANK.medium) c.items.forEach((it, ii) => it.ruleRank === top && positives.push([ci, ii]));
    else open.push(ci);
  });
  return { positives, open };
}

function examplesOf(cases: readonly CaseData[], positives: ReadonlyArray<[number, number]>, variant: Variant): Example[] {
  const v = vec(variant);
  const neg: Example[] = [];
  for (const c of cases) if (c.label === 0) for (const it of c.items) neg.push({ x: v(it), y: 0, weight: 1 });
  const pos: Example[] = positives.map(([ci, ii]) => ({ x: v(cases[ci]!.items[ii]!), y: 1, weight: 1 }));
  // Balance the classes: each side carries half of the total weight.
  const total = neg.length + pos.length;
  for (const e of neg) e.weight = total / (2 * neg.length);
  for (const e of pos) e.weight = total / (2 * pos.length);
  return [...neg, ...pos];
}

export function trainScorer(cases: readonly CaseData[], settings: TrainSettings): Trained & { examples: { positives: number; negatives: number } } {
  const { positives, open } = resolvePositives(cases);
  const dims = 1 << FEATURE_BITS;
  const first = trainLogistic(examplesOf(cases, positives, settings.variant), { dims, lambda: settings.lambda });
  const v = vec(settings.variant);
  const chosen: Array<[number, number]> = open.map((ci) => {
    const scores = cases[ci]!.items.map((it) => predict(first, v(it)));
    return [ci, scores.indexOf(Math.max(...scores))];
  });
  const all = [...positives, ...chosen];
  const examples = examplesOf(cases, all, settings.variant);
  const model = open.length ? trainLogistic(examples, { dims, lambda: settings.lambda }) : first;
  return { ...model, examples: { positives: all.length, negatives: examples.length - all.length } };
}
