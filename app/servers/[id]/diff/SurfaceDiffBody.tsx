import type { SurfaceItemChange } from "@/lib/diff/diff-surface";
import { levelRank } from "@/app/_components/diff/levels";
import { SurfaceChangeCard } from "@/app/_components/diff/SurfaceChangeView";
import type { SnapshotDiff } from "@/app/_hooks/history-queries";

const ORDER: Record<SurfaceItemChange["change"], number> = { changed: 0, removed: 1, added: 2 };

/** The changed items of one kind (most severe first, then removed, then added ones). */
export function SurfaceDiffBody({ result, kind, label }: { result: SnapshotDiff; kind: SurfaceItemChange["kind"]; label: string }) {
  if (!result.surface.tracked) {
    return (
      <p className="muted" data-testid="surface-untracked">
        {label} are not compared here: one of these snapshots was taken before Toolwatch read them.
      </p>
    );
  }
  const changes = result.surface.changes.filter((c) => c.kind === kind).sort((a, b) => ORDER[a.change] - ORDER[b.change] || levelRank(b.highest) - levelRank(a.highest));
  if (changes.length === 0) return <p className="muted" data-testid="surface-no-change">No {label.toLowerCase()} changed between these snapshots.</p>;
  return (
    <section aria-label={`${label} changes`}>
      {kind === "resource" ? <p className="muted small">Resource contents are not fetched: only what resources/list says about them is compared.</p> : null}
      {changes.map((c) => (
        <SurfaceChangeCard key={`${c.kind}:${c.name}`} change={c} />
      ))}
    </section>
  );
}
