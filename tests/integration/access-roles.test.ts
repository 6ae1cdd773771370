// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addBareMember, addMember, call, createHttpServer, createServerWithSnapshot, createTeam, disableServers, expectStatus, mintKey, signUp, UNREACHABLE_URL, type Caller, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROLE_RANK } from "@/lib/auth/permissions";
import { ROLE_NAMES, type Role } from "@/lib/context";
import { insertServerRow, testDb } from "@/tests/helpers/factories";

// Each role, as a signed-in member and as an API key of that role, against every REST route of
// its own team: exactly which succeed and which get 403.

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type Who = { kind: "session" | "key"; role: Role };
type Fixture = { team: TestTeam; users: Record<Role, TestUser>; sessions: Record<Role, Caller>; keys: Record<Role, Caller>; serverId: string; snapshotId: string; invitationId: string };
let f: Fixture;

const uniq = () => randomUUID().slice(0, 8);
const atLeast = (min: Role) => (w: Who) => ROLE_RANK[w.role] >= ROLE_RANK[min];
const everyone = () => true;
const sessionsOnly = (w: Who) => w.kind === "session";
const adminSessions = (w: Who) => w.kind === "session" && atLeast("admin")(w);

type Spec = {
  method: Method;
  path: string;
  allowed: (w: Who) => boolean;
  ok: number;
  /** Builds the path id and body, creating a fresh target when the call consumes one. */
  prepare?: (w: Who) => Promise<{ id?: string; body?: unknown }>;
  after?: (w: Who) => Promise<void>;
  onlyFor?: (w: Who) => boolean;
  /** The route file's pattern when `path` fills in more than `:id` (e.g. a tool name). */
  route?: string;
};

const ROUTES: Spec[] = [
  { method: "GET", path: "/api/v1/me", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/teams", allowed: sessionsOnly, ok: 200 },
  {
    method: "POST",
    path: "/api/v1/teams",
    allowed: sessionsOnly,
    ok: 201,
    prepare: async () => ({ body: { slug: `extra-${uniq()}` } }),
    // Creating a team makes it the session's active team; come back to the team under test.
    after: async (w) => {
      if (w.kind === "session") expectStatus(await call("POST", "/api/v1/teams/active", { as: f.sessions[w.role], body: { teamId: f.team.id } }), 200, "switch back");
    },
  },
  { method: "POST", path: "/api/v1/teams/active", allowed: sessionsOnly, ok: 200, prepare: async () => ({ body: { teamId: f.team.id } }) },
  { method: "GET", path: "/api/v1/servers", allowed: everyone, ok: 200 },
  { method: "POST", path: "/api/v1/servers", allowed: atLeast("admin"), ok: 201, prepare: async () => ({ body: { name: `new-${uniq()}`, transport: "streamable-http", url: UNREACHABLE_URL } }) },
  { method: "GET", path: "/api/v1/servers/:id", allowed: everyone, ok: 200, prepare: async () => ({ id: f.serverId }) },
  { method: "PATCH", path: "/api/v1/servers/:id", allowed: atLeast("admin"), ok: 200, prepare: async (w) => ({ id: f.serverId, body: { tags: [`${w.kind}-${w.role}`] } }) },
  { method: "DELETE", path: "/api/v1/servers/:id", allowed: atLeast("admin"), ok: 204, prepare: async () => ({ id: await createHttpServer(f.team, `doomed-${uniq()}`) }) },
  { method: "POST", path: "/api/v1/servers/:id/refresh", allowed: atLeast("member"), ok: 202, prepare: async () => ({ id: f.serverId }) },
  { method: "GET", path: "/api/v1/servers/:id/snapshots", allowed: everyone, ok: 200, prepare: async () => ({ id: f.serverId }) },
  { method: "GET", path: "/api/v1/snapshots/:id", allowed: everyone, ok: 200, prepare: async () => ({ id: f.snapshotId }) },
  { method: "GET", path: "/api/v1/servers/:id/diff", allowed: everyone, ok: 200, prepare: async () => ({ id: f.serverId }) },
  { method: "GET", path: "/api/v1/servers/:id/tools/alpha/history", route: "/api/v1/servers/:id/tools/:name/history", allowed: everyone, ok: 200, prepare: async () => ({ id: f.serverId }) },
  { method: "GET", path: "/api/v1/servers/:id/identity-probes", allowed: everyone, ok: 200, prepare: async () => ({ id: f.serverId }) },
  { method: "POST", path: "/api/v1/servers/batch", allowed: atLeast("admin"), ok: 201, prepare: async () => ({ body: { servers: [{ name: `batch-${uniq()}`, transport: "streamable-http", url: UNREACHABLE_URL, enabled: false }] } }) },
  { method: "GET", path: "/api/v1/team/identity-probes", allowed: everyone, ok: 200 },
  { method: "PATCH", path: "/api/v1/team/identity-probes", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ body: { identities: ["claude-desktop", "cursor"] } }) },
  { method: "GET", path: "/api/v1/overview", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/collisions", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/search?q=alpha", route: "/api/v1/search", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/team/context-budget", allowed: everyone, ok: 200 },
  { method: "PATCH", path: "/api/v1/team/context-budget", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ body: { budgetTokens: 1_000_000 } }) },
  { method: "GET", path: "/api/v1/team/context-budget/report", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/members", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/quota", allowed: everyone, ok: 200 },
  // Quotas span teams: only instance administrators (none in this matrix) see or set them.
  { method: "GET", path: "/api/v1/admin/quotas", allowed: () => false, ok: 200 },
  { method: "PATCH", path: "/api/v1/admin/teams/:id/quota", allowed: () => false, ok: 200, prepare: async () => ({ id: f.team.id, body: { maxServers: 5 } }) },
  { method: "PATCH", path: "/api/v1/members/:id", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ id: (await addBareMember(f.team, "viewer")).memberId, body: { role: "member" } }) },
  { method: "DELETE", path: "/api/v1/members/:id", allowed: atLeast("admin"), ok: 204, prepare: async () => ({ id: (await addBareMember(f.team, "viewer")).memberId }) },
  { method: "GET", path: "/api/v1/invitations", allowed: atLeast("admin"), ok: 200 },
  { method: "POST", path: "/api/v1/invitations", allowed: adminSessions, ok: 201, prepare: async () => ({ body: { email: `inv-${uniq()}@access.test`, role: "viewer" } }) },
  { method: "GET", path: "/api/v1/invitations/:id", allowed: everyone, ok: 200, prepare: async () => ({ id: f.invitationId }) },
  { method: "DELETE", path: "/api/v1/invitations/:id", allowed: atLeast("admin"), ok: 204, prepare: async () => ({ id: await freshInvitation() }) },
  { method: "POST", path: "/api/v1/invitations/:id/accept", allowed: () => false, ok: 200, onlyFor: (w) => w.kind === "key", prepare: async () => ({ id: f.invitationId }) },
  { method: "GET", path: "/api/v1/keys", allowed: atLeast("admin"), ok: 200 },
  // Keys are minted by signed-in people only: a leaked key cannot mint itself a successor.
  { method: "POST", path: "/api/v1/keys", allowed: adminSessions, ok: 201, prepare: async () => ({ body: { name: `k-${uniq()}`, role: "viewer" } }) },
  { method: "DELETE", path: "/api/v1/keys/:id", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ id: (await mintKey(f.sessions.owner, "viewer")).id }) },
  { method: "GET", path: "/api/v1/audit", allowed: atLeast("admin"), ok: 200 },
  { method: "GET", path: "/api/v1/alerts", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/alerts/:id", allowed: everyone, ok: 200, prepare: async () => ({ id: await freshAlert() }) },
  { method: "POST", path: "/api/v1/alerts/:id/acknowledge", allowed: atLeast("member"), ok: 200, prepare: async () => ({ id: await freshAlert(), body: { comment: "seen" } }) },
  { method: "POST", path: "/api/v1/alerts/:id/approve", allowed: atLeast("member"), ok: 200, prepare: async () => ({ id: await freshAlert(), body: { hash: "h-role" } }) },
  { method: "POST", path: "/api/v1/alerts/:id/reject", allowed: atLeast("member"), ok: 200, prepare: async () => ({ id: await freshAlert() }) },
  { method: "POST", path: "/api/v1/alerts/acknowledge", allowed: atLeast("member"), ok: 200, prepare: async () => ({ body: { ids: [await freshAlert()] } }) },
  { method: "GET", path: "/api/v1/webhooks", allowed: atLeast("admin"), ok: 200 },
  { method: "POST", path: "/api/v1/webhooks", allowed: atLeast("admin"), ok: 201, prepare: async () => ({ body: webhookBody() }) },
  { method: "GET", path: "/api/v1/webhooks/:id", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ id: await freshWebhook() }) },
  { method: "PATCH", path: "/api/v1/webhooks/:id", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ id: await freshWebhook(), body: { enabled: false } }) },
  { method: "DELETE", path: "/api/v1/webhooks/:id", allowed: atLeast("admin"), ok: 204, prepare: async () => ({ id: await freshWebhook() }) },
  { method: "GET", path: "/api/v1/webhooks/:id/deliveries", allowed: atLeast("admin"), ok: 200, prepare: async () => ({ id: await freshWebhook() }) },
  { method: "POST", path: "/api/v1/webhooks/:id/test", allowed: atLeast("admin"), ok: 202, prepare: async () => ({ id: await freshWebhook() }) },
  { method: "GET", path: "/api/v1/cache", allowed: everyone, ok: 200 },
  { method: "GET", path: "/api/v1/views", allowed: everyone, ok: 200 },
  { method: "POST", path: "/api/v1/views", allowed: atLeast("member"), ok: 201, prepare: async () => ({ body: { name: `view-${uniq()}` } }) },
  { method: "GET", path: "/api/v1/views/:id", allowed: everyone, ok: 200, prepare: async () => ({ id: await freshView() }) },
  { method: "PATCH", path: "/api/v1/views/:id", allowed: atLeast("member"), ok: 200, prepare: async () => ({ id: await freshView(), body: { name: `renamed-${uniq()}` } }) },
  { method: "DELETE", path: "/api/v1/views/:id", allowed: atLeast("member"), ok: 204, prepare: async () => ({ id: await freshView() }) },
  { method: "POST", path: "/api/v1/views/:id/share", allowed: atLeast("member"), ok: 201, prepare: async () => ({ id: await freshView() }) },
  { method: "GET", path: "/api/v1/views/:id/shares", allowed: everyone, ok: 200, prepare: async () => ({ id: await freshView() }) },
  { method: "DELETE", path: "/api/v1/shares/:id", route: "/api/v1/shares/:token", allowed: atLeast("member"), ok: 204, prepare: async () => ({ id: await freshShareToken() }) },
];

// Routes whose access is tested in another file (public ones, flows bound to a browser session,
// ones that need fixtures of their own). Each names where; anything else must be in ROUTES above.
const COVERED_ELSEWHERE: Record<string, string> = {
  "GET /api/v1/openapi.json": "public, no credentials: openapi.test.ts",
  "GET /api/v1/share/:token": "public, the token is the credential: views.test.ts, security-share-principal.test.ts",
  "POST /api/v1/keys/:id/transfer": "security-keys-sessions.test.ts",
  "POST /api/v1/me/sign-out-everywhere": "a signed-in person's own sessions: security-keys-sessions.test.ts",
  "POST /api/v1/servers/:id/oauth/authorize": "an admin's browser flow bound to the session: oauth-servers.test.ts",
  "GET /api/v1/servers/:id/oauth/callback": "the provider's redirect back to that session: oauth-servers.test.ts",
  "POST /api/v1/servers/import": "import-api.test.ts",
};

/** "METHOD /api/v1/…/:param" for every handler exported by a route file under app/api/v1 (found on disk). */
function routesOnDisk(): string[] {
  const v1 = path.resolve(import.meta.dirname, "../../app/api/v1");
  return fs
    .readdirSync(v1, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "route.ts")
    .flatMap((file) => {
      const dir = path.dirname(file) === "." ? "" : `/${path.dirname(file).split(path.sep).join("/")}`;
      const pattern = `/api/v1${dir.replace(/\[(\w+)\]/g, ":$1")}`;
      const source = fs.readFileSync(path.join(v1, file), "utf8");
      return [...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${pattern}`);
    })
    .sort();
}

async function freshView(): Promise<string> {
  return expectStatus(await call("POST", "/api/v1/views", { as: f.sessions.owner, body: { name: `v-${uniq()}` } }), 201).json.id;
}

const webhookBody = () => ({ name: `hook-${uniq()}`, url: "http://127.0.0.1:9/hook", format: "json", minSeverity: "low" });

async function freshWebhook(): Promise<string> {
  return expectStatus(await call("POST", "/api/v1/webhooks", { as: f.sessions.owner, body: webhookBody() }), 201).json.id;
}

/** An open alert about a version (hash "h-role") of a tool of the team's server, for one decision. */
async function freshAlert(): Promise<string> {
  const toolName = `tool-${uniq()}`;
  const row = await testDb().alert.create({ data: { tenantId: f.team.id, serverId: f.serverId, kind: "tool_changed", severity: "low", title: "role probe", toolName, candidateHash: "h-role", dedupeKey: `tool_changed:${toolName}` } });
  return row.id;
}

async function freshShareToken(): Promise<string> {
  return expectStatus(await call("POST", `/api/v1/views/${await freshView()}/share`, { as: f.sessions.owner }), 201).json.token;
}

async function freshInvitation(): Promise<string> {
  return expectStatus(await call("POST", "/api/v1/invitations", { as: f.sessions.owner, body: { email: `inv-${uniq()}@access.test`, role: "viewer" } }), 201).json.id;
}

const WHO: Who[] = [...ROLE_NAMES.map((role) => ({ kind: "session" as const, role })), ...ROLE_NAMES.map((role) => ({ kind: "key" as const, role }))];
const matrix = ROUTES.flatMap((spec) => WHO.filter((w) => spec.onlyFor?.(w) ?? true).map((w) => ({ spec, w, expected: spec.allowed(w) ? spec.ok : 403 })));
const matrixCases = matrix.map((c, i): [string, (typeof matrix)[number]] => [`[role ${i + 1}/${matrix.length}] ${c.w.role} ${c.w.kind}: ${c.spec.method} ${c.spec.path} → ${c.expected}`, c]);

beforeAll(async () => {
  await signUp("probe"); // so that an instance admin exists and nobody below is one
  const owner = await signUp("owner");
  const team = await createTeam(owner, "roles");
  const users = { owner } as Record<Role, TestUser>;
  for (const role of ["admin", "member", "viewer"] as const) {
    users[role] = await signUp(role);
    await addMember(team, users[role], role);
  }
  const sessions = Object.fromEntries(ROLE_NAMES.map((r) => [r, users[r].caller])) as Record<Role, Caller>;
  const keys = {} as Record<Role, Caller>;
  for (const role of ROLE_NAMES) keys[role] = (await mintKey(owner.caller, role, `${role}-key`)).caller;
  const { serverId, snapshotId } = await createServerWithSnapshot(team, "watched");
  f = { team, users, sessions, keys, serverId, snapshotId, invitationId: "" };
  f.invitationId = await freshInvitation();
});

afterAll(async () => {
  if (f) await disableServers(f.team);
});

describe(`role matrix: 4 session roles × 4 key roles × every route (${matrix.length} cases)`, () => {
  it.each(matrixCases)("%s", async (_title, { spec, w, expected }) => {
    const caller = w.kind === "session" ? f.sessions[w.role] : f.keys[w.role];
    const { id, body } = (await spec.prepare?.(w)) ?? {};
    const res = await call(spec.method, spec.path.replace(":id", id ?? ""), { as: caller, body });
    expect(res.status, res.text).toBe(expected);
    if (expected === 403) expect(res.json.error.message).toMatch(/may not|signed-in person|API key/);
    await spec.after?.(w);
  });
});

describe("the route table", () => {
  it("every method of every app/api/v1/**/route.ts is in the role matrix (or named in COVERED_ELSEWHERE), and nothing listed is gone", () => {
    const onDisk = routesOnDisk();
    const listed = new Set([...ROUTES.map((spec) => `${spec.method} ${spec.route ?? spec.path}`), ...Object.keys(COVERED_ELSEWHERE)]);
    expect(onDisk.length).toBeGreaterThan(50);
    expect(onDisk.filter((route) => !listed.has(route)), "routes without an access test: add each to ROUTES in this file").toEqual([]);
    expect([...listed].filter((route) => !onDisk.includes(route)), "listed routes with no route file").toEqual([]);
  });
});

describe("role ceilings: nobody grants, invites or mints above their own role; owners stay", () => {
  const patchRole = async (as: Caller, memberId: string, role: Role) => call("PATCH", `/api/v1/members/${memberId}`, { as, body: { role } });
  const ownerMemberId = async () => (await testDb().member.findFirstOrThrow({ where: { tenantId: f.team.id, role: "owner" }, orderBy: { createdAt: "asc" } })).id;

  it.each<[string, () => Promise<{ status: number; text: string }>, number]>([
    ["admin session changes the owner's role → 403", async () => patchRole(f.sessions.admin, await ownerMemberId(), "admin"), 403],
    ["admin session removes the owner → 403", async () => call("DELETE", `/api/v1/members/${await ownerMemberId()}`, { as: f.sessions.admin }), 403],
    ["admin session makes a viewer an owner → 403", async () => patchRole(f.sessions.admin, (await addBareMember(f.team, "viewer")).memberId, "owner"), 403],
    ["admin key makes a viewer an owner → 403", async () => patchRole(f.keys.admin, (await addBareMember(f.team, "viewer")).memberId, "owner"), 403],
    ["admin session demotes another admin to member → 200", async () => patchRole(f.sessions.admin, (await addBareMember(f.team, "admin")).memberId, "member"), 200],
    ["member session promotes itself to admin → 403", async () => patchRole(f.sessions.member, (await testDb().member.findFirstOrThrow({ where: { tenantId: f.team.id, userId: f.users.member.id } })).id, "admin"), 403],
    ["owner session makes a viewer an owner → 200", async () => patchRole(f.sessions.owner, (await addBareMember(f.team, "viewer")).memberId, "owner"), 200],
    ["owner session demotes a second owner to admin → 200", async () => patchRole(f.sessions.owner, (await addBareMember(f.team, "owner")).memberId, "admin"), 200],
    ["owner session removes a second owner → 204", async () => call("DELETE", `/api/v1/members/${(await addBareMember(f.team, "owner")).memberId}`, { as: f.sessions.owner }), 204],
    ["admin session invites as owner → 403", async () => call("POST", "/api/v1/invitations", { as: f.sessions.admin, body: { email: `o-${uniq()}@access.test`, role: "owner" } }), 403],
    ["admin session invites as admin → 201", async () => call("POST", "/api/v1/invitations", { as: f.sessions.admin, body: { email: `a-${uniq()}@access.test`, role: "admin" } }), 201],
    ["owner session invites as owner → 201", async () => call("POST", "/api/v1/invitations", { as: f.sessions.owner, body: { email: `o-${uniq()}@access.test`, role: "owner" } }), 201],
    ["owner key invites (keys never invite) → 403", async () => call("POST", "/api/v1/invitations", { as: f.keys.owner, body: { email: `k-${uniq()}@access.test`, role: "viewer" } }), 403],
    ["owner session invites an existing member → 409", async () => call("POST", "/api/v1/invitations", { as: f.sessions.owner, body: { email: f.users.member.email, role: "viewer" } }), 409],
    ["admin session mints an owner key → 403", async () => call("POST", "/api/v1/keys", { as: f.sessions.admin, body: { name: "up", role: "owner" } }), 403],
    ["admin key mints an owner key → 403", async () => call("POST", "/api/v1/keys", { as: f.keys.admin, body: { name: "up", role: "owner" } }), 403],
    ["admin key mints an admin key → 403 (only people mint keys)", async () => call("POST", "/api/v1/keys", { as: f.keys.admin, body: { name: "same", role: "admin" } }), 403],
    ["owner key mints a viewer key → 403 (only people mint keys)", async () => call("POST", "/api/v1/keys", { as: f.keys.owner, body: { name: "low", role: "viewer" } }), 403],
    ["admin session revokes an owner key → 403", async () => call("DELETE", `/api/v1/keys/${(await mintKey(f.sessions.owner, "owner")).id}`, { as: f.sessions.admin }), 403],
    ["owner session revokes an owner key → 200", async () => call("DELETE", `/api/v1/keys/${(await mintKey(f.sessions.owner, "owner")).id}`, { as: f.sessions.owner }), 200],
    ["owner session mints a key with an unknown role → 400", async () => call("POST", "/api/v1/keys", { as: f.sessions.owner, body: { name: "x", role: "god" } }), 400],
    ["owner session sets an unknown role → 400", async () => patchRole(f.sessions.owner, (await addBareMember(f.team, "viewer")).memberId, "god" as Role), 400],
  ])("%s", async (_title, run, expected) => {
    const res = await run();
    expect(res.status, res.text).toBe(expected);
  });

  it("the last owner can be neither demoted nor removed, not even by themselves or an owner key (409)", async () => {
    const solo = await signUp("solo-owner");
    const team = await createTeam(solo, "solo");
    const key = await mintKey(solo.caller, "owner");
    const me = (await testDb().member.findFirstOrThrow({ where: { tenantId: team.id, userId: solo.id } })).id;
    for (const as of [solo.caller, key.caller]) {
      const demote = await patchRole(as, me, "admin");
      expect(demote.status, demote.text).toBe(409);
      expect(demote.json.error.message).toMatch(/at least one owner/);
      const remove = await call("DELETE", `/api/v1/members/${me}`, { as });
      expect(remove.status, remove.text).toBe(409);
    }
    expect((await testDb().member.findUniqueOrThrow({ where: { id: me } })).role).toBe("owner");
  });

  it("stdio servers need an instance administrator: a team owner who is not one gets 403", async () => {
    expect((await testDb().user.findUniqueOrThrow({ where: { id: f.users.owner.id } })).instanceAdmin).toBe(false);
    for (const as of [f.sessions.owner, f.keys.owner]) {
      const res = await call("POST", "/api/v1/servers", { as, body: { name: `stdio-${uniq()}`, transport: "stdio", command: "node", args: ["-e", "1"] } });
      expect(res.status, res.text).toBe(403);
    }
    const stdio = await insertServerRow(f.team.ctx, `stdio-${uniq()}`, { transport: "stdio", command: "true", args: [], env: {} }, { enabled: false });
    const edit = await call("PATCH", `/api/v1/servers/${stdio.id}`, { as: f.sessions.owner, body: { command: "sh", args: ["-c", "id"] } });
    expect(edit.status, edit.text).toBe(403);
    expect((await testDb().mcpServer.findUniqueOrThrow({ where: { id: stdio.id } })).command).toBe("true");
  });
});

describe("a viewer's attempt to delete a server is refused by the server", () => {
  it.each(["session", "key"] as const)("viewer %s: DELETE /api/v1/servers/{id} → 403 with a message, and the server still exists", async (kind) => {
    const id = await createHttpServer(f.team, `keep-${uniq()}`);
    const res = await call("DELETE", `/api/v1/servers/${id}`, { as: kind === "session" ? f.sessions.viewer : f.keys.viewer });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: "FORBIDDEN", message: "Your role (viewer) may not add, edit or remove servers" });
    expect(await testDb().mcpServer.count({ where: { id } })).toBe(1);
    expectStatus(await call("GET", `/api/v1/servers/${id}`, { as: f.sessions.viewer }), 200);
  });
});
