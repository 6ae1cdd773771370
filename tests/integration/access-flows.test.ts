// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, bearer, call, createHttpServer, createTeam, disableServers, expectStatus, mintKey, signUp, UNREACHABLE_URL, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_USER_EMAIL } from "@/lib/auth/demo-account";
import { testDb } from "@/tests/helpers/factories";

// Whole flows through the routes: the first account, invitations by link, membership re-checked
// per request, the life of an API key, and an audit log that names actors and holds no secret.

const teams: TestTeam[] = [];
let first: TestUser;
afterAll(async () => disableServers(...teams));

beforeAll(async () => {
  first = await signUp("first");
});

describe("the first account administers the instance", () => {
  it("exactly one account is instance admin, and later sign-ups are not", async () => {
    const later = await signUp("later");
    expect(await testDb().user.count({ where: { instanceAdmin: true } })).toBe(1);
    const admin = await testDb().user.findFirstOrThrow({ where: { instanceAdmin: true } });
    // …and it is the earliest account that signed up (has a password), the demo account aside.
    const earliest = await testDb().user.findFirstOrThrow({ where: { accounts: { some: {} }, email: { not: DEMO_USER_EMAIL } }, orderBy: { createdAt: "asc" } });
    expect(earliest.id).toBe(admin.id);
    for (const u of [first, later]) {
      const me = expectStatus(await call("GET", "/api/v1/me", { as: u.caller }), 200).json;
      expect(me.user.instanceAdmin).toBe(u.id === admin.id);
    }
    expect(expectStatus(await call("GET", "/api/v1/me", { as: later.caller }), 200).json.user.instanceAdmin).toBe(false);
  });
});

describe("invitations by link", () => {
  let owner: TestUser;
  let admin: TestUser;
  let team: TestTeam;
  const invitee = `x-${randomUUID().slice(0, 8)}@y.test`;
  let invitationId: string;

  beforeAll(async () => {
    owner = await signUp("inv-owner");
    team = await createTeam(owner, "inv");
    teams.push(team);
    admin = await signUp("inv-admin");
    await addMember(team, admin, "admin");
  });

  it("an admin invites x@y as member and gets a link", async () => {
    const res = expectStatus(await call("POST", "/api/v1/invitations", { as: admin.caller, body: { email: invitee, role: "member" } }), 201);
    invitationId = res.json.id;
    expect(res.json).toMatchObject({ email: invitee, role: "member", status: "pending", path: `/invite/${invitationId}` });
    expect(res.json.url).toBe(`http://localhost:3000/invite/${invitationId}`);
  });

  it("whoever holds the link reads what it is for, without signing in", async () => {
    const res = expectStatus(await call("GET", `/api/v1/invitations/${invitationId}`), 200);
    expect(res.json).toMatchObject({ id: invitationId, email: invitee, role: "member", status: "pending", team: { slug: team.slug }, inviter: admin.email });
    expect((await call("GET", `/api/v1/invitations/${randomUUID()}`)).status).toBe(404);
  });

  it("someone signed in with another email gets 403 and does not join", async () => {
    const other = await signUp("other");
    const res = await call("POST", `/api/v1/invitations/${invitationId}/accept`, { as: other.caller });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.message).toMatch(/another email/);
    expect(await testDb().member.count({ where: { tenantId: team.id, userId: other.id } })).toBe(0);
  });

  it("x@y signs up, accepts, is a member with that role, and /me shows the team", async () => {
    const x = await signUp("x", invitee);
    const res = expectStatus(await call("POST", `/api/v1/invitations/${invitationId}/accept`, { as: x.caller }), 200);
    expect(res.json).toEqual({ tenantId: team.id, role: "member" });
    const me = expectStatus(await call("GET", "/api/v1/me", { as: x.caller }), 200).json;
    expect(me).toMatchObject({ team: { id: team.id }, role: "member" });
    expect(me.teams.map((t: { id: string }) => t.id)).toEqual([team.id]);
    const members = expectStatus(await call("GET", "/api/v1/members", { as: owner.caller }), 200).json.items;
    expect(members.find((m: { email: string }) => m.email === invitee)).toMatchObject({ role: "member", userId: x.id });
    // Used once: a second accept fails, and the invitation no longer shows as pending.
    expect((await call("POST", `/api/v1/invitations/${invitationId}/accept`, { as: x.caller })).status).toBe(404);
    expect(expectStatus(await call("GET", `/api/v1/invitations/${invitationId}`), 200).json.status).toBe("accepted");
    // Switching to a team x does not belong to is a 404, like a team that does not exist.
    const elsewhere = await createTeam(await signUp("elsewhere"), "elsewhere");
    const foreign = await call("POST", "/api/v1/teams/active", { as: x.caller, body: { teamId: elsewhere.id } });
    const missing = await call("POST", "/api/v1/teams/active", { as: x.caller, body: { teamId: randomUUID() } });
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.json).toEqual(missing.json);
    expect(expectStatus(await call("GET", "/api/v1/me", { as: x.caller }), 200).json.team.id).toBe(team.id);
  });

  it("an expired invitation cannot be accepted", async () => {
    const email = `late-${randomUUID().slice(0, 8)}@y.test`;
    const id = expectStatus(await call("POST", "/api/v1/invitations", { as: owner.caller, body: { email, role: "viewer" } }), 201).json.id;
    await testDb().invitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect(expectStatus(await call("GET", `/api/v1/invitations/${id}`), 200).json.status).toBe("expired");
    const late = await signUp("late", email);
    const res = await call("POST", `/api/v1/invitations/${id}/accept`, { as: late.caller });
    expect(res.status, res.text).toBe(404);
    expect(res.json.error.message).toMatch(/expired/);
    expect(await testDb().member.count({ where: { tenantId: team.id, userId: late.id } })).toBe(0);
  });

  it("a canceled invitation cannot be accepted", async () => {
    const email = `cancel-${randomUUID().slice(0, 8)}@y.test`;
    const id = expectStatus(await call("POST", "/api/v1/invitations", { as: owner.caller, body: { email, role: "viewer" } }), 201).json.id;
    expectStatus(await call("DELETE", `/api/v1/invitations/${id}`, { as: admin.caller }), 204);
    expect(expectStatus(await call("GET", "/api/v1/invitations", { as: owner.caller }), 200).json.items.map((i: { id: string }) => i.id)).not.toContain(id);
    const u = await signUp("canceled", email);
    expect((await call("POST", `/api/v1/invitations/${id}/accept`, { as: u.caller })).status).toBe(404);
    expect(await testDb().member.count({ where: { tenantId: team.id, userId: u.id } })).toBe(0);
  });
});

describe("membership is re-checked on every request", () => {
  it("a removed member with another team falls back to it at once; A's things become 404", async () => {
    const owner = await signUp("rm-owner");
    const t1 = await createTeam(owner, "rm-one");
    const serverT1 = await createHttpServer(t1, "t1-server");
    const m = await signUp("rm-member");
    const t2 = await createTeam(m, "rm-two"); // m owns t2 and it is active
    teams.push(t1, t2);
    const memberId = await addMember(t1, m, "admin");
    expectStatus(await call("POST", "/api/v1/teams/active", { as: m.caller, body: { teamId: t1.id } }), 200);
    expect(expectStatus(await call("GET", "/api/v1/servers", { as: m.caller }), 200).json.items.map((s: { id: string }) => s.id)).toEqual([serverT1]);
    expectStatus(await call("DELETE", `/api/v1/members/${memberId}`, { as: owner.caller }), 204);
    const me = expectStatus(await call("GET", "/api/v1/me", { as: m.caller }), 200).json;
    expect(me).toMatchObject({ team: { id: t2.id }, role: "owner" });
    expect(expectStatus(await call("GET", "/api/v1/servers", { as: m.caller }), 200).json.items).toEqual([]);
    expect((await call("GET", `/api/v1/servers/${serverT1}`, { as: m.caller })).status).toBe(404);
    expect((await call("DELETE", `/api/v1/servers/${serverT1}`, { as: m.caller })).status).toBe(404);
  });

  it("a removed member with no other team gets 403 NO_TEAM on the next request; so does one who leaves", async () => {
    const owner = await signUp("solo-team-owner");
    const team = await createTeam(owner, "rm-solo");
    teams.push(team);
    for (const how of ["removed", "left"] as const) {
      const u = await signUp(`rm-${how}`);
      const memberId = await addMember(team, u, "viewer");
      expectStatus(await call("GET", "/api/v1/servers", { as: u.caller }), 200);
      expectStatus(await call("DELETE", `/api/v1/members/${memberId}`, { as: how === "removed" ? owner.caller : u.caller }), 204);
      const res = await call("GET", "/api/v1/servers", { as: u.caller });
      expect(res.status).toBe(403);
      expect(res.json.error.details).toEqual({ reason: "NO_TEAM" });
      expect(expectStatus(await call("GET", "/api/v1/me", { as: u.caller }), 200).json).toMatchObject({ team: null, teams: [] });
    }
  });

  it("a demoted admin loses admin rights on the very next request", async () => {
    const owner = await signUp("demote-owner");
    const team = await createTeam(owner, "demote");
    teams.push(team);
    const u = await signUp("demoted");
    const memberId = await addMember(team, u, "admin");
    expectStatus(await call("GET", "/api/v1/audit", { as: u.caller }), 200);
    expectStatus(await call("PATCH", `/api/v1/members/${memberId}`, { as: owner.caller, body: { role: "viewer" } }), 200);
    expect((await call("GET", "/api/v1/audit", { as: u.caller })).status).toBe(403);
  });
});

describe("the life of an API key", () => {
  it("shown once, never listed, last use recorded, revoked → 401, expired → 401", async () => {
    const owner = await signUp("key-owner");
    const team = await createTeam(owner, "keys");
    teams.push(team);
    const created = expectStatus(await call("POST", "/api/v1/keys", { as: owner.caller, body: { name: "ci", role: "member" } }), 201);
    const secret: string = created.json.key;
    expect(secret).toMatch(/^tw_[A-Za-z0-9_-]{40,}$/);
    expect(created.json).toMatchObject({ name: "ci", role: "member", status: "active", lastUsedAt: null, createdBy: owner.email, start: secret.slice(0, 8) });
    const stored = await testDb().apiKey.findUniqueOrThrow({ where: { id: created.json.id } });
    expect(JSON.stringify(stored)).not.toContain(secret.slice(8));
    const listed = expectStatus(await call("GET", "/api/v1/keys", { as: owner.caller }), 200);
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain(secret.slice(8));
    expect(listed.json.items[0]).not.toHaveProperty("key");

    const key = bearer(secret, "ci");
    const me = expectStatus(await call("GET", "/api/v1/me", { as: key }), 200).json;
    expect(me).toMatchObject({ kind: "apiKey", team: { id: team.id }, role: "member", user: null });
    const used = expectStatus(await call("GET", "/api/v1/keys", { as: owner.caller }), 200).json.items.find((k: { id: string }) => k.id === created.json.id);
    expect(used.lastUsedAt).not.toBeNull();
    expect(Date.now() - new Date(used.lastUsedAt).getTime()).toBeLessThan(60_000);

    const revoked = expectStatus(await call("DELETE", `/api/v1/keys/${created.json.id}`, { as: owner.caller }), 200).json;
    expect(revoked).toMatchObject({ status: "revoked", revokedBy: owner.email });
    expect((await call("GET", "/api/v1/servers", { as: key })).status).toBe(401);
    expect((await call("GET", "/api/v1/me", { as: key })).status).toBe(401);

    const expiring = await mintKey(owner.caller, "viewer", "short");
    expectStatus(await call("GET", "/api/v1/servers", { as: expiring.caller }), 200);
    await testDb().apiKey.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await call("GET", "/api/v1/servers", { as: expiring.caller })).status).toBe(401);
  });
});

describe("the audit log", () => {
  it("records who did what (email or key label) and never a secret value", async () => {
    const owner = await signUp("audit-owner");
    const team = await createTeam(owner, "audit");
    teams.push(team);
    const key = await mintKey(owner.caller, "admin", "deploy-bot");
    const server = expectStatus(
      await call("POST", "/api/v1/servers", { as: owner.caller, body: { name: "secretive", transport: "streamable-http", url: UNREACHABLE_URL, headers: { Authorization: "Bearer SECRET123", "X-Api-Key": "SECRET-KEY-456" } } }),
      201,
    ).json.server;
    expect(server.headerKeys).toEqual(["Authorization", "X-Api-Key"]);
    expectStatus(await call("PATCH", `/api/v1/servers/${server.id}`, { as: key.caller, body: { headers: { Authorization: "Bearer SECRET789" }, tags: ["prod"] } }), 200);
    const doomed = expectStatus(await call("POST", "/api/v1/servers", { as: key.caller, body: { name: "doomed", transport: "sse", url: UNREACHABLE_URL } }), 201).json.server.id;
    expectStatus(await call("DELETE", `/api/v1/servers/${doomed}`, { as: key.caller }), 204);
    const victim = await signUp("audit-victim");
    const victimMember = await addMember(team, victim, "member");
    expectStatus(await call("PATCH", `/api/v1/members/${victimMember}`, { as: owner.caller, body: { role: "viewer" } }), 200);
    expectStatus(await call("DELETE", `/api/v1/members/${victimMember}`, { as: key.caller }), 204);
    const joinerEmail = `joiner-${randomUUID().slice(0, 8)}@access.test`;
    const inv = expectStatus(await call("POST", "/api/v1/invitations", { as: owner.caller, body: { email: joinerEmail, role: "viewer" } }), 201).json.id;
    expectStatus(await call("POST", `/api/v1/invitations/${inv}/accept`, { as: (await signUp("joiner", joinerEmail)).caller }), 200);
    const spare = await mintKey(owner.caller, "viewer", "spare");
    expectStatus(await call("DELETE", `/api/v1/keys/${spare.id}`, { as: key.caller }), 200);

    const log = expectStatus(await call("GET", "/api/v1/audit?limit=200", { as: owner.caller }), 200).json.items as { action: string; actor: string; actorKind: string; targetId: string }[];
    const keyLabel = /^API key "deploy-bot" \(tw_.{5}…\)$/;
    const expected: [string, string | RegExp, string?][] = [
      ["team.created", owner.email],
      ["key.created", owner.email, key.id],
      ["server.created", owner.email, server.id],
      ["server.updated", keyLabel, server.id],
      ["server.created", keyLabel, doomed],
      ["server.deleted", keyLabel, doomed],
      ["member.role_changed", owner.email, victimMember],
      ["member.removed", keyLabel, victimMember],
      ["invitation.created", owner.email, inv],
      ["member.joined", joinerEmail],
      ["key.revoked", keyLabel, spare.id],
    ];
    for (const [action, actor, targetId] of expected) {
      const hit = log.find((e) => e.action === action && (typeof actor === "string" ? e.actor === actor : actor.test(e.actor)) && (!targetId || e.targetId === targetId));
      expect(hit, `${action} by ${actor}`).toBeDefined();
    }
    expect(log.find((e) => e.action === "server.updated")!.actorKind).toBe("apiKey");

    const rows = await testDb().auditEvent.findMany({ where: { tenantId: team.id } });
    const everything = [
      JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
      ...(await Promise.all(
        ["/api/v1/audit?limit=200", "/api/v1/servers", `/api/v1/servers/${server.id}`, `/api/v1/servers/${server.id}/snapshots`, "/api/v1/keys", "/api/v1/me", "/api/v1/members"].map(
          async (p) => expectStatus(await call("GET", p, { as: owner.caller }), 200).text,
        ),
      )),
    ].join("\n");
    for (const secret of ["SECRET123", "SECRET-KEY-456", "SECRET789", key.secret]) expect(everything).not.toContain(secret);
    const detail = expectStatus(await call("GET", `/api/v1/servers/${server.id}`, { as: key.caller }), 200).json.server;
    expect(detail).toMatchObject({ headerKeys: ["Authorization"], tags: ["prod"] });
    expect((await call("GET", "/api/v1/audit", { as: (await mintKey(owner.caller, "member", "nosy")).caller })).status).toBe(403);
  });
});
