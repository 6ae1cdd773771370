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
//
// The sentence view (lib/detection/learned/sentences.ts) is trained on the same positives, each a bag
// of sentences (trainSentences); the two views are stacked on out-of-fold scores (fitStack).
//
// Each fit is NB-weighted (Wang & Manning 2012, "NBSVM"): every feature is first scaled by
// |log-count ratio| between the positive and negative examples, so the L2 penalty falls lightly on
// features that separate the classes and heavily on the rest; the learned weights are multiplied
// back, so the model stays one dot product over the same features (score.ts does not change).
// Measured on 5 grouped folds of the 8,395 tuning cases on 2026-12-06 (λ 3e-6): ROC AUC 0.9743 →
// 0.9745, recall at 5 % FPR 0.879 → 0.891, fusion at --fail-on medium 0.870 / 0.047 → 0.877 / 0.044.
import { FEATURE_BITS } from "@/lib/detection/learned/features";
import { SEVERITY_RANK } from "@/lib/detection";
import { predict, trainLogistic, type Example, type Trained } from "@/lib/detection/learned/logistic";
import { stackedProbability, stackRow, type Stack } from "@/lib/detection/learned/stack";
import { fitBoosted } from "./boost";
import { mostSuspicious } from "@/lib/detection/learned/sentences";
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
  return balance([...neg, ...pos]);
}

/**
 * |log((p_j/|p|)/(q_j/|q|))| with add-one smoothing: how strongly feature j leans to one class.
 * `weighted`: each example counts by its weight (the sentence view's first round, where a bag's
 * sentences share one positive); the item view counts each example once.
 */
function logCountRatio(examples: readonly Example[], dims: number, weighted = false): Float64Array {
  const p = new Float64Array(dims).fill(1);
  const q = new Float64Array(dims).fill(1);
  for (const e of examples) {
    const side = e.y ? p : q;
    const w = weighted ? e.weight : 1;
    for (let i = 0; i < e.x.index.length; i++) side[e.x.index[i]!]! += Math.abs(e.x.value[i]!) * w;
  }
  let sp = 0;
  let sq = 0;
  for (let j = 0; j < dims; j++) {
    sp += p[j]!;
    sq += q[j]!;
  }
  const r = new Float64Array(dims);
  for (let j = 0; j < dims; j++) r[j] = Math.abs(Math.log(p[j]! / sp / (q[j]! / sq)));
  return r;
}

/** A logistic fit on NB-scaled features, returned as weights over the unscaled ones. */
function fitNB(examples: readonly Example[], dims: number, lambda: number, weighted = false): Trained {
  const r = logCountRatio(examples, dims, weighted);
  const scaled = examples.map((e) => ({ ...e, x: { index: e.x.index, value: e.x.value.map((v, i) => v * r[e.x.index[i]!]!) } }));
  const m = trainLogistic(scaled, { dims, lambda });
  const weights = new Float64Array(dims);
  for (let j = 0; j < dims; j++) weights[j] = m.weights[j]! * r[j]!;
  return { ...m, weights };
}

/** The factors that make each class carry half of the total weight: [negatives', positives']. */
function balancedFactors(weightOf: (y: 0 | 1) => number): [number, number] {
  const pos = weightOf(1);
  const neg = weightOf(0);
  return [(pos + neg) / (2 * neg), (pos + neg) / (2 * pos)];
}

/** Each side carries half of the total weight. */
function balance(examples: Example[]): Example[] {
  const [neg, pos] = balancedFactors((y) => examples.reduce((s, e) => s + (e.y === y ? e.weight : 0), 0));
  for (const e of examples) e.weight *= e.y ? pos : neg;
  return examples;
}

/**
 * The sentence view (lib/detection/learned/sentences.ts), by multiple-instance learning: every
 * sentence of a benign case is a negative; a positive item is a bag of sentences of which at least
 * one is poisoned, and the corpus does not say which. Round 1 counts each of a bag's sentences as
 * 1/n of a positive; round 2 takes, from each bag, the sentence round 1 scores highest as the
 * positive, alone.
 */
function trainSentences(cases: readonly CaseData[], positives: ReadonlyArray<[number, number]>, lambda: number): Trained {
  const dims = 1 << FEATURE_BITS;
  const neg = (): Example[] => cases.flatMap((c) => (c.label ? [] : c.items.flatMap((it) => it.sentences.map((x) => ({ x, y: 0 as const, weight: 1 })))));
  const bags = positives.map(([ci, ii]) => cases[ci]!.items[ii]!.sentences).filter((b) => b.length);
  const first = fitNB(balance([...neg(), ...bags.flatMap((b) => b.map((x) => ({ x, y: 1 as const, weight: 1 / b.length })))]), dims, lambda, true);
  const chosen = bags.map((b) => ({ x: b[mostSuspicious(first, b)!.at]!, y: 1 as const, weight: 1 }));
  return fitNB(balance([...neg(), ...chosen]), dims, lambda);
}

/** The sentence view's probability of an item: its most suspicious sentence's, null with no sentence. */
export const sentenceProbability = (model: Trained, item: CaseData["items"][number]): number | null => mostSuspicious(model, item.sentences)?.p ?? null;

/**
 * The names the stack reads beside the views (lib/detection/learned/stack.ts): the named features
 * that at least STACK_MIN_ITEMS items of the training cases carry, sorted. Rarer ones would give
 * the trees splits on a handful of items.
 */
export const STACK_MIN_ITEMS = 30;
export function stackNames(cases: readonly CaseData[]): string[] {
  const counts = new Map<string, number>();
  for (const c of cases) for (const it of c.items) for (const [name] of it.named) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].filter(([, n]) => n >= STACK_MIN_ITEMS).map(([name]) => name).sort();
}

/**
 * The stack (lib/detection/learned/stack.ts), fitted on out-of-fold scores: every item of a benign
 * case is a negative; a malicious case gives its item the item view rates highest as the positive
 * (as the product flags a case by its most suspicious item). Classes balanced. The trees' settings
 * (scripts/detector/boost.ts BOOST_DEFAULTS) were compared out of fold on 2026-12-07 (docs/rules/R35.md).
 */
export function fitStack(cases: readonly CaseData[], item: ReadonlyArray<readonly number[]>, sentence: ReadonlyArray<ReadonlyArray<number | null>>): Stack {
  const names = stackNames(cases);
  const rows: Float64Array[] = [];
  const y: number[] = [];
  const row = (ci: number, ii: number) => stackRow(names, item[ci]![ii]!, sentence[ci]![ii] ?? null, cases[ci]!.items[ii]!.named);
  cases.forEach((c, ci) => {
    if (!c.items.length) return;
    if (!c.label)
      c.items.forEach((_, ii) => {
        rows.push(row(ci, ii));
        y.push(0);
      });
    else {
      const p = item[ci]!;
      rows.push(row(ci, p.indexOf(Math.max(...p))));
      y.push(1);
    }
  });
  const [neg, pos] = balancedFactors((label) => y.filter((v) => v === label).length);
  const weight = y.map((v) => (v ? pos : neg));
  return { names, ...fitBoosted(rows, y, weight) };
}

/** Both views' out-of-fold scores made one probability per item by the stack. */
export const stackedProbabilities = (stack: Stack, cases: readonly CaseData[], item: ReadonlyArray<readonly number[]>, sentence: ReadonlyArray<ReadonlyArray<number | null>>): number[][] =>
  item.map((ps, ci) => ps.map((p, ii) => stackedProbability(stack, p, sentence[ci]![ii] ?? null, cases[ci]!.items[ii]!.named)));

export function trainScorer(cases: readonly CaseData[], settings: TrainSettings): Trained & { sentence: Trained; examples: { positives: number; negatives: number } } {
  const { positives, open } = resolvePositives(cases);
  const dims = 1 << FEATURE_BITS;
  const first = fitNB(examplesOf(cases, positives, settings.variant), dims, settings.lambda);
  const v = vec(settings.variant);
  const chosen: Array<[number, number]> = open.map((ci) => {
    const scores = cases[ci]!.items.map((it) => predict(first, v(it)));
    return [ci, scores.indexOf(Math.max(...scores))];
  });
  const all = [...positives, ...chosen];
  const examples = examplesOf(cases, all, settings.variant);
  const model = open.length ? fitNB(examples, dims, settings.lambda) : first;
  const sentence = trainSentences(cases, all, settings.lambda);
  return { ...model, sentence, examples: { positives: all.length, negatives: examples.length - all.length } };
}
