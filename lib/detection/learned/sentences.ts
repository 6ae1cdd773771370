// The second view of R35 (docs/rules/R35.md, "Two views"): every sentence of an item's text scored
// alone, by its own model, trained by multiple-instance learning (scripts/detector/train.ts). Why:
// the item view is one bag of n-grams scaled to unit length, so one poisoned sentence in a long,
// honest description is outweighed by the honest rest. Scored alone, that sentence is not diluted.
// Measured out of fold on the 18,559 tuning cases (`npm run train-detector`, 10 grouped folds,
// 2026-12-06): the item view alone ROC AUC 0.9760, recall at 2 % FPR 0.822; the sentence view alone
// 0.9456 / 0.663 (a sentence without its tool says less); the two stacked 0.9784 / 0.839.
import { itemFeatures, type FeatureInput, type SparseVector } from "./features";
import type { StringField } from "@/lib/detection/types";

/** Sentence ends: Latin and CJK stops (a CJK stop needs no space after it) and line breaks. */
const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？])|\n+/u;
/** Shorter pieces ("Optional.", "Owner.", "e.g.") say nothing alone: the item view has them. */
export const MIN_SENTENCE = 12;
/** A character of a script written without spaces (Han, kana, Thai…) holds about a word: it counts as 3. */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const weight = (s: string) => s.length + 2 * (s.match(DENSE)?.length ?? 0);
/** Identifiers are read by the item view; a sentence is prose or a schema value. */
const IDENT = new Set<StringField>(["name", "property-name", "required"]);

/** The sentences of one string, at least MIN_SENTENCE characters long once trimmed (a dense script's character counting 3). */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => weight(s) >= MIN_SENTENCE);
}

/**
 * One vector per sentence of the item's prose and schema values: the item view's n-grams and
 * structural signals of that sentence alone, under the item's own context (other tools, whether it
 * describes attacks), without the rules' hits (those are the item's, not the sentence's).
 */
export function sentenceVectors(input: FeatureInput): SparseVector[] {
  const out: SparseVector[] = [];
  for (const s of input.strings) {
    if (IDENT.has(s.field)) continue;
    for (const text of sentencesOf(s.text)) out.push(itemFeatures({ ...input, name: null, strings: [{ ...s, text }], findings: [] }, { rules: false }).vector);
  }
  return out;
}
