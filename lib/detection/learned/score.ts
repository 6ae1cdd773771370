// R35 — the learned scorer beside the rules. An L2 logistic regression over hashed character and
// word n-grams, structural signals and the rules' own hits (features.ts), beside a second one over
// each sentence alone (sentences.ts), the two stacked into one probability (stack.ts), trained by
// `npm run train-detector` on the tuning corpus only (tests/fixtures/audit-corpus/*.json, never
// held-out/). Why it exists: hand-written rules reach what their authors saw; each blind batch they
// had not seen landed at recall 0.62–0.67 on its first run. A model trained on 2,430 blind-written
// cases scores unseen batches with ROC AUC 0.95; as one more rule beside the others it raised
// held-out recall at `--fail-on medium` by 0.04 for 0.01 more false positives (docs/detection.md).
//
// The model file holds its thresholds (chosen on out-of-fold scores of the tuning files) and
// a hash of everything it was trained from (`trainedOn`): the corpus, the rules and the features.
// tests/unit/learned-scorer.test.ts fails when that hash is stale, so a rule change is retrained.
import { SEVERITY_RANK, type AuditFinding, type Evidence, type Severity } from "@/lib/detection/types";
import { itemFeatures, type FeatureBlocks, type FeatureInput } from "./features";
import { predict, type LinearModel } from "./logistic";
import { itemSentences, mostSuspicious, sentenceVectors, type ItemSentence } from "./sentences";
import { spanEvidence } from "@/lib/detection/text-view";
import { stackedProbability, type Stack } from "./stack";
import modelFile from "./model.json";

export type LearnedModel = {
  /** 3: two views (the item, each sentence alone) stacked by boosted trees over them and the named features (stack.ts); 2 stacked them by a weighted sum; 1 had the item view only. */
  version: 3;
  variant: string;
  blocks: FeatureBlocks;
  lambda: number;
  /** medium / high: R35's own levels. veto: below it the item's rule findings are discounted (unless one of them is critical). */
  thresholds: { medium: number; high: number; veto: number };
  trainedOn: string;
  cases: { tuning: number; positives: number; negatives: number };
  /** The item view (features.ts over the whole item). */
  intercept: number;
  /** Float32 little-endian weights, base64. */
  weights: string;
  /** The sentence view (sentences.ts): each sentence alone. */
  sentence: { intercept: number; weights: string };
  /** How the two views' probabilities make one (stack.ts). */
  stack: Stack;
};

let loaded: { item: LinearModel; sentence: LinearModel; stack: Stack; thresholds: LearnedModel["thresholds"]; blocks: FeatureBlocks } | null = null;

const float32 = (base64: string) => {
  const bytes = Buffer.from(base64, "base64");
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

function model() {
  if (loaded) return loaded;
  const file = modelFile as LearnedModel;
  loaded = {
    item: { weights: float32(file.weights), intercept: file.intercept },
    sentence: { weights: float32(file.sentence.weights), intercept: file.sentence.intercept },
    stack: file.stack,
    thresholds: file.thresholds,
    blocks: file.blocks,
  };
  return loaded;
}

/**
 * Each view's probability and the stacked one. `sentence`: the most suspicious sentence's
 * probability alone (null: none long enough), and `suspect` that sentence, for the evidence.
 */
export type LearnedViews = { item: number; sentence: number | null; p: number; suspect: ItemSentence | null };

export function learnedViews(input: FeatureInput): LearnedViews {
  const m = model();
  const { vector, named } = itemFeatures(input, m.blocks);
  const item = predict(m.item, vector);
  const sentences = itemSentences(input);
  const top = mostSuspicious(m.sentence, sentenceVectors(input, sentences));
  const sentence = top?.p ?? null;
  return { item, sentence, p: stackedProbability(m.stack, item, sentence, named), suspect: top ? sentences[top.at]! : null };
}

/** R35's severity for a probability: high, medium or none at the model's thresholds. */
export function learnedSeverity(p: number): Severity | null {
  const { thresholds } = model();
  return p >= thresholds.high ? "high" : p >= thresholds.medium ? "medium" : null;
}

/**
 * A sentence the sentence view rates at least this suspicious alone is R35's evidence, shown (and
 * underlined where it sits in the string the finding points at) in place of the bare probability.
 */
const SUSPECT_SHOWN = 0.5;

/** The sentence R35 shows as its evidence: the most suspicious one, when it is suspicious alone. */
const shownSentence = (views: LearnedViews): ItemSentence | null => (views.suspect && (views.sentence ?? 0) >= SUSPECT_SHOWN ? views.suspect : null);

/**
 * The R35 finding of one item, or null. It points at the string its shown sentence came from (a
 * property's description, a default, the title), with that sentence underlined as the evidence;
 * with no sentence shown it names the item (`pointer`) and its evidence is the probability.
 *
 * Its level is the model's, whether or not a rule found anything on the item. Until 2026-12-07
 * (evening) R35 alone was held at medium, so that a high always had a rule's evidence beside it;
 * the thresholds, though, were chosen as if it were not (scripts/detector/dataset.ts counts R35 at
 * its own level), and out of fold on the 23,628 tuning cases the cap cost the high gate 0.186 of
 * recall to save 0.0095 of false-positive rate (0.900 / 0.024 uncapped, 0.714 / 0.015 capped): a
 * loss of 0.16 in the target's units (docs/rules/R35.md, "R35 alone").
 */
export function learnedFinding(input: FeatureInput, toolName: string | null, pointer: string, views = learnedViews(input)): AuditFinding | null {
  const { p } = views;
  const severity = learnedSeverity(p);
  if (!severity) return null;
  const alone = !input.findings.some((f) => f.severity !== "info" && !f.discounted);
  // A tool that describes attacks quotes them (a scanner's examples): the model reads its text as
  // the rules do, and its verdict there is discounted the same way.
  const discounted = input.describesAttacks;
  const shown = shownSentence(views);
  const evidence: Evidence = shown ? spanEvidence(shown.source.text, shown.start, shown.start + shown.text.length) : { text: `p = ${p.toFixed(3)}`, start: 0, end: 0 };
  const suspect = shown ? `; the sentence shown alone ${views.sentence!.toFixed(2)}` : "";
  return {
    ruleId: "R35",
    family: "G",
    severity: discounted ? "low" : severity,
    toolName,
    pointer: shown ? shown.source.pointer : pointer,
    ...(shown ? { field: shown.source.field } : {}),
    evidence,
    message: `the learned scorer rates this ${toolName === null ? "text" : "item"} as poisoned (probability ${p.toFixed(2)}${suspect}${alone ? "; no rule found anything here" : ""}; docs/rules/R35.md)`,
    ...(discounted ? { discounted: true as const } : {}),
    docs: "docs/rules/R35.md",
  };
}

/** Whether the model rates an item benign enough to discount the rules' findings on it (see vetoFindings). */
export const learnedVetoes = (p: number) => p < model().thresholds.veto;

/**
 * The veto: the findings of an entity whose items the model rates below the veto threshold, lowered
 * to low and marked discounted (shown, but they no longer add up). Why: on out-of-fold scores of
 * the tuning files, most of the rules' false positives sit on items the model rates benign, while
 * almost no caught attack does (docs/rules/R35.md, "The veto"). What the veto never touches: a
 * finding that is critical on its own (deterministic evidence such as an embedded private key, a
 * decoded hidden message or a property name that is an instruction), so text written to fool the
 * model cannot silence it. Findings that only add up to critical (two rules at high) are vetoed
 * like the rest since 2026-12-06 (night): out of fold on 18,559 tuning cases, exempting them kept
 * about 60 honest tools and 8 attacks flagged (--fail-on medium 0.852 / 0.030 without the
 * exemption, 0.853 / 0.036 with it).
 */
export function vetoFindings(findings: readonly AuditFinding[], p: number): AuditFinding[] {
  if (findings.some((f) => f.severity === "critical")) return [...findings];
  return findings.map((f) =>
    SEVERITY_RANK[f.severity] < SEVERITY_RANK.low || f.discounted
      ? f
      : {
          ...f,
          severity: "low" as const,
          discounted: true as const,
          // Renderers say why (render-text.ts, EvidenceFindings.tsx, SARIF properties).
          vetoedBy: { ruleId: "R35" as const, p: Number(p.toFixed(3)) },
        },
  );
}
