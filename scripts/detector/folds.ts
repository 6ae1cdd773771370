// Out-of-fold probabilities with the tuning files grouped into folds, the fits spread over worker
// threads. A file (one blind author or source) is never split: every fold holds whole files, and
// its items are scored by a model trained on the other folds' files. The fits are independent and
// deterministic, so the result does not depend on how many workers ran them or in which order they
// finished: same inputs, same bits.
//
// Why groups and threads: an NB-weighted fit on ~10,500 cases takes ~75 s and trainScorer makes
// two (scripts/detector/train.ts). With one fold per file (54 files on 2026-12-06) training took
// 36 minutes on this 2-core machine; the number of fits, not the data, was the cost.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { predict } from "@/lib/detection/learned/logistic";
import { vectorOf, type CaseData } from "./dataset";
import { fitStack, sentenceProbability, stackedProbabilities, trainScorer, type TrainSettings } from "./train";
import type { Stack } from "@/lib/detection/learned/stack";

/** One fold: the files held back together. */
export type Fold = readonly string[];
export type FoldJob = { cases: readonly CaseData[]; settings: TrainSettings; folds: readonly Fold[] };
/**
 * One fold's result: the held-back files' cases, by case index, with each item's probability by the
 * item view and by the sentence view (null: no sentence), and every sentence's probability, highest
 * first (saved with `--save-oof`, for trying stack inputs beyond the highest).
 */
export type FoldResult = { probs: Array<[number, number[], Array<number | null>, number[][]]> };

/**
 * Files into `k` folds of about equal case counts: largest file first, each into the fold with the
 * fewest cases so far (ties: the lower fold). `k` at or above the number of files (or undefined) is
 * leave-one-file-out.
 */
export function groupFiles(cases: readonly CaseData[], k?: number): Fold[] {
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(c.file, (counts.get(c.file) ?? 0) + 1);
  const files = [...counts.keys()].sort();
  if (!k || k >= files.length) return files.map((f) => [f]);
  const folds: string[][] = Array.from({ length: k }, () => []);
  const size = new Array<number>(k).fill(0);
  for (const f of [...files].sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1))) {
    const i = size.indexOf(Math.min(...size));
    folds[i]!.push(f);
    size[i]! += counts.get(f)!;
  }
  return folds.map((f) => f.sort());
}

/** The fit for one fold (run in a worker, or inline with one thread). */
export function fitFold(cases: readonly CaseData[], settings: TrainSettings, held: Fold): FoldResult {
  const out = new Set(held);
  const model = trainScorer(cases.filter((c) => !out.has(c.file)), settings);
  const probs: FoldResult["probs"] = [];
  cases.forEach((c, i) => {
    if (!out.has(c.file)) return;
    const sentences = c.items.map((it) => it.sentences.map((x) => predict(model.sentence, x)).sort((a, b) => b - a));
    probs.push([i, c.items.map((it) => predict(model, vectorOf(it, settings.variant))), c.items.map((it) => sentenceProbability(model.sentence, it)), sentences]);
  });
  return { probs };
}

// The worker's entry is TypeScript: a small script registers tsx first (Node 20 neither carries the
// main thread's loader hooks over nor applies `--import` before resolving a worker's entry).
const WORKER_ENTRY = new URL("./fold-worker.ts", import.meta.url).href;
const WORKER_BOOT = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(WORKER_ENTRY)}); });`;

/**
 * Out-of-fold scores: `probs[i][j]`, item j of case i scored by the views that never saw case i's
 * file, stacked by a stack fitted on the other folds' out-of-fold scores (nestedStack); each view's
 * own scores (`item`, `sentence`); and `stack`, fitted on all of them, for the model file.
 */
export type OutOfFold = { probs: number[][]; item: number[][]; sentence: Array<Array<number | null>>; sentences: number[][][]; stack: Stack };

/**
 * The stacked probabilities the thresholds are chosen on: each fold's cases stacked by trees fitted
 * on the other folds' scores. Trees fitted on every case would be scored on the rows they were fitted
 * on, and boosted trees fit their training rows closely, so thresholds chosen on those would be
 * chosen on scores no new case gets.
 */
function nestedStack(cases: readonly CaseData[], folds: readonly Fold[], item: number[][], sentence: Array<Array<number | null>>): number[][] {
  const probs: number[][] = cases.map(() => []);
  for (const fold of folds) {
    const held = new Set(fold);
    const rest: number[] = [];
    const inFold: number[] = [];
    cases.forEach((c, i) => (held.has(c.file) ? inFold : rest).push(i));
    const stack = fitStack(rest.map((i) => cases[i]!), rest.map((i) => item[i]!), rest.map((i) => sentence[i]!));
    const stacked = stackedProbabilities(stack, inFold.map((i) => cases[i]!), inFold.map((i) => item[i]!), inFold.map((i) => sentence[i]!));
    inFold.forEach((ci, k) => (probs[ci] = stacked[k]!));
  }
  return probs;
}

export async function outOfFold(cases: readonly CaseData[], settings: TrainSettings, options: { threads?: number; folds?: number } = {}): Promise<OutOfFold> {
  const folds = groupFiles(cases, options.folds);
  const item: number[][] = cases.map(() => []);
  const sentence: Array<Array<number | null>> = cases.map(() => []);
  const sentences: number[][][] = cases.map(() => []);
  const take = (r: FoldResult) =>
    r.probs.forEach(([i, p, s, all]) => {
      item[i] = p;
      sentence[i] = s;
      sentences[i] = all;
    });
  const done = (): OutOfFold => ({ probs: nestedStack(cases, folds, item, sentence), item, sentence, sentences, stack: fitStack(cases, item, sentence) });
  const n = Math.min(options.threads ?? Math.max(1, os.availableParallelism()), folds.length);
  if (n <= 1) {
    for (const f of folds) take(fitFold(cases, settings, f));
    return done();
  }
  // Each worker gets every n-th fold; the data is copied once per worker (structured clone).
  await Promise.all(
    Array.from({ length: n }, (_, w) => {
      const job: FoldJob = { cases, settings, folds: folds.filter((_, k) => k % n === w) };
      return new Promise<void>((resolve, reject) => {
        const worker = new Worker(WORKER_BOOT, { eval: true, workerData: job });
        worker.on("message", (r: FoldResult) => take(r));
        worker.once("error", reject);
        worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`fold worker ${w} exited with code ${code}`))));
      });
    }),
  );
  return done();
}
