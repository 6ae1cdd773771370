import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptJson } from "@/lib/secrets";
import { connectionColumns } from "@/lib/servers/connection-columns";
import { call, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { TEST_KEY, testDb } from "@/tests/helpers/factories";

// GET /api/v1/servers at fleet size: keyset pages over every sort order, server-side filters and
// counts, and a second team that sees none of the first team's servers through any parameter.
// The fleet is written straight to the database (the listing is under test, not registration).

type Item = { id: string; name: string; status: string; transport: string; tags: string[]; toolCount: number | null; protocolVersion: string | null; lastChangeAt: string | null; snapshotCount: number; envKeys: string[]; headerKeys: string[] };

const N = 250;
const pad = (i: number) => String(i).padStart(3, "0");
// Fleet design (i = 0…249), so every expectation below is counted by hand from these rules:
//   name node000…node249; tags: "even" when i%2=0, "five" when i%5=0; stdio when i%3=0;
//   disabled (status stopped) when i%50=49, i.e. 49, 99, 149, 199, 249;
//   session: none (pending) when i%4=0, else live / degraded / down for i%4 = 1 / 2 / 3;
//   protocolVersion "2025-06-18" when i%8=1, "2025-03-26" for other sessions;
//   lastChangeAt on day i%7 of Nov 2026 when i%4=1; two snapshots with toolCount i%7 when i%3=1.
const EXPECTED_BY_STATUS = { pending: 63, live: 60, degraded: 62, down: 60, stopped: 5 };

async function seedFleet(team: TestTeam): Promise<void> {
  const db = testDb();
  await db.mcpServer.createMany({
    data: Array.from({ length: N }, (_, i) => ({
      tenantId: team.id,
      name: `node${pad(i)}`,
      tags: [...(i % 2 === 0 ? ["even"] : []), ...(i % 5 === 0 ? ["five"] : [])],
      enabled: i % 50 !== 49,
      ...connectionColumns(
        TEST_KEY,
        i % 3 === 0 ? { transport: "stdio", command: "node", args: ["x.js"], env: { API_TOKEN: "s3cret-value" } } : { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer s3cret-value" } },
      ),
    })),
  });
  const ids = new Map((await db.mcpServer.findMany({ where: { tenantId: team.id }, select: { id: true, name: true } })).map((s) => [s.name, s.id]));
  const idOf = (i: number) => ids.get(`node${pad(i)}`)!;
  const STATUS = ["live", "degraded", "down"] as const;
  const withSession = Array.from({ length: N }, (_, i) => i).filter((i) => i % 4 !== 0);
  await db.serverSession.createMany({
    data: withSession.map((i) => ({
      serverId: idOf(i),
      tenantId: team.id,
      status: STATUS[(i % 4) - 1]!,
      protocolVersion: i % 8 === 1 ? "2025-06-18" : "2025-03-26",
      lastChangeAt: i % 4 === 1 ? new Date(Date.UTC(2026, 10, 1 + (i % 7))) : null,
    })),
  });
  const withSnapshots = Array.from({ length: N }, (_, i) => i).filter((i) => i % 3 === 1);
  await db.snapshot.createMany({
    data: withSnapshots.flatMap((i) => [
      { tenantId: team.id, serverId: idOf(i), contentHash: `old-${i}`, toolCount: 99, trigger: "connect", takenAt: new Date("2026-11-01T00:00:00Z"), toolVersionIds: [] },
      { tenantId: team.id, serverId: idOf(i), contentHash: `new-${i}`, toolCount: i % 7, trigger: "poll", takenAt: new Date("2026-11-20T00:00:00Z"), toolVersionIds: [] },
    ]),
  });
}

async function list(as: Caller, query: string): Promise<{ items: Item[]; nextCursor: string | null; total: number; byStatus: Record<string, number>; teamTotal: number; tags: string[] }> {
  return expectStatus(await call("GET", `/api/v1/servers${query ? `?${query}` : ""}`, { as }), 200, query).json;
}

async function listAll(as: Caller, query: string, limit: number): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 1_000; guard++) {
    const page = await list(as, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return items;
  }
  throw new Error("paging never ended");
}

/** The documented order: the sort key with missing values last in either direction, then name, then id. */
function inOrder(a: Item, b: Item, by: keyof Item, dir: "asc" | "desc"): boolean {
  const x = a[by] as string | number | null;
  const y = b[by] as string | number | null;
  if (x !== y) {
    if (x === null) return false;
    if (y === null) return true;
    return dir === "asc" ? x < y : x > y;
  }
  return a.name < b.name;
}

let ownerA: Caller;
let teamA: TestTeam;
let teamB: TestTeam;
let keyB: Caller;

beforeAll(async () => {
  const a = await signUp("fleet-a");
  teamA = await createTeam(a, "fleet-a");
  ownerA = a.caller;
  await seedFleet(teamA);
  const b = await signUp("fleet-b");
  teamB = await createTeam(b, "fleet-b");
  keyB = (await mintKey(b.caller, "owner")).caller;
  await testDb().mcpServer.create({ data: { tenantId: teamB.id, name: "bravo-only", tags: ["even"], ...connectionColumns(TEST_KEY, { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }) } });
});

afterAll(async () => {
  await disableServers(teamA, teamB);
});

describe("GET /api/v1/servers paging", () => {
  const SORTS = ["name", "status", "transport", "protocolVersion", "toolCount", "lastChangeAt"] as const;
  for (const by of SORTS) {
    for (const dir of ["asc", "desc"] as const) {
      it(`pages through 250 servers sorted by ${by} ${dir}: each exactly once, in order`, async () => {
        const items = await listAll(ownerA, `sort=${by}&dir=${dir}`, 17);
        expect(items).toHaveLength(N);
        expect(new Set(items.map((s) => s.id)).size).toBe(N);
        for (let k = 1; k < items.length; k++) {
          if (!inOrder(items[k - 1]!, items[k]!, by, dir)) throw new Error(`out of order at ${k}: ${items[k - 1]!.name} (${String(items[k - 1]![by])}) before ${items[k]!.name} (${String(items[k]![by])})`);
        }
      });
    }
  }

  it("answers the first page with the default limit of 100, the totals by status and the team's tags", async () => {
    const page = await list(ownerA, "");
    expect(page.items).toHaveLength(100);
    expect(page.items[0]!.name).toBe("node000");
    expect(page.items[99]!.name).toBe("node099");
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(page.total).toBe(N);
    expect(page.teamTotal).toBe(N);
    expect(page.byStatus).toEqual(EXPECTED_BY_STATUS);
    expect(page.tags).toEqual(["even", "five"]);
  });

  it("reports each server's latest snapshot, snapshot count and secret key names (never values)", async () => {
    const page = await list(ownerA, "q=node00&limit=10");
    const byName = new Map(page.items.map((s) => [s.name, s]));
    expect(byName.get("node001")).toMatchObject({ toolCount: 1, snapshotCount: 2, headerKeys: ["Authorization"], envKeys: [], status: "live", transport: "streamable_http" });
    expect(byName.get("node004")).toMatchObject({ toolCount: 4, snapshotCount: 2, status: "pending" });
    expect(byName.get("node003")).toMatchObject({ toolCount: null, snapshotCount: 0, envKeys: ["API_TOKEN"], transport: "stdio", status: "down" });
    expect(JSON.stringify(page)).not.toContain("s3cret-value");
  });
});

describe("GET /api/v1/servers filters", () => {
  it("tags must all match: even and five are the multiples of 10", async () => {
    const items = await listAll(ownerA, "tag=even,five", 100);
    expect(items.map((s) => s.name)).toEqual(Array.from({ length: 25 }, (_, k) => `node${pad(k * 10)}`));
  });

  it("status filter takes a list and the counts cover the filtered set", async () => {
    const page = await list(ownerA, "status=stopped,degraded&limit=500");
    expect(page.items).toHaveLength(67);
    expect(page.total).toBe(67);
    expect(page.byStatus).toEqual({ stopped: 5, degraded: 62 });
    expect(page.teamTotal).toBe(N);
    expect(page.items.filter((s) => s.status === "stopped").map((s) => s.name)).toEqual(["node049", "node099", "node149", "node199", "node249"]);
  });

  it("transport and a case-insensitive name substring combine", async () => {
    const page = await list(ownerA, "transport=stdio&q=NODE1&limit=500");
    // 100…199 divisible by 3: 102, 105, …, 198
    expect(page.items.map((s) => s.name)).toEqual(Array.from({ length: 33 }, (_, k) => `node${102 + 3 * k}`));
  });

  it("a filter matching nothing answers an empty page that still counts the team", async () => {
    const page = await list(ownerA, "q=%25_nothing");
    expect(page).toMatchObject({ items: [], nextCursor: null, total: 0, byStatus: {}, teamTotal: N });
  });

  for (const [query, parameter] of [
    ["status=sleeping", "status"],
    ["transport=carrier-pigeon", "transport"],
    ["sort=colour", "sort"],
    ["dir=sideways", "dir"],
    ["limit=501", "limit"],
    ["limit=0", "limit"],
    ["cursor=not-a-cursor", "cursor"],
  ] as const) {
    it(`${query} → 400 naming ${parameter}`, async () => {
      const res = await call("GET", `/api/v1/servers?${query}`, { as: ownerA });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.message).toContain(parameter);
    });
  }

  it("a cursor issued for one sort order is refused by another (400), not misread", async () => {
    const page = await list(ownerA, "sort=toolCount&limit=5");
    const res = await call("GET", `/api/v1/servers?sort=name&cursor=${page.nextCursor}`, { as: ownerA });
    expect(res.status, res.text).toBe(400);
  });
});

describe("GET /api/v1/servers across teams", () => {
  it("team B's key sees only its own server through every filter, sort and team A's cursors", async () => {
    const cursors = await Promise.all(["sort=name", "sort=toolCount&dir=desc", "sort=lastChangeAt"].map(async (q) => [q, (await list(ownerA, `${q}&limit=3`)).nextCursor!] as const));
    const queries = ["", "tag=even", "status=live,pending,stopped", "transport=streamable_http", "q=node", ...cursors.map(([q, c]) => `${q}&cursor=${c}`)];
    for (const q of queries) {
      const page = await list(keyB, q);
      for (const s of page.items) expect(s.name, q).toBe("bravo-only");
      expect(page.teamTotal).toBe(1);
      expect(page.tags).toEqual(["even"]);
    }
    expect((await list(keyB, "")).items.map((s) => s.name)).toEqual(["bravo-only"]);
  });
});

describe("POST /api/v1/servers/batch", () => {
  const http = (name: string, extra: Record<string, unknown> = {}) => ({ name, transport: "streamable-http", url: "http://127.0.0.1:9/mcp", enabled: false, ...extra });
  const countNamed = (prefix: string) => testDb().mcpServer.count({ where: { tenantId: teamA.id, name: { startsWith: prefix } } });

  it("refuses 1,001 servers in one call (400 naming servers) and creates none", async () => {
    const res = await call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers: Array.from({ length: 1_001 }, (_, i) => http(`over-${i}`)) } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.message).toContain("servers");
    expect(await countNamed("over-")).toBe(0);
  });

  it("one invalid item refuses the whole batch with that item's index and creates nothing", async () => {
    const servers = [http("bad-0"), http("bad-1"), http("bad-2", { url: "file:///etc/passwd" }), http("bad-3"), { name: "bad-4", transport: "carrier-pigeon" }];
    const res = await call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.errors.map((e: { index: number }) => e.index)).toEqual([2, 4]);
    expect(res.json.error.details.errors[0].message).toContain("url");
    expect(res.json.error.details.errors[1].message).toContain("transport");
    expect(await countNamed("bad-")).toBe(0);
  });

  it("names taken in the team or repeated in the batch are per-item conflicts", async () => {
    const res = await call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers: [http("dup-0"), http("node007"), http("dup-0")] } });
    expect(res.status, res.text).toBe(409);
    expect(res.json.error.details.errors).toEqual([
      { index: 1, message: expect.stringContaining("already exists") },
      { index: 2, message: expect.stringContaining("item 0") },
    ]);
    expect(await countNamed("dup-")).toBe(0);
  });

  it("a stdio server from a caller who is not an instance admin (team B's owner key) is refused per item (403), nothing created", async () => {
    const servers = [http("pol-0"), { name: "pol-1", transport: "stdio", command: "node", args: ["-e", "1"], enabled: false }];
    const res = await call("POST", "/api/v1/servers/batch", { as: keyB, body: { servers } });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.details.errors).toEqual([{ index: 1, message: expect.stringContaining("stdio") }]);
    expect(await testDb().mcpServer.count({ where: { name: { startsWith: "pol-" }, tenantId: { in: [teamA.id, teamB.id] } } })).toBe(0);
  });

  it("team B's batch lands in team B only, and a viewer key may not register", async () => {
    const viewer = (await mintKey(ownerA, "viewer", "batch-viewer")).caller;
    expect((await call("POST", "/api/v1/servers/batch", { as: viewer, body: { servers: [http("view-0")] } })).status).toBe(403);
    expectStatus(await call("POST", "/api/v1/servers/batch", { as: keyB, body: { servers: [http("bravo-batch-0"), http("bravo-batch-1")] } }), 201);
    expect(await testDb().mcpServer.count({ where: { tenantId: teamB.id, name: { startsWith: "bravo-batch-" } } })).toBe(2);
    expect(await testDb().mcpServer.count({ where: { tenantId: teamA.id, name: { startsWith: "bravo-batch-" } } })).toBe(0);
  });

  it("stores every column a single POST would (stdio env sealed, cwd, args, policy, poll interval, audit details)", async () => {
    const body = { name: "cols-stdio", transport: "stdio", command: "node", args: ["-e", "1"], cwd: "/tmp", env: { API_TOKEN: "sekret-env" }, enabled: false, auditPolicy: "strict", pollIntervalSeconds: 900, tags: ["cols"] };
    // stdio needs an instance administrator (the stdio policy): one of its own, demoted afterwards.
    const admin = await signUp("fleet-cols");
    const team = await createTeam(admin, "fleet-cols");
    await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: true } });
    let res;
    try {
      res = expectStatus(await call("POST", "/api/v1/servers/batch", { as: admin.caller, body: { servers: [body] } }), 201);
    } finally {
      await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: false } });
    }
    const row = await testDb().mcpServer.findUniqueOrThrow({ where: { id: res.json.items[0].id } });
    expect(row.tenantId).toBe(team.id);
    expect(row).toMatchObject({ name: "cols-stdio", transport: "stdio", command: "node", args: ["-e", "1"], cwd: "/tmp", url: null, headersEncrypted: null, enabled: false, auditPolicy: "strict", pollIntervalSeconds: 900, tags: ["cols"] });
    expect(row.envEncrypted).not.toContain("sekret-env");
    expect(decryptJson(TEST_KEY, row.envEncrypted!)).toEqual({ API_TOKEN: "sekret-env" });
    expect(row.configHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { tenantId: team.id, action: "server.created", targetId: row.id } });
    expect(audit).toMatchObject({ targetType: "server", details: { name: "cols-stdio", transport: "stdio", auditPolicy: "strict", batch: true, envKeys: ["API_TOKEN"] } });
    expect(JSON.stringify(audit.details)).not.toContain("sekret-env");
  });

  it("two batches racing for one name: one 201, the other a 409 naming the conflict, never a 500", async () => {
    const [a, b] = await Promise.all([
      call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers: [http("race-x"), http("race-a")] } }),
      call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers: [http("race-x"), http("race-b")] } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.json.error.message).toContain("already exists");
    expect(await countNamed("race-")).toBe(2);
  });

  it("creates all 300 servers with sealed secrets, one audit event each, and lists them", async () => {
    const servers = Array.from({ length: 300 }, (_, i) => http(`bulk-${pad(i)}`, { headers: { Authorization: `Bearer token-${i}` }, tags: ["bulk"] }));
    const res = expectStatus(await call("POST", "/api/v1/servers/batch", { as: ownerA, body: { servers } }), 201);
    expect(res.json.created).toBe(300);
    expect(res.json.items[7]).toMatchObject({ index: 7, name: "bulk-007", id: expect.any(String) });
    const rows = await testDb().mcpServer.findMany({ where: { tenantId: teamA.id, name: { startsWith: "bulk-" } }, orderBy: { name: "asc" } });
    expect(rows).toHaveLength(300);
    expect(rows[42]!.headersEncrypted).toMatch(/^v1:/);
    expect(rows[42]!.headersEncrypted).not.toContain("token-42");
    expect(decryptJson(TEST_KEY, rows[42]!.headersEncrypted!)).toEqual({ Authorization: "Bearer token-42" });
    expect(rows.every((r) => r.tags.join() === "bulk" && !r.enabled && r.transport === "streamable_http")).toBe(true);
    const audits = await testDb().auditEvent.count({ where: { tenantId: teamA.id, action: "server.created", targetId: { in: rows.map((r) => r.id) } } });
    expect(audits).toBe(300);
    const page = await list(ownerA, "tag=bulk&limit=500");
    expect(page.total).toBe(300);
    expect(page.items[42]).toMatchObject({ name: "bulk-042", headerKeys: ["Authorization"], status: "stopped" });
    expect(JSON.stringify(page)).not.toContain("token-42");
  });
});
