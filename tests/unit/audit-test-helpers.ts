// Small builders and readers shared by the detector's round tests.
import { scanTools, SEVERITY_RANK, type AuditFinding, type AuditRuleId, type ScanOptions, type Severity, type ToolLike } from "@/lib/detection";

/** A string property, optionally described, with any further schema keywords. */
export const str = (description?: string, more: Record<string, unknown> = {}) => ({ type: "string", ...(description ? { description } : {}), ...more });

/** The most severe finding's severity (of one rule, when given), or null. */
export function strongest(findings: readonly AuditFinding[], rule?: AuditRuleId): Severity | null {
  let best: Severity | null = null;
  for (const f of findings) if ((!rule || f.ruleId === rule) && (!best || SEVERITY_RANK[f.severity] > SEVERITY_RANK[best])) best = f.severity;
  return best;
}

export const atLeastHigh = (s: Severity | null) => s !== null && SEVERITY_RANK[s] >= SEVERITY_RANK.high;

/**
 * The rules alone (no learned scorer, so no R35 finding and no veto): the round tests pin what each
 * rule does, which must not move when R35 is retrained. R35 itself is tested in learned-scorer.test.ts
 * and, with the rules, on the corpus (audit-corpus.test.ts).
 */
export const scanRules = (tools: readonly ToolLike[], options: ScanOptions = {}): AuditFinding[] => scanTools(tools, { ...options, learned: false });
