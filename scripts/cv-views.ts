// Both views of R35 compared on a few grouped folds of the TUNING corpus (never held-out/), without
// the stack or the thresholds: for a change to the features or the fits (docs/rules/R35.md "Hashed
// dimensions" compared FEATURE_BITS 16 and 18 this way), faster than `npm run train-detector`.
// Each chosen fold's files are scored by views trained on the other folds' files (the same
// `groupFiles(…, 10)` and `fitFold` as training); a case counts by its top item.
//
//   npx tsx scripts/cv-views.ts              folds 0,1,2 of 10
//   npx tsx scripts/cv-views.ts --folds 0,5  other folds
import { caseData, tuningCases } from "./detector/dataset";
import { fitFold, groupFiles } from "./detector/folds";
import { FEATURE_BITS } from "@/lib/detection/learned/features";

const started = Date.now();
const at = process.argv.indexOf("--folds");
const chosen = (at > 0 ? process.argv[at + 1]! : "0,1,2").split(",").map(Number);
const cases = tuningCases().map((c) => caseData(c, ["all"]));
const folds = groupFiles(cases, 10);
const labels: number[] = [];
const item: number[] = [];
const sentence: number[] = [];
for (const k of chosen) {
  for (const [i, p, s] of fitFold(cases, { lambda: 3e-6, variant: "all" }, folds[k]!).probs) {
    if (!p.length) continue;
    labels.push(cases[i]!.label);
    item.push(Math.max(...p));
    // An item with no sentence long enough is read by its item view (as the stack does).
    sentence.push(Math.max(...p.map((q, j) => s[j] ?? q)));
  }
}

/** ROC AUC by the rank-sum (Mann–Whitney U) statistic, ties sharing their mean rank. */
function rocAuc(scores: readonly number[], y: readonly number[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let positives = 0;
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j < order.length && scores[order[j]!] === scores[order[i]!]) j++;
    for (let k = i; k < j; k++) {
      if (!y[order[k]!]) continue;
      positives++;
      rankSum += (i + j + 1) / 2;
    }
    i = j;
  }
  const negatives = y.length - positives;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Recall above the score that the given share of negatives exceeds. */
function recallAtFpr(scores: readonly number[], y: readonly number[], rate: number): number {
  const negatives = scores.filter((_, i) => !y[i]).sort((a, b) => b - a);
  const cut = negatives[Math.floor(rate * negatives.length)]!;
  const positives = scores.filter((_, i) => y[i]);
  return positives.filter((s) => s > cut).length / positives.length;
}

console.log(`2^${FEATURE_BITS} dimensions, folds ${chosen.join(",")} of 10: ${labels.length} cases in ${((Date.now() - started) / 1000).toFixed(0)} s`);
for (const [name, scores] of [["item view", item], ["sentence view", sentence]] as const)
  console.log(`  ${name}: ROC AUC ${rocAuc(scores, labels).toFixed(4)}, recall at 2 % / 5 % FPR ${recallAtFpr(scores, labels, 0.02).toFixed(3)} / ${recallAtFpr(scores, labels, 0.05).toFixed(3)}`);
