// How R35's views make one probability (docs/rules/R35.md, "The stack"): gradient-boosted trees
// (trees.ts) over the logits of the item view's probability and of the highest sentence
// probability, beside the item's named features (features.ts: the structural signals, the
// multilingual cue roles and the rules' verdicts), fitted on out-of-fold scores of the tuning files
// (scripts/detector/train.ts fitStack), so no weight is chosen by hand.
//
// Why trees and not a weighted sum (the stack until 2026-12-07): a sum weighs a view the same
// everywhere, but what a 0.7 from the item view means depends on the rest (a rule at high on the same
// item, a URL at an outside host, text in another script, a tool that describes attacks). Out of fold
// on the 21,810 tuning cases, grouped by file, the stack of two logits ranked attacks with ROC AUC
// 0.9787 and put --fail-on medium at 0.861 / 0.026; the trees over the same logits and the named
// features 0.9830 and 0.880 / 0.024.
import type { NamedValue } from "./features";
import { boostedProbability, type Tree } from "./trees";

/** The stack: its inputs' names after the two logits and the has-a-sentence flag, and its trees. */
export type Stack = { names: string[]; base: number; trees: Tree[] };

/** Logits are capped: a probability of 1e-12 says no more than one of 6e-6 here. */
const CAP = 12;
export const cappedLogit = (p: number) => Math.max(-CAP, Math.min(CAP, Math.log(p / (1 - p))));

/** Each name's column, built once per names array (the model's, or the trainer's per fit). */
const columns = new WeakMap<readonly string[], Map<string, number>>();
function columnsOf(names: readonly string[]): Map<string, number> {
  let at = columns.get(names);
  if (!at) columns.set(names, (at = new Map(names.map((n, i) => [n, 3 + i]))));
  return at;
}

/**
 * The stack's input row: logit of the item view's p, logit of the highest sentence probability s
 * (the item's logit again when it has no sentence), 1 when it has a sentence, then the value of
 * each of `names` among the item's named features (0 when absent; names not in the list are not read).
 */
export function stackRow(names: readonly string[], p: number, s: number | null, named: readonly NamedValue[]): Float64Array {
  const row = new Float64Array(3 + names.length);
  const lp = cappedLogit(p);
  row[0] = lp;
  row[1] = s === null ? lp : cappedLogit(s);
  row[2] = s === null ? 0 : 1;
  const at = columnsOf(names);
  for (const [name, v] of named) {
    const k = at.get(name);
    if (k !== undefined) row[k] = v;
  }
  return row;
}

/** The stacked probability of an item from its views and named features. */
export const stackedProbability = (stack: Stack, p: number, s: number | null, named: readonly NamedValue[]): number => boostedProbability(stack, stackRow(stack.names, p, s, named));
