"use client";

import { RelativeTime } from "../../_components/RelativeTime";
import { useSnapshotsQuery } from "../../_hooks/queries";

const TRIGGERS: Record<string, string> = {
  connect: "on connect",
  reconnect: "on reconnect",
  relisten: "re-subscribed",
  list_changed: "list_changed",
  poll: "poll",
  ttl_expiry: "TTL expiry",
  manual: "manual refresh",
};

export function Timeline({ serverId }: { serverId: string }) {
  const { data, error, isPending } = useSnapshotsQuery(serverId);
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Snapshot timeline</h2>
      {isPending ? <p aria-busy="true">Loading…</p> : null}
      {error ? <p role="alert">{error.message}</p> : null}
      {data ? (
        <ol className="timeline" data-testid="timeline">
          {data.items.map((s) => (
            <li key={s.id} data-testid="timeline-item">
              <div>
                <strong>{s.toolCount} tools</strong>{" "}
                {s.changes ? (
                  <span className="changes" aria-label={`${s.changes.added} added, ${s.changes.removed} removed, ${s.changes.changed} changed`}>
                    <span className="added">+{s.changes.added}</span> <span className="removed">−{s.changes.removed}</span>{" "}
                    <span className="changed">~{s.changes.changed}</span>
                  </span>
                ) : (
                  <span className="muted">first snapshot</span>
                )}
              </div>
              <div className="muted small">
                <RelativeTime iso={s.takenAt} /> · {TRIGGERS[s.trigger] ?? s.trigger}
                {s.confirmCount > 0 ? ` · confirmed ${s.confirmCount}×` : ""}
                {s.pages !== null && s.pages > 1 ? ` · ${s.pages} pages` : ""}
                {s.protocolVersion ? ` · ${s.protocolVersion}` : ""}
                {s.ttlMs !== null ? ` · ttl ${s.ttlMs} ms ${s.cacheScope ?? ""}` : ""}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
