// Severity aggregation: a tool's severity rises with the number of DISTINCT rules that fire
// (detection-rules §1, as agent-scan, gridctl and mcpproxy do). One rule firing ten times is one
// signal; three different rules agreeing is stronger evidence than any one of them.
//
// Per tool (or per entity: server instructions, the list itself):
//   1. each rule counts once, at the highest severity it reached (a discounted match is low);
//   2. start from the highest severity of any finding;
//   3. two or more distinct rules at high or above            → critical;
//      one rule at high or above and three or more at medium+ → critical;
//      three or more distinct rules at medium or above        → at least high;
//      four or more distinct rules at low or above            → at least medium;
//   4. score = Σ over distinct rules of the weight of its severity (critical 40, high 20,
//      medium 8, low 2, info 0), capped at 100 — a sortable number for inboxes.
// Info findings (a documentation URL) never raise anything.
import { SEVERITY_RANK, maxSeverity, type AuditFinding, type AuditRuleId, type Severity } from "./types";

export const SEVERITY_WEIGHT: Record<Severity, number> = { critical: 40, high: 20, medium: 8, low: 2, info: 0 };

export type Aggregate = {
  /** null when there are no findings at all. */
  severity: Severity | null;
  score: number;
  /** Distinct rules that fired, most severe first. */
  rules: AuditRuleId[];
};

export function aggregateSeverity(findings: readonly AuditFinding[]): Aggregate {
  if (!findings.length) return { severity: null, score: 0, rules: [] };
  const perRule = new Map<AuditRuleId, Severity>();
  for (const f of findings) perRule.set(f.ruleId, maxSeverity(perRule.get(f.ruleId) ?? "info", f.severity));
  const levels = [...perRule.values()];
  const count = (floor: Severity) => levels.filter((s) => SEVERITY_RANK[s] >= SEVERITY_RANK[floor]).length;
  let severity = levels.reduce(maxSeverity, "info" as Severity);
  const high = count("high");
  const medium = count("medium");
  if (high >= 2 || (high >= 1 && medium >= 3)) severity = "critical";
  else if (medium >= 3) severity = maxSeverity(severity, "high");
  // Quoted or example-framed matches (discounted) do not add up: a security tool that quotes four
  // kinds of attack is describing them, and each quote is still listed at low.
  else if (countUndiscounted(findings) >= 4) severity = maxSeverity(severity, "medium");
  const score = Math.min(100, levels.reduce((sum, s) => sum + SEVERITY_WEIGHT[s], 0));
  const rules = [...perRule.entries()].sort((a, b) => SEVERITY_RANK[b[1]] - SEVERITY_RANK[a[1]] || ruleNumber(a[0]) - ruleNumber(b[0])).map(([id]) => id);
  return { severity, score, rules };
}

const ruleNumber = (id: AuditRuleId) => Number(id.slice(1));

/** Distinct rules with at least one low-or-above finding that was not discounted. */
const countUndiscounted = (findings: readonly AuditFinding[]) => new Set(findings.filter((f) => !f.discounted && SEVERITY_RANK[f.severity] >= SEVERITY_RANK.low).map((f) => f.ruleId)).size;

/** Findings grouped by the entity they are about: each tool by name, "" for server-level findings. */
export function groupByEntity(findings: readonly AuditFinding[]): Map<string, AuditFinding[]> {
  const groups = new Map<string, AuditFinding[]>();
  for (const f of findings) {
    const key = f.item && f.item.kind !== "tool" ? `${f.item.kind} ${f.item.name}` : (f.toolName ?? "");
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  return groups;
}

/** The overall severity of a set of findings: the most severe entity after per-entity aggregation. */
export function overallSeverity(findings: readonly AuditFinding[]): Severity | null {
  let best: Severity | null = null;
  for (const group of groupByEntity(findings).values()) {
    const s = aggregateSeverity(group).severity;
    if (s && (!best || SEVERITY_RANK[s] > SEVERITY_RANK[best])) best = s;
  }
  return best;
}
