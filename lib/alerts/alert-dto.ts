// Isomorphic: what the alerts API returns and the browser renders. Tool names, titles, evidence
// and definitions are untrusted server text: render them as text, never HTML.
import type { AuditFinding, Severity } from "@/lib/detection/types";
import type { Divergence } from "@/lib/cache/cache-divergence";
import type { Finding as DiffFinding, ToolChanged, ToolLike } from "@/lib/diff/types";
import type { IdentityDivergence } from "@/lib/identity-probes/types";

export const ALERT_KINDS = [
  "tool_changed",
  "tool_added",
  "tool_removed",
  "suspicious_content",
  "breaking_change",
  "name_collision",
  "server_down",
  "server_recovered",
  "list_collapsed",
  "cache_divergence",
  "identity_divergence",
  "auth_required",
  "context_budget",
] as const;
export type AlertKindName = (typeof ALERT_KINDS)[number];

export const ALERT_STATUSES = ["open", "acknowledged", "resolved"] as const;
export type AlertStatusName = (typeof ALERT_STATUSES)[number];

export const ALERT_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const satisfies readonly Severity[];

/** approved | rejected | auto_accepted | recovered | superseded | dismissed */
export type AlertResolution = "approved" | "auto_accepted" | "recovered" | "superseded" | "dismissed" | "reauthorized" | "within_budget";

/** A finding of the detection engine, or a compatibility finding of the diff engine (with a security severity). */
export type AlertFinding =
  | (AuditFinding & { source: "audit"; /** Already present in the baseline: shown, but it did not raise this alert. */ preexisting?: true })
  | (DiffFinding & { source: "diff"; severity: Severity });

/** What an alert says about the change it is about (all optional: kinds use different parts). */
export type AlertDetails = {
  /** Per-tool alerts: the diff from baseline to candidate (fields with pointers and word segments). */
  diff?: { highest: ToolChanged["highest"]; levels: Record<"ERR" | "WARN" | "INFO", number>; fields: ToolChanged["fields"] };
  /** Why it was not auto-accepted (lib/detection classifyChange). */
  classification?: { kind: string; cueClassesAdded: string[]; reasons: string[] };
  /** The listing that produced the candidate: notified by list_changed, serverInfo.version bumped. */
  notified?: boolean;
  serverVersionChanged?: boolean;
  /** The tool had no baseline: first seen (trust_first, suspicious) or awaiting approval (strict). */
  firstSeen?: boolean;
  /** The tool arrived under this name with the content of a tool that left: its baseline and open alert moved here (rename evasion). */
  renamedFrom?: string;
  /** The candidate is a version a reviewer rejected before. */
  blocked?: boolean;
  /** Each version this alert has been about, oldest first. */
  revisions?: { candidateHash: string | null; severity: Severity; kind: AlertKindName; at: string }[];
  /** list_collapsed: counts and the tools that vanished. */
  collapse?: { fromCount: number; toCount: number; removed: string[] };
  /** name_collision: every server of the team offering the name, in the order they started to (at most 200). */
  collisions?: { serverId: string; serverName: string }[];
  /** name_collision: how many servers offer it (the list above may be cut). */
  serverCount?: number;
  /** server_down / server_recovered. */
  status?: { reason: string | null; error?: { code: string; message: string }; downSince?: string; downForMs?: number };
  /** cache_divergence (R31): two authorization contexts see different lists under cacheScope "public". */
  divergence?: Divergence;
  /** identity_divergence: the lists other clients' identities got, next to Toolwatch's, with the diffs. */
  identity?: IdentityDivergence;
  /** The baseline version is no longer stored (pruned): no diff could be computed. */
  baselineMissing?: boolean;
  /** context_budget: the team's tool lists against its budget (≈ o200k_base tokens, lib/alerts/context-budget-alert.ts). */
  contextBudget?: ContextBudgetDetails;
};

export type ContextBudgetDetails = {
  budgetTokens: number;
  totalTokens: number;
  servers: number;
  countedServers: number;
  largest: { serverId: string; serverName: string; contextTokens: number }[];
  /** The change that pushed the total past the budget (absent when a lower budget did). */
  pushedBy?: { serverId: string; serverName: string; snapshotId: string; deltaTokens: number | null };
  encoding: string;
};

export type AlertSummary = {
  id: string;
  serverId: string;
  serverName: string;
  kind: AlertKindName;
  severity: Severity;
  status: AlertStatusName;
  title: string;
  toolName: string | null;
  /** The version under review: approve must name exactly this hash. */
  candidateHash: string | null;
  baselineHash: string | null;
  snapshotId: string | null;
  findingCount: number;
  createdAt: string;
  updatedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  resolution: string | null;
  /** The last reviewer's comment. */
  comment: string | null;
};

export type BaselineDto = {
  toolName: string;
  /** null: never approved (strict policy, pending). */
  approvedHash: string | null;
  source: string;
  approvedBy: string | null;
  approvedAt: string | null;
  /** A rejected version: the tool is blocked until a version is approved. */
  blockedHash: string | null;
};

/** One decision on the alert, from the audit log. */
export type AlertDecision = { action: string; actor: string; at: string; comment: string | null; hash: string | null };

export type AlertDetail = {
  alert: AlertSummary;
  server: { id: string; name: string; auditPolicy: string };
  /** Most severe first. */
  findings: AlertFinding[];
  details: AlertDetails;
  /** The tool's baseline row as it is now (null for server-level alerts or a never-seen tool). */
  baseline: BaselineDto | null;
  /** The two versions the alert compares (either may be null: a new tool has no baseline, a removed one no candidate). */
  baselineVersion: { hash: string; definition: ToolLike } | null;
  candidateVersion: { hash: string; definition: ToolLike } | null;
  /** diffTool(baseline → candidate) when both exist. */
  diff: ToolChanged | null;
  decisions: AlertDecision[];
};

export type AlertPage = { items: AlertSummary[]; nextCursor: string | null };

export type BulkAcknowledgeResult = { acknowledged: string[]; skipped: { id: string; reason: string }[] };
