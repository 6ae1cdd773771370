import { familyOf, ruleDocPath } from "./catalog";
import type { TextView } from "./text-view";
import { SEVERITY_RANK, VALUE_FIELDS, type AuditFinding, type AuditRuleId, type Evidence, type Severity, type StringField } from "./types";

/** What a rule knows about the tool a string belongs to. */
export type ToolContext = {
  name: string | null;
  /** Lower-cased title ("" when none). */
  title: string;
  /**
   * Normalized name words + title + the description's first sentence: what the tool says it is
   * for. Never the whole description, or a payload could vouch for itself.
   */
  purpose: string;
  /** Names in the scanned list (normalized), for self-references. */
  ownNames: ReadonlySet<string>;
  /** The tool describes attacks or defends against them (a scanner, a guard): examples in its schema are framing. */
  describesAttacks: boolean;
  /** A pure computation (math, formatting, time, weather…): it has no reason to take paths, secrets or chat content. */
  pure: boolean;
  /** The tool's own input parameter names (lower case, 3+ characters): a sentence naming one routes data into the call. */
  params?: ReadonlySet<string>;
};

/** Where a string sits: its tool, pointer and field. */
export type Scope = { tool: ToolContext; toolName: string | null; pointer: string; field: StringField };

type Extra = { decoded?: string; discount?: boolean };

/**
 * Collects findings, keeping one per (tool, pointer, rule): the most severe match is the evidence,
 * and the message notes how many matches there were.
 */
export class FindingSink {
  private readonly byKey = new Map<string, { finding: AuditFinding; count: number }>();
  private readonly order: string[] = [];

  add(scope: Pick<Scope, "toolName" | "pointer"> & { field?: StringField }, ruleId: AuditRuleId, severity: Severity, evidence: Evidence, message: string, extra: Extra = {}): void {
    const discounted = extra.discount === true && SEVERITY_RANK[severity] > SEVERITY_RANK.low;
    const finding: AuditFinding = {
      ruleId,
      family: familyOf(ruleId),
      severity: discounted ? "low" : severity,
      toolName: scope.toolName,
      pointer: scope.pointer,
      ...(scope.field ? { field: scope.field } : {}),
      evidence,
      message: discounted ? `${message} (quoted or example framing: discounted)` : message,
      ...(extra.decoded !== undefined ? { decoded: extra.decoded } : {}),
      ...(discounted ? { discounted: true as const } : {}),
      docs: ruleDocPath(ruleId),
    };
    const key = `${scope.toolName ?? ""}\u0000${scope.pointer}\u0000${ruleId}`;
    const prev = this.byKey.get(key);
    if (!prev) {
      this.byKey.set(key, { finding, count: 1 });
      this.order.push(key);
    } else {
      prev.count++;
      if (SEVERITY_RANK[finding.severity] > SEVERITY_RANK[prev.finding.severity]) prev.finding = finding;
    }
  }

  /** A phrase-rule match on the normalized text, discounted when quoted or example-framed. */
  phrase(view: TextView, scope: Scope, ruleId: AuditRuleId, severity: Severity, start: number, end: number, message: string, extra: Omit<Extra, "discount"> & { noDiscount?: boolean } = {}): void {
    const framed = !extra.noDiscount && (view.framed(start, end) || (scope.tool.describesAttacks && VALUE_FIELDS.has(scope.field)));
    this.add(scope, ruleId, severity, view.evidence(start, end), message, { decoded: extra.decoded, discount: framed });
  }

  get list(): AuditFinding[] {
    return this.order.map((k) => {
      const { finding, count } = this.byKey.get(k)!;
      return count > 1 ? { ...finding, message: `${finding.message} (${count} matches)` } : finding;
    });
  }
}

