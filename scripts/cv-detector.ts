// Leave-one-file-out cross-validation of a learned scorer beside the rules, on the TUNING corpus only
// (it never reads held-out/):
// each source file of tests/fixtures/audit-corpus/*.json is one fold (files differ by source and
// author, as the held-out set differs from the tuning set). For each regularisation strength and
// feature variant, every file's items are scored by a model trained on the other files; the
// thresholds are then chosen (a) on the pooled out-of-fold scores and (b) nested: for each file,
// on the other files' out-of-fold scores only, which is the honest estimate.
//
// The fusion adds, per item, a finding of a new rule id at medium or high by the probability, and
// is judged through the product's own aggregation (severity.ts). Results: docs/detection.md.
//
//   npx tsx scripts/cv-detector.ts            the grid, then the chosen configuration's per-fold table
//   npx tsx scripts/cv-detector.ts --quick    one configuration (λ 1e-4, all features)
import { caseData, tuningCases, VARIANTS } from "./detector/dataset";
import { outOfFold } from "./detector/folds";
import { chooseThresholds, LIMITS, show, table, type Table, type Thresholds, recall, fpr } from "./detector/metrics";
import type { TrainSettings, Variant } from "./detector/train";

const started = Date.now();
const cases = tuningCases().map((c) => caseData(c));
const files = [...new Set(cases.map((c) => c.file))].sort();
console.log(`${cases.length} tool-list cases, ${cases.reduce((s, c) => s + c.items.length, 0)} items, ${files.length} files (folds); features in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const pick = <T>(xs: readonly T[], keep: (i: number) => boolean) => xs.filter((_, i) => keep(i));

/** Nested: each file judged with thresholds chosen on the other files' out-of-fold scores. */
function nested(probs: number[][]): { pooled: Table; perFold: Array<{ file: string; t: Thresholds; tab: Table }> } {
  const perFold = files.map((file) => {
    const inner = (i: number) => cases[i]!.file !== file;
    const t = chooseThresholds(pick(cases, inner), pick(probs, inner), LIMITS);
    const outer = (i: number) => cases[i]!.file === file;
    return { file, t, tab: table(pick(cases, outer), pick(probs, outer), t) };
  });
  const pooled = perFold.reduce<Table | null>((acc, { tab }) => {
    if (!acc) return structuredClone(tab);
    for (const k of ["rules", "scorer", "fusion"] as const) for (const g of ["high", "medium"] as const) for (const r of ["tp", "pos", "fp", "neg"] as const) acc[k][g][r] += tab[k][g][r];
    return acc;
  }, null)!;
  return { pooled, perFold };
}

/** The scorer's ranking of cases on its own: ROC AUC, and recall at the loosest threshold with pooled FPR ≤ 0.02 and ≤ 0.05. */
function ranking(probs: number[][]): string {
  const top = cases.map((c, i) => ({ p: probs[i]!.length ? Math.max(...probs[i]!) : 0, y: c.label }));
  const pos = top.filter((t) => t.y === 1).map((t) => t.p);
  const neg = top.filter((t) => t.y === 0).map((t) => t.p).sort((a, b) => b - a);
  let auc = 0;
  for (const p of pos) for (const q of neg) auc += p > q ? 1 : p === q ? 0.5 : 0;
  auc /= pos.length * neg.length;
  const at = (maxFpr: number) => {
    const allowed = Math.floor(maxFpr * neg.length);
    const t = neg[allowed] ?? 0; // flag strictly above the (allowed+1)-th highest benign score
    return `${(pos.filter((p) => p > t).length / pos.length).toFixed(3)} (t>${t.toFixed(3)})`;
  };
  return `AUC ${auc.toFixed(3)}, recall at FPR ≤ 0.02 ${at(0.02)}, at FPR ≤ 0.05 ${at(0.05)}`;
}

const line = (name: string, tab: Table) =>
  [`  ${name}`, `    rules   high ${show(tab.rules.high)}   medium ${show(tab.rules.medium)}`, `    scorer  high ${show(tab.scorer.high)}   medium ${show(tab.scorer.medium)}`, `    fusion  high ${show(tab.fusion.high)}   medium ${show(tab.fusion.medium)}`].join("\n");

const grid: TrainSettings[] = process.argv.includes("--quick")
  ? [{ lambda: 1e-4, variant: "all" as Variant }]
  : (Object.keys(VARIANTS) as Variant[]).flatMap((variant) => [1e-5, 1e-4, 1e-3].map((lambda) => ({ lambda, variant })));

let best: { s: TrainSettings; probs: number[][]; n: ReturnType<typeof nested> } | null = null;
for (const s of grid) {
  const t0 = Date.now();
  const { probs } = await outOfFold(cases, s);
  const n = nested(probs);
  const tPooled = chooseThresholds(cases, probs, LIMITS);
  console.log(`λ=${s.lambda} variant=${s.variant} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`  scorer alone, case = its highest item: ${ranking(probs)}`);
  console.log(line(`pooled out-of-fold, thresholds chosen on all folds: medium ${tPooled.medium} high ${tPooled.high} veto ${tPooled.veto}`, table(cases, probs, tPooled)));
  console.log(line("nested (thresholds chosen without the judged file)", n.pooled));
  const score = (x: typeof n) => x.pooled.fusion.high.tp + x.pooled.fusion.medium.tp - 2 * (x.pooled.fusion.high.fp + x.pooled.fusion.medium.fp);
  if (!best || score(n) > score(best.n)) best = { s, probs, n };
}

const b = best!;
console.log(`\nchosen (nested fusion catches minus twice its false positives, both gates): λ=${b.s.lambda} variant=${b.s.variant}`);
console.log(`thresholds on all folds' out-of-fold scores: ${JSON.stringify(chooseThresholds(cases, b.probs, LIMITS))}`);
console.log("per fold (nested thresholds): recall (tp/pos) / FPR (fp/neg)");
for (const { file, t, tab } of b.n.perFold) {
  console.log(`${file}  thresholds medium ${t.medium} high ${t.high} veto ${t.veto}`);
  for (const k of ["rules", "scorer", "fusion"] as const) console.log(`  ${k.padEnd(6)}  high ${show(tab[k].high)}   medium ${show(tab[k].medium)}`);
}
const p = b.n.pooled;
console.log(`pooled nested: fusion high recall ${recall(p.fusion.high).toFixed(3)} FPR ${fpr(p.fusion.high).toFixed(3)}; medium recall ${recall(p.fusion.medium).toFixed(3)} FPR ${fpr(p.fusion.medium).toFixed(3)}`);
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
