// `npm run train-detector`: trains the learned scorer (R35) on the TUNING corpus only and writes
// lib/detection/learned/model.json. Never reads held-out/.
//
// 1. Grouped 10-fold cross-validation over the tuning files (each file is one blind author or source
//    and is never split across folds; the fits run on worker threads, scripts/detector/folds.ts)
//    gives out-of-fold probabilities. The thresholds
//    (medium, high and the veto) maximise recall − 2.5 · FPR at both gates (2.5: the target
//    allows 0.05 of misses and 0.02 of false positives), while the fusion's false-positive rate stays
//    at most the rules' own at each gate (scripts/detector/metrics.ts chooseThresholds, FP_WEIGHT,
//    LIMITS).
//    The scores are those of both views (lib/detection/learned/sentences.ts: the whole item, and each
//    sentence alone) stacked by a logistic regression fitted on the same out-of-fold scores
//    (scripts/detector/train.ts fitStack).
// 2. Both views are then trained on every tuning file and written with the stack, those thresholds
//    and the hash of its inputs (scripts/detector/fingerprint.ts).
// Configuration (features "all", λ 3e-6, NB-weighted fits: scripts/detector/train.ts): the grid in
// scripts/cv-detector.ts on 2026-12-06 chose "all" (ROC AUC 0.974; text only 0.946) at λ 1e-5; on
// 5 grouped folds of 8,395 cases λ 3e-6 ranked a little better (AUC 0.9733 → 0.9743, recall at 5 %
// FPR 0.871 → 0.879; 1e-6 no better than 3e-6). Deterministic: same inputs, same file.
import fs from "node:fs";
import path from "node:path";
import { caseData, tuningCases, VARIANTS } from "./detector/dataset";
import { trainingFingerprint } from "./detector/fingerprint";
import { chooseThresholds, fpr, LIMITS, recall, table } from "./detector/metrics";
import { outOfFold } from "./detector/folds";
import { trainScorer } from "./detector/train";
import type { LearnedModel } from "@/lib/detection/learned/score";

const VARIANT = "all" as const;
const LAMBDA = 3e-6;
// 10 folds rather than one per file: the same thresholds as leave-one-file-out on the 10,560 cases of
// 2026-12-06 (docs/rules/R35.md "How the thresholds are chosen") in a fraction of the time.
const FOLDS = 10;
const started = Date.now();
// Hashed before the corpus is read: a file added or edited while training runs (it takes minutes)
// must not end up in the fingerprint of a model that never saw it. Checked again before writing.
const fingerprint = trainingFingerprint();
const cases = tuningCases().map((c) => caseData(c, [VARIANT]));
const files = [...new Set(cases.map((c) => c.file))].sort();
const { probs: oof, item: oofItem, sentence: oofSentence, sentences: oofSentences, stack } = await outOfFold(cases, { lambda: LAMBDA, variant: VARIANT }, { folds: FOLDS });
// `--save-oof FILE`: the out-of-fold probabilities with each case's id, file and label, for trying
// other threshold rules without refitting (JSON lines).
const saveAt = process.argv.indexOf("--save-oof");
if (saveAt > 0 && process.argv[saveAt + 1]) fs.writeFileSync(process.argv[saveAt + 1]!, cases.map((c, i) => JSON.stringify({ id: c.id, file: c.file, label: c.label, p: oof[i], item: oofItem[i], sentence: oofSentence[i], sentences: oofSentences[i] })).join("\n") + "\n");
const thresholds = chooseThresholds(cases, oof, LIMITS);
const tab = table(cases, oof, thresholds);
const rate = (r: Parameters<typeof recall>[0]) => `${recall(r).toFixed(3)} / ${fpr(r).toFixed(3)}`;
console.log(`${cases.length} tuning tool-list cases, ${files.length} files in ${Math.min(FOLDS, files.length)} folds; stack ${stack.trees.length} boosted trees over the two views and ${stack.names.length} named features; thresholds medium ${thresholds.medium}, high ${thresholds.high}, veto ${thresholds.veto}`);
// Each view alone, on the same folds (docs/rules/R35.md "Two views" quotes them).
for (const [name, probs] of [["item view alone", oofItem], ["sentence view alone", oofSentence.map((ps, i) => ps.map((s, j) => s ?? oofItem[i]![j]!))]] as const) {
  const t = chooseThresholds(cases, probs, LIMITS);
  const tab1 = table(cases, probs, t);
  console.log(`  ${name} (thresholds ${t.medium} / ${t.high} / veto ${t.veto}): high gate ${rate(tab1.fusion.high)}; medium gate ${rate(tab1.fusion.medium)}`);
}
console.log(`out-of-fold, high gate: rules ${rate(tab.rules.high)} → with R35 ${rate(tab.fusion.high)}; medium gate: rules ${rate(tab.rules.medium)} → with R35 ${rate(tab.fusion.medium)}`);
// For comparison (docs/rules/R35.md quotes them): the same choice without the veto, and the choice
// of before 2026-12-06's afternoon (most catches within the rules' false-positive rate, FP_WEIGHT 0).
for (const [name, t] of [["without the veto", chooseThresholds(cases, oof, LIMITS, [0])], ["catches only (false positives weigh 0)", chooseThresholds(cases, oof, LIMITS, undefined, 0)]] as const) {
  const tab2 = table(cases, oof, t);
  console.log(`  ${name} (medium ${t.medium}, high ${t.high}, veto ${t.veto}): high gate ${rate(tab2.fusion.high)}; medium gate ${rate(tab2.fusion.medium)}`);
}

const final = trainScorer(cases, { lambda: LAMBDA, variant: VARIANT });
const base64 = (w: Float64Array) => Buffer.from(Float32Array.from(w).buffer).toString("base64");
const out: LearnedModel = {
  version: 3,
  variant: VARIANT,
  blocks: VARIANTS[VARIANT],
  lambda: LAMBDA,
  thresholds,
  trainedOn: fingerprint,
  cases: { tuning: cases.length, positives: final.examples.positives, negatives: final.examples.negatives },
  intercept: final.intercept,
  weights: base64(final.weights),
  sentence: { intercept: final.sentence.intercept, weights: base64(final.sentence.weights) },
  stack,
};
if (trainingFingerprint() !== fingerprint) {
  console.error("train-detector: the corpus, the rules or the training code changed while training ran; nothing written, run it again");
  process.exit(1);
}
const target = path.join(import.meta.dirname, "../lib/detection/learned/model.json");
fs.writeFileSync(target, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)} (${(fs.statSync(target).size / 1024).toFixed(0)} KB) in ${((Date.now() - started) / 1000).toFixed(0)} s`);
