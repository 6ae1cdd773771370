// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, call, createHttpServer, createTeam, disableServers, expectStatus, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getShared } from "@/app/api/v1/share/[token]/route";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { testDb } from "@/tests/helpers/factories";

// Shared team views (issue 7) through the real route handlers: CRUD and roles, pinning, team
// isolation, and read-only share links whose public endpoint shows exactly one view's data.

const SECRET = `sk-live-${randomUUID()}`;
const uniq = () => randomUUID().slice(0, 8);

let team: TestTeam;
let other: TestTeam;
let owner: Caller;
let member: Caller;
let memberLabel: string;
let viewer: Caller;
let prodId: string;
let stagingId: string;
let hiddenId: string;

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, description: `${name} things`, inputSchema: { type: "object", properties: { q: { type: "string" } } }, ...extra });

async function alert(serverId: string, kind: "tool_changed" | "server_down", severity: "high" | "low", title: string) {
  return testDb().alert.create({ data: { tenantId: team.id, serverId, kind, severity, title, dedupeKey: uniq(), findings: [] } });
}

async function createView(body: Record<string, unknown>, as: Caller = member) {
  return expectStatus(await call("POST", "/api/v1/views", { as, body: { name: `view-${uniq()}`, ...body } }), 201, "create view").json;
}

async function share(viewId: string, body?: Record<string, unknown>, as: Caller = member) {
  return expectStatus(await call("POST", `/api/v1/views/${viewId}/share`, { as, body }), 201, "share").json;
}

beforeAll(async () => {
  const ownerUser = await signUp("views-owner");
  team = await createTeam(ownerUser, "views");
  owner = ownerUser.caller;
  other = await createTeam(await signUp("views-other"), "views-other");
  const m = await signUp("views-member");
  await addMember(team, m, "member");
  member = m.caller;
  memberLabel = m.email; // the actor label of a signed-in person
  const v = await signUp("views-viewer");
  await addMember(team, v, "viewer");
  viewer = v.caller;
  prodId = await createHttpServer(team, "github-prod", { Authorization: `Bearer ${SECRET}` });
  stagingId = await createHttpServer(team, "github-staging");
  hiddenId = await createHttpServer(team, "payroll-internal", { "X-Payroll-Key": SECRET });
  await testDb().mcpServer.update({ where: { id: prodId }, data: { tags: ["prod", "vendor:github"] } });
  await testDb().mcpServer.update({ where: { id: stagingId }, data: { tags: ["staging", "vendor:github"] } });
  await testDb().mcpServer.update({ where: { id: hiddenId }, data: { tags: ["prod"] } });
  await recordSnapshot(team.ctx, { serverId: prodId, tools: [tool("search_issues", { title: "Search issues", annotations: { readOnlyHint: true } })], trigger: "connect" });
  await recordSnapshot(team.ctx, { serverId: hiddenId, tools: [tool("pay_salaries")], trigger: "connect" });
  await alert(prodId, "tool_changed", "high", "prod high change");
  await alert(prodId, "server_down", "low", "prod low outage");
  await alert(hiddenId, "tool_changed", "high", "payroll change");
});

afterAll(() => disableServers(team, other));

describe("views CRUD and roles", () => {
  it("a member creates a view; the whole team lists and reads it; the audit log records it", async () => {
    const created = await createView({ name: "GitHub fleet", filters: { servers: { tags: ["vendor:github"], statuses: ["live", "pending"] }, timeRange: "7d", columns: ["name", "status"], sort: { by: "name", dir: "desc" } } });
    expect(created).toMatchObject({ name: "GitHub fleet", pinned: false, createdBy: memberLabel, filters: { servers: { tags: ["vendor:github"] }, timeRange: "7d", sort: { by: "name", dir: "desc" } } });
    const list = expectStatus(await call("GET", "/api/v1/views", { as: viewer }), 200).json;
    expect(list.items.map((v: { id: string }) => v.id)).toContain(created.id);
    expect(expectStatus(await call("GET", `/api/v1/views/${created.id}`, { as: viewer }), 200).json.name).toBe("GitHub fleet");
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: created.id } });
    expect(audit.map((a) => a.action)).toEqual(["view.created"]);
  });

  it("400s name each bad field", async () => {
    const res = await call("POST", "/api/v1/views", {
      as: member,
      body: { name: " ", filters: { servers: { statuses: ["sleeping"], transports: ["carrier-pigeon"] }, alerts: { severities: ["dire"] }, timeRange: "yesterday", sort: { by: "colour" }, extra: 1 } },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.details.fields)).toEqual(
      expect.arrayContaining(["name", "filters.servers.statuses.0", "filters.servers.transports.0", "filters.alerts.severities.0", "filters.timeRange", "filters.sort.by"]),
    );
    const range = await call("POST", "/api/v1/views", { as: member, body: { name: "bad range", filters: { timeRange: { from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z" } } } });
    expect(range.status).toBe(400);
    expect(range.json.error.details.fields).toHaveProperty(["filters.timeRange.from"]);
    const created = await createView({});
    const patch = await call("PATCH", `/api/v1/views/${created.id}`, { as: member, body: {} });
    expect(patch.status).toBe(400);
    expect((await call("PATCH", `/api/v1/views/${created.id}`, { as: member, body: { columns: ["name"] } })).json.error.details.fields).toHaveProperty("_");
  });

  it("a second view with the same name is a 409; PATCH renames and refilters; DELETE → 204 then 404", async () => {
    const a = await createView({ name: `dup-${uniq()}` });
    expect((await call("POST", "/api/v1/views", { as: member, body: { name: a.name } })).status).toBe(409);
    const patched = expectStatus(await call("PATCH", `/api/v1/views/${a.id}`, { as: member, body: { name: `${a.name}-2`, filters: { servers: { query: "git" } } } }), 200).json;
    expect(patched).toMatchObject({ name: `${a.name}-2`, filters: { servers: { query: "git" } } });
    expectStatus(await call("DELETE", `/api/v1/views/${a.id}`, { as: member }), 204);
    expect((await call("GET", `/api/v1/views/${a.id}`, { as: member })).status).toBe(404);
    expect((await call("GET", "/api/v1/views/not-a-uuid", { as: member })).status).toBe(404);
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: a.id }, orderBy: { id: "asc" } });
    expect(audit.map((e) => e.action)).toEqual(["view.created", "view.updated", "view.deleted"]);
    expect(audit[1]!.details).toMatchObject({ fields: ["filters", "name"] });
  });

  it("a viewer reads but may not create, edit, pin, delete or share (403)", async () => {
    const v = await createView({});
    expect((await call("POST", "/api/v1/views", { as: viewer, body: { name: "nope" } })).status).toBe(403);
    expect((await call("PATCH", `/api/v1/views/${v.id}`, { as: viewer, body: { pinned: true } })).status).toBe(403);
    expect((await call("DELETE", `/api/v1/views/${v.id}`, { as: viewer })).status).toBe(403);
    expect((await call("POST", `/api/v1/views/${v.id}/share`, { as: viewer })).status).toBe(403);
    expect((await call("GET", `/api/v1/views/${v.id}/shares`, { as: viewer })).status).toBe(200);
    expect((await call("GET", "/api/v1/views", { as: null })).status).toBe(401);
  });

  it("pinning one view unpins the team's others; the pinned one lists first", async () => {
    const a = await createView({ pinned: true });
    const b = await createView({});
    expectStatus(await call("PATCH", `/api/v1/views/${b.id}`, { as: member, body: { pinned: true } }), 200);
    const c = await createView({ pinned: true }, owner);
    const items = expectStatus(await call("GET", "/api/v1/views", { as: viewer }), 200).json.items as { id: string; pinned: boolean }[];
    expect(items.filter((v) => v.pinned).map((v) => v.id)).toEqual([c.id]);
    expect(items[0]!.id).toBe(c.id);
    expect(items.find((v) => v.id === a.id)!.pinned).toBe(false);
    expectStatus(await call("PATCH", `/api/v1/views/${c.id}`, { as: member, body: { pinned: false } }), 200);
    expect((await testDb().savedView.count({ where: { tenantId: team.id, pinned: true } }))).toBe(0);
    const actions = (await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: { in: [b.id, c.id] } }, orderBy: { id: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["view.created", "view.pinned", "view.created", "view.pinned", "view.unpinned"]);
  });
});

describe("team isolation", () => {
  it("another team can neither read nor change a view or its share links (404)", async () => {
    const v = await createView({});
    const link = await share(v.id);
    const them = other.owner.caller;
    expect((await call("GET", `/api/v1/views/${v.id}`, { as: them })).status).toBe(404);
    expect((await call("PATCH", `/api/v1/views/${v.id}`, { as: them, body: { name: "mine" } })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/views/${v.id}`, { as: them })).status).toBe(404);
    expect((await call("POST", `/api/v1/views/${v.id}/share`, { as: them })).status).toBe(404);
    expect((await call("GET", `/api/v1/views/${v.id}/shares`, { as: them })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/shares/${link.token}`, { as: them })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/shares/${link.id}`, { as: them })).status).toBe(404);
    expect(expectStatus(await call("GET", "/api/v1/views", { as: them }), 200).json.items).toEqual([]);
    expect((await testDb().shareLink.findUniqueOrThrow({ where: { id: link.id } })).revokedAt).toBeNull();
    expect((await call("GET", `/api/v1/share/${link.token}`)).status).toBe(200);
  });
});

describe("share links", () => {
  let viewId: string;
  let link: { id: string; token: string; url: string; expiresAt: string | null };

  beforeAll(async () => {
    viewId = (await createView({ name: "prod github", filters: { servers: { tags: ["vendor:github", "prod"] }, alerts: { severities: ["high"] }, timeRange: "7d" } })).id;
    link = await share(viewId);
  });

  it("POST returns the token and an absolute URL once; the listing never shows the token", async () => {
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toBe(`http://localhost:3000/share/${link.token}`);
    expect(link.expiresAt).toBeNull();
    const listing = expectStatus(await call("GET", `/api/v1/views/${viewId}/shares`, { as: viewer }), 200);
    expect(listing.json.items).toEqual([expect.objectContaining({ id: link.id, tokenStart: link.token.slice(0, 6), status: "active", createdBy: memberLabel, accessCount: 0, lastAccessAt: null })]);
    expect(listing.text).not.toContain(link.token);
    const row = await testDb().shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.stringify(row)).not.toContain(link.token);
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: link.id } });
    expect(audit.map((a) => a.action)).toEqual(["share.created"]);
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(link.token);
  });

  it("the public endpoint needs no sign-in and returns exactly the view's servers, tools and alerts", async () => {
    const res = expectStatus(await call("GET", `/api/v1/share/${link.token}`), 200);
    const body = res.json;
    expect(body.view).toEqual({ name: "prod github", filters: { servers: { tags: ["vendor:github", "prod"] }, alerts: { severities: ["high"] }, timeRange: "7d" } });
    expect(body.servers.map((s: { id: string }) => s.id)).toEqual([prodId]);
    expect(body.servers[0]).toEqual({
      id: prodId, name: "github-prod", status: "pending", transport: "streamable_http", tags: ["prod", "vendor:github"], protocolVersion: null, toolCount: 1, lastChangeAt: expect.any(String),
      tools: [{ name: "search_issues", title: "Search issues", description: "search_issues things", inputSchema: { type: "object", properties: { q: { type: "string" } } }, outputSchema: null, annotations: { readOnlyHint: true } }],
    });
    expect(body.alerts.map((a: { title: string }) => a.title)).toEqual(["prod high change"]);
    expect(Object.keys(body.alerts[0]).sort()).toEqual(["createdAt", "id", "kind", "serverId", "severity", "status", "title", "toolName"]);
    for (const leak of [SECRET, "Authorization", "X-Payroll-Key", "payroll", "pay_salaries", hiddenId, stagingId, "127.0.0.1", team.id, "headerKeys", "envKeys"]) {
      expect(res.text).not.toContain(leak);
    }
    expect((await call("GET", `/api/v1/share/${link.token}`)).status).toBe(200);
  });

  it("each access is counted with its time", async () => {
    const before = (await testDb().shareLink.findUniqueOrThrow({ where: { id: link.id } })).accessCount;
    expectStatus(await call("GET", `/api/v1/share/${link.token}`), 200);
    const items = expectStatus(await call("GET", `/api/v1/views/${viewId}/shares`, { as: member }), 200).json.items;
    expect(items[0].accessCount).toBe(before + 1);
    expect(Date.now() - Date.parse(items[0].lastAccessAt)).toBeLessThan(60_000);
  });

  it("unknown, malformed, expired and revoked links are the same 404, never cached", async () => {
    const unknown = await call("GET", `/api/v1/share/${"A".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect((await call("GET", "/api/v1/share/short")).json).toEqual(unknown.json);
    for (const token of [link.token, "A".repeat(43)]) {
      const raw = await getShared(new Request(`http://localhost:3000/api/v1/share/${token}`), { params: Promise.resolve({ token }) });
      expect(raw.headers.get("cache-control")).toBe("no-store");
      expect(raw.headers.get("referrer-policy")).toBe("no-referrer");
    }

    const expiring = await share(viewId, { expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(expiring.expiresAt).not.toBeNull();
    expectStatus(await call("GET", `/api/v1/share/${expiring.token}`), 200);
    await testDb().shareLink.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call("GET", `/api/v1/share/${expiring.token}`);
    expect(expired.status).toBe(404);
    expect(expired.json).toEqual(unknown.json);
    const statuses = expectStatus(await call("GET", `/api/v1/views/${viewId}/shares`, { as: member }), 200).json.items.map((l: { id: string; status: string }) => [l.id, l.status]);
    expect(statuses).toContainEqual([expiring.id, "expired"]);

    const past = await call("POST", `/api/v1/views/${viewId}/share`, { as: member, body: { expiresAt: "2020-01-01T00:00:00Z" } });
    expect(past.status).toBe(400);
    expect(past.json.error.details.fields).toHaveProperty("expiresAt");
  });

  it("revoking by token works at once, is audited, and a viewer may not revoke", async () => {
    const victim = await share(viewId);
    expect((await call("DELETE", `/api/v1/shares/${victim.token}`, { as: viewer })).status).toBe(403);
    expectStatus(await call("GET", `/api/v1/share/${victim.token}`), 200);
    expectStatus(await call("DELETE", `/api/v1/shares/${victim.token}`, { as: member }), 204);
    const gone = await call("GET", `/api/v1/share/${victim.token}`);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain("github-prod");
    expectStatus(await call("DELETE", `/api/v1/shares/${victim.token}`, { as: member }), 204); // idempotent
    const byId = await share(viewId);
    expectStatus(await call("DELETE", `/api/v1/shares/${byId.id}`, { as: owner }), 204);
    expect((await call("GET", `/api/v1/share/${byId.token}`)).status).toBe(404);
    const items = expectStatus(await call("GET", `/api/v1/views/${viewId}/shares`, { as: member }), 200).json.items as { id: string; status: string }[];
    expect(items.find((l) => l.id === victim.id)!.status).toBe("revoked");
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, targetId: victim.id }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["share.created", "share.revoked"]);
  });

  it("deleting the view ends its links", async () => {
    const v = await createView({});
    const l = await share(v.id);
    expectStatus(await call("GET", `/api/v1/share/${l.token}`), 200);
    expectStatus(await call("DELETE", `/api/v1/views/${v.id}`, { as: member }), 204);
    expect((await call("GET", `/api/v1/share/${l.token}`)).status).toBe(404);
  });
});
