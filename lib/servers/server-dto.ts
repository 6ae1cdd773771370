// Isomorphic types: what the API returns and the browser renders. Never a secret value: env and
// header *names* only.
import type { StatusStrip } from "./status-strip";

export type ServerSummary = {
  id: string;
  name: string;
  transport: "stdio" | "streamable_http" | "sse";
  target: string;
  tags: string[];
  enabled: boolean;
  demo: boolean;
  envKeys: string[];
  headerKeys: string[];
  pollIntervalSeconds: number;
  /** trust_first: each tool's first version is pinned as its baseline; strict: new tools need approval. */
  auditPolicy: "trust_first" | "strict";
  /**
   * OAuth 2.1 sign-in (docs/oauth-servers.md); null for servers without it. Secrets and tokens
   * are never returned: `hasSecret` says whether a client secret or key is set. `status`:
   * unauthorized (no tokens yet), authorized, auth_required (a person must Authorize again).
   */
  auth: {
    type: "oauth";
    grant: "client_credentials" | "authorization_code";
    clientId: string | null;
    scope: string | null;
    hasSecret: boolean;
    status: "unauthorized" | "authorized" | "auth_required";
    statusReason: string | null;
  } | null;
  status: string;
  statusReason: string | null;
  era: string | null;
  protocolVersion: string | null;
  serverInfo: { name?: string; version?: string; title?: string } | null;
  toolCount: number | null;
  /** The latest snapshot's tools and surface in ≈ o200k_base tokens (docs/context-budget.md); null: none yet or not counted yet. */
  contextTokens: number | null;
  latestSnapshotId: string | null;
  snapshotCount: number;
  lastChangeAt: string | null;
  lastListedAt: string | null;
  connectedAt: string | null;
  lastError: { code: string | null; message: string; at: string | null } | null;
  /** The transport that answered (differs from `transport` after a Streamable HTTP → SSE fallback). */
  transportUsed: string | null;
  /** Problems of the last listing that still produced a snapshot (dropped items, non-conformance…). */
  warnings: string[];
  updatedAt: string;
};

/** Open alerts per severity (severities without any are absent). */
export type SeverityCounts = Partial<Record<"critical" | "high" | "medium" | "low" | "info", number>>;

/** A row of the fleet list (GET /api/v1/servers): the summary plus what the fleet table shows beside it. */
export type FleetServer = ServerSummary & {
  /** The last 24 h of status history as hourly buckets (lib/servers/status-strip.ts). */
  statusStrip: StatusStrip;
  openAlerts: SeverityCounts;
};

export type ToolDto = {
  position: number;
  hash: string;
  name: string;
  definition: Record<string, unknown>;
  /** What the tool costs in a model's context, ≈ o200k_base tokens; null until counted. */
  contextTokens: number | null;
};

export type SnapshotDto = {
  id: string;
  contentHash: string;
  toolCount: number;
  /** Tools and surface together in ≈ o200k_base tokens; null until every item is counted. */
  contextTokens: number | null;
  trigger: string;
  protocolVersion: string | null;
  era: string | null;
  serverVersion: string | null;
  ttlMs: number | null;
  cacheScope: string | null;
  /** The tool-list cache entry this list came from; fromCache: served without asking the server. */
  cacheEntryId: string | null;
  fromCache: boolean;
  takenAt: string;
  lastConfirmedAt: string;
  confirmCount: number;
  /** Whether a list_changed notification preceded the listing (false: a poll, reconnect, … found it). */
  notified: boolean;
  serverVersionChanged: boolean;
  /** Keyed hash of the credentials the list was fetched with; "anonymous" without any. */
  authContext: string | null;
  /** Against the previous snapshot (null for the first): tools added / removed / changed (renames
   * included), renamed, whether only the order changed, and the highest ERR/WARN/INFO level. */
  changes: {
    added: number;
    removed: number;
    changed: number;
    renamed: number;
    orderOnly: boolean;
    highest: "ERR" | "WARN" | "INFO" | null;
    levels: { ERR: number; WARN: number; INFO: number };
    /** Prompts, resources, templates and instructions that changed (names and levels, at most 50). */
    surface?: Array<{ kind: SurfaceItemDto["kind"]; name: string; change: "added" | "removed" | "changed"; highest: "ERR" | "WARN" | "INFO" | null }>;
    /** Per kind: how many items were added, removed and changed (all of them, not capped). */
    surfaceCounts?: Partial<Record<SurfaceItemDto["kind"], { added: number; removed: number; changed: number }>>;
  } | null;
  /** Pages walked and restarts of the listing that produced this snapshot. */
  pages: number | null;
};

export type TransitionDto = { from: string | null; to: string; reason: string | null; at: string };

/** A prompt, resource, resource template or the instructions of the latest snapshot, raw as listed. */
export type SurfaceItemDto = { kind: "prompt" | "resource" | "resource_template" | "instructions"; position: number; hash: string; name: string; definition: Record<string, unknown>; contextTokens: number | null };

export type ServerDetail = {
  server: ServerSummary;
  capabilities: unknown;
  instructions: string | null;
  tools: ToolDto[];
  /** The latest snapshot's other lists; `tracked` false: it predates them (they were not asked for). */
  surface: { tracked: boolean; items: SurfaceItemDto[] };
  transitions: TransitionDto[];
};

export type Page<T> = { items: T[]; nextCursor: string | null };
