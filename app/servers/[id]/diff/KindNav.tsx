import Link from "next/link";
import type { SnapshotDiff } from "@/app/_hooks/history-queries";
import { DIFF_KINDS, diffHref, type DiffKind } from "@/app/_lib/links";


/** One link per kind, each with how many of its items changed in this diff; the range is kept. */
export function KindNav({ serverId, result, kind, range }: { serverId: string; result: SnapshotDiff; kind: DiffKind; range: { from: string | null; to: string | null } }) {
  const { summary } = result.diff;
  const count = (k: (typeof DIFF_KINDS)[number]) => (k.kind === null ? summary.added + summary.removed + summary.changed : result.surface.changes.filter((c) => c.kind === k.kind).length);
  return (
    <nav className="tabs" aria-label="What changed, by kind" data-testid="diff-kind-nav">
      {DIFF_KINDS.map((k) => (
        <Link key={k.id} href={diffHref(serverId, { ...range, kind: k.id })} aria-current={k.id === kind ? "page" : undefined} data-testid={`diff-kind-${k.id}`} replace scroll={false}>
          {k.label} ({count(k)})
        </Link>
      ))}
    </nav>
  );
}
