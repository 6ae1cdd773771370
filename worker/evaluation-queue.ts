import { evaluateSnapshot } from "../lib/alerts/evaluate-snapshot";
import type { ServiceContext } from "../lib/context";
import { FairQueue } from "../lib/workers/fair-queue";

export type EvaluationRequest = {
  ctx: ServiceContext;
  serverId: string;
  /** "created": a new snapshot (every rule runs); "confirmed": a catch-up of an unjudged one. */
  kind: "created" | "confirmed";
  leaseHolder: string;
  log: (line: string) => void;
};

/**
 * Alert evaluation off the listing path (issue 12): a listing's slot is given back once its
 * snapshot is stored, and the judging runs here, a few at a time, fair across teams. During a
 * sweep of thousands of new servers the snapshots land first and their judgements follow; at
 * steady state the queue is empty and a change is judged at once. Requests for a server coalesce
 * (evaluation always judges the server's latest snapshot). A snapshot whose evaluation fails or
 * never runs (worker killed, lease handed over) stays unjudged, and the next listing of it, by
 * whichever worker owns it then, evaluates it as a catch-up.
 */
export class EvaluationQueue {
  private readonly pending = new Map<string, EvaluationRequest>();
  private readonly queue: FairQueue;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(width: number) {
    this.queue = new FairQueue({ width });
  }

  get waiting(): number {
    return this.pending.size;
  }

  request(job: EvaluationRequest): void {
    const queued = this.pending.get(job.serverId);
    if (queued) {
      if (job.kind === "created") queued.kind = "created";
      return;
    }
    this.pending.set(job.serverId, { ...job });
    const run = this.run(job.serverId, job.ctx.tenantId);
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async run(serverId: string, tenantId: string): Promise<void> {
    const release = await this.queue.acquire(tenantId);
    const job = this.pending.get(serverId);
    this.pending.delete(serverId);
    try {
      if (!job) return;
      const evaluation = await evaluateSnapshot(job.ctx, { serverId, trigger: job.kind, leaseHolder: job.leaseHolder });
      const { opened, updated, resolved, autoAccepted } = evaluation;
      if (opened.length || updated.length || resolved.length || autoAccepted.length) {
        job.log(`alerts: ${opened.length} opened, ${updated.length} updated, ${resolved.length} resolved; ${autoAccepted.length} change(s) auto-accepted`);
      }
    } catch (error) {
      job?.log(`could not evaluate alerts: ${(error as Error).message}`);
    } finally {
      release();
    }
  }

  /** Waits until every requested evaluation has run (tests). */
  async drainWithoutDropping(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Shutdown: evaluations not started yet are dropped (their snapshots stay unjudged and get a catch-up later); running ones finish. */
  async drain(): Promise<void> {
    this.pending.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
