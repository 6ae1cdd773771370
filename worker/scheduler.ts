import type { ToolListCache } from "@/lib/cache/tool-list-cache";
import type { Db } from "@/lib/db";
import { DiscoverySession, type DiscoveryOptions } from "@/lib/discovery/discovery-session";
import type { TargetFetches } from "@/lib/discovery/node/guarded-fetch";
import type { PrivateTargetsPolicy } from "@/lib/env";
import type { Logger } from "@/lib/logger";
import { listRunnableServers, listServerHeads, type RunnableServer } from "@/lib/servers/list-runnable-servers";
import { FairQueue } from "@/lib/workers/fair-queue";
import { acquireLeases, fairShare, LEASE_TTL_MS, releaseLeases, renewLeases } from "@/lib/workers/leases";
import { EvaluationQueue } from "./evaluation-queue";
import { IdentityProber, type IdentityProberOptions } from "./identity-prober";
import { createSessionSink } from "./session-sink";
import { StoredOAuthProvider } from "@/lib/oauth/stored-provider";

/** `head`: the config hash plus the right to private targets; a change of either restarts the session. */
type Running = { head: string; session: DiscoverySession };
const headOf = (s: { configHash: string; privateTargets: boolean }) => `${s.configHash}:${s.privateTargets ? "private" : "public"}`;

export type SchedulerOptions = {
  discovery: Omit<DiscoveryOptions, "pollIntervalMs" | "verdict" | "admit" | "fetch">;
  /** The guarded fetches (createTargetFetches): each server's team right picks one. No unguarded fallback. */
  targets: Pick<TargetFetches, "for">;
  /** TOOLWATCH_PRIVATE_TARGETS (privateTargetsPolicy()): who may reach private and loopback addresses. */
  privateTargets: PrivateTargetsPolicy;
  leaseTtlMs?: number;
  /** A worker whose heartbeat is younger than this counts when sharing servers out. */
  liveWorkerWindowMs: number;
  /** "off" refuses to run stdio servers on this host at all. */
  stdioPolicy: "off" | "admins" | "all";
  /** The tool-list cache every session of this worker shares (lib/cache); absent = always fetch. */
  listCache?: ToolListCache;
  /**
   * Lease renewal, takeover and sharing run on this client (its own small pool), so a pool busy
   * with listings can never starve them. Default: the main client.
   */
  leaseDb?: Db;
  /** Connects and listings (with their stores) in flight at once; default 32. */
  concurrency?: number;
  /** Of those, how many may be stdio servers (each connect starts a process); default 4. */
  stdioConcurrency?: number;
  /** Alert evaluations run at once, off the listing slots; default 2. */
  evaluationConcurrency?: number;
  /** Listings per minute a team may start (0 = unlimited); read on each admission. */
  listingsPerMinute?: (tenantId: string) => number;
  /** Identity probes (worker/identity-prober.ts); absent = none. */
  identityProbes?: IdentityProberOptions;
};

/** After a failed renewal, try again this soon (well before the lease's TTL runs out). */
const RENEW_RETRY_MS = 1_000;

/**
 * Each tick: renew this worker's leases, give back any beyond its fair share, take free or
 * expired ones, then reconcile running sessions against the owned servers by config hash (new
 * start, edited restart, disabled/deleted stop). Ticks are serialised and coalesced, so a burst of
 * NOTIFYs (a bulk registration) costs one more tick, not one each. Sessions work through one
 * bounded queue, fair across teams.
 */
export class Scheduler {
  private readonly running = new Map<string, Running>();
  /** Sessions still winding down after a stop (awaited only by stopAll). */
  private readonly winding = new Set<Promise<void>>();
  private owned = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Set by stopAll(): no tick runs any more (a NOTIFY during shutdown must not start sessions). */
  private stopping = false;
  private readonly ttl: number;
  private readonly leaseDb: Db;
  readonly queue: FairQueue;
  readonly evaluations: EvaluationQueue;
  private readonly spawnQueue: FairQueue;
  private readonly prober: IdentityProber | undefined;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly workerId: string,
    private readonly options: SchedulerOptions,
    /** The worker's logger (bound to its workerId); each session logs through a child bound to its serverId. */
    private readonly log: Logger,
  ) {
    this.ttl = options.leaseTtlMs ?? LEASE_TTL_MS;
    this.leaseDb = options.leaseDb ?? db;
    this.queue = new FairQueue({ width: options.concurrency ?? 32, ratePerMinute: options.listingsPerMinute });
    this.spawnQueue = new FairQueue({ width: options.stdioConcurrency ?? 4 });
    this.evaluations = new EvaluationQueue({ width: options.evaluationConcurrency ?? 2, listingsWaiting: () => this.queue.queued > 0 });
    if (options.identityProbes) this.prober = new IdentityProber({ db, workerId, targets: options.targets, queue: this.queue, spawnQueue: this.spawnQueue, log: (line) => log.info({ component: "identity-probes" }, line) }, options.identityProbes);
  }

  get size(): number {
    return this.running.size;
  }

  /** Running sessions by status (the metrics' sessions gauge, read at scrape time). */
  sessionStatusCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const { session } of this.running.values()) counts[session.currentStatus] = (counts[session.currentStatus] ?? 0) + 1;
    return counts;
  }

  /** How often tick() should run so leases never lapse while we are healthy. */
  get tickIntervalMs(): number {
    return Math.max(500, Math.floor(this.ttl / 3));
  }

  /** Ticks now and then every tickIntervalMs, so leases are renewed while the worker lives. */
  start(): Promise<void> {
    this.timer ??= setInterval(() => void this.tick(), this.tickIntervalMs);
    return this.tick();
  }

  /** Runs a tick after the current one; calls made while one is already queued join it. */
  tick(): Promise<void> {
    if (this.stopping) return this.chain;
    if (this.pending) return this.pending;
    const next = this.chain
      .then(() => {
        this.pending = undefined;
        return this.tickNow();
      })
      .catch((error: Error) => this.log.warn(`scheduler tick failed: ${error.message}`));
    this.pending = next;
    this.chain = next;
    return next;
  }

  private async tickNow(): Promise<void> {
    let held: string[];
    try {
      held = await renewLeases(this.leaseDb, this.workerId, this.ttl);
    } catch (error) {
      // The database is unreachable or overloaded. Sessions keep going (every write is fenced by
      // the lease, so nothing can be written for a server another worker took meanwhile); leases
      // that are still ours are renewed as soon as the database answers again.
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => void this.tick(), RENEW_RETRY_MS);
      throw new Error(`lease renewal failed (${(error as Error).message}); retrying in ${RENEW_RETRY_MS} ms`, { cause: error });
    }
    const heldSet = new Set(held);
    const lost = [...this.owned].filter((id) => !heldSet.has(id));
    if (lost.length) this.log.warn(`lost ${lost.length} lease(s) (server deleted, or taken by another worker); stopping those sessions`);
    void this.stopSessions(lost);
    this.owned = heldSet;

    const { share } = await fairShare(this.leaseDb, this.options.liveWorkerWindowMs);
    if (this.owned.size > share) {
      const extra = [...this.owned].slice(0, this.owned.size - share);
      this.log.info(`handing ${extra.length} server(s) to other workers (share ${share})`);
      await this.stopBeforeRelease(extra);
      await releaseLeases(this.leaseDb, this.workerId, extra);
      extra.forEach((id) => this.owned.delete(id));
    }
    for (const id of await acquireLeases(this.leaseDb, this.workerId, share - this.owned.size, this.ttl)) this.owned.add(id);

    // Cheap heads first; configs (with secrets to decrypt) only for sessions that must (re)start.
    const heads = await listServerHeads(this.db, [...this.owned], this.options.privateTargets);
    const wanted = new Map(heads.map((h) => [h.serverId, headOf(h)]));
    const gone = [...this.owned].filter((id) => !wanted.has(id));
    await this.stopBeforeRelease([...this.running.keys()].filter((id) => !wanted.has(id)));
    if (gone.length) {
      await releaseLeases(this.leaseDb, this.workerId, gone);
      gone.forEach((id) => this.owned.delete(id));
    }
    const changed = heads.filter((h) => this.running.get(h.serverId)?.head !== headOf(h)).map((h) => h.serverId);
    const starting = await listRunnableServers(this.db, this.key, this.options.privateTargets, changed);
    await Promise.all(starting.map((server) => this.startSession(server)));
  }

  private async startSession(server: RunnableServer): Promise<void> {
    const current = this.running.get(server.serverId);
    if (current) {
      this.log.info({ serverId: server.serverId }, `${server.name}: configuration changed, restarting session`);
      this.running.delete(server.serverId);
      await current.session.stop();
    }
    const log = this.log.child({ serverId: server.serverId, tenantId: server.tenantId });
    const ctx = { tenantId: server.tenantId, actor: { kind: "system" as const, id: this.workerId }, db: this.db };
    const sink = createSessionSink(ctx, server, this.workerId, log, this.evaluations, this.options.listCache, (outcome) => this.prober?.listed(server.serverId, outcome));
    if (server.config.transport === "stdio" && this.options.stdioPolicy === "off") {
      await sink.state({ status: "down", reason: "stdio servers are disabled", error: { code: "STDIO_DISABLED", message: "This instance does not run stdio servers (TOOLWATCH_STDIO_POLICY=off)" } });
      return;
    }
    const session = new DiscoverySession(
      server.config,
      {
        ...this.options.discovery,
        // Decided per server: its team's right to private targets (TOOLWATCH_PRIVATE_TARGETS).
        fetch: this.options.targets.for(server.privateTargets),
        pollIntervalMs: server.pollIntervalSeconds * 1000,
        verdict: server.verdict,
        // Many servers taken at once (start-up, takeover, a bulk registration) wait their turn
        // here instead of all connecting and writing in the same instant.
        admit: (signal) => this.admit(server, signal),
        // This team's OAuth tokens for this server, from the database; never a browser redirect.
        ...(server.auth && server.config.transport !== "stdio" ? { authProvider: new StoredOAuthProvider(this.db, this.key, { tenantId: server.tenantId, serverId: server.serverId }, server.auth, { kind: "worker" }) } : {}),
      },
      sink,
    );
    this.running.set(server.serverId, { head: headOf(server), session });
    this.prober?.track(server);
    session.start();
  }

  /**
   * Stops sessions without holding up the tick: a session in the middle of a slow listing may
   * take a while to wind down, and lease renewal must never wait for it (its writes are fenced,
   * so a session still winding down can no longer write for a server it lost).
   */
  /**
   * Sessions we still hold leases for (handed over, disabled, deleted) get a moment to record
   * "stopped" while the lease still fences their write; a session slow to wind down is not waited
   * for longer than a third of the lease TTL, so renewal never slips.
   */
  private async stopBeforeRelease(serverIds: string[]): Promise<void> {
    if (serverIds.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(5_000, this.ttl / 3))));
    await Promise.race([this.stopSessions(serverIds), patience]);
    clearTimeout(timer);
  }

  /** A slot of the fair queue; stdio servers also take one of the few process-spawning slots. */
  private async admit(server: RunnableServer, signal: AbortSignal): Promise<() => void> {
    const release = await this.queue.acquire(server.tenantId, signal);
    if (server.config.transport !== "stdio") return release;
    try {
      const spawnRelease = await this.spawnQueue.acquire(server.tenantId, signal);
      return () => {
        spawnRelease();
        release();
      };
    } catch (error) {
      release();
      throw error;
    }
  }

  private stopSessions(serverIds: string[]): Promise<void> {
    const stopping = serverIds.flatMap((id) => {
      const run = this.running.get(id);
      this.running.delete(id);
      this.prober?.untrack(id);
      return run ? [run.session.stop()] : [];
    });
    const all = Promise.all(stopping).then(() => undefined);
    this.winding.add(all);
    void all.finally(() => this.winding.delete(all));
    return all;
  }

  refresh(serverId: string): boolean {
    const run = this.running.get(serverId);
    run?.session.refresh("manual");
    return Boolean(run);
  }

  sessionOf(serverId: string): DiscoverySession | undefined {
    return this.running.get(serverId)?.session;
  }

  /**
   * Stop every session, then hand the leases back so another worker takes over at once. With a
   * grace period (worker shutdown), listings already running are first let finish and be stored,
   * for at most graceMs, while the leases that fence their writes are kept renewed.
   */
  async stopAll(graceMs = 0): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    this.timer = undefined;
    await this.chain;
    await this.prober?.stopAll();
    if (graceMs > 0) await this.drainSessions(graceMs);
    await this.stopSessions([...this.running.keys()]);
    await Promise.all([...this.winding]);
    await this.evaluations.drain();
    await releaseLeases(this.leaseDb, this.workerId).catch((error: Error) => this.log.warn(`could not release leases: ${error.message}`));
    this.owned.clear();
  }

  private async drainSessions(graceMs: number): Promise<void> {
    const renew = setInterval(() => {
      renewLeases(this.leaseDb, this.workerId, this.ttl).catch((error: Error) => this.log.warn(`lease renewal failed while draining: ${error.message}`));
    }, this.tickIntervalMs);
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
    const drained = Promise.all([...this.running.values()].map((run) => run.session.drain())).then(() => "drained" as const);
    const outcome = await Promise.race([drained, patience]);
    clearTimeout(timer);
    clearInterval(renew);
    if (outcome === "timeout") this.log.warn(`listings still running after the ${graceMs} ms grace period; stopping them`);
  }
}
