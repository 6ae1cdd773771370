// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, expectStatus, signUp, type Caller, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as authorizeRoute from "@/app/api/v1/servers/[id]/oauth/authorize/route";
import * as callbackRoute from "@/app/api/v1/servers/[id]/oauth/callback/route";
import { startOAuthFixture, type OAuthFixture } from "@/tests/fixtures/oauth-server";
import { testDb, waitFor } from "@/tests/helpers/factories";
import { startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// Issue 16, the product side: OAuth-protected servers watched by a real worker process against an
// OAuth fixture (tests/fixtures/oauth-server.ts), authorized through the real route handlers.

const ORIGIN = "http://localhost:3000";
const db = testDb();
let worker: Proc;
let machine: OAuthFixture;
let interactive: OAuthFixture;
let userA: TestUser;
let userB: TestUser;
let teamA: TestTeam;
let teamB: TestTeam;
/** Every response body the tests saw, to grep for tokens at the end. */
const seen: string[] = [];

async function api(method: "GET" | "POST" | "PATCH", path: string, as: Caller, body?: unknown) {
  const response = await call(method, path, { as, ...(body !== undefined ? { body } : {}) });
  seen.push(response.text);
  return response;
}

/** POST …/oauth/authorize as a browser would (same origin, session cookie). */
async function authorize(serverId: string, as: Caller) {
  const request = new Request(`${ORIGIN}/api/v1/servers/${serverId}/oauth/authorize`, { method: "POST", headers: { host: "localhost:3000", origin: ORIGIN, ...as.headers } });
  const response = await authorizeRoute.POST(request, { params: Promise.resolve({ id: serverId }) });
  const text = await response.text();
  seen.push(text);
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

/** Follows the provider's authorization URL (the fixture auto-approves) to the redirect it answers with. */
async function approveAt(authorizationUrl: string): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  expect(response.status).toBe(302);
  return new URL(response.headers.get("location")!);
}

/** GET …/oauth/callback?code&state as the admin's browser arriving back from the provider. */
async function callback(serverId: string, redirect: URL, as: Caller) {
  const url = `${ORIGIN}/api/v1/servers/${serverId}/oauth/callback${redirect.search}`;
  const response = await callbackRoute.GET(new Request(url, { headers: { host: "localhost:3000", ...as.headers } }), { params: Promise.resolve({ id: serverId }) });
  const text = await response.text();
  seen.push(text);
  return { status: response.status, location: response.headers.get("location"), text };
}

const sessionOf = (serverId: string) => db.serverSession.findUnique({ where: { serverId } });
const listed = (serverId: string) => waitFor("a snapshot", () => db.snapshot.count({ where: { serverId } }), (n) => n > 0, 30_000);
const openAuthAlerts = (serverId: string) => db.alert.findMany({ where: { serverId, kind: "auth_required", status: { not: "resolved" } } });

beforeAll(async () => {
  await db.mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
  machine = await startOAuthFixture({ accessTokenTtlMs: 2_000, clients: [{ clientId: "toolwatch-machine", clientSecret: "cc-secret-Value-123" }] });
  interactive = await startOAuthFixture({ accessTokenTtlMs: 2_000, autoApprove: true });
  userA = await signUp("oauth-a");
  userB = await signUp("oauth-b");
  teamA = await createTeam(userA, "oauth-a");
  teamB = await createTeam(userB, "oauth-b");
  worker = await startProcess("worker/main.ts", { DATABASE_URL: testDatabaseUrl(), TOOLWATCH_DEMO: "0", TOOLWATCH_WORKER_ID: "oauth-worker" }, /watching \d+ server/);
}, 90_000);

afterAll(async () => {
  await db.mcpServer.updateMany({ where: { tenantId: { in: [teamA?.id, teamB?.id].filter(Boolean) as string[] } }, data: { enabled: false } });
  await worker?.stop();
  await Promise.all([machine?.close(), interactive?.close()]);
});

describe("OAuth-protected servers (issue 16)", () => {
  it("a client_credentials server is listed, and survives access-token expiry by a new grant", async () => {
    const created = await api("POST", "/api/v1/servers", userA.caller, {
      name: "machine-notes",
      transport: "streamable-http",
      url: machine.url,
      auth: { type: "oauth", grant: "client_credentials", clientId: "toolwatch-machine", clientSecret: "cc-secret-Value-123", tokenEndpointAuthMethod: "client_secret_post" },
    });
    expectStatus(created, 201, "create");
    expect(created.json.server.auth).toEqual({ type: "oauth", grant: "client_credentials", clientId: "toolwatch-machine", scope: null, hasSecret: true, status: "unauthorized", statusReason: null });
    expect(created.text).not.toContain("cc-secret-Value-123");
    const id = created.json.server.id as string;
    await listed(id);
    expect(machine.grants.client_credentials).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the access token is dead now
    const before = (await sessionOf(id))!.lastListedAt!;
    expectStatus(await api("POST", `/api/v1/servers/${id}/refresh`, userA.caller), 202, "refresh");
    const after = await waitFor("a re-list", () => sessionOf(id), (s) => (s?.lastListedAt?.getTime() ?? 0) > before.getTime(), 20_000);
    expect(["live", "polling"]).toContain(after!.status);
    expect(machine.grants.client_credentials).toBeGreaterThanOrEqual(2);
    const detail = expectStatus(await api("GET", `/api/v1/servers/${id}`, userA.caller), 200, "detail").json;
    expect(detail.server.auth.status).toBe("authorized");
  }, 60_000);

  it("authorization_code: Authorize → provider → callback stores sealed tokens; refresh, revoke → auth_required + alert; re-authorize resolves it", async () => {
    const created = expectStatus(
      await api("POST", "/api/v1/servers", userA.caller, { name: "notes", transport: "streamable-http", url: interactive.url, auth: { type: "oauth", grant: "authorization_code" } }),
      201,
      "create",
    );
    const id = created.json.server.id as string;
    // Never authorized: the worker waits for a person (no alert: nothing was lost yet).
    const waiting = await waitFor("auth_required", () => sessionOf(id), (s) => s?.status === "auth_required", 20_000);
    expect(waiting!.lastErrorCode).toBe("NOT_AUTHORIZED");
    expect(await openAuthAlerts(id)).toHaveLength(0);

    // Another team's admin cannot even start it (the server is not theirs).
    expect((await authorize(id, userB.caller)).status).toBe(404);
    const started = await authorize(id, userA.caller);
    expect(started.status).toBe(200);
    const authorizationUrl = new URL(started.json.authorizationUrl);
    expect(authorizationUrl.origin).toBe(interactive.issuer);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(interactive.url);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/v1/servers/${id}/oauth/callback`);
    const redirect = await approveAt(authorizationUrl.href);

    // A stolen state: another team's admin, and the same admin's server in another team → refused.
    const stolen = await callback(id, redirect, userB.caller);
    expect(stolen.status).toBe(404);
    const done = await callback(id, redirect, userA.caller);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${ORIGIN}/servers/${id}?oauth=authorized`);
    // Single use: the same state again is refused.
    expect((await callback(id, redirect, userA.caller)).status).toBe(409);

    const row = await db.serverOAuthState.findUnique({ where: { serverId: id } });
    expect(row!.status).toBe("authorized");
    expect(row!.tenantId).toBe(teamA.id);
    const tokens = [...interactive.issued];
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const raw = JSON.stringify(await db.$queryRaw`SELECT * FROM server_oauth_state WHERE server_id = ${id}::uuid`);
    for (const t of tokens) expect(raw).not.toContain(t);

    await listed(id);
    const live = await waitFor("live", () => sessionOf(id), (s) => s?.status === "live" || s?.status === "polling", 20_000);
    expect(live!.status).not.toBe("auth_required");

    // Access-token expiry is handled by a refresh.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const before = (await sessionOf(id))!.lastListedAt!;
    expectStatus(await api("POST", `/api/v1/servers/${id}/refresh`, userA.caller), 202, "refresh");
    await waitFor("a re-list after refresh", () => sessionOf(id), (s) => (s?.lastListedAt?.getTime() ?? 0) > before.getTime(), 20_000);
    expect(interactive.grants.refresh_token).toBeGreaterThanOrEqual(1);

    // The provider revokes the refresh token: auth_required with its reason, and an alert.
    interactive.revokeAll();
    expectStatus(await api("POST", `/api/v1/servers/${id}/refresh`, userA.caller), 202, "refresh");
    const required = await waitFor("auth_required", () => sessionOf(id), (s) => s?.status === "auth_required", 20_000);
    expect(required!.lastErrorCode).toBe("AUTH_REQUIRED");
    expect(required!.statusReason).toMatch(/Authorize again/);
    const alerts = await waitFor("an auth_required alert", () => openAuthAlerts(id), (a) => a.length === 1, 10_000);
    expect(alerts[0]!.severity).toBe("high");
    const detail = expectStatus(await api("GET", `/api/v1/servers/${id}`, userA.caller), 200, "detail").json;
    expect(detail.server.status).toBe("auth_required");
    expect(detail.server.auth.status).toBe("auth_required");

    // Re-authorize: the alert resolves and the worker lists again.
    const again = await authorize(id, userA.caller);
    expect((await callback(id, await approveAt(again.json.authorizationUrl), userA.caller)).status).toBe(303);
    expect(await openAuthAlerts(id)).toHaveLength(0);
    await waitFor("live again", () => sessionOf(id), (s) => s?.status === "live" || s?.status === "polling", 20_000);

    // Tokens never in API responses, the audit log, or the worker's output.
    const audit = expectStatus(await api("GET", "/api/v1/audit", userA.caller), 200, "audit");
    expect(audit.text).toContain("server.oauth_authorized");
    const everything = [...seen, JSON.stringify(await db.auditEvent.findMany({ where: { tenantId: teamA.id } }), (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)), worker.output()].join("\n");
    for (const t of [...interactive.issued, ...machine.issued]) expect(everything).not.toContain(t);
    expect(everything).not.toContain("cc-secret-Value-123");
  }, 120_000);

  it("two teams watching the same OAuth server never share a tool-list authorization context", async () => {
    const rows = await db.snapshot.findMany({ where: { server: { tenantId: { in: [teamA.id] } }, authContext: { not: null } }, select: { authContext: true, serverId: true } });
    const contexts = new Set(rows.map((r) => r.authContext));
    expect(contexts.has("anonymous")).toBe(false);
    // Team B registers the same client-credentials server: its context differs from team A's.
    const created = expectStatus(
      await api("POST", "/api/v1/servers", userB.caller, {
        name: "machine-notes",
        transport: "streamable-http",
        url: machine.url,
        auth: { type: "oauth", grant: "client_credentials", clientId: "toolwatch-machine", clientSecret: "cc-secret-Value-123" },
      }),
      201,
      "create B",
    );
    await listed(created.json.server.id);
    const b = await db.snapshot.findFirst({ where: { serverId: created.json.server.id }, select: { authContext: true } });
    expect(b!.authContext).toMatch(/^ac1:/);
    expect(contexts.has(b!.authContext)).toBe(false);
  }, 60_000);
});
