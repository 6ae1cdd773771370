import Link from "next/link";
import type { AlertFinding } from "@/lib/alerts/alert-dto";
import { RULE_BY_ID, ruleDocPath } from "@/lib/detection/catalog";
import type { AuditFinding } from "@/lib/detection/types";
import { rulePageHref } from "@/lib/rules/rule-links";
import { SeverityBadge } from "@/app/_components/alerts/SeverityBadge";
import { VisibleText } from "@/app/_components/VisibleText";
import { pointerSegments, valueAt } from "@/app/_lib/json-pointer";

type Audit = Extract<AlertFinding, { source: "audit" }>;
type Group = { pointer: string; raw: string | null; findings: Audit[] };

const isAudit = (f: AlertFinding): f is Audit => f.source === "audit";

/** The raw string a finding matched in: the value at its pointer, or the property's own name. */
function rawText(definition: unknown, f: AuditFinding): string | null {
  if (f.field === "property-name") return pointerSegments(f.pointer)?.at(-1) ?? null;
  const value = valueAt(definition, f.pointer);
  return typeof value === "string" ? value : null;
}

/** Whether a finding's offsets address real text in `raw` (structural findings carry 0/0). */
const hasSpan = (f: AuditFinding, raw: string | null): raw is string =>
  raw !== null && f.evidence.end > f.evidence.start && f.evidence.start >= 0 && f.evidence.end <= raw.length;

function groupByPointer(findings: Audit[], definition: unknown): Group[] {
  const groups = new Map<string, Group>();
  for (const f of findings) {
    const group = groups.get(f.pointer) ?? { pointer: f.pointer, raw: rawText(definition, f), findings: [] };
    group.findings.push(f);
    groups.set(f.pointer, group);
  }
  return [...groups.values()];
}

/**
 * The whole string with every matched span marked. Spans may overlap: the text is cut at every
 * span boundary and each piece is marked with the rules whose spans cover it.
 */
function HighlightedText({ raw, findings }: { raw: string; findings: Audit[] }) {
  const spans = findings.filter((f) => hasSpan(f, raw)).map((f) => ({ start: f.evidence.start, end: f.evidence.end, rule: f.ruleId }));
  const cuts = [...new Set([0, raw.length, ...spans.flatMap((s) => [s.start, s.end])])].sort((a, b) => a - b);
  const pieces = cuts.slice(0, -1).map((start, i) => {
    const end = cuts[i + 1]!;
    const rules = [...new Set(spans.filter((s) => s.start <= start && s.end >= end).map((s) => s.rule))];
    return { start, end, rules };
  });
  return (
    <blockquote className="evidence-text" data-testid="evidence-text">
      {pieces.map((p) =>
        p.rules.length ? (
          <mark key={p.start} className="evidence-mark" data-testid="evidence-mark" title={`Matched by ${p.rules.join(", ")}`}>
            <VisibleText text={raw.slice(p.start, p.end)} />
          </mark>
        ) : (
          <VisibleText key={p.start} text={raw.slice(p.start, p.end)} />
        ),
      )}
    </blockquote>
  );
}

function FindingItem({ finding, raw }: { finding: Audit; raw: string | null }) {
  const snippet = hasSpan(finding, raw) ? null : finding.evidence.text;
  return (
    <li data-testid="audit-finding" data-rule={finding.ruleId} data-severity={finding.severity} className={finding.preexisting ? "preexisting" : undefined}>
      <div className="finding-line">
        <SeverityBadge severity={finding.severity} />
        <code className="rule-id" data-testid="finding-rule" title={RULE_BY_ID[finding.ruleId]?.name}>
          {finding.ruleId}
        </code>
        <span className="finding-message">
          <VisibleText text={finding.message} />
        </span>
        {/* Where the rule is explained, with an example: its page in the app, which renders the finding's `docs` file (findings stored before it existed lack `docs`). */}
        <Link className="small rule-doc" data-testid="finding-doc" href={rulePageHref(finding.ruleId)} title={finding.docs ?? ruleDocPath(finding.ruleId)}>
          how {finding.ruleId} works
        </Link>
        {finding.preexisting ? (
          <span className="tag" title="The approved baseline already had this; it did not raise the alert">
            already in the baseline
          </span>
        ) : null}
        {finding.vetoedBy ? (
          <span className="tag" data-testid="finding-vetoed" title="The learned scorer (R35) rates this item benign, so this match was lowered to low; it is shown, but it did not add up">
            judged benign by R35 (p = {finding.vetoedBy.p.toFixed(3)})
          </span>
        ) : finding.discounted ? (
          <span className="tag" title="The match sat inside quotes or an example, so it was lowered">
            quoted or example
          </span>
        ) : null}
      </div>
      {snippet ? (
        <div className="evidence-snippet">
          Evidence: <code>{snippet}</code>
        </div>
      ) : null}
      {finding.decoded ? (
        <div className="callout decoded" role="note" data-testid="decoded-message">
          <strong>Hidden message, decoded:</strong> <VisibleText text={finding.decoded} />
          <div className="muted small">A person reading this text sees nothing here; a model reads it.</div>
        </div>
      ) : null}
    </li>
  );
}

/**
 * The detection engine's findings, grouped by the string they are about: that string with each
 * matched span highlighted (hidden characters shown as markers), then what each rule found.
 */
export function EvidenceFindings({ findings, definition }: { findings: AlertFinding[]; definition: unknown }) {
  const audit = findings.filter(isAudit);
  if (audit.length === 0) return null;
  const groups = groupByPointer(audit, definition);
  return (
    <section aria-labelledby="evidence-heading" className="evidence">
      <h2 id="evidence-heading">
        Findings <span className="muted heading-sub">{audit.length}</span>
      </h2>
      {groups.map((g) => (
        <article key={g.pointer} className="evidence-group" data-testid="evidence-group" data-pointer={g.pointer}>
          <h3>
            <code className="pointer">
              <VisibleText text={g.pointer || "/"} />
            </code>
          </h3>
          {g.raw !== null && g.findings.some((f) => hasSpan(f, g.raw)) ? <HighlightedText raw={g.raw} findings={g.findings} /> : null}
          <ul className="audit-findings">
            {g.findings.map((f, i) => (
              <FindingItem key={`${f.ruleId}-${i}`} finding={f} raw={g.raw} />
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
