import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { endpointKeyOf, PUBLIC_PARTITION } from "@/lib/cache/cache-key";
import { createPgFetchLock } from "@/lib/cache/fetch-lock";
import { pruneCacheEntries, UNUSED_ENTRY_MS } from "@/lib/cache/prune-cache";
import { ToolListCache, type CacheIdentity } from "@/lib/cache/tool-list-cache";
import type { ServiceContext } from "@/lib/context";
import type { Listing } from "@/lib/discovery/open-connection";
import { insertServerRow, createTenantContext, TEST_KEY, testDb } from "@/tests/helpers/factories";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// lib/cache/tool-list-cache.ts against the real database, with a controllable clock and fetch
// functions that count their calls: which lists are shared, which never are, and when a fresh
// entry stops serving.

const tool = (name: string) => ({ name, description: `${name} things`, inputSchema: { type: "object" as const, properties: {} } });

function listing(names: string[], scope: "public" | "private" | null, ttlMs: number | null): Listing {
  return { tools: names.map(tool), dropped: [], duplicateNames: [], pages: 1, restarts: 0, ttlMs, cacheScope: scope, warnings: [], surface: { prompts: null, resources: null, resourceTemplates: null, instructions: null } };
}

/** A fetch that returns `result` and counts how often the server would have been asked. */
function counted(result: () => Listing, delayMs = 0) {
  const f = Object.assign(
    async () => {
      f.calls++;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return result();
    },
    { calls: 0 },
  );
  return f;
}

let clock = Date.now();
const cache = () => new ToolListCache(testDb(), () => clock);
let a: ServiceContext;
let b: ServiceContext;

async function identity(ctx: ServiceContext, authContext = "anonymous", url = `http://cache-${randomUUID().slice(0, 8)}.test/mcp`): Promise<CacheIdentity> {
  const server = await insertServerRow(ctx, `s-${randomUUID().slice(0, 8)}`, { transport: "streamable_http", url, headers: {} }, { enabled: false });
  return { tenantId: ctx.tenantId, serverId: server.id, endpointKey: endpointKeyOf(TEST_KEY, { transport: "streamable_http", url, headers: {} }), authContext };
}

beforeAll(async () => {
  a = await createTenantContext("cache-a");
  b = await createTenantContext("cache-b");
});

describe("tool-list cache", () => {
  it("shares a public list fetched anonymously with another team while it is fresh, then refreshes it", async () => {
    const c = cache();
    const ida = await identity(a);
    const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
    const fetch = counted(() => listing(["search"], "public", 60_000));
    const first = await c.obtain(ida, "connect", 0, fetch);
    expect(first).toMatchObject({ outcome: "miss" });
    const second = await c.obtain(idb, "connect", 0, fetch);
    expect(second).toMatchObject({ outcome: "hit", entryId: first.entryId });
    expect(second.listing.tools.map((t) => t.name)).toEqual(["search"]);
    expect(fetch.calls).toBe(1);
    const entry = await testDb().toolListCacheEntry.findUniqueOrThrow({ where: { id: first.entryId! } });
    expect(entry).toMatchObject({ partition: PUBLIC_PARTITION, tenantId: null, scope: "public", ttlMs: 60_000, toolCount: 1 });

    clock += 60_001; // past the TTL
    const third = await c.obtain(idb, "ttl_expiry", 0, fetch);
    expect(third).toMatchObject({ outcome: "refresh", entryId: first.entryId });
    expect(fetch.calls).toBe(2);
    const uses = await testDb().serverCacheUse.findMany({ where: { entryId: first.entryId! }, orderBy: { tenantId: "asc" } });
    const byServer = Object.fromEntries(uses.map((u) => [u.serverId, u]));
    expect(byServer[ida.serverId]).toMatchObject({ misses: 1, hits: 0, refreshes: 0, tenantId: a.tenantId });
    expect(byServer[idb.serverId]).toMatchObject({ misses: 0, hits: 1, refreshes: 1, tenantId: b.tenantId, lastReason: "ttl_expiry" });
  });

  it("hands back a fetched list's content addresses in the list's order (the snapshot store reuses them), none for a list it served", async () => {
    const c = cache();
    const ida = await identity(a);
    const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
    const fetch = counted(() => listing(["search", "fetch"], "public", 60_000));
    // sha256sum of the RFC 8785 text, e.g. {"description":"search things","inputSchema":{"properties":{},"type":"object"},"name":"search"}
    const fetched = await c.obtain(ida, "connect", 0, fetch);
    expect(fetched.toolHashes).toEqual([
      "jcs-sha256:bde9de199fee1369880c42ad7ae374ce1e008dbd550534a81921576858971657",
      "jcs-sha256:cb1bb0fba95025fb920f57683b4b79aa08e803ffa7a0bb60e39a8b89879c9294",
    ]);
    const served = await c.obtain(idb, "connect", 0, fetch);
    expect(served).toMatchObject({ outcome: "hit" });
    expect(served.toolHashes).toBeUndefined();
  });

  it("never serves a private list to another team, even with the same authorization context", async () => {
    const c = cache();
    const ida = await identity(a, "ac1:same-token");
    const idb = { ...(await identity(b, "ac1:same-token")), endpointKey: ida.endpointKey };
    const fa = counted(() => listing(["alpha_only"], "private", 60_000));
    const fb = counted(() => listing(["beta_only"], "private", 60_000));
    expect((await c.obtain(ida, "connect", 0, fa)).outcome).toBe("miss");
    const forB = await c.obtain(idb, "connect", 0, fb);
    expect(forB.outcome).toBe("miss");
    expect(forB.listing.tools.map((t) => t.name)).toEqual(["beta_only"]);
    expect([fa.calls, fb.calls]).toEqual([1, 1]);
    // Within team A the same context does reuse it.
    const again = await c.obtain(ida, "poll", 0, fa);
    expect(again.outcome).toBe("hit");
    expect(again.listing.tools.map((t) => t.name)).toEqual(["alpha_only"]);
    const rows = await testDb().toolListCacheEntry.findMany({ where: { endpointKey: ida.endpointKey } });
    expect(rows.map((r) => r.partition).sort()).toEqual([a.tenantId, b.tenantId].sort());
  });

  it("does not share an anonymous list the server marked private (or did not mark at all)", async () => {
    for (const scope of ["private", null] as const) {
      const c = cache();
      const ida = await identity(a);
      const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
      const fetch = counted(() => listing(["x"], scope, 60_000));
      await c.obtain(ida, "connect", 0, fetch);
      expect((await c.obtain(idb, "connect", 0, fetch)).outcome).toBe("miss");
      expect(fetch.calls).toBe(2);
    }
  });

  it("does not let a credentialed public list stand in for the anonymous one, nor the reverse", async () => {
    const c = cache();
    const anon = await identity(a);
    const withKey = { ...(await identity(b, "ac1:k")), endpointKey: anon.endpointKey };
    const fetch = counted(() => listing(["x"], "public", 60_000));
    await c.obtain(withKey, "connect", 0, fetch);
    expect((await c.obtain(anon, "connect", 0, fetch)).outcome).toBe("miss");
    expect(fetch.calls).toBe(2);
  });

  it("a list_changed invalidates a fresh entry at once, for every team sharing it", async () => {
    const c = cache();
    const ida = await identity(a);
    const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
    let names = ["one"];
    const fetch = counted(() => listing(names, "public", 3_600_000));
    await c.obtain(ida, "connect", 0, fetch);
    names = ["one", "two"];
    expect(await c.invalidate(ida, "list_changed")).toBe(1);
    const entry = await testDb().toolListCacheEntry.findFirstOrThrow({ where: { endpointKey: ida.endpointKey } });
    expect(entry.invalidatedBy).toBe("list_changed");
    // B's session had not even been notified: the shared entry is stale for it too.
    const forB = await c.obtain(idb, "poll", 0, fetch);
    expect(forB).toMatchObject({ outcome: "refresh" });
    expect(forB.listing.tools.map((t) => t.name)).toEqual(["one", "two"]);
    expect((await testDb().toolListCacheEntry.findUniqueOrThrow({ where: { id: entry.id } })).invalidatedAt).toBeNull();
  });

  it("serves a list_changed re-list only from a fetch that began after the notification", async () => {
    const c = cache();
    const ida = await identity(a);
    const fetch = counted(() => listing(["t"], "public", 3_600_000));
    await c.obtain(ida, "connect", 0, fetch);
    clock += 10;
    const notifiedAt = clock;
    expect((await c.obtain(ida, "list_changed", notifiedAt, fetch)).outcome).toBe("refresh");
    clock += 10;
    expect((await c.obtain(ida, "list_changed", notifiedAt, fetch)).outcome).toBe("hit");
    expect(fetch.calls).toBe(2);
  });

  it("a manual refresh always asks the server", async () => {
    const c = cache();
    const ida = await identity(a);
    const fetch = counted(() => listing(["t"], "public", 3_600_000));
    await c.obtain(ida, "connect", 0, fetch);
    expect((await c.obtain(ida, "manual", Number.POSITIVE_INFINITY, fetch)).outcome).toBe("refresh");
    expect(fetch.calls).toBe(2);
  });

  it("two teams asking at the same moment share one fetch", async () => {
    const c = cache();
    const ida = await identity(a);
    const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
    const fetch = counted(() => listing(["slow"], "public", 60_000), 300);
    const [ra, rb] = await Promise.all([c.obtain(ida, "connect", 0, fetch), c.obtain(idb, "connect", 0, fetch)]);
    expect(fetch.calls).toBe(1);
    expect([ra.outcome, rb.outcome].sort()).toEqual(["hit", "miss"]);
  });

  it("two workers (two caches, two lock pools) watching one public endpoint for two teams share one fetch", async () => {
    const url = testDatabaseUrl();
    const [lockA, lockB] = [createPgFetchLock(url), createPgFetchLock(url)];
    try {
      const workerA = new ToolListCache(testDb(), () => clock, lockA);
      const workerB = new ToolListCache(testDb(), () => clock, lockB);
      const ida = await identity(a);
      const idb = { ...(await identity(b)), endpointKey: ida.endpointKey };
      const fetch = counted(() => listing(["slow"], "public", 60_000), 400);
      const [ra, rb] = await Promise.all([workerA.obtain(ida, "connect", 0, fetch), workerB.obtain(idb, "connect", 0, fetch)]);
      expect(fetch.calls).toBe(1);
      expect([ra.outcome, rb.outcome].sort()).toEqual(["hit", "miss"]);
      // A private list is never waited for across workers: it cannot be shared anyway.
      const pa = { ...(await identity(a, "ac1:w")), endpointKey: ida.endpointKey + "-p" };
      const pb = { ...(await identity(b, "ac1:w")), endpointKey: pa.endpointKey };
      const priv = counted(() => listing(["p"], "private", 60_000), 200);
      await Promise.all([workerA.obtain(pa, "connect", 0, priv), workerB.obtain(pb, "connect", 0, priv)]);
      expect(priv.calls).toBe(2);
    } finally {
      await Promise.all([lockA.close(), lockB.close()]);
    }
  });

  it("a failed fetch stores nothing and the next request asks again", async () => {
    const c = cache();
    const ida = await identity(a);
    const failing = counted(() => {
      throw new Error("server exploded");
    });
    await expect(c.obtain(ida, "connect", 0, failing)).rejects.toThrow("server exploded");
    expect(await testDb().toolListCacheEntry.count({ where: { endpointKey: ida.endpointKey } })).toBe(0);
    const ok = counted(() => listing(["t"], "public", 60_000));
    expect((await c.obtain(ida, "connect", 0, ok)).outcome).toBe("miss");
  });

  it("a ttl of 0 or none is stale at once; a huge ttl is capped at 24 h", async () => {
    const c = cache();
    for (const ttl of [0, null]) {
      const ida = await identity(a);
      const fetch = counted(() => listing(["t"], "public", ttl));
      await c.obtain(ida, "connect", 0, fetch);
      expect((await c.obtain(ida, "poll", 0, fetch)).outcome).toBe("refresh");
    }
    const ida = await identity(a);
    const r = await c.obtain(ida, "connect", 0, counted(() => listing(["t"], "public", 7 * 86_400_000)));
    expect(r.freshUntil - clock).toBe(86_400_000);
  });

  it("R31: a public list that another authorization context sees differently is reported, naming only our own tools", async () => {
    const c = cache();
    const anon = await identity(a);
    const targeted = { ...(await identity(b, "ac1:victim")), endpointKey: anon.endpointKey };
    expect((await c.obtain(anon, "connect", 0, counted(() => listing(["search", "fetch_page"], "public", 60_000)))).divergence).toBeNull();
    const r = await c.obtain(targeted, "connect", 0, counted(() => listing(["search", "fetch_page", "exfiltrate"], "public", 60_000)));
    expect(r.divergence).toMatchObject({ otherContext: "anonymous", ownCount: 3, otherCount: 2, onlyHere: ["exfiltrate"], differing: [], missingHereCount: 0 });
    // Another endpoint where both contexts see the same public list: nothing to report.
    const anon2 = await identity(a);
    const keyed2 = { ...(await identity(b, "ac1:victim")), endpointKey: anon2.endpointKey };
    await c.obtain(anon2, "connect", 0, counted(() => listing(["search"], "public", 60_000)));
    expect((await c.obtain(keyed2, "connect", 0, counted(() => listing(["search"], "public", 60_000)))).divergence).toBeNull();
  });

  it("pruning drops old entries no server uses any more, and keeps those in use", async () => {
    const c = cache();
    const used = await identity(a);
    const orphan = await identity(a);
    const fetch = counted(() => listing(["t"], "private", 1000));
    const keep = await c.obtain(used, "connect", 0, fetch);
    const drop = await c.obtain(orphan, "connect", 0, fetch);
    await testDb().mcpServer.delete({ where: { id: orphan.serverId } }); // its uses go with it
    const later = new Date(clock + UNUSED_ENTRY_MS + 1);
    expect(await pruneCacheEntries(testDb(), later)).toBeGreaterThanOrEqual(1);
    expect(await testDb().toolListCacheEntry.findUnique({ where: { id: drop.entryId! } })).toBeNull();
    expect(await testDb().toolListCacheEntry.findUnique({ where: { id: keep.entryId! } })).not.toBeNull();
  });
});
