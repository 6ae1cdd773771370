import { aggregateSeverity, groupByEntity } from "./severity";
import { SEVERITIES, SEVERITY_RANK, atLeast, type AuditFinding, type AuditRuleId, type ItemKind, type Severity } from "./types";

export type ToolVerdict = {
  /** The tool; null for findings about the server (instructions) or the list (R32). */
  name: string | null;
  /** Set when the entity is a prompt, resource or resource template (name is then "<kind> <name>"). */
  kind?: ItemKind;
  severity: Severity | null;
  score: number;
  rules: AuditRuleId[];
  findings: AuditFinding[];
};

export type AuditReport = {
  /** Bumped on any incompatible change to this shape (the CLI's --json). */
  version: 1;
  summary: {
    tools: number;
    /** Tools (and the server-level entity) whose aggregated severity is high or critical. */
    flagged: number;
    findings: number;
    bySeverity: Record<Severity, number>;
    /** Highest aggregated severity over every entity; null when nothing was found. */
    severity: Severity | null;
    score: number;
  };
  /** Entities with findings, most severe first. */
  tools: ToolVerdict[];
};

export function buildAuditReport(findings: readonly AuditFinding[], options: { toolCount: number }): AuditReport {
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) bySeverity[f.severity]++;
  const tools: ToolVerdict[] = [];
  for (const [key, group] of groupByEntity(findings)) {
    const agg = aggregateSeverity(group);
    const sorted = [...group].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
    const item = group[0]!.item;
    tools.push({ name: key === "" && group[0]!.toolName === null ? null : key, ...(item && item.kind !== "tool" ? { kind: item.kind } : {}), severity: agg.severity, score: agg.score, rules: agg.rules, findings: sorted });
  }
  tools.sort((a, b) => rank(b.severity) - rank(a.severity) || b.score - a.score || String(a.name).localeCompare(String(b.name)));
  const top = tools[0];
  return {
    version: 1,
    summary: {
      tools: options.toolCount,
      flagged: tools.filter((t) => t.severity && atLeast(t.severity, "high")).length,
      findings: findings.length,
      bySeverity,
      severity: top?.severity ?? null,
      score: top ? Math.max(...tools.map((t) => t.score)) : 0,
    },
    tools,
  };
}

const rank = (s: Severity | null) => (s ? SEVERITY_RANK[s] : -1);
