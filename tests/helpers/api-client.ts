import "./test-env";
import { randomUUID } from "node:crypto";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as alertAcknowledgeRoute from "@/app/api/v1/alerts/[id]/acknowledge/route";
import * as alertApproveRoute from "@/app/api/v1/alerts/[id]/approve/route";
import * as alertRejectRoute from "@/app/api/v1/alerts/[id]/reject/route";
import * as alertRoute from "@/app/api/v1/alerts/[id]/route";
import * as alertsAcknowledgeRoute from "@/app/api/v1/alerts/acknowledge/route";
import * as alertsRoute from "@/app/api/v1/alerts/route";
import * as auditRoute from "@/app/api/v1/audit/route";
import * as acceptRoute from "@/app/api/v1/invitations/[id]/accept/route";
import * as invitationRoute from "@/app/api/v1/invitations/[id]/route";
import * as invitationsRoute from "@/app/api/v1/invitations/route";
import * as keyRoute from "@/app/api/v1/keys/[id]/route";
import * as keyTransferRoute from "@/app/api/v1/keys/[id]/transfer/route";
import * as keysRoute from "@/app/api/v1/keys/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as signOutEverywhereRoute from "@/app/api/v1/me/sign-out-everywhere/route";
import * as memberRoute from "@/app/api/v1/members/[id]/route";
import * as membersRoute from "@/app/api/v1/members/route";
import * as refreshRoute from "@/app/api/v1/servers/[id]/refresh/route";
import * as serverRoute from "@/app/api/v1/servers/[id]/route";
import * as serverDiffRoute from "@/app/api/v1/servers/[id]/diff/route";
import * as serverSnapshotsRoute from "@/app/api/v1/servers/[id]/snapshots/route";
import * as toolHistoryRoute from "@/app/api/v1/servers/[id]/tools/[name]/history/route";
import * as serversRoute from "@/app/api/v1/servers/route";
import * as overviewRoute from "@/app/api/v1/overview/route";
import * as serversBatchRoute from "@/app/api/v1/servers/batch/route";
import * as serversImportRoute from "@/app/api/v1/servers/import/route";
import * as snapshotRoute from "@/app/api/v1/snapshots/[id]/route";
import * as activeTeamRoute from "@/app/api/v1/teams/active/route";
import * as teamsRoute from "@/app/api/v1/teams/route";
import * as webhookDeliveriesRoute from "@/app/api/v1/webhooks/[id]/deliveries/route";
import * as webhookRoute from "@/app/api/v1/webhooks/[id]/route";
import * as webhookTestRoute from "@/app/api/v1/webhooks/[id]/test/route";
import * as webhooksRoute from "@/app/api/v1/webhooks/route";
import * as viewRoute from "@/app/api/v1/views/[id]/route";
import * as viewShareRoute from "@/app/api/v1/views/[id]/share/route";
import * as viewSharesRoute from "@/app/api/v1/views/[id]/shares/route";
import * as viewsRoute from "@/app/api/v1/views/route";
import * as cacheRoute from "@/app/api/v1/cache/route";
import * as collisionsRoute from "@/app/api/v1/collisions/route";
import * as searchRoute from "@/app/api/v1/search/route";
import * as shareRevokeRoute from "@/app/api/v1/shares/[token]/route";
import * as sharedViewRoute from "@/app/api/v1/share/[token]/route";
import * as quotaRoute from "@/app/api/v1/quota/route";
import * as serverIdentityProbesRoute from "@/app/api/v1/servers/[id]/identity-probes/route";
import * as teamIdentityProbesRoute from "@/app/api/v1/team/identity-probes/route";
import * as teamContextBudgetRoute from "@/app/api/v1/team/context-budget/route";
import * as teamContextBudgetReportRoute from "@/app/api/v1/team/context-budget/report/route";
import * as adminQuotasRoute from "@/app/api/v1/admin/quotas/route";
import * as adminTeamQuotaRoute from "@/app/api/v1/admin/teams/[id]/quota/route";
import { getAuth } from "@/lib/auth/auth";
import type { Role, ServiceContext } from "@/lib/context";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { insertServerRow, testDb } from "./factories";

// Drives the real Next route handlers in-process: real Request objects in, real Responses out,
// the same better-auth sessions and API keys a browser or the CLI would use.
export const ORIGIN = "http://localhost:3000";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", unknown>>;

// Most specific patterns first; `:id` captures one path segment.
const ROUTES: [string, RouteModule][] = [
  ["/api/v1/me/sign-out-everywhere", signOutEverywhereRoute],
  ["/api/v1/me", meRoute],
  ["/api/v1/teams/active", activeTeamRoute],
  ["/api/v1/teams", teamsRoute],
  ["/api/v1/members/:id", memberRoute],
  ["/api/v1/members", membersRoute],
  ["/api/v1/invitations/:id/accept", acceptRoute],
  ["/api/v1/invitations/:id", invitationRoute],
  ["/api/v1/invitations", invitationsRoute],
  ["/api/v1/keys/:id/transfer", keyTransferRoute],
  ["/api/v1/keys/:id", keyRoute],
  ["/api/v1/keys", keysRoute],
  ["/api/v1/audit", auditRoute],
  ["/api/v1/servers/batch", serversBatchRoute],
  ["/api/v1/servers/import", serversImportRoute],
  ["/api/v1/servers/:id/refresh", refreshRoute],
  ["/api/v1/servers/:id/snapshots", serverSnapshotsRoute],
  ["/api/v1/servers/:id/diff", serverDiffRoute],
  ["/api/v1/servers/:id/tools/:name/history", toolHistoryRoute],
  ["/api/v1/servers/:id", serverRoute],
  ["/api/v1/servers", serversRoute],
  ["/api/v1/overview", overviewRoute],
  ["/api/v1/snapshots/:id", snapshotRoute],
  ["/api/v1/webhooks/:id/deliveries", webhookDeliveriesRoute],
  ["/api/v1/webhooks/:id/test", webhookTestRoute],
  ["/api/v1/webhooks/:id", webhookRoute],
  ["/api/v1/webhooks", webhooksRoute],
  ["/api/v1/alerts/acknowledge", alertsAcknowledgeRoute],
  ["/api/v1/alerts/:id/acknowledge", alertAcknowledgeRoute],
  ["/api/v1/alerts/:id/approve", alertApproveRoute],
  ["/api/v1/alerts/:id/reject", alertRejectRoute],
  ["/api/v1/alerts/:id", alertRoute],
  ["/api/v1/alerts", alertsRoute],
  ["/api/v1/views/:id/share", viewShareRoute],
  ["/api/v1/views/:id/shares", viewSharesRoute],
  ["/api/v1/views/:id", viewRoute],
  ["/api/v1/views", viewsRoute],
  ["/api/v1/shares/:token", shareRevokeRoute],
  ["/api/v1/share/:token", sharedViewRoute],
  ["/api/v1/cache", cacheRoute],
  ["/api/v1/collisions", collisionsRoute],
  ["/api/v1/search", searchRoute],
  ["/api/v1/quota", quotaRoute],
  ["/api/v1/servers/:id/identity-probes", serverIdentityProbesRoute],
  ["/api/v1/team/identity-probes", teamIdentityProbesRoute],
  ["/api/v1/team/context-budget", teamContextBudgetRoute],
  ["/api/v1/team/context-budget/report", teamContextBudgetReportRoute],
  ["/api/v1/admin/quotas", adminQuotasRoute],
  ["/api/v1/admin/teams/:id/quota", adminTeamQuotaRoute],
];
const COMPILED = ROUTES.map(([pattern, module]) => ({
  pattern,
  module,
  names: [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!),
  regex: new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`),
}));

/** Who sends a request: a session cookie or an API key, as headers. `null` sends no credentials. */
export type Caller = { label: string; headers: Record<string, string> };

// Response bodies are whatever the route returned; tests read fields they know.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export type ApiResponse = { status: number; json: Json; text: string; headers: Headers };

export type CallOptions = { as?: Caller | null; body?: unknown; rawBody?: string; contentType?: string | null; headers?: Record<string, string> };

export async function call(method: "GET" | "POST" | "PATCH" | "DELETE", path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const url = new URL(path, ORIGIN);
  const match = COMPILED.map((r) => ({ r, m: r.regex.exec(url.pathname) })).find((x) => x.m);
  if (!match) throw new Error(`No route for ${url.pathname}`);
  const handler = match.r.module[method] as Handler | undefined;
  if (!handler) return { status: 405, json: null, text: "", headers: new Headers() };
  const headers: Record<string, string> = { host: url.host, ...(options.as?.headers ?? {}), ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    body = options.rawBody ?? JSON.stringify(options.body);
    if (options.contentType !== null) headers["content-type"] = options.contentType ?? "application/json";
  }
  // Dynamic segments reach the handlers percent-decoded, as Next does.
  const params = Promise.resolve<Record<string, string>>(Object.fromEntries(match.r.names.map((name, i) => [name, decodeURIComponent(match.m![i + 1]!)])));
  const response = await handler(new Request(url, { method, headers, body }), { params });
  const text = await response.text();
  return { status: response.status, json: parseJson(text), text, headers: response.headers };
}

function parseJson(text: string): Json {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** better-auth's own endpoints (/api/auth/…) through the real Next handler, as a same-origin browser call. */
export async function authCall(method: "GET" | "POST", path: string, options: { as?: Caller | null; body?: unknown; origin?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse & { setCookie: string[] }> {
  const headers: Record<string, string> = { host: new URL(ORIGIN).host, origin: options.origin ?? ORIGIN, ...(options.as?.headers ?? {}), ...(options.headers ?? {}) };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(new URL(`/api/auth${path}`, ORIGIN), { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const response = await (method === "GET" ? authRoute.GET : authRoute.POST)(request);
  const text = await response.text();
  return { status: response.status, json: parseJson(text), text, headers: response.headers, setCookie: response.headers.getSetCookie() };
}

/** Fails with the response body when the status is not the expected one (readable test failures). */
export function expectStatus(response: ApiResponse, status: number, what = "request"): ApiResponse {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status}: ${response.text.slice(0, 400)}`);
  return response;
}

export type TestUser = { id: string; email: string; caller: Caller };

const PASSWORD = "correct-horse-battery";

/** Signs up through better-auth (password hashed, session row, httpOnly cookie) and returns the cookie as a caller. */
export async function signUp(label: string, email = `${label}-${randomUUID().slice(0, 8)}@access.test`): Promise<TestUser> {
  const { headers, response } = await getAuth().api.signUpEmail({ body: { email, password: PASSWORD, name: label }, returnHeaders: true });
  const cookie = headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  if (!cookie) throw new Error("sign-up set no cookie");
  return { id: response.user.id, email, caller: { label: `${label} (session)`, headers: { cookie } } };
}

/** A fresh session for an existing account (sign-in through better-auth). */
export async function signIn(email: string, label = email): Promise<Caller> {
  const { headers } = await getAuth().api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
  return { label: `${label} (session)`, headers: { cookie: headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") } };
}

export type TestTeam = { id: string; slug: string; owner: TestUser; ctx: ServiceContext };

/** Creates a team through POST /api/v1/teams; the user becomes its owner and it becomes their active team. */
export async function createTeam(owner: TestUser, label: string): Promise<TestTeam> {
  const slug = `${label}-${randomUUID().slice(0, 8)}`;
  const res = expectStatus(await call("POST", "/api/v1/teams", { as: owner.caller, body: { slug, name: `Team ${label}` } }), 201, "create team");
  return { id: res.json.id, slug, owner, ctx: { tenantId: res.json.id, db: testDb(), actor: { kind: "system", id: "test" } } };
}

/** Adds an existing user with a role, straight in the database (for suites where joining is not under test). */
export async function addMember(team: TestTeam, user: { id: string }, role: Role): Promise<string> {
  const row = await testDb().member.create({ data: { tenantId: team.id, userId: user.id, role } });
  return row.id;
}

/** A user who never signs in (a row only), as a member of the team: a target for role changes and removal. */
export async function addBareMember(team: TestTeam, role: Role, label = "target"): Promise<{ memberId: string; userId: string; email: string }> {
  const email = `${label}-${randomUUID().slice(0, 8)}@access.test`;
  const user = await testDb().user.create({ data: { email, name: label } });
  return { memberId: await addMember(team, user, role), userId: user.id, email };
}

export type TestKey = { id: string; secret: string; caller: Caller };

/** Mints a team API key through POST /api/v1/keys as `by`. */
export async function mintKey(by: Caller, role: Role, name = `${role}-key`): Promise<TestKey> {
  const res = expectStatus(await call("POST", "/api/v1/keys", { as: by, body: { name, role } }), 201, `mint ${role} key`);
  return { id: res.json.id, secret: res.json.key, caller: bearer(res.json.key, `${role} key`) };
}

export function bearer(secret: string, label = "key"): Caller {
  return { label, headers: { authorization: `Bearer ${secret}` } };
}

/** An HTTP server row that passes validation and that nothing listens on (no worker runs here). */
export const UNREACHABLE_URL = "http://127.0.0.1:9/mcp";

export async function createHttpServer(team: TestTeam, name: string, headers: Record<string, string> = {}): Promise<string> {
  return (await insertServerRow(team.ctx, name, { transport: "streamable_http", url: UNREACHABLE_URL, headers })).id;
}

export async function createServerWithSnapshot(team: TestTeam, name: string): Promise<{ serverId: string; snapshotId: string }> {
  const serverId = await createHttpServer(team, name);
  const tool = (n: string) => ({ name: n, description: `${n} things`, inputSchema: { type: "object", properties: {} } });
  const result = await recordSnapshot(team.ctx, { serverId, tools: [tool("alpha"), tool("beta")], trigger: "connect" });
  return { serverId, snapshotId: result.snapshotId };
}

/** Later suites start real workers against the same database; they must not pick these servers up. */
export async function disableServers(...teams: TestTeam[]): Promise<void> {
  await testDb().mcpServer.updateMany({ where: { tenantId: { in: teams.map((t) => t.id) } }, data: { enabled: false } });
}
