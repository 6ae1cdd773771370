import type { Severity } from "@/lib/detection/types";
import { SEVERITY_RANK } from "@/lib/detection/types";
import type { Tx } from "@/lib/db";
import type { Alert, Prisma } from "@/lib/generated/prisma/client";
import { countAlertOpened } from "@/lib/metrics/worker-metrics";
import { notifyInTx } from "@/lib/realtime/notify";
import { enqueueAlertNotifications } from "@/lib/webhooks/enqueue";
import type { AlertDetails, AlertFinding, AlertKindName, AlertResolution, AlertSummary } from "./alert-dto";

// Every alert write goes through here, inside the caller's transaction: the row, the NOTIFY that
// tells the team's browsers, and (for openings, escalations and recoveries) the webhook queue
// entries commit together or not at all.

/** Tool-version alerts: at most one non-resolved per (server, tool), updated as the tool moves on. */
export const VERSION_KINDS = ["suspicious_content", "tool_added", "breaking_change", "tool_changed"] as const satisfies readonly AlertKindName[];
export type VersionKind = (typeof VERSION_KINDS)[number];
export const isVersionKind = (kind: string): kind is VersionKind => (VERSION_KINDS as readonly string[]).includes(kind);

/** When an open alert's tool changes again its kind never gets milder: the worst version seen stays named. */
const KIND_RANK: Record<VersionKind, number> = { tool_changed: 0, breaking_change: 1, tool_added: 2, suspicious_content: 3 };
export const worseKind = (a: VersionKind, b: VersionKind): VersionKind => (KIND_RANK[a] >= KIND_RANK[b] ? a : b);

export const maxSeverityOf = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b);

export const dedupeKeyFor = (kind: AlertKindName, toolName: string | null) => `${kind}:${toolName ?? "server"}`;

/** Serialises alert writes for one server with snapshot writes and with each other (same key as recordSnapshot). */
// internal-writer: a row lock (SELECT … FOR UPDATE) inside the caller's transaction, no data written
export async function lockServer(tx: Tx, serverId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${serverId}))`;
}

export type AlertDraft = {
  serverId: string;
  kind: AlertKindName;
  severity: Severity;
  title: string;
  toolName?: string | null;
  candidateHash?: string | null;
  baselineHash?: string | null;
  snapshotId?: string | null;
  findings?: AlertFinding[];
  details?: AlertDetails;
  /** Created already resolved (server_recovered: a record that notifies without needing action). */
  resolved?: { resolution: AlertResolution; by: string };
};

export const json = (value: unknown) => value as Prisma.InputJsonValue;

// internal-writer: the evaluator's alert store (worker, system actor); the reviewer verbs that change alerts authorize and audit
export async function openAlert(tx: Tx, tenantId: string, draft: AlertDraft): Promise<string> {
  const now = new Date();
  const row = await tx.alert.create({
    data: {
      tenantId,
      serverId: draft.serverId,
      kind: draft.kind,
      severity: draft.severity,
      title: clipTitle(draft.title),
      toolName: draft.toolName ?? null,
      candidateHash: draft.candidateHash ?? null,
      baselineHash: draft.baselineHash ?? null,
      snapshotId: draft.snapshotId ?? null,
      findings: json(sortFindings(draft.findings ?? [])),
      details: json(draft.details ?? {}),
      dedupeKey: dedupeKeyFor(draft.kind, draft.toolName ?? null),
      ...(draft.resolved ? { status: "resolved", resolution: draft.resolved.resolution, resolvedBy: draft.resolved.by, resolvedAt: now } : {}),
    },
    select: { id: true },
  });
  await announce(tx, tenantId, draft.serverId, row.id, true, true);
  countAlertOpened(draft.kind, draft.severity);
  return row.id;
}

export type AlertPatch = Partial<Pick<AlertDraft, "serverId" | "kind" | "severity" | "title" | "candidateHash" | "baselineHash" | "snapshotId" | "findings" | "details">> & {
  /** A new candidate: an acknowledged alert goes back to open, since the reviewer saw another version. */
  reopen?: boolean;
};

/** Updates a non-resolved alert; webhooks hear about it only when its severity went up. */
// internal-writer: the evaluator's alert store (worker, system actor); the reviewer verbs that change alerts authorize and audit
export async function updateAlert(tx: Tx, tenantId: string, alert: Pick<Alert, "id" | "serverId" | "severity" | "toolName">, patch: AlertPatch): Promise<void> {
  const escalated = patch.severity !== undefined && SEVERITY_RANK[patch.severity] > SEVERITY_RANK[alert.severity];
  await tx.alert.update({
    where: { id: alert.id },
    data: {
      ...(patch.serverId ? { serverId: patch.serverId } : {}),
      ...(patch.kind ? { kind: patch.kind, dedupeKey: dedupeKeyFor(patch.kind, alert.toolName) } : {}),
      ...(patch.severity ? { severity: patch.severity } : {}),
      ...(patch.title ? { title: clipTitle(patch.title) } : {}),
      ...(patch.candidateHash !== undefined ? { candidateHash: patch.candidateHash } : {}),
      ...(patch.baselineHash !== undefined ? { baselineHash: patch.baselineHash } : {}),
      ...(patch.snapshotId !== undefined ? { snapshotId: patch.snapshotId } : {}),
      ...(patch.findings ? { findings: json(sortFindings(patch.findings)) } : {}),
      ...(patch.details ? { details: json(patch.details) } : {}),
      ...(patch.reopen ? { status: "open", acknowledgedAt: null, acknowledgedBy: null } : {}),
    },
  });
  await announce(tx, tenantId, patch.serverId ?? alert.serverId, alert.id, escalated);
}

/** Resolves an alert; `notify` queues webhooks (recoveries), decisions and supersessions do not. */
// internal-writer: the evaluator's alert store (worker, system actor); the reviewer verbs that change alerts authorize and audit
export async function resolveAlert(
  tx: Tx,
  tenantId: string,
  alert: Pick<Alert, "id" | "serverId">,
  resolution: AlertResolution,
  by: string,
  options: { comment?: string | null; notify?: boolean } = {},
): Promise<void> {
  await tx.alert.update({
    where: { id: alert.id },
    data: { status: "resolved", resolution, resolvedBy: by, resolvedAt: new Date(), ...(options.comment ? { comment: options.comment } : {}) },
  });
  await announce(tx, tenantId, alert.serverId, alert.id, options.notify === true);
}

async function announce(tx: Tx, tenantId: string, serverId: string, alertId: string, webhooks: boolean, opened = false): Promise<void> {
  await notifyInTx(tx, { type: "alert:changed", tenantId, serverId, alertId, ...(opened ? { opened: true } : {}) });
  if (webhooks) await enqueueAlertNotifications(tx, tenantId, alertId);
}

/** Most severe first, so summaries (webhooks, the inbox) lead with what matters. */
export function sortFindings(findings: AlertFinding[]): AlertFinding[] {
  return [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
}

const clipTitle = (title: string) => (title.length > 300 ? `${title.slice(0, 299)}…` : title);

/** Tool names inside titles are untrusted and may be huge; quote and cap them. */
export const quoteName = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 79)}…` : name);

export type AlertRowWithServer = Alert & { server: { name: string } };

export function toAlertSummary(row: AlertRowWithServer): AlertSummary {
  return {
    id: row.id,
    serverId: row.serverId,
    serverName: row.server.name,
    kind: row.kind,
    severity: row.severity,
    status: row.status,
    title: row.title,
    toolName: row.toolName,
    candidateHash: row.candidateHash,
    baselineHash: row.baselineHash,
    snapshotId: row.snapshotId,
    findingCount: Array.isArray(row.findings) ? row.findings.length : 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: row.acknowledgedBy,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedBy: row.resolvedBy,
    resolution: row.resolution,
    comment: row.comment,
  };
}
