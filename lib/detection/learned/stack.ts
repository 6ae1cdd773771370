// How R35's two views make one probability (docs/rules/R35.md, "Two views"): a logistic regression
// over the logits of the item view's probability and of the highest sentence probability, fitted on
// out-of-fold scores of the tuning files (scripts/detector/train.ts fitStack), so neither view's
// weight is chosen by hand. An item with no sentence long enough has only its item view: that
// logit then stands in for the sentence one.

export type Stack = { item: number; sentence: number; intercept: number };

/** Logits are capped: a probability of 1e-12 says no more than one of 6e-6 here. */
const CAP = 12;
export const cappedLogit = (p: number) => Math.max(-CAP, Math.min(CAP, Math.log(p / (1 - p))));

/** The stacked probability from the item view's p and the highest sentence probability s (null: no sentence). */
export function stackedProbability(stack: Stack, p: number, s: number | null): number {
  const lp = cappedLogit(p);
  const ls = s === null ? lp : cappedLogit(s);
  return 1 / (1 + Math.exp(-(stack.item * lp + stack.sentence * ls + stack.intercept)));
}
