import { diffTool } from "@/lib/diff";
import type { AlertDetail } from "@/lib/alerts/alert-dto";
import { FieldChanges } from "@/app/_components/diff/FieldChanges";
import { shortHash } from "@/app/_components/alerts/labels";

/**
 * After the tool moved on under a reviewer: what differs between the version they were reading and
 * the one the alert is about now (the full change against the baseline follows further down).
 */
export function SinceReviewed({ earlier, now, onDismiss }: { earlier: AlertDetail; now: AlertDetail; onDismiss: () => void }) {
  const before = earlier.candidateVersion;
  const after = now.candidateVersion;
  if (!before || !after || before.hash === after.hash) return null;
  const change = diffTool(before.definition, after.definition);
  return (
    <section className="card since-reviewed" aria-labelledby="since-heading" data-testid="since-reviewed">
      <div className="webhook-head">
        <h2 id="since-heading">
          Changed since the version you were reviewing{" "}
          <span className="muted heading-sub">
            <code className="hash">{shortHash(before.hash)}</code> → <code className="hash">{shortHash(after.hash)}</code>
          </span>
        </h2>
        <button type="button" className="button small secondary" onClick={onDismiss}>
          Hide
        </button>
      </div>
      <FieldChanges fields={change.fields} />
    </section>
  );
}
