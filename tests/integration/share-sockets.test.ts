// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createHttpServer, createTeam, disableServers, expectStatus, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_SOCKET_EVENT, type RealtimeEvent, type ShareSocketEvent } from "@/lib/realtime/events";
import { attachSocketServer, type SocketServer } from "@/lib/realtime/node/socket-server";
import { notifyInTx } from "@/lib/realtime/notify";
import { updateSessionState } from "@/lib/sessions/update-session-state";
import { SHARE_REFRESH_HEADER } from "@/lib/views/view-dto";
import { testDb } from "@/tests/helpers/factories";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// Live share pages over socket.io (issue 7), with the real socket server, Postgres NOTIFY and the
// real route handlers: a share socket hears only about the servers its view shows, carries no
// tenant id, and is dropped the moment its link is revoked, expires or loses its view.

type Client = { socket: Socket; events: ShareSocketEvent[]; connects: number; disconnects: string[] };

let team: TestTeam;
let other: TestTeam;
let member: Caller;
let sockets: SocketServer;
let server: http.Server;
let base: string;
const clients: Socket[] = [];
let prodId: string; // tags prod: in the "prod" view
let prod2Id: string; // tags prod too
let stagingId: string; // same team, tags staging: never in the "prod" view
let foreignId: string; // another team, tags prod

const uniq = () => randomUUID().slice(0, 8);

async function createView(filters: Record<string, unknown>): Promise<string> {
  return expectStatus(await call("POST", "/api/v1/views", { as: member, body: { name: `view-${uniq()}`, filters } }), 201, "create view").json.id;
}

async function share(viewId: string): Promise<{ id: string; token: string }> {
  return expectStatus(await call("POST", `/api/v1/views/${viewId}/share`, { as: member }), 201, "share").json;
}

function open(shareToken: unknown, extra: { cookie?: string } = {}): Client {
  const socket = connect(base, {
    transports: ["websocket"],
    forceNew: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 200,
    auth: { shareToken },
    ...(extra.cookie ? { extraHeaders: { cookie: extra.cookie } } : {}),
  });
  clients.push(socket);
  const client: Client = { socket, events: [], connects: 0, disconnects: [] };
  socket.on("connect", () => void client.connects++);
  socket.on("disconnect", (reason) => void client.disconnects.push(reason));
  socket.on(SHARE_SOCKET_EVENT, (event: ShareSocketEvent) => void client.events.push(event));
  return client;
}

const refusal = (client: Client) => new Promise<string>((resolve) => client.socket.once("connect_error", (error) => resolve(error.message)));

/** A NOTIFY as the worker sends it after a snapshot (ids only; the relay reads nothing else). */
const notify = (tenantId: string, serverId: string, type: "snapshot:recorded" | "alert:changed" = "snapshot:recorded") => {
  const event: RealtimeEvent =
    type === "snapshot:recorded" ? { type, tenantId, serverId, snapshotId: randomUUID() } : { type, tenantId, serverId, alertId: randomUUID() };
  return testDb().$transaction((tx) => notifyInTx(tx, event));
};

const heard = (client: Client, serverId: string) => client.events.filter((e) => e.type === "share:changed" && e.serverId === serverId).length;

const waitUntil = async (what: string, check: () => boolean) => {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** NOTIFYs about `serverId` until `client` hears one more (its room and scope are set just after connect). */
async function delivered(client: Client, tenantId: string, serverId: string): Promise<void> {
  const before = heard(client, serverId);
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await notify(tenantId, serverId);
    for (let i = 0; i < 10; i++) {
      if (heard(client, serverId) > before) {
        // An earlier NOTIFY of this loop may still be on its way: let it land, so callers that
        // count events from here on count only their own.
        await new Promise((r) => setTimeout(r, 500));
        return;
      }
      await new Promise((r) => setTimeout(r, 30));
    }
  }
  throw new Error(`no event about ${serverId} reached the share socket`);
}

/**
 * Proves `client` is not told about `forbidden`: its event is sent first, then one about a server
 * the view shows; NOTIFYs, the relay's queue and each socket keep their order, so once the second
 * has arrived the first would have too.
 */
async function notDelivered(client: Client, forbidden: { tenantId: string; serverId: string }, allowed: { tenantId: string; serverId: string }): Promise<void> {
  const before = heard(client, forbidden.serverId);
  await notify(forbidden.tenantId, forbidden.serverId);
  await notify(forbidden.tenantId, forbidden.serverId, "alert:changed");
  await delivered(client, allowed.tenantId, allowed.serverId);
  expect(heard(client, forbidden.serverId)).toBe(before);
}

beforeAll(async () => {
  const owner = await signUp("share-sock-owner");
  team = await createTeam(owner, "share-sock");
  member = owner.caller;
  other = await createTeam(await signUp("share-sock-other"), "share-sock-other");
  prodId = await createHttpServer(team, "prod-mcp");
  prod2Id = await createHttpServer(team, "prod2-mcp");
  stagingId = await createHttpServer(team, "staging-mcp");
  foreignId = await createHttpServer(other, "foreign-prod-mcp");
  await testDb().mcpServer.updateMany({ where: { id: { in: [prodId, foreignId] } }, data: { tags: ["prod"] } });
  await testDb().mcpServer.update({ where: { id: prod2Id }, data: { tags: ["prod"] } });
  await testDb().mcpServer.update({ where: { id: stagingId }, data: { tags: ["staging"] } });

  server = http.createServer();
  sockets = attachSocketServer(server, { listenUrl: testDatabaseUrl(), db: testDb(), revalidateMs: 250 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of clients) socket.close();
  await sockets?.close();
  await disableServers(team, other);
});

describe("share sockets: one link, one view, nothing after revocation", () => {
  it("hear the view's servers only — never another server of the team, never another team — and carry no tenant id", async () => {
    const link = await share(await createView({ servers: { tags: ["prod"] } }));
    const client = open(link.token);
    await delivered(client, team.id, prodId);
    const allowed = { tenantId: team.id, serverId: prodId };
    await notDelivered(client, { tenantId: team.id, serverId: stagingId }, allowed);
    await notDelivered(client, { tenantId: other.id, serverId: foreignId }, allowed);
    // Even an event naming a server of the view is not this link's when it is another tenant's.
    const before = heard(client, prodId);
    await notify(other.id, prodId);
    await notify(team.id, prodId); // the real one, after it
    await delivered(client, team.id, prod2Id); // arrives after both
    expect(heard(client, prodId)).toBe(before + 1);

    expect(client.events.every((e) => e.type === "share:changed" && Object.keys(e).sort().join() === "serverId,type")).toBe(true);
    expect(JSON.stringify(client.events)).not.toContain(team.id);
  });

  it("a status change that moves a server out of the view is told once; later events of it are not", async () => {
    const flappy = await createHttpServer(team, "flappy-mcp");
    const steady = await createHttpServer(team, "steady-mcp");
    await testDb().mcpServer.updateMany({ where: { id: { in: [flappy, steady] } }, data: { tags: ["flap"] } });
    for (const id of [flappy, steady]) await updateSessionState(team.ctx, id, { status: "live" });
    const link = await share(await createView({ servers: { tags: ["flap"], statuses: ["live"] } }));
    const client = open(link.token);
    await delivered(client, team.id, flappy);

    const before = heard(client, flappy);
    await updateSessionState(team.ctx, flappy, { status: "down", reason: "test" });
    await waitUntil("the status change to be told", () => heard(client, flappy) === before + 1);
    const shown = expectStatus(await call("GET", `/api/v1/share/${link.token}`), 200).json.servers.map((s: { id: string }) => s.id);
    expect(shown).toEqual([steady]);
    await notDelivered(client, { tenantId: team.id, serverId: flappy }, { tenantId: team.id, serverId: steady });

    await updateSessionState(team.ctx, flappy, { status: "live" });
    await waitUntil("its return to be told", () => heard(client, flappy) >= before + 2);
  });

  it("editing the view tells its pages (no server id) and re-scopes them", async () => {
    const viewId = await createView({ servers: { tags: ["prod"] } });
    const client = open((await share(viewId)).token);
    await delivered(client, team.id, prodId);
    expectStatus(await call("PATCH", `/api/v1/views/${viewId}`, { as: member, body: { filters: { servers: { tags: ["staging"] } } } }), 200);
    await waitUntil("the view change to be told", () => client.events.some((e) => e.type === "share:changed" && e.serverId === null));
    await notDelivered(client, { tenantId: team.id, serverId: prodId }, { tenantId: team.id, serverId: stagingId });
  });

  it("refuses handshakes with an unknown, malformed, revoked or expired token, or one whose view was deleted — alike", async () => {
    const revoked = await share(await createView({}));
    expectStatus(await call("DELETE", `/api/v1/shares/${revoked.token}`, { as: member }), 204);
    const expired = await share(await createView({}));
    await testDb().shareLink.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const orphanView = await createView({});
    const orphan = await share(orphanView);
    expectStatus(await call("DELETE", `/api/v1/views/${orphanView}`, { as: member }), 204);

    const attempts = [randomBytes(32).toString("base64url"), "short", 42, null, "", revoked.token, expired.token, orphan.token].map((t) => open(t));
    // A valid session cookie does not turn a bad share token into a team socket.
    const withCookie = open(revoked.token, { cookie: member.headers.cookie });
    const all = [...attempts, withCookie];
    expect(await Promise.all(all.map(refusal))).toEqual(all.map(() => "unauthorized"));
    expect(all.every((c) => c.connects === 0 && c.events.length === 0)).toBe(true);
  });

  it("revoking a link sends share:revoked and disconnects its sockets for good; other links stay", async () => {
    const viewId = await createView({ servers: { tags: ["prod"] } });
    const doomed = await share(viewId);
    const kept = await share(viewId);
    const a = open(doomed.token);
    const b = open(kept.token);
    await delivered(a, team.id, prodId);
    await delivered(b, team.id, prodId);

    expectStatus(await call("DELETE", `/api/v1/shares/${doomed.token}`, { as: member }), 204);
    await waitUntil("the revoked link's socket to be dropped", () => a.disconnects.length > 0);
    expect(a.events.at(-1)).toEqual({ type: "share:revoked" });
    expect(a.disconnects).toEqual(["io server disconnect"]);
    expect((await call("GET", `/api/v1/share/${doomed.token}`)).status).toBe(404);
    await delivered(b, team.id, prodId);
    expect(b.disconnects).toEqual([]);
    // It does not come back: no retry after a server-side disconnect, and a new handshake is refused.
    await new Promise((r) => setTimeout(r, 300));
    expect(a.connects).toBe(1);
    expect(await refusal(open(doomed.token))).toBe("unauthorized");
  });

  it("deleting the view drops its links' sockets at once", async () => {
    const viewId = await createView({});
    const client = open((await share(viewId)).token);
    await delivered(client, team.id, prodId);
    expectStatus(await call("DELETE", `/api/v1/views/${viewId}`, { as: member }), 204);
    await waitUntil("the socket to be dropped", () => client.disconnects.length > 0);
    expect(client.events.at(-1)).toEqual({ type: "share:revoked" });
    expect(client.disconnects).toEqual(["io server disconnect"]);
  });

  it("an expired link's socket is dropped by the periodic check", async () => {
    const link = await share(await createView({}));
    const client = open(link.token);
    await delivered(client, team.id, prodId);
    await testDb().shareLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await waitUntil("the socket to be dropped", () => client.disconnects.length > 0);
    expect(client.events.at(-1)).toEqual({ type: "share:revoked" });
    expect(client.disconnects).toEqual(["io server disconnect"]);
  });

  it("counts page loads as accesses, not sockets nor the page's own refreshes", async () => {
    const link = await share(await createView({}));
    const row = () => testDb().shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expectStatus(await call("GET", `/api/v1/share/${link.token}`), 200);
    const loaded = await row();
    expect(loaded.accessCount).toBe(1);

    const client = open(link.token);
    await delivered(client, team.id, prodId);
    client.socket.disconnect().connect();
    await waitUntil("a reconnect", () => client.connects === 2);
    expectStatus(await call("GET", `/api/v1/share/${link.token}`, { headers: { [SHARE_REFRESH_HEADER]: "1" } }), 200);
    const refreshed = await row();
    expect(refreshed.accessCount).toBe(1);
    expect(refreshed.lastAccessAt!.getTime()).toBeGreaterThan(loaded.lastAccessAt!.getTime());
  });
});
