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

export type IdentityProbeOutcome = { identity: string; at?: Date; result: ProbeResult };

export type RecordRoundInput = {
  serverId: string;
  /** The identities probed now; rows of any other identity are dropped (no longer probed). */
  keep: readonly string[];
  probes: readonly IdentityProbeOutcome[];
  /** Fenced like every worker write: only while this worker holds the server's lease. */
  leaseHolder?: string;
};

export type AlertChange = "opened" | "updated" | "resolved" | "none";

/** What a differing probe keeps: enough to rebuild the alert without probing again. */
type StoredLists = Omit<IdentityVariant, "identity" | "label" | "clientInfo" | "probedAt">;

type ProbeRow = { identity: string; probed_at: string; outcome: "same" | "differs" | "error"; list_hash?: string; reference_hash?: string; tool_count?: number; lists?: StoredLists; error?: { code: string; message: string } };

function rowOf(probe: IdentityProbeOutcome, at: Date): ProbeRow {
  const { result } = probe;
  const base = { identity: probe.identity, probed_at: (probe.at ?? at).toISOString() };
  if (!result.ok) return { ...base, outcome: "error", error: result.error };
  const { comparison } = result;
  const row: ProbeRow = { ...base, outcome: comparison.same ? "same" : "differs", list_hash: comparison.variantHash, reference_hash: comparison.referenceHash, tool_count: result.tools.length };
  if (!comparison.same) {
    row.lists = {
      referenceHash: comparison.referenceHash,
      variantHash: comparison.variantHash,
      reference: [...result.reference],
      tools: [...result.tools],
      diff: comparison.diff!,
      hiddenFindings: comparison.hiddenFindings,
      severity: comparison.severity,
    };
  }
  return row;
}

/**
 * Stores one probe round — every identity's last time and hash, and the lists only while they
 * differ, never a snapshot — drops identities no longer probed, and brings the server's
 * identity_divergence alert in line with every identity's latest outcome: one transaction under
 * the server's lock, one statement for the round's rows. A round used to cost a transaction per
 * identity (9 by default, ~7 statements each); at fleet size those round trips were most of the
 * worker's CPU between a sweep and its first probes (bench/RESULTS.md).
 *
 * An error leaves the identity's last comparison standing: its hashes and lists are kept, so a
 * server cannot close a divergence alert by failing the probes of the identity it cloaks for.
 */
// internal-writer: the worker's prober records what it saw
export async function recordIdentityRound(ctx: ServiceContext, input: RecordRoundInput): Promise<AlertChange> {
  const at = new Date();
  const rows = input.probes.map((probe) => rowOf(probe, at));
  return ctx.db.$transaction(async (tx) => {
    await lockServer(tx, input.serverId);
    if (input.leaseHolder) await assertLeaseHeld(tx, input.serverId, input.leaseHolder);
    const gone = await tx.identityProbe.deleteMany({ where: { tenantId: ctx.tenantId, serverId: input.serverId, identity: { notIn: [...input.keep] } } });
    if (rows.length > 0) {
      // Keys left out of a row read as SQL NULL: a "same" row clears its lists, an error row's
      // hashes, count and lists are kept from the last comparison (the CASEs below).
      await tx.$executeRaw`
        INSERT INTO identity_probe (id, tenant_id, server_id, identity, probed_at, outcome, list_hash, reference_hash, tool_count, lists, error)
        SELECT gen_random_uuid(), ${ctx.tenantId}::uuid, ${input.serverId}::uuid, r.identity, r.probed_at, r.outcome, r.list_hash, r.reference_hash, r.tool_count, r.lists, r.error
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r(identity text, probed_at timestamptz, outcome text, list_hash text, reference_hash text, tool_count int, lists jsonb, error jsonb)
        ON CONFLICT (server_id, identity) DO UPDATE SET
          probed_at = EXCLUDED.probed_at,
          outcome = EXCLUDED.outcome,
          error = EXCLUDED.error,
          list_hash = CASE WHEN EXCLUDED.outcome = 'error' THEN identity_probe.list_hash ELSE EXCLUDED.list_hash END,
          reference_hash = CASE WHEN EXCLUDED.outcome = 'error' THEN identity_probe.reference_hash ELSE EXCLUDED.reference_hash END,
          tool_count = CASE WHEN EXCLUDED.outcome = 'error' THEN identity_probe.tool_count ELSE EXCLUDED.tool_count END,
          lists = CASE WHEN EXCLUDED.outcome = 'error' THEN identity_probe.lists ELSE EXCLUDED.lists END
        WHERE identity_probe.tenant_id = EXCLUDED.tenant_id`;
    }
    // Only a round that stored a comparison or dropped an identity can change the alert.
    if (gone.count === 0 && !rows.some((r) => r.outcome !== "error")) return "none";
    return reconcileAlert(tx, ctx, input.serverId);
  });
}

async function reconcileAlert(tx: Tx, ctx: ServiceContext, serverId: string): Promise<AlertChange> {
  // Differing = its last comparison differed (an error since keeps it: see recordIdentityRound).
  const differing = await tx.identityProbe.findMany({ where: { tenantId: ctx.tenantId, serverId, lists: { not: Prisma.DbNull } }, orderBy: { identity: "asc" } });
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
