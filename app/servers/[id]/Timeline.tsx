"use client";

import Link from "next/link";
import type { SnapshotDto } from "@/lib/servers/server-dto";
import { ChangeCounts } from "@/app/_components/ChangeCounts";
import { VisibleText } from "@/app/_components/VisibleText";
import { LevelBadge } from "@/app/_components/LevelBadge";
import { RelativeTime } from "@/app/_components/RelativeTime";
import { useSnapshotsQuery } from "@/app/_hooks/queries";
import { diffHref } from "@/app/_lib/links";
import { KIND_WORD } from "@/app/_components/diff/SurfaceChangeView";

export const TRIGGERS: Record<string, string> = {
  connect: "on connect",
  reconnect: "on reconnect",
  relisten: "re-subscribed",
  list_changed: "list_changed",
  poll: "poll",
  ttl_expiry: "TTL expiry",
  manual: "manual refresh",
};

/** The server's snapshots, newest first, each with what changed against the one before. */
export function Timeline({ serverId }: { serverId: string }) {
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage } = useSnapshotsQuery(serverId);
  const items = data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Snapshot timeline</h2>
      {isPending ? <p aria-busy="true">Loading…</p> : null}
      {error ? <p role="alert">{error.message}</p> : null}
      {data && items.length === 0 ? <p className="muted">No snapshot yet.</p> : null}
      {items.length ? (
        <ol className="timeline" data-testid="timeline">
          {items.map((s, i) => (
            // The one before is the next item; past the loaded page the API finds it from `to`.
            <TimelineItem key={s.id} serverId={serverId} snapshot={s} previousId={items[i + 1]?.id ?? null} isFirst={!hasNextPage && i === items.length - 1} />
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


function TimelineItem({ serverId, snapshot: s, previousId, isFirst }: { serverId: string; snapshot: SnapshotDto; previousId: string | null; isFirst: boolean }) {
  const c = s.changes;
  const initial = isFirst && !c;
  const quiet = c && !c.added && !c.removed && !c.changed && !c.surface?.length;
  return (
    <li data-testid="timeline-item" className={`level-edge-${c?.highest?.toLowerCase() ?? "none"}`}>
      <div className="timeline-row">
        <strong>{s.toolCount} tools</strong>
        {c ? <ChangeCounts {...c} /> : initial ? null : <span className="muted">no summary</span>}
        <LevelBadge level={c?.highest} />
        {c?.orderOnly ? <span className="tag">order only</span> : null}
        {quiet && !c.orderOnly ? <span className="tag">no tool changes</span> : null}
        {s.serverVersionChanged ? (
          <span className="tag version-bump" title={`serverInfo.version is now ${s.serverVersion ?? "unset"}`}>
            version bump
          </span>
        ) : null}
        <Link className="diff-link" href={diffHref(serverId, { from: previousId, to: s.id })} data-testid="timeline-diff-link">
          {initial ? "initial" : "diff"}
        </Link>
      </div>
      {c?.surface?.length ? (
        <ul className="small surface-changes" data-testid="timeline-surface-changes">
          {c.surface.map((item, i) => (
            <li key={i}>
              <LevelBadge level={item.highest} /> {KIND_WORD[item.kind]} {item.kind === "instructions" ? null : <code><VisibleText text={item.name} /></code>} {item.change}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="muted small">
        <RelativeTime iso={s.takenAt} /> · {TRIGGERS[s.trigger] ?? s.trigger}
        {c ? <NotifiedMarker notified={s.notified} /> : null}
        {s.confirmCount > 0 ? ` · confirmed ${s.confirmCount}×` : ""}
        {s.pages !== null && s.pages > 1 ? ` · ${s.pages} pages` : ""}
        {s.protocolVersion ? ` · ${s.protocolVersion}` : ""}
        {s.ttlMs !== null ? ` · ttl ${s.ttlMs} ms ${s.cacheScope ?? ""}` : ""}
        {s.fromCache ? " · from cache" : ""}
      </div>
    </li>
  );
}

/** Whether the server announced the change (list_changed) or we only noticed it ("silent"). */
function NotifiedMarker({ notified }: { notified: boolean }) {
  return notified ? (
    <span className="notified" title="A notifications/tools/list_changed preceded this listing">
      {" "}
      · notified
    </span>
  ) : (
    <span className="silent" title="Found without a list_changed notification (by a poll, reconnect or refresh): the server changed silently">
      {" "}
      · silent
    </span>
  );
}
