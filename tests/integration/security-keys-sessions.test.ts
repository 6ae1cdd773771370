// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, authCall, bearer, call, createTeam, expectStatus, mintKey, signIn, signUp, type Caller, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

// Issue 13, from the attacker's side. Keys belong to the team and are listed with the person who
// made them; when that person is removed (or leaves) their keys stop working at once, unless an
// admin transferred them to another member first. Only a signed-in person mints keys: a leaked
// key cannot mint itself a successor. A password change signs out every other session, and
// "sign out everywhere" ends them all.

const PASSWORD = "correct-horse-battery";
const works = async (caller: Caller) => (await call("GET", "/api/v1/servers", { as: caller })).status;
const memberIdOf = async (team: TestTeam, user: TestUser) => (await testDb().member.findFirstOrThrow({ where: { tenantId: team.id, userId: user.id } })).id;

describe("keys outlive their people no more", () => {
  let owner: TestUser;
  let team: TestTeam;
  beforeAll(async () => {
    owner = await signUp("keys13-owner");
    team = await createTeam(owner, "keys13");
  });

  it("keys are listed with the person who made them", async () => {
    const admin = await signUp("keys13-lister");
    await addMember(team, admin, "admin");
    const key = await mintKey(admin.caller, "member", "listed");
    const listed = expectStatus(await call("GET", "/api/v1/keys", { as: owner.caller }), 200).json.items.find((k: { id: string }) => k.id === key.id);
    expect(listed).toMatchObject({ createdBy: admin.email, status: "active" });
  });

  it("a removed member's keys get 401 right after the removal; the others' keys keep working", async () => {
    const admin = await signUp("keys13-leaver");
    await addMember(team, admin, "admin");
    const theirs = await mintKey(admin.caller, "admin", "theirs");
    const also = await mintKey(admin.caller, "viewer", "theirs-too");
    const ownersKey = await mintKey(owner.caller, "admin", "owners");
    for (const k of [theirs, also, ownersKey]) expect(await works(k.caller)).toBe(200);

    expectStatus(await call("DELETE", `/api/v1/members/${await memberIdOf(team, admin)}`, { as: owner.caller }), 204, "remove member");

    for (const k of [theirs, also]) {
      const res = await call("GET", "/api/v1/servers", { as: k.caller });
      expect(res.status, res.text).toBe(401);
    }
    expect(await works(ownersKey.caller)).toBe(200);
    const listed = expectStatus(await call("GET", "/api/v1/keys", { as: owner.caller }), 200).json.items;
    expect(listed.find((k: { id: string }) => k.id === theirs.id)).toMatchObject({ status: "revoked", createdBy: admin.email });
    const audit = await testDb().auditEvent.findMany({ where: { tenantId: team.id, action: "key.revoked", targetId: { in: [theirs.id, also.id] } } });
    expect(audit).toHaveLength(2);
  });

  it("a member who leaves by themselves takes their keys with them", async () => {
    const admin = await signUp("keys13-quitter");
    await addMember(team, admin, "admin");
    const theirs = await mintKey(admin.caller, "member", "quitter");
    expectStatus(await call("DELETE", `/api/v1/members/${await memberIdOf(team, admin)}`, { as: admin.caller }), 204, "leave");
    expect(await works(theirs.caller)).toBe(401);
  });

  it("a demoted admin's admin key stops working; their keys at or below the new role keep working", async () => {
    const admin = await signUp("keys13-demoted");
    await addMember(team, admin, "admin");
    const adminKey = await mintKey(admin.caller, "admin", "demoted-admin-key");
    const memberKey = await mintKey(admin.caller, "member", "demoted-member-key");
    expectStatus(await call("PATCH", `/api/v1/members/${await memberIdOf(team, admin)}`, { as: owner.caller, body: { role: "member" } }), 200, "demote");
    expect(await works(adminKey.caller)).toBe(401);
    expect(await works(memberKey.caller)).toBe(200);
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { tenantId: team.id, action: "key.revoked", targetId: adminKey.id } });
    expect((audit.details as { reason: string }).reason).toBe(`${admin.email} became member, below the key's role`);
  });

  it("a key an admin transferred to another member first survives the removal", async () => {
    const admin = await signUp("keys13-handover");
    await addMember(team, admin, "admin");
    const ci = await mintKey(admin.caller, "member", "ci");
    const moved = expectStatus(await call("POST", `/api/v1/keys/${ci.id}/transfer`, { as: owner.caller, body: { memberId: await memberIdOf(team, owner) } }), 200).json;
    expect(moved).toMatchObject({ id: ci.id, createdBy: owner.email, status: "active" });
    expectStatus(await call("DELETE", `/api/v1/members/${await memberIdOf(team, admin)}`, { as: owner.caller }), 204);
    expect(await works(ci.caller)).toBe(200);
  });

  it("transfer is refused to a key, to a non-member, to a member below the key's role, and for another team's key", async () => {
    const admin = await signUp("keys13-t-admin");
    await addMember(team, admin, "admin");
    const viewer = await signUp("keys13-t-viewer");
    await addMember(team, viewer, "viewer");
    const key = await mintKey(owner.caller, "admin", "to-move");
    const ownerKey = await mintKey(owner.caller, "owner", "owner-key");
    const to = async (user: TestUser) => ({ memberId: await memberIdOf(team, user) });
    expect((await call("POST", `/api/v1/keys/${key.id}/transfer`, { as: ownerKey.caller, body: await to(admin) })).status).toBe(403);
    expect((await call("POST", `/api/v1/keys/${key.id}/transfer`, { as: owner.caller, body: await to(viewer) })).status).toBe(403);
    expect((await call("POST", `/api/v1/keys/${key.id}/transfer`, { as: owner.caller, body: { memberId: "not-a-member" } })).status).toBe(404);
    expect((await call("POST", `/api/v1/keys/${key.id}/transfer`, { as: owner.caller, body: {} })).status).toBe(400);
    const stranger = await signUp("keys13-stranger");
    await createTeam(stranger, "keys13-other");
    expect((await call("POST", `/api/v1/keys/${key.id}/transfer`, { as: stranger.caller, body: { memberId: await memberIdOf(team, owner) } })).status).toBe(404);
    const row = expectStatus(await call("GET", "/api/v1/keys", { as: owner.caller }), 200).json.items.find((k: { id: string }) => k.id === key.id);
    expect(row.createdBy).toBe(owner.email);
  });

  it("a key cannot mint keys, whatever its role (403), and no key row appears", async () => {
    const ownerKey = await mintKey(owner.caller, "owner", "owner-minter");
    const adminKey = await mintKey(owner.caller, "admin", "admin-minter");
    const before = await testDb().apiKey.count({ where: { referenceId: team.id } });
    for (const k of [ownerKey, adminKey]) {
      for (const role of ["viewer", "admin"]) {
        const res = await call("POST", "/api/v1/keys", { as: k.caller, body: { name: "successor", role } });
        expect(res.status, res.text).toBe(403);
        expect(res.json.error.message).toMatch(/signed-in person/);
      }
    }
    expect(await testDb().apiKey.count({ where: { referenceId: team.id } })).toBe(before);
  });
});

describe("sessions", () => {
  const me = async (caller: Caller) => (await call("GET", "/api/v1/me", { as: caller })).status;
  const cookieOf = (setCookie: string[]): Caller => ({ label: "new session", headers: { cookie: setCookie.find((c) => c.startsWith("toolwatch.session_token="))!.split(";")[0]! } });

  it.each([
    ["without revokeOtherSessions", {}],
    ["with revokeOtherSessions: false", { revokeOtherSessions: false }],
  ])("a password change %s signs out the user's other sessions", async (_title, extra) => {
    const user = await signUp("pw13");
    const laptop = user.caller;
    const stolen = await signIn(user.email, "stolen");
    const other = await signUp("pw13-bystander");
    expect([await me(laptop), await me(stolen)]).toEqual([200, 200]);
    const res = await authCall("POST", "/change-password", { as: laptop, body: { currentPassword: PASSWORD, newPassword: "a-new-password-1", ...extra } });
    expect(res.status, res.text).toBe(200);
    expect(await me(stolen)).toBe(401);
    // The session that changed the password goes on (better-auth hands it a fresh cookie).
    expect(await me(cookieOf(res.setCookie))).toBe(200);
    expect(await me(other.caller)).toBe(200);
  });

  it("POST /api/v1/me/sign-out-everywhere ends every session of the caller (this one too) and nobody else's", async () => {
    const user = await signUp("all13");
    const phone = await signIn(user.email, "phone");
    const tablet = await signIn(user.email, "tablet");
    const other = await signUp("all13-bystander");
    const res = await call("POST", "/api/v1/me/sign-out-everywhere", { as: user.caller });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ revoked: 3 });
    expect([await me(user.caller), await me(phone), await me(tablet)]).toEqual([401, 401, 401]);
    expect(await me(other.caller)).toBe(200);
    expect(await testDb().session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("sign out everywhere is refused to API keys, to anonymous callers and across sites", async () => {
    const user = await signUp("all13-guard");
    const team = await createTeam(user, "all13");
    const key = await mintKey(team.owner.caller, "owner", "k");
    expect((await call("POST", "/api/v1/me/sign-out-everywhere", { as: key.caller })).status).toBe(403);
    expect((await call("POST", "/api/v1/me/sign-out-everywhere", { as: bearer("tw_nonsense") })).status).toBe(401);
    expect((await call("POST", "/api/v1/me/sign-out-everywhere")).status).toBe(401);
    const crossSite = await call("POST", "/api/v1/me/sign-out-everywhere", { as: user.caller, headers: { origin: "http://evil.test" } });
    expect(crossSite.status).toBe(403);
    expect(await me(user.caller)).toBe(200);
  });
});
