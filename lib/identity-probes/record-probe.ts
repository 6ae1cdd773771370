import type { AlertFinding } from "@/lib/alerts/alert-dto";
import { lockServer, openAlert, resolveAlert, updateAlert } from "@/lib/alerts/alert-store";
import { SEVERITY_RANK, type Severity } from "@/lib/detection/types";
import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import type { ToolLike } from "@/lib/diff/types";
import { clientIdentityOf } from "@/lib/discovery/client-identities";
import { Prisma } from "@/lib/generated/prisma/client";
import { assertLeaseHeld } from "@/lib/workers/leases";
import type { IdentityComparison } from "./compare-identity-lists";
import type { IdentityVariant } from "./types";

export type ProbeResult =
  | { ok: true; reference: readonly ToolLike[]; tools: readonly ToolLike[]; comparison: IdentityComparison }
  | { ok: false; error: { code: string; message: string } };

export type RecordProbeInput = {
  serverId: string;
  identity: string;
  at?: Date;
  result: ProbeResult;
  /** Fenced like every worker write: only while this worker holds the server's lease. */
  leaseHolder?: string;
};

export type AlertChange = "opened" | "updated" | "resolved" | "none";

/** What a differing probe keeps: enough to rebuild the alert without probing again. */
type StoredLists = Omit<IdentityVariant, "identity" | "label" | "clientInfo" | "probedAt">;

const json = (value: unknown) => value as Prisma.InputJsonValue;

/**
 * Stores one probe (last time, hash, and the lists only while they differ — never a snapshot) and
 * brings the server's identity_divergence alert in line with every identity's latest outcome, in
 * one transaction under the server's lock. An error leaves the identity's last comparison standing.
 */
// internal-writer: the worker's prober records what it saw
export async function recordIdentityProbe(ctx: ServiceContext, input: RecordProbeInput): Promise<AlertChange> {
  const at = input.at ?? new Date();
  return ctx.db.$transaction(async (tx) => {
    await lockServer(tx, input.serverId);
    if (input.leaseHolder) await assertLeaseHeld(tx, input.serverId, input.leaseHolder);
    const key = { serverId_identity: { serverId: input.serverId, identity: input.identity } };
    const { result } = input;
    if (!result.ok) {
      await tx.identityProbe.upsert({
        where: key,
        create: { tenantId: ctx.tenantId, serverId: input.serverId, identity: input.identity, probedAt: at, outcome: "error", error: json(result.error) },
        update: { probedAt: at, outcome: "error", error: json(result.error) },
      });
      return "none";
    }
    const { comparison } = result;
    const lists: StoredLists | null = comparison.same
      ? null
      : {
          referenceHash: comparison.referenceHash,
          variantHash: comparison.variantHash,
          reference: [...result.reference],
          tools: [...result.tools],
          diff: comparison.diff!,
          hiddenFindings: comparison.hiddenFindings,
          severity: comparison.severity,
        };
    const row = {
      probedAt: at,
      outcome: comparison.same ? "same" : "differs",
      listHash: comparison.variantHash,
      referenceHash: comparison.referenceHash,
      toolCount: result.tools.length,
      lists: lists ? json(lists) : Prisma.DbNull,
      error: Prisma.DbNull,
    };
    await tx.identityProbe.upsert({ where: key, create: { tenantId: ctx.tenantId, serverId: input.serverId, identity: input.identity, ...row }, update: row });
    return reconcileAlert(tx, ctx, input.serverId);
  });
}

/** Drops the rows of identities no longer probed, so they can neither hold an alert open nor show as current. */
// internal-writer: the worker's prober drops identities no longer probed
export async function forgetIdentities(ctx: ServiceContext, serverId: string, keep: readonly string[], leaseHolder?: string): Promise<AlertChange> {
  return ctx.db.$transaction(async (tx) => {
    await lockServer(tx, serverId);
    if (leaseHolder) await assertLeaseHeld(tx, serverId, leaseHolder);
    const gone = await tx.identityProbe.deleteMany({ where: { tenantId: ctx.tenantId, serverId, identity: { notIn: [...keep] } } });
    return gone.count > 0 ? reconcileAlert(tx, ctx, serverId) : "none";
  });
}

async function reconcileAlert(tx: Tx, ctx: ServiceContext, serverId: string): Promise<AlertChange> {
  const differing = await tx.identityProbe.findMany({ where: { tenantId: ctx.tenantId, serverId, outcome: "differs" }, orderBy: { identity: "asc" } });
  const active = await tx.alert.findFirst({
    where: { tenantId: ctx.tenantId, serverId, kind: "identity_divergence", status: { not: "resolved" } },
    select: { id: true, serverId: true, severity: true, toolName: true },
  });
  if (differing.length === 0) {
    if (!active) return "none";
    // The lists agree again under every identity: resolved by itself, and the team is told.
    await resolveAlert(tx, ctx.tenantId, active, "recovered", `system (${ctx.actor.id})`, { notify: true });
    return "resolved";
  }
  const variants: IdentityVariant[] = differing.map((r) => {
    const identity = clientIdentityOf(r.identity);
    return {
      identity: r.identity,
      label: identity?.label ?? r.identity,
      clientInfo: identity?.clientInfo ?? { name: r.identity, version: "" },
      probedAt: r.probedAt.toISOString(),
      ...(r.lists as unknown as StoredLists),
    };
  });
  const severity = variants.reduce<Severity>((worst, v) => (SEVERITY_RANK[v.severity] > SEVERITY_RANK[worst] ? v.severity : worst), "high");
  const findings: AlertFinding[] = dedupeFindings(variants.flatMap((v) => v.hiddenFindings)).map((f) => ({ ...f, source: "audit" as const }));
  const names = variants.map((v) => v.label).join(", ");
  const title = `Tool list differs for other clients (${names})${severity === "critical" ? ": agents see content the scanner does not" : ""}`;
  const draft = { kind: "identity_divergence" as const, severity, title, findings, details: { identity: { variants } } };
  if (active) {
    await updateAlert(tx, ctx.tenantId, active, draft);
    return "updated";
  }
  await openAlert(tx, ctx.tenantId, { serverId, ...draft });
  return "opened";
}

function dedupeFindings<T extends { toolName: string | null; ruleId: string; pointer: string; evidence: { text: string } }>(findings: T[]): T[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.toolName}\u0000${f.ruleId}\u0000${f.pointer}\u0000${f.evidence.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
