import { describe, expect, it, vi } from "vitest";
import { FairQueue, type Release } from "@/lib/workers/fair-queue";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("FairQueue", () => {
  it("never runs more than its width at once", async () => {
    const queue = new FairQueue({ width: 3 });
    let running = 0;
    let peak = 0;
    const job = async () => {
      const release = await queue.acquire("a");
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
      release();
    };
    await Promise.all(Array.from({ length: 20 }, job));
    expect(peak).toBe(3);
    expect(queue.stats.granted).toBe(20);
    expect(queue.active).toBe(0);
  });

  it("serves teams round-robin: a team's single job is not stuck behind another team's 1,000", async () => {
    const queue = new FairQueue({ width: 1 });
    const order: string[] = [];
    const first = await queue.acquire("big");
    const waits: Array<Promise<void>> = [];
    for (let i = 0; i < 1000; i++) waits.push(queue.acquire("big").then((r) => void (order.push("big"), r())));
    waits.push(queue.acquire("small").then((r) => void (order.push("small"), r())));
    first();
    await Promise.all(waits);
    // The slot alternates between waiting teams: "small" goes second, not 1,001st.
    expect(order.indexOf("small")).toBe(1);
    expect(order).toHaveLength(1001);
  });

  it("grants in FIFO order within one team", async () => {
    const queue = new FairQueue({ width: 1 });
    const seen: number[] = [];
    const hold = await queue.acquire("t");
    const all = [0, 1, 2, 3].map((i) => queue.acquire("t").then((r) => void (seen.push(i), r())));
    hold();
    await Promise.all(all);
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it("a waiter that is aborted leaves the queue and rejects; the others still run", async () => {
    const queue = new FairQueue({ width: 1 });
    const hold = await queue.acquire("t");
    const controller = new AbortController();
    const aborted = queue.acquire("t", controller.signal);
    const next = queue.acquire("u");
    controller.abort();
    await expect(aborted).rejects.toThrow(/aborted/);
    expect(queue.queued).toBe(1);
    hold();
    const release: Release = await next;
    release();
    expect(queue.active).toBe(0);
  });

  it("releasing twice frees one slot, not two", async () => {
    const queue = new FairQueue({ width: 1 });
    const release = await queue.acquire("t");
    release();
    release();
    const a = await queue.acquire("t");
    let secondGranted = false;
    void queue.acquire("t").then(() => (secondGranted = true));
    await tick();
    expect(secondGranted).toBe(false);
    a();
  });

  it("a per-team rate defers that team's jobs (without dropping them) and leaves others alone", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "Date"] });
    try {
      const queue = new FairQueue({ width: 10, ratePerMinute: (team) => (team === "limited" ? 2 : 0) });
      const granted: string[] = [];
      const all = ["limited", "limited", "limited", "free", "free"].map((team) => queue.acquire(team).then((r) => void (granted.push(team), r())));
      await vi.advanceTimersByTimeAsync(0);
      // Two tokens a minute: the third "limited" job waits; "free" jobs are not held up by it.
      expect(granted.filter((t) => t === "limited")).toHaveLength(2);
      expect(granted.filter((t) => t === "free")).toHaveLength(2);
      expect(queue.queued).toBe(1);
      await vi.advanceTimersByTimeAsync(29_000);
      expect(queue.queued).toBe(1);
      await vi.advanceTimersByTimeAsync(1_100); // half a minute in all: one more token
      await Promise.all(all);
      expect(granted.filter((t) => t === "limited")).toHaveLength(3);
      expect(queue.stats.deferredByRate).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
