import type { ServerConnectionConfig } from "../servers/server-config";
import type { SnapshotTrigger } from "../snapshots/record-snapshot";
import { backoffDelayMs, jitter, sleep } from "./backoff";
import { describeError } from "./discovery-error";
import { openConnection, type ConnectionFacts, type OpenConnection } from "./open-connection";
import type { ToolListing } from "./walk-tool-pages";

export type SessionStatusName = "connecting" | "live" | "polling" | "degraded" | "down" | "stopped";

export type SessionStateChange = {
  status?: SessionStatusName;
  reason?: string;
  error?: { code: string; message: string } | null;
  facts?: ConnectionFacts;
  connectedAt?: Date | null;
};

/** Where a session reports; the worker binds it to the database. Failures here are logged, never fatal. */
export type DiscoverySink = {
  state(change: SessionStateChange): Promise<void>;
  listing(listing: ToolListing, meta: { trigger: SnapshotTrigger; facts: ConnectionFacts }): Promise<void>;
  log(line: string): void;
};

export type DiscoveryOptions = {
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxPages: number;
  debounceMs: number;
  pollIntervalMs: number;
  backoffMaxMs: number;
  /** Consecutive failed attempts after which a degraded server counts as down. */
  downAfterFailures?: number;
};

/**
 * One long-lived discovery session per server: connect → list every page → stay subscribed to
 * list_changed (debounced, single-flight with one queued re-run) → poll as a fallback → on any
 * loss reconnect with backoff. The loop never throws; every failure becomes recorded state.
 */
export class DiscoverySession {
  private readonly stopController = new AbortController();
  private loop: Promise<void> | undefined;
  private conn: OpenConnection | undefined;
  private refreshing: Promise<void> | undefined;
  private queued: SnapshotTrigger | undefined;
  private debounceTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private freshUntil = 0;
  private failures = 0;
  /** Set when we close the connection ourselves after a failed refresh, so the real cause is kept. */
  private closeCause: { code: string; message: string } | undefined;

  constructor(
    readonly config: ServerConnectionConfig,
    private readonly opts: DiscoveryOptions,
    private readonly sink: DiscoverySink,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    clearTimeout(this.debounceTimer);
    clearTimeout(this.pollTimer);
    await this.conn?.close();
    await this.loop;
    await this.report({ status: "stopped", reason: "session stopped" });
  }

  /** Manual refresh (API / UI): re-list now, bypassing TTL freshness. */
  refresh(trigger: SnapshotTrigger = "manual"): void {
    this.freshUntil = 0;
    void this.requestRefresh(trigger);
  }

  private get stopping(): boolean {
    return this.stopController.signal.aborted;
  }

  private async run(): Promise<void> {
    let everConnected = false;
    while (!this.stopping) {
      await this.report({ status: this.failures === 0 ? "connecting" : undefined, reason: "connecting" });
      let lostReason: string | undefined;
      try {
        this.conn = await openConnection(this.config, {
          connectTimeoutMs: this.opts.connectTimeoutMs,
          requestTimeoutMs: this.opts.requestTimeoutMs,
          maxPages: this.opts.maxPages,
          onListChanged: () => this.onListChanged(),
          onLog: (line) => this.sink.log(line),
        });
        if (this.stopping) break;
        const facts = this.conn.facts;
        await this.takeListing(everConnected ? "reconnect" : "connect");
        everConnected = true;
        this.failures = 0;
        await this.report({
          status: facts.pushChannel ? "live" : "polling",
          reason: facts.pushChannel ? "subscribed to list_changed" : "server pushes no changes; polling",
          error: null,
          facts,
          connectedAt: new Date(),
        });
        this.schedulePoll();
        lostReason = await Promise.race([this.conn.closed, abortPromise(this.stopController.signal)]);
        if (this.stopping) break;
        this.failures = 1;
        const cause = this.closeCause ?? { code: "CONNECTION_LOST", message: lostReason };
        this.closeCause = undefined;
        await this.report({ status: "degraded", reason: cause.message, error: cause });
      } catch (error) {
        if (this.stopping) break;
        this.failures++;
        const described = describeError(error);
        const down = this.failures >= (this.opts.downAfterFailures ?? 3);
        await this.report({
          status: down ? "down" : "degraded",
          reason: `${described.code}: attempt ${this.failures} failed`,
          error: described,
        });
      } finally {
        clearTimeout(this.pollTimer);
        clearTimeout(this.debounceTimer);
        await this.conn?.close();
        this.conn = undefined;
      }
      await sleep(backoffDelayMs(this.failures, { maxMs: this.opts.backoffMaxMs }), this.stopController.signal);
    }
  }

  private onListChanged(): void {
    // The notification carries no diff and a fresh TTL must not hide it: re-list after the storm settles.
    this.freshUntil = 0;
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => void this.requestRefresh("list_changed"), this.opts.debounceMs);
  }

  private schedulePoll(): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => {
      if (Date.now() < this.freshUntil) this.schedulePoll();
      else void this.requestRefresh("poll").finally(() => this.schedulePoll());
    }, jitter(this.opts.pollIntervalMs));
  }

  /** Single flight: while a listing runs, further requests collapse into one queued re-run. */
  private async requestRefresh(trigger: SnapshotTrigger): Promise<void> {
    if (this.refreshing) {
      this.queued = trigger;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      let next: SnapshotTrigger | undefined = trigger;
      while (next && this.conn && !this.stopping) {
        this.queued = undefined;
        try {
          await this.takeListing(next);
        } catch (error) {
          const described = describeError(error);
          this.sink.log(`refresh (${next}) failed: ${described.code} ${described.message}`);
          this.closeCause = described;
          await this.conn?.close(); // the run loop sees the close and reconnects with backoff
          break;
        }
        next = this.queued;
      }
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async takeListing(trigger: SnapshotTrigger): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    const listing = await conn.listTools();
    this.freshUntil = listing.ttlMs ? Date.now() + listing.ttlMs : 0;
    try {
      await this.sink.listing(listing, { trigger, facts: conn.facts });
    } catch (error) {
      this.sink.log(`could not store listing: ${describeError(error).message}`);
    }
  }

  private async report(change: SessionStateChange): Promise<void> {
    try {
      await this.sink.state(change);
    } catch (error) {
      this.sink.log(`could not store session state: ${describeError(error).message}`);
    }
  }
}

function abortPromise(signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve("stopped");
    signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
}
