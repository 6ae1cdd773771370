// Worker thread of scripts/detector/lofo.ts: fits the folds it was given, posting each result.
import { parentPort, workerData } from "node:worker_threads";
import { fold, type FoldJob } from "./lofo";

const job = workerData as FoldJob;
for (const file of job.files) parentPort!.postMessage(fold(job.cases, job.settings, file));
