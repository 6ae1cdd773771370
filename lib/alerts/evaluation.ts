// The state one evaluation works on (inside its transaction) and the alert moves it makes, so
// the rule files (tools, removals, list-level) stay small and share one view of open alerts.
import type { ServiceContext } from "@/lib/context";
import type { Tx } from "@/lib/db";
import type { Alert, AuditPolicy, ToolBaseline } from "@/lib/generated/prisma/client";
import type { AlertDetails, AlertKindName, AlertResolution } from "./alert-dto";
import { dedupeKeyFor, isVersionKind, maxSeverityOf, openAlert, quoteName, resolveAlert, updateAlert, worseKind, type AlertDraft } from "./alert-store";
import { loadCrossPartners, type OtherServerTools, type OwnTool } from "./cross-partners";
import type { SnapshotHead } from "./evaluation-state";
import type { Verdict } from "./judge";
import { KIND_LABEL, parseItemKey } from "@/lib/surface/surface-keys";

export const SYSTEM_ACTOR = "system";
const MAX_REVISIONS = 50;

export type EvaluationResult = {
  snapshotId: string | null;
  /** Tools pinned as first seen (trust_first). */
  pinned: string[];
  /** Tools accepted as their new baseline without review (benign description edits). */
  autoAccepted: string[];
  opened: string[];
  updated: string[];
  resolved: string[];
};

export class Evaluation {
  readonly result: EvaluationResult;
  /** An unresolved list_collapsed alert exists: removals are reported by it, not one alert per tool. */
  collapseActive = false;
  private partners: Promise<OtherServerTools[]> | undefined;
  /** Tools renamed in this list (new name → old name; carry-renames.ts): their alerts say so. */
  readonly renames = new Map<string, string>();

  constructor(
    readonly tx: Tx,
    readonly ctx: ServiceContext,
    readonly server: { id: string; name: string; auditPolicy: AuditPolicy },
    readonly snapshot: SnapshotHead,
    readonly baselines: Map<string, ToolBaseline>,
    private readonly unresolved: Alert[],
  ) {
    this.result = { snapshotId: snapshot.id, pinned: [], autoAccepted: [], opened: [], updated: [], resolved: [] };
  }

  get tenantId(): string {
    return this.ctx.tenantId;
  }

  /** The one unresolved tool-version alert of a tool (changed, added, suspicious, breaking). */
  versionAlert(toolName: string): Alert | undefined {
    return this.unresolved.find((a) => a.toolName === toolName && isVersionKind(a.kind));
  }

  unresolvedOf(kind: AlertKindName, toolName: string | null): Alert | undefined {
    const key = dedupeKeyFor(kind, toolName);
    return this.unresolved.find((a) => a.dedupeKey === key);
  }

  /**
   * The team's other servers, holding only the tools the cross-server rules could pair with `tools`
   * (looked up once per evaluation: the first caller passes every definition it will scan).
   */
  crossPartners(tools: readonly OwnTool[]): Promise<OtherServerTools[]> {
    this.partners ??= loadCrossPartners(this.tx, this.tenantId, this.server.id, tools);
    return this.partners;
  }

  async open(draft: Omit<AlertDraft, "serverId" | "snapshotId">): Promise<void> {
    const id = await openAlert(this.tx, this.tenantId, { ...draft, serverId: this.server.id, snapshotId: this.snapshot.id });
    this.result.opened.push(id);
  }

  async resolve(alert: Alert, resolution: AlertResolution, options: { notify?: boolean } = {}): Promise<void> {
    await resolveAlert(this.tx, this.tenantId, alert, resolution, SYSTEM_ACTOR, options);
    this.unresolved.splice(this.unresolved.indexOf(alert), 1);
    this.result.resolved.push(alert.id);
  }

  async update(alert: Alert, patch: Parameters<typeof updateAlert>[3]): Promise<void> {
    await updateAlert(this.tx, this.tenantId, alert, patch);
    this.result.updated.push(alert.id);
  }

  /**
   * A tool-version verdict becomes an alert: a new one, or the tool's unresolved alert updated with
   * the new candidate (kind and severity never get milder; an acknowledged alert reopens, since the
   * reviewer acknowledged another version).
   */
  async openOrUpdate(toolName: string, verdict: Verdict, hashes: { candidateHash: string; baselineHash: string | null }): Promise<void> {
    const existing = this.versionAlert(toolName);
    const at = new Date().toISOString();
    if (!existing) {
      const revisions = [{ candidateHash: hashes.candidateHash, severity: verdict.severity, kind: verdict.kind, at }];
      const renamedFrom = this.renames.get(toolName);
      await this.open({ kind: verdict.kind, severity: verdict.severity, title: titleFor(verdict.kind, toolName, verdict.details), toolName, ...hashes, findings: verdict.findings, details: { ...verdict.details, revisions, ...(renamedFrom ? { renamedFrom } : {}) } });
      return;
    }
    const kind = isVersionKind(existing.kind) ? worseKind(existing.kind, verdict.kind) : verdict.kind;
    const severity = maxSeverityOf(existing.severity, verdict.severity);
    const previous = ((existing.details ?? {}) as AlertDetails).revisions ?? [];
    const renamed = this.renames.get(toolName) ?? ((existing.details ?? {}) as AlertDetails).renamedFrom;
    const revisions = [...previous, { candidateHash: hashes.candidateHash, severity: verdict.severity, kind: verdict.kind, at }].slice(-MAX_REVISIONS);
    await this.update(existing, {
      kind,
      severity,
      title: titleFor(kind, toolName, verdict.details),
      ...hashes,
      snapshotId: this.snapshot.id,
      findings: verdict.findings,
      details: { ...verdict.details, revisions, ...(renamed ? { renamedFrom: renamed } : {}) },
      reopen: existing.status === "acknowledged",
    });
  }
}

export function titleFor(kind: AlertKindName, toolName: string, details: AlertDetails = {}): string {
  // Surface items are judged under keys ("prompt summarize"): titles name their kind.
  const item = parseItemKey(toolName);
  const noun = item ? KIND_LABEL[item.kind] : "tool";
  const name = item ? (item.kind === "instructions" ? "the server instructions" : `${noun} ${quoteName(item.name)}`) : quoteName(toolName);
  const bare = item ? (item.kind === "instructions" ? "server instructions" : `${noun} ${quoteName(item.name)}`) : `tool ${name}`;
  switch (kind) {
    case "suspicious_content":
      return details.firstSeen ? `Suspicious content in new ${bare}` : `Suspicious change to ${name}`;
    case "breaking_change":
      return `Breaking change to ${name}`;
    case "tool_added":
      return `New ${bare} needs approval`;
    case "tool_removed":
      return `${name} was removed`;
    default:
      return `${name} changed`;
  }
}
