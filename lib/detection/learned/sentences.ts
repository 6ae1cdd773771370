// The second view of R35 (docs/rules/R35.md, "Two views"): every sentence of an item's text scored
// alone, by its own model, trained by multiple-instance learning (scripts/detector/train.ts). Why:
// the item view is one bag of n-grams scaled to unit length, so one poisoned sentence in a long,
// honest description is outweighed by the honest rest. Scored alone, that sentence is not diluted.
// Measured out of fold on the 18,559 tuning cases (`npm run train-detector`, 10 grouped folds,
// 2026-12-06): the item view alone ROC AUC 0.9760, recall at 2 % FPR 0.822; the sentence view alone
// 0.9456 / 0.663 (a sentence without its tool says less); the two stacked 0.9784 / 0.839.
import { IDENT, itemFeatures, type FeatureInput, type SparseVector } from "./features";
import { predict, type LinearModel } from "./logistic";
import type { ExtractedString } from "@/lib/detection/types";

/** Sentence ends: Latin and CJK stops (a CJK stop needs no space after it) and line breaks. */
const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？])|\n+/u;
/** Shorter pieces ("Optional.", "Owner.", "e.g.") say nothing alone: the item view has them. */
export const MIN_SENTENCE = 12;
/** A character of a script written without spaces (Han, kana, Thai…) holds about a word: it counts as 3. */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
const weight = (s: string) => s.length + 2 * (s.match(DENSE)?.length ?? 0);

/** The sentences of one string, at least MIN_SENTENCE characters long once trimmed (a dense script's character counting 3). */
export function sentencesOf(text: string): string[] {
  return text
    .split(SENTENCE_END)
    .map((s) => s.trim())
    .filter((s) => weight(s) >= MIN_SENTENCE);
}

/** One sentence of an item: its text, the string it is in and where in that string's text it starts. */
export type ItemSentence = { text: string; source: ExtractedString; start: number };

/** The sentences of the item's prose and schema values, in order; identifiers are the item view's alone. */
export function itemSentences(input: FeatureInput): ItemSentence[] {
  const out: ItemSentence[] = [];
  for (const s of input.strings) {
    if (IDENT.has(s.field)) continue;
    let from = 0;
    for (const text of sentencesOf(s.text)) {
      const start = s.text.indexOf(text, from);
      out.push({ text, source: s, start });
      from = start + text.length;
    }
  }
  return out;
}

/**
 * One vector per sentence (itemSentences): the item view's n-grams and structural signals of that
 * sentence alone, under the item's own context (other tools, whether it describes attacks), without
 * the rules' hits (those are the item's, not the sentence's).
 */
export function sentenceVectors(input: FeatureInput, sentences: readonly ItemSentence[] = itemSentences(input)): SparseVector[] {
  return sentences.map(({ text, source }) => itemFeatures({ ...input, name: null, strings: [{ ...source, text }], findings: [] }, { rules: false }).vector);
}

/** The sentence view's verdict on an item: the most suspicious sentence's probability and its index (null: no sentence long enough). */
export function mostSuspicious(model: LinearModel, vectors: readonly SparseVector[]): { p: number; at: number } | null {
  let best: { p: number; at: number } | null = null;
  vectors.forEach((v, at) => {
    const p = predict(model, v);
    if (!best || p > best.p) best = { p, at };
  });
  return best;
}
