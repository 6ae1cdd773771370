import Link from "next/link";
import type { SurfaceItemChange } from "@/lib/diff/diff-surface";
import type { SnapshotDiff } from "@/app/_hooks/history-queries";
import { diffHref, type DiffKind } from "@/app/_lib/links";

export const DIFF_KINDS: Array<{ id: DiffKind; label: string; kind: SurfaceItemChange["kind"] | null }> = [
  { id: "tools", label: "Tools", kind: null },
  { id: "prompts", label: "Prompts", kind: "prompt" },
  { id: "resources", label: "Resources", kind: "resource" },
  { id: "templates", label: "Templates", kind: "resource_template" },
  { id: "instructions", label: "Instructions", kind: "instructions" },
];

export const parseDiffKind = (raw: string | null): DiffKind => DIFF_KINDS.find((k) => k.id === raw)?.id ?? "tools";

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
