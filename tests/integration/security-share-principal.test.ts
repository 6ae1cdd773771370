// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addBareMember, bearer, call, createHttpServer, createServerWithSnapshot, createTeam, disableServers, expectStatus, mintKey, signUp, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acknowledgeAlert, bulkAcknowledgeAlerts } from "@/lib/alerts/acknowledge-alert";
import { approveAlert } from "@/lib/alerts/approve-alert";
import { rejectAlert } from "@/lib/alerts/reject-alert";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { cancelInvitation, createInvitation, listInvitations } from "@/lib/auth/invitations";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { can, PERMISSIONS, requirePermission, type Permission } from "@/lib/auth/permissions";
import { listAuditEvents } from "@/lib/audit-log/list-audit";
import type { ServiceContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { createServersBatch } from "@/lib/servers/create-servers-batch";
import { listServers } from "@/lib/servers/list-servers";
import { createServer } from "@/lib/servers/create-server";
import { deleteServer } from "@/lib/servers/delete-server";
import { requestRefresh } from "@/lib/servers/request-refresh";
import { updateServer } from "@/lib/servers/update-server";
import { shareContext } from "@/lib/views/resolve-share";
import { createShareLink, revokeShareLink } from "@/lib/views/share-links";
import { createView, deleteView, updateView } from "@/lib/views/views";
import { createWebhook, deleteWebhook } from "@/lib/webhooks/save-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { testDb } from "@/tests/helpers/factories";

// Issue 13: a share link is a read-only window on one view of one team. It used to act as the
// `system` principal, which passes every permission check, so "read-only" held by convention
// only. A share principal now has exactly one permission, reading its own team, and nothing else.

type Fixture = { a: TestTeam; b: TestTeam; ownerA: TestUser; ownerB: TestUser; serverA: string; serverB: string; viewId: string; link: { id: string; token: string }; keyId: string; memberId: string; invitationId: string };
let f: Fixture;
let share: ServiceContext;

beforeAll(async () => {
  const ownerA = await signUp("share13-a");
  const ownerB = await signUp("share13-b");
  const a = await createTeam(ownerA, "share13-a");
  const b = await createTeam(ownerB, "share13-b");
  const { serverId: serverA } = await createServerWithSnapshot(a, "alpha-shared-server");
  const { serverId: serverB } = await createServerWithSnapshot(b, "bravo-secret-server");
  const viewId = expectStatus(await call("POST", "/api/v1/views", { as: ownerA.caller, body: { name: "shared view" } }), 201).json.id;
  const link = expectStatus(await call("POST", `/api/v1/views/${viewId}/share`, { as: ownerA.caller, body: {} }), 201).json;
  const keyId = (await mintKey(ownerA.caller, "viewer", "a-viewer-key")).id;
  const { memberId } = await addBareMember(a, "viewer");
  const invitationId = expectStatus(await call("POST", "/api/v1/invitations", { as: ownerA.caller, body: { email: `s13-${randomUUID().slice(0, 6)}@access.test`, role: "viewer" } }), 201).json.id;
  f = { a, b, ownerA, ownerB, serverA, serverB, viewId, link, keyId, memberId, invitationId };
  share = shareContext(testDb(), await testDb().shareLink.findUniqueOrThrow({ where: { id: link.id } }));
});
afterAll(async () => {
  if (f) await disableServers(f.a, f.b);
});

const WRITES = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => p !== "team:read");

describe("the share principal's permissions", () => {
  it("is not the system principal", () => {
    expect(share.actor.kind).toBe("share");
  });

  it.each(WRITES)("%s: refused (can() false, requirePermission throws 403)", (permission) => {
    expect(can(share, permission)).toBe(false);
    expect(() => requirePermission(share, permission)).toThrow(AppError);
    try {
      requirePermission(share, permission);
    } catch (error) {
      expect((error as AppError).code).toBe("FORBIDDEN");
    }
  });

  it("may read its own team", () => {
    expect(can(share, "team:read")).toBe(true);
  });
});

async function teamAState() {
  const db = testDb();
  const where = { tenantId: f.a.id };
  return Promise.all([
    db.mcpServer.findMany({ where, select: { id: true, name: true, tags: true, enabled: true }, orderBy: { id: "asc" } }),
    db.apiKey.findMany({ where: { referenceId: f.a.id }, select: { id: true, enabled: true }, orderBy: { id: "asc" } }),
    db.member.findMany({ where, select: { id: true, role: true }, orderBy: { id: "asc" } }),
    db.invitation.findMany({ where, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    db.savedView.findMany({ where, select: { id: true, name: true }, orderBy: { id: "asc" } }),
    db.shareLink.findMany({ where, select: { id: true, revokedAt: true }, orderBy: { id: "asc" } }),
    db.webhook.count({ where }),
    db.auditEvent.count({ where }),
  ]);
}

describe("every mutating verb refuses a share principal, and team A stays as it was", () => {
  const none = { allowStdio: false };
  const http = { name: "smuggled", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" };
  const verbs: [string, () => Promise<unknown>][] = [
    ["createServer", () => createServer(share, http, none)],
    ["createServersBatch", () => createServersBatch(share, { servers: [http] }, none)],
    ["updateServer", () => updateServer(share, { serverId: f.serverA, patch: { tags: ["owned"] } }, none)],
    ["deleteServer", () => deleteServer(share, { serverId: f.serverA })],
    ["requestRefresh", () => requestRefresh(share, { serverId: f.serverA })],
    ["createApiKey", () => createApiKey(share, { name: "side", role: "owner" })],
    ["listApiKeys", () => listApiKeys(share)],
    ["revokeApiKey", () => revokeApiKey(share, f.keyId)],
    ["createInvitation", () => createInvitation(share, { email: "side@access.test", role: "owner" })],
    ["listInvitations", () => listInvitations(share)],
    ["cancelInvitation", () => cancelInvitation(share, f.invitationId)],
    ["changeMemberRole", () => changeMemberRole(share, f.memberId, { role: "owner" })],
    ["removeMember", () => removeMember(share, f.memberId)],
    ["createView", () => createView(share, { name: "side view" })],
    ["updateView", () => updateView(share, f.viewId, { name: "renamed" })],
    ["deleteView", () => deleteView(share, f.viewId)],
    ["createShareLink", () => createShareLink(share, f.viewId, {})],
    ["revokeShareLink", () => revokeShareLink(share, f.link.id)],
    ["createWebhook", () => createWebhook(share, { name: "side", url: "https://hooks.example.test/x" })],
    ["listWebhooks", () => listWebhooks(share)],
    ["deleteWebhook", () => deleteWebhook(share, randomUUID())],
    ["acknowledgeAlert", () => acknowledgeAlert(share, randomUUID(), {})],
    ["bulkAcknowledgeAlerts", () => bulkAcknowledgeAlerts(share, { ids: [randomUUID()] })],
    ["approveAlert", () => approveAlert(share, randomUUID(), {})],
    ["rejectAlert", () => rejectAlert(share, randomUUID(), {})],
    ["listAuditEvents", () => listAuditEvents(share, {})],
  ];
  let before: Awaited<ReturnType<typeof teamAState>>;
  beforeAll(async () => {
    before = await teamAState();
  });

  it.each(verbs)("%s → FORBIDDEN", async (_name, run) => {
    const error = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("FORBIDDEN");
  });

  it("nothing of team A changed", async () => {
    expect(await teamAState()).toEqual(before);
  });
});

describe("a share of team A cannot read team B", () => {
  it("its principal in team B's context may not even read (403), and lists none of B's servers", async () => {
    const smuggled: ServiceContext = { ...share, tenantId: f.b.id };
    expect(can(smuggled, "team:read")).toBe(false);
    const error = await listServers(smuggled).then(
      (servers) => servers.map((s) => s.name),
      (e: unknown) => (e as AppError).code,
    );
    expect(error).toBe("FORBIDDEN");
  });

  it("GET /api/v1/share/{token of A} shows A's server and nothing of B", async () => {
    const res = expectStatus(await call("GET", `/api/v1/share/${f.link.token}`), 200);
    expect(res.json.servers.map((s: { name: string }) => s.name)).toEqual(["alpha-shared-server"]);
    expect(res.text).not.toContain("bravo-secret-server");
    expect(res.text).not.toContain(f.serverB);
    expect(res.text).not.toContain(f.b.id);
  });
});

describe("a share token is not an API credential", () => {
  it.each([
    ["Authorization: Bearer <share token>", () => bearer(f.link.token, "share token as bearer")],
    ["x-api-key: <share token>", () => ({ label: "share token as x-api-key", headers: { "x-api-key": f.link.token } })],
    ["Authorization: Bearer tw_<share token>", () => bearer(`tw_${f.link.token}`, "share token with the key prefix")],
  ])("%s → 401 on /api/v1/*", async (_title, caller) => {
    for (const path of ["/api/v1/me", "/api/v1/servers", `/api/v1/servers/${f.serverA}`, "/api/v1/views", "/api/v1/alerts"]) {
      const res = await call("GET", path, { as: caller() });
      expect(res.status, `${path}: ${res.text}`).toBe(401);
      expect(res.text).not.toContain("alpha-shared-server");
    }
    const write = await call("POST", "/api/v1/servers", { as: caller(), body: { name: "via-share", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" } });
    expect(write.status).toBe(401);
    expect(await testDb().mcpServer.count({ where: { tenantId: f.a.id, name: "via-share" } })).toBe(0);
  });

  it("the share route itself ignores credentials: a team B owner's session gains nothing of A beyond the view", async () => {
    const res = expectStatus(await call("GET", `/api/v1/share/${f.link.token}`, { as: f.ownerB.caller }), 200);
    expect(Object.keys(res.json).sort()).toEqual(["alerts", "generatedAt", "servers", "view"]);
    await createHttpServer(f.a, "alpha-unshared-later");
    // The view has no filter: a server added later is shown too, and still none of B's.
    const again = expectStatus(await call("GET", `/api/v1/share/${f.link.token}`), 200);
    expect(again.json.servers.map((s: { name: string }) => s.name).sort()).toEqual(["alpha-shared-server", "alpha-unshared-later"]);
  });
});
