"use client";

import Link from "next/link";
import { highestLevel, type Level } from "@/lib/diff/rules";
import type { SnapshotDto, SurfaceItemDto } from "@/lib/servers/server-dto";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { VisibleText } from "@/app/_components/VisibleText";
import { useSnapshotsQuery } from "@/app/_hooks/queries";
import { diffHref, type DiffKind } from "@/app/_lib/links";

type Counts = { added: number; removed: number; changed: number };

/** What one snapshot changed of one kind, or null when that kind did not change in it. */
function changeOf(s: SnapshotDto, kind: SurfaceItemDto["kind"] | null): { counts: Counts; level: Level | null; names: string[] } | null {
  const c = s.changes;
  if (!c) return null;
  if (kind === null) {
    if (!c.added && !c.removed && !c.changed) return null;
    const toolLevel: Level | null = c.levels.ERR ? "ERR" : c.levels.WARN ? "WARN" : c.levels.INFO ? "INFO" : null;
    return { counts: { added: c.added, removed: c.removed, changed: c.changed }, level: toolLevel, names: [] };
  }
  const items = (c.surface ?? []).filter((i) => i.kind === kind);
  const counts = c.surfaceCounts?.[kind] ?? (items.length ? { added: items.filter((i) => i.change === "added").length, removed: items.filter((i) => i.change === "removed").length, changed: items.filter((i) => i.change === "changed").length } : null);
  if (!counts) return null;
  return { counts, level: highestLevel(items.flatMap((i) => (i.highest ? [i.highest] : []))), names: kind === "instructions" ? [] : items.map((i) => i.name) };
}

/**
 * The snapshots in which this kind changed (newest first), each linking to the diff of that kind
 * against the snapshot before it. Reads the stored change summaries: no diff is computed here.
 */
export function KindHistory({ serverId, kind, tab, label }: { serverId: string; kind: SurfaceItemDto["kind"] | null; tab: DiffKind; label: string }) {
  const { data, hasNextPage, fetchNextPage, isFetchingNextPage } = useSnapshotsQuery(serverId);
  const all = data?.pages.flatMap((p) => p.items) ?? [];
  const rows = all.flatMap((s, i) => {
    const change = changeOf(s, kind);
    return change ? [{ s, previousId: all[i + 1]?.id ?? null, ...change }] : [];
  });
  return (
    <section className="kind-history" aria-label={`${label} history`} data-testid={`kind-history-${tab}`}>
      <h3>History of the {label.toLowerCase()}</h3>
      {data && rows.length === 0 ? <p className="muted small">No change to the {label.toLowerCase()} in {hasNextPage ? "the loaded" : "any"} snapshots.</p> : null}
      {rows.length ? (
        <ol className="timeline">
          {rows.map((r) => (
            <li key={r.s.id} data-testid="kind-history-item" className={`level-edge-${r.level?.toLowerCase() ?? "none"}`}>
              <div className="timeline-row">
                <span className="counts small">
                  {r.counts.added ? <span className="count-added">+{r.counts.added} </span> : null}
                  {r.counts.removed ? <span className="count-removed">−{r.counts.removed} </span> : null}
                  {r.counts.changed ? <span className="count-changed">~{r.counts.changed}</span> : null}
                </span>
                <LevelBadge level={r.level} />
                <Link className="diff-link" href={diffHref(serverId, { from: r.previousId, to: r.s.id, kind: tab })} data-testid="kind-history-diff-link">
                  diff
                </Link>
              </div>
              {r.names.length ? (
                <div className="small">
                  {r.names.slice(0, 5).map((n, i) => (
                    <code key={i}>
                      <VisibleText text={n} />{" "}
                    </code>
                  ))}
                  {r.names.length > 5 ? <span className="muted">and {r.names.length - 5} more</span> : null}
                </div>
              ) : null}
              <div className="muted small">
                <RelativeTime iso={r.s.takenAt} />
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {hasNextPage ? (
        <button type="button" className="button secondary small" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {isFetchingNextPage ? "Loading…" : "Load older"}
        </button>
      ) : null}
    </section>
  );
}
