import type { Finding } from "@/lib/diff/types";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { VisibleText } from "@/app/_components/VisibleText";

const SECURITY: Record<NonNullable<Finding["security"]>, string> = {
  high: "Security: high — the tool now claims more power (e.g. destructive or open-world)",
  medium: "Security: medium — a weaker safety claim",
};

/** A tool's finding, or a prompt's / resource's (lib/diff/diff-surface.ts), whose rule ids differ. */
type ListedFinding = Omit<Finding, "ruleId"> & { ruleId: string };

/** Every classified change of one tool or item: level, rule id, where (JSON Pointer) and why. */
export function FindingsList({ findings }: { findings: ListedFinding[] }) {
  if (findings.length === 0) return <p className="muted small">No classified findings.</p>;
  return (
    <ul className="findings" aria-label="Findings">
      {findings.map((f, i) => (
        <li key={i} data-testid="finding" data-level={f.level}>
          <LevelBadge level={f.level} />
          <code className="rule-id" data-testid="finding-rule">
            {f.ruleId}
          </code>
          <code className="pointer" data-testid="finding-pointer">
            <VisibleText text={f.pointer || "/"} />
          </code>
          {f.security ? (
            <span className={`security security-${f.security}`} title={SECURITY[f.security]}>
              security {f.security}
            </span>
          ) : null}
          <span className="finding-message">
            <VisibleText text={f.message} />
            {f.via ? (
              <span className="muted">
                {" "}
                via <code className="pointer">{f.via}</code>
              </span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
