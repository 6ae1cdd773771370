// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, bearer, call, createHttpServer, createServerWithSnapshot, createTeam, disableServers, expectStatus, mintKey, signUp, UNREACHABLE_URL, type ApiResponse, type Caller, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

/** An audit-log cursor as the API issues them (lib/pagination), around a chosen event id. */
const auditCursor = (id: string) => Buffer.from(JSON.stringify({ k: "audit", v: [id] })).toString("base64url");

// Two teams with data; team B (as its owner's session and as an owner-role API key: the most
// powerful callers B has) tries every REST route against team A's ids. A foreign row must look
// exactly like a missing one: same status, same body as a random uuid.

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type Ids = { serverA: string; serverA2: string; snapshotA: string; memberA: string; ownerMemberA: string; invitationA: string; keyA: string; teamA: string; alertA: string; cacheEntryA: string };
type Fixture = { ids: Ids; callers: Record<"session" | "key", Caller>; a: TestTeam; b: TestTeam; ownerA: TestUser; ownerB: TestUser; keyA: Caller; serverB: string };

let f: Fixture;

// Paths name A's things as {serverA}, {snapshotA}, …; resolved once the fixture exists.
const fill = (path: string, ids: Record<string, string>) => path.replace(/\{(\w+)\}/g, (_, k: string) => ids[k] ?? `{${k}}`);

type ByIdCase = { method: Method; path: string; body?: unknown; sessionOnly?: boolean };
const BY_ID: ByIdCase[] = [
  { method: "GET", path: "/api/v1/servers/{serverA}" },
  { method: "GET", path: "/api/v1/servers/{serverA2}" },
  { method: "PATCH", path: "/api/v1/servers/{serverA}", body: { name: "pwned", url: "http://127.0.0.1:10/mcp" } },
  { method: "PATCH", path: "/api/v1/servers/{serverA}", body: { enabled: false } },
  { method: "DELETE", path: "/api/v1/servers/{serverA}" },
  { method: "POST", path: "/api/v1/servers/{serverA}/refresh" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/snapshots" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/diff" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/tools/alpha/history" },
  { method: "GET", path: "/api/v1/snapshots/{snapshotA}" },
  { method: "PATCH", path: "/api/v1/members/{memberA}", body: { role: "viewer" } },
  { method: "PATCH", path: "/api/v1/members/{ownerMemberA}", body: { role: "viewer" } },
  { method: "DELETE", path: "/api/v1/members/{memberA}" },
  { method: "DELETE", path: "/api/v1/members/{ownerMemberA}" },
  { method: "DELETE", path: "/api/v1/invitations/{invitationA}" },
  { method: "DELETE", path: "/api/v1/keys/{keyA}" },
  { method: "POST", path: "/api/v1/teams/active", body: { teamId: "{teamA}" } },
  { method: "GET", path: "/api/v1/alerts/{alertA}" },
  { method: "POST", path: "/api/v1/alerts/{alertA}/acknowledge", body: { comment: "pwned" } },
  { method: "POST", path: "/api/v1/alerts/{alertA}/approve", body: { hash: "h-alert-A" } },
  { method: "POST", path: "/api/v1/alerts/{alertA}/reject", body: { comment: "pwned" } },
];

// Every caller of B × every by-id route, then every list route, then the malformed-request checks.
type IsoCase = { title: string; run: () => Promise<void> };
const cases: IsoCase[] = [];

for (const who of ["session", "key"] as const) {
  for (const c of BY_ID) {
    const expected = who === "key" && c.path.startsWith("/api/v1/teams") ? 403 : 404; // keys cannot switch teams at all
    cases.push({
      title: `B owner ${who}: ${c.method} ${c.path} on A's id → ${expected}, same as a random uuid`,
      run: async () => {
        const random = randomUUID();
        const body = (ids: Record<string, string>) => (c.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(c.body), ids)));
        const foreign = await call(c.method, fill(c.path, f.ids), { as: f.callers[who], body: body(f.ids) });
        const randomIds = Object.fromEntries(Object.keys(f.ids).map((k) => [k, random]));
        const missing = await call(c.method, fill(c.path, randomIds), { as: f.callers[who], body: body(randomIds) });
        expect(foreign.status, foreign.text).toBe(expected);
        expect([foreign.status, foreign.json]).toEqual([missing.status, missing.json]);
      },
    });
  }
}

// A list response of B must name nothing of A's: no id, no email, no server or team name.
const LISTS: { path: string; sessionOnly?: boolean }[] = [
  { path: "/api/v1/me" },
  { path: "/api/v1/teams", sessionOnly: true },
  { path: "/api/v1/servers" },
  { path: "/api/v1/overview" },
  { path: "/api/v1/members" },
  { path: "/api/v1/invitations" },
  { path: "/api/v1/keys" },
  { path: "/api/v1/audit" },
  { path: `/api/v1/audit?limit=200&cursor=${auditCursor("999999999999")}` },
  { path: "/api/v1/audit?action=server.created" },
  { path: "/api/v1/servers/{serverB}/snapshots" },
  { path: "/api/v1/alerts" },
  { path: "/api/v1/alerts?status=open,acknowledged,resolved&limit=200" },
  { path: "/api/v1/cache" },
  { path: "/api/v1/cache?serverId={serverA2}" },
];
for (const who of ["session", "key"] as const) {
  for (const l of LISTS.filter((x) => who === "session" || !x.sessionOnly)) {
    cases.push({
      title: `B owner ${who}: GET ${l.path} → 200 and contains none of A's ids, emails or names`,
      run: async () => {
        const res = expectStatus(await call("GET", fill(l.path, { ...f.ids, serverB: f.serverB }), { as: f.callers[who] }), 200, l.path);
        const secretsOfA = [...Object.values(f.ids), f.a.slug, f.ownerA.email, "alpha-server-A", "Team A"];
        for (const s of secretsOfA) expect(res.text, `${l.path} leaks ${s}`).not.toContain(s);
      },
    });
  }
}

const ID_ROUTES: { method: Method; path: string; body?: unknown }[] = [
  { method: "GET", path: "/api/v1/servers/:id" },
  { method: "PATCH", path: "/api/v1/servers/:id", body: { name: "x" } },
  { method: "DELETE", path: "/api/v1/servers/:id" },
  { method: "POST", path: "/api/v1/servers/:id/refresh" },
  { method: "GET", path: "/api/v1/servers/:id/snapshots" },
  { method: "GET", path: "/api/v1/snapshots/:id" },
  { method: "PATCH", path: "/api/v1/members/:id", body: { role: "viewer" } },
  { method: "DELETE", path: "/api/v1/members/:id" },
  { method: "GET", path: "/api/v1/invitations/:id" },
  { method: "DELETE", path: "/api/v1/invitations/:id" },
  { method: "POST", path: "/api/v1/invitations/:id/accept" },
  { method: "DELETE", path: "/api/v1/keys/:id" },
  { method: "GET", path: "/api/v1/alerts/:id" },
  { method: "POST", path: "/api/v1/alerts/:id/acknowledge", body: {} },
  { method: "POST", path: "/api/v1/alerts/:id/approve", body: { hash: "x" } },
  { method: "POST", path: "/api/v1/alerts/:id/reject", body: {} },
];
const MALFORMED = ["not-a-uuid", "1", "00000000-0000-0000-0000-00000000000g", "' OR '1'='1", "%00"];
for (const r of ID_ROUTES) {
  for (const bad of MALFORMED) {
    cases.push({
      title: `A owner: ${r.method} ${r.path} with malformed id ${JSON.stringify(bad)} → 404, not 500`,
      run: async () => {
        const res = await call(r.method, r.path.replace(":id", encodeURIComponent(bad)), { as: f.ownerA.caller, body: r.body });
        expect(res.status, res.text).toBe(404);
      },
    });
  }
}

const WRITES: { method: Method; path: string }[] = [
  { method: "POST", path: "/api/v1/servers" },
  { method: "PATCH", path: "/api/v1/servers/{serverA}" },
  { method: "PATCH", path: "/api/v1/members/{memberA}" },
  { method: "POST", path: "/api/v1/invitations" },
  { method: "POST", path: "/api/v1/keys" },
  { method: "POST", path: "/api/v1/teams" },
  { method: "POST", path: "/api/v1/teams/active" },
  { method: "POST", path: "/api/v1/alerts/{alertA}/approve" },
  { method: "POST", path: "/api/v1/alerts/acknowledge" },
];
for (const w of WRITES) {
  cases.push({
    title: `A owner: ${w.method} ${w.path} with a body that is not JSON → 400`,
    run: async () => {
      const res = await call(w.method, fill(w.path, f.ids), { as: f.ownerA.caller, rawBody: "{not json" });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("INVALID_INPUT");
    },
  });
  cases.push({
    title: `A owner: ${w.method} ${w.path} without Content-Type: application/json → 400`,
    run: async () => {
      const res = await call(w.method, fill(w.path, f.ids), { as: f.ownerA.caller, rawBody: "{}", contentType: "text/plain" });
      expect(res.status, res.text).toBe(400);
    },
  });
}

// Query strings and conflicts: a client error, never a 500.
const CLIENT_ERRORS: { method: Method; path: string; body?: unknown; status: number }[] = [
  { method: "GET", path: `/api/v1/audit?cursor=${auditCursor("99999999999999999999999999")}`, status: 400 },
  { method: "GET", path: "/api/v1/audit?cursor=abc", status: 400 },
  { method: "GET", path: "/api/v1/audit?limit=0", status: 400 },
  { method: "GET", path: "/api/v1/servers/{serverA2}/snapshots?cursor=yesterday", status: 400 },
  { method: "POST", path: "/api/v1/servers", body: { name: "alpha-server-A", transport: "sse", url: UNREACHABLE_URL }, status: 409 },
  { method: "PATCH", path: "/api/v1/servers/{serverA2}", body: { name: "alpha-server-A" }, status: 409 },
  { method: "POST", path: "/api/v1/servers", body: { name: "x", transport: "streamable-http", url: "file:///etc/passwd" }, status: 400 },
  { method: "POST", path: "/api/v1/teams", body: { slug: "{teamSlugA}" }, status: 409 },
];
for (const e of CLIENT_ERRORS) {
  cases.push({
    title: `A owner: ${e.method} ${e.path} ${e.body ? JSON.stringify(e.body) : ""} → ${e.status}`,
    run: async () => {
      const ids = { ...f.ids, teamSlugA: f.a.slug };
      const res = await call(e.method, fill(e.path, ids), { as: f.ownerA.caller, body: e.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(e.body), ids)) });
      expect(res.status, res.text).toBe(e.status);
    },
  });
}

// A team id smuggled into a body is ignored: B's writes land in B.
for (const who of ["session", "key"] as const) {
  cases.push({
    title: `B owner ${who}: POST /api/v1/servers and /api/v1/keys with A's tenantId/referenceId in the body → created in B`,
    run: async () => {
      const server = expectStatus(
        await call("POST", "/api/v1/servers", { as: f.callers[who], body: { name: `bravo-smuggled-${who}`, transport: "streamable-http", url: UNREACHABLE_URL, tenantId: f.a.id, teamId: f.a.id } }),
        201,
      ).json.server.id;
      expect((await testDb().mcpServer.findUniqueOrThrow({ where: { id: server } })).tenantId).toBe(f.b.id);
      // Keys are minted by signed-in people only (a key gets 403 and mints nothing anywhere).
      const minted = await call("POST", "/api/v1/keys", { as: f.callers[who], body: { name: "bravo-smuggled", role: "viewer", referenceId: f.a.id, teamId: f.a.id } });
      if (who === "key") {
        expect(minted.status, minted.text).toBe(403);
        expect(await testDb().apiKey.count({ where: { referenceId: f.a.id, name: "bravo-smuggled" } })).toBe(0);
        return;
      }
      const key = expectStatus(minted, 201).json.id;
      expect((await testDb().apiKey.findUniqueOrThrow({ where: { id: key } })).referenceId).toBe(f.b.id);
    },
  });
}

// Everything but the public invitation description needs credentials.
const AUTHENTICATED: { method: Method; path: string; body?: unknown }[] = [
  { method: "GET", path: "/api/v1/me" },
  { method: "GET", path: "/api/v1/teams" },
  { method: "POST", path: "/api/v1/teams", body: { slug: "nobody-team" } },
  { method: "POST", path: "/api/v1/teams/active", body: { teamId: "{teamA}" } },
  { method: "GET", path: "/api/v1/servers" },
  { method: "POST", path: "/api/v1/servers", body: { name: "x", transport: "streamable-http", url: UNREACHABLE_URL } },
  { method: "GET", path: "/api/v1/servers/{serverA}" },
  { method: "PATCH", path: "/api/v1/servers/{serverA}", body: { name: "x" } },
  { method: "DELETE", path: "/api/v1/servers/{serverA}" },
  { method: "POST", path: "/api/v1/servers/{serverA}/refresh" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/snapshots" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/diff" },
  { method: "GET", path: "/api/v1/servers/{serverA2}/tools/alpha/history" },
  { method: "GET", path: "/api/v1/snapshots/{snapshotA}" },
  { method: "GET", path: "/api/v1/members" },
  { method: "PATCH", path: "/api/v1/members/{memberA}", body: { role: "viewer" } },
  { method: "DELETE", path: "/api/v1/members/{memberA}" },
  { method: "GET", path: "/api/v1/invitations" },
  { method: "POST", path: "/api/v1/invitations", body: { email: "x@access.test", role: "viewer" } },
  { method: "DELETE", path: "/api/v1/invitations/{invitationA}" },
  { method: "POST", path: "/api/v1/invitations/{invitationA}/accept" },
  { method: "GET", path: "/api/v1/keys" },
  { method: "POST", path: "/api/v1/keys", body: { name: "x", role: "viewer" } },
  { method: "DELETE", path: "/api/v1/keys/{keyA}" },
  { method: "GET", path: "/api/v1/audit" },
  { method: "GET", path: "/api/v1/alerts" },
  { method: "GET", path: "/api/v1/alerts/{alertA}" },
  { method: "POST", path: "/api/v1/alerts/{alertA}/approve", body: { hash: "h-alert-A" } },
];
const BAD_CREDENTIALS: [string, () => Caller | null][] = [
  ["no credentials", () => null],
  ["an unknown Bearer key", () => bearer(`tw_${randomUUID().replace(/-/g, "")}`)],
  ["a non-Bearer Authorization", () => ({ label: "basic", headers: { authorization: "Basic dXNlcjpwYXNz" } })],
  ["a bad Bearer next to A's valid session cookie", () => ({ label: "mixed", headers: { ...f.ownerA.caller.headers, authorization: "Bearer tw_wrong" } })],
  ["a forged session cookie", () => ({ label: "forged", headers: { cookie: "toolwatch.session_token=forged.c2lnbmF0dXJl" } })],
];
for (const r of AUTHENTICATED) {
  for (const [what, caller] of BAD_CREDENTIALS) {
    cases.push({
      title: `${what}: ${r.method} ${r.path} → 401`,
      run: async () => {
        const body = r.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(r.body), f.ids));
        const res = await call(r.method, fill(r.path, f.ids), { as: caller(), body });
        expect(res.status, res.text).toBe(401);
      },
    });
  }
}

const numbered = cases.map((c, i): [string, () => Promise<void>] => [`[isolation ${i + 1}/${cases.length}] ${c.title}`, c.run]);

describe(`cross-tenant isolation over every REST route (${cases.length} isolation assertions)`, () => {
  beforeAll(async () => {
    const ownerA = await signUp("owner-a");
    const ownerB = await signUp("owner-b");
    const a = await createTeam(ownerA, "iso-a");
    const b = await createTeam(ownerB, "iso-b");
    await testDb().tenant.update({ where: { id: a.id }, data: { name: "Team A" } });
    const serverA = expectStatus(
      await call("POST", "/api/v1/servers", { as: ownerA.caller, body: { name: "alpha-server-A", transport: "streamable-http", url: UNREACHABLE_URL, headers: { Authorization: "Bearer SECRET123" } } }),
      201,
      "create A's server",
    ).json.server.id as string;
    const withSnapshot = await createServerWithSnapshot(a, "alpha-server-A-2");
    const memberUser = await signUp("member-a");
    const memberA = await addMember(a, memberUser, "member");
    const ownerMemberA = (await testDb().member.findFirstOrThrow({ where: { tenantId: a.id, userId: ownerA.id } })).id;
    const invitationA = expectStatus(await call("POST", "/api/v1/invitations", { as: ownerA.caller, body: { email: `invitee-${randomUUID().slice(0, 6)}@access.test`, role: "member" } }), 201, "invite").json.id as string;
    const keyA = await mintKey(ownerA.caller, "owner", "alpha-key-A");
    const keyB = await mintKey(ownerB.caller, "owner", "bravo-key-B");
    const serverB = await createHttpServer(b, "bravo-server-B");
    const alertA = (await testDb().alert.create({ data: { tenantId: a.id, serverId: withSnapshot.serverId, kind: "tool_changed", severity: "high", title: "alpha alert", toolName: "alpha", candidateHash: "h-alert-A", dedupeKey: "tool_changed:alpha" } })).id;
    // A's server has a private tool-list cache entry and uses it: GET /api/v1/cache must not show it to B.
    const entryA = await testDb().toolListCacheEntry.create({
      data: { endpointKey: "ep1:iso", authContext: "ac1:iso", partition: a.id, tenantId: a.id, scope: "private", ttlMs: 60_000, requestedAt: new Date(), fetchedAt: new Date(), expiresAt: new Date(Date.now() + 60_000), listHash: "h-list-A", toolCount: 2, listing: { tools: [] }, lastReason: "connect" },
    });
    await testDb().serverCacheUse.create({ data: { tenantId: a.id, serverId: withSnapshot.serverId, entryId: entryA.id, misses: 1, lastOutcome: "miss", lastReason: "connect", lastAt: new Date() } });
    f = {
      ids: { serverA, serverA2: withSnapshot.serverId, snapshotA: withSnapshot.snapshotId, memberA, ownerMemberA, invitationA, keyA: keyA.id, teamA: a.id, alertA, cacheEntryA: entryA.id },
      callers: { session: ownerB.caller, key: keyB.caller },
      a,
      b,
      ownerA,
      ownerB,
      keyA: keyA.caller,
      serverB,
    };
    // B's callers really are powerful in B: the 404s below are tenant scoping, not a missing permission.
    expectStatus(await call("PATCH", `/api/v1/servers/${serverB}`, { as: keyB.caller, body: { tags: ["mine"] } }), 200, "B key edits B's server");
  });

  afterAll(async () => {
    if (f) await disableServers(f.a, f.b);
  });

  it.each(numbered)("%s", async (_title, run) => run());

  it("after all of that, A's things are untouched and A's audit log holds no event by B", async () => {
    const servers = await testDb().mcpServer.findMany({ where: { tenantId: f.a.id }, orderBy: { name: "asc" } });
    expect(servers.map((s) => [s.name, s.enabled, s.url])).toEqual([
      ["alpha-server-A", true, UNREACHABLE_URL],
      ["alpha-server-A-2", true, UNREACHABLE_URL],
    ]);
    const members = await testDb().member.findMany({ where: { tenantId: f.a.id }, orderBy: { createdAt: "asc" } });
    expect(members.map((m) => m.role)).toEqual(["owner", "member"]);
    expect((await testDb().invitation.findUniqueOrThrow({ where: { id: f.ids.invitationA } })).status).toBe("pending");
    expect((await testDb().apiKey.findUniqueOrThrow({ where: { id: f.ids.keyA } })).enabled).toBe(true);
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: f.a.id } });
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.filter((e) => e.actorId === f.ownerB.id || /bravo/.test(e.actorLabel))).toEqual([]);
    expect(await testDb().member.count({ where: { tenantId: f.a.id, userId: f.ownerB.id } })).toBe(0);
    expect(await testDb().alert.findUniqueOrThrow({ where: { id: f.ids.alertA } })).toMatchObject({ status: "open", comment: null, acknowledgedBy: null });
    expect(await testDb().toolBaseline.count({ where: { tenantId: f.a.id } })).toBe(0);
    // And A's own owner still sees everything of A.
    const mine: ApiResponse = expectStatus(await call("GET", "/api/v1/servers", { as: f.keyA }), 200);
    expect(mine.json.items.map((s: { id: string }) => s.id).sort()).toEqual([f.ids.serverA, f.ids.serverA2].sort());
  });

  it("B's session cannot accept A's invitation (it is for another address) and does not join A", async () => {
    const res = await call("POST", `/api/v1/invitations/${f.ids.invitationA}/accept`, { as: f.callers.session });
    expect(res.status, res.text).toBe(403);
    expect(await testDb().member.count({ where: { tenantId: f.a.id, userId: f.ownerB.id } })).toBe(0);
  });

  it("a cookie-authenticated write from another origin is refused (CSRF), even by A's owner", async () => {
    const res = await call("PATCH", `/api/v1/servers/${f.ids.serverA}`, { as: f.ownerA.caller, body: { name: "csrf" }, headers: { origin: "http://evil.test" } });
    expect(res.status, res.text).toBe(403);
    expect((await testDb().mcpServer.findUniqueOrThrow({ where: { id: f.ids.serverA } })).name).toBe("alpha-server-A");
  });
});
