// What one tool's new version means, judged against its baseline: pure, no I/O (the evaluation
// loads the versions and scans the list; this decides kind, severity and findings).
import { aggregateSeverity, atLeast, classifyChange, scanChange, SEVERITY_RANK, type AuditFinding, type Severity, type ToolLike } from "@/lib/detection";
import { diffTool, type Finding as DiffFinding, type Level, type ToolChanged } from "@/lib/diff";
import type { AlertDetails, AlertFinding } from "./alert-dto";
import type { VersionKind } from "./alert-store";

const LEVEL_SEVERITY: Record<Level, Severity> = { ERR: "high", WARN: "medium", INFO: "low" };
const ORDER: Severity[] = ["info", "low", "medium", "high", "critical"];
const bump = (s: Severity): Severity => ORDER[Math.min(ORDER.length - 1, SEVERITY_RANK[s] + 1)]!;

export type Verdict = {
  /** Auto-accept: a description-only edit that introduced no suspicious cue class and no new content finding at medium or above. */
  benign: boolean;
  kind: VersionKind;
  severity: Severity;
  /**
   * The aggregated severity of the content findings the verdict weighs (families A–E and R26; for a
   * change, only those the baseline did not have), null when there are none. At high or above the
   * kind is suspicious_content; `toolwatch check --fail-on-scan medium` fails from medium.
   */
  content: Severity | null;
  findings: AlertFinding[];
  details: AlertDetails;
};

export type ChangeContext = {
  /** The listing that produced the new version. */
  notified: boolean;
  serverVersionChanged: boolean;
};

/**
 * Content findings (families A–E, and R26 "the change introduced a cue") make an alert
 * `suspicious_content`; the other history rules (annotation escalation, new parameter, silent
 * change) raise its severity but do not call a new parameter "suspicious content".
 */
const isContent = (f: AuditFinding) => f.family !== "F" || f.ruleId === "R26";

/** Same rule, same place, same evidence: a finding the baseline already had. */
const findingKey = (f: AuditFinding) => `${f.ruleId}\u0000${f.pointer}\u0000${f.evidence.text}`;

/** A tool with no baseline. `pending`: strict policy, it needs approval; otherwise (trust_first) it is pinned and only suspicious content raises an alert. */
export function judgeNewTool(scan: readonly AuditFinding[], pending: boolean): Verdict & { alert: boolean } {
  const content = aggregateSeverity(scan.filter(isContent)).severity;
  const suspicious = content !== null && atLeast(content, "high");
  const aggregate = aggregateSeverity(scan).severity ?? "info";
  return {
    benign: false,
    alert: pending || suspicious,
    kind: suspicious ? "suspicious_content" : "tool_added",
    severity: pending ? maxOf(aggregate, "low") : aggregate,
    content,
    findings: scan.map((f) => ({ ...f, source: "audit" as const })),
    details: { firstSeen: true },
  };
}

/**
 * A tool whose version differs from its approved baseline. `scan`: the new version's findings
 * (from scanTools over the whole list); `baselineScan`: the baseline version's, so findings it
 * already had are shown but do not raise the alert.
 */
export function judgeChange(baseline: ToolLike, candidate: ToolLike, scan: readonly AuditFinding[], baselineScan: readonly AuditFinding[], ctx: ChangeContext): Verdict {
  const classification = classifyChange(baseline, candidate);
  const diff = diffTool(baseline, candidate);
  const details: AlertDetails = {
    diff: diffDetails(diff),
    classification: { kind: classification.kind, cueClassesAdded: classification.cueClassesAdded, reasons: classification.reasons },
    notified: ctx.notified,
    serverVersionChanged: ctx.serverVersionChanged,
  };
  const history = scanChange({ before: [baseline], after: [candidate], notified: ctx.notified, serverVersionChanged: ctx.serverVersionChanged }).filter((f) => f.toolName !== null);
  const known = new Set(baselineScan.map(findingKey));
  const fresh = scan.filter((f) => !known.has(findingKey(f)));
  const active = [...fresh, ...history];
  const findings: AlertFinding[] = [
    ...active.map((f) => ({ ...f, source: "audit" as const })),
    ...scan.filter((f) => known.has(findingKey(f))).map((f) => ({ ...f, source: "audit" as const, preexisting: true as const })),
    ...diff.findings.map((f) => diffFinding(f)),
  ];
  const content = aggregateSeverity(active.filter(isContent)).severity;
  // A description-only edit without a new cue class is accepted unseen, unless the scanner rates its
  // new content medium or above (the learned scorer R35 reads what no cue class names): until
  // 2026-12-07 such an edit was auto-accepted, so `toolwatch check --fail-on-scan medium` failed on a
  // change the server's alerts never showed.
  const benign = classification.kind === "benign-description" && (content === null || !atLeast(content, "medium"));
  const kind: VersionKind = content !== null && atLeast(content, "high") ? "suspicious_content" : diff.highest === "ERR" ? "breaking_change" : "tool_changed";
  // A silent change (R29: no list_changed, no version bump) raises whatever the change is by one level.
  const silent = active.some((f) => f.ruleId === "R29");
  const judged = maxOf(aggregateSeverity(active.filter((f) => f.ruleId !== "R29")).severity ?? "info", diff.highest ? LEVEL_SEVERITY[diff.highest] : "low");
  const severity = silent ? bump(judged) : judged;
  return { benign, kind, severity, content, findings, details };
}

/** The baseline version is gone (pruned): no diff, judged on the new version's findings alone. */
export function judgeWithoutBaseline(scan: readonly AuditFinding[]): Verdict {
  const content = aggregateSeverity(scan.filter(isContent)).severity;
  return {
    benign: false,
    kind: content !== null && atLeast(content, "high") ? "suspicious_content" : "tool_changed",
    severity: maxOf(aggregateSeverity(scan).severity ?? "info", "medium"),
    content,
    findings: scan.map((f) => ({ ...f, source: "audit" as const })),
    details: { baselineMissing: true },
  };
}

function diffFinding(f: DiffFinding): AlertFinding {
  return { ...f, source: "diff", severity: f.security ?? LEVEL_SEVERITY[f.level] };
}

function diffDetails(diff: ToolChanged): NonNullable<AlertDetails["diff"]> {
  const levels = { ERR: 0, WARN: 0, INFO: 0 };
  for (const f of diff.findings) levels[f.level]++;
  return { highest: diff.highest, levels, fields: diff.fields };
}

const maxOf = (a: Severity, b: Severity): Severity => (SEVERITY_RANK[a] >= SEVERITY_RANK[b] ? a : b);
