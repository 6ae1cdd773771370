// Bounded, fair admission for the worker's network and database work (issue 12). At most `width`
// jobs run at once; waiting jobs are taken round-robin across teams, so one team's 2,000 new
// servers never hold back another team's single server; an optional per-team rate (jobs per
// minute, a token bucket) defers a team's jobs without dropping them. Pure: no I/O, a clock and
// timers only.

export type Release = () => void;

type Waiter = { grant: (release: Release) => void; fail: (error: Error) => void; signal?: AbortSignal; onAbort?: () => void };
type Bucket = { tokens: number; updatedAt: number };

export type FairQueueOptions = {
  width: number;
  /** Jobs per minute a team may start (0 or absent = unlimited); read on every admission. */
  ratePerMinute?: (team: string) => number;
  now?: () => number;
  /**
   * Low-priority jobs (identity probes) running at once; default max(1, width / 4). They start
   * only when no regular job waits, and never take the last free slot of a queue wider than one.
   */
  lowWidth?: number;
};

export class AbortedError extends Error {
  constructor() {
    super("aborted while waiting for a slot");
    this.name = "AbortError";
  }
}

export class FairQueue {
  private running = 0;
  private lowRunning = 0;
  private readonly lowWaiting: Waiter[] = [];
  private readonly waiting = new Map<string, Waiter[]>();
  /** Teams with waiters, in round-robin order. */
  private ring: string[] = [];
  private readonly buckets = new Map<string, Bucket>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** Counters for diagnostics and tests. */
  readonly stats = { granted: 0, deferredByRate: 0, maxWaiting: 0 };

  constructor(private readonly options: FairQueueOptions) {
    if (options.width < 1) throw new Error("FairQueue width must be at least 1");
    this.now = options.now ?? Date.now;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    let n = 0;
    for (const list of this.waiting.values()) n += list.length;
    return n;
  }

  /** Low-priority jobs waiting (identity probes). */
  get lowQueued(): number {
    return this.lowWaiting.length;
  }

  /**
   * Waits for a slot that no regular job wants: granted only while no regular job waits, at most
   * `lowWidth` at once, leaving one slot free for a regular job that arrives meanwhile.
   */
  acquireLow(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new AbortedError());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, fail: reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.lowWaiting.indexOf(waiter);
          if (index >= 0) {
            this.lowWaiting.splice(index, 1);
            reject(new AbortedError());
          }
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.lowWaiting.push(waiter);
      this.pump();
    });
  }

  private pumpLow(): void {
    const width = this.options.width;
    const lowWidth = this.options.lowWidth ?? Math.max(1, Math.floor(width / 4));
    const reserve = width > 1 ? 1 : 0;
    while (this.ring.length === 0 && this.lowWaiting.length > 0 && this.lowRunning < lowWidth && this.running < width - reserve) {
      const waiter = this.lowWaiting.shift()!;
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.running++;
      this.lowRunning++;
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.running--;
        this.lowRunning--;
        this.pump();
      });
    }
  }

  /** Waits for a slot for `team`; call the returned release exactly once when the job is done. */
  acquire(team: string, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new AbortedError());
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, fail: reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const list = this.waiting.get(team);
          const index = list?.indexOf(waiter) ?? -1;
          if (list && index >= 0) {
            list.splice(index, 1);
            if (list.length === 0) this.dropTeam(team);
            reject(new AbortedError());
          }
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      const list = this.waiting.get(team);
      if (list) list.push(waiter);
      else {
        this.waiting.set(team, [waiter]);
        this.ring.push(team);
      }
      this.stats.maxWaiting = Math.max(this.stats.maxWaiting, this.queued);
      this.pump();
    });
  }

  private dropTeam(team: string): void {
    this.waiting.delete(team);
    this.ring = this.ring.filter((t) => t !== team);
  }

  private pump(): void {
    this.pumpRegular();
    this.pumpLow();
  }

  private pumpRegular(): void {
    while (this.running < this.options.width && this.ring.length > 0) {
      const index = this.ring.findIndex((team) => this.hasToken(team));
      if (index < 0) {
        this.wakeWhenTokens();
        return;
      }
      const team = this.ring[index]!;
      // Round-robin: the team served goes to the back of the ring.
      this.ring.splice(index, 1);
      const list = this.waiting.get(team)!;
      const waiter = list.shift()!;
      if (list.length > 0) this.ring.push(team);
      else this.waiting.delete(team);
      this.takeToken(team);
      if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.running++;
      this.stats.granted++;
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.running--;
        this.pump();
      });
    }
  }

  private rateOf(team: string): number {
    return Math.max(0, this.options.ratePerMinute?.(team) ?? 0);
  }

  private refill(team: string, rate: number): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(team) ?? { tokens: rate, updatedAt: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.updatedAt) / 60_000) * rate);
    bucket.updatedAt = now;
    this.buckets.set(team, bucket);
    return bucket;
  }

  private hasToken(team: string): boolean {
    const rate = this.rateOf(team);
    if (rate === 0) return true;
    const ok = this.refill(team, rate).tokens >= 1;
    if (!ok) this.stats.deferredByRate++;
    return ok;
  }

  private takeToken(team: string): void {
    const rate = this.rateOf(team);
    if (rate > 0) this.refill(team, rate).tokens -= 1;
  }

  /** Every waiting team is out of tokens: look again when the first one has one. */
  private wakeWhenTokens(): void {
    if (this.wakeTimer) return;
    let soonest = Number.POSITIVE_INFINITY;
    for (const team of this.ring) {
      const rate = this.rateOf(team);
      const bucket = this.refill(team, rate);
      soonest = Math.min(soonest, ((1 - bucket.tokens) / rate) * 60_000);
    }
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, Math.max(10, Math.ceil(soonest)));
    this.wakeTimer.unref?.();
  }
}
