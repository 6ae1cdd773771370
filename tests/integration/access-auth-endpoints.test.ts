// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, authCall, call, createTeam, expectStatus, mintKey, signUp, type TestKey, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

// better-auth serves its own endpoints under /api/auth. Only sign-up/in/out and session reads are
// Toolwatch's way in; the organization and API-key plugins' write routes would bypass the role
// table, role ceilings and audit log, so they must be closed (404), for insiders and outsiders.

type Fixture = { a: TestTeam; b: TestTeam; ownerA: TestUser; adminA: TestUser; viewerA: TestUser; ownerB: TestUser; keyA: TestKey; viewerMemberA: string; ownerMemberA: string; invitationA: string };
let f: Fixture;

const CLOSED: { method: "GET" | "POST"; path: string; body: (x: Fixture) => unknown }[] = [
  { method: "POST", path: "/organization/create", body: () => ({ name: "side door", slug: `side-${Date.now()}` }) },
  { method: "POST", path: "/organization/update", body: (x) => ({ organizationId: x.a.id, data: { name: "renamed", slug: `renamed-${Date.now()}` } }) },
  { method: "POST", path: "/organization/delete", body: (x) => ({ organizationId: x.a.id }) },
  { method: "GET", path: "/organization/get-full-organization?organizationId={a}", body: () => undefined },
  { method: "GET", path: "/organization/list-invitations?organizationId={a}", body: () => undefined },
  { method: "GET", path: "/organization/list-user-invitations", body: () => undefined },
  { method: "GET", path: "/organization/get-invitation?id={inv}", body: () => undefined },
  { method: "POST", path: "/organization/invite-member", body: (x) => ({ organizationId: x.a.id, email: "side@access.test", role: "admin" }) },
  { method: "POST", path: "/organization/cancel-invitation", body: (x) => ({ invitationId: x.invitationA }) },
  { method: "POST", path: "/organization/accept-invitation", body: (x) => ({ invitationId: x.invitationA }) },
  { method: "POST", path: "/organization/reject-invitation", body: (x) => ({ invitationId: x.invitationA }) },
  { method: "POST", path: "/organization/update-member-role", body: (x) => ({ organizationId: x.a.id, memberId: x.viewerMemberA, role: "admin" }) },
  { method: "POST", path: "/organization/remove-member", body: (x) => ({ organizationId: x.a.id, memberIdOrEmail: x.viewerMemberA }) },
  { method: "POST", path: "/organization/leave", body: (x) => ({ organizationId: x.a.id }) },
  { method: "POST", path: "/api-key/create", body: (x) => ({ organizationId: x.a.id, name: "side", metadata: { role: "owner" } }) },
  { method: "POST", path: "/api-key/update", body: (x) => ({ keyId: x.keyA.id, metadata: { role: "owner" } }) },
  { method: "POST", path: "/api-key/delete", body: (x) => ({ keyId: x.keyA.id }) },
];
const CALLERS = ["adminA", "viewerA", "ownerB"] as const;
const closedCases = CALLERS.flatMap((who) => CLOSED.map((c) => ({ who, ...c })));

beforeAll(async () => {
  const ownerA = await signUp("ba-owner-a");
  const ownerB = await signUp("ba-owner-b");
  const adminA = await signUp("ba-admin-a");
  const viewerA = await signUp("ba-viewer-a");
  const a = await createTeam(ownerA, "ba-a");
  const b = await createTeam(ownerB, "ba-b");
  await addMember(a, adminA, "admin");
  const viewerMemberA = await addMember(a, viewerA, "viewer");
  const ownerMemberA = (await testDb().member.findFirstOrThrow({ where: { tenantId: a.id, userId: ownerA.id } })).id;
  const keyA = await mintKey(ownerA.caller, "owner", "a-owner-key");
  const invitationA = expectStatus(await call("POST", "/api/v1/invitations", { as: ownerA.caller, body: { email: "pending@access.test", role: "member" } }), 201).json.id;
  f = { a, b, ownerA, adminA, viewerA, ownerB, keyA, viewerMemberA, ownerMemberA, invitationA };
});

async function teamAState() {
  const [team, members, keys, invitations, audit] = await Promise.all([
    testDb().tenant.findUniqueOrThrow({ where: { id: f.a.id }, select: { name: true, slug: true } }),
    testDb().member.findMany({ where: { tenantId: f.a.id }, select: { id: true, role: true }, orderBy: { id: "asc" } }),
    testDb().apiKey.findMany({ where: { referenceId: f.a.id }, select: { id: true, enabled: true, metadata: true }, orderBy: { id: "asc" } }),
    testDb().invitation.findMany({ where: { tenantId: f.a.id }, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    testDb().auditEvent.count({ where: { tenantId: f.a.id } }),
  ]);
  return { team, members, keys, invitations, audit };
}

describe("better-auth's plugin routes that would bypass Toolwatch's verbs are closed", () => {
  let before: Awaited<ReturnType<typeof teamAState>>;
  let tenants: number;
  beforeAll(async () => {
    before = await teamAState();
    tenants = await testDb().tenant.count();
  });

  it.each(closedCases.map((c, i): [string, (typeof closedCases)[number]] => [`[auth-route ${i + 1}/${closedCases.length}] ${c.who}: ${c.method} /api/auth${c.path} → 404`, c]))("%s", async (_title, c) => {
    const res = await authCall(c.method, c.path.replace("{a}", f.a.id).replace("{inv}", f.invitationA), { as: f[c.who].caller, body: c.body(f) });
    expect(res.status, res.text).toBe(404);
  });

  it("team A is exactly as it was: same name, members, roles, keys, invitations and audit log; no team was made", async () => {
    expect(await teamAState()).toEqual(before);
    expect(await testDb().tenant.count()).toBe(tenants);
  });
});

describe("the better-auth routes that stay open reveal nothing across teams", () => {
  it("B cannot make A its active team through /organization/set-active", async () => {
    const res = await authCall("POST", "/organization/set-active", { as: f.ownerB.caller, body: { organizationId: f.a.id } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const me = expectStatus(await call("GET", "/api/v1/me", { as: f.ownerB.caller }), 200);
    expect(me.json.team.id).toBe(f.b.id);
    expectStatus(await call("GET", "/api/v1/servers", { as: f.ownerB.caller }), 200);
  });

  it.each([
    ["/organization/list-members?organizationId={a}"],
    ["/organization/get-invitation?id={inv}"],
    ["/organization/get-active-member?organizationId={a}"],
    ["/api-key/list?organizationId={a}"],
    ["/api-key/get?id={key}"],
  ])("B: GET /api/auth%s is refused and names nothing of A", async (path) => {
    const res = await authCall("GET", path.replace("{a}", f.a.id).replace("{inv}", f.invitationA).replace("{key}", f.keyA.id), { as: f.ownerB.caller });
    expect(res.status).toBeGreaterThanOrEqual(400);
    for (const s of [f.ownerA.email, f.adminA.email, f.viewerA.email, "pending@access.test", f.keyA.secret.slice(0, 8), f.a.slug]) expect(res.text).not.toContain(s);
  });

  it("an A viewer cannot read A's key list through /api-key/list either", async () => {
    const res = await authCall("GET", `/api-key/list?organizationId=${f.a.id}`, { as: f.viewerA.caller });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.text).not.toContain(f.keyA.id);
  });
});

describe("sign-up and sign-in over HTTP", () => {
  it("sign-up sets an httpOnly session cookie that /api/v1/me accepts; sign-out ends it", async () => {
    const email = `http-${Date.now()}@access.test`;
    const res = await authCall("POST", "/sign-up/email", { body: { email, password: "long-enough-pw", name: "Http" } });
    expect(res.status, res.text).toBe(200);
    const cookie = res.setCookie.find((c) => c.startsWith("toolwatch.session_token="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    const caller = { label: "http", headers: { cookie: cookie.split(";")[0]! } };
    expect(expectStatus(await call("GET", "/api/v1/me", { as: caller }), 200).json.user.email).toBe(email);
    expectStatus(await authCall("POST", "/sign-out", { as: caller, body: {} }), 200);
    expect((await call("GET", "/api/v1/me", { as: caller })).status).toBe(401);
  });

  it("cross-site: a signed-in browser's request and any sign-in from another origin are refused (403)", async () => {
    const session = await signUp("csrf");
    const signOut = await authCall("POST", "/sign-out", { as: session.caller, body: {}, origin: "http://evil.test" });
    expect(signOut.status, signOut.text).toBe(403);
    expectStatus(await call("GET", "/api/v1/me", { as: session.caller }), 200, "session survives");
    const form = await authCall("POST", "/sign-in/email", {
      body: { email: session.email, password: "correct-horse-battery" },
      origin: "http://evil.test",
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
    });
    expect(form.status, form.text).toBe(403);
    const plain = await authCall("POST", "/sign-in/email", { body: { email: session.email, password: "correct-horse-battery" }, origin: "http://localhost:3001" });
    expect(plain.status, plain.text).toBe(403);
    expect(plain.setCookie).toEqual([]);
    const script = await authCall("POST", "/sign-in/email", { body: { email: session.email, password: "correct-horse-battery" }, origin: "" });
    expect(script.status, script.text).toBe(200); // no Origin: not a browser (CLI, curl)
  });

  it("a wrong password is 401; the right one signs in", async () => {
    const wrong = await authCall("POST", "/sign-in/email", { body: { email: f.ownerA.email, password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    const right = await authCall("POST", "/sign-in/email", { body: { email: f.ownerA.email, password: "correct-horse-battery" } });
    expect(right.status, right.text).toBe(200);
  });
});
