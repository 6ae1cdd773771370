import { checkContextBudget, type BudgetTrigger } from "@/lib/alerts/context-budget-alert";
import type { ServiceContext } from "@/lib/context";

type Job = { ctx: ServiceContext; trigger: BudgetTrigger; log: (line: string) => void };

/**
 * The team's context-budget check after each judged snapshot, coalesced per team: one check runs
 * at a time per team, and requests arriving meanwhile become one more check (with the latest
 * trigger) at least `minGapMs` later. A sweep of 2,000 new servers of a team with a budget then
 * sums the team a few dozen times instead of 2,000 (each sum probes every server's latest snapshot).
 */
export class ContextBudgetChecks {
  private readonly pending = new Map<string, Job>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly minGapMs = 1_000) {}

  request(job: Job): void {
    const tenantId = job.ctx.tenantId;
    this.pending.set(tenantId, job);
    if (this.running.has(tenantId)) return;
    const loop = this.run(tenantId).finally(() => this.running.delete(tenantId));
    this.running.set(tenantId, loop);
  }

  private async run(tenantId: string): Promise<void> {
    for (;;) {
      const job = this.pending.get(tenantId);
      if (!job) return;
      this.pending.delete(tenantId);
      try {
        const outcome = await checkContextBudget(job.ctx, job.trigger);
        if (outcome) job.log(`context budget: the team's alert was ${outcome}`);
      } catch (error) {
        job.log(`could not check the team's context budget: ${(error as Error).message}`);
      }
      if (this.pending.has(tenantId)) await new Promise((resolve) => setTimeout(resolve, this.minGapMs));
    }
  }

  /** Waits for the checks in flight and those queued behind them (tests, shutdown). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}
