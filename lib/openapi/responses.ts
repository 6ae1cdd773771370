// Zod schemas of what the API answers: the DTO types of lib/*/…-dto.ts written as schemas, so the
// OpenAPI document can describe responses and tests/integration/openapi.test.ts can check real
// responses against them (the main DTOs are strict: a field added to a DTO and not here fails).
// Parts that are free-form by nature (tool definitions, findings, alert details) stay open objects.
import { z } from "zod";
import { ALERT_KINDS, ALERT_SEVERITIES, ALERT_STATUSES } from "@/lib/alerts/alert-dto";
import { HTTP_STATUS, type AppErrorCode } from "@/lib/errors";
import { CONFIG_FORMATS } from "@/lib/import/types";
import { DELIVERY_STATUSES, WEBHOOK_EVENTS, WEBHOOK_FORMATS } from "@/lib/webhooks/types";
import { ViewFilters } from "@/lib/views/view-input";

const dateTime = z.string().describe("ISO 8601 date-time");
const nullableDate = dateTime.nullable();
const open = z.looseObject({});
const contextTokens = z.number().int().nullable().describe("≈ tokens in a model's context (o200k_base, docs/context-budget.md); null until counted");

/** `{error:{code,message,details?}}`: every 4xx/5xx of /api/v1. */
export const ErrorEnvelope = z
  .strictObject({
    error: z.strictObject({
      code: z.enum([...(Object.keys(HTTP_STATUS) as AppErrorCode[]), "INTERNAL"]),
      message: z.string(),
      details: z.unknown().optional().describe("Per code: `fields` for INVALID_INPUT, `scope`/`limit`/`windowSeconds`/`retryAfterSeconds` for RATE_LIMITED, …"),
      requestId: z.string().optional().describe("INTERNAL: the request's X-Request-Id, to quote to the operator (it is on their log line)"),
    }),
  })
  .meta({ id: "Error" });

/** Every cursor-paged list: one page of `items`; `nextCursor` null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable().describe("Pass as `cursor` for the next page; null: last page") });

/** POST /api/v1/servers/import: the plan (dryRun) or what was done, per server of the config. */
export const ImportResult = z
  .strictObject({
    format: z.enum(CONFIG_FORMATS),
    dryRun: z.boolean(),
    items: z.array(
      z.strictObject({
        name: z.string(),
        action: z.enum(["create", "update", "unchanged", "refused"]),
        reason: z.string().optional().describe("Why a refused server cannot be imported"),
        transport: z.enum(["stdio", "streamable_http", "sse"]).nullable(),
        target: z.string().nullable().describe("URL or command line; secret values are never echoed"),
        changes: z.array(z.string()).optional().describe("For an update: the fields that differ"),
        notes: z.array(z.string()),
        id: z.string().optional().describe("The server's id: an existing one's, or a created one's"),
      }),
    ),
    summary: z.strictObject({ create: z.number().int(), update: z.number().int(), unchanged: z.number().int(), refused: z.number().int() }),
  })
  .meta({ id: "ImportResult" });

export const ServerSummary = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    transport: z.enum(["stdio", "streamable_http", "sse"]),
    target: z.string(),
    tags: z.array(z.string()),
    enabled: z.boolean(),
    demo: z.boolean(),
    envKeys: z.array(z.string()),
    headerKeys: z.array(z.string()),
    pollIntervalSeconds: z.number().int(),
    auditPolicy: z.enum(["trust_first", "strict"]),
    auth: z
      .strictObject({
        type: z.literal("oauth"),
        grant: z.enum(["client_credentials", "authorization_code"]),
        clientId: z.string().nullable(),
        scope: z.string().nullable(),
        hasSecret: z.boolean().describe("Whether a client secret or private key is set (never returned)"),
        status: z.enum(["unauthorized", "authorized", "auth_required"]),
        statusReason: z.string().nullable(),
      })
      .nullable()
      .describe("OAuth 2.1 sign-in (docs/oauth-servers.md); tokens and secrets are never returned"),
    status: z.string(),
    statusReason: z.string().nullable(),
    era: z.string().nullable(),
    protocolVersion: z.string().nullable(),
    serverInfo: z.looseObject({ name: z.string().optional(), version: z.string().optional(), title: z.string().optional() }).nullable(),
    toolCount: z.number().int().nullable(),
    contextTokens: contextTokens.describe("The latest snapshot's tools and surface in ≈ o200k_base tokens; null: no snapshot yet or not counted yet"),
    latestSnapshotId: z.string().nullable(),
    snapshotCount: z.number().int(),
    lastChangeAt: nullableDate,
    lastListedAt: nullableDate,
    connectedAt: nullableDate,
    lastError: z.object({ code: z.string().nullable(), message: z.string(), at: nullableDate }).nullable(),
    transportUsed: z.string().nullable(),
    warnings: z.array(z.string()),
    updatedAt: dateTime,
  })
  .meta({ id: "ServerSummary" });

const surfaceKind = z.enum(["prompt", "resource", "resource_template", "instructions"]);

export const ServerDetail = z
  .strictObject({
    server: ServerSummary,
    capabilities: z.unknown(),
    instructions: z.string().nullable(),
    tools: z.array(z.strictObject({ position: z.number().int(), hash: z.string(), name: z.string(), definition: open, contextTokens })),
    surface: z
      .strictObject({
        tracked: z.boolean().describe("false: the latest snapshot predates prompt/resource tracking (they were not asked for)"),
        items: z.array(z.strictObject({ kind: surfaceKind, position: z.number().int(), hash: z.string(), name: z.string(), definition: open, contextTokens })),
      })
      .describe("Prompts, resources, resource templates and the instructions of the latest snapshot, in server order (resource contents are never fetched)"),
    transitions: z.array(z.strictObject({ from: z.string().nullable(), to: z.string(), reason: z.string().nullable(), at: dateTime })),
  })
  .meta({ id: "ServerDetail" });

const serverStatus = z.enum(["pending", "connecting", "live", "polling", "degraded", "down", "auth_required", "stopped"]);
const severityCounts = z.partialRecord(z.enum(ALERT_SEVERITIES), z.number().int());

/** A row of the fleet list: the summary, its last 24 h of status history and its open alerts. */
export const FleetServer = z
  .strictObject({
    ...ServerSummary.shape,
    statusStrip: z
      .strictObject({
        from: dateTime.describe("Start of the first bucket"),
        bucketMinutes: z.number().int(),
        buckets: z.array(serverStatus.nullable()).describe("Oldest first: the worst status held in each bucket; null: nothing recorded yet"),
      })
      .describe("The last 24 h of status history (session transitions) in hourly buckets, like an uptime bar"),
    openAlerts: severityCounts.describe("Open alerts per severity (absent: none)"),
  })
  .meta({ id: "FleetServer" });

export const Overview = z
  .strictObject({
    generatedAt: dateTime,
    servers: z.strictObject({ total: z.number().int(), byStatus: z.partialRecord(serverStatus, z.number().int()) }),
    openAlerts: z.strictObject({ total: z.number().int(), bySeverity: severityCounts }).describe("Alerts with status open"),
    changes: z.strictObject({ last24h: z.number().int(), last7d: z.number().int() }).describe("Snapshots that changed a server's list (a first listing is not a change)"),
    tools: z.strictObject({ total: z.number().int() }).describe("Tools in every server's latest list, summed"),
    contextTokens: z.number().int().nullable().describe("Tokens the team's tool lists cost in a model's context; null until measured"),
    timeline: z.strictObject({
      timeZone: z.string(),
      days: z.array(z.strictObject({ day: z.string().describe("YYYY-MM-DD in timeZone"), changes: z.number().int(), alerts: z.number().int().describe("Alerts opened that day") })),
    }),
    latestChanges: z.array(
      z.strictObject({
        snapshotId: z.string(), serverId: z.string(), serverName: z.string(), takenAt: dateTime, toolCount: z.number().int(),
        added: z.number().int(), removed: z.number().int(), changed: z.number().int(), highest: z.enum(["ERR", "WARN", "INFO"]).nullable(),
      }),
    ),
    latestAlerts: z.array(
      z.strictObject({
        id: z.string(), serverId: z.string(), serverName: z.string(), kind: z.enum(ALERT_KINDS), severity: z.enum(ALERT_SEVERITIES),
        status: z.enum(ALERT_STATUSES), title: z.string(), toolName: z.string().nullable(), createdAt: dateTime,
      }),
    ),
  })
  .meta({ id: "Overview" });

export const ServerPage = pageOf(FleetServer)
  .extend({
    total: z.number().int(),
    byStatus: z.partialRecord(serverStatus, z.number().int()),
    teamTotal: z.number().int(),
    tags: z.array(z.string()),
  })
  .meta({ id: "ServerPage" });

const levels = z.strictObject({ ERR: z.number().int(), WARN: z.number().int(), INFO: z.number().int() });
export const Snapshot = z
  .strictObject({
    id: z.string(),
    contentHash: z.string(),
    toolCount: z.number().int(),
    contextTokens: contextTokens.describe("This snapshot's tools and surface together in ≈ o200k_base tokens; null until every item is counted"),
    trigger: z.string(),
    protocolVersion: z.string().nullable(),
    era: z.string().nullable(),
    serverVersion: z.string().nullable(),
    ttlMs: z.number().nullable(),
    cacheScope: z.string().nullable(),
    cacheEntryId: z.string().nullable(),
    fromCache: z.boolean(),
    takenAt: dateTime,
    lastConfirmedAt: dateTime,
    confirmCount: z.number().int(),
    notified: z.boolean(),
    serverVersionChanged: z.boolean(),
    authContext: z.string().nullable(),
    changes: z
      .strictObject({
        added: z.number().int(),
        removed: z.number().int(),
        changed: z.number().int(),
        renamed: z.number().int(),
        orderOnly: z.boolean(),
        highest: z.enum(["ERR", "WARN", "INFO"]).nullable(),
        levels,
        surface: z
          .array(z.strictObject({ kind: surfaceKind, name: z.string(), change: z.enum(["added", "removed", "changed"]), highest: z.enum(["ERR", "WARN", "INFO"]).nullable() }))
          .optional()
          .describe("Prompts, resources, templates and instructions that changed"),
      })
      .nullable(),
    pages: z.number().int().nullable(),
  })
  .meta({ id: "Snapshot" });

export const AlertSummary = z
  .strictObject({
    id: z.string(),
    serverId: z.string(),
    serverName: z.string(),
    kind: z.enum(ALERT_KINDS),
    severity: z.enum(ALERT_SEVERITIES),
    status: z.enum(ALERT_STATUSES),
    title: z.string(),
    toolName: z.string().nullable(),
    candidateHash: z.string().nullable(),
    baselineHash: z.string().nullable(),
    snapshotId: z.string().nullable(),
    findingCount: z.number().int(),
    createdAt: dateTime,
    updatedAt: dateTime,
    acknowledgedAt: nullableDate,
    acknowledgedBy: z.string().nullable(),
    resolvedAt: nullableDate,
    resolvedBy: z.string().nullable(),
    resolution: z.string().nullable(),
    comment: z.string().nullable(),
  })
  .meta({ id: "AlertSummary" });

export const AlertDetail = z
  .looseObject({
    alert: AlertSummary,
    server: z.object({ id: z.string(), name: z.string(), auditPolicy: z.string() }),
    findings: z.array(open),
    details: open,
    baseline: open.nullable(),
    baselineVersion: z.object({ hash: z.string(), definition: open }).nullable(),
    candidateVersion: z.object({ hash: z.string(), definition: open }).nullable(),
    diff: open.nullable(),
    decisions: z.array(z.object({ action: z.string(), actor: z.string(), at: dateTime, comment: z.string().nullable(), hash: z.string().nullable() })),
  })
  .meta({ id: "AlertDetail" });

export const Webhook = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    url: z.string().describe("Masked: the receiver URL is a credential"),
    format: z.enum(WEBHOOK_FORMATS),
    minSeverity: z.enum(ALERT_SEVERITIES),
    enabled: z.boolean(),
    createdAt: dateTime,
    updatedAt: dateTime,
    lastDelivery: z.strictObject({ id: z.string(), event: z.string(), status: z.enum(DELIVERY_STATUSES), statusCode: z.number().int().nullable(), at: dateTime }).nullable(),
    secret: z.string().optional().describe("Only in the answer to create and to rotateSecret"),
  })
  .meta({ id: "Webhook" });

export const WebhookDelivery = z
  .strictObject({
    id: z.string(),
    webhookId: z.string(),
    alertId: z.string().nullable(),
    event: z.enum(WEBHOOK_EVENTS),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    statusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
    deliveredAt: nullableDate,
    payload: z.unknown(),
  })
  .meta({ id: "WebhookDelivery" });

export const View = z
  .strictObject({ id: z.string(), name: z.string(), filters: ViewFilters, pinned: z.boolean(), createdBy: z.string(), createdAt: dateTime, updatedAt: dateTime })
  .meta({ id: "View" });

export const ShareLink = z
  .strictObject({
    id: z.string(),
    viewId: z.string(),
    tokenStart: z.string(),
    status: z.enum(["active", "expired", "revoked"]),
    createdBy: z.string(),
    createdAt: dateTime,
    expiresAt: nullableDate,
    revokedAt: nullableDate,
    lastAccessAt: nullableDate,
    accessCount: z.number().int(),
  })
  .meta({ id: "ShareLink" });

export const CreatedShareLink = z.strictObject({ id: z.string(), token: z.string(), url: z.string(), expiresAt: nullableDate }).meta({ id: "CreatedShareLink" });

export const ApiKey = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    start: z.string(),
    role: z.string(),
    createdAt: dateTime,
    createdBy: z.string().nullable(),
    lastUsedAt: nullableDate,
    expiresAt: nullableDate,
    revokedAt: nullableDate,
    revokedBy: z.string().nullable(),
    status: z.enum(["active", "revoked", "expired"]),
    key: z.string().optional().describe("The secret: only in the answer to create"),
  })
  .meta({ id: "ApiKey" });

export const Member = z
  .strictObject({ id: z.string(), userId: z.string(), email: z.string(), name: z.string(), role: z.string(), joinedAt: dateTime })
  .meta({ id: "Member" });

export const Invitation = z
  .looseObject({ id: z.string(), email: z.string(), role: z.string(), status: z.string(), expiresAt: dateTime, createdAt: dateTime, inviter: z.string(), path: z.string() })
  .meta({ id: "Invitation" });

export const Team = z.looseObject({ id: z.string(), slug: z.string(), name: z.string() }).meta({ id: "Team" });

export const Quota = z
  .looseObject({
    quota: z.object({ maxServers: z.number().int(), minPollSeconds: z.number().int(), listingsPerMinute: z.number().int() }),
    source: z.record(z.string(), z.enum(["team", "instance"])),
    usage: z.object({ servers: z.number().int() }),
  })
  .meta({ id: "Quota" });

export const AuditEvent = z.looseObject({ id: z.string(), action: z.string(), createdAt: dateTime }).meta({ id: "AuditEvent" });

export const CachePage = z
  .object({
    items: z.array(z.looseObject({ entryId: z.string(), serverId: z.string(), serverName: z.string(), fresh: z.boolean(), toolCount: z.number().int() })),
    totals: z.object({ hits: z.number(), misses: z.number(), refreshes: z.number(), hitRate: z.number().nullable(), fetches: z.number() }),
    generatedAt: dateTime,
  })
  .meta({ id: "CachePage" });

export const Me = z
  .looseObject({
    kind: z.enum(["user", "apiKey"]),
    user: z.looseObject({ id: z.string(), email: z.string() }).nullable(),
    team: Team.nullable(),
    role: z.string().nullable(),
    permissions: z.array(z.string()),
    teams: z.array(open),
  })
  .meta({ id: "Me" });

export const SharedView = z
  .looseObject({ view: z.object({ name: z.string(), filters: ViewFilters }), servers: z.array(open), alerts: z.array(open), generatedAt: dateTime })
  .meta({ id: "SharedView" });

export const itemsOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });
export const OpenObject = open;

const clientInfo = z.strictObject({ name: z.string(), version: z.string() });
export const TeamIdentityProbeSettings = z
  .strictObject({
    enabled: z.boolean(),
    identities: z.array(z.string()).describe("Catalog keys (docs/identity-probes.md); [] = every identity"),
    intervalMinutes: z.number().int().nullable().describe("null: the instance default (TOOLWATCH_IDENTITY_PROBE_INTERVAL_MS)"),
    probeStdio: z.boolean().describe("Probe stdio servers too (each probe starts a process); off by default"),
  })
  .meta({ id: "TeamIdentityProbeSettings" });
export const ContextBudget = z
  .strictObject({
    budgetTokens: z.number().int().nullable().describe("The team's budget in ≈ o200k_base tokens; null: off"),
    totalTokens: z.number().int().describe("Sum over each server's latest snapshot"),
    servers: z.number().int(),
    countedServers: z.number().int().describe("Servers whose latest snapshot has a count (no snapshot yet, or not counted yet, adds nothing)"),
    largest: z.array(z.strictObject({ serverId: z.string(), serverName: z.string(), contextTokens: z.number().int() })).describe("At most five, largest first"),
    encoding: z.literal("o200k_base"),
    alertId: z.string().nullable().describe("The team's open context_budget alert"),
  })
  .meta({ id: "ContextBudget" });
export const ContextBudgetReport = z
  .strictObject({
    budgetTokens: z.number().int().nullable().describe("The team's budget in ≈ o200k_base tokens; null: off"),
    totalTokens: z.number().int().describe("Sum over each server's latest snapshot"),
    servers: z.number().int(),
    countedServers: z.number().int(),
    encoding: z.literal("o200k_base"),
    percentOfBudget: z.number().nullable().describe("totalTokens / budgetTokens × 100, one decimal; null without a budget"),
    topServers: z
      .array(z.strictObject({ serverId: z.string(), serverName: z.string(), contextTokens: z.number().int(), toolCount: z.number().int(), tokensPerTool: z.number().int().nullable() }))
      .describe("Largest latest counted snapshot first, at most `top`"),
    trend: z
      .array(z.strictObject({ day: z.string().describe("YYYY-MM-DD, UTC"), tokens: z.number().int().nullable(), countedServers: z.number().int() }))
      .describe("Per UTC day, oldest first: the sum over servers of each one's latest snapshot at the day's end; null before any counted snapshot"),
    alert: z.strictObject({ id: z.string(), status: z.enum(["open", "acknowledged"]), title: z.string(), openedAt: z.string() }).nullable(),
  })
  .meta({ id: "ContextBudgetReport" });
export const IdentityProbeState = z
  .strictObject({
    settings: z.strictObject({
      team: TeamIdentityProbeSettings,
      server: z.strictObject({ enabled: z.boolean().nullable(), identities: z.array(z.string()).nullable() }),
      effective: z.strictObject({
        enabled: z.boolean(),
        reason: z.string(),
        identities: z.array(z.strictObject({ key: z.string(), label: z.string(), clientInfo })),
        intervalMinutes: z.number().int(),
      }),
    }),
    probes: z.array(
      z.strictObject({
        identity: z.string(),
        label: z.string(),
        clientInfo,
        probedAt: dateTime,
        outcome: z.enum(["same", "differs", "error"]),
        toolCount: z.number().int().nullable(),
        listHash: z.string().nullable(),
        referenceHash: z.string().nullable(),
        error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
      }),
    ),
    alertId: z.string().nullable().describe("The open identity_divergence alert"),
  })
  .meta({ id: "IdentityProbeState" });
export const OAuthAuthorization = z
  .strictObject({ authorizationUrl: z.string().describe("The provider's authorization URL (PKCE S256, state, resource): send the browser there") })
  .meta({ id: "OAuthAuthorization" });
