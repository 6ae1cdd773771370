// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { authCall, call, createTeam, expectStatus, signUp, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createAuth } from "@/lib/auth/auth";
import { DEMO_USER_EMAIL } from "@/lib/auth/demo-account";
import { getDb } from "@/lib/db";
import { loadEnv } from "@/lib/env";
import { testDb } from "@/tests/helpers/factories";

// Issue 13, from the attacker's side. Email verification is off, so anyone may sign up with an
// invitee's address before the invitee does. The invitation is bound to its link: without the
// link's id such an impostor must never learn it, through better-auth's routes or Toolwatch's own.
// And closed sign-up has no back door: the demo address is exempt only while the demo is on.

describe("an impostor who signs up first with an invitee's address never learns the invitation id", () => {
  let owner: TestUser;
  let team: TestTeam;
  let impostor: TestUser;
  const victim = `victim-${randomUUID().slice(0, 8)}@access.test`;
  let invitationId: string;

  beforeAll(async () => {
    owner = await signUp("inv13-owner");
    team = await createTeam(owner, "inv13");
    invitationId = expectStatus(await call("POST", "/api/v1/invitations", { as: owner.caller, body: { email: victim, role: "admin" } }), 201).json.id;
    impostor = await signUp("impostor", victim);
  });

  const neverShows = (text: string) => expect(text).not.toContain(invitationId);

  it("GET /api/auth/organization/list-user-invitations is closed (404) and names no invitation", async () => {
    const res = await authCall("GET", "/organization/list-user-invitations", { as: impostor.caller });
    expect(res.status, res.text).toBe(404);
    neverShows(res.text);
    // The server-side-only email parameter does not open it either.
    const byEmail = await authCall("GET", `/organization/list-user-invitations?email=${encodeURIComponent(victim)}`, { as: impostor.caller });
    expect(byEmail.status, byEmail.text).toBe(404);
    neverShows(byEmail.text);
  });

  it("GET /api/auth/organization/get-invitation is closed (404) for guessed ids", async () => {
    for (const guess of [randomUUID(), randomUUID(), "1", team.id]) {
      const res = await authCall("GET", `/organization/get-invitation?id=${guess}`, { as: impostor.caller });
      expect(res.status, res.text).toBe(404);
      neverShows(res.text);
    }
  });

  it("no other better-auth route a signed-in user may call names it", async () => {
    for (const path of ["/get-session", "/list-sessions", "/organization/list", `/organization/get-full-organization?organizationId=${team.id}`, `/organization/list-invitations?organizationId=${team.id}`, `/organization/list-members?organizationId=${team.id}`]) {
      const res = await authCall("GET", path, { as: impostor.caller });
      neverShows(res.text);
    }
  });

  it("Toolwatch's own routes: /api/v1/invitations is refused without a team, and lists only the impostor's own team after creating one", async () => {
    const noTeam = await call("GET", "/api/v1/invitations", { as: impostor.caller });
    expect(noTeam.status, noTeam.text).toBe(403);
    neverShows(noTeam.text);
    neverShows(expectStatus(await call("GET", "/api/v1/me", { as: impostor.caller }), 200).text);
    await createTeam(impostor, "impostor");
    const own = expectStatus(await call("GET", "/api/v1/invitations", { as: impostor.caller }), 200);
    expect(own.json.items).toEqual([]);
    for (const guess of [randomUUID(), randomUUID()]) {
      const res = await call("GET", `/api/v1/invitations/${guess}`, { as: impostor.caller });
      expect(res.status).toBe(404);
      neverShows(res.text);
    }
    neverShows(expectStatus(await call("GET", "/api/v1/members", { as: impostor.caller }), 200).text);
  });

  it("the invitation is still pending and the impostor is no member of the team", async () => {
    expect(await testDb().invitation.findUniqueOrThrow({ where: { id: invitationId } })).toMatchObject({ status: "pending" });
    expect(await testDb().member.count({ where: { tenantId: team.id, userId: impostor.id } })).toBe(0);
  });

  it("the real invitee, holding the link, still accepts it", async () => {
    const invitee = `real-${randomUUID().slice(0, 8)}@access.test`;
    const id = expectStatus(await call("POST", "/api/v1/invitations", { as: owner.caller, body: { email: invitee, role: "member" } }), 201).json.id;
    const real = await signUp("real-invitee", invitee);
    const accepted = expectStatus(await call("POST", `/api/v1/invitations/${id}/accept`, { as: real.caller }), 200);
    expect(accepted.json).toEqual({ tenantId: team.id, role: "member" });
    expect(await testDb().member.count({ where: { tenantId: team.id, userId: real.id } })).toBe(1);
  });
});

describe("closed sign-up: the demo address is exempt only while the demo is on", () => {
  const closedAuth = (demo: boolean) => createAuth(getDb(), { ...loadEnv(), TOOLWATCH_ALLOW_SIGNUP: false, TOOLWATCH_DEMO: demo });
  const signUpDemo = (demo: boolean) =>
    closedAuth(demo)
      .api.signUpEmail({ body: { email: DEMO_USER_EMAIL, password: "demo-password-1", name: "Demo user" } })
      .then(
        () => "created",
        (error: { body?: { message?: string } }) => `refused: ${error.body?.message ?? ""}`,
      );

  beforeAll(async () => {
    await signUp("closed-probe"); // so that an instance administrator exists (closed sign-up applies)
    await testDb().user.deleteMany({ where: { email: DEMO_USER_EMAIL } });
  });

  it("demo off: signing up as demo@toolwatch.local is refused like any other address", async () => {
    expect(await signUpDemo(false)).toBe("refused: Sign-up is invitation-only on this instance: ask a team admin for an invitation link");
    expect(await testDb().user.count({ where: { email: DEMO_USER_EMAIL } })).toBe(0);
  });

  it("demo off: a stranger's address is refused too", async () => {
    const res = await closedAuth(false)
      .api.signUpEmail({ body: { email: `stranger-${randomUUID().slice(0, 8)}@access.test`, password: "stranger-pass-1", name: "S" } })
      .then(
        () => 200,
        (error: { statusCode?: number }) => error.statusCode,
      );
    expect(res).toBe(403);
  });

  it("demo on: the demo address may be created (the seed needs it), and is no instance administrator", async () => {
    expect(await signUpDemo(true)).toBe("created");
    expect(await testDb().user.findUniqueOrThrow({ where: { email: DEMO_USER_EMAIL } })).toMatchObject({ instanceAdmin: false });
    await testDb().user.deleteMany({ where: { email: DEMO_USER_EMAIL } });
  });
});
