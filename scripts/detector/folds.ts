// Leave-one-file-out probabilities, the fits spread over worker threads. Each tuning file is one
// fold (one blind author or source); its items are scored by a model trained on every other file.
// The fits are independent and deterministic, so the result does not depend on how many workers
// ran them or in which order they finished: same inputs, same bits.
//
// Why threads: one fit on ~8,400 cases takes ~27 s and there is one per file (45 on 2026-12-06),
// which made `npm run train-detector` ~22 minutes on this 2-core machine.
import os from "node:os";
import { Worker } from "node:worker_threads";
import { predict } from "@/lib/detection/learned/logistic";
import { vectorOf, type CaseData } from "./dataset";
import { trainScorer, type TrainSettings } from "./train";

export type FoldJob = { cases: readonly CaseData[]; settings: TrainSettings; files: readonly string[] };
/** One fold's result: the probabilities of the held-back file's cases, by case index. */
export type FoldResult = { file: string; probs: Array<[number, number[]]> };

/** The fit for one held-back file (run in a worker, or inline with one thread). */
export function fold(cases: readonly CaseData[], settings: TrainSettings, file: string): FoldResult {
  const model = trainScorer(cases.filter((c) => c.file !== file), settings);
  const probs: Array<[number, number[]]> = [];
  cases.forEach((c, i) => {
    if (c.file === file) probs.push([i, c.items.map((it) => predict(model, vectorOf(it, settings.variant)))]);
  });
  return { file, probs };
}

/** probs[i][j]: item j of case i, scored by the model that never saw case i's file. */
export async function outOfFold(cases: readonly CaseData[], settings: TrainSettings, threads = Math.max(1, os.availableParallelism())): Promise<number[][]> {
  const files = [...new Set(cases.map((c) => c.file))].sort();
  const out: number[][] = cases.map(() => []);
  const take = (r: FoldResult) => r.probs.forEach(([i, p]) => (out[i] = p));
  const n = Math.min(threads, files.length);
  if (n <= 1) {
    for (const file of files) take(fold(cases, settings, file));
    return out;
  }
  // Each worker gets every n-th file; the data is copied once per worker (structured clone).
  await Promise.all(
    Array.from({ length: n }, (_, w) => {
      const job: FoldJob = { cases, settings, files: files.filter((_, k) => k % n === w) };
      return new Promise<void>((resolve, reject) => {
        // The worker's entry is TypeScript: a small script registers tsx first (Node 20 neither carries
        // the main thread's loader hooks over nor applies `--import` before resolving a worker's entry).
        const entry = new URL("./lofo-worker.ts", import.meta.url).href;
        const boot = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
        const worker = new Worker(boot, { eval: true, workerData: job });
        worker.on("message", (r: FoldResult) => take(r));
        worker.once("error", reject);
        worker.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`leave-one-file-out worker ${w} exited with code ${code}`))));
      });
    }),
  );
  return out;
}
