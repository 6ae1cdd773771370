import type { ToolListCache } from "../lib/cache/tool-list-cache";
import type { Db } from "../lib/db";
import { jitter, sleep } from "../lib/discovery/backoff";
import { DiscoverySession, type DiscoveryOptions } from "../lib/discovery/discovery-session";
import { listRunnableServers, type RunnableServer } from "../lib/servers/list-runnable-servers";
import { acquireLeases, fairShare, LEASE_TTL_MS, releaseLeases, renewLeases } from "../lib/workers/leases";
import { createSessionSink } from "./session-sink";

type Running = { configHash: string; session: DiscoverySession };

export type SchedulerOptions = {
  discovery: Omit<DiscoveryOptions, "pollIntervalMs" | "verdict">;
  leaseTtlMs?: number;
  /** A worker whose heartbeat is younger than this counts when sharing servers out. */
  liveWorkerWindowMs: number;
  /** "off" refuses to run stdio servers on this host at all. */
  stdioPolicy: "off" | "admins" | "all";
  /** The tool-list cache every session of this worker shares (lib/cache); absent = always fetch. */
  listCache?: ToolListCache;
  /** Spread session starts over this window when many servers are taken at once. */
  staggerMs?: number;
};

/**
 * Each tick: renew this worker's leases, give back any beyond its fair share, take free or
 * expired ones, then reconcile running sessions against the owned servers by config hash (new
 * start, edited restart, disabled/deleted stop). Ticks are serialised so timer and NOTIFY
 * triggers never race.
 */
export class Scheduler {
  private readonly running = new Map<string, Running>();
  private owned = new Set<string>();
  private lastRenewOk = Date.now();
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly ttl: number;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    private readonly workerId: string,
    private readonly options: SchedulerOptions,
    private readonly log: (line: string) => void,
  ) {
    this.ttl = options.leaseTtlMs ?? LEASE_TTL_MS;
  }

  get size(): number {
    return this.running.size;
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

  tick(): Promise<void> {
    this.chain = this.chain.then(() => this.tickNow()).catch((error: Error) => this.log(`scheduler tick failed: ${error.message}`));
    return this.chain;
  }

  private async tickNow(): Promise<void> {
    let held: string[];
    try {
      held = await renewLeases(this.db, this.workerId, this.ttl);
      this.lastRenewOk = Date.now();
    } catch (error) {
      // Cannot reach the database: once our leases may have lapsed, another worker may own the
      // servers, so stop working on them rather than risk two owners.
      if (Date.now() - this.lastRenewOk > this.ttl * 0.7) {
        this.log(`lease renewal failing (${(error as Error).message}); stopping all sessions`);
        await this.stopSessions([...this.running.keys()]);
        this.owned.clear();
      }
      throw error;
    }
    const heldSet = new Set(held);
    const lost = [...this.owned].filter((id) => !heldSet.has(id));
    if (lost.length) this.log(`lost ${lost.length} lease(s); stopping those sessions`);
    await this.stopSessions(lost);
    this.owned = heldSet;

    const { share } = await fairShare(this.db, this.options.liveWorkerWindowMs);
    if (this.owned.size > share) {
      const extra = [...this.owned].slice(0, this.owned.size - share);
      this.log(`handing ${extra.length} server(s) to other workers (share ${share})`);
      await this.stopSessions(extra);
      await releaseLeases(this.db, this.workerId, extra);
      extra.forEach((id) => this.owned.delete(id));
    }
    for (const id of await acquireLeases(this.db, this.workerId, share - this.owned.size, this.ttl)) this.owned.add(id);

    const desired = await listRunnableServers(this.db, this.key, [...this.owned]);
    const wanted = new Set(desired.map((d) => d.serverId));
    const gone = [...this.owned].filter((id) => !wanted.has(id));
    await this.stopSessions([...this.running.keys()].filter((id) => !wanted.has(id)));
    if (gone.length) {
      await releaseLeases(this.db, this.workerId, gone);
      gone.forEach((id) => this.owned.delete(id));
    }
    const starting = desired.filter((s) => this.running.get(s.serverId)?.configHash !== s.configHash);
    const stagger = starting.length > 1 ? Math.min(this.options.staggerMs ?? 5_000, 100 * starting.length) : 0;
    await Promise.all(starting.map((server) => this.startSession(server, stagger)));
  }

  private async startSession(server: RunnableServer, staggerMs: number): Promise<void> {
    const current = this.running.get(server.serverId);
    if (current) {
      this.log(`${server.name}: configuration changed, restarting session`);
      this.running.delete(server.serverId);
      await current.session.stop();
    }
    const log = (line: string) => this.log(`${server.name}: ${line}`);
    const ctx = { tenantId: server.tenantId, actor: { kind: "system" as const, id: this.workerId }, db: this.db };
    const sink = createSessionSink(ctx, server, this.workerId, log, this.options.listCache);
    if (server.config.transport === "stdio" && this.options.stdioPolicy === "off") {
      await sink.state({ status: "down", reason: "stdio servers are disabled", error: { code: "STDIO_DISABLED", message: "This instance does not run stdio servers (TOOLWATCH_STDIO_POLICY=off)" } });
      return;
    }
    const session = new DiscoverySession(
      server.config,
      { ...this.options.discovery, pollIntervalMs: server.pollIntervalSeconds * 1000, verdict: server.verdict },
      sink,
    );
    this.running.set(server.serverId, { configHash: server.configHash, session });
    // Many servers taken at once (start-up, takeover) must not all spawn in the same instant.
    if (staggerMs) await sleep(Math.random() * jitter(staggerMs));
    if (this.running.get(server.serverId)?.session === session) session.start();
  }

  private async stopSessions(serverIds: string[]): Promise<void> {
    const sessions = serverIds.flatMap((id) => {
      const run = this.running.get(id);
      this.running.delete(id);
      return run ? [run.session] : [];
    });
    await Promise.all(sessions.map((s) => s.stop()));
  }

  refresh(serverId: string): boolean {
    const run = this.running.get(serverId);
    run?.session.refresh("manual");
    return Boolean(run);
  }

  sessionOf(serverId: string): DiscoverySession | undefined {
    return this.running.get(serverId)?.session;
  }

  /** Stop every session, then hand the leases back so another worker takes over at once. */
  async stopAll(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.chain;
    await this.stopSessions([...this.running.keys()]);
    await releaseLeases(this.db, this.workerId).catch((error: Error) => this.log(`could not release leases: ${error.message}`));
    this.owned.clear();
  }
}
