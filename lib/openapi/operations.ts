// Every /api/v1 operation and the zod schemas its handler validates with (imported from where the
// handlers use them, never copied) plus the schema of its answer (lib/openapi/responses.ts).
// tests/integration/openapi.test.ts checks this list against the route files on disk.
import { z } from "zod";
import { AcknowledgeInput, ApproveInput, BulkAcknowledgeInput, RejectInput } from "@/lib/alerts/decision-input";
import { ListAlertsQuery } from "@/lib/alerts/list-alerts";
import { ListAuditQuery } from "@/lib/audit-log/list-audit";
import { CreateKeyInput } from "@/lib/auth/api-keys";
import { InvitationInput } from "@/lib/auth/invitations";
import { TransferInput } from "@/lib/auth/key-ownership";
import { RoleChange } from "@/lib/auth/members";
import { SwitchTeamInput, TeamInput } from "@/lib/auth/teams";
import { DiffQuery } from "@/lib/history/diff-snapshots";
import { ImportInput } from "@/lib/import/import-servers";
import { OverviewQuery } from "@/lib/overview/overview-dto";
import { BatchInput } from "@/lib/servers/create-servers-batch";
import { ListSnapshotsInput } from "@/lib/servers/list-snapshots";
import { ServerInput, ServerPatch } from "@/lib/servers/server-input";
import { TeamProbeSettingsPatch } from "@/lib/identity-probes/settings-schema";
import { ListServersQuery } from "@/lib/servers/server-list-query";
import { QuotaInput } from "@/lib/tenants/team-quota";
import { ContextBudgetPatch } from "@/lib/tenants/context-budget";
import { ContextBudgetReportInput } from "@/lib/tenants/context-budget-report";
import { ShareInput, ViewInput, ViewPatch } from "@/lib/views/view-input";
import { CreateWebhookInput, ListDeliveriesInput, UpdateWebhookInput } from "@/lib/webhooks/webhook-input";
import { ListCollisionsQuery } from "@/lib/collisions/list-collisions";
import { SearchQuery } from "@/lib/search/search-team";
import * as R from "./responses";
import { Collision, SearchResult } from "./search-responses";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
/** any: API key or session · session: a signed-in person only · public: no credentials. */
export type Access = "any" | "session" | "public";

export type Operation = {
  method: Method;
  /** OpenAPI path template under /api/v1 ({id}, {name}, {token}). */
  path: string;
  tag: string;
  summary: string;
  access?: Access;
  query?: z.ZodObject;
  body?: z.ZodType;
  bodyRequired?: boolean;
  /** 303: a redirect with no body (the OAuth callback sends the browser back to the page). */
  status?: 200 | 201 | 202 | 204 | 303;
  response?: z.ZodType;
  /** Cursor-paged (limit, cursor → nextCursor). */
  paged?: boolean;
};

const Deleted = undefined;
const Revoked = R.ApiKey;

export const OPERATIONS: Operation[] = [
  { method: "GET", path: "/openapi.json", tag: "Meta", summary: "This OpenAPI document", access: "public", response: R.OpenObject },
  { method: "GET", path: "/me", tag: "Account", summary: "The caller: user or key, team, role, permissions", response: R.Me },
  { method: "POST", path: "/me/sign-out-everywhere", tag: "Account", summary: "End every session of the signed-in person", access: "session", response: R.OpenObject },
  { method: "GET", path: "/teams", tag: "Teams", summary: "The signed-in person's teams", access: "session", response: R.itemsOf(R.Team) },
  { method: "POST", path: "/teams", tag: "Teams", summary: "Create a team (the caller becomes owner)", access: "session", body: TeamInput, status: 201, response: R.Team },
  { method: "POST", path: "/teams/active", tag: "Teams", summary: "Switch the session's active team", access: "session", body: SwitchTeamInput, response: z.object({ activeTeamId: z.string() }) },
  { method: "GET", path: "/members", tag: "Teams", summary: "Members of the team", response: R.itemsOf(R.Member) },
  { method: "PATCH", path: "/members/{id}", tag: "Teams", summary: "Change a member's role", body: RoleChange, response: R.Member },
  { method: "DELETE", path: "/members/{id}", tag: "Teams", summary: "Remove a member", status: 204, response: Deleted },
  { method: "GET", path: "/invitations", tag: "Teams", summary: "Open invitations", response: R.itemsOf(R.Invitation) },
  { method: "POST", path: "/invitations", tag: "Teams", summary: "Invite by link (signed-in admins)", body: InvitationInput, status: 201, response: R.Invitation },
  { method: "GET", path: "/invitations/{id}", tag: "Teams", summary: "An invitation, to whoever holds the link", access: "public", response: R.OpenObject },
  { method: "DELETE", path: "/invitations/{id}", tag: "Teams", summary: "Cancel an invitation", status: 204, response: Deleted },
  { method: "POST", path: "/invitations/{id}/accept", tag: "Teams", summary: "Accept an invitation", access: "session", response: R.OpenObject },
  { method: "GET", path: "/keys", tag: "API keys", summary: "The team's API keys", response: R.itemsOf(R.ApiKey) },
  { method: "POST", path: "/keys", tag: "API keys", summary: "Mint a key (its secret is shown once)", body: CreateKeyInput, status: 201, response: R.ApiKey },
  { method: "DELETE", path: "/keys/{id}", tag: "API keys", summary: "Revoke a key", response: Revoked },
  { method: "POST", path: "/keys/{id}/transfer", tag: "API keys", summary: "Hand a key to another member", body: TransferInput, response: R.ApiKey },
  { method: "GET", path: "/audit", tag: "Audit", summary: "The team's audit log, newest first", query: ListAuditQuery, paged: true, response: R.pageOf(R.AuditEvent) },
  { method: "GET", path: "/overview", tag: "Servers", summary: "The team at a glance: servers by status, open alerts by severity, changes, tools, a per-day timeline and the latest changes and alerts", query: OverviewQuery, response: R.Overview },
  { method: "GET", path: "/servers", tag: "Servers", summary: "List the fleet (filters, sort, paging)", query: ListServersQuery, paged: true, response: R.ServerPage },
  { method: "POST", path: "/servers", tag: "Servers", summary: "Register a server", body: ServerInput, status: 201, response: R.ServerDetail },
  { method: "POST", path: "/servers/batch", tag: "Servers", summary: "Register up to 1,000 servers, all or nothing", body: BatchInput, status: 201, response: z.object({ created: z.number().int(), items: z.array(z.object({ index: z.number().int(), id: z.string(), name: z.string() })) }) },
  { method: "POST", path: "/servers/import", tag: "Servers", summary: "Import the servers of an MCP client config (Claude, Cursor, VS Code, Windsurf, Zed, a Toolwatch export); dryRun previews", body: ImportInput, response: R.ImportResult },
  { method: "GET", path: "/servers/{id}", tag: "Servers", summary: "A server with its tools and transitions", response: R.ServerDetail },
  { method: "PATCH", path: "/servers/{id}", tag: "Servers", summary: "Edit a server", body: ServerPatch, response: R.ServerDetail },
  { method: "DELETE", path: "/servers/{id}", tag: "Servers", summary: "Remove a server", status: 204, response: Deleted },
  { method: "POST", path: "/servers/{id}/refresh", tag: "Servers", summary: "Ask the worker to re-list now", status: 202, response: R.OpenObject },
  { method: "GET", path: "/servers/{id}/identity-probes", tag: "Servers", summary: "Identity probes: which client identities were probed when, and each one's outcome", response: R.IdentityProbeState },
  { method: "GET", path: "/team/identity-probes", tag: "Teams", summary: "The team's identity-probe defaults", response: R.TeamIdentityProbeSettings },
  { method: "PATCH", path: "/team/identity-probes", tag: "Teams", summary: "Change the team's identity-probe defaults (admins)", body: TeamProbeSettingsPatch, response: R.TeamIdentityProbeSettings },
  { method: "GET", path: "/team/context-budget", tag: "Teams", summary: "The team's context budget and what its tool lists cost now (≈ o200k_base tokens)", response: R.ContextBudget },
  { method: "PATCH", path: "/team/context-budget", tag: "Teams", summary: "Set or turn off the team's context budget (admins)", body: ContextBudgetPatch, response: R.ContextBudget },
  { method: "GET", path: "/team/context-budget/report", tag: "Teams", summary: "The budget page: the total against the budget, the costliest servers, the total per UTC day, the open alert", query: ContextBudgetReportInput, response: R.ContextBudgetReport },
  { method: "POST", path: "/servers/{id}/oauth/authorize", tag: "Servers", summary: "Start an OAuth authorization (admins; returns the provider's URL)", access: "session", response: R.OAuthAuthorization },
  {
    method: "GET",
    path: "/servers/{id}/oauth/callback",
    tag: "Servers",
    summary: "The provider's redirect back (code, state); 303 to the server page",
    access: "session",
    query: z.object({ code: z.string().optional(), state: z.string(), iss: z.string().optional(), error: z.string().optional(), error_description: z.string().optional() }),
    status: 303,
    response: Deleted,
  },
  { method: "GET", path: "/servers/{id}/snapshots", tag: "History", summary: "A server's snapshots, newest first", query: ListSnapshotsInput, paged: true, response: R.pageOf(R.Snapshot) },
  { method: "GET", path: "/servers/{id}/diff", tag: "History", summary: "Diff two snapshots (default: previous → latest)", query: DiffQuery, response: R.OpenObject },
  { method: "GET", path: "/servers/{id}/tools/{name}/history", tag: "History", summary: "One tool's versions over time", response: R.OpenObject },
  { method: "GET", path: "/snapshots/{id}", tag: "History", summary: "A snapshot with its tool list", response: R.Snapshot.extend({ tools: z.array(R.OpenObject) }).loose() },
  { method: "GET", path: "/alerts", tag: "Alerts", summary: "Alerts, newest first", query: ListAlertsQuery, paged: true, response: R.pageOf(R.AlertSummary) },
  { method: "POST", path: "/alerts/acknowledge", tag: "Alerts", summary: "Acknowledge many alerts", body: BulkAcknowledgeInput, response: z.object({ acknowledged: z.array(z.string()), skipped: z.array(z.object({ id: z.string(), reason: z.string() })) }) },
  { method: "GET", path: "/alerts/{id}", tag: "Alerts", summary: "An alert with findings, versions and diff", response: R.AlertDetail },
  { method: "POST", path: "/alerts/{id}/acknowledge", tag: "Alerts", summary: "Acknowledge an alert", body: AcknowledgeInput, bodyRequired: false, response: R.AlertDetail },
  { method: "POST", path: "/alerts/{id}/approve", tag: "Alerts", summary: "Approve the version under review (409 when stale)", body: ApproveInput, response: R.AlertDetail },
  { method: "POST", path: "/alerts/{id}/reject", tag: "Alerts", summary: "Reject the version under review", body: RejectInput, bodyRequired: false, response: R.AlertDetail },
  { method: "GET", path: "/collisions", tag: "Alerts", summary: "Tool names offered by two or more of the team's servers, with hosts' qualified names and alerts", query: ListCollisionsQuery, paged: true, response: R.pageOf(Collision) },
  { method: "GET", path: "/search", tag: "Search", summary: "Servers, current tools and alerts matching q (8 of each)", query: SearchQuery, response: SearchResult },
  { method: "GET", path: "/cache", tag: "Cache", summary: "Tool-list cache entries of the team's servers", response: R.CachePage },
  { method: "GET", path: "/webhooks", tag: "Webhooks", summary: "The team's webhooks", response: R.itemsOf(R.Webhook) },
  { method: "POST", path: "/webhooks", tag: "Webhooks", summary: "Create a webhook (its signing secret is shown once)", body: CreateWebhookInput, status: 201, response: R.Webhook },
  { method: "GET", path: "/webhooks/{id}", tag: "Webhooks", summary: "A webhook", response: R.Webhook },
  { method: "PATCH", path: "/webhooks/{id}", tag: "Webhooks", summary: "Edit a webhook or rotate its secret", body: UpdateWebhookInput, response: R.Webhook },
  { method: "DELETE", path: "/webhooks/{id}", tag: "Webhooks", summary: "Delete a webhook", status: 204, response: Deleted },
  { method: "POST", path: "/webhooks/{id}/test", tag: "Webhooks", summary: "Queue a test delivery", status: 202, response: R.WebhookDelivery },
  { method: "GET", path: "/webhooks/{id}/deliveries", tag: "Webhooks", summary: "A webhook's delivery log", query: ListDeliveriesInput, paged: true, response: R.pageOf(R.WebhookDelivery) },
  { method: "GET", path: "/views", tag: "Views", summary: "Saved views", response: R.itemsOf(R.View) },
  { method: "POST", path: "/views", tag: "Views", summary: "Save a view", body: ViewInput, status: 201, response: R.View },
  { method: "GET", path: "/views/{id}", tag: "Views", summary: "A saved view", response: R.View },
  { method: "PATCH", path: "/views/{id}", tag: "Views", summary: "Edit a saved view", body: ViewPatch, response: R.View },
  { method: "DELETE", path: "/views/{id}", tag: "Views", summary: "Delete a saved view", status: 204, response: Deleted },
  { method: "POST", path: "/views/{id}/share", tag: "Views", summary: "Create a share link (token shown once)", body: ShareInput, bodyRequired: false, status: 201, response: R.CreatedShareLink },
  { method: "GET", path: "/views/{id}/shares", tag: "Views", summary: "A view's share links", response: R.itemsOf(R.ShareLink) },
  { method: "DELETE", path: "/shares/{token}", tag: "Views", summary: "Revoke a share link (by token or id)", status: 204, response: Deleted },
  { method: "GET", path: "/share/{token}", tag: "Views", summary: "A shared view's data (the token is the credential)", access: "public", response: R.SharedView },
  { method: "GET", path: "/quota", tag: "Quotas", summary: "The team's quota and usage", response: R.Quota },
  { method: "GET", path: "/admin/quotas", tag: "Quotas", summary: "Every team's quota (instance administrators)", access: "session", response: R.itemsOf(R.OpenObject) },
  { method: "PATCH", path: "/admin/teams/{id}/quota", tag: "Quotas", summary: "Set a team's limits (instance administrators)", access: "session", body: QuotaInput, response: R.OpenObject },
];
