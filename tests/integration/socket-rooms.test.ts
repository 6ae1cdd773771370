import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { getAuth } from "@/lib/auth/auth";
import { removeMember } from "@/lib/auth/members";
import { createTeam } from "@/lib/auth/teams";
import type { ServiceContext } from "@/lib/context";
import { closeDb, getDb } from "@/lib/db";
import { READY_EVENT, SOCKET_EVENT, tenantRoom, type RealtimeEvent } from "@/lib/realtime/events";
import { attachSocketServer, type SocketServer } from "@/lib/realtime/node/socket-server";
import { notifyInTx } from "@/lib/realtime/notify";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// lib/env.ts caches its first read of process.env; nothing above reads it at import time.
process.env.DATABASE_URL = testDatabaseUrl();

const system = { kind: "system", id: "socket-test" } as const;
const PASSWORD = "correct horse battery";

type Client = { socket: Socket; events: RealtimeEvent[]; connects: number; disconnects: string[] };

describe("socket.io: authenticated handshakes, server-chosen rooms", () => {
  let server: http.Server;
  let sockets: SocketServer;
  let base: string;
  const clients: Socket[] = [];
  let teamA: { id: string };
  let teamB: { id: string };
  let alice: string; // cookie of a member of A
  let bob: string; // cookie of a member of B
  let carol: { cookie: string; userId: string }; // member of A and B

  async function signUp(label: string): Promise<{ cookie: string; userId: string }> {
    const email = `${label}-${randomUUID().slice(0, 8)}@example.test`;
    const res = await getAuth().api.signUpEmail({ body: { email, password: PASSWORD, name: label }, returnHeaders: true });
    const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    return { cookie, userId: res.response.user.id };
  }

  function open(options: { cookie?: string; token?: unknown; authorization?: string; origin?: string } = {}): Client {
    const extraHeaders: Record<string, string> = {};
    if (options.cookie) extraHeaders.cookie = options.cookie;
    if (options.authorization) extraHeaders.authorization = options.authorization;
    if (options.origin) extraHeaders.origin = options.origin;
    const socket = connect(base, {
      transports: ["websocket"],
      forceNew: true,
      extraHeaders,
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
      ...(options.token !== undefined ? { auth: { token: options.token } } : {}),
    });
    clients.push(socket);
    const client: Client = { socket, events: [], connects: 0, disconnects: [] };
    socket.on("connect", () => void client.connects++);
    socket.on("disconnect", (reason) => void client.disconnects.push(reason));
    socket.on(SOCKET_EVENT, (event: RealtimeEvent) => void client.events.push(event));
    return client;
  }

  async function refusal(client: Client): Promise<string> {
    return new Promise((resolve) => client.socket.once("connect_error", (error) => resolve(error.message)));
  }

  const notify = (tenantId: string) => {
    const serverId = randomUUID();
    return getDb()
      .$transaction((tx) => notifyInTx(tx, { type: "server:changed", tenantId, serverId }))
      .then(() => serverId);
  };
  const got = (client: Client, serverId: string) => client.events.some((e) => "serverId" in e && e.serverId === serverId);

  /** NOTIFYs for `tenantId` until `client` hears one (rooms are joined just after connect). */
  async function delivered(client: Client, tenantId: string): Promise<string> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const id = await notify(tenantId);
      for (let i = 0; i < 10; i++) {
        if (got(client, id)) return id;
        await new Promise((r) => setTimeout(r, 30));
      }
    }
    throw new Error(`no event for tenant ${tenantId} reached the socket`);
  }

  /**
   * Proves `client` does not get `tenantId`'s events: one is sent, then one for a team the client
   * is in; NOTIFYs and each socket's messages keep their order, so once the second has arrived
   * the first would have too.
   */
  async function notDelivered(client: Client, tenantId: string, ownTenantId: string): Promise<void> {
    const foreign = await notify(tenantId);
    await delivered(client, ownTenantId);
    expect(got(client, foreign)).toBe(false);
  }

  const waitUntil = async (what: string, check: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  beforeAll(async () => {
    const db = getDb();
    server = http.createServer();
    sockets = attachSocketServer(server, { listenUrl: testDatabaseUrl(), db, revalidateMs: 250 });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const a = await signUp("alice");
    const b = await signUp("bob");
    carol = await signUp("carol");
    alice = a.cookie;
    bob = b.cookie;
    const tag = randomUUID().slice(0, 8);
    teamA = await createTeam(db, { slug: `sock-a-${tag}` }, { userId: a.userId, email: "alice" }, system);
    teamB = await createTeam(db, { slug: `sock-b-${tag}` }, { userId: b.userId, email: "bob" }, system);
    await db.member.createMany({
      data: [
        { tenantId: teamA.id, userId: carol.userId, role: "member" },
        { tenantId: teamB.id, userId: carol.userId, role: "viewer" },
      ],
    });
  });

  afterAll(async () => {
    for (const socket of clients) socket.close();
    await sockets?.close();
    await closeDb();
  });

  const ctxOf = (tenantId: string): ServiceContext => ({ tenantId, actor: system, db: getDb() });

  it("a change in team A reaches A's member and not B's, and the other way round", async () => {
    const a = open({ cookie: alice });
    const b = open({ cookie: bob });
    await delivered(a, teamA.id);
    await delivered(b, teamB.id);
    await notDelivered(b, teamA.id, teamB.id);
    await notDelivered(a, teamB.id, teamA.id);
  });

  it("says toolwatch:ready only once the socket is in every room of its teams, so an event sent then is heard", async () => {
    const c = open({ cookie: carol.cookie });
    const roomsAtReady = await new Promise<[boolean, boolean]>((resolve) =>
      c.socket.once(READY_EVENT, () =>
        void Promise.all([teamA, teamB].map(async (t) => (await sockets.io.in(tenantRoom(t.id)).fetchSockets()).some((s) => s.id === c.socket.id))).then((r) => resolve([r[0]!, r[1]!])),
      ),
    );
    expect(roomsAtReady).toEqual([true, true]);
    // One NOTIFY, no retries (delivered() would retry until one lands).
    const serverId = await notify(teamA.id);
    await waitUntil("the first event after ready", () => got(c, serverId));
  });

  it("view and share-link changes reach the team's own sockets (views pages refetch) and no other team's", async () => {
    const a = open({ cookie: alice });
    const b = open({ cookie: bob });
    await delivered(a, teamA.id);
    await delivered(b, teamB.id);
    const viewId = randomUUID();
    const linkId = randomUUID();
    await getDb().$transaction(async (tx) => {
      await notifyInTx(tx, { type: "view:changed", tenantId: teamA.id, viewId });
      await notifyInTx(tx, { type: "share:revoked", tenantId: teamA.id, linkId });
    });
    await waitUntil("A hears both", () => a.events.some((e) => e.type === "view:changed" && e.viewId === viewId) && a.events.some((e) => e.type === "share:revoked" && e.linkId === linkId));
    await delivered(b, teamB.id); // NOTIFY order: had A's events been relayed to B, they would be here by now
    expect(b.events.some((e) => e.type === "view:changed" || e.type === "share:revoked")).toBe(false);
  });

  it("an API key's socket (auth.token or an Authorization header) is in its own team's room only", async () => {
    const { key } = await createApiKey(ctxOf(teamB.id), { name: "socket", role: "viewer" });
    for (const client of [open({ token: key }), open({ authorization: `Bearer ${key}` })]) {
      await delivered(client, teamB.id);
      await notDelivered(client, teamA.id, teamB.id);
    }
  });

  it("refuses handshakes without credentials, with a bad or revoked key, or with a cookie from another site", async () => {
    const { key, id } = await createApiKey(ctxOf(teamA.id), { name: "revoked", role: "viewer" });
    await revokeApiKey(ctxOf(teamA.id), id);
    const attempts = [
      open(),
      open({ token: "tw_not-a-real-key" }),
      open({ token: 42 }),
      open({ token: key }),
      open({ authorization: "Basic abc" }),
      open({ cookie: "toolwatch.session_token=forged" }),
      open({ cookie: alice, origin: "https://evil.example" }),
    ];
    const messages = await Promise.all(attempts.map(refusal));
    expect(messages).toEqual(attempts.map(() => "unauthorized"));
    expect(attempts.every((c) => c.connects === 0 && c.events.length === 0)).toBe(true);
  });

  it("a client cannot join another team's room by asking", async () => {
    const b = open({ cookie: bob });
    await delivered(b, teamB.id);
    const room = `tenant:${teamA.id}`;
    for (const event of ["join", "subscribe", "joinRoom", "room:join", "tenant", "switch"]) {
      b.socket.emit(event, room);
      b.socket.emit(event, { room, tenantId: teamA.id });
    }
    await notDelivered(b, teamA.id, teamB.id);
  });

  it("removing a member drops their socket; it reconnects by itself without that team's events", async () => {
    const c = open({ cookie: carol.cookie });
    await delivered(c, teamA.id);
    await delivered(c, teamB.id);
    const member = await getDb().member.findFirstOrThrow({ where: { tenantId: teamA.id, userId: carol.userId } });
    const a = open({ cookie: alice });
    await delivered(a, teamA.id);

    await removeMember(ctxOf(teamA.id), member.id);
    await waitUntil("carol's socket to reconnect", () => c.connects === 2);
    expect(c.disconnects).toEqual(["transport close"]);
    // Only carol hears why, in her own room; team A's room is not told who left.
    expect(a.events.some((e) => e.type === "membership:changed")).toBe(false);
    await notDelivered(c, teamA.id, teamB.id);
    await delivered(a, teamA.id);
  });

  it("a socket whose key is revoked, or whose session is signed out, is dropped", async () => {
    const { key, id } = await createApiKey(ctxOf(teamA.id), { name: "to revoke", role: "viewer" });
    const k = open({ token: key });
    const user = await signUp("dave");
    await getDb().member.create({ data: { tenantId: teamA.id, userId: user.userId, role: "viewer" } });
    const u = open({ cookie: user.cookie });
    await delivered(k, teamA.id);
    await delivered(u, teamA.id);

    await revokeApiKey(ctxOf(teamA.id), id);
    await getAuth().api.signOut({ headers: new Headers({ cookie: user.cookie }) });
    await waitUntil("both sockets to be dropped", () => k.disconnects.length > 0 && u.disconnects.length > 0);
    expect([k.disconnects[0], u.disconnects[0]]).toEqual(["io server disconnect", "io server disconnect"]);
  });
});
