import type { ServiceContext } from "@/lib/context";
import type { Db } from "@/lib/db";
import { jitter } from "@/lib/discovery/backoff";
import type { ClientIdentity } from "@/lib/discovery/client-identities";
import { listToolsAs, type ProbeOptions } from "@/lib/discovery/identity-probe";
import type { TargetFetches } from "@/lib/discovery/node/guarded-fetch";
import { CLIENT_INFO } from "@/lib/discovery/open-connection";
import type { ToolLike } from "@/lib/diff/types";
import { compareIdentityLists, listHashOf } from "@/lib/identity-probes/compare-identity-lists";
import { loadEffectiveProbeSettings } from "@/lib/identity-probes/probe-settings";
import { recordIdentityRound, type IdentityProbeOutcome, type ProbeResult } from "@/lib/identity-probes/record-probe";
import { loadSnapshotTools } from "@/lib/snapshots/load-snapshot-tools";
import type { RunnableServer } from "@/lib/servers/list-runnable-servers";
import { secretRedactor } from "@/lib/servers/redact-secrets";
import { FairQueue } from "@/lib/workers/fair-queue";

export type IdentityProberOptions = {
  probe: Omit<ProbeOptions, "fetch" | "prior">;
  /** TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS; a team setting may override it. */
  defaultIntervalMs: number;
};

type Deps = {
  db: Db;
  workerId: string;
  targets: Pick<TargetFetches, "for">;
  /** The worker's listing queue: probes take its low-priority lane. */
  queue: FairQueue;
  /** The process-spawning slots (stdio probes start a process like any stdio connect). */
  spawnQueue: FairQueue;
  log: (line: string) => void;
};

type Tracked = { server: RunnableServer; redact: (text: string) => string; stop: AbortController; timer?: NodeJS.Timeout; dueAt?: number; running?: Promise<void>; again: boolean; probedOnce: boolean };

/**
 * Lists each owned server's tools under other clients' identities (docs/identity-probes.md): the
 * first time within a minute of the server's first snapshot, then every interval, and soon after
 * each change of its list. Probes are one-shot connections in the listing queue's low-priority
 * lane, through the server's own guarded fetch and credentials; results go to identity_probe rows
 * and the identity_divergence alert, never to snapshots. Nothing here ever throws to the caller.
 */
// Rounds (settings, reference snapshot, probe rows, alert) run at most this many at a time. A
// fleet's first snapshots all schedule a first probe within seconds of each other; unbounded,
// 2,000 rounds' reads and writes starved the pool the worker stores listings with ("Unable to
// start a transaction"), and list_changed → snapshot p95 went from 0.6 s to 8 s (bench/RESULTS.md).
const ROUND_WIDTH = 2;
// Sessions started within this window read their last probe times together (readLastProbes).
const LAST_PROBE_BATCH_MS = 50;

export class IdentityProber {
  private readonly tracked = new Map<string, Tracked>();
  private readonly rounds = new FairQueue({ width: ROUND_WIDTH });
  private readonly awaitingLastProbe = new Map<string, Tracked>();
  private lastProbeTimer?: NodeJS.Timeout;

  constructor(
    private readonly deps: Deps,
    private readonly options: IdentityProberOptions,
  ) {}

  /** A session started for this server (or restarted with a new config). */
  track(server: RunnableServer): void {
    this.untrack(server.serverId);
    const t: Tracked = { server, redact: secretRedactor(server.config), stop: new AbortController(), again: false, probedOnce: false };
    this.tracked.set(server.serverId, t);
    // Resume the schedule across restarts and hand-overs: the last probe time is stored.
    this.awaitingLastProbe.set(server.serverId, t);
    if (!this.lastProbeTimer) {
      this.lastProbeTimer = setTimeout(() => void this.readLastProbes(), LAST_PROBE_BATCH_MS);
      this.lastProbeTimer.unref?.();
    }
  }

  /**
   * Reads the last probe time of every server tracked in the last moment in one statement per
   * thousand: a worker that takes over 2,000 leases at once asks twice, not 2,000 times, while its
   * pool is busy storing their first listings.
   */
  private async readLastProbes(): Promise<void> {
    this.lastProbeTimer = undefined;
    const batch = [...this.awaitingLastProbe.values()];
    this.awaitingLastProbe.clear();
    for (let i = 0; i < batch.length; i += 1000) {
      const chunk = batch.slice(i, i + 1000);
      try {
        const rows = await this.deps.db.identityProbe.groupBy({ by: ["serverId"], where: { serverId: { in: chunk.map((t) => t.server.serverId) } }, _max: { probedAt: true } });
        const lastAt = new Map(rows.map((row) => [row.serverId, row._max.probedAt?.getTime()]));
        for (const t of chunk) {
          const last = lastAt.get(t.server.serverId);
          if (last === undefined || this.tracked.get(t.server.serverId) !== t) continue;
          t.probedOnce = true;
          this.schedule(t, Math.max(this.firstDelayMs(), last + this.options.defaultIntervalMs - Date.now()));
        }
      } catch (error) {
        for (const t of chunk) this.log(t, `could not read the last identity probe: ${(error as Error).message}`);
      }
    }
  }

  untrack(serverId: string): void {
    const t = this.tracked.get(serverId);
    if (!t) return;
    t.stop.abort();
    clearTimeout(t.timer);
    this.tracked.delete(serverId);
    this.awaitingLastProbe.delete(serverId);
  }

  /** The session stored a listing: a first snapshot or a changed list brings the next probe forward. */
  listed(serverId: string, outcome: { kind: "created" | "confirmed"; firstLook: boolean }): void {
    const t = this.tracked.get(serverId);
    if (!t) return;
    if (!t.probedOnce && t.timer === undefined && !t.running) this.schedule(t, this.firstDelayMs());
    else if (outcome.kind === "created" && !outcome.firstLook) this.schedule(t, Math.min(5_000, this.options.defaultIntervalMs / 2), true);
  }

  async stopAll(): Promise<void> {
    const running = [...this.tracked.values()].flatMap((t) => (t.running ? [t.running] : []));
    for (const id of [...this.tracked.keys()]) this.untrack(id);
    clearTimeout(this.lastProbeTimer);
    this.lastProbeTimer = undefined;
    await Promise.allSettled(running);
  }

  private firstDelayMs(): number {
    return jitter(Math.min(30_000, this.options.defaultIntervalMs / 2), 0.5);
  }

  /** Arms the next probe; `sooner` only moves an armed timer forward, never back. */
  private schedule(t: Tracked, delayMs: number, sooner = false): void {
    if (t.stop.signal.aborted) return;
    const dueAt = Date.now() + Math.max(0, delayMs);
    if (sooner && t.dueAt !== undefined && t.dueAt <= dueAt) return;
    if (t.running) {
      if (sooner) t.again = true;
      return;
    }
    clearTimeout(t.timer);
    t.dueAt = dueAt;
    t.timer = setTimeout(() => this.run(t), Math.max(0, delayMs));
    t.timer.unref?.();
  }

  private run(t: Tracked): void {
    t.timer = undefined;
    t.dueAt = undefined;
    t.running = this.round(t)
      .catch((error: Error) => {
        this.log(t, `identity probe failed: ${error.message}`);
        return this.options.defaultIntervalMs;
      })
      .then((intervalMs) => {
        t.running = undefined;
        t.probedOnce = true;
        const again = t.again;
        t.again = false;
        this.schedule(t, again ? 0 : jitter(intervalMs));
      });
  }

  /** One round: every configured identity, one slot each. Returns the interval until the next. */
  private async round(t: Tracked): Promise<number> {
    const { server } = t;
    const release = await this.rounds.acquire(server.tenantId, t.stop.signal);
    try {
      // Only once no regular listing waits: probes are the lowest priority work the worker has.
      (await this.deps.queue.acquireLow(t.stop.signal))();
      return await this.roundNow(t);
    } finally {
      release();
    }
  }

  private async roundNow(t: Tracked): Promise<number> {
    const { server } = t;
    const ctx: ServiceContext = { tenantId: server.tenantId, actor: { kind: "system", id: this.deps.workerId }, db: this.deps.db };
    const { effective } = await loadEffectiveProbeSettings(ctx, server.serverId, server.config.transport, this.options.defaultIntervalMs);
    if (!effective.enabled) return effective.intervalMs;
    const latest = await ctx.db.snapshot.findFirst({ where: { tenantId: ctx.tenantId, serverId: server.serverId }, orderBy: { takenAt: "desc" }, select: { contentHash: true, toolVersionIds: true } });
    if (!latest) return effective.intervalMs;
    let reference = { hash: latest.contentHash, tools: (await loadSnapshotTools(ctx, latest.toolVersionIds)).map((t) => t.definition as ToolLike), fresh: false };

    const probes: IdentityProbeOutcome[] = [];
    for (const identity of effective.identities) {
      if (t.stop.signal.aborted) break;
      const listing = await this.listAs(t, identity);
      if (!listing) break;
      let result: ProbeResult;
      if (!listing.ok) result = { ok: false, error: { code: listing.error.code, message: t.redact(listing.error.message) } };
      else {
        let comparison = compareIdentityLists(reference.tools, listing.listing.tools, reference.hash);
        if (!comparison.same && !reference.fresh) {
          // The stored snapshot may be a moment old: confirm against a fresh listing as ourselves.
          const own = await this.listAs(t, { clientInfo: CLIENT_INFO });
          if (!own) break;
          if (own.ok) {
            reference = { hash: listHashOf(own.listing.tools), tools: own.listing.tools, fresh: true };
            comparison = compareIdentityLists(reference.tools, listing.listing.tools, reference.hash);
          }
        }
        result = { ok: true, reference: reference.tools, tools: listing.listing.tools, comparison };
      }
      probes.push({ identity: identity.key, at: new Date(), result });
      if (!result.ok) this.log(t, `identity probe as ${identity.label}: ${result.error.code} ${result.error.message}`);
    }
    // One write for the round (what was listed before a stop is kept too).
    const change = await recordIdentityRound(ctx, { serverId: server.serverId, keep: effective.identities.map((i) => i.key), probes, leaseHolder: this.deps.workerId });
    if (change === "opened") {
      const label = new Map(effective.identities.map((i) => [i.key, i.label]));
      const differing = probes.filter((p) => p.result.ok && !p.result.comparison.same).map((p) => label.get(p.identity) ?? p.identity);
      this.log(t, `the tool list differs under ${differing.join(", ")}'s identity: identity_divergence alert opened`);
    }
    if (change === "resolved") this.log(t, "the tool list is the same under every probed identity again: identity_divergence alert resolved");
    return effective.intervalMs;
  }

  /** One listing in a low-priority slot (and a spawn slot for stdio); undefined when stopped. */
  private async listAs(t: Tracked, identity: Pick<ClientIdentity, "clientInfo">) {
    const { server, stop } = t;
    let release: (() => void) | undefined;
    try {
      release = await this.deps.queue.acquireLow(stop.signal);
      if (server.config.transport === "stdio") {
        const spawn = await this.deps.spawnQueue.acquireLow(stop.signal);
        const outer = release;
        release = () => {
          spawn();
          outer();
        };
      }
    } catch {
      release?.();
      return undefined;
    }
    try {
      return await listToolsAs(server.config, identity, { ...this.options.probe, fetch: this.deps.targets.for(server.privateTargets), prior: server.verdict });
    } finally {
      release();
    }
  }

  private log(t: Tracked, line: string): void {
    this.deps.log(`${t.server.name}: ${t.redact(line)}`);
  }
}
