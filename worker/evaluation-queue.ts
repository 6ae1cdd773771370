import { evaluateSnapshot } from "@/lib/alerts/evaluate-snapshot";
import { fillContextTokens } from "@/lib/context-tokens/fill-context-tokens";
import type { ServiceContext } from "@/lib/context";
import { FairQueue } from "@/lib/workers/fair-queue";
import { ContextBudgetChecks } from "./context-budget-checks";

export type EvaluationRequest = {
  ctx: ServiceContext;
  serverId: string;
  /** "created": a new snapshot (every rule runs); "confirmed": a catch-up of an unjudged one. */
  kind: "created" | "confirmed";
  /**
   * The server's first snapshot (no earlier one to change from): judged in the first-look lane,
   * which yields to waiting listings. A change to a known server — a possible rug pull — is judged
   * in the change lane, which never waits for a sweep.
   */
  firstLook?: boolean;
  leaseHolder: string;
  log: (line: string) => void;
};

export type EvaluationQueueOptions = {
  /** Evaluations run at once in each lane. */
  width: number;
  /** True while listings wait for a slot: first looks hold back then (a sweep stores snapshots first). */
  listingsWaiting?: () => boolean;
  /** The longest a first look holds back for listings (ms); then it runs anyway. */
  maxYieldMs?: number;
  /** Least time between two context-budget checks of one team (ms). */
  budgetCheckGapMs?: number;
};

const YIELD_POLL_MS = 100;
export const MAX_FIRST_LOOK_YIELD_MS = 60_000;

/**
 * Alert evaluation off the listing path (issue 12): a listing's slot is given back once its
 * snapshot is stored, and the judging runs here, a few at a time, fair across teams, in two lanes:
 * - changes to servers already seen (a rug pull is judged at once, never behind a sweep);
 * - first looks at new servers, which step aside while listings wait for a slot or a pushed
 *   change is being listed (holdFirstLooks; for at most
 *   maxYieldMs): during a sweep of thousands of new servers the CPU goes to storing snapshots, and
 *   their judgements follow (measured in bench/RESULTS.md: the sweep shortens, the judgements end
 *   at about the same time as when they competed).
 * Requests for a server coalesce (evaluation always judges the server's latest snapshot). A
 * snapshot whose evaluation fails or never runs (worker killed, lease handed over) stays unjudged,
 * and the next listing of it, by whichever worker owns it then, evaluates it as a catch-up.
 */
export class EvaluationQueue {
  private readonly pending = new Map<string, EvaluationRequest & { at: number }>();
  private readonly changes: FairQueue;
  private readonly firstLooks: FairQueue;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly maxYieldMs: number;
  private heldUntil = 0;
  /** Diagnostics and tests: first looks that held back for listings, and for how long in total. */
  readonly stats = { yielded: 0, yieldedMs: 0 };
  /** After a snapshot is judged, its team's total against the team's context budget. */
  readonly budgets: ContextBudgetChecks;

  constructor(private readonly options: EvaluationQueueOptions) {
    this.changes = new FairQueue({ width: options.width });
    this.firstLooks = new FairQueue({ width: options.width });
    this.maxYieldMs = options.maxYieldMs ?? MAX_FIRST_LOOK_YIELD_MS;
    this.budgets = new ContextBudgetChecks(options.budgetCheckGapMs);
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
    this.pending.set(job.serverId, { ...job, at: Date.now() });
    const run = this.run(job.serverId, job.ctx.tenantId, job.firstLook === true);
    this.inFlight.add(run);
    void run.finally(() => this.inFlight.delete(run));
  }

  private async run(serverId: string, tenantId: string, firstLook: boolean): Promise<void> {
    const release = await (firstLook ? this.firstLooks : this.changes).acquire(tenantId);
    try {
      if (firstLook) await this.yieldToListings(serverId);
      const job = this.pending.get(serverId);
      this.pending.delete(serverId);
      if (!job) return;
      try {
        // The listing stored its new versions uncounted (recordSnapshot, tokens "later"): counted
        // here, before the budget check below reads the team's total.
        await fillContextTokens(job.ctx.db, tenantId, serverId);
      } catch (error) {
        job.log(`could not count context tokens: ${(error as Error).message}`);
      }
      try {
        const evaluation = await evaluateSnapshot(job.ctx, { serverId, trigger: job.kind, leaseHolder: job.leaseHolder });
        const { opened, updated, resolved, autoAccepted } = evaluation;
        if (opened.length || updated.length || resolved.length || autoAccepted.length) {
          job.log(`alerts: ${opened.length} opened, ${updated.length} updated, ${resolved.length} resolved; ${autoAccepted.length} change(s) auto-accepted`);
        }
        if (evaluation.snapshotId) this.budgets.request({ ctx: job.ctx, trigger: { serverId, snapshotId: evaluation.snapshotId }, log: job.log });
      } catch (error) {
        job.log(`could not evaluate alerts: ${(error as Error).message}`);
      }
    } finally {
      release();
    }
  }

  /** First looks not started yet wait until `ms` from now (a pushed change is being listed). */
  holdFirstLooks(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, Date.now() + ms);
  }

  /** Holds a first look (already in its slot, so only `width` of them poll) while listings wait or a change is held for. */
  private async yieldToListings(serverId: string): Promise<void> {
    const listings = this.options.listingsWaiting ?? (() => false);
    const waiting = () => listings() || Date.now() < this.heldUntil;
    if (!waiting()) return;
    const started = Date.now();
    const requestedAt = this.pending.get(serverId)?.at ?? started;
    this.stats.yielded++;
    while (waiting() && Date.now() - requestedAt < this.maxYieldMs && this.pending.has(serverId)) {
      await new Promise((resolve) => setTimeout(resolve, YIELD_POLL_MS));
    }
    this.stats.yieldedMs += Date.now() - started;
  }

  /** Waits until every requested evaluation has run (tests). */
  async drainWithoutDropping(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.budgets.drain();
  }

  /** Shutdown: evaluations not started yet are dropped (their snapshots stay unjudged and get a catch-up later); running ones finish. */
  async drain(): Promise<void> {
    this.pending.clear();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.budgets.drain();
  }
}
