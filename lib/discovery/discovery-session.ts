import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { SnapshotTrigger } from "@/lib/listing-trigger";
import { backoffDelayMs, jitter, sleep } from "./backoff";
import type { ServerConnectionConfig } from "./connection-config";
import { describeError } from "./discovery-error";
import type { GuardedFetch } from "./node/guarded-fetch";
import { openConnection, type ConnectionFacts, type EraMode, type EraVerdict, type Listing, type OpenConnection } from "./open-connection";
import { nextStatus, type SessionEvent, type SessionStatusName } from "./session-status";
import { mergeStateChanges, type SessionStateChange } from "./state-change";

export type { SessionStatusName, SessionStateChange };

/** What a cache answered: the list, until when it is fresh, and the cache's own account (opaque here). */
export type ObtainedListing<C = unknown> = { listing: Listing; freshUntil: number; cached: C };

/** Where a session reports; the worker binds it to the database. Failures here are logged, never fatal. */
export type DiscoverySink<C = unknown> = {
  state(change: SessionStateChange): Promise<void>;
  /** `cached`: how the tool-list cache answered (absent when the sink keeps no cache). */
  listing(listing: Listing, meta: { trigger: SnapshotTrigger; facts: ConnectionFacts; cached?: C }): Promise<void>;
  log(line: string): void;
  /**
   * A tool-list cache: serves a fresh list fetched at or after `notBefore` (ms since epoch; beyond
   * now = must fetch) or runs `fetch` and stores what it returns.
   */
  obtainListing?(trigger: SnapshotTrigger, notBefore: number, fetch: () => Promise<Listing>, facts: ConnectionFacts | undefined): Promise<ObtainedListing<C>>;
  /** A list_changed arrived: cached copies of this list are stale now, before the debounced re-list. */
  listChanged?(): Promise<void>;
};

/** Waits for a slot of the worker's bounded, fair queue; the returned function gives it back. */
export type Admit = (signal: AbortSignal) => Promise<() => void>;

export type DiscoveryOptions = {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxPages: number;
  debounceMs: number;
  /** Longest a burst of list_changed may postpone a re-list (default max(2 s, 5 × debounce)). */
  debounceMaxWaitMs?: number;
  pollIntervalMs: number;
  backoffMaxMs: number;
  era?: EraMode;
  /** The era verdict stored from an earlier connection; reused as the SDK's `prior`. */
  verdict?: EraVerdict;
  /** The guarded fetch for this server's HTTP transport (required: there is no unguarded fallback). */
  fetch: GuardedFetch;
  /**
   * OAuth for this server (HTTP only): the product's provider (tokens encrypted in Postgres). When
   * it holds no usable token and refresh fails, connecting fails with DiscoveryError-style code
   * AUTH_REQUIRED (describeError) after the SDK called its redirectToAuthorization.
   */
  authProvider?: OAuthClientProvider;
  maxMessageBytes?: number;
  /** Consecutive failed attempts after which a degraded server counts as down (default 3). */
  downAfterFailures?: number;
  /** Bounded concurrency: every connect + listing + store runs inside a slot (default: no limit). */
  admit?: Admit;
  /** Longest pause between retries of a store that failed (database trouble); default 30 s. */
  storeRetryMaxMs?: number;
};

const RELISTEN_ATTEMPTS = 3;
const noAdmission: Admit = async () => () => undefined;

/**
 * One discovery session per server: connect → list every page → stay subscribed to list_changed
 * (debounced, single flight with one queued re-run) → poll as a fallback → on any loss reconnect
 * with backoff. A server with no push channel holds no connection between polls: each poll
 * connects, lists and closes. Listings run inside a slot of the worker's fair queue; a listing
 * whose store fails (database trouble) is retried inside its slot, which slows the worker down
 * instead of losing the change. The loop never throws; every failure becomes recorded state.
 */
export class DiscoverySession<C = unknown> {
  private readonly stopController = new AbortController();
  private loop: Promise<void> | undefined;
  private conn: OpenConnection | undefined;
  /** No push channel: the connection is closed between polls and requests wake this instead. */
  private wakeDetached: ((trigger: SnapshotTrigger) => void) | undefined;
  private facts: ConnectionFacts | undefined;
  private status: SessionStatusName = "pending";
  private refreshing: Promise<void> | undefined;
  private queued: SnapshotTrigger | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  private burstStartedAt = 0;
  private pollTimer: NodeJS.Timeout | undefined;
  private freshUntil = 0;
  private lastTtlMs: number | null = null;
  private failures = 0;
  /** When the last list_changed arrived: a cached list from before it must not be served. */
  private lastNotifiedAt = 0;
  private verdict: EraVerdict | undefined;
  /** Set when we close the connection ourselves after a failure, so the real cause is kept. */
  private closeCause: { code: string; message: string } | undefined;
  /** A state change the database refused (outage): merged with later ones and retried. */
  private unsavedState: SessionStateChange | undefined;
  private stateRetry: NodeJS.Timeout | undefined;
  private stateRetries = 0;
  /** Wakes a session that waits for an OAuth authorization (refresh() after Authorize). */
  private wakeAuthWait: (() => void) | undefined;
  /** Set by drain(): no new connects or listings; the ones running finish and are stored. */
  private draining = false;
  private readonly listingsInFlight = new Set<Promise<void>>();
  /** Counters for tests and diagnostics. */
  readonly stats = { listings: 0, notifications: 0, connects: 0, storeRetries: 0 };

  constructor(
    readonly config: ServerConnectionConfig,
    private readonly opts: DiscoveryOptions,
    private readonly sink: DiscoverySink<C>,
  ) {
    this.verdict = opts.verdict;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    clearTimeout(this.debounceTimer);
    clearTimeout(this.pollTimer);
    clearTimeout(this.stateRetry);
    await this.conn?.close();
    await this.loop;
    await this.transition({ kind: "stop" }, "session stopped");
  }

  /**
   * The first half of a graceful stop (worker shutdown): take no new work, and wait for listings
   * already running to be fetched and stored. Call stop() afterwards (also when this takes too long).
   */
  async drain(): Promise<void> {
    this.draining = true;
    clearTimeout(this.debounceTimer);
    clearTimeout(this.pollTimer);
    await Promise.allSettled([...this.listingsInFlight]);
  }

  /** Manual refresh (API / UI): re-list now, bypassing TTL freshness. */
  refresh(trigger: SnapshotTrigger = "manual"): void {
    this.freshUntil = 0;
    this.wakeAuthWait?.();
    void this.requestRefresh(trigger);
  }

  /** The status last reached (the one stored, or being stored, for the server). */
  get currentStatus(): SessionStatusName {
    return this.status;
  }

  /** Whether the session holds a connection right now (false between polls of a server without push). */
  get connected(): boolean {
    return this.conn !== undefined;
  }

  private get stopping(): boolean {
    return this.stopController.signal.aborted;
  }

  private admit(): Promise<() => void> {
    return (this.opts.admit ?? noAdmission)(this.stopController.signal);
  }

  private connect(): Promise<OpenConnection> {
    return openConnection(this.config, {
      connectTimeoutMs: this.opts.connectTimeoutMs,
      requestTimeoutMs: this.opts.requestTimeoutMs,
      maxPages: this.opts.maxPages,
      era: this.opts.era,
      prior: this.verdict,
      fetch: this.opts.fetch,
      ...(this.opts.authProvider ? { authProvider: this.opts.authProvider } : {}),
      maxMessageBytes: this.opts.maxMessageBytes,
      onListChanged: () => this.onListChanged(),
      onSubscriptionEnded: (why) => void this.relisten(why),
      onChannelLost: (why) => void this.transition({ kind: "channel-lost" }, why),
      onLog: (line) => this.sink.log(line),
    });
  }

  private async run(): Promise<void> {
    let everConnected = false;
    while (!this.stopping) {
      let release: (() => void) | undefined;
      try {
        // Waiting for a slot keeps the session "pending": nothing is connecting yet.
        release = await this.admit();
        if (this.draining) break;
        await this.transition({ kind: "start" }, this.failures ? `reconnecting (attempt ${this.failures + 1})` : "connecting");
        this.conn = await this.connect();
        this.stats.connects++;
        if (this.stopping) break;
        this.verdict = this.conn.facts.verdict;
        this.facts = this.conn.facts;
        await this.takeListing(everConnected ? "reconnect" : "connect");
        release();
        release = undefined;
        everConnected = true;
        this.failures = 0;
        const facts = this.conn.facts;
        await this.transition(
          { kind: "connected", push: facts.pushChannel },
          facts.pushChannel ? `subscribed to list_changed (${facts.transportUsed}, ${facts.era} era)` : "server pushes no changes; polling",
          { error: null, facts, connectedAt: new Date() },
        );
        if (!facts.pushChannel) {
          await this.conn.close();
          this.conn = undefined;
          await this.pollDetached();
          break;
        }
        this.schedulePoll();
        const lostReason = await Promise.race([this.conn.closed, abortPromise(this.stopController.signal)]);
        if (this.stopping) break;
        this.failures = 1;
        const cause = this.closeCause ?? { code: "CONNECTION_LOST", message: lostReason };
        this.closeCause = undefined;
        await this.fail(cause);
      } catch (error) {
        if (this.stopping) break;
        this.failures++;
        await this.fail(describeError(error));
      } finally {
        release?.();
        clearTimeout(this.pollTimer);
        clearTimeout(this.debounceTimer);
        await this.conn?.close();
        this.conn = undefined;
      }
      if (this.status === "auth_required") await this.waitForAuthorization();
      else await sleep(backoffDelayMs(this.failures, { maxMs: this.opts.backoffMaxMs }), this.stopController.signal);
    }
  }

  /**
   * OAuth tokens were refused and only a person can get new ones: retrying on a backoff would
   * only knock on the authorization server. Wait for a refresh (sent once someone authorized),
   * or try again after a poll interval (an admin may have fixed it at the provider).
   */
  private async waitForAuthorization(): Promise<void> {
    const controller = new AbortController();
    const onStop = () => controller.abort();
    this.stopController.signal.addEventListener("abort", onStop, { once: true });
    this.wakeAuthWait = () => controller.abort();
    await sleep(this.opts.pollIntervalMs, controller.signal);
    this.wakeAuthWait = undefined;
    this.stopController.signal.removeEventListener("abort", onStop);
  }

  /**
   * A server that pushes nothing: wait for the poll (or a manual refresh), then take a slot,
   * connect, list and close. A fresh cached list needs no connection at all. Returns on stop;
   * a failure throws to the run loop, which records it and reconnects with backoff.
   */
  private async pollDetached(): Promise<void> {
    while (!this.stopping) {
      const trigger = await this.nextDetachedTrigger();
      if (!trigger || this.stopping) return;
      const release = await this.admit();
      try {
        await this.takeListing(trigger, async () => {
          this.conn = await this.connect();
          this.stats.connects++;
          this.verdict = this.conn.facts.verdict;
          this.facts = this.conn.facts;
          return this.conn;
        });
      } finally {
        release();
        await this.conn?.close();
        this.conn = undefined;
      }
    }
  }

  private nextDetachedTrigger(): Promise<SnapshotTrigger | undefined> {
    return new Promise((resolve) => {
      const signal = this.stopController.signal;
      const finish = (trigger: SnapshotTrigger | undefined) => {
        clearTimeout(this.pollTimer);
        this.wakeDetached = undefined;
        signal.removeEventListener("abort", onAbort);
        resolve(trigger);
      };
      const onAbort = () => finish(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
      this.wakeDetached = (trigger) => finish(trigger);
      const arm = () => {
        this.pollTimer = setTimeout(() => {
          const fresh = Date.now() < this.freshUntil;
          if (fresh && !this.sink.obtainListing) return arm();
          finish(!fresh && this.lastTtlMs ? "ttl_expiry" : "poll");
        }, jitter(this.opts.pollIntervalMs));
      };
      arm();
    });
  }

  private onListChanged(): void {
    // A notification carries no diff, and a fresh TTL must not hide it. Coalesce a burst into
    // one re-list, but never postpone it past maxWait, so a server that never stops still gets listed.
    this.stats.notifications++;
    this.freshUntil = 0;
    const now = Date.now();
    this.lastNotifiedAt = now;
    this.sink.listChanged?.().catch((error: unknown) => this.sink.log(`could not invalidate the cached list: ${describeError(error).message}`));
    if (!this.debounceTimer) this.burstStartedAt = now;
    const maxWait = this.opts.debounceMaxWaitMs ?? Math.max(2_000, 5 * this.opts.debounceMs);
    const delay = Math.max(0, Math.min(this.opts.debounceMs, this.burstStartedAt + maxWait - now));
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => {
      this.debounceTimer = undefined;
      void this.requestRefresh("list_changed");
    }, delay);
  }

  /** Modern listen streams are not resumable: open a new one (with backoff), then re-list. */
  private async relisten(why: string): Promise<void> {
    for (let attempt = 1; attempt <= RELISTEN_ATTEMPTS && this.conn && !this.stopping; attempt++) {
      await sleep(backoffDelayMs(attempt, { maxMs: this.opts.backoffMaxMs }), this.stopController.signal);
      try {
        await this.conn?.relisten();
        this.sink.log(`listen stream ended (${why}); re-subscribed`);
        await this.requestRefresh("relisten");
        return;
      } catch (error) {
        this.sink.log(`re-listen attempt ${attempt} failed: ${describeError(error).message}`);
      }
    }
    if (this.conn && !this.stopping) {
      this.closeCause = { code: "LISTEN_LOST", message: `listen stream ended (${why}) and could not be reopened` };
      await this.conn.close();
    }
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => {
      const fresh = Date.now() < this.freshUntil;
      // Without a cache a fresh list needs nothing; with one, the cache answers (a hit, counted
      // and confirmed as a listing) so every poll is accounted for.
      if (fresh && !this.sink.obtainListing) return this.schedulePoll();
      const trigger = !fresh && this.lastTtlMs ? "ttl_expiry" : "poll";
      void this.requestRefresh(trigger).finally(() => this.schedulePoll());
    }, jitter(this.opts.pollIntervalMs));
  }

  /** Single flight: while a listing runs, further requests collapse into one queued re-run. */
  private async requestRefresh(trigger: SnapshotTrigger): Promise<void> {
    if (this.wakeDetached) return this.wakeDetached(trigger);
    if (this.refreshing) {
      this.queued = trigger;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      let next: SnapshotTrigger | undefined = trigger;
      while (next && this.conn && !this.stopping && !this.draining) {
        this.queued = undefined;
        let release: (() => void) | undefined;
        try {
          release = await this.admit();
          await this.takeListing(next);
        } catch (error) {
          if (this.stopping) break;
          const described = describeError(error);
          this.sink.log(`refresh (${next}) failed: ${described.code} ${described.message}`);
          this.closeCause = described;
          await this.conn?.close(); // the run loop sees the close and reconnects with backoff
          break;
        } finally {
          release?.();
        }
        next = this.queued;
      }
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** One listing (none once draining), tracked so drain() can wait for it to be stored. */
  private takeListing(trigger: SnapshotTrigger, open?: () => Promise<OpenConnection>): Promise<void> {
    if (this.draining) return Promise.resolve();
    const listing = this.listAndStore(trigger, open);
    const done = () => void this.listingsInFlight.delete(listing);
    this.listingsInFlight.add(listing);
    listing.then(done, done);
    return listing;
  }

  /** One listing: from the cache or the server (opening a connection only if it must), then stored. */
  private async listAndStore(trigger: SnapshotTrigger, open?: () => Promise<OpenConnection>): Promise<void> {
    const fetchList = async () => {
      const conn = this.conn ?? (open ? await open() : undefined);
      if (!conn) throw new Error("not connected");
      const fetched = await conn.listTools();
      this.stats.listings++;
      return fetched;
    };
    let listing: Listing;
    let cached: C | undefined;
    if (this.sink.obtainListing) {
      const obtained = await this.sink.obtainListing(trigger, this.notBefore(trigger), fetchList, this.conn?.facts ?? this.facts);
      listing = obtained.listing;
      cached = obtained.cached ?? undefined;
      this.freshUntil = obtained.freshUntil;
    } else {
      listing = await fetchList();
      this.freshUntil = listing.ttlMs ? Date.now() + listing.ttlMs : 0;
    }
    this.lastTtlMs = listing.ttlMs;
    const facts = this.conn?.facts ?? this.facts;
    if (!facts) return;
    await this.store(listing, { trigger, facts, ...(cached !== undefined ? { cached } : {}) });
  }

  /** A store that fails for database reasons is retried with backoff; a lost lease is final. */
  private async store(listing: Listing, meta: { trigger: SnapshotTrigger; facts: ConnectionFacts; cached?: C }): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        await this.sink.listing(listing, meta);
        return;
      } catch (error) {
        // Database trouble, or a lease that lapsed for a moment (renewed on the next round): try
        // again. A lease really lost to another worker ends here when the scheduler stops us.
        const described = describeError(error);
        this.stats.storeRetries++;
        const delay = backoffDelayMs(attempt, { baseMs: 500, maxMs: this.opts.storeRetryMaxMs ?? 30_000 });
        this.sink.log(`could not store listing (attempt ${attempt}: ${described.message}); retrying in ${delay} ms`);
        await sleep(delay, this.stopController.signal);
      }
    }
  }

  /**
   * How recent a cached list must be to stand in for a fetch: any fresh one on first connect,
   * poll or TTL expiry; one fetched after the notification for list_changed; a fetch of our own
   * after a reconnect or a manual refresh (notifications may have been missed while away).
   */
  private notBefore(trigger: SnapshotTrigger): number {
    if (trigger === "list_changed") return this.lastNotifiedAt;
    if (trigger === "manual" || trigger === "reconnect" || trigger === "relisten") return Number.POSITIVE_INFINITY;
    return 0;
  }

  private fail(cause: { code: string; message: string }): Promise<void> {
    if (cause.code === "AUTH_REQUIRED" || cause.code === "NOT_AUTHORIZED") return this.transition({ kind: "auth-required" }, `AUTH_REQUIRED: ${cause.message}`, { error: cause });
    const downAfter = this.opts.downAfterFailures ?? 3;
    return this.transition({ kind: "failed", consecutiveFailures: this.failures, downAfter }, `${cause.code}: attempt ${this.failures} failed`, {
      error: cause,
    });
  }

  private async transition(event: SessionEvent, reason: string, extra: Omit<SessionStateChange, "status" | "reason"> = {}): Promise<void> {
    const status = nextStatus(this.status, event);
    const changed = status !== this.status;
    this.status = status;
    if (!changed && Object.keys(extra).length === 0) return;
    await this.saveState({ ...(changed || extra.facts ? { status, reason } : {}), ...extra });
  }

  /**
   * State writes that fail (database outage) are kept, merged with later changes and retried
   * with backoff, so the stored state catches up once the database is back.
   */
  private async saveState(change: SessionStateChange): Promise<void> {
    const merged = mergeStateChanges(this.unsavedState, change);
    this.unsavedState = undefined;
    clearTimeout(this.stateRetry);
    try {
      await this.sink.state(merged);
      this.stateRetries = 0;
    } catch (error) {
      this.sink.log(`could not store session state: ${describeError(error).message}`);
      // A stopped session does not retry: its lease may be gone already (hand-over, deletion).
      if (this.stopping) return;
      this.unsavedState = merged;
      this.stateRetries++;
      this.stateRetry = setTimeout(() => {
        const pending = this.unsavedState;
        this.unsavedState = undefined;
        if (pending) void this.saveState(pending);
      }, backoffDelayMs(this.stateRetries, { baseMs: 500, maxMs: 30_000 }));
      this.stateRetry.unref?.();
    }
  }
}

function abortPromise(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("stopped");
    signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
}
