import type { Severity } from "@/lib/detection/types";
import { SEVERITY_LABELS } from "./labels";

/** critical (dark red) · high (red) · medium (amber) · low (grey) · info (blue). */
export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span className={`sev sev-${severity}`} data-testid="severity-badge" data-severity={severity}>
      {SEVERITY_LABELS[severity] ?? severity}
    </span>
  );
}
