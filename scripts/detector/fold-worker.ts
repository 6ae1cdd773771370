// Worker thread of scripts/detector/folds.ts: fits the folds it was given, posting each result.
import { parentPort, workerData } from "node:worker_threads";
import { fitFold, type FoldJob } from "./folds";

const job = workerData as FoldJob;
for (const held of job.folds) parentPort!.postMessage(fitFold(job.cases, job.settings, held));
