import pg from "pg";
import PgBoss from "pg-boss";
import type { Db } from "@/lib/db";
import type { TargetFetches } from "@/lib/discovery/node/guarded-fetch";
import type { PrivateTargetsPolicy } from "@/lib/env";
import { silentLogger, type Logger } from "@/lib/logger";
import { attemptWebhookDelivery, type DeliveryDeps } from "@/lib/webhooks/deliver-webhook";
import { parseWebhookNotice, WEBHOOK_CHANNEL } from "@/lib/webhooks/queue-channel";
import { countWebhookAttempt } from "@/lib/metrics/worker-metrics";

/**
 * Durable webhook delivery: pending WebhookDelivery rows become pg-boss jobs (schema "pgboss" in
 * the same database, created by pg-boss on start), one job per delivery whose job id IS the
 * delivery id (plus singletonKey = delivery id), so however many workers see the NOTIFY or run
 * the sweep, a delivery has at most one job, and pg-boss hands each job to one worker at a time
 * (SKIP LOCKED). A failed attempt fails the job, and pg-boss retries it with exponential
 * backoff; the last failure marks the delivery dead. Delivery is at-least-once: a
 * worker that dies between the receiver's 2xx and the row update sends it again (same
 * X-Toolwatch-Delivery id), after the job expires.
 *
 * Wake-ups: the NOTIFY sent in the transaction that queued the rows, a sweep on start and every
 * sweepIntervalMs for rows whose job is missing (a NOTIFY lost while this worker was down).
 */
export const WEBHOOK_QUEUE = "webhook-delivery";

export type WebhookDispatcherOptions = {
  databaseUrl: string;
  db: Db;
  /** Instance key that unseals signing secrets. */
  key: Buffer;
  /** The guarded fetches (createTargetFetches, no streaming, small response cap); the team's right picks one. */
  targets: Pick<TargetFetches, "for">;
  /** TOOLWATCH_PRIVATE_TARGETS (privateTargetsPolicy()). */
  policy: PrivateTargetsPolicy;
  /** Default: silent. */
  log?: Logger;
  schema?: string;
  /** Retries after the first attempt (total attempts = retryLimit + 1). Default 8. */
  retryLimit?: number;
  /** Seconds before the first retry; with backoff each retry waits about twice as long (+ jitter). Default 5. */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** Per-attempt HTTP timeout. Default 10 s. */
  timeoutMs?: number;
  sweepIntervalMs?: number;
  pollingIntervalSeconds?: number;
  /** Deliveries attempted at once by this worker. Default 5. */
  concurrency?: number;
  /** After pg-boss fails to start, try again after this long. Default 60 s. */
  restartDelayMs?: number;
};

export type WebhookDispatcher = {
  /** Whether pg-boss is up (false while the queue could not be started). */
  readonly running: boolean;
  /** Queues a job for every pending or retrying delivery that lacks one; returns how many were queued. */
  sweep(): Promise<number>;
  /** Jobs queued and not yet being attempted (one count query); undefined while pg-boss is down. */
  queueSize(): Promise<number | undefined>;
  /** Takes no new jobs; attempts in flight get graceMs (default 3 s) to finish before they are cut off. */
  stop(graceMs?: number): Promise<void>;
};

type JobData = { deliveryId: string };
const TERMINAL_JOB_STATES = new Set(["completed", "cancelled", "failed"]);

export async function startWebhookDispatcher(opts: WebhookDispatcherOptions): Promise<WebhookDispatcher> {
  const log = (opts.log ?? silentLogger()).child({ component: "webhooks" });
  const retry = { retryLimit: opts.retryLimit ?? 8, retryDelay: opts.retryDelaySeconds ?? 5, retryBackoff: opts.retryBackoff ?? true };
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const concurrency = opts.concurrency ?? 5;
  const pollMs = (opts.pollingIntervalSeconds ?? 2) * 1000;
  // A job whose worker died mid-attempt is expired by pg-boss after this and retried.
  const expireInSeconds = Math.ceil(timeoutMs / 1000) + 60;
  const jobOptions = { ...retry, expireInSeconds };
  // Longest legitimate quiet time of a retrying delivery: past it, a row whose job ended is orphaned.
  const longestWaitMs = (retry.retryBackoff ? retry.retryDelay * 2 ** Math.min(16, retry.retryLimit + 1) : retry.retryDelay) * 1000 + expireInSeconds * 1000 + 60_000;
  const abort = new AbortController();
  const deps: DeliveryDeps = { db: opts.db, key: opts.key, targets: opts.targets, policy: opts.policy, timeoutMs, signal: abort.signal };

  let boss: PgBoss | undefined;
  let stopped = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let sweeping: Promise<number> | undefined;
  let loop: Promise<void> | undefined;
  const inflight = new Set<Promise<void>>();
  let nudged = false;
  let wake: (() => void) | undefined;
  const nudge = () => {
    nudged = true;
    wake?.();
  };

  // One job = one attempt. complete/fail are awaited before the job leaves the pool (pg-boss's
  // own work() completes a batch after its handler returns, which can land on a job already on
  // its next attempt if the handler failed it itself).
  const runJob = async (b: PgBoss, job: PgBoss.JobWithMetadata<JobData>): Promise<void> => {
    const { deliveryId } = job.data;
    try {
      const result = await attemptWebhookDelivery(deps, deliveryId, { finalAttempt: job.retryCount >= job.retryLimit });
      countWebhookAttempt(result.outcome);
      if (result.outcome === "retry") return void (await b.fail(WEBHOOK_QUEUE, job.id, { message: result.error }));
      if (result.outcome === "dead") log.warn({ deliveryId }, `webhooks: delivery ${deliveryId} is dead after ${job.retryCount + 1} attempt(s): ${result.error}`);
      await b.complete(WEBHOOK_QUEUE, job.id);
    } catch (error) {
      countWebhookAttempt("error");
      log.warn({ deliveryId }, `webhooks: delivery ${deliveryId}: ${(error as Error).message}`);
      await b.fail(WEBHOOK_QUEUE, job.id, { message: (error as Error).message }).catch(() => undefined);
    }
  };

  // A small pool: up to `concurrency` attempts at once, fetching more as slots free up, so one
  // slow receiver (up to timeoutMs) does not hold the others back.
  const runLoop = async (b: PgBoss): Promise<void> => {
    while (!stopped) {
      nudged = false;
      const free = concurrency - inflight.size;
      if (free > 0) {
        const jobs = await b.fetch<JobData>(WEBHOOK_QUEUE, { batchSize: free, includeMetadata: true }).catch((error: Error) => {
          log.warn(`webhooks: fetching jobs failed: ${error.message}`);
          return [];
        });
        for (const job of jobs) {
          const running: Promise<void> = runJob(b, job).finally(() => {
            inflight.delete(running);
            nudge();
          });
          inflight.add(running);
        }
      }
      if (nudged || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  const queue = async (deliveryIds: string[]): Promise<string[]> => {
    const b = boss;
    if (!b || stopped) return [];
    const queued: string[] = [];
    for (const id of deliveryIds) {
      const jobId = await b.send(WEBHOOK_QUEUE, { deliveryId: id } satisfies JobData, { ...jobOptions, id, singletonKey: id });
      if (jobId) queued.push(id);
    }
    if (queued.length > 0) nudge();
    return queued;
  };

  const sweepOnce = async (): Promise<number> => {
    const rows = await opts.db.webhookDelivery.findMany({
      where: { status: { in: ["pending", "failed"] } },
      select: { id: true, updatedAt: true },
      orderBy: { createdAt: "asc" },
      take: 500,
    });
    const queued = new Set(await queue(rows.map((r) => r.id)));
    const staleBefore = Date.now() - longestWaitMs;
    for (const row of rows) {
      if (queued.has(row.id) || row.updatedAt.getTime() > staleBefore || !boss) continue;
      // The row is still open but its job has ended (e.g. expired on its last attempt): give up on it.
      const job = await boss.getJobById<JobData>(WEBHOOK_QUEUE, row.id, { includeArchive: true });
      if (job && TERMINAL_JOB_STATES.has(job.state)) {
        await opts.db.webhookDelivery.updateMany({ where: { id: row.id, status: { in: ["pending", "failed"] } }, data: { status: "dead" } });
      }
    }
    return queued.size;
  };

  const sweep = (): Promise<number> => {
    // Single flight: overlapping triggers share one sweep.
    sweeping ??= sweepOnce()
      .catch((error: Error) => {
        log.warn(`webhooks: sweep failed: ${error.message}`);
        return 0;
      })
      .finally(() => (sweeping = undefined));
    return sweeping;
  };

  const start = async (): Promise<void> => {
    const b = new PgBoss({ connectionString: opts.databaseUrl, schema: opts.schema ?? "pgboss", max: 4, application_name: "toolwatch-webhooks", schedule: false });
    b.on("error", (error) => log.warn(`webhooks: queue error: ${error.message}`));
    try {
      await b.start();
      await b.createQueue(WEBHOOK_QUEUE, { name: WEBHOOK_QUEUE, policy: "standard", ...jobOptions });
      boss = b;
      loop = runLoop(b);
      log.info("webhooks: delivery queue started");
      void sweep();
    } catch (error) {
      boss = undefined;
      await b.stop({ graceful: false, wait: true }).catch(() => undefined);
      const delay = opts.restartDelayMs ?? 60_000;
      log.error(`webhooks: the delivery queue (pg-boss) could not start: ${(error as Error).message}. Discovery goes on; alert notifications stay queued in the database until it starts (next try in ${Math.round(delay / 1000)} s).`);
      if (!stopped) {
        restartTimer = setTimeout(() => void start(), delay);
        restartTimer.unref();
      }
    }
  };

  const listener = listenForNotices(opts.databaseUrl, (ids) => {
    if (ids) void queue(ids).catch((error: Error) => log.warn(`webhooks: queueing failed: ${error.message}`));
    else void sweep();
  }, () => void sweep(), log);
  await start();
  const sweeper = setInterval(() => void sweep(), opts.sweepIntervalMs ?? 30_000);
  sweeper.unref();

  return {
    get running() {
      return boss !== undefined;
    },
    sweep,
    queueSize: async () => (boss ? boss.getQueueSize(WEBHOOK_QUEUE) : undefined),
    stop: async (graceMs = 3_000) => {
      if (stopped) return;
      stopped = true;
      clearInterval(sweeper);
      clearTimeout(restartTimer);
      await listener.close();
      nudge();
      await loop;
      await sweeping;
      // Attempts in flight get the grace period to finish; then they are cut off, recorded as
      // failed, and retried later by whichever worker runs.
      const cutOff = setTimeout(() => abort.abort(), graceMs);
      await Promise.allSettled([...inflight]);
      clearTimeout(cutOff);
      const b = boss;
      boss = undefined;
      // Our own pool above ran the attempts (fetch, not work()), so nothing of pg-boss's is in flight now.
      await b?.stop({ graceful: true, timeout: 1_000, wait: true }).catch((error: Error) => log.warn(`webhooks: queue stop: ${error.message}`));
    },
  };
}

/** LISTEN on the webhook channel; reconnects with a capped delay and sweeps after reconnecting. */
function listenForNotices(url: string, onNotice: (deliveryIds: string[] | undefined) => void, onReconnect: () => void, log: Logger): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt = 0;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url, application_name: "toolwatch-webhooks-listen" });
    client = c;
    c.on("notification", (msg) => {
      if (msg.channel !== WEBHOOK_CHANNEL) return;
      const notice = parseWebhookNotice(msg.payload);
      if (notice) onNotice(notice.deliveryIds);
    });
    c.on("error", (error) => {
      log.warn(`webhooks: listener error: ${error.message}`);
      reconnect();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${WEBHOOK_CHANNEL}`);
      if (attempt > 0) onReconnect();
      attempt = 0;
    } catch (error) {
      if (!closed) log.warn(`webhooks: listener could not connect: ${(error as Error).message}`);
      reconnect();
    }
  };
  const reconnect = () => {
    if (closed || retryTimer) return;
    void client?.end().catch(() => undefined);
    client = undefined;
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, Math.min(10_000, 250 * 2 ** attempt));
    retryTimer.unref();
  };

  void connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retryTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
