import { afterEach, describe, expect, it } from "vitest";
import { cachedServerPage, invalidateServerPages, onFleetEvent, setServerPageFeed } from "@/lib/servers/server-page-cache";

const T = "team-a";
const counter = () => {
  let n = 0;
  return async () => ++n;
};

describe("the fleet-list cache", () => {
  afterEach(() => setServerPageFeed(false));

  it("without the change feed nothing is cached", async () => {
    const compute = counter();
    expect(await cachedServerPage(T, "q", compute)).toBe(1);
    expect(await cachedServerPage(T, "q", compute)).toBe(2);
  });

  it("with the feed a repeated query is answered from memory until a change of that team", async () => {
    setServerPageFeed(true);
    const compute = counter();
    expect(await cachedServerPage(T, "q", compute)).toBe(1);
    expect(await cachedServerPage(T, "q", compute)).toBe(1);
    onFleetEvent({ type: "view:changed", tenantId: T, viewId: "v" });
    expect(await cachedServerPage(T, "q", compute)).toBe(1);
    onFleetEvent({ type: "session:statusChanged", tenantId: "team-b", serverId: "s", status: "live" });
    expect(await cachedServerPage(T, "q", compute)).toBe(1);
    onFleetEvent({ type: "snapshot:recorded", tenantId: T, serverId: "s", snapshotId: "x" });
    expect(await cachedServerPage(T, "q", compute)).toBe(2);
    // The list carries each server's open alerts (and the overview its alert counts).
    onFleetEvent({ type: "alert:changed", tenantId: T, serverId: "s", alertId: "a" });
    expect(await cachedServerPage(T, "q", compute)).toBe(3);
    expect(await cachedServerPage(T, "other query", compute)).toBe(4);
  });

  it("an answer computed while a change arrived is not served again", async () => {
    setServerPageFeed(true);
    let n = 0;
    const slow = async () => {
      n++;
      if (n === 1) invalidateServerPages(T); // the change commits while the first read runs
      return n;
    };
    expect(await cachedServerPage(T, "q", slow)).toBe(1);
    expect(await cachedServerPage(T, "q", slow)).toBe(2);
    expect(await cachedServerPage(T, "q", slow)).toBe(2);
  });

  it("entries expire after 5 s and a dropped feed empties the cache", async () => {
    setServerPageFeed(true);
    let now = 1_000;
    const compute = counter();
    expect(await cachedServerPage(T, "q", compute, () => now)).toBe(1);
    now += 4_999;
    expect(await cachedServerPage(T, "q", compute, () => now)).toBe(1);
    now += 2;
    expect(await cachedServerPage(T, "q", compute, () => now)).toBe(2);
    setServerPageFeed(false);
    setServerPageFeed(true);
    expect(await cachedServerPage(T, "q", compute, () => now)).toBe(3);
  });

  it("concurrent misses of one query share one read; another team's or another query's do not", async () => {
    setServerPageFeed(true);
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const read = async () => {
      reads++;
      await gate;
      return reads;
    };
    const answers = Promise.all([cachedServerPage(T, "q", read), cachedServerPage(T, "q", read), cachedServerPage("team-b", "q", read), cachedServerPage(T, "q2", read)]);
    release();
    expect(await answers).toEqual([3, 3, 3, 3]);
    expect(reads).toBe(3);
  });

  it("a miss after a change does not join a read that started before it", async () => {
    setServerPageFeed(true);
    let reads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const read = async () => {
      const n = ++reads;
      await gate;
      return n;
    };
    const before = cachedServerPage(T, "q", read);
    invalidateServerPages(T);
    const after = cachedServerPage(T, "q", read);
    release();
    expect([await before, await after]).toEqual([1, 2]);
  });
});
