import { afterEach, describe, expect, it } from "vitest";
import { cachedServerPage, invalidateServerPages, onFleetEvent, setServerPageFeed } from "../../lib/servers/server-page-cache";

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
});
